package texturesampler

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// Config is a texture sampler's parameters (configs fills it from the
// texture_sampler and l2 sections).
type Config struct {
	LanesPerCycle      int // lanes the address stage and the filter each process per cycle
	TagLookupsPerCycle int // L1 tag lookups (distinct lines) per cycle
	// L1Size is the L1 size in bytes, L1Ways its associativity and
	// L1LineSize its line size (a power of two, at least 16 bytes; the number
	// of sets must be a power of two too).
	L1Size, L1Ways, L1LineSize int
	// FetchBytes is the granularity of L2 reads: a miss reads the stored
	// bytes its decoded line comes from in reads of at most this many bytes,
	// none crossing a multiple of it (normally the L2 line size; a power of
	// two).
	FetchBytes    int
	L1Latency     int // cycles from an L1 hit to its data
	MissQueue     int // outstanding line misses (MSHRs)
	FilterLatency int // depth of the filter pipeline in cycles
	InputQueue    int // requests waiting in front of the address stage (the Core port's buffer)
	// MaxRequests is the requests in flight between the address stage and
	// the response (the length of the sampler's latency-hiding pipeline, in
	// requests).
	MaxRequests int
	Costs       FilterCosts // what a request costs in the filter stage
}

// DefaultConfig returns 4 lanes per cycle through the address and filter
// stages; 4 tag lookups per cycle; an 8 KB, 4-way L1 of 64-byte lines with a
// 4-cycle hit latency; 32 miss-queue entries; a filter latency of 8 cycles;
// an input queue of 4 requests and at most 16 requests in flight inside the
// sampler; DefaultFilterCosts (flat: a lane costs one lane of LanesPerCycle in
// the filter whatever its filter and format).
func DefaultConfig() Config {
	return Config{LanesPerCycle: 4, TagLookupsPerCycle: 4, L1Size: 8 * 1024, L1Ways: 4, L1LineSize: 64, FetchBytes: 64,
		L1Latency: 4, MissQueue: 32, FilterLatency: 8, InputQueue: 4, MaxRequests: 16, Costs: DefaultFilterCosts()}
}

// Validate checks the parameters; the error names the first bad one.
func (c Config) Validate() error {
	r := check.For("texturesampler")
	for _, p := range []struct {
		name   string
		v, min int
	}{
		{"LanesPerCycle", c.LanesPerCycle, 1}, {"TagLookupsPerCycle", c.TagLookupsPerCycle, 1},
		{"L1Latency", c.L1Latency, 0}, {"MissQueue", c.MissQueue, 1}, {"FilterLatency", c.FilterLatency, 0},
		{"InputQueue", c.InputQueue, 1}, {"MaxRequests", c.MaxRequests, 1},
	} {
		r.That(p.v >= p.min && p.v <= 1<<16, "%s: %d is outside [%d, %d]", p.name, p.v, p.min, 1<<16)
	}
	_, l1Err := timing.NewTagArray(c.L1Size, c.L1Ways, c.L1LineSize)
	return r.Wrap(c.Costs.Validate()).
		That(c.L1LineSize >= 16, "L1: line size %d is smaller than the widest decoded texel (16 bytes)", c.L1LineSize).
		That(c.FetchBytes >= 1 && c.FetchBytes <= 1<<16 && c.FetchBytes&(c.FetchBytes-1) == 0,
			"FetchBytes: %d is not a power of two in [1, 65536]", c.FetchBytes).
		That(l1Err == nil, "L1: %v", l1Err).
		Err()
}

// Builder builds texture samplers: MakeBuilder().WithEnv(env).
// WithConfig(cfg).Build(name). Build also panics when name is not a valid
// Akita name.
type Builder = timing.Builder[Config, *Comp]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("texturesampler", DefaultConfig(), build) }

func build(name string, env timing.Env, cfg Config) *Comp {
	l1, _ := timing.NewTagArray(cfg.L1Size, cfg.L1Ways, cfg.L1LineSize)
	c := &Comp{
		l1:            l1,
		lineSize:      uint64(cfg.L1LineSize),
		fetchBytes:    uint64(cfg.FetchBytes),
		l1Latency:     uint64(cfg.L1Latency),
		filterLatency: uint64(cfg.FilterLatency),
	}
	c.Unit = timing.NewUnit(name, env, cfg, c, activityNames[:]...)
	c.buildPorts(name, cfg, env.Freq)
	c.buildQueues(cfg)
	return c
}

func (c *Comp) buildPorts(name string, cfg Config, freq sim.Freq) {
	c.inputBuf = timing.NewBuffer(name+".InputQueue", cfg.InputQueue)
	c.Core = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.inputBuf, name+".Core")
	// At most MissQueue reads are outstanding: their responses always fit.
	c.ToL2 = timing.AddPort(c, "ToL2", cfg.MissQueue)
	c.AddPort("Core", c.Core)
	c.Control = timing.AddPort(c, "Control", 1)
	client, err := memclient.New(c.ToL2, timing.LateFinder{At: &c.L2}, freq, memclient.Config{MaxOutstanding: cfg.MissQueue})
	if err != nil {
		panic(fmt.Sprintf("%s: %v", name, err))
	}
	c.client = client
}

func (c *Comp) buildQueues(cfg Config) {
	c.ring = make([]request, cfg.MaxRequests)
	for i := range c.ring {
		c.ring[i].lines = make([]lineRef, 0, 16)
	}
	c.misses = make([]missEntry, cfg.MissQueue)
	c.freeMisses = make([]int, cfg.MissQueue)
	for i := range c.freeMisses {
		c.freeMisses[i] = cfg.MissQueue - 1 - i
	}
	c.unsent = make([]pendingRead, 0, cfg.MissQueue)
	c.fillQueue = make([]int, 0, cfg.MissQueue)
	c.ranges = make([]texture.ByteRange, 0, 2*cfg.L1LineSize)
	c.taps = make([]texture.Tap, 0, texture.MaxTaps)
}
