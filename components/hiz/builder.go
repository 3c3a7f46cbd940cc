package hiz

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/timing"
)

// DefaultRegionBase is where the HiZ buffers live in memory by default:
// 64 GiB, far above any frame's memory image.
const DefaultRegionBase = 1 << 36

// Builder configures and builds a HiZ unit. Start from MakeBuilder.
type Builder struct {
	engine   sim.Engine
	freq     sim.Freq
	halt     *timing.Halt
	progress *timing.Progress

	cfg             fhiz.Config
	index           int
	numPartitions   int
	partitionStride int
	partitionTile   int
	cacheSize       int
	cacheWays       int
	lineBytes       int
	maxOutstanding  int
	writeQueue      int
	testsPerCycle   int
	latency         int
	inputQueue      int
	window          int
	feedbackQueue   int
	refetch         bool
	regionBase      uint64
	maxTargets      int
}

// MakeBuilder returns a builder with the defaults: 1 GHz, ZMASK (2 layers,
// 32-sample tiles, test with coverage), partition 0 of 4 (stride 1, 16-pixel
// partition tiles), a 16 KB 4-way HiZ cache with 64-byte memory lines, 16
// memory requests in flight, 8 queued write-backs, 4 coarse tests per cycle, a
// 2-cycle test latency, 16 messages in the input port and 16 in flight, 256
// feedback entries (refetch off: feedback for a tile not in the cache is
// dropped), HiZ buffers at DefaultRegionBase, 4 depth targets with HiZ.
func MakeBuilder() Builder {
	return Builder{
		freq:            1 * sim.GHz,
		cfg:             fhiz.Config{Mode: fhiz.ZMask},
		numPartitions:   4,
		partitionStride: 1,
		partitionTile:   16,
		cacheSize:       16 * 1024,
		cacheWays:       4,
		lineBytes:       64,
		maxOutstanding:  16,
		writeQueue:      8,
		testsPerCycle:   4,
		latency:         2,
		inputQueue:      16,
		window:          16,
		feedbackQueue:   256,
		regionBase:      DefaultRegionBase,
		maxTargets:      4,
	}
}

// WithEngine sets the simulation engine (required).
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the clock frequency.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag (malformed input stops the run).
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter (one unit per message sent).
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithConfig sets the coarse depth buffer's algorithm (functional/depth/hiz);
// Mode must not be Off.
func (b Builder) WithConfig(c fhiz.Config) Builder { b.cfg = c; return b }

// WithIndex sets the partition p the unit serves.
func (b Builder) WithIndex(p int) Builder { b.index = p; return b }

// WithPartitions sets the partitions: their number, the row stride of their
// tile interleave and the partition tile size in pixels (rop.tile_size).
func (b Builder) WithPartitions(n, stride, tilePixels int) Builder {
	b.numPartitions, b.partitionStride, b.partitionTile = n, stride, tilePixels
	return b
}

// WithCache sets the HiZ cache: capacity in bytes, ways, and the memory line
// size in bytes (the size of a line transfer; PACKED ZMASK lines are larger in
// the cache, see the package documentation).
func (b Builder) WithCache(size, ways, lineBytes int) Builder {
	b.cacheSize, b.cacheWays, b.lineBytes = size, ways, lineBytes
	return b
}

// WithMaxOutstandingMemory sets the memory requests in flight.
func (b Builder) WithMaxOutstandingMemory(n int) Builder { b.maxOutstanding = n; return b }

// WithWriteQueue sets the write-backs that may wait before new misses stall.
func (b Builder) WithWriteQueue(n int) Builder { b.writeQueue = n; return b }

// WithTestsPerCycle sets the coarse tests (primitive x HiZ tile) per cycle.
func (b Builder) WithTestsPerCycle(n int) Builder { b.testsPerCycle = n; return b }

// WithLatency sets the cycles from a message's test to its output.
func (b Builder) WithLatency(n int) Builder { b.latency = n; return b }

// WithInputQueue sets the capacity of the FromRasterizers port, in messages.
func (b Builder) WithInputQueue(n int) Builder { b.inputQueue = n; return b }

// WithWindow sets how many messages may be in flight inside the unit.
func (b Builder) WithWindow(n int) Builder { b.window = n; return b }

// WithFeedbackQueue sets the feedback FIFO's capacity in tile entries (entries
// arriving when it is full are dropped).
func (b Builder) WithFeedbackQueue(n int) Builder { b.feedbackQueue = n; return b }

// WithFeedbackRefetch chooses what feedback for a tile whose line is not in
// the HiZ cache does: true reads the line back and applies it, false drops it.
func (b Builder) WithFeedbackRefetch(on bool) Builder { b.refetch = on; return b }

// WithRegionBase sets the memory address of the HiZ buffers.
func (b Builder) WithRegionBase(a uint64) Builder { b.regionBase = a; return b }

// WithMaxTargets sets how many depth targets get a HiZ buffer (later ones pass
// through without HiZ).
func (b Builder) WithMaxTargets(n int) Builder { b.maxTargets = n; return b }

// Validate checks the parameters, naming the first bad one.
func (b Builder) Validate() error {
	cfg := b.cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("hiz unit: Config: %w", err)
	}
	if cfg.Mode == fhiz.Off {
		return fmt.Errorf("hiz unit: Config.Mode is off (build no HiZ unit instead)")
	}
	switch {
	case b.engine == nil:
		return fmt.Errorf("hiz unit: Engine is not set")
	case !(b.freq > 0):
		return fmt.Errorf("hiz unit: Freq %v must be positive", float64(b.freq))
	case b.numPartitions < 1 || b.index < 0 || b.index >= b.numPartitions:
		return fmt.Errorf("hiz unit: Index %d is not a partition of %d", b.index, b.numPartitions)
	case b.partitionStride < 0:
		return fmt.Errorf("hiz unit: PartitionStride %d is negative", b.partitionStride)
	case b.partitionTile < 1 || b.partitionTile&(b.partitionTile-1) != 0:
		return fmt.Errorf("hiz unit: PartitionTile %d is not a power of two", b.partitionTile)
	case b.lineBytes < 16 || b.lineBytes > 4096 || b.lineBytes&(b.lineBytes-1) != 0:
		return fmt.Errorf("hiz unit: Cache line size %d is not a power of two in [16, 4096]", b.lineBytes)
	case b.cacheWays < 1:
		return fmt.Errorf("hiz unit: Cache ways %d must be at least 1", b.cacheWays)
	case b.cacheSize < b.cacheWays*b.cacheLineBytes():
		return fmt.Errorf("hiz unit: Cache size %d holds fewer than %d lines of %d bytes", b.cacheSize, b.cacheWays, b.cacheLineBytes())
	case b.maxOutstanding < 1 || b.maxOutstanding > 1<<16:
		return fmt.Errorf("hiz unit: MaxOutstandingMemory %d is outside [1, 65536]", b.maxOutstanding)
	case b.writeQueue < 1:
		return fmt.Errorf("hiz unit: WriteQueue %d must be at least 1", b.writeQueue)
	case b.testsPerCycle < 1:
		return fmt.Errorf("hiz unit: TestsPerCycle %d must be at least 1", b.testsPerCycle)
	case b.latency < 1:
		return fmt.Errorf("hiz unit: Latency %d must be at least 1", b.latency)
	case b.inputQueue < 1 || b.window < 1 || b.feedbackQueue < 1:
		return fmt.Errorf("hiz unit: InputQueue %d, Window %d and FeedbackQueue %d must be at least 1",
			b.inputQueue, b.window, b.feedbackQueue)
	case b.maxTargets < 1:
		return fmt.Errorf("hiz unit: MaxTargets %d must be at least 1", b.maxTargets)
	}
	if cfg.Packed && cfg.PackedBits > 8*b.lineBytes {
		return fmt.Errorf("hiz unit: a packed tile of %d bits does not fit a %d-byte line", cfg.PackedBits, b.lineBytes)
	}
	return nil
}

// tilesPerLine returns the tiles a memory line holds (at least 1).
func (b Builder) tilesPerLine() int {
	cfg := b.cfg.WithDefaults()
	return max(1, 8*b.lineBytes/cfg.MemoryTileBits())
}

// cacheLineBytes is the size of a line in the cache: the memory line, or for
// PACKED ZMASK its tiles uncompressed (4 tiles of 28 bytes: 112 bytes).
func (b Builder) cacheLineBytes() int {
	cfg := b.cfg.WithDefaults()
	if cfg.Packed {
		return b.tilesPerLine() * ((cfg.TileBits() + 7) / 8)
	}
	return b.lineBytes
}

// Build creates the HiZ unit named name (for example "GPU.HiZ[1]"). It panics
// with the message of Validate when a parameter is invalid.
func (b Builder) Build(name string) *Comp {
	if err := b.Validate(); err != nil {
		panic(err)
	}
	sim.NameMustBeValid(name)
	cfg := b.cfg.WithDefaults()
	c := &Comp{
		cfg: cfg, halt: b.halt, progress: b.progress, index: b.index, np: b.numPartitions,
		stride: b.partitionStride, ptPixels: b.partitionTile, lineBytes: uint64(b.lineBytes),
		window: b.window, fbCap: b.feedbackQueue, refetch: b.refetch, regionBase: b.regionBase,
		maxTargets: b.maxTargets, writeQueue: b.writeQueue,
		activity: timing.NewActivity(activityNames[:]...),
		rate:     timing.NewRate(b.testsPerCycle),
		out:      timing.NewPipeline[*work](b.latency, b.window),
	}
	c.cacheLine = b.cacheLineBytes()
	c.cacheLines = b.cacheSize / c.cacheLine
	c.tags = newTagStore(c.cacheLines, b.cacheWays, c.lineBytes)
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.waker = timing.NewWaker(b.engine, b.freq, c)
	c.inBuf = sim.NewBuffer(name+".FromRasterizers.Buf", b.inputQueue)
	c.FromRasterizers = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.inBuf, name+".FromRasterizers")
	c.fbBuf = sim.NewBuffer(name+".FromDepthUnit.Buf", 4)
	c.FromDepthUnit = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.fbBuf, name+".FromDepthUnit")
	c.ToDepthUnit = sim.NewLimitNumMsgPort(c, 1, name+".ToDepthUnit")
	c.ToMemory = sim.NewLimitNumMsgPort(c, b.maxOutstanding, name+".ToMemory")
	c.AddPort("FromRasterizers", c.FromRasterizers)
	c.AddPort("FromDepthUnit", c.FromDepthUnit)
	c.AddPort("ToDepthUnit", c.ToDepthUnit)
	c.AddPort("ToMemory", c.ToMemory)
	client, err := memclient.New(c.ToMemory, finder{c}, b.freq, memclient.Config{MaxOutstanding: b.maxOutstanding})
	if err != nil {
		panic(fmt.Errorf("hiz unit: %w", err))
	}
	c.client = client
	c.maxOutstanding = b.maxOutstanding
	return c
}

// finder resolves memory addresses through the Memory field, which the
// platform builder sets after Build.
type finder struct{ c *Comp }

func (f finder) Find(addr uint64) sim.Port {
	if f.c.Memory == nil {
		return nil
	}
	return f.c.Memory.Find(addr)
}

var _ mem.LowModuleFinder = finder{}
