package texturesampler

import (
	"fmt"
	"math"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/timing"
)

// Builder builds texture samplers. Start from MakeBuilder.
type Builder struct {
	engine   sim.Engine
	freq     sim.Freq
	halt     *timing.Halt
	progress *timing.Progress

	lanesPerCycle      int
	tagLookupsPerCycle int
	l1Size, l1Ways     int
	l1LineSize         int
	fetchBytes         int
	l1Latency          int
	missQueue          int
	filterLatency      int
	inputQueue         int
	maxRequests        int
	costs              FilterCosts
}

// MakeBuilder returns a builder with the defaults: 1 GHz; 4 lanes per cycle
// through the address and filter stages; 4 tag lookups per cycle; an 8 KB,
// 4-way L1 of 64-byte lines with a 4-cycle hit latency; 32 miss-queue entries;
// a filter latency of 8 cycles; an input queue of 4 requests and at most 16
// requests in flight inside the sampler; DefaultFilterCosts (flat: a lane
// costs one lane of LanesPerCycle in the filter whatever its filter and
// format).
func MakeBuilder() Builder {
	return Builder{
		freq:               1 * sim.GHz,
		lanesPerCycle:      4,
		tagLookupsPerCycle: 4,
		l1Size:             8 * 1024,
		l1Ways:             4,
		l1LineSize:         64,
		fetchBytes:         64,
		l1Latency:          4,
		missQueue:          32,
		filterLatency:      8,
		inputQueue:         4,
		maxRequests:        16,
		costs:              DefaultFilterCosts(),
	}
}

// WithEngine sets the simulation engine.
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the sampler clock.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag.
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter.
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithLanesPerCycle sets the lanes the address stage and the filter each
// process per cycle.
func (b Builder) WithLanesPerCycle(n int) Builder { b.lanesPerCycle = n; return b }

// WithTagLookupsPerCycle sets the L1 tag lookups (distinct lines) per cycle.
func (b Builder) WithTagLookupsPerCycle(n int) Builder { b.tagLookupsPerCycle = n; return b }

// WithL1 sets the L1 size in bytes, its associativity and its line size (a
// power of two; the number of sets must be a power of two too).
func (b Builder) WithL1(size, ways, lineSize int) Builder {
	b.l1Size, b.l1Ways, b.l1LineSize = size, ways, lineSize
	return b
}

// WithFetchBytes sets the granularity of L2 reads: a miss reads the stored
// bytes its decoded line comes from in reads of at most this many bytes, none
// crossing a multiple of it (normally the L2 line size; a power of two).
func (b Builder) WithFetchBytes(n int) Builder { b.fetchBytes = n; return b }

// WithL1Latency sets the cycles from an L1 hit to its data.
func (b Builder) WithL1Latency(n int) Builder { b.l1Latency = n; return b }

// WithMissQueue sets the number of outstanding line misses (MSHRs).
func (b Builder) WithMissQueue(n int) Builder { b.missQueue = n; return b }

// WithFilterLatency sets the depth of the filter pipeline in cycles.
func (b Builder) WithFilterLatency(n int) Builder { b.filterLatency = n; return b }

// WithInputQueue sets the requests waiting in front of the address stage (the
// Core port's buffer).
func (b Builder) WithInputQueue(n int) Builder { b.inputQueue = n; return b }

// WithMaxRequests sets the requests in flight between the address stage and
// the response (the length of the sampler's latency-hiding pipeline, in
// requests).
func (b Builder) WithMaxRequests(n int) Builder { b.maxRequests = n; return b }

// WithFilterCosts sets what a request costs in the filter stage (see
// FilterCosts).
func (b Builder) WithFilterCosts(fc FilterCosts) Builder { b.costs = fc; return b }

// Validate checks the parameters; the error names the first bad one.
func (b Builder) Validate() error {
	switch {
	case b.engine == nil:
		return fmt.Errorf("texturesampler: Engine: not set")
	case !(b.freq > 0) || math.IsInf(float64(b.freq), 0):
		return fmt.Errorf("texturesampler: Freq: %v Hz is not a positive frequency", float64(b.freq))
	}
	for _, p := range []struct {
		name   string
		v, min int
	}{
		{"LanesPerCycle", b.lanesPerCycle, 1}, {"TagLookupsPerCycle", b.tagLookupsPerCycle, 1},
		{"L1Latency", b.l1Latency, 0}, {"MissQueue", b.missQueue, 1}, {"FilterLatency", b.filterLatency, 0},
		{"InputQueue", b.inputQueue, 1}, {"MaxRequests", b.maxRequests, 1},
	} {
		if p.v < p.min || p.v > 1<<16 {
			return fmt.Errorf("texturesampler: %s: %d is outside [%d, %d]", p.name, p.v, p.min, 1<<16)
		}
	}
	if err := b.costs.Validate(); err != nil {
		return fmt.Errorf("texturesampler: %w", err)
	}
	if b.l1LineSize < 16 {
		return fmt.Errorf("texturesampler: L1: line size %d is smaller than the widest decoded texel (16 bytes)", b.l1LineSize)
	}
	if b.fetchBytes < 1 || b.fetchBytes > 1<<16 || b.fetchBytes&(b.fetchBytes-1) != 0 {
		return fmt.Errorf("texturesampler: FetchBytes: %d is not a power of two in [1, 65536]", b.fetchBytes)
	}
	if _, err := timing.NewTagArray(b.l1Size, b.l1Ways, b.l1LineSize); err != nil {
		return fmt.Errorf("texturesampler: L1: %v", err)
	}
	return nil
}

// Build creates the sampler. It panics with the Validate error when a
// parameter is invalid, and when name is not a valid Akita name.
func (b Builder) Build(name string) *Comp {
	if err := b.Validate(); err != nil {
		panic(fmt.Sprintf("%s: %v", name, err))
	}
	sim.NameMustBeValid(name)
	l1, _ := timing.NewTagArray(b.l1Size, b.l1Ways, b.l1LineSize)
	c := &Comp{
		halt:          b.halt,
		progress:      b.progress,
		lanesPerCycle: b.lanesPerCycle,
		lookups:       b.tagLookupsPerCycle,
		l1:            l1,
		lineSize:      uint64(b.l1LineSize),
		fetchBytes:    uint64(b.fetchBytes),
		l1Latency:     uint64(b.l1Latency),
		filterLatency: uint64(b.filterLatency),
		costs:         b.costs,
		activity:      timing.NewActivity(activityNames[:]...),
	}
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.waker = timing.NewWaker(b.engine, b.freq, c)
	c.buildPorts(name, b)
	c.buildQueues(b)
	return c
}

func (c *Comp) buildPorts(name string, b Builder) {
	c.inputBuf = sim.NewBuffer(name+".InputQueue", b.inputQueue)
	c.Core = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.inputBuf, name+".Core")
	// At most MissQueue reads are outstanding: their responses always fit.
	c.ToL2 = sim.NewLimitNumMsgPort(c, b.missQueue, name+".ToL2")
	c.AddPort("Core", c.Core)
	c.AddPort("ToL2", c.ToL2)
	c.Control = sim.NewLimitNumMsgPort(c, 1, name+".Control")
	c.AddPort("Control", c.Control)
	client, err := memclient.New(c.ToL2, l2Finder{c}, b.freq, memclient.Config{MaxOutstanding: b.missQueue})
	if err != nil {
		panic(fmt.Sprintf("%s: %v", name, err))
	}
	c.client = client
}

func (c *Comp) buildQueues(b Builder) {
	c.ring = make([]request, b.maxRequests)
	for i := range c.ring {
		c.ring[i].lines = make([]lineRef, 0, 16)
	}
	c.misses = make([]missEntry, b.missQueue)
	c.freeMisses = make([]int, b.missQueue)
	for i := range c.freeMisses {
		c.freeMisses[i] = b.missQueue - 1 - i
	}
	c.unsent = make([]pendingRead, 0, b.missQueue)
	c.fillQueue = make([]int, 0, b.missQueue)
	c.ranges = make([]texture.ByteRange, 0, 2*b.l1LineSize)
	c.taps = make([]texture.Tap, 0, texture.MaxTaps)
}

// l2Finder resolves L2 addresses through the peer field set after Build.
type l2Finder struct{ c *Comp }

func (f l2Finder) Find(addr uint64) sim.Port {
	if f.c.L2 == nil {
		return nil
	}
	return f.c.L2.Find(addr)
}
