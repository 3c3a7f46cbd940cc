package timing

import "github.com/sarchlab/akita/v3/sim"

// Unit is what every gfxsim unit is built from: its ticking component, its
// configuration (C, the unit's Config), the Env it was built with, its Fault,
// the Activity of its cycles and its Waker. A unit embeds it and makes it
// first in its build:
//
//	type Comp struct {
//		timing.Unit[Config]
//		...
//	}
//
//	func build(name string, env timing.Env, cfg Config) *Comp {
//		c := &Comp{...}
//		c.Unit = timing.NewUnit(name, env, cfg, c, activityNames[:]...)
//		...
//	}
//
// The unit then has the TickingComponent's fields and methods (Name, Freq,
// Engine, TickLater, ...), c.Cfg, c.Env, c.Fault, c.Activity and c.Waker, and
// Err and Finish. The fields are promoted, not reached through an interface
// or a pointer: a tick reads c.Fault, c.Activity and c.Cfg.X as it read
// fields of its own. A unit reads a setting as c.Cfg.X (one source for each
// setting); only what it derives from the Config (products, conversions,
// tables) gets a field of its own.
//
// Every unit under components/ embeds Unit but three whose stop or wake-up is
// not a Fault and a Waker: the command processor (its error is the run's
// error as users see it, without the unit's name in front that Fault adds,
// and without a Halt it records the error where a Fault panics), the host
// interface (its own builder with a Halt: no Env, Fault or Waker; a bridge
// that ticks while messages move) and the DRAM controller (memory/dramctl:
// its own builder, clocked by its DRAM timing and returning an error; a Halt
// and no Fault; a tick waker, NewTickWaker, that calls Tick directly).
type Unit[C any] struct {
	*TickingComponent
	Cfg      C         // the configuration it was built with (checked; never changed)
	Env      Env       // the engine, clock, halt and progress it was built with
	Fault    Fault     // its first protocol error, which halts the platform
	Activity *Activity // the state of each of its cycles; nil for a unit without states
	Waker    *Waker    // its wake-ups, each ticking the unit itself (built for every unit; one that never sleeps leaves it idle)
}

func NewUnit[C any](name string, env Env, cfg C, t sim.Ticker, states ...string) Unit[C] {
	tc := NewTickingComponent(name, env.Engine, env.Freq, t)
	u := Unit[C]{TickingComponent: tc, Cfg: cfg, Env: env, Fault: env.Fault(name), Waker: NewTickWaker(env.Engine, env.Freq, tc.tickNowDirect)}
	u.Waker.unit = tc
	if len(states) > 0 {
		u.Activity = NewActivity(states...)
	}
	return u
}

// Err returns the unit's first protocol error, or nil.
func (u *Unit[C]) Err() error { return u.Fault.Err() }

// Finish closes the activity accounting at time now (nothing without an
// activity).
func (u *Unit[C]) Finish(now sim.VTimeInSec) {
	if u.Activity != nil {
		u.Activity.Finish(u.Freq.Cycle(now))
	}
}

// BusyAt returns the unit's busy cycles and all its cycles, on its own clock,
// up to time now (Activity.At: the cycles it slept through included); ok is
// false for a unit without activity states.
func (u *Unit[C]) BusyAt(now sim.VTimeInSec) (busy, total uint64, ok bool) {
	if u.Activity == nil {
		return 0, 0, false
	}
	busy, total = u.Activity.At(0, u.Freq.Cycle(now))
	return busy, total, true
}
