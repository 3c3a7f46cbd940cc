package route

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/samplebuffer"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// Config is the route network's configuration (sage.route; the chips are the
// sample buffer's 3DRAMs).
type Config struct {
	// Geometry is the sample buffer whose chips' video pins feed the route
	// chips: its interleaves, chips and map (which chip holds which sample).
	// Its raster is the presented target's (set at each PresentCmd).
	Geometry       samplebuffer.Geometry
	SamplesPerChip int // samples each chip delivers per video-read clock (1: 40 bits on 20 double-pumped pins)
	Convolves      int // convolve chips (outputs) the route feeds
	FIFOSamples    int // depth of each convolve output's FIFO in samples (at least one pixel's samples)
	SpanPixels     int // most pixels of one SampleSpan: a burst leaves the FIFO in spans of this many pixels
	RequestQueue   int // capacity of the FromConvolves port in messages
}

// DefaultConfig is the board's route network: the paper's 32 3DRAM chips (8
// interleaves of 4, the sample map), each delivering one 40-bit sample per
// video-read clock (20 video pins, double-pumped: section 3.5), 4 convolve
// chips, a 4096-sample FIFO per convolve output (silent: more than one
// 8-sample burst of 324 pixels), SampleSpans of at most 32 pixels and room
// for 8 LineRequests in the input port. Its clock (the Env's) is the
// video-read clock: 50 MHz in sage.yaml (silent in the paper; chosen so that
// 32 samples a clock give its 1.6 G samples/s peak video bandwidth, section
// 10.3).
func DefaultConfig() Config {
	return Config{
		Geometry: samplebuffer.Geometry{Width: 1, Height: 1, Samples: 1, Interleaves: samplebuffer.DefaultInterleaves,
			ChipsPerInterleave: samplebuffer.DefaultChipsPerInterleave},
		SamplesPerChip: 1, Convolves: 4, FIFOSamples: 4096, SpanPixels: 32, RequestQueue: 8,
	}
}

// Validate names the first bad field.
func (c Config) Validate() error {
	r := check.For("route").
		FieldsAtLeast(1, c, "SamplesPerChip", "Convolves", "FIFOSamples", "SpanPixels", "RequestQueue")
	if err := c.Geometry.Validate(1 << 62); err != nil {
		r.Wrap(fmt.Errorf("Geometry: %w", err))
	}
	return r.Err()
}

// Builder builds the route network: MakeBuilder().WithEnv(env).
// WithConfig(cfg).Build(name), for example "GPU.Route" (timing.Builder). The
// Env's clock is the video-read clock; the route stops at its next tick once
// the halt is set and reports protocol errors through it; the progress counts
// one unit per message sent. Build panics on a bad Env or Config (configs
// validates first).
type Builder = timing.Builder[Config, *Comp]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("route", DefaultConfig(), build) }

// build makes the unit named name from a checked Env and Config.
func build(name string, env timing.Env, cfg Config) *Comp {
	c := &Comp{
		geometry:  cfg.Geometry,
		outs:      make([]output, cfg.Convolves),
		Convolves: make([]sim.Port, cfg.Convolves),
	}
	c.Unit = timing.NewUnit(name, env, cfg, c, activityNames[:]...)
	c.FromConvolves, c.inBuf = timing.AddBufferedPort(c, "FromConvolves", cfg.RequestQueue)
	c.ToConvolves = timing.AddPort(c, "ToConvolves", 1)
	c.Control = timing.AddPort(c, "Control", 2)
	return c
}
