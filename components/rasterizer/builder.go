package rasterizer

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// Builder builds a rasterizer. Start from MakeBuilder, whose defaults are those
// of configs/sortlast.yaml:
//
//	Freq             1 GHz
//	Index            0   this rasterizer's number r in [0, NumRasterizers)
//	NumRasterizers   2   R: tile (tx, ty) belongs to rasterizer TileOwner(tx, ty, RasterStride, R)
//	RasterStride     1
//	NumPartitions    4   P: depth units (ROP partitions); tile goes to TileOwner(tx, ty, PartitionStride, P)
//	PartitionStride  1
//	TilesPerCycle    1   owned tiles the coarse rasterizer tests per cycle
//	QuadsPerCycle    8   quads the fine rasterizer produces per cycle
//	SampleTestsPerCycle 64 sample tests of the 5D fine rasterizer per cycle
//	InputQueue       16  primitive FIFO (the FromPrimitiveAssembly port's buffer)
//	TileQueue        4   coarse-to-fine tile queue
//	OutputQueue      16  tile messages waiting to be sent
//	TileFilter       nil no hierarchical Z
type Builder struct {
	engine   sim.Engine
	freq     sim.Freq
	halt     *timing.Halt
	progress *timing.Progress

	index           int
	numRasterizers  int
	rasterStride    int
	numPartitions   int
	partitionStride int
	partitionRatio  int
	tilesPerCycle   int
	quadsPerCycle   int
	sampleTests     int
	inputQueue      int
	tileQueue       int
	outputQueue     int
	filter          TileFilter
}

// MakeBuilder returns a builder with the default parameters.
func MakeBuilder() Builder {
	return Builder{
		freq:            1 * sim.GHz,
		numRasterizers:  2,
		rasterStride:    1,
		numPartitions:   4,
		partitionStride: 1,
		partitionRatio:  1,
		tilesPerCycle:   1,
		quadsPerCycle:   8,
		sampleTests:     DefaultSampleTestsPerCycle,
		inputQueue:      16,
		tileQueue:       4,
		outputQueue:     16,
	}
}

// WithEngine sets the simulation engine (required).
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the clock frequency.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag (the rasterizer stops working once it
// is set, and sets it on malformed input).
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter (one unit per message sent).
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithIndex sets this rasterizer's number r.
func (b Builder) WithIndex(r int) Builder { b.index = r; return b }

// WithNumRasterizers sets the number of rasterizers R.
func (b Builder) WithNumRasterizers(n int) Builder { b.numRasterizers = n; return b }

// WithRasterStride sets the row stride of the rasterizer tile interleave.
func (b Builder) WithRasterStride(n int) Builder { b.rasterStride = n; return b }

// WithNumPartitions sets the number of depth units P.
func (b Builder) WithNumPartitions(n int) Builder { b.numPartitions = n; return b }

// WithPartitionStride sets the row stride of the partition tile interleave.
func (b Builder) WithPartitionStride(n int) Builder { b.partitionStride = n; return b }

// WithPartitionTileRatio sets how many raster tiles wide (and high) a partition
// tile is: raster tile (tx, ty) belongs to the depth unit
// TileOwner(tx/k, ty/k, PartitionStride, P). Coarser partition tiles keep whole
// display lines in one partition.
func (b Builder) WithPartitionTileRatio(k int) Builder { b.partitionRatio = k; return b }

// WithTilesPerCycle sets the coarse rate: owned tiles tested per cycle.
func (b Builder) WithTilesPerCycle(n int) Builder { b.tilesPerCycle = n; return b }

// WithQuadsPerCycle sets the fine rate: quads produced per cycle.
func (b Builder) WithQuadsPerCycle(n int) Builder { b.quadsPerCycle = n; return b }

// DefaultSampleTestsPerCycle is the default rate of the 5D fine rasterizer:
// 64 sample tests (raster5d.Stats.SampleTests) per cycle, eight quads of 4x
// MSAA's 2D tests per cycle as QuadsPerCycle's default; a modelling choice,
// not a measured figure (the 5D tests cost more than 2D edge steps: the
// study varies it).
const DefaultSampleTestsPerCycle = 64

// WithSampleTestsPerCycle sets the 5D fine rate: sample tests per cycle.
func (b Builder) WithSampleTestsPerCycle(n int) Builder { b.sampleTests = n; return b }

// WithInputQueue sets the depth of the primitive FIFO.
func (b Builder) WithInputQueue(n int) Builder { b.inputQueue = n; return b }

// WithTileQueue sets the depth of the queue between coarse and fine raster.
func (b Builder) WithTileQueue(n int) Builder { b.tileQueue = n; return b }

// WithOutputQueue sets the depth of the output queue.
func (b Builder) WithOutputQueue(n int) Builder { b.outputQueue = n; return b }

// WithTileFilter installs a per-tile filter between coarse and fine raster
// (hierarchical Z); nil (the default) keeps every tile.
func (b Builder) WithTileFilter(f TileFilter) Builder { b.filter = f; return b }

// Validate reports the first parameter out of range, naming it.
func (b Builder) Validate() error {
	const big = 1 << 20
	for _, c := range []struct {
		name      string
		v, lo, hi int
	}{
		{"NumRasterizers", b.numRasterizers, 1, 1024},
		{"Index", b.index, 0, b.numRasterizers - 1},
		{"RasterStride", b.rasterStride, 0, big},
		{"NumPartitions", b.numPartitions, 1, 1024},
		{"PartitionStride", b.partitionStride, 0, big},
		{"PartitionTileRatio", b.partitionRatio, 1, big},
		{"TilesPerCycle", b.tilesPerCycle, 1, 1024},
		{"QuadsPerCycle", b.quadsPerCycle, 1, 1 << 16},
		{"SampleTestsPerCycle", b.sampleTests, 1, 1 << 20},
		{"InputQueue", b.inputQueue, 1, 4096},
		{"TileQueue", b.tileQueue, 1, 4096},
		{"OutputQueue", b.outputQueue, 1, 4096},
	} {
		if c.v < c.lo || c.v > c.hi {
			return fmt.Errorf("rasterizer: %s = %d out of range [%d, %d]", c.name, c.v, c.lo, c.hi)
		}
	}
	if !(b.freq > 0) {
		return fmt.Errorf("rasterizer: Freq = %v must be positive", b.freq)
	}
	return nil
}

// Build creates the rasterizer named name (e.g. "GPU.Rasterizer[1]"). It panics
// when the engine is missing or a parameter is out of range. The platform then
// sets DepthUnits (NumPartitions ports, in partition order) and connects the
// ports.
func (b Builder) Build(name string) *Comp {
	if b.engine == nil {
		panic("rasterizer: WithEngine is required")
	}
	if err := b.Validate(); err != nil {
		panic(err.Error())
	}
	c := &Comp{
		TileFilter:      b.filter,
		index:           b.index,
		numRasterizers:  b.numRasterizers,
		rasterStride:    b.rasterStride,
		numPartitions:   b.numPartitions,
		partitionStride: b.partitionStride,
		partitionRatio:  b.partitionRatio,
		tilesPerCycle:   b.tilesPerCycle,
		quadsPerCycle:   b.quadsPerCycle,
		sampleTests:     b.sampleTests,
		halt:            b.halt,
		progress:        b.progress,
		tileQ:           newRing[fineItem](b.tileQueue),
		outQ:            newRing[outItem](b.outputQueue),
	}
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.waker = timing.NewWaker(b.engine, b.freq, c)
	c.act = timing.NewActivity(activityNames...)
	c.inBuf = sim.NewBuffer(name+".FromPrimitiveAssembly.Buf", b.inputQueue)
	c.FromPrimitiveAssembly = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.inBuf, name+".FromPrimitiveAssembly")
	c.ToDepthUnits = sim.NewLimitNumMsgPort(c, 1, name+".ToDepthUnits")
	c.AddPort("FromPrimitiveAssembly", c.FromPrimitiveAssembly)
	c.AddPort("ToDepthUnits", c.ToDepthUnits)
	return c
}
