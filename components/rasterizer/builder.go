package rasterizer

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// Config is a rasterizer's parameters (configs fills it from the raster and
// rop sections).
type Config struct {
	Index           int // this rasterizer's number r in [0, NumRasterizers)
	NumRasterizers  int // R: tile (tx, ty) belongs to rasterizer TileOwner(tx, ty, RasterStride, R)
	RasterStride    int // row stride of the rasterizer tile interleave
	NumPartitions   int // P: depth units (ROP partitions); tile goes to TileOwner(tx/k, ty/k, PartitionStride, P)
	PartitionStride int // row stride of the partition tile interleave
	// PartitionTileRatio k is how many raster tiles wide (and high) a
	// partition tile is: coarser partition tiles keep whole display lines in
	// one partition.
	PartitionTileRatio  int
	TilesPerCycle       int // owned tiles the coarse rasterizer tests per cycle
	QuadsPerCycle       int // quads the fine rasterizer produces per cycle
	SampleTestsPerCycle int // sample tests of the 5D fine rasterizer per cycle
	InputQueue          int // primitive FIFO (the FromPrimitiveAssembly port's buffer)
	TileQueue           int // coarse-to-fine tile queue
	OutputQueue         int // tile messages waiting to be sent
}

// DefaultSampleTestsPerCycle is the default rate of the 5D fine rasterizer:
// 64 sample tests (raster5d.Stats.SampleTests) per cycle, eight quads of 4x
// MSAA's 2D tests per cycle as QuadsPerCycle's default; a modelling choice,
// not a measured figure (the 5D tests cost more than 2D edge steps: the
// study varies it).
const DefaultSampleTestsPerCycle = 64

// DefaultConfig is the rasterizer of configs/sortlast.yaml.
func DefaultConfig() Config {
	return Config{NumRasterizers: 2, RasterStride: 1, NumPartitions: 4, PartitionStride: 1, PartitionTileRatio: 1,
		TilesPerCycle: 1, QuadsPerCycle: 8, SampleTestsPerCycle: DefaultSampleTestsPerCycle, InputQueue: 16,
		TileQueue: 4, OutputQueue: 16}
}

// Validate reports the first parameter out of range, naming it.
func (c Config) Validate() error {
	const big = 1 << 20
	return check.For("rasterizer").
		InRange("NumRasterizers", c.NumRasterizers, 1, 1024).
		Index("Index", c.Index, "NumRasterizers", c.NumRasterizers).
		InRange("RasterStride", c.RasterStride, 0, big).
		InRange("NumPartitions", c.NumPartitions, 1, 1024).
		InRange("PartitionStride", c.PartitionStride, 0, big).
		InRange("PartitionTileRatio", c.PartitionTileRatio, 1, big).
		InRange("TilesPerCycle", c.TilesPerCycle, 1, 1024).
		InRange("QuadsPerCycle", c.QuadsPerCycle, 1, 1<<16).
		InRange("SampleTestsPerCycle", c.SampleTestsPerCycle, 1, 1<<20).
		InRange("InputQueue", c.InputQueue, 1, 4096).
		InRange("TileQueue", c.TileQueue, 1, 4096).
		InRange("OutputQueue", c.OutputQueue, 1, 4096).
		Err()
}

// Builder builds a rasterizer. Start from MakeBuilder.
type Builder struct {
	env    timing.Env
	cfg    Config
	filter TileFilter
}

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return Builder{cfg: DefaultConfig()} }

// WithEnv sets the engine, clock, halt and progress (required). The
// rasterizer stops working once the halt is set, and sets it on malformed
// input; progress counts one unit per message sent.
func (b Builder) WithEnv(e timing.Env) Builder { b.env = e; return b }

// WithConfig sets the configuration.
func (b Builder) WithConfig(c Config) Builder { b.cfg = c; return b }

// WithTileFilter installs a per-tile filter between coarse and fine raster
// (hierarchical Z); nil (the default) keeps every tile.
func (b Builder) WithTileFilter(f TileFilter) Builder { b.filter = f; return b }

// Build creates the rasterizer named name (e.g. "GPU.Rasterizer[1]"). It panics
// when the engine is missing or a parameter is out of range (configs
// validates first). The platform then sets DepthUnits (NumPartitions ports,
// in partition order) and connects the ports.
func (b Builder) Build(name string) *Comp {
	b.env.MustBuild("rasterizer", name, b.cfg)
	cfg := b.cfg
	c := &Comp{
		TileFilter:      b.filter,
		index:           cfg.Index,
		numRasterizers:  cfg.NumRasterizers,
		rasterStride:    cfg.RasterStride,
		numPartitions:   cfg.NumPartitions,
		partitionStride: cfg.PartitionStride,
		partitionRatio:  cfg.PartitionTileRatio,
		tilesPerCycle:   cfg.TilesPerCycle,
		quadsPerCycle:   cfg.QuadsPerCycle,
		sampleTests:     cfg.SampleTestsPerCycle,
		halt:            b.env.Halt,
		progress:        b.env.Progress,
		tileQ:           newRing[fineItem](cfg.TileQueue),
		outQ:            newRing[outItem](cfg.OutputQueue),
	}
	e, f := b.env.Engine, b.env.Freq
	c.TickingComponent = sim.NewTickingComponent(name, e, f, c)
	c.waker = timing.NewWaker(e, f, c)
	c.act = timing.NewActivity(activityNames...)
	c.inBuf = sim.NewBuffer(name+".FromPrimitiveAssembly.Buf", cfg.InputQueue)
	c.FromPrimitiveAssembly = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.inBuf, name+".FromPrimitiveAssembly")
	c.ToDepthUnits = sim.NewLimitNumMsgPort(c, 1, name+".ToDepthUnits")
	c.AddPort("FromPrimitiveAssembly", c.FromPrimitiveAssembly)
	c.AddPort("ToDepthUnits", c.ToDepthUnits)
	return c
}
