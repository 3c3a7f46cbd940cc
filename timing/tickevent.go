package timing

import "github.com/sarchlab/akita/v3/sim"

// Ticked returns the component that event e ticks, and whether it ticks
// one: a TickingComponent's tick, Akita's, or a unit's wake-up, which ticks
// its unit within the event (see NewUnit). A test hook that logs when a unit
// ticks matches events with it; a wake-up that finds a tick of its own time
// already scheduled leaves the tick to that event, so a log keeps one entry
// per cycle (testpeer.TickLog).
func Ticked(e sim.Event) (sim.Handler, bool) {
	switch ev := e.(type) {
	case *tickEvent:
		return ev.c, true
	case sim.TickEvent:
		return ev.Handler(), true
	case *wakeEvent:
		if ev.w.unit != nil {
			return ev.w.unit, true
		}
	}
	return nil, false
}

// reuse keeps the events a handler has handled, to schedule them again:
// handing a new event value to sim.Engine.Schedule allocates it on the heap,
// once per tick of every unit, and reusing one does not. An event goes back
// into use only once the handler's next event is being handled: by then the
// engine and its hooks are done with it, on the serial engine and on the
// parallel ones, Akita's and ParallelEngine (which finish every event of a
// time before the next time, and run at most one event of a handler per
// time). The handler guards it
// with its own lock.
type reuse[E any] struct {
	free []*E
	last *E // the event being handled, or last handled
}

// get returns an event to fill in and schedule.
func (r *reuse[E]) get() *E {
	if n := len(r.free); n > 0 {
		e := r.free[n-1]
		r.free = r.free[:n-1]
		return e
	}
	return new(E)
}

// handled records that e is being handled: the one handled before it can
// be used again.
func (r *reuse[E]) handled(e *E) {
	if r.last != nil {
		r.free = append(r.free, r.last)
	}
	r.last = e
}
