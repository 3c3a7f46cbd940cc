package pipeline

import (
	"math"
	"testing"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/decouple"
)

// TestDecouplingRateRange: every shading rate the command stream accepts
// converts to a grid spacing the decoupling map accepts (a rate of 1e-7, once
// accepted by the decoder, failed at the draw); just outside the range the
// spacing is refused too.
func TestDecouplingRateRange(t *testing.T) {
	for _, c := range []struct {
		rate float32
		ok   bool
	}{
		{command.MinDecouplingRate, true},
		{command.MaxDecouplingRate, true},
		{1, true},
		{math.Nextafter32(command.MinDecouplingRate, 0), false},
		{1e-7, false},
	} {
		err := decouple.Options{Rate: shadingSpacing(c.rate)}.Validate()
		if (err == nil) != c.ok {
			t.Errorf("rate %g (spacing %g pixels): %v, want accepted %v", c.rate, shadingSpacing(c.rate), err, c.ok)
		}
	}
}
