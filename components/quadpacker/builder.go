package quadpacker

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/timing"
)

// Builder configures and builds a quad packer. The zero value is not usable;
// start from MakeBuilder.
type Builder struct {
	engine        sim.Engine
	freq          sim.Freq
	halt          *timing.Halt
	progress      *timing.Progress
	quadsPerWarp  int
	flushCycles   int
	quadsPerCycle int
	inputQueue    int
	// samplesPerCycle is the decoupling stage's rate (0: no decoupling stage).
	samplesPerCycle int
	warpIDBase      uint64
}

// MakeBuilder returns a builder with the defaults: 1 GHz, 8 quads per warp (32
// threads), a partial warp flushed after 64 cycles without new quads, 4 quads
// packed per cycle, and room for 16 messages from the depth units.
func MakeBuilder() Builder {
	return Builder{
		freq:          1 * sim.GHz,
		quadsPerWarp:  8,
		flushCycles:   64,
		quadsPerCycle: 4,
		inputQueue:    16,
	}
}

// WithEngine sets the simulation engine (required).
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the clock frequency.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag: the packer stops at its next tick once
// it is set, and reports protocol errors through it.
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter (one unit per message sent).
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithQuadsPerWarp sets how many quads make a full warp (4 threads each).
func (b Builder) WithQuadsPerWarp(n int) Builder { b.quadsPerWarp = n; return b }

// WithFlushCycles sets after how many cycles without a new quad a partial warp is
// sent.
func (b Builder) WithFlushCycles(n int) Builder { b.flushCycles = n; return b }

// WithQuadsPerCycle sets the packing rate: quads (or DrawEnd markers) taken from
// the input per cycle.
func (b Builder) WithQuadsPerCycle(n int) Builder { b.quadsPerCycle = n; return b }

// WithSamplesPerCycle gives the packer its decoupling stage, which maps n live
// samples of 5D primitives' visibility quads per cycle (decoupled sampling; the
// platform's default is 16). Without it (n = 0, the builder's default) the
// packer is exactly the 2D packer and the quads of a 5D primitive are a
// protocol error.
func (b Builder) WithSamplesPerCycle(n int) Builder { b.samplesPerCycle = n; return b }

// WithWarpIDBase sets the ID of the first warp (default 0): the tiled
// machine's tile unit k numbers its warps from protocol.TileUnitWarpBase(k),
// so that the warps of several packers sharing the shader cores have distinct
// IDs (their trace tasks). A warp's ID is only a name: the reorder buffer
// finds its entries by PixelWarp.Entry.
func (b Builder) WithWarpIDBase(id uint64) Builder { b.warpIDBase = id; return b }

// WithInputQueue sets the capacity, in messages, of the FromDepthUnits port.
func (b Builder) WithInputQueue(n int) Builder { b.inputQueue = n; return b }

// Validate checks the parameters and names the first bad one.
func (b Builder) Validate() error {
	switch {
	case b.engine == nil:
		return fmt.Errorf("quadpacker: Engine is not set")
	case b.freq <= 0:
		return fmt.Errorf("quadpacker: Freq %v must be positive", b.freq)
	case b.quadsPerWarp < 1 || b.quadsPerWarp > shader.MaxLanes/4:
		return fmt.Errorf("quadpacker: QuadsPerWarp %d must be in [1, %d]", b.quadsPerWarp, shader.MaxLanes/4)
	case b.flushCycles < 1:
		return fmt.Errorf("quadpacker: FlushCycles %d must be at least 1", b.flushCycles)
	case b.quadsPerCycle < 1:
		return fmt.Errorf("quadpacker: QuadsPerCycle %d must be at least 1", b.quadsPerCycle)
	case b.inputQueue < 1:
		return fmt.Errorf("quadpacker: InputQueue %d must be at least 1", b.inputQueue)
	case b.samplesPerCycle < 0:
		return fmt.Errorf("quadpacker: SamplesPerCycle %d must not be negative", b.samplesPerCycle)
	}
	return nil
}

// Build creates the packer named name (for example "GPU.QuadPacker"). It panics
// with the message of Validate when a parameter is invalid.
func (b Builder) Build(name string) *Comp {
	if err := b.Validate(); err != nil {
		panic(err)
	}
	sim.NameMustBeValid(name)
	c := &Comp{
		halt:          b.halt,
		progress:      b.progress,
		quadsPerWarp:  b.quadsPerWarp,
		flushCycles:   uint64(b.flushCycles),
		quadsPerCycle: b.quadsPerCycle,
		activity:      timing.NewActivity(activityNames[:]...),
		dec:           decoupler{samplesPerCycle: b.samplesPerCycle},
		nextWarpID:    b.warpIDBase,
	}
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.waker = timing.NewWaker(b.engine, b.freq, c)

	c.inBuf = sim.NewBuffer(name+".FromDepthUnits.Buf", b.inputQueue)
	c.FromDepthUnits = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.inBuf, name+".FromDepthUnits")
	c.ToReorderBuffer = sim.NewLimitNumMsgPort(c, 1, name+".ToReorderBuffer")
	c.AddPort("FromDepthUnits", c.FromDepthUnits)
	c.AddPort("ToReorderBuffer", c.ToReorderBuffer)

	c.open = make([]protocol.WarpQuad, 0, c.quadsPerWarp)
	c.outbox = make([]sim.Msg, 0, outboxCap)
	return c
}
