package commandprocessor

import (
	"fmt"
	"math/bits"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/timing"
)

// MaxCommandBytes is the size of the largest command the decoder accepts (a header
// and command.MaxPayloadWords payload words). The prefetch buffer
// (MaxOutstandingDMA chunks of DMAChunkBytes) must hold at least this much, or a
// long command could never be decoded.
const MaxCommandBytes = 4 + 4*command.MaxPayloadWords

// Builder builds command processors. The zero value is not useful: start from
// MakeBuilder, which holds the defaults.
type Builder struct {
	engine            sim.Engine
	freq              sim.Freq
	halt              *timing.Halt
	progress          *timing.Progress
	dmaChunkBytes     int
	maxOutstandingDMA int
	decodeCycles      int
	stateVersions     int
	raster            pipeline.RasterOptions
	partitions        int
	forceLateZ        bool
	perSample         bool
}

// MakeBuilder returns a builder with the defaults: 1 GHz, 256-byte DMA chunks, 4
// DMA reads in flight, 1 decode cycle per command, 8 state versions (draws in
// flight), 8x8 raster tiles with tiles and quads in row-major order, 1 partition,
// early Z allowed. The engine must be set.
func MakeBuilder() Builder {
	return Builder{
		freq:              1 * sim.GHz,
		dmaChunkBytes:     256,
		maxOutstandingDMA: 4,
		decodeCycles:      1,
		stateVersions:     8,
		raster:            pipeline.RasterOptions{TileSize: raster.DefaultTileSize},
		partitions:        1,
	}
}

// WithEngine sets the simulation engine.
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the clock frequency.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt shares the platform's halt flag: the component stops at its next tick
// once it is set, and sets it (with the error) when the command stream is bad.
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress shares the platform's progress counter (one unit per command
// carried out and per draw completed).
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithDMAChunkBytes sets the size of one DMA read of the command stream (and the
// largest piece of a resource read), a multiple of 4 bytes.
func (b Builder) WithDMAChunkBytes(n int) Builder { b.dmaChunkBytes = n; return b }

// WithMaxOutstandingDMA sets the number of DMA reads in flight, which is also the
// number of chunks the prefetch buffer holds.
func (b Builder) WithMaxOutstandingDMA(n int) Builder { b.maxOutstandingDMA = n; return b }

// WithDecodeCycles sets the cycles the decoder spends on each command.
func (b Builder) WithDecodeCycles(n int) Builder { b.decodeCycles = n; return b }

// WithStateVersions sets the number of draws that may be in flight at once (the
// number of state versions the pipeline holds); 1 means a flush between draws.
func (b Builder) WithStateVersions(n int) Builder { b.stateVersions = n; return b }

// WithRasterOptions sets the rasterizer parameters every draw's raster.Config is
// built with (tile size, tile and quad traversal orders).
func (b Builder) WithRasterOptions(o pipeline.RasterOptions) Builder { b.raster = o; return b }

// WithPartitions sets the number of ROP partitions (ROPs, and depth units); a
// draw is complete when every partition has reported DrawDone.
func (b Builder) WithPartitions(n int) Builder { b.partitions = n; return b }

// WithForceLateZ makes every draw run its depth/stencil test after shading (the
// reference renderer's ForceLateZ option); the image does not change.
func (b Builder) WithForceLateZ(v bool) Builder { b.forceLateZ = v; return b }

// WithPerSample makes every draw one the machine shades per sample and tests
// at the sample write (SAGE): decoupled sampling off, no early Z, as
// reference.SageOptions renders.
func (b Builder) WithPerSample(v bool) Builder { b.perSample = v; return b }

// Validate checks the parameters; the error names the first bad one.
func (b Builder) Validate() error {
	switch {
	case b.engine == nil:
		return fmt.Errorf("commandprocessor: Engine: not set")
	case !(b.freq > 0):
		return fmt.Errorf("commandprocessor: Freq: %v Hz is not positive", float64(b.freq))
	case b.dmaChunkBytes < 4 || b.dmaChunkBytes%4 != 0 || b.dmaChunkBytes > 1<<20:
		return fmt.Errorf("commandprocessor: DMAChunkBytes: %d is not a multiple of 4 in [4, 1048576]", b.dmaChunkBytes)
	case b.maxOutstandingDMA < 1 || b.maxOutstandingDMA > 1024:
		return fmt.Errorf("commandprocessor: MaxOutstandingDMA: %d is outside [1, 1024]", b.maxOutstandingDMA)
	case b.dmaChunkBytes*b.maxOutstandingDMA < MaxCommandBytes:
		return fmt.Errorf("commandprocessor: MaxOutstandingDMA: %d chunks of %d bytes cannot hold the largest command (%d bytes)",
			b.maxOutstandingDMA, b.dmaChunkBytes, MaxCommandBytes)
	case b.decodeCycles < 1 || b.decodeCycles > 1<<16:
		return fmt.Errorf("commandprocessor: DecodeCycles: %d is outside [1, 65536]", b.decodeCycles)
	case b.stateVersions < 1 || b.stateVersions > 1<<16:
		return fmt.Errorf("commandprocessor: StateVersions: %d is outside [1, 65536]", b.stateVersions)
	case b.partitions < 1 || b.partitions > 1024:
		return fmt.Errorf("commandprocessor: Partitions: %d is outside [1, 1024]", b.partitions)
	}
	if ts := b.raster.TileSize; ts != 0 && (ts < 2 || ts > 256 || bits.OnesCount(uint(ts)) != 1) {
		return fmt.Errorf("commandprocessor: RasterOptions.TileSize: %d is not a power of two in [2, 256]", ts)
	}
	for _, o := range []struct {
		name string
		v    raster.TraversalOrder
	}{{"TileOrder", b.raster.TileOrder}, {"QuadOrder", b.raster.QuadOrder}} {
		if o.v != raster.RowMajor && o.v != raster.ZOrder {
			return fmt.Errorf("commandprocessor: RasterOptions.%s: unknown traversal order %d", o.name, o.v)
		}
	}
	return nil
}

// Build creates the command processor called name (e.g. "GPU.CommandProcessor").
// It panics when a parameter is invalid (see Validate) or the name is not a valid
// Akita name.
func (b Builder) Build(name string) *CommandProcessor {
	if err := b.Validate(); err != nil {
		panic(err.Error())
	}
	sim.NameMustBeValid(name)
	c := &CommandProcessor{
		params: params{
			dmaChunkBytes:     b.dmaChunkBytes,
			maxOutstandingDMA: b.maxOutstandingDMA,
			decodeCycles:      b.decodeCycles,
			stateVersions:     b.stateVersions,
			raster:            b.raster,
			partitions:        b.partitions,
			forceLateZ:        b.forceLateZ,
			perSample:         b.perSample,
		},
		halt:     b.halt,
		progress: b.progress,
	}
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.waker = timing.NewWaker(b.engine, b.freq, c)
	c.activity = timing.NewActivity(stateNames[:]...)
	c.createPorts(name)
	c.createBuffers()
	return c
}

func (c *CommandProcessor) createPorts(name string) {
	// Memory responses: never more than the requests in flight.
	c.ToMemory = sim.NewLimitNumMsgPort(c, c.maxOutstandingDMA, name+".ToMemory")
	c.AddPort("ToMemory", c.ToMemory)
	// Nothing comes back from the input assembler.
	c.ToInputAssembler = sim.NewLimitNumMsgPort(c, 1, name+".ToInputAssembler")
	c.AddPort("ToInputAssembler", c.ToInputAssembler)
	// DrawDone from every partition for every draw in flight, and the Done of
	// every back-end command; the component drains the port every tick.
	c.ToBackEnd = sim.NewLimitNumMsgPort(c, max(8, 2*c.partitions), name+".ToBackEnd")
	c.AddPort("ToBackEnd", c.ToBackEnd)
}

func (c *CommandProcessor) createBuffers() {
	c.chunks = make([]chunk, c.maxOutstandingDMA)
	for i := range c.chunks {
		c.chunks[i].data = make([]byte, c.dmaChunkBytes)
	}
	c.window = make([]byte, 0, c.dmaChunkBytes*c.maxOutstandingDMA)
	c.outbox = make([]sim.Msg, 0, 2*c.partitions)
}
