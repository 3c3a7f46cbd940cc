package timing

import "github.com/sarchlab/akita/v3/sim"

// Unit is what every gfxsim unit is built from: its ticking component, the
// Env it was built with, its Fault, the Activity of its cycles and its Waker.
// A unit embeds it and makes it first in its build:
//
//	type Comp struct {
//		timing.Unit
//		...
//	}
//
//	func build(name string, env timing.Env, cfg Config) *Comp {
//		c := &Comp{cfg: cfg, ...}
//		c.Unit = timing.NewUnit(name, env, c, activityNames[:]...)
//		...
//	}
//
// The unit then has the TickingComponent's fields and methods (Name, Freq,
// Engine, TickLater, ...), c.Env, c.Fault, c.Activity and c.Waker, and Err
// and Finish. The fields are promoted, not reached through an interface or a
// pointer: a tick reads c.Fault and c.Activity as it read fields of its own.
// A unit keeps its Config as the value field cfg and reads a setting as
// c.cfg.X (one source for each setting); only what it derives from the
// Config (products, conversions, tables) gets a field of its own.
//
// Every unit under components/ embeds Unit but three whose stop or wake-up is
// not a Fault and a Waker: the command processor (its error is the run's
// error as users see it, without the unit's name in front that Fault adds,
// and without a Halt it records the error where a Fault panics), the host
// interface (its own builder with a Halt: no Env, Fault or Waker; a bridge
// that ticks while messages move) and the DRAM controller (memory/dramctl:
// its own builder, clocked by its DRAM timing and returning an error; a Halt
// and no Fault; a tick waker, NewTickWaker, that calls Tick directly).
type Unit struct {
	*TickingComponent
	Env      Env       // the engine, clock, halt and progress it was built with
	Fault    Fault     // its first protocol error, which halts the platform
	Activity *Activity // the state of each of its cycles; nil for a unit without states
	Waker    *Waker    // its wake-ups (built for every unit; one that never sleeps leaves it idle)
}

// NewUnit returns the unit named name, ticking t on env's engine and clock,
// with the activity of the given states (names[0] busy, the last idle; none:
// no activity).
func NewUnit(name string, env Env, t sim.Ticker, states ...string) Unit {
	tc := NewTickingComponent(name, env.Engine, env.Freq, t)
	u := Unit{TickingComponent: tc, Env: env, Fault: env.Fault(name), Waker: NewWaker(env.Engine, env.Freq, tc)}
	if len(states) > 0 {
		u.Activity = NewActivity(states...)
	}
	return u
}

// Err returns the unit's first protocol error, or nil.
func (u *Unit) Err() error { return u.Fault.Err() }

// Finish closes the activity accounting at time now (nothing without an
// activity).
func (u *Unit) Finish(now sim.VTimeInSec) {
	if u.Activity != nil {
		u.Activity.Finish(u.Freq.Cycle(now))
	}
}
