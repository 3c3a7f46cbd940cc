package timing

import (
	"slices"
	"sync"

	"github.com/sarchlab/akita/v3/sim"
)

// TickNower is a component whose tick can be requested at a given time
// (sim.TickingComponent is one).
type TickNower interface {
	TickNow(now sim.VTimeInSec)
}

// Waker schedules future ticks of a component. Scheduling a far-future tick with
// TickingComponent.TickNow would hide an earlier TickLater (Akita keeps only the
// latest scheduled tick time), so the waker schedules its own small events and
// requests the tick only when one fires. Wake-ups at the same time are merged.
type Waker struct {
	lock    sync.Mutex
	engine  sim.Engine
	freq    sim.Freq
	comp    TickNower
	tick    func(now sim.VTimeInSec) bool // NewTickWaker: called directly
	unit    *TickingComponent             // the unit whose waker it is (NewUnit), for Ticked
	pending []sim.VTimeInSec              // sorted, distinct
	events  reuse[wakeEvent]              // its wake-up events, reused (under lock)
}

// NewWaker returns a waker for comp, whose clock is freq.
func NewWaker(engine sim.Engine, freq sim.Freq, comp TickNower) *Waker {
	return &Waker{engine: engine, freq: freq, comp: comp}
}

// NewTickWaker returns a waker that calls tick itself when a wake-up fires:
// one engine event per wake-up instead of two (the wake-up and the tick it
// requests). tick must tolerate a second call at the same time, since the
// component's ports may also schedule an ordinary tick then.
func NewTickWaker(engine sim.Engine, freq sim.Freq, tick func(now sim.VTimeInSec) bool) *Waker {
	return &Waker{engine: engine, freq: freq, tick: tick}
}

// wakeEvent is a wake-up: a time and the waker. It carries no ID (Akita's
// EventBase formats one for every event; nothing reads a wake-up's).
type wakeEvent struct {
	t sim.VTimeInSec
	w *Waker
}

func (e *wakeEvent) Time() sim.VTimeInSec { return e.t }
func (e *wakeEvent) Handler() sim.Handler { return e.w }
func (e *wakeEvent) IsSecondary() bool    { return false }

// WakeIn requests a tick cycles cycles after now (at least one).
func (w *Waker) WakeIn(now sim.VTimeInSec, cycles int) {
	if cycles < 1 {
		cycles = 1
	}
	w.WakeAt(w.freq.NCyclesLater(cycles, now))
}

// WakeAt requests a tick at time t.
func (w *Waker) WakeAt(t sim.VTimeInSec) {
	w.lock.Lock()
	defer w.lock.Unlock()
	i, found := slices.BinarySearch(w.pending, t)
	if found {
		return
	}
	w.pending = slices.Insert(w.pending, i, t)
	e := w.events.get()
	*e = wakeEvent{t, w}
	w.engine.Schedule(e)
}

// Handle implements sim.Handler: the wake-up fired.
func (w *Waker) Handle(e sim.Event) error {
	w.lock.Lock()
	t := e.Time()
	if we, ok := e.(*wakeEvent); ok {
		w.events.handled(we)
	}
	if i, found := slices.BinarySearch(w.pending, t); found {
		w.pending = slices.Delete(w.pending, i, i+1)
	}
	w.lock.Unlock()
	if w.tick != nil {
		w.tick(t)
		return nil
	}
	w.comp.TickNow(t)
	return nil
}

// Pending returns the number of wake-ups scheduled.
func (w *Waker) Pending() int {
	w.lock.Lock()
	defer w.lock.Unlock()
	return len(w.pending)
}
