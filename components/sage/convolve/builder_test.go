package convolve_test

import (
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/sage/convolve"
	"github.com/gfxsim/gfxsim/timing"
)

func TestConfigValidate(t *testing.T) {
	ok := convolve.DefaultConfig()
	ok.Convolver, ok.Positions = mitchell(t), newGridPositions(8)
	for _, tc := range []struct {
		set  func(*convolve.Config)
		want string
	}{
		{func(c *convolve.Config) { c.Index, c.Chips = 4, 4 }, "Index"},
		{func(c *convolve.Config) { c.Index, c.Chips = 0, 0 }, "Chips"},
		{func(c *convolve.Config) { c.OutputWidth, c.OutputHeight = 0, 5 }, "Output"},
		{func(c *convolve.Config) { c.SourceWidth, c.SourceHeight = 960, 1024 }, "step"},
		{func(c *convolve.Config) { c.SourceWidth, c.SourceHeight = 1280*17, 1024*17 }, "Source"},
		{func(c *convolve.Config) { c.Samples = 17 }, "Samples"},
		{func(c *convolve.Config) { c.Convolver = nil }, "Convolver"},
		{func(c *convolve.Config) { c.Positions = nil }, "Positions"},
		{func(c *convolve.Config) { c.Lines = 4 }, "Lines"},
		{func(c *convolve.Config) { c.Stream = convolve.Stream{First: 2, Count: 3, X0: 0, X1: 640} }, "Stream chips [2, 5)"},
		{func(c *convolve.Config) { c.Stream = convolve.Stream{First: 2, Count: 2, X0: 640, X1: 1280} },
			"Index 0 must be in its Stream's chips [2, 4)"},
		{func(c *convolve.Config) { c.Stream = convolve.Stream{First: 0, Count: 2, X0: 640, X1: 640} }, "Stream columns [640, 640)"},
		{func(c *convolve.Config) { c.Stream = convolve.Stream{First: 0, Count: 2, X0: 640, X1: 1281} }, "Stream columns [640, 1281)"},
		{func(c *convolve.Config) { c.RequestAhead = -1 }, "RequestAhead"},
		{func(c *convolve.Config) { c.Processors = 0 }, "Processors"},
		{func(c *convolve.Config) { c.SamplesPerCycle = 0 }, "SamplesPerCycle"},
		{func(c *convolve.Config) { c.SpanPixels = 0 }, "SpanPixels"},
		{func(c *convolve.Config) { c.OutputLines = 0 }, "OutputLines"},
		{func(c *convolve.Config) { c.FromRouteQueue = 0 }, "FromRouteQueue"},
		{func(c *convolve.Config) { c.FromPrevQueue = 0 }, "FromPrevQueue"},
	} {
		cfg := ok
		tc.set(&cfg)
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate() = %v, want an error naming %s", err, tc.want)
		}
	}
	if err := ok.Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	resized := ok
	resized.SourceWidth, resized.SourceHeight = 960, 768
	if err := resized.Validate(); err != nil {
		t.Errorf("960x768 to 1280x1024: %v", err)
	}
	testpeer.CheckEnv(t, true, func(e timing.Env) { convolve.MakeBuilder().WithEnv(e).WithConfig(ok).Build("Convolve") })
}
