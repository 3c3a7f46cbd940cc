package timing

import "github.com/sarchlab/akita/v3/sim"

// IsTick reports whether e is a tick event: of a TickingComponent or of
// Akita's. A test hook that logs when a unit ticks matches its events with
// IsTick and Handler (the unit's *TickingComponent).
func IsTick(e sim.Event) bool {
	switch e.(type) {
	case *tickEvent, sim.TickEvent:
		return true
	}
	return false
}

// reuse keeps the events a handler has handled, to schedule them again:
// handing a new event value to sim.Engine.Schedule allocates it on the heap,
// once per tick of every unit, and reusing one does not. An event goes back
// into use only once the handler's next event is being handled: by then the
// engine and its hooks are done with it, on the serial engine and on the
// parallel one (which finishes every event of a time before the next time,
// and runs at most one event of a handler per time). The handler guards it
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
