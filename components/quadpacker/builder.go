package quadpacker

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// Config is the quad packer's configuration.
type Config struct {
	// QuadsPerWarp is how many quads make a full warp (4 threads each).
	QuadsPerWarp int
	// FlushCycles is after how many cycles without a new quad a partial warp
	// is sent.
	FlushCycles int
	// QuadsPerCycle is the packing rate: quads (or DrawEnd markers) taken from
	// the input per cycle.
	QuadsPerCycle int
	// InputQueue is the capacity, in messages, of the FromDepthUnits port.
	InputQueue int
	// SamplesPerCycle gives the packer its decoupling stage, which maps that
	// many live samples of 5D primitives' visibility quads per cycle
	// (decoupled sampling; the platform's default is 16). Without it (0, the
	// default) the packer is exactly the 2D packer and the quads of a 5D
	// primitive are a protocol error.
	SamplesPerCycle int
	// WarpIDBase is the ID of the first warp (default 0): the tiled machine's
	// tile unit k numbers its warps from protocol.TileUnitWarpBase(k), so
	// that the warps of several packers sharing the shader cores have
	// distinct IDs (their trace tasks). A warp's ID is only a name: the
	// reorder buffer finds its entries by PixelWarp.Entry.
	WarpIDBase uint64
}

// DefaultConfig returns the defaults: 8 quads per warp (32 threads), a
// partial warp flushed after 64 cycles without new quads, 4 quads packed per
// cycle, room for 16 messages from the depth units, no decoupling stage.
func DefaultConfig() Config {
	return Config{QuadsPerWarp: 8, FlushCycles: 64, QuadsPerCycle: 4, InputQueue: 16}
}

// Validate checks the parameters and names the first bad one.
func (c Config) Validate() error {
	return check.For("quadpacker").
		InRange("QuadsPerWarp", c.QuadsPerWarp, 1, shader.MaxLanes/4).
		FieldsAtLeast(1, c, "FlushCycles", "QuadsPerCycle", "InputQueue").
		NotNegative("SamplesPerCycle", c.SamplesPerCycle).
		Err()
}

// Builder builds a quad packer: MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name)
// (timing.Builder; it panics, naming the unit and the first bad parameter, on
// a bad environment or configuration: configs validates first).
type Builder = timing.Builder[Config, *Comp]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("quadpacker", DefaultConfig(), build) }

// build creates the quad packer named name (for example "GPU.QuadPacker") from a checked
// environment and a valid configuration.
func build(name string, env timing.Env, cfg Config) *Comp {
	c := &Comp{
		flushCycles: uint64(cfg.FlushCycles),
		dec:         decoupler{samplesPerCycle: cfg.SamplesPerCycle},
		nextWarpID:  cfg.WarpIDBase,
	}
	c.Unit = timing.NewUnit(name, env, cfg, c, activityNames[:]...)

	c.FromDepthUnits, c.inBuf = timing.AddBufferedPort(c, "FromDepthUnits", cfg.InputQueue)
	c.ToReorderBuffer = timing.AddPort(c, "ToReorderBuffer", 1)

	c.open = make([]protocol.WarpQuad, 0, c.Cfg.QuadsPerWarp)
	c.outbox = make([]sim.Msg, 0, outboxCap)
	return c
}
