package configs

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// watchdog ends a run that stops making progress. It wakes every period cycles,
// compares the platform's progress counter with its last reading, and halts the
// simulation when it has not moved for limit cycles while the frame is unfinished
// (a unit's work scheduled past the check, Progress.BusyUntil, counts as moving).
// It stops waking up once the frame is finished, so it never keeps the engine alive.
type watchdog struct {
	*timing.TickingComponent
	waker    *timing.Waker
	halt     *timing.Halt
	progress *timing.Progress
	finished func() bool
	report   func() string

	period, limit uint64
	lastValue     uint64
	lastChange    uint64
}

func newWatchdog(engine sim.Engine, freq sim.Freq, limit uint64, h *timing.Halt, p *timing.Progress,
	finished func() bool, report func() string) *watchdog {
	w := &watchdog{halt: h, progress: p, finished: finished, report: report, limit: limit, period: max(1, limit/8)}
	w.TickingComponent = timing.NewSamplerComponent("GPU.Watchdog", engine, freq, w)
	w.waker = timing.NewWaker(engine, freq, w)
	return w
}

// start arms the watchdog at time now.
func (w *watchdog) start(now sim.VTimeInSec) {
	w.lastValue, w.lastChange = w.progress.Value(), w.Freq.Cycle(now)
	w.waker.WakeIn(now, int(w.period))
}

func (w *watchdog) Tick(now sim.VTimeInSec) bool {
	if w.finished() || w.halt.Stopped() {
		return false
	}
	c := w.Freq.Cycle(now)
	if v := w.progress.Value(); v != w.lastValue || w.progress.BusyAt(now) {
		w.lastValue, w.lastChange = v, c
	} else if c-w.lastChange >= w.limit {
		w.halt.Stop(fmt.Errorf("watchdog: no progress for %d cycles (cycle %d; watchdog_cycles sets the limit, for a machine "+
			"configured to take longer over one piece of work)\n%s", c-w.lastChange, c, w.report()))
		return false
	}
	w.waker.WakeIn(now, int(w.period))
	return false
}
