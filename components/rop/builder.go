package rop

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/rop/rtcache"
	"github.com/gfxsim/gfxsim/timing"
)

// Builder configures and builds a ROP. The zero value is not usable; start from
// MakeBuilder.
type Builder struct {
	engine          sim.Engine
	freq            sim.Freq
	halt            *timing.Halt
	progress        *timing.Progress
	index           int
	quadsPerCycle   int
	samplesPerCycle int
	cacheSize       int
	cacheWays       int
	lineSize        int
	blendLatency    int
	maxOutstanding  int
	writeQueue      int
	inputQueue      int
	window          int
	lateZInFlight   int
	waitQuads       int
	tileSize        int
	partitionStride int
	numPartitions   int
	compression     bool
	accessBytes     int
	costs           Costs
	prefetch        int
	prefetchReserve int
}

// MakeBuilder returns a builder with the defaults: 1 GHz, partition 0 of 1 with
// 8x8 tiles and an interleave stride of 1, one quad blended per cycle (all its
// samples), a 16 KB 4-way colour cache with 64-byte lines, a blend latency of 4
// cycles, 8 memory requests in flight, 8 queued line writes, room for 8 messages
// in the input port and 16 in flight inside the ROP, 4 late-Z requests in flight
// and 16 quads waiting for their lines, colour compression on, and a 64-byte
// memory access unit; DefaultCosts (flat); no prefetch (a reserve of 2
// memory-request slots when it is turned on).
func MakeBuilder() Builder {
	return Builder{
		freq:            1 * sim.GHz,
		quadsPerCycle:   1,
		cacheSize:       16 * 1024,
		cacheWays:       4,
		lineSize:        64,
		blendLatency:    4,
		maxOutstanding:  8,
		writeQueue:      8,
		inputQueue:      8,
		window:          16,
		lateZInFlight:   4,
		waitQuads:       16,
		tileSize:        8,
		partitionStride: 1,
		numPartitions:   1,
		compression:     true,
		accessBytes:     64,
		costs:           DefaultCosts(),
		prefetchReserve: 2,
	}
}

// WithEngine sets the simulation engine (required).
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the clock frequency.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag: the ROP stops at its next tick once it
// is set, and reports protocol errors through it.
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter (one unit per message sent
// or retired).
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithIndex sets the screen partition p the ROP serves.
func (b Builder) WithIndex(p int) Builder { b.index = p; return b }

// WithSamplesPerCycle sets the blend rate of the visibility quads of
// decoupled draws' 5D primitives (protocol.ShadedSamples) in samples per
// cycle. 0 (the default) charges each visibility quad one quad of
// QuadsPerCycle, as a pixel quad with all its samples: today's per-quad cost,
// which a visibility quad (at most 4 pixels x samples) never exceeds.
func (b Builder) WithSamplesPerCycle(n int) Builder { b.samplesPerCycle = n; return b }

// WithQuadsPerCycle sets the blend rate: quads blended per cycle (all their
// samples); the colour-cache lookups and the resolve run at the same rate.
func (b Builder) WithQuadsPerCycle(n int) Builder { b.quadsPerCycle = n; return b }

// WithCosts sets the blend stage's cost model (see Costs). With CostBySamples
// every quad's live samples (times the format and blend factors) are blended
// at SamplesPerCycle.
func (b Builder) WithCosts(c Costs) Builder { b.costs = c; return b }

// WithCache sets the colour cache: size in bytes, ways and line size in bytes.
func (b Builder) WithCache(size, ways, lineSize int) Builder {
	b.cacheSize, b.cacheWays, b.lineSize = size, ways, lineSize
	return b
}

// WithBlendLatency sets the cycles from a quad's lines being present to its write.
func (b Builder) WithBlendLatency(n int) Builder { b.blendLatency = n; return b }

// WithMaxOutstandingMemory sets how many memory requests (line reads and
// writes) may be in flight.
func (b Builder) WithMaxOutstandingMemory(n int) Builder { b.maxOutstanding = n; return b }

// WithWriteQueue sets how many line write-backs may wait to be issued before new
// misses stall.
func (b Builder) WithWriteQueue(n int) Builder { b.writeQueue = n; return b }

// WithInputQueue sets the capacity, in messages, of the FromReorderBuffer port.
func (b Builder) WithInputQueue(n int) Builder { b.inputQueue = n; return b }

// WithWindow sets how many messages from the reorder buffer (shaded quads and
// DrawEnd markers) may be in flight inside the ROP.
func (b Builder) WithWindow(n int) Builder { b.window = n; return b }

// WithLateZInFlight sets how many late-Z requests may wait for their response.
func (b Builder) WithLateZInFlight(n int) Builder { b.lateZInFlight = n; return b }

// WithWaitQuads sets how many looked-up quads may wait for their colour lines.
func (b Builder) WithWaitQuads(n int) Builder { b.waitQuads = n; return b }

// WithTiles sets the partitioning of the screen the resolve follows: raster
// tiles of tileSize pixels, tile (tx, ty) belonging to partition
// (tx + ty*stride) mod numPartitions.
func (b Builder) WithTiles(tileSize, stride, numPartitions int) Builder {
	b.tileSize, b.partitionStride, b.numPartitions = tileSize, stride, numPartitions
	return b
}

// WithCompression turns MSAA colour compression on or off: a colour line whose
// pixels each have all their samples equal is written back, and read again, as
// a block of one colour per pixel (LineSize/samples bytes), when that block is
// at least the memory access unit (WithAccessBytes).
func (b Builder) WithCompression(on bool) Builder { b.compression = on; return b }

// WithAccessBytes sets the memory's access unit in bytes (a power of two in
// [4, 4096]; a DRAM channel's bus width times its burst length): the smallest
// compressed block worth moving, and the size of the display lines the resolve
// writes.
func (b Builder) WithAccessBytes(n int) Builder { b.accessBytes = n; return b }

// WithPrefetch sets the framebuffer prefetch: the colour lines of the quad at
// the lookup cursor and of the distance quads after it (in arrival order,
// within the window) are read ahead of their lookup, while more than reserve
// of the MaxOutstandingMemory request slots stay free for demand misses and
// write-backs. Distance 0 turns it off; reserve must be at least 1 and less
// than MaxOutstandingMemory when it is on.
func (b Builder) WithPrefetch(distance, reserve int) Builder {
	b.prefetch, b.prefetchReserve = distance, reserve
	return b
}

func (b Builder) cacheConfig() rtcache.Config {
	return rtcache.Config{Size: b.cacheSize, Ways: b.cacheWays, LineSize: b.lineSize,
		MaxOutstanding: b.maxOutstanding, WriteQueue: b.writeQueue,
		Compression: b.compression, MinBlock: b.accessBytes}
}

// Validate checks the parameters and names the first bad one.
func (b Builder) Validate() error {
	switch {
	case b.engine == nil:
		return fmt.Errorf("rop: Engine is not set")
	case !(b.freq > 0):
		return fmt.Errorf("rop: Freq %v must be positive", float64(b.freq))
	case b.tileSize < 2 || b.tileSize > 256 || b.tileSize&(b.tileSize-1) != 0:
		return fmt.Errorf("rop: TileSize %d must be a power of two in [2, 256]", b.tileSize)
	case b.numPartitions < 1:
		return fmt.Errorf("rop: NumPartitions %d must be at least 1", b.numPartitions)
	case b.index < 0 || b.index >= b.numPartitions:
		return fmt.Errorf("rop: Index %d must be in [0, NumPartitions=%d)", b.index, b.numPartitions)
	case b.partitionStride < 0:
		return fmt.Errorf("rop: PartitionStride %d must not be negative", b.partitionStride)
	}
	for _, c := range []struct {
		name string
		v    int
	}{
		{"QuadsPerCycle", b.quadsPerCycle},
		{"BlendLatency", b.blendLatency},
		{"MaxOutstandingMemory", b.maxOutstanding},
		{"WriteQueue", b.writeQueue},
		{"InputQueue", b.inputQueue},
		{"Window", b.window},
		{"LateZInFlight", b.lateZInFlight},
		{"WaitQuads", b.waitQuads},
	} {
		if c.v < 1 {
			return fmt.Errorf("rop: %s %d must be at least 1", c.name, c.v)
		}
	}
	if b.prefetch < 0 || b.prefetch > 1<<16 {
		return fmt.Errorf("rop: PrefetchDistance %d must be in [0, %d]", b.prefetch, 1<<16)
	}
	if b.prefetch > 0 && (b.prefetchReserve < 1 || b.prefetchReserve >= b.maxOutstanding) {
		return fmt.Errorf("rop: PrefetchReserve %d must be in [1, MaxOutstandingMemory=%d) when prefetching",
			b.prefetchReserve, b.maxOutstanding)
	}
	if b.samplesPerCycle < 0 {
		return fmt.Errorf("rop: SamplesPerCycle %d must not be negative", b.samplesPerCycle)
	}
	if err := b.costs.validate(b.samplesPerCycle); err != nil {
		return err
	}
	if b.accessBytes < 4 || b.accessBytes > 4096 || b.accessBytes&(b.accessBytes-1) != 0 {
		return fmt.Errorf("rop: AccessBytes %d must be a power of two in [4, 4096]", b.accessBytes)
	}
	if b.waitQuads > 1<<20 {
		return fmt.Errorf("rop: WaitQuads %d must be at most %d", b.waitQuads, 1<<20)
	}
	if err := b.cacheConfig().Validate(); err != nil {
		return fmt.Errorf("rop: Cache.%w", err)
	}
	return nil
}

// Build creates the ROP named name (for example "GPU.ROP[1]"). It panics with the
// message of Validate when a parameter is invalid.
func (b Builder) Build(name string) *Comp {
	if err := b.Validate(); err != nil {
		panic(err)
	}
	sim.NameMustBeValid(name)
	c := &Comp{
		halt:          b.halt,
		progress:      b.progress,
		index:         b.index,
		window:        b.window,
		lateZInFlight: b.lateZInFlight,
		tileSize:      b.tileSize,
		stride:        b.partitionStride,
		partitions:    b.numPartitions,
		wait:          make([]quadRec, b.waitQuads),
		pipe:          timing.NewPipeline[done](b.blendLatency, b.quadsPerCycle),
		lookRate:      timing.NewRate(b.quadsPerCycle),
		blendRate:     timing.NewRate(b.quadsPerCycle),
		activity:      timing.NewActivity(activityNames[:]...),
		displayLine:   uint64(b.accessBytes),
		costs:         b.costs,
		pfDistance:    b.prefetch,
		pfReserve:     b.prefetchReserve,
	}
	if b.samplesPerCycle > 0 {
		c.sampleRate = timing.NewRate(b.samplesPerCycle)
	}
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.waker = timing.NewWaker(b.engine, b.freq, c)
	c.wakeFn = c.wake

	c.inBuf = sim.NewBuffer(name+".FromReorderBuffer.Buf", b.inputQueue)
	c.FromReorderBuffer = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.inBuf, name+".FromReorderBuffer")
	c.DepthUnit = sim.NewLimitNumMsgPort(c, b.lateZInFlight, name+".DepthUnit")
	c.ToMemory = sim.NewLimitNumMsgPort(c, b.maxOutstanding, name+".ToMemory")
	c.Control = sim.NewLimitNumMsgPort(c, 2, name+".Control")
	c.AddPort("FromReorderBuffer", c.FromReorderBuffer)
	c.AddPort("DepthUnit", c.DepthUnit)
	c.AddPort("ToMemory", c.ToMemory)
	c.AddPort("Control", c.Control)

	cache, err := rtcache.New(c.ToMemory, finder{c}, b.freq, b.cacheConfig())
	if err != nil {
		panic(fmt.Errorf("rop: Cache.%w", err))
	}
	c.cache = cache
	cache.TraceAs(c)
	return c
}

// finder resolves memory addresses through the Memory field, which the platform
// builder sets after Build.
type finder struct{ c *Comp }

func (f finder) Find(addr uint64) sim.Port {
	if f.c.Memory == nil {
		return nil
	}
	return f.c.Memory.Find(addr)
}

var _ mem.LowModuleFinder = finder{}
