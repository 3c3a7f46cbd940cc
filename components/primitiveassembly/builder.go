package primitiveassembly

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/timing"
)

// MaxRasterizers is the largest number of rasterizers primitive assembly can
// distribute to (owner sets are 64-bit masks).
const MaxRasterizers = 64

// Builder builds a primitive assembly unit. The zero value is not useful; start
// from MakeBuilder, whose defaults are those of configs/sortlast.yaml:
//
//	Freq               1 GHz
//	BatchSlots         16  shaded batches held (= the input assembler's credits)
//	TrianglesPerCycle  1   API triangles assembled, and primitives set up, per cycle
//	ClipCycles         8   extra cycles of a triangle that needs clipping
//	SetupLatency       20  cycles from assembly to distribution
//	OutputQueue        16  primitive messages queued per rasterizer
//	NumRasterizers     2   rasterizers the screen tiles are interleaved over
//	RasterStride       1   row stride of the rasterizer interleave (protocol.TileOwner)
//	Setup5DCycles      16  extra cycles of a triangle of a decoupled draw that takes the 5D path
//	PatternSeed        pipeline.DefaultPatternSeed  seed of the 5D sample pattern (lens, time)
type Builder struct {
	engine   sim.Engine
	freq     sim.Freq
	halt     *timing.Halt
	progress *timing.Progress

	batchSlots        int
	trianglesPerCycle int
	clipCycles        int
	setupLatency      int
	outputQueue       int
	numRasterizers    int
	rasterStride      int
	setup5DCycles     int
	patternSeed       uint64
	streamOutQueue    int
	streamOutWrites   int
}

// MakeBuilder returns a builder with the default parameters.
func MakeBuilder() Builder {
	return Builder{
		freq:              1 * sim.GHz,
		batchSlots:        16,
		trianglesPerCycle: 1,
		clipCycles:        8,
		setupLatency:      20,
		outputQueue:       16,
		numRasterizers:    2,
		rasterStride:      1,
		setup5DCycles:     DefaultSetup5DCycles,
		patternSeed:       pipeline.DefaultPatternSeed,
		streamOutQueue:    16,
		streamOutWrites:   8,
	}
}

// DefaultSetup5DCycles is the default extra setup time of a 5D-path triangle:
// raster5d.Setup moves the vertices to both ends of the shutter and the lens
// corners and bounds each (u, v, t) bucket's box, and decouple.NewMap sets up
// the reference view's mapping, about twice the work of clipping a triangle
// (ClipCycles 8). A modelling choice, not a measured figure.
const DefaultSetup5DCycles = 16

// WithEngine sets the simulation engine (required).
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the clock frequency.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag: the unit stops working once it is set,
// and sets it itself (with an error) when it receives malformed input.
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter (one unit per message sent).
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithBatchSlots sets the number of shaded batches held; it must equal the input
// assembler's credits.
func (b Builder) WithBatchSlots(n int) Builder { b.batchSlots = n; return b }

// WithTrianglesPerCycle sets how many API triangles are assembled, and how many
// primitives leave setup, per cycle.
func (b Builder) WithTrianglesPerCycle(n int) Builder { b.trianglesPerCycle = n; return b }

// WithClipCycles sets the extra cycles a triangle that needs clipping occupies the
// assembly stage.
func (b Builder) WithClipCycles(n int) Builder { b.clipCycles = n; return b }

// WithSetupLatency sets the latency of the setup pipeline in cycles.
func (b Builder) WithSetupLatency(n int) Builder { b.setupLatency = n; return b }

// WithOutputQueue sets the depth of each rasterizer's output queue.
func (b Builder) WithOutputQueue(n int) Builder { b.outputQueue = n; return b }

// WithNumRasterizers sets the number of rasterizers (1..MaxRasterizers).
func (b Builder) WithNumRasterizers(n int) Builder { b.numRasterizers = n; return b }

// WithRasterStride sets the row stride of the rasterizer tile interleave.
func (b Builder) WithRasterStride(n int) Builder { b.rasterStride = n; return b }

// WithSetup5DCycles sets the extra cycles a triangle of a decoupled draw that
// takes the 5D path (pipeline.Decoupled.Takes5D) occupies the assembly stage.
func (b Builder) WithSetup5DCycles(n int) Builder { b.setup5DCycles = n; return b }

// WithPatternSeed sets the seed of the lens and time pattern of stochastic
// rasterization (0: pipeline.DefaultPatternSeed); the reference renderer must
// use the same (reference.Options.PatternSeed).
func (b Builder) WithPatternSeed(seed uint64) Builder { b.patternSeed = seed; return b }

// WithStreamOutQueue sets the stream-out unit's write queue: byte ranges (a
// streamed primitive's vertices in one buffer, a counter) waiting to be
// written; a primitive waits until its ranges fit.
func (b Builder) WithStreamOutQueue(n int) Builder { b.streamOutQueue = n; return b }

// WithStreamOutWrites sets the stream-out writes in flight to memory at most.
func (b Builder) WithStreamOutWrites(n int) Builder { b.streamOutWrites = n; return b }

// Validate reports the first parameter out of range, naming it.
func (b Builder) Validate() error {
	check := func(name string, v, lo, hi int) error {
		if v < lo || v > hi {
			return fmt.Errorf("primitiveassembly: %s = %d out of range [%d, %d]", name, v, lo, hi)
		}
		return nil
	}
	const big = 1 << 20
	for _, c := range []struct {
		name      string
		v, lo, hi int
	}{
		{"BatchSlots", b.batchSlots, 1, 4096},
		{"TrianglesPerCycle", b.trianglesPerCycle, 1, 64},
		{"ClipCycles", b.clipCycles, 0, big},
		{"SetupLatency", b.setupLatency, 0, big},
		{"OutputQueue", b.outputQueue, 1, 4096},
		{"NumRasterizers", b.numRasterizers, 1, MaxRasterizers},
		{"RasterStride", b.rasterStride, 0, big},
		{"Setup5DCycles", b.setup5DCycles, 0, big},
		{"StreamOutQueue", b.streamOutQueue, 1, 4096},
		{"StreamOutWrites", b.streamOutWrites, 1, 4096},
	} {
		if err := check(c.name, c.v, c.lo, c.hi); err != nil {
			return err
		}
	}
	if !(b.freq > 0) {
		return fmt.Errorf("primitiveassembly: Freq = %v must be positive", b.freq)
	}
	return nil
}

// Build creates the unit named name (e.g. "GPU.PrimitiveAssembly"). It panics
// when the engine is missing or a parameter is out of range. The platform then
// sets InputAssemblerPort and Rasterizers (NumRasterizers ports, in rasterizer
// order) and connects the three ports.
func (b Builder) Build(name string) *Comp {
	if b.engine == nil {
		panic("primitiveassembly: WithEngine is required")
	}
	if err := b.Validate(); err != nil {
		panic(err.Error())
	}
	c := &Comp{
		batchSlots:        b.batchSlots,
		trianglesPerCycle: b.trianglesPerCycle,
		clipCycles:        b.clipCycles,
		outputQueue:       b.outputQueue,
		numRasterizers:    b.numRasterizers,
		rasterStride:      b.rasterStride,
		setup5DCycles:     b.setup5DCycles,
		patternSeed:       b.patternSeed,
		streamOutQueue:    b.streamOutQueue,
		streamOutWrites:   b.streamOutWrites,
		halt:              b.halt,
		progress:          b.progress,
	}
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.waker = timing.NewWaker(b.engine, b.freq, c)
	c.act = timing.NewActivity(activityNames...)

	c.coresBuf = sim.NewBuffer(name+".FromShaderCores.Buf", 4)
	c.iaBuf = sim.NewBuffer(name+".InputAssembler.Buf", 4)
	c.FromShaderCores = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.coresBuf, name+".FromShaderCores")
	c.InputAssembler = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.iaBuf, name+".InputAssembler")
	c.ToRasterizers = sim.NewLimitNumMsgPort(c, 1, name+".ToRasterizers")
	c.ToMemory = sim.NewLimitNumMsgPort(c, b.streamOutWrites, name+".ToMemory")
	c.AddPort("FromShaderCores", c.FromShaderCores)
	c.AddPort("InputAssembler", c.InputAssembler)
	c.AddPort("ToRasterizers", c.ToRasterizers)
	c.AddPort("ToMemory", c.ToMemory)

	c.setup = timing.NewPipeline[*setupItem](b.setupLatency, b.trianglesPerCycle)
	c.out = make([]msgQueue, b.numRasterizers)
	for r := range c.out {
		c.out[r] = newMsgQueue(b.outputQueue)
	}
	c.sent = make([]uint64, b.numRasterizers)
	return c
}
