package commandprocessor

import (
	"math/bits"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// MaxCommandBytes is the size of the largest command the decoder accepts (a header
// and command.MaxPayloadWords payload words). The prefetch buffer
// (MaxOutstandingDMA chunks of DMAChunkBytes) must hold at least this much, or a
// long command could never be decoded.
const MaxCommandBytes = 4 + 4*command.MaxPayloadWords

// Config is a command processor's parameters (configs fills it from the
// command_processor and raster sections).
type Config struct {
	// DMAChunkBytes is the size of one DMA read of the command stream (and
	// the largest piece of a resource read), a multiple of 4 bytes.
	DMAChunkBytes int
	// MaxOutstandingDMA is the number of DMA reads in flight, which is also
	// the number of chunks the prefetch buffer holds.
	MaxOutstandingDMA int
	DecodeCycles      int // cycles the decoder spends on each command
	// StateVersions is the number of draws that may be in flight at once
	// (the number of state versions the pipeline holds); 1 means a flush
	// between draws.
	StateVersions int
	// RasterOptions are the rasterizer parameters every draw's raster.Config
	// is built with (tile size, tile and quad traversal orders).
	RasterOptions pipeline.RasterOptions
	// Partitions is the number of ROP partitions (ROPs, and depth units); a
	// draw is complete when every partition has reported DrawDone.
	Partitions int
	// ForceLateZ makes every draw run its depth/stencil test after shading
	// (the reference renderer's ForceLateZ option); the image does not
	// change.
	ForceLateZ bool
	// PerSample makes every draw one the machine shades per sample and tests
	// at the sample write (SAGE): decoupled sampling off, no early Z, as
	// reference.SageOptions renders.
	PerSample bool
}

// DefaultConfig returns 256-byte DMA chunks, 4 DMA reads in flight, 1 decode
// cycle per command, 8 state versions (draws in flight), 8x8 raster tiles
// with tiles and quads in row-major order, 1 partition, early Z allowed.
func DefaultConfig() Config {
	return Config{DMAChunkBytes: 256, MaxOutstandingDMA: 4, DecodeCycles: 1, StateVersions: 8,
		RasterOptions: pipeline.RasterOptions{TileSize: raster.DefaultTileSize}, Partitions: 1}
}

// Validate checks the parameters; the error names the first bad one.
func (c Config) Validate() error {
	ts := c.RasterOptions.TileSize
	r := check.For("commandprocessor").
		That(c.DMAChunkBytes >= 4 && c.DMAChunkBytes%4 == 0 && c.DMAChunkBytes <= 1<<20,
			"DMAChunkBytes: %d is not a multiple of 4 in [4, 1048576]", c.DMAChunkBytes).
		That(c.MaxOutstandingDMA >= 1 && c.MaxOutstandingDMA <= 1024,
			"MaxOutstandingDMA: %d is outside [1, 1024]", c.MaxOutstandingDMA).
		That(c.DMAChunkBytes*c.MaxOutstandingDMA >= MaxCommandBytes,
			"MaxOutstandingDMA: %d chunks of %d bytes cannot hold the largest command (%d bytes)",
			c.MaxOutstandingDMA, c.DMAChunkBytes, MaxCommandBytes).
		That(c.DecodeCycles >= 1 && c.DecodeCycles <= 1<<16, "DecodeCycles: %d is outside [1, 65536]", c.DecodeCycles).
		That(c.StateVersions >= 1 && c.StateVersions <= 1<<16, "StateVersions: %d is outside [1, 65536]", c.StateVersions).
		That(c.Partitions >= 1 && c.Partitions <= 1024, "Partitions: %d is outside [1, 1024]", c.Partitions).
		That(ts == 0 || (ts >= 2 && ts <= 256 && bits.OnesCount(uint(ts)) == 1),
			"RasterOptions.TileSize: %d is not a power of two in [2, 256]", ts)
	for _, o := range []struct {
		name string
		v    raster.TraversalOrder
	}{{"TileOrder", c.RasterOptions.TileOrder}, {"QuadOrder", c.RasterOptions.QuadOrder}} {
		r.That(o.v == raster.RowMajor || o.v == raster.ZOrder, "RasterOptions.%s: unknown traversal order %d", o.name, o.v)
	}
	return r.Err()
}

// Builder builds command processors: MakeBuilder().WithEnv(env).
// WithConfig(cfg).Build(name) (e.g. "GPU.CommandProcessor"). The component
// stops at its next tick once env's halt is set, and sets it (with the error)
// when the command stream is bad; env's progress counts one unit per command
// carried out and per draw completed. Build also panics when name is not a
// valid Akita name.
type Builder = timing.Builder[Config, *CommandProcessor]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("commandprocessor", DefaultConfig(), build) }

func build(name string, env timing.Env, cfg Config) *CommandProcessor {
	c := &CommandProcessor{
		cfg: cfg,
		env: env,
	}
	c.TickingComponent = timing.NewTickingComponent(name, env.Engine, env.Freq, c)
	c.waker = timing.NewWaker(env.Engine, env.Freq, c)
	c.activity = timing.NewActivity(stateNames[:]...)
	c.createPorts(name)
	c.createBuffers()
	return c
}

func (c *CommandProcessor) createPorts(name string) {
	// Memory responses: never more than the requests in flight.
	c.ToMemory = timing.AddPort(c, "ToMemory", c.cfg.MaxOutstandingDMA)
	c.ToLocalMemory = timing.AddPort(c, "ToLocalMemory", 1)
	// Nothing comes back from the input assembler.
	c.ToInputAssembler = timing.AddPort(c, "ToInputAssembler", 1)
	// DrawDone from every partition for every draw in flight, and the Done of
	// every back-end command; the component drains the port every tick.
	c.ToBackEnd = timing.AddPort(c, "ToBackEnd", max(8, 2*c.cfg.Partitions))
}

func (c *CommandProcessor) createBuffers() {
	c.chunks = make([]chunk, c.cfg.MaxOutstandingDMA)
	for i := range c.chunks {
		c.chunks[i].data = make([]byte, c.cfg.DMAChunkBytes)
	}
	c.window = make([]byte, 0, c.cfg.DMAChunkBytes*c.cfg.MaxOutstandingDMA)
}
