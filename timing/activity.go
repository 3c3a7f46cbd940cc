package timing

import "fmt"

// Activity attributes every cycle of a component to one state: busy, or a named
// stall cause (starved, blocked by a full output, waiting on memory, ...). The
// component calls Set with the state it is in from a given cycle on; the cycles
// since the previous call go to the previous state, so a component that sleeps
// keeps accounting correctly (set the state before going to sleep). State 0 is
// "busy"; utilization is busy cycles over all cycles.
type Activity struct {
	names  []string
	cycles []uint64
	last   uint64
	state  int
	begun  bool
}

// NewActivity returns an activity with the given state names; names[0] is the busy
// state, and the activity starts in the last state (conventionally "idle").
func NewActivity(names ...string) *Activity {
	if len(names) < 2 {
		panic("timing: an activity needs a busy state and at least one other")
	}
	return &Activity{names: names, cycles: make([]uint64, len(names)), state: len(names) - 1}
}

// Set switches to state s at cycle c (cycles before c go to the previous state).
func (a *Activity) Set(c uint64, s int) {
	if !a.begun {
		a.begun, a.last = true, 0
	}
	if c > a.last {
		a.cycles[a.state] += c - a.last
		a.last = c
	}
	a.state = s
}

// State returns the current state.
func (a *Activity) State() int { return a.state }

// Finish accounts the cycles up to end (exclusive) to the current state.
func (a *Activity) Finish(end uint64) { a.Set(end, a.state) }

// At returns the cycles of state s and of every state up to cycle c: those
// attributed, and the cycles since the last Set, which go to the current
// state (as Finish(c) would attribute them; a is not changed). A sampler
// reads a sleeping unit's cycles with it, which Set credits only when the
// unit next ticks.
func (a *Activity) At(s int, c uint64) (cycles, total uint64) {
	cycles, total = a.cycles[s], a.Total()
	last := a.last
	if !a.begun {
		last = 0
	}
	if c > last {
		total += c - last
		if a.state == s {
			cycles += c - last
		}
	}
	return cycles, total
}

// Cycles returns the cycles attributed to state s.
func (a *Activity) Cycles(s int) uint64 { return a.cycles[s] }

// Total returns all cycles attributed.
func (a *Activity) Total() uint64 {
	var t uint64
	for _, c := range a.cycles {
		t += c
	}
	return t
}

// Utilization returns busy cycles over all cycles (0 when no cycle passed).
func (a *Activity) Utilization() float64 {
	t := a.Total()
	if t == 0 {
		return 0
	}
	return float64(a.cycles[0]) / float64(t)
}

// MainStall returns the non-busy state with the most cycles, excluding the last
// state (idle), and its cycles; "" when there was none.
func (a *Activity) MainStall() (string, uint64) {
	best, bc := "", uint64(0)
	for i := 1; i < len(a.names)-1; i++ {
		if a.cycles[i] > bc {
			best, bc = a.names[i], a.cycles[i]
		}
	}
	return best, bc
}

// Stats reports prefix.cycles_<state> for every state and prefix.utilization.
func (a *Activity) Stats(prefix string, add func(string, float64)) {
	for i, n := range a.names {
		add(fmt.Sprintf("%s.cycles_%s", prefix, n), float64(a.cycles[i]))
	}
	add(prefix+".utilization", a.Utilization())
}

// WaitReason is the activity state of a unit's cycle in which it could not
// move: the first stall a stage records (stages run back to front, so the
// stage nearest the output), or none. The zero value holds none; End, the
// last step of the unit's tick, returns the cycle's state and forgets the
// reason for the next cycle.
type WaitReason struct{ s int } // the state + 1; 0: none

// Record makes state s the reason unless a stage recorded one this cycle.
func (w *WaitReason) Record(s int) {
	if w.s == 0 {
		w.s = s + 1
	}
}

// End returns the state of the cycle, busy when the unit made progress, else
// the reason recorded, else otherwise; and forgets the reason.
func (w *WaitReason) End(progress bool, busy, otherwise int) int {
	r := w.s - 1
	w.s = 0
	switch {
	case progress:
		return busy
	case r >= 0:
		return r
	}
	return otherwise
}
