package primitiveassembly

import (
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// MaxRasterizers is the largest number of rasterizers primitive assembly can
// distribute to (owner sets are 64-bit masks).
const MaxRasterizers = 64

// Config is primitive assembly's parameters (configs fills it from the
// primitive and raster sections).
type Config struct {
	BatchSlots        int // shaded batches held (= the input assembler's credits)
	TrianglesPerCycle int // API triangles assembled, and primitives set up, per cycle
	ClipCycles        int // extra cycles of a triangle that needs clipping
	SetupLatency      int // cycles from assembly to distribution
	OutputQueue       int // primitive messages queued per rasterizer
	NumRasterizers    int // rasterizers the screen tiles are interleaved over (1..MaxRasterizers)
	RasterStride      int // row stride of the rasterizer interleave (protocol.TileOwner)
	// Setup5DCycles is the extra cycles a triangle of a decoupled draw that
	// takes the 5D path (pipeline.Decoupled.Takes5D) occupies the assembly
	// stage.
	Setup5DCycles int
	// PatternSeed is the seed of the lens and time pattern of stochastic
	// rasterization (0: pipeline.DefaultPatternSeed); the reference renderer
	// must use the same (reference.Options.PatternSeed).
	PatternSeed uint64
	// StreamOutQueue is the stream-out unit's write queue: byte ranges (a
	// streamed primitive's vertices in one buffer, a counter) waiting to be
	// written; a primitive waits until its ranges fit.
	StreamOutQueue  int
	StreamOutWrites int // stream-out writes in flight to memory at most
}

// DefaultConfig is the primitive assembly of configs/sortlast.yaml.
func DefaultConfig() Config {
	return Config{BatchSlots: 16, TrianglesPerCycle: 1, ClipCycles: 8, SetupLatency: 20, OutputQueue: 16,
		NumRasterizers: 2, RasterStride: 1, Setup5DCycles: DefaultSetup5DCycles,
		PatternSeed: pipeline.DefaultPatternSeed, StreamOutQueue: 16, StreamOutWrites: 8}
}

// DefaultSetup5DCycles is the default extra setup time of a 5D-path triangle:
// raster5d.Setup moves the vertices to both ends of the shutter and the lens
// corners and bounds each (u, v, t) bucket's box, and decouple.NewMap sets up
// the reference view's mapping, about twice the work of clipping a triangle
// (ClipCycles 8). A modelling choice, not a measured figure.
const DefaultSetup5DCycles = 16

// Validate reports the first parameter out of range, naming it.
func (c Config) Validate() error {
	const big = 1 << 20
	return check.For("primitiveassembly").
		InRange("BatchSlots", c.BatchSlots, 1, 4096).
		InRange("TrianglesPerCycle", c.TrianglesPerCycle, 1, 64).
		InRange("ClipCycles", c.ClipCycles, 0, big).
		InRange("SetupLatency", c.SetupLatency, 0, big).
		InRange("OutputQueue", c.OutputQueue, 1, 4096).
		InRange("NumRasterizers", c.NumRasterizers, 1, MaxRasterizers).
		InRange("RasterStride", c.RasterStride, 0, big).
		InRange("Setup5DCycles", c.Setup5DCycles, 0, big).
		InRange("StreamOutQueue", c.StreamOutQueue, 1, 4096).
		InRange("StreamOutWrites", c.StreamOutWrites, 1, 4096).
		Err()
}

// Builder builds primitive assembly units: MakeBuilder().WithEnv(env).
// WithConfig(cfg).Build(name) (e.g. "GPU.PrimitiveAssembly"). env's halt stops
// the unit (it sets it itself, with an error, on malformed input) and its
// progress counts one unit per message sent. The platform then sets
// InputAssemblerPort and Rasterizers (NumRasterizers ports, in rasterizer
// order) and connects the three ports.
type Builder = timing.Builder[Config, *Comp]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("primitiveassembly", DefaultConfig(), build) }

func build(name string, env timing.Env, cfg Config) *Comp {
	c := &Comp{}
	c.Unit = timing.NewUnit(name, env, cfg, c, activityNames...)

	c.FromShaderCores, c.coresBuf = timing.AddBufferedPort(c, "FromShaderCores", 4)
	c.InputAssembler, c.iaBuf = timing.AddBufferedPort(c, "InputAssembler", 4)
	c.ToRasterizers = timing.AddPort(c, "ToRasterizers", 1)
	c.ToMemory = timing.AddPort(c, "ToMemory", cfg.StreamOutWrites)

	c.setup = timing.NewPipeline[*setupItem](cfg.SetupLatency, cfg.TrianglesPerCycle)
	c.out = make([]msgQueue, cfg.NumRasterizers)
	for r := range c.out {
		c.out[r] = newMsgQueue(cfg.OutputQueue)
	}
	c.sent = make([]uint64, cfg.NumRasterizers)
	return c
}
