package testpeer

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// Run ticks each unit of start at the engine's current time, in order, then
// runs e until no event is left; an engine error fails t. It is how a test
// drives its rig to the end.
func Run(t testing.TB, e sim.Engine, start ...timing.TickNower) {
	t.Helper()
	for _, u := range start {
		u.TickNow(e.CurrentTime())
	}
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
}
