package timing

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

func TestTicked(t *testing.T) {
	e := NewSerialEngine()
	u := NewUnit("Unit", Env{Engine: e, Freq: sim.GHz}, struct{}{}, nil)
	plain := NewWaker(e, sim.GHz, u.TickingComponent)
	direct := NewTickWaker(e, sim.GHz, func(sim.VTimeInSec) bool { return false })
	for _, c := range []struct {
		name string
		e    sim.Event
		want sim.Handler
	}{
		{"timing's tick", &tickEvent{t: 1, c: u.TickingComponent}, u.TickingComponent},
		{"Akita's tick", sim.MakeTickEvent(1, u.TickingComponent), u.TickingComponent},
		{"a unit's wake-up", &wakeEvent{t: 1, w: u.Waker}, u.TickingComponent},
		{"a wake-up that asks for a tick event", &wakeEvent{t: 1, w: plain}, nil},
		{"a tick waker's wake-up", &wakeEvent{t: 1, w: direct}, nil},
		{"another event", sim.NewEventBase(1, nil), nil},
	} {
		got, ok := Ticked(c.e)
		if got != c.want || ok != (c.want != nil) {
			t.Errorf("%s: Ticked = %v, %v; want %v", c.name, got, ok, c.want)
		}
	}
}
