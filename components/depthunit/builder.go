package depthunit

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/rop/rtcache"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/timing"
)

// Builder configures and builds a depth unit. The zero value is not usable;
// start from MakeBuilder.
type Builder struct {
	engine          sim.Engine
	freq            sim.Freq
	halt            *timing.Halt
	progress        *timing.Progress
	index           int
	numRasterizers  int
	samplesPerCycle int
	cacheSize       int
	cacheWays       int
	lineSize        int
	testLatency     int
	maxOutstanding  int
	writeQueue      int
	inputQueue      int
	tileWindow      int
	lateQueue       int
	waitQuads       int
	hizCfg          fhiz.Config
	feedbackQueue   int
	compression     bool
	accessBytes     int
}

// MakeBuilder returns a builder with the defaults: 1 GHz, partition 0, one
// rasterizer, 32 depth tests per cycle, a 32 KB 4-way depth cache with 64-byte
// lines, a test latency of 4 cycles, 8 memory requests in flight, 8 queued line
// writes, room for 8 messages from the rasterizers in the input port and 8 in
// flight inside the unit, 4 late-Z requests, and 32 quads per stream waiting for
// their lines.
func MakeBuilder() Builder {
	return Builder{
		freq:            1 * sim.GHz,
		numRasterizers:  1,
		samplesPerCycle: 32,
		cacheSize:       32 * 1024,
		cacheWays:       4,
		lineSize:        64,
		testLatency:     4,
		maxOutstanding:  8,
		writeQueue:      8,
		inputQueue:      8,
		tileWindow:      8,
		lateQueue:       4,
		waitQuads:       32,
		feedbackQueue:   16,
	}
}

// WithHiZ tells the unit the configuration of its partition's HiZ unit: the
// HiZ tile size of its feedback, and which feedback it sends (Config.Feedback
// UpdateFeedback: after every tested message; EvictFeedback: when a dirty
// depth line leaves the cache). A zero Config (Mode Off) means no HiZ unit.
func (b Builder) WithHiZ(c fhiz.Config) Builder { b.hizCfg = c; return b }

// WithFeedbackQueue sets how many messages (feedback and relayed control) may
// wait for the HiZ unit; feedback arriving when it is full is dropped.
func (b Builder) WithFeedbackQueue(n int) Builder { b.feedbackQueue = n; return b }

// WithCompression turns Z compression of depth lines on or off; accessBytes
// is the memory's access unit (compressed sizes are multiples of it, and
// lines of that size or smaller are never compressed).
func (b Builder) WithCompression(on bool, accessBytes int) Builder {
	b.compression, b.accessBytes = on, accessBytes
	return b
}

// WithEngine sets the simulation engine (required).
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the clock frequency.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag: the unit stops at its next tick once it
// is set, and reports protocol errors through it.
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter (one unit per message sent).
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithIndex sets the screen partition p the unit serves.
func (b Builder) WithIndex(p int) Builder { b.index = p; return b }

// WithNumRasterizers sets how many rasterizers send to the unit: a DrawEnd is
// forwarded once it came from all of them.
func (b Builder) WithNumRasterizers(n int) Builder { b.numRasterizers = n; return b }

// WithSamplesPerCycle sets the depth-test rate in samples per cycle (the tag
// lookups run at the same rate).
func (b Builder) WithSamplesPerCycle(n int) Builder { b.samplesPerCycle = n; return b }

// WithCache sets the depth cache: size in bytes, ways and line size in bytes.
func (b Builder) WithCache(size, ways, lineSize int) Builder {
	b.cacheSize, b.cacheWays, b.lineSize = size, ways, lineSize
	return b
}

// WithTestLatency sets the cycles from a quad's lines being present to its result.
func (b Builder) WithTestLatency(n int) Builder { b.testLatency = n; return b }

// WithMaxOutstandingMemory sets how many memory requests (line reads and writes)
// may be in flight.
func (b Builder) WithMaxOutstandingMemory(n int) Builder { b.maxOutstanding = n; return b }

// WithWriteQueue sets how many line write-backs may wait to be issued before new
// misses stall.
func (b Builder) WithWriteQueue(n int) Builder { b.writeQueue = n; return b }

// WithInputQueue sets the capacity, in messages, of the FromRasterizers port.
func (b Builder) WithInputQueue(n int) Builder { b.inputQueue = n; return b }

// WithTileWindow sets how many messages from the rasterizers (tiles of quads and
// DrawEnd markers) may be in flight inside the unit, from acceptance to output.
func (b Builder) WithTileWindow(n int) Builder { b.tileWindow = n; return b }

// WithLateQueue sets how many late-Z requests the unit holds (the ROP port's
// buffer and the requests in flight inside the unit, each).
func (b Builder) WithLateQueue(n int) Builder { b.lateQueue = n; return b }

// WithWaitQuads sets how many looked-up quads per stream (early and late) may
// wait for their lines: the window of misses the unit can overlap.
func (b Builder) WithWaitQuads(n int) Builder { b.waitQuads = n; return b }

func (b Builder) cacheConfig() rtcache.Config {
	return rtcache.Config{Size: b.cacheSize, Ways: b.cacheWays, LineSize: b.lineSize,
		MaxOutstanding: b.maxOutstanding, WriteQueue: b.writeQueue, Compression: b.compression, MinBlock: b.accessBytes}
}

// Validate checks the parameters and names the first bad one.
func (b Builder) Validate() error {
	atLeast := func(name string, v, min int) error {
		if v < min {
			return fmt.Errorf("depthunit: %s %d must be at least %d", name, v, min)
		}
		return nil
	}
	switch {
	case b.engine == nil:
		return fmt.Errorf("depthunit: Engine is not set")
	case !(b.freq > 0):
		return fmt.Errorf("depthunit: Freq %v must be positive", float64(b.freq))
	case b.index < 0:
		return fmt.Errorf("depthunit: Index %d must not be negative", b.index)
	}
	for _, c := range []struct {
		name   string
		v, min int
	}{
		{"NumRasterizers", b.numRasterizers, 1},
		{"SamplesPerCycle", b.samplesPerCycle, 1},
		{"TestLatency", b.testLatency, 1},
		{"MaxOutstandingMemory", b.maxOutstanding, 1},
		{"WriteQueue", b.writeQueue, 1},
		{"InputQueue", b.inputQueue, 1},
		{"TileWindow", b.tileWindow, 1},
		{"LateQueue", b.lateQueue, 1},
		{"WaitQuads", b.waitQuads, 1},
		{"FeedbackQueue", b.feedbackQueue, 1},
	} {
		if err := atLeast(c.name, c.v, c.min); err != nil {
			return err
		}
	}
	if b.waitQuads > 1<<20 {
		return fmt.Errorf("depthunit: WaitQuads %d must be at most %d", b.waitQuads, 1<<20)
	}
	if err := b.cacheConfig().Validate(); err != nil {
		return fmt.Errorf("depthunit: Cache.%w", err)
	}
	if b.hizCfg.Mode != fhiz.Off {
		if err := b.hizCfg.WithDefaults().Validate(); err != nil {
			return fmt.Errorf("depthunit: HiZ: %w", err)
		}
	}
	return nil
}

// Build creates the depth unit named name (for example "GPU.DepthUnit[1]"). It
// panics with the message of Validate when a parameter is invalid.
func (b Builder) Build(name string) *Comp {
	if err := b.Validate(); err != nil {
		panic(err)
	}
	sim.NameMustBeValid(name)
	c := &Comp{
		halt:           b.halt,
		progress:       b.progress,
		index:          b.index,
		numRasterizers: b.numRasterizers,
		tileWindow:     b.tileWindow,
		lateQueue:      b.lateQueue,
		activity:       timing.NewActivity(activityNames[:]...),
		fbQueue:        b.feedbackQueue,
		compression:    b.compression,
	}
	if b.hizCfg.Mode != fhiz.Off {
		c.hizCfg = b.hizCfg.WithDefaults()
	}
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.waker = timing.NewWaker(b.engine, b.freq, c)

	c.inBuf = sim.NewBuffer(name+".FromRasterizers.Buf", b.inputQueue)
	c.FromRasterizers = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.inBuf, name+".FromRasterizers")
	c.ToQuadPacker = sim.NewLimitNumMsgPort(c, 1, name+".ToQuadPacker")
	c.lateBuf = sim.NewBuffer(name+".ROP.Buf", b.lateQueue)
	c.ROP = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.lateBuf, name+".ROP")
	c.ToMemory = sim.NewLimitNumMsgPort(c, b.maxOutstanding, name+".ToMemory")
	c.Control = sim.NewLimitNumMsgPort(c, 2, name+".Control")
	c.ToHiZ = sim.NewLimitNumMsgPort(c, 1, name+".ToHiZ")
	c.AddPort("FromRasterizers", c.FromRasterizers)
	c.AddPort("ToQuadPacker", c.ToQuadPacker)
	c.AddPort("ROP", c.ROP)
	c.AddPort("ToMemory", c.ToMemory)
	c.AddPort("Control", c.Control)
	c.AddPort("ToHiZ", c.ToHiZ)

	cache, err := rtcache.New(c.ToMemory, finder{c}, b.freq, b.cacheConfig())
	if err != nil {
		panic(fmt.Errorf("depthunit: Cache.%w", err))
	}
	c.cache = cache
	cache.TraceAs(c)
	if c.hizCfg.Mode != fhiz.Off && c.hizCfg.Feedback == fhiz.EvictFeedback {
		cache.SetEvictHook(c.onEvict)
	}

	c.wakeFn = c.wake
	c.early = newStream(false, b.waitQuads, b.testLatency, b.samplesPerCycle)
	c.late = newStream(true, b.waitQuads, b.testLatency, b.samplesPerCycle)
	c.lookRate = timing.NewRate(b.samplesPerCycle)
	c.testRate = timing.NewRate(b.samplesPerCycle)
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
