package expt

import (
	"errors"
	"os"
	"os/signal"
	"sync"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/scene/driver"
	"github.com/gfxsim/gfxsim/timing"
	"github.com/gfxsim/gfxsim/tracing"
)

// ErrInterrupted is the reason a run halted by Ctrl-C stops with.
var ErrInterrupted = errors.New("interrupted (Ctrl-C)")

// interrupts holds the runs that the first Ctrl-C halts.
var interrupts struct {
	sync.Mutex
	halts    map[*timing.Halt]bool
	signals  chan os.Signal
	received bool
}

// HaltOnInterrupt makes the first Ctrl-C (SIGINT) halt the simulation of h
// with ErrInterrupted, as an error halts it: the run ends at once, its trace
// and metrics are closed and its error names the interruption, instead of the
// process dying with a trace file half written. A second Ctrl-C kills the
// process as usual. Every simulation running at the time is halted (a
// study's workers). It returns the function that stops watching h, to call
// when its run is over.
func HaltOnInterrupt(h *timing.Halt) (done func()) {
	in := &interrupts
	in.Lock()
	defer in.Unlock()
	if in.received {
		h.Stop(ErrInterrupted)
		return func() {}
	}
	if in.halts == nil {
		in.halts = map[*timing.Halt]bool{}
		in.signals = make(chan os.Signal, 1)
		signal.Notify(in.signals, os.Interrupt)
		go func() {
			<-in.signals
			signal.Stop(in.signals) // the next Ctrl-C kills the process
			in.Lock()
			defer in.Unlock()
			in.received = true
			for h := range in.halts {
				h.Stop(ErrInterrupted)
			}
		}()
	}
	in.halts[h] = true
	return func() {
		in.Lock()
		defer in.Unlock()
		delete(in.halts, h)
	}
}

// RunFrame simulates frame f on platform p with its instruments in (nil:
// none), halting it on Ctrl-C (HaltOnInterrupt), and closes the instruments
// at the run's end (Platform.RunEnd) when it is over, whatever its outcome: the
// studies' timed frames. The run's error comes first, then the instruments'.
func RunFrame(p *configs.Platform, f *driver.Frame, in *tracing.Instruments) (*configs.Result, error) {
	stopWatching := HaltOnInterrupt(p.Halt)
	res, err := p.Run(f)
	stopWatching()
	if cerr := in.Close(p.RunEnd()); err == nil {
		err = cerr
	}
	return res, err
}
