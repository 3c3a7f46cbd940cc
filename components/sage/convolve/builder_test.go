package convolve_test

import (
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/sage/convolve"
)

func TestBuilderValidate(t *testing.T) {
	e := sim.NewSerialEngine()
	ok := convolve.MakeBuilder().WithEngine(e).WithConvolver(mitchell(t)).WithPositions(newGridPositions(8))
	for _, tc := range []struct {
		b    convolve.Builder
		want string
	}{
		{convolve.MakeBuilder(), "Engine"},
		{ok.WithFreq(0), "Freq"},
		{ok.WithIndex(4, 4), "Index"},
		{ok.WithIndex(0, 0), "Chips"},
		{ok.WithOutput(0, 5), "Output"},
		{ok.WithSource(960, 1024), "step"},
		{ok.WithSource(1280*17, 1024*17), "Source"},
		{ok.WithSamples(17), "Samples"},
		{ok.WithConvolver(nil), "Convolver"},
		{ok.WithPositions(nil), "Positions"},
		{ok.WithLines(4), "Lines"},
		{ok.WithStream(convolve.Stream{First: 2, Count: 3, X0: 0, X1: 640}), "Stream chips [2, 5)"},
		{ok.WithStream(convolve.Stream{First: 2, Count: 2, X0: 640, X1: 1280}), "Index 0 must be in its Stream's chips [2, 4)"},
		{ok.WithStream(convolve.Stream{First: 0, Count: 2, X0: 640, X1: 640}), "Stream columns [640, 640)"},
		{ok.WithStream(convolve.Stream{First: 0, Count: 2, X0: 640, X1: 1281}), "Stream columns [640, 1281)"},
		{ok.WithRequestAhead(-1), "RequestAhead"},
		{ok.WithProcessors(0, 1), "Processors"},
		{ok.WithProcessors(25, 0), "SamplesPerCycle"},
		{ok.WithSpanPixels(0), "SpanPixels"},
		{ok.WithOutputLines(0), "OutputLines"},
		{ok.WithPortQueues(0, 1), "FromRouteQueue"},
	} {
		err := tc.b.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate() = %v, want an error naming %s", err, tc.want)
		}
	}
	if err := ok.Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	if err := ok.WithSource(960, 768).Validate(); err != nil {
		t.Errorf("960x768 to 1280x1024: %v", err)
	}
}
