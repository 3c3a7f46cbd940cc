package timing

import (
	"errors"
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

// unitTestConfig is the configuration of unitUnderTest.
type unitTestConfig struct{ Window int }

// unitUnderTest is a unit built on Unit: it records the cycles of its ticks.
type unitUnderTest struct {
	Unit[unitTestConfig]
	ticks []uint64
}

func (u *unitUnderTest) Tick(now sim.VTimeInSec) bool {
	u.ticks = append(u.ticks, u.Freq.Cycle(now))
	return false
}

// TestUnit builds a unit with and without activity states and checks its
// name, clock, configuration and environment, its ticks (a TickLater and a wake-up), Finish
// (the cycles since the last Set go to the current state; nothing without an
// activity) and Err (nil, then the first failure, prefixed with the name).
func TestUnit(t *testing.T) {
	for _, c := range []struct {
		name   string
		states []string
		want   []uint64 // the activity's cycles per state after Finish at cycle 10
	}{
		{"no activity", nil, nil},
		{"busy and idle", []string{"busy", "idle"}, []uint64{7, 3}},
		{"a stall state", []string{"busy", "starved", "idle"}, []uint64{7, 0, 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := NewSerialEngine()
			halt := &Halt{}
			env := Env{Engine: e, Freq: 1 * sim.GHz, Halt: halt, Progress: &Progress{}}
			u := &unitUnderTest{}
			u.Unit = NewUnit("GPU.Unit", env, unitTestConfig{Window: 3}, u, c.states...)
			if u.Name() != "GPU.Unit" || u.Freq != env.Freq || u.Engine != sim.Engine(e) || u.Env != env || u.Cfg.Window != 3 {
				t.Fatalf("unit %q at %v on %v with %+v and %+v, want GPU.Unit at 1 GHz on the engine with %+v and window 3",
					u.Name(), u.Freq, u.Engine, u.Env, u.Cfg, env)
			}
			if (u.Activity == nil) != (c.states == nil) || u.Waker == nil {
				t.Fatalf("activity %v for states %v, waker %v", u.Activity, c.states, u.Waker)
			}
			u.TickLater(0)
			u.Waker.WakeIn(0, 5)
			if err := e.Run(); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(u.ticks, []uint64{1, 5}) || u.Waker.Pending() != 0 {
				t.Errorf("ticks at cycles %v with %d wake-ups pending, want [1 5] and none", u.ticks, u.Waker.Pending())
			}
			if u.Activity != nil {
				u.Activity.Set(3, 0)
			}
			u.Finish(u.Freq.NCyclesLater(10, 0))
			if u.Activity != nil {
				var got []uint64
				for s := range c.states {
					got = append(got, u.Activity.Cycles(s))
				}
				if !reflect.DeepEqual(got, c.want) {
					t.Errorf("cycles per state %v after Finish at cycle 10, want %v", got, c.want)
				}
			}
			if u.Err() != nil || u.Fault.Stopped() {
				t.Fatalf("a new unit has error %v, stopped %v", u.Err(), u.Fault.Stopped())
			}
			u.Fault.Fail(errors.New("boom"))
			u.Fault.Fail(errors.New("second"))
			if err := u.Err(); err == nil || err.Error() != "GPU.Unit: boom" || !halt.Stopped() {
				t.Errorf("after failing: error %v, halted %v; want GPU.Unit: boom, halted", err, halt.Stopped())
			}
		})
	}
}
