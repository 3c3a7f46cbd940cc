package hiz

import (
	"fmt"

	"github.com/gfxsim/gfxsim/components/memclient"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// DefaultRegionBase is where the HiZ buffers live in memory by default:
// 64 GiB, far above any frame's memory image.
const DefaultRegionBase = 1 << 36

// Config is the HiZ unit's configuration.
type Config struct {
	// HiZ is the coarse depth buffer's algorithm (functional/depth/hiz);
	// Mode must not be Off.
	HiZ fhiz.Config
	// Index is the partition the unit serves.
	Index int
	// NumPartitions, PartitionStride and PartitionTile are the partitions:
	// their number, the row stride of their tile interleave and the partition
	// tile size in pixels (rop.tile_size).
	NumPartitions, PartitionStride, PartitionTile int
	// CacheSize, CacheWays and LineBytes are the HiZ cache: capacity in
	// bytes, ways, and the memory line size in bytes (the size of a line
	// transfer; PACKED ZMASK lines are larger in the cache, see the package
	// documentation).
	CacheSize, CacheWays, LineBytes int
	// MaxOutstandingMemory is the memory requests in flight.
	MaxOutstandingMemory int
	// WriteQueue is the write-backs that may wait before new misses stall.
	WriteQueue int
	// TestsPerCycle is the coarse tests (primitive x HiZ tile) per cycle.
	TestsPerCycle int
	// Latency is the cycles from a message's test to its output.
	Latency int
	// InputQueue is the capacity of the FromRasterizers port, in messages.
	InputQueue int
	// Window is how many messages may be in flight inside the unit.
	Window int
	// FeedbackQueue is the feedback FIFO's capacity in tile entries (entries
	// arriving when it is full are dropped).
	FeedbackQueue int
	// FeedbackRefetch chooses what feedback for a tile whose line is not in
	// the HiZ cache does: true reads the line back and applies it, false
	// drops it.
	FeedbackRefetch bool
	// RegionBase is the memory address of the HiZ buffers.
	RegionBase uint64
	// MaxTargets is how many depth targets get a HiZ buffer (later ones pass
	// through without HiZ).
	MaxTargets int
}

// DefaultConfig returns the defaults: ZMASK (2 layers, 32-sample tiles, test
// with coverage), partition 0 of 4 (stride 1, 16-pixel partition tiles), a
// 16 KB 4-way HiZ cache with 64-byte memory lines, 16 memory requests in
// flight, 8 queued write-backs, 4 coarse tests per cycle, a 2-cycle test
// latency, 16 messages in the input port and 16 in flight, 256 feedback
// entries (refetch off: feedback for a tile not in the cache is dropped), HiZ
// buffers at DefaultRegionBase, 4 depth targets with HiZ.
func DefaultConfig() Config {
	return Config{
		HiZ:                  fhiz.Config{Mode: fhiz.ZMask},
		NumPartitions:        4,
		PartitionStride:      1,
		PartitionTile:        16,
		CacheSize:            16 * 1024,
		CacheWays:            4,
		LineBytes:            64,
		MaxOutstandingMemory: 16,
		WriteQueue:           8,
		TestsPerCycle:        4,
		Latency:              2,
		InputQueue:           16,
		Window:               16,
		FeedbackQueue:        256,
		RegionBase:           DefaultRegionBase,
		MaxTargets:           4,
	}
}

// Validate checks the parameters, naming the first bad one.
func (c Config) Validate() error {
	hz := c.HiZ.WithDefaults()
	r := check.For("hiz unit").Wrap(hizErr(hz.Validate())).
		That(hz.Mode != fhiz.Off, "HiZ.Mode is off (build no HiZ unit instead)").
		That(c.NumPartitions >= 1 && c.Index >= 0 && c.Index < c.NumPartitions,
			"Index %d is not a partition of %d", c.Index, c.NumPartitions).
		That(c.PartitionStride >= 0, "PartitionStride %d is negative", c.PartitionStride).
		That(c.PartitionTile >= 1 && c.PartitionTile&(c.PartitionTile-1) == 0,
			"PartitionTile %d is not a power of two", c.PartitionTile).
		That(c.LineBytes >= 16 && c.LineBytes <= 4096 && c.LineBytes&(c.LineBytes-1) == 0,
			"Cache line size %d is not a power of two in [16, 4096]", c.LineBytes).
		AtLeast("CacheWays", c.CacheWays, 1)
	if r.Err() != nil {
		return r.Err()
	}
	return r.That(c.CacheSize >= c.CacheWays*c.cacheLineBytes(),
		"Cache size %d holds fewer than %d lines of %d bytes", c.CacheSize, c.CacheWays, c.cacheLineBytes()).
		InRange("MaxOutstandingMemory", c.MaxOutstandingMemory, 1, 1<<16).
		FieldsAtLeast(1, c, "WriteQueue", "TestsPerCycle", "Latency", "InputQueue",
			"Window", "FeedbackQueue", "MaxTargets").
		That(!hz.Packed || hz.PackedBits <= 8*c.LineBytes,
			"a packed tile of %d bits does not fit a %d-byte line", hz.PackedBits, c.LineBytes).
		Err()
}

// hizErr names the algorithm's bad field as one of Config.HiZ.
func hizErr(err error) error {
	if err != nil {
		return fmt.Errorf("HiZ: %w", err)
	}
	return nil
}

// tilesPerLine returns the tiles a memory line holds (at least 1).
func (c Config) tilesPerLine() int {
	return max(1, 8*c.LineBytes/c.HiZ.WithDefaults().MemoryTileBits())
}

// cacheLineBytes is the size of a line in the cache: the memory line, or for
// PACKED ZMASK its tiles uncompressed (4 tiles of 28 bytes: 112 bytes).
func (c Config) cacheLineBytes() int {
	hz := c.HiZ.WithDefaults()
	if hz.Packed {
		return c.tilesPerLine() * ((hz.TileBits() + 7) / 8)
	}
	return c.LineBytes
}

// Builder builds a HiZ unit: MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name)
// (timing.Builder; it panics, naming the unit and the first bad parameter, on
// a bad environment or configuration: configs validates first).
type Builder = timing.Builder[Config, *Comp]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("hiz", DefaultConfig(), build) }

// build creates the HiZ unit named name (for example "GPU.HiZ[1]") from a checked
// environment and a valid configuration.
func build(name string, env timing.Env, cf Config) *Comp {
	c := &Comp{
		hizCfg: cf.HiZ.WithDefaults(), sender: timing.Sender{Progress: env.Progress},
		lineBytes: uint64(cf.LineBytes),
		rate:      timing.NewRate(cf.TestsPerCycle),
		out:       timing.NewPipeline[*work](cf.Latency, cf.Window),
	}
	c.cacheLine = cf.cacheLineBytes()
	c.cacheLines = cf.CacheSize / c.cacheLine
	c.tags = newTagStore(c.cacheLines, cf.CacheWays, c.lineBytes)
	c.Unit = timing.NewUnit(name, env, cf, c, activityNames[:]...)
	c.FromRasterizers, c.inBuf = timing.AddBufferedPort(c, "FromRasterizers", cf.InputQueue)
	c.FromDepthUnit, c.fbBuf = timing.AddBufferedPort(c, "FromDepthUnit", 4)
	c.ToDepthUnit = timing.AddPort(c, "ToDepthUnit", 1)
	c.ToMemory = timing.AddPort(c, "ToMemory", cf.MaxOutstandingMemory)
	client, err := memclient.New(c.ToMemory, timing.LateFinder{At: &c.Memory}, env.Freq, memclient.Config{MaxOutstanding: cf.MaxOutstandingMemory})
	if err != nil {
		panic(fmt.Errorf("hiz unit: %w", err))
	}
	c.client = client
	return c
}
