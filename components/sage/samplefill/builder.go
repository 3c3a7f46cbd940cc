package samplefill

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/samplebuffer"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// Config is a sample fill's configuration (sage.fill; configs gives each its
// pipe).
type Config struct {
	Pipe          int // the index of the pipe the sample fill belongs to (the Pipe of its bursts and markers, the From of its load reports)
	QuadsPerWarp  int // sample quads per pixel warp (4 lanes each; at most 16, shader.MaxLanes / 4)
	WarpsInFlight int // warps sent to the shader core and not yet retired (the reorder buffer's size)
	// SamplesPerCycle is how many shaded samples per cycle are packed into
	// bursts (the fill rate toward the scheds).
	SamplesPerCycle int
	PacketBytes     int // the size of one sample packet on a sched bus
	BurstSamples    int // the most samples in one SampleBurst
	// Geometry is the sample buffer's organisation (which interleave holds a
	// sample); its Samples must be the draws' sample count (SetRaster sets it
	// per frame).
	Geometry samplebuffer.Geometry
	// InterleavesPerSched is how many interleaves a sched serves: interleave
	// i goes to sched i / n (two scheds: n >= Interleaves / 2).
	InterleavesPerSched int
	// PixelRate is the semantics of the shader inputs interpolated at the
	// pixel centre (pipeline.PixelRateLinks; nil: pipeline.DefaultPixelRate).
	PixelRate   []string
	InputQueue  int // the capacity, in messages, of FromRasterizer and FromDistributor
	OutputQueue int // the messages (bursts and markers) queued per sched bus
}

// DefaultConfig is pipe 0, 8 sample quads per warp (32 lanes), 8 warps in
// flight, 8 samples out per cycle, 16-byte sample packets (the document's
// RGBAZ + x, y + sample index, assumed 16 B), bursts of at most 16 samples,
// the board's sample buffer (1280x1024 at 8 samples over 8 interleaves of 4
// chips) with 4 interleaves per sched, texture coordinates at pixel rate
// (pipeline.DefaultPixelRate), 8 messages in the rasterizer input queue and 4
// messages queued per sched bus. Its clock (the Env's) is the core clock.
func DefaultConfig() Config {
	return Config{QuadsPerWarp: 8, WarpsInFlight: 8, SamplesPerCycle: 8, PacketBytes: 16, BurstSamples: 16,
		Geometry: samplebuffer.Geometry{Width: 1280, Height: 1024, Samples: 8,
			Interleaves: samplebuffer.DefaultInterleaves, ChipsPerInterleave: samplebuffer.DefaultChipsPerInterleave},
		InterleavesPerSched: samplebuffer.DefaultInterleaves / 2, PixelRate: pipeline.DefaultPixelRate,
		InputQueue: 8, OutputQueue: 4}
}

// Validate names the first bad field.
func (c Config) Validate() error {
	g := c.Geometry
	r := check.For("samplefill").
		NotNegative("Pipe", c.Pipe).
		InRange("QuadsPerWarp", c.QuadsPerWarp, 1, 16).
		FieldsAtLeast(1, c,
			"WarpsInFlight", "SamplesPerCycle", "PacketBytes", "BurstSamples", "InputQueue", "OutputQueue")
	if err := g.Validate(int64(g.Width) * int64(g.Height) * int64(g.Samples)); err != nil {
		r.Wrap(fmt.Errorf("Geometry: %w", err))
	}
	return r.That(c.InterleavesPerSched >= 1 && g.Interleaves <= Scheds*c.InterleavesPerSched,
		"InterleavesPerSched %d does not cover %d interleaves with %d scheds", c.InterleavesPerSched, g.Interleaves, Scheds).
		Err()
}

// Builder builds a SampleFill: MakeBuilder().WithEnv(env).WithConfig(cfg).
// Build(name) (timing.Builder). Protocol errors stop the run through the
// Env's halt. Build panics on a bad Env or Config (configs validates first).
type Builder = timing.Builder[Config, *SampleFill]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("samplefill", DefaultConfig(), build) }

// build makes the unit named name from a checked Env and Config.
func build(name string, env timing.Env, cfg Config) *SampleFill {
	if cfg.PixelRate == nil {
		cfg.PixelRate = pipeline.DefaultPixelRate
	}
	c := &SampleFill{}
	c.Unit = timing.NewUnit(name, env, cfg, c, stateNames[:]...)
	c.createPorts()
	c.bursts = make([]burst, cfg.Geometry.Interleaves)
	return c
}

func (c *SampleFill) createPorts() {
	c.FromRasterizer = timing.AddPort(c, "FromRasterizer", c.Cfg.InputQueue)
	c.FromDistributor = timing.AddPort(c, "FromDistributor", c.Cfg.InputQueue)
	c.ToShaderCore = timing.AddPort(c, "ToShaderCore", 1)
	c.FromShaderCore = timing.AddPort(c, "FromShaderCore", c.Cfg.WarpsInFlight)
	c.ToDistributor = timing.AddPort(c, "ToDistributor", 1)
	for k := range c.ToScheds {
		c.ToScheds[k] = timing.AddPort(c, fmt.Sprintf("ToScheds[%d]", k), 1)
	}
}
