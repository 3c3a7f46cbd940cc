package shadercore

import (
	"fmt"
	"math"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/timing"
)

// Latencies are the cycles from the issue of a warp instruction until the warp
// may issue its next instruction, per functional-unit class (shader.OpClass).
// Texture is the delay from the issue of a texture instruction until its request
// leaves for the sampler (the warp then waits for the response).
type Latencies struct {
	ALU, SFU, Derivative, Texture, Kill int
}

// DefaultLatencies returns ALU 4, SFU 16, derivative 4, texture issue 1, kill 1.
func DefaultLatencies() Latencies {
	return Latencies{ALU: 4, SFU: 16, Derivative: 4, Texture: 1, Kill: 1}
}

// Of returns the latency of class c (the ALU latency for an unknown class).
func (l Latencies) Of(c shader.OpClass) int {
	switch c {
	case shader.ClassSFU:
		return l.SFU
	case shader.ClassDerivative:
		return l.Derivative
	case shader.ClassTexture:
		return l.Texture
	case shader.ClassKill:
		return l.Kill
	}
	return l.ALU
}

// Builder builds shader cores. The zero value is not useful: start from
// MakeBuilder.
type Builder struct {
	engine   sim.Engine
	freq     sim.Freq
	halt     *timing.Halt
	progress *timing.Progress

	warpSize            int
	simdWidth           int
	sfuRate             int
	warpSlots           int
	registers           int
	latencies           Latencies
	interpolationCycles float64
	inputQueue          int
	gsOutputBuffer      int
	maxGSWarps          int
}

// MakeBuilder returns a builder with the defaults: 1 GHz, warps of 32 lanes on a
// 16-lane SIMD (an instruction occupies 2 issue cycles) whose special-function
// instructions run at the same rate (SFURate 0), 16 warp slots, 16384
// vec4 registers, DefaultLatencies, 1/4 cycle per quad per interpolant to load
// pixel inputs, and an input queue of 16 messages.
func MakeBuilder() Builder {
	return Builder{
		freq:                1 * sim.GHz,
		warpSize:            32,
		simdWidth:           16,
		warpSlots:           16,
		registers:           16384,
		latencies:           DefaultLatencies(),
		interpolationCycles: 0.25,
		inputQueue:          16,
		gsOutputBuffer:      DefaultGSOutputBufferBytes,
		maxGSWarps:          DefaultMaxGSWarps,
	}
}

// DefaultGSOutputBufferBytes is the default GS output buffer of a core: 64
// KiB, a choice (the sources give no size). A 64-lane warp of the largest
// output a geometry shader may declare (shader.MaxGSOutputScalars) needs 256
// KiB; one that needs more than the whole buffer stops the run with an error.
const DefaultGSOutputBufferBytes = 64 << 10

// DefaultMaxGSWarps is the default limit of resident GS warps per core: 0,
// as many as the warp slots.
const DefaultMaxGSWarps = 0

// WithGSOutputBuffer sets the bytes of the core's geometry shader output
// buffer: a GS warp of n lanes holds n x Program.OutputScalars() x 4 bytes of
// it from admission until its output is sent.
func (b Builder) WithGSOutputBuffer(bytes int) Builder { b.gsOutputBuffer = bytes; return b }

// WithMaxGSWarps sets the most GS warps resident at once (1..WarpSlots; 0:
// WarpSlots).
func (b Builder) WithMaxGSWarps(n int) Builder { b.maxGSWarps = n; return b }

// WithEngine sets the simulation engine.
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the core clock.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag (checked at every tick; errors stop it).
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter.
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithWarpSize sets the lanes of a warp (1..64).
func (b Builder) WithWarpSize(n int) Builder { b.warpSize = n; return b }

// WithSIMDWidth sets the lanes the SIMD unit executes per cycle (1..WarpSize); a
// warp instruction occupies ceil(WarpSize/SIMDWidth) issue cycles.
func (b Builder) WithSIMDWidth(n int) Builder { b.simdWidth = n; return b }

// WithSFURate sets the lanes per cycle of the special-function unit (1..WarpSize;
// 0, the default, is the SIMD width): a special-function instruction (class
// shader.ClassSFU: rcp, rsq, ex2, lg2, pow, sin, cos) occupies
// ceil(WarpSize/SFURate) issue cycles instead of ceil(WarpSize/SIMDWidth).
func (b Builder) WithSFURate(n int) Builder { b.sfuRate = n; return b }

// WithWarpSlots sets the number of warps that can be resident at once.
func (b Builder) WithWarpSlots(n int) Builder { b.warpSlots = n; return b }

// WithRegisters sets the vec4 registers of the core's register file; a warp
// holds Temps*WarpSize of them while resident.
func (b Builder) WithRegisters(n int) Builder { b.registers = n; return b }

// WithLatencies sets the per-class instruction latencies.
func (b Builder) WithLatencies(l Latencies) Builder { b.latencies = l; return b }

// WithInterpolationCycles sets the cycles per quad per interpolant (a
// throughput, may be fractional) of the unit that loads warp inputs.
func (b Builder) WithInterpolationCycles(c float64) Builder { b.interpolationCycles = c; return b }

// WithInputQueue sets the capacity, in messages, of the queue in front of
// admission (the FromDispatch port's buffer).
func (b Builder) WithInputQueue(n int) Builder { b.inputQueue = n; return b }

// Validate checks the parameters; the error names the first bad one.
func (b Builder) Validate() error {
	switch {
	case b.engine == nil:
		return fmt.Errorf("shadercore: Engine: not set")
	case !(b.freq > 0) || math.IsInf(float64(b.freq), 0):
		return fmt.Errorf("shadercore: Freq: %v Hz is not a positive frequency", float64(b.freq))
	case b.warpSize < 1 || b.warpSize > shader.MaxLanes:
		return fmt.Errorf("shadercore: WarpSize: %d is outside [1, %d]", b.warpSize, shader.MaxLanes)
	case b.simdWidth < 1 || b.simdWidth > b.warpSize:
		return fmt.Errorf("shadercore: SIMDWidth: %d is outside [1, WarpSize=%d]", b.simdWidth, b.warpSize)
	case b.sfuRate < 0 || b.sfuRate > b.warpSize:
		return fmt.Errorf("shadercore: SFURate: %d is outside [0, WarpSize=%d]", b.sfuRate, b.warpSize)
	case b.warpSlots < 1 || b.warpSlots > 1024:
		return fmt.Errorf("shadercore: WarpSlots: %d is outside [1, 1024]", b.warpSlots)
	case b.registers < b.warpSize:
		return fmt.Errorf("shadercore: Registers: %d cannot hold one warp with one temporary (%d)", b.registers, b.warpSize)
	case b.gsOutputBuffer < 16:
		return fmt.Errorf("shadercore: GSOutputBuffer: %d bytes cannot hold one vertex output register (16)", b.gsOutputBuffer)
	case b.maxGSWarps < 0 || b.maxGSWarps > b.warpSlots:
		return fmt.Errorf("shadercore: MaxGSWarps: %d is outside [0, WarpSlots=%d]", b.maxGSWarps, b.warpSlots)
	case b.inputQueue < 1:
		return fmt.Errorf("shadercore: InputQueue: %d is not positive", b.inputQueue)
	case !(b.interpolationCycles >= 0) || b.interpolationCycles > 1e6:
		return fmt.Errorf("shadercore: InterpolationCycles: %v is outside [0, 1e6]", b.interpolationCycles)
	}
	for _, l := range []struct {
		name string
		v    int
	}{{"ALU", b.latencies.ALU}, {"SFU", b.latencies.SFU}, {"Derivative", b.latencies.Derivative},
		{"Texture", b.latencies.Texture}, {"Kill", b.latencies.Kill}} {
		if l.v < 1 || l.v > 1<<20 {
			return fmt.Errorf("shadercore: Latencies.%s: %d is outside [1, %d]", l.name, l.v, 1<<20)
		}
	}
	return nil
}

// Build creates the core. It panics with the Validate error when a parameter is
// invalid, and when name is not a valid Akita name.
func (b Builder) Build(name string) *Comp {
	if err := b.Validate(); err != nil {
		panic(fmt.Sprintf("%s: %v", name, err))
	}
	sim.NameMustBeValid(name)
	c := &Comp{
		halt:        b.halt,
		progress:    b.progress,
		warpSize:    b.warpSize,
		issueCycles: (b.warpSize + b.simdWidth - 1) / b.simdWidth,
		sfuCycles:   (b.warpSize + b.sfuWidth() - 1) / b.sfuWidth(),
		registers:   b.registers,
		latencies:   b.latencies,
		interpCost:  b.interpolationCycles,
		gsBufBytes:  b.gsOutputBuffer,
		maxGSWarps:  b.maxGSWarps,
		temps:       map[*shader.Program]int{},
		activity:    timing.NewActivity(activityNames[:]...),
	}
	if c.maxGSWarps == 0 {
		c.maxGSWarps = b.warpSlots
	}
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.waker = timing.NewWaker(b.engine, b.freq, c)
	c.buildPorts(name, b)
	c.buildSlots(b)
	return c
}

// sfuWidth is the special-function unit's lanes per cycle.
func (b Builder) sfuWidth() int {
	if b.sfuRate == 0 {
		return b.simdWidth
	}
	return b.sfuRate
}

func (c *Comp) buildPorts(name string, b Builder) {
	c.inputBuf = sim.NewBuffer(name+".InputQueue", b.inputQueue)
	c.FromDispatch = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.inputBuf, name+".FromDispatch")
	// ToPrimitiveAssembly also receives GS warps from primitive assembly:
	// its buffer is the GS input queue.
	c.gsInputBuf = sim.NewBuffer(name+".GSInputQueue", b.inputQueue)
	c.ToPrimitiveAssembly = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.gsInputBuf, name+".ToPrimitiveAssembly")
	c.ToReorderBuffer = sim.NewLimitNumMsgPort(c, 1, name+".ToReorderBuffer")
	// Every resident warp has at most one texture request outstanding, so a
	// buffer of WarpSlots responses never refuses one.
	c.responseBuf = sim.NewBuffer(name+".TexResponses", b.warpSlots)
	c.Sampler = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.responseBuf, name+".Sampler")
	c.AddPort("FromDispatch", c.FromDispatch)
	c.AddPort("ToPrimitiveAssembly", c.ToPrimitiveAssembly)
	c.AddPort("ToReorderBuffer", c.ToReorderBuffer)
	c.AddPort("Sampler", c.Sampler)
}

func (c *Comp) buildSlots(b Builder) {
	c.slots = make([]warpSlot, b.warpSlots)
	for i := range c.slots {
		c.slots[i].warp = shader.NewWarp(b.warpSize)
		c.slots[i].texLanes = make([]shader.TexRequest, 0, b.warpSize)
	}
	c.order = make([]int, 0, b.warpSlots)
	c.texQueue = make([]texSend, 0, b.warpSlots)
}
