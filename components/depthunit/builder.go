package depthunit

import (
	"fmt"

	"github.com/gfxsim/gfxsim/components/rop/rtcache"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// Config is the depth unit's configuration.
type Config struct {
	// Index is the screen partition the unit serves.
	Index int
	// NumRasterizers is how many rasterizers send to the unit: a DrawEnd is
	// forwarded once it came from all of them.
	NumRasterizers int
	// SamplesPerCycle is the depth-test rate in samples per cycle (the tag
	// lookups run at the same rate).
	SamplesPerCycle int
	// Cache is the depth cache: size, ways and line size in bytes, the memory
	// requests (line reads and writes) in flight (MaxOutstanding), the line
	// write-backs that may wait before new misses stall (WriteQueue), and Z
	// compression of depth lines (Compression) with the memory's access unit
	// (MinBlock: compressed sizes are multiples of it, and lines of that size
	// or smaller are never compressed).
	Cache rtcache.Config
	// TestLatency is the cycles from a quad's lines being present to its
	// result.
	TestLatency int
	// InputQueue is the capacity, in messages, of the FromRasterizers port.
	InputQueue int
	// TileWindow is how many messages from the rasterizers (tiles of quads
	// and DrawEnd markers) may be in flight inside the unit, from acceptance
	// to output.
	TileWindow int
	// LateQueue is how many late-Z requests the unit holds (the ROP port's
	// buffer and the requests in flight inside the unit, each).
	LateQueue int
	// WaitQuads is how many looked-up quads per stream (early and late) may
	// wait for their lines: the window of misses the unit can overlap.
	WaitQuads int
	// HiZ is the configuration of the partition's HiZ unit: the HiZ tile size
	// of its feedback, and which feedback the unit sends (fhiz.UpdateFeedback:
	// after every tested message; fhiz.EvictFeedback: when a dirty depth line
	// leaves the cache). A zero Config (Mode Off) means no HiZ unit.
	HiZ fhiz.Config
	// FeedbackQueue is how many messages (feedback and relayed control) may
	// wait for the HiZ unit; feedback arriving when it is full is dropped.
	FeedbackQueue int
}

// DefaultConfig returns the defaults: partition 0, one rasterizer, 32 depth
// tests per cycle, a 32 KB 4-way depth cache with 64-byte lines, 8 memory
// requests in flight and 8 queued line writes (no compression), a test
// latency of 4 cycles, room for 8 messages from the rasterizers in the input
// port and 8 in flight inside the unit, 4 late-Z requests, 32 quads per
// stream waiting for their lines, no HiZ unit and 16 messages towards it.
func DefaultConfig() Config {
	return Config{
		NumRasterizers:  1,
		SamplesPerCycle: 32,
		Cache:           rtcache.Config{Size: 32 * 1024, Ways: 4, LineSize: 64, MaxOutstanding: 8, WriteQueue: 8},
		TestLatency:     4,
		InputQueue:      8,
		TileWindow:      8,
		LateQueue:       4,
		WaitQuads:       32,
		FeedbackQueue:   16,
	}
}

// Validate checks the parameters and names the first bad one.
func (c Config) Validate() error {
	r := check.For("depthunit").
		NotNegative("Index", c.Index).
		FieldsAtLeast(1, c, "NumRasterizers", "SamplesPerCycle", "TestLatency", "InputQueue",
			"TileWindow", "LateQueue", "WaitQuads", "FeedbackQueue").
		AtMost("WaitQuads", c.WaitQuads, 1<<20).
		Wrap(c.Cache.ValidateAs("Cache"))
	if c.HiZ.Mode != fhiz.Off {
		r.Wrap(hizErr(c.HiZ.WithDefaults().Validate()))
	}
	return r.Err()
}

// hizErr names the HiZ configuration's bad field as one of Config.HiZ.
func hizErr(err error) error {
	if err != nil {
		return fmt.Errorf("HiZ: %w", err)
	}
	return nil
}

// Builder builds a depth unit: MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name)
// (timing.Builder; it panics, naming the unit and the first bad parameter, on
// a bad environment or configuration: configs validates first).
type Builder = timing.Builder[Config, *Comp]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("depthunit", DefaultConfig(), build) }

// build creates the depth unit named name (for example "GPU.DepthUnit[1]") from a checked
// environment and a valid configuration.
func build(name string, env timing.Env, cfg Config) *Comp {
	c := &Comp{
		sender: timing.Sender{Progress: env.Progress},
	}
	if cfg.HiZ.Mode != fhiz.Off {
		c.hizCfg = cfg.HiZ.WithDefaults()
	}
	c.Unit = timing.NewUnit(name, env, cfg, c, activityNames[:]...)

	c.FromRasterizers, c.inBuf = timing.AddBufferedPort(c, "FromRasterizers", cfg.InputQueue)
	c.ToQuadPacker = timing.AddPort(c, "ToQuadPacker", 1)
	c.ROP, c.lateBuf = timing.AddBufferedPort(c, "ROP", cfg.LateQueue)
	c.ToMemory = timing.AddPort(c, "ToMemory", cfg.Cache.MaxOutstanding)
	c.Control = timing.AddPort(c, "Control", 2)
	c.ToHiZ = timing.AddPort(c, "ToHiZ", 1)

	cache, err := rtcache.New(c.ToMemory, timing.LateFinder{At: &c.Memory}, env.Freq, cfg.Cache)
	if err != nil {
		panic(fmt.Errorf("depthunit: Cache.%w", err))
	}
	c.cache = cache
	cache.TraceAs(c)
	if c.hizCfg.Mode != fhiz.Off && c.hizCfg.Feedback == fhiz.EvictFeedback {
		cache.SetEvictHook(c.onEvict)
	}

	c.wakeFn = c.wake
	c.early = newStream(false, cfg.WaitQuads, cfg.TestLatency, cfg.SamplesPerCycle)
	c.late = newStream(true, cfg.WaitQuads, cfg.TestLatency, cfg.SamplesPerCycle)
	c.lookRate = timing.NewRate(cfg.SamplesPerCycle)
	c.testRate = timing.NewRate(cfg.SamplesPerCycle)
	return c
}
