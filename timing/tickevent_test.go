package timing

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

func TestIsTick(t *testing.T) {
	tc := NewTickingComponent("Unit", nil, sim.GHz, nil)
	for _, c := range []struct {
		name string
		e    sim.Event
		want bool
	}{
		{"timing's tick", &tickEvent{t: 1, c: tc}, true},
		{"Akita's tick", sim.MakeTickEvent(1, nil), true},
		{"another event", sim.NewEventBase(1, nil), false},
	} {
		if got := IsTick(c.e); got != c.want {
			t.Errorf("%s: IsTick = %v, want %v", c.name, got, c.want)
		}
	}
}
