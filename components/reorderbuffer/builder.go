package reorderbuffer

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/timing"
)

// controlQueue is the capacity, in messages, of the Control port (as the
// ROP's and the depth unit's).
const controlQueue = 2

// Builder configures and builds a reorder buffer. The zero value is not usable;
// start from MakeBuilder.
type Builder struct {
	engine           sim.Engine
	freq             sim.Freq
	halt             *timing.Halt
	progress         *timing.Progress
	entries          int
	dispatchPerCycle int
	fillPerCycle     int
	retirePerCycle   int
	numPartitions    int
	inputQueue       int
	shadedQueue      int

	// Shading-cache mode (decoupled sampling); cacheEntries 0: off.
	cacheEntries    int
	refBits         int
	quadsPerWarp    int
	lookupsPerCycle int
	warpIDBase      uint64
}

// MakeBuilder returns a builder with the defaults: 1 GHz, 1024 quad entries, one
// warp (or marker) allocated and dispatched per cycle, one shaded warp written per
// cycle, 8 entries retired per cycle, one ROP partition, and room for 4 messages
// in each input port.
func MakeBuilder() Builder {
	return Builder{
		freq:             1 * sim.GHz,
		entries:          1024,
		dispatchPerCycle: 1,
		fillPerCycle:     1,
		retirePerCycle:   8,
		numPartitions:    1,
		inputQueue:       4,
		shadedQueue:      4,
		refBits:          8,
		quadsPerWarp:     8,
		lookupsPerCycle:  4,
	}
}

// WithEngine sets the simulation engine (required).
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the clock frequency.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag: the buffer stops at its next tick once
// it is set, and reports protocol errors through it.
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter (one unit per message sent).
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithEntries sets the number of quad entries (a DrawEnd marker takes one too).
func (b Builder) WithEntries(n int) Builder { b.entries = n; return b }

// WithDispatchPerCycle sets how many messages from the packer (warps or DrawEnd
// markers) are allocated, and warps dispatched, per cycle.
func (b Builder) WithDispatchPerCycle(n int) Builder { b.dispatchPerCycle = n; return b }

// WithFillPerCycle sets how many shaded warps are written into their entries per
// cycle.
func (b Builder) WithFillPerCycle(n int) Builder { b.fillPerCycle = n; return b }

// WithRetirePerCycle sets how many entries (quads or markers) retire per cycle.
func (b Builder) WithRetirePerCycle(n int) Builder { b.retirePerCycle = n; return b }

// WithNumPartitions sets the number of ROP partitions (the length of ROPs).
func (b Builder) WithNumPartitions(n int) Builder { b.numPartitions = n; return b }

// WithInputQueue sets the capacity, in messages, of the FromQuadPacker port.
func (b Builder) WithInputQueue(n int) Builder { b.inputQueue = n; return b }

// WithShadedQueue sets the capacity, in messages, of the FromShaderCores port.
func (b Builder) WithShadedQueue(n int) Builder { b.shadedQueue = n; return b }

// WithShadingCache turns on the shading-cache mode of decoupled sampling with
// entries shading-quad entries (the platform's default is 1024, 4096 samples)
// and refBits-bit reference counts (default 8). Without it (entries 0, the
// builder's default) the buffer is exactly the 2D reorder buffer and a
// VisibilityQuads message is a protocol error.
func (b Builder) WithShadingCache(entries, refBits int) Builder {
	b.cacheEntries, b.refBits = entries, refBits
	return b
}

// WithQuadsPerWarp sets the shading quads of a full miss warp (default 8).
func (b Builder) WithQuadsPerWarp(n int) Builder { b.quadsPerWarp = n; return b }

// WithLookupsPerCycle sets the shading-cache tag look-ups per cycle (default 4).
func (b Builder) WithLookupsPerCycle(n int) Builder { b.lookupsPerCycle = n; return b }

// WithWarpIDBase sets the ID of the first shading warp (default 0): the
// tiled machine's tile unit k numbers them from protocol.TileUnitWarpBase(k),
// so that the shading warps of several reorder buffers sharing the shader
// cores have distinct IDs (their trace tasks). A shading warp's ID is only a
// name: its lanes find their cache entries by ShadingQuad.Entry.
func (b Builder) WithWarpIDBase(id uint64) Builder { b.warpIDBase = id; return b }

// Validate checks the parameters and names the first bad one.
func (b Builder) Validate() error {
	switch {
	case b.engine == nil:
		return fmt.Errorf("reorderbuffer: Engine is not set")
	case b.freq <= 0:
		return fmt.Errorf("reorderbuffer: Freq %v must be positive", b.freq)
	case b.entries < 1:
		return fmt.Errorf("reorderbuffer: Entries %d must be at least 1", b.entries)
	case b.dispatchPerCycle < 1:
		return fmt.Errorf("reorderbuffer: DispatchPerCycle %d must be at least 1", b.dispatchPerCycle)
	case b.fillPerCycle < 1:
		return fmt.Errorf("reorderbuffer: FillPerCycle %d must be at least 1", b.fillPerCycle)
	case b.retirePerCycle < 1:
		return fmt.Errorf("reorderbuffer: RetirePerCycle %d must be at least 1", b.retirePerCycle)
	case b.numPartitions < 1:
		return fmt.Errorf("reorderbuffer: NumPartitions %d must be at least 1", b.numPartitions)
	case b.inputQueue < 1:
		return fmt.Errorf("reorderbuffer: InputQueue %d must be at least 1", b.inputQueue)
	case b.shadedQueue < 1:
		return fmt.Errorf("reorderbuffer: ShadedQueue %d must be at least 1", b.shadedQueue)
	case b.cacheEntries < 0:
		return fmt.Errorf("reorderbuffer: ShadingCacheEntries %d must not be negative", b.cacheEntries)
	case b.cacheEntries > 0 && (b.refBits < 1 || b.refBits > 32):
		return fmt.Errorf("reorderbuffer: RefBits %d must be in [1, 32]", b.refBits)
	case b.cacheEntries > 0 && (b.quadsPerWarp < 1 || b.quadsPerWarp > shader.MaxLanes/4):
		return fmt.Errorf("reorderbuffer: QuadsPerWarp %d must be in [1, %d]", b.quadsPerWarp, shader.MaxLanes/4)
	case b.cacheEntries > 0 && b.lookupsPerCycle < 1:
		return fmt.Errorf("reorderbuffer: LookupsPerCycle %d must be at least 1", b.lookupsPerCycle)
	}
	return nil
}

// Build creates the reorder buffer named name (for example "GPU.ReorderBuffer").
// It panics with the message of Validate when a parameter is invalid.
func (b Builder) Build(name string) *Comp {
	if err := b.Validate(); err != nil {
		panic(err)
	}
	sim.NameMustBeValid(name)
	c := &Comp{
		halt:             b.halt,
		progress:         b.progress,
		dispatchPerCycle: b.dispatchPerCycle,
		fillPerCycle:     b.fillPerCycle,
		retirePerCycle:   b.retirePerCycle,
		numPartitions:    b.numPartitions,
		entries:          newRing(b.entries),
		activity:         timing.NewActivity(activityNames[:]...),
	}
	if b.cacheEntries > 0 {
		c.cache, _ = newShadingCacheMode(b.cacheEntries, b.refBits, b.entries, b.quadsPerWarp, b.lookupsPerCycle)
		c.cache.nextWarpID = b.warpIDBase
	}
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)

	c.inBuf = sim.NewBuffer(name+".FromQuadPacker.Buf", b.inputQueue)
	c.shadedBuf = sim.NewBuffer(name+".FromShaderCores.Buf", b.shadedQueue)
	c.FromQuadPacker = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.inBuf, name+".FromQuadPacker")
	c.ToShaderCores = sim.NewLimitNumMsgPort(c, 1, name+".ToShaderCores")
	c.FromShaderCores = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.shadedBuf, name+".FromShaderCores")
	c.ToROPs = sim.NewLimitNumMsgPort(c, 1, name+".ToROPs")
	c.ctlBuf = sim.NewBuffer(name+".Control.Buf", controlQueue)
	c.Control = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.ctlBuf, name+".Control")
	c.AddPort("FromQuadPacker", c.FromQuadPacker)
	c.AddPort("ToShaderCores", c.ToShaderCores)
	c.AddPort("FromShaderCores", c.FromShaderCores)
	c.AddPort("ToROPs", c.ToROPs)
	c.AddPort("Control", c.Control)
	return c
}
