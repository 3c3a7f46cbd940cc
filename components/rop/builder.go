package rop

import (
	"fmt"

	"github.com/gfxsim/gfxsim/components/rop/rtcache"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// Config is the ROP's configuration.
type Config struct {
	// Index is the screen partition the ROP serves.
	Index int
	// QuadsPerCycle is the blend rate: quads blended per cycle (all their
	// samples); the colour-cache lookups and the resolve run at the same
	// rate.
	QuadsPerCycle int
	// SamplesPerCycle is the blend rate of the visibility quads of decoupled
	// draws' 5D primitives (protocol.ShadedSamples) in samples per cycle. 0
	// (the default) charges each visibility quad one quad of QuadsPerCycle, as
	// a pixel quad with all its samples: today's per-quad cost, which a
	// visibility quad (at most 4 pixels x samples) never exceeds.
	SamplesPerCycle int
	// Costs is the blend stage's cost model (see Costs). With CostBySamples
	// every quad's live samples (times the format and blend factors) are
	// blended at SamplesPerCycle.
	Costs Costs
	// Cache is the colour cache: size, ways and line size in bytes, the
	// memory requests (line reads and writes) in flight (MaxOutstanding), the
	// line write-backs that may wait before new misses stall (WriteQueue),
	// and MSAA colour compression: a colour line whose pixels each have all
	// their samples equal is written back, and read again, as a block of one
	// colour per pixel (LineSize/samples bytes), when that block is at least
	// MinBlock, the memory's access unit (a power of two in [4, 4096]; a DRAM
	// channel's bus width times its burst length), which is also the size of
	// the display lines the resolve writes.
	Cache rtcache.Config
	// BlendLatency is the cycles from a quad's lines being present to its
	// write.
	BlendLatency int
	// InputQueue is the capacity, in messages, of the FromReorderBuffer port.
	InputQueue int
	// Window is how many messages from the reorder buffer (shaded quads and
	// DrawEnd markers) may be in flight inside the ROP.
	Window int
	// LateZInFlight is how many late-Z requests may wait for their response.
	LateZInFlight int
	// WaitQuads is how many looked-up quads may wait for their colour lines.
	WaitQuads int
	// TileSize, PartitionStride and NumPartitions are the partitioning of the
	// screen the resolve follows: raster tiles of TileSize pixels, tile (tx,
	// ty) belonging to partition (tx + ty*PartitionStride) mod NumPartitions.
	TileSize, PartitionStride, NumPartitions int
	// PrefetchDistance and PrefetchReserve set the framebuffer prefetch: the
	// colour lines of the quad at the lookup cursor and of the
	// PrefetchDistance quads after it (in arrival order, within the window)
	// are read ahead of their lookup, while more than PrefetchReserve of the
	// Cache.MaxOutstanding request slots stay free for demand misses and
	// write-backs. Distance 0 turns it off; the reserve must be at least 1
	// and less than Cache.MaxOutstanding when it is on.
	PrefetchDistance, PrefetchReserve int
}

// DefaultConfig returns the defaults: partition 0 of 1 with 8x8 tiles and an
// interleave stride of 1, one quad blended per cycle (all its samples), a 16
// KB 4-way colour cache with 64-byte lines, 8 memory requests in flight, 8
// queued line writes, colour compression on and a 64-byte memory access
// unit, a blend latency of 4 cycles, room for 8 messages in the input port
// and 16 in flight inside the ROP, 4 late-Z requests in flight and 16 quads
// waiting for their lines; DefaultCosts (flat); no prefetch (a reserve of 2
// memory-request slots when it is turned on).
func DefaultConfig() Config {
	return Config{
		QuadsPerCycle: 1,
		Costs:         DefaultCosts(),
		Cache: rtcache.Config{Size: 16 * 1024, Ways: 4, LineSize: 64, MaxOutstanding: 8, WriteQueue: 8,
			Compression: true, MinBlock: 64},
		BlendLatency:    4,
		InputQueue:      8,
		Window:          16,
		LateZInFlight:   4,
		WaitQuads:       16,
		TileSize:        8,
		PartitionStride: 1,
		NumPartitions:   1,
		PrefetchReserve: 2,
	}
}

// Validate checks the parameters and names the first bad one.
func (c Config) Validate() error {
	r := check.For("rop").
		PowerOfTwo("TileSize", c.TileSize, 2, 256).
		AtLeast("NumPartitions", c.NumPartitions, 1).
		Index("Index", c.Index, "NumPartitions", c.NumPartitions).
		NotNegative("PartitionStride", c.PartitionStride).
		FieldsAtLeast(1, c, "QuadsPerCycle", "BlendLatency", "InputQueue",
			"Window", "LateZInFlight", "WaitQuads").
		InRange("PrefetchDistance", c.PrefetchDistance, 0, 1<<16)
	if c.PrefetchDistance > 0 {
		r.That(c.PrefetchReserve >= 1 && c.PrefetchReserve < c.Cache.MaxOutstanding,
			"PrefetchReserve %d must be in [1, Cache.MaxOutstanding=%d) when prefetching",
			c.PrefetchReserve, c.Cache.MaxOutstanding)
	}
	return r.NotNegative("SamplesPerCycle", c.SamplesPerCycle).
		Wrap(c.Costs.validate(c.SamplesPerCycle)).
		PowerOfTwo("Cache.MinBlock", c.Cache.MinBlock, 4, 4096).
		AtMost("WaitQuads", c.WaitQuads, 1<<20).
		Wrap(c.Cache.ValidateAs("Cache")).
		Err()
}

// Builder builds a ROP: MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name)
// (timing.Builder; it panics, naming the unit and the first bad parameter, on
// a bad environment or configuration: configs validates first).
type Builder = timing.Builder[Config, *Comp]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("rop", DefaultConfig(), build) }

// build creates the ROP named name (for example "GPU.ROP[1]") from a checked
// environment and a valid configuration.
func build(name string, env timing.Env, cfg Config) *Comp {
	c := &Comp{
		sender:      timing.Sender{Progress: env.Progress},
		wait:        make([]quadRec, cfg.WaitQuads),
		pipe:        timing.NewPipeline[done](cfg.BlendLatency, cfg.QuadsPerCycle),
		lookRate:    timing.NewRate(cfg.QuadsPerCycle),
		blendRate:   timing.NewRate(cfg.QuadsPerCycle),
		displayLine: uint64(cfg.Cache.MinBlock),
	}
	if cfg.SamplesPerCycle > 0 {
		c.sampleRate = timing.NewRate(cfg.SamplesPerCycle)
	}
	c.Unit = timing.NewUnit(name, env, cfg, c, activityNames[:]...)
	c.wakeFn = c.wake

	c.FromReorderBuffer, c.inBuf = timing.AddBufferedPort(c, "FromReorderBuffer", cfg.InputQueue)
	c.DepthUnit = timing.AddPort(c, "DepthUnit", cfg.LateZInFlight)
	c.ToMemory = timing.AddPort(c, "ToMemory", cfg.Cache.MaxOutstanding)
	c.Control = timing.AddPort(c, "Control", 2)

	cache, err := rtcache.New(c.ToMemory, timing.LateFinder{At: &c.Memory}, env.Freq, cfg.Cache)
	if err != nil {
		panic(fmt.Errorf("rop: Cache.%w", err))
	}
	c.cache = cache
	cache.TraceAs(c)
	return c
}
