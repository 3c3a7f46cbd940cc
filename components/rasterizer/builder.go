package rasterizer

import (
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

// Builder builds rasterizers: MakeBuilder().WithEnv(env).WithConfig(cfg).
// Build(name) (e.g. "GPU.Rasterizer[1]"); env's halt stops the rasterizer
// (malformed input sets it) and its progress counts one unit per message
// sent. The platform then sets DepthUnits (NumPartitions ports, in partition
// order), TileFilter (a per-tile filter; nil keeps every tile) and connects the
// ports.
type Builder = timing.Builder[Config, *Comp]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("rasterizer", DefaultConfig(), build) }

func build(name string, env timing.Env, cfg Config) *Comp {
	c := &Comp{tileQ: timing.NewRing[fineItem](cfg.TileQueue), outQ: timing.NewRing[outItem](cfg.OutputQueue)}
	c.Unit = timing.NewUnit(name, env, cfg, c, activityNames...)
	c.FromPrimitiveAssembly, c.inBuf = timing.AddBufferedPort(c, "FromPrimitiveAssembly", cfg.InputQueue)
	c.ToDepthUnits = timing.AddPort(c, "ToDepthUnits", 1)
	return c
}
