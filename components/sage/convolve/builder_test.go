package convolve_test

import (
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/sage/convolve"
	"github.com/gfxsim/gfxsim/timing"
)

func TestConfigValidate(t *testing.T) {
	set := testpeer.Reject[convolve.Config]
	ok := convolve.DefaultConfig()
	ok.Convolver, ok.Positions = mitchell(t), newGridPositions(8)
	testpeer.CheckInvalid(t, ok,
		set(func(c *convolve.Config) { c.Index, c.Chips = 4, 4 }, "convolve: Index 4 must be in [0, Chips=4)"),
		set(func(c *convolve.Config) { c.Index, c.Chips = 0, 0 }, "convolve: Chips 0 must be at least 1"),
		set(func(c *convolve.Config) { c.OutputWidth, c.OutputHeight = 0, 5 },
			"convolve: Output 0x5 must be in [1, 16384] on each side"),
		set(func(c *convolve.Config) { c.SourceWidth, c.SourceHeight = 960, 1024 },
			"convolve: Source 960x1024 and Output 1280x1024: the step (source/output) must be the same on both axes"),
		set(func(c *convolve.Config) { c.SourceWidth, c.SourceHeight = 1280*17, 1024*17 },
			"convolve: Source 21760x17408 must be in [1, 16384] on each side"),
		set(func(c *convolve.Config) { c.Samples = 17 }, "convolve: Samples 17 must be in [1, 16]"),
		set(func(c *convolve.Config) { c.Convolver = nil }, "convolve: Convolver is not set"),
		set(func(c *convolve.Config) { c.Positions = nil }, "convolve: Positions is not set"),
		set(func(c *convolve.Config) { c.Lines = 4 }, "convolve: Lines 4 must be at least the filter window's 5"),
		set(func(c *convolve.Config) { c.Stream = convolve.Stream{First: 2, Count: 3, X0: 0, X1: 640} },
			"convolve: Stream chips [2, 5) must be within the board's [0, Chips=4)"),
		set(func(c *convolve.Config) { c.Stream = convolve.Stream{First: 2, Count: 2, X0: 640, X1: 1280} },
			"convolve: Index 0 must be in its Stream's chips [2, 4)"),
		set(func(c *convolve.Config) { c.Stream = convolve.Stream{First: 0, Count: 2, X0: 640, X1: 640} },
			"convolve: Stream columns [640, 640) must be a non-empty part of the Output width 1280"),
		set(func(c *convolve.Config) { c.Stream = convolve.Stream{First: 0, Count: 2, X0: 640, X1: 1281} },
			"convolve: Stream columns [640, 1281) must be a non-empty part of the Output width 1280"),
		set(func(c *convolve.Config) { c.RequestAhead = -1 }, "convolve: RequestAhead -1 must not be negative"),
		set(func(c *convolve.Config) { c.Processors = 0 }, "convolve: Processors 0 must be in [1, 25]"),
		set(func(c *convolve.Config) { c.Processors = 26 }, "convolve: Processors 26 must be in [1, 25]"),
	)
	testpeer.CheckAtLeast(t, ok, "convolve", 1,
		"SamplesPerCycle", "SpanPixels", "OutputLines", "FromRouteQueue", "FromPrevQueue")
	resized := ok
	resized.SourceWidth, resized.SourceHeight = 960, 768
	testpeer.CheckInvalid(t, resized) // 960x768 to 1280x1024
	testpeer.CheckEnv(t, true, func(e timing.Env) { convolve.MakeBuilder().WithEnv(e).WithConfig(ok).Build("Convolve") })
}
