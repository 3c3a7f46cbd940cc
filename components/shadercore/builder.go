package shadercore

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/internal/check"
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

// Config is a shader core's parameters (configs fills it from the
// shader_core section).
type Config struct {
	WarpSize int // lanes of a warp (1..shader.MaxLanes)
	// SIMDWidth is the lanes the SIMD unit executes per cycle (1..WarpSize); a
	// warp instruction occupies ceil(WarpSize/SIMDWidth) issue cycles.
	SIMDWidth int
	// SFURate is the lanes per cycle of the special-function unit
	// (0..WarpSize; 0 is the SIMD width): a special-function instruction
	// (class shader.ClassSFU: rcp, rsq, ex2, lg2, pow, sin, cos) occupies
	// ceil(WarpSize/SFURate) issue cycles instead of ceil(WarpSize/SIMDWidth).
	SFURate   int
	WarpSlots int // warps that can be resident at once
	// Registers is the vec4 registers of the core's register file; a warp
	// holds Temps*WarpSize of them while resident.
	Registers int
	Latencies Latencies // per-class instruction latencies
	// InterpolationCycles is the cycles per quad per interpolant (a
	// throughput, may be fractional) of the unit that loads warp inputs.
	InterpolationCycles float64
	// InputQueue is the capacity, in messages, of the queue in front of
	// admission (the FromDispatch port's buffer) and of the GS input queue.
	InputQueue int
	// GSOutputBuffer is the bytes of the core's geometry shader output
	// buffer: a GS warp of n lanes holds n x Program.OutputScalars() x 4
	// bytes of it from admission until its output is sent.
	GSOutputBuffer int
	MaxGSWarps     int // most GS warps resident at once (1..WarpSlots; 0: WarpSlots)
}

// DefaultConfig returns warps of 32 lanes on a 16-lane SIMD (an instruction
// occupies 2 issue cycles) whose special-function instructions run at the
// same rate (SFURate 0), 16 warp slots, 16384 vec4 registers,
// DefaultLatencies, 1/4 cycle per quad per interpolant to load pixel inputs,
// an input queue of 16 messages, DefaultGSOutputBufferBytes and
// DefaultMaxGSWarps.
func DefaultConfig() Config {
	return Config{WarpSize: 32, SIMDWidth: 16, WarpSlots: 16, Registers: 16384, Latencies: DefaultLatencies(),
		InterpolationCycles: 0.25, InputQueue: 16, GSOutputBuffer: DefaultGSOutputBufferBytes,
		MaxGSWarps: DefaultMaxGSWarps}
}

// DefaultGSOutputBufferBytes is the default GS output buffer of a core: 64
// KiB, a choice (the sources give no size). A 64-lane warp of the largest
// output a geometry shader may declare (shader.MaxGSOutputScalars) needs 256
// KiB; one that needs more than the whole buffer stops the run with an error.
const DefaultGSOutputBufferBytes = 64 << 10

// DefaultMaxGSWarps is the default limit of resident GS warps per core: 0,
// as many as the warp slots.
const DefaultMaxGSWarps = 0

// Validate checks the parameters; the error names the first bad one.
func (c Config) Validate() error {
	r := check.For("shadercore").
		That(c.WarpSize >= 1 && c.WarpSize <= shader.MaxLanes, "WarpSize: %d is outside [1, %d]", c.WarpSize, shader.MaxLanes).
		That(c.SIMDWidth >= 1 && c.SIMDWidth <= c.WarpSize, "SIMDWidth: %d is outside [1, WarpSize=%d]", c.SIMDWidth, c.WarpSize).
		That(c.SFURate >= 0 && c.SFURate <= c.WarpSize, "SFURate: %d is outside [0, WarpSize=%d]", c.SFURate, c.WarpSize).
		That(c.WarpSlots >= 1 && c.WarpSlots <= 1024, "WarpSlots: %d is outside [1, 1024]", c.WarpSlots).
		That(c.Registers >= c.WarpSize, "Registers: %d cannot hold one warp with one temporary (%d)", c.Registers, c.WarpSize).
		That(c.GSOutputBuffer >= 16, "GSOutputBuffer: %d bytes cannot hold one vertex output register (16)", c.GSOutputBuffer).
		That(c.MaxGSWarps >= 0 && c.MaxGSWarps <= c.WarpSlots, "MaxGSWarps: %d is outside [0, WarpSlots=%d]", c.MaxGSWarps, c.WarpSlots).
		That(c.InputQueue >= 1, "InputQueue: %d is not positive", c.InputQueue).
		That(c.InterpolationCycles >= 0 && c.InterpolationCycles <= 1e6, "InterpolationCycles: %v is outside [0, 1e6]", c.InterpolationCycles)
	l := c.Latencies
	for _, f := range []check.Field{{Name: "ALU", Value: l.ALU}, {Name: "SFU", Value: l.SFU},
		{Name: "Derivative", Value: l.Derivative}, {Name: "Texture", Value: l.Texture}, {Name: "Kill", Value: l.Kill}} {
		r.That(f.Value >= 1 && f.Value <= 1<<20, "Latencies.%s: %d is outside [1, %d]", f.Name, f.Value, 1<<20)
	}
	return r.Err()
}

// Builder builds shader cores: MakeBuilder().WithEnv(env).WithConfig(cfg).
// Build(name); env's halt is checked at every tick (errors stop it). Build
// also panics when name is not a valid Akita name.
type Builder = timing.Builder[Config, *Comp]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("shadercore", DefaultConfig(), build) }

func build(name string, env timing.Env, cfg Config) *Comp {
	c := &Comp{
		issueCycles: (cfg.WarpSize + cfg.SIMDWidth - 1) / cfg.SIMDWidth,
		sfuCycles:   (cfg.WarpSize + cfg.sfuWidth() - 1) / cfg.sfuWidth(),
		maxGSWarps:  cfg.MaxGSWarps,
		temps:       map[*shader.Program]int{},
	}
	if c.maxGSWarps == 0 {
		c.maxGSWarps = cfg.WarpSlots
	}
	c.Unit = timing.NewUnit(name, env, cfg, c, activityNames[:]...)
	c.buildPorts(name, cfg)
	c.buildSlots(cfg)
	return c
}

// sfuWidth is the special-function unit's lanes per cycle.
func (c Config) sfuWidth() int {
	if c.SFURate == 0 {
		return c.SIMDWidth
	}
	return c.SFURate
}

func (c *Comp) buildPorts(name string, cfg Config) {
	c.inputBuf = timing.NewBuffer(name+".InputQueue", cfg.InputQueue)
	c.FromDispatch = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.inputBuf, name+".FromDispatch")
	// ToPrimitiveAssembly also receives GS warps from primitive assembly:
	// its buffer is the GS input queue.
	c.gsInputBuf = timing.NewBuffer(name+".GSInputQueue", cfg.InputQueue)
	c.ToPrimitiveAssembly = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.gsInputBuf, name+".ToPrimitiveAssembly")
	c.ToReorderBuffer = timing.AddPort(c, "ToReorderBuffer", 1)
	// Every resident warp has at most one texture request outstanding, so a
	// buffer of WarpSlots responses never refuses one.
	c.responseBuf = timing.NewBuffer(name+".TexResponses", cfg.WarpSlots)
	c.Sampler = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.responseBuf, name+".Sampler")
	c.AddPort("FromDispatch", c.FromDispatch)
	c.AddPort("ToPrimitiveAssembly", c.ToPrimitiveAssembly)
	c.AddPort("Sampler", c.Sampler)
}

func (c *Comp) buildSlots(cfg Config) {
	c.slots = make([]warpSlot, cfg.WarpSlots)
	for i := range c.slots {
		c.slots[i].warp = shader.NewWarp(cfg.WarpSize)
		c.slots[i].texLanes = make([]shader.TexRequest, 0, cfg.WarpSize)
	}
	c.order = make([]int, 0, cfg.WarpSlots)
	c.texQueue = make([]texSend, 0, cfg.WarpSlots)
}
