package timing

// NextCycle finds the earliest cycle after a given one at which a unit has
// something due (an item leaving a pipeline, a stage becoming free): what a
// tick that made no progress hands to Waker.WakeForNext.
//
//	next := timing.After(cycle)
//	next.Consider(readyAt)
//	w.WakeForNext(now, cycle, next.Cycle())
type NextCycle struct{ after, at uint64 }

// After starts the search for the earliest cycle after cycle.
func After(cycle uint64) NextCycle { return NextCycle{after: cycle, at: ^uint64(0)} }

// Consider takes cycle t when it lies after the start and before the earliest
// so far.
func (n *NextCycle) Consider(t uint64) {
	if t > n.after && t < n.at {
		n.at = t
	}
}

// Cycle returns the earliest cycle considered, or ^uint64(0) when none lay
// after the start (Waker.WakeForNext then wakes nothing).
func (n NextCycle) Cycle() uint64 { return n.at }
