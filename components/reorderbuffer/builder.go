package reorderbuffer

import (
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// controlQueue is the capacity, in messages, of the Control port (as the
// ROP's and the depth unit's).
const controlQueue = 2

// Config is the reorder buffer's configuration.
type Config struct {
	// Entries is the number of quad entries (a DrawEnd marker takes one too).
	Entries int
	// DispatchPerCycle is how many messages from the packer (warps or DrawEnd
	// markers) are allocated, and warps dispatched, per cycle.
	DispatchPerCycle int
	// FillPerCycle is how many shaded warps are written into their entries
	// per cycle.
	FillPerCycle int
	// RetirePerCycle is how many entries (quads or markers) retire per cycle.
	RetirePerCycle int
	// NumPartitions is the number of ROP partitions (the length of ROPs).
	NumPartitions int
	// InputQueue is the capacity, in messages, of the FromQuadPacker port.
	InputQueue int
	// ShadedQueue is the capacity, in messages, of the FromShaderCores port.
	ShadedQueue int

	// ShadingCacheEntries turns on the shading-cache mode of decoupled
	// sampling with that many shading-quad entries (the platform's default
	// is 1024, 4096 samples). Without it (0, the default) the buffer is
	// exactly the 2D reorder buffer and a VisibilityQuads message is a
	// protocol error.
	ShadingCacheEntries int
	// RefBits is the width of the shading cache's reference counts (8).
	RefBits int
	// QuadsPerWarp is the shading quads of a full miss warp (8).
	QuadsPerWarp int
	// LookupsPerCycle is the shading-cache tag look-ups per cycle (4).
	LookupsPerCycle int
	// WarpIDBase is the ID of the first shading warp (default 0): the tiled
	// machine's tile unit k numbers them from protocol.TileUnitWarpBase(k),
	// so that the shading warps of several reorder buffers sharing the
	// shader cores have distinct IDs (their trace tasks). A shading warp's ID
	// is only a name: its lanes find their cache entries by
	// ShadingQuad.Entry.
	WarpIDBase uint64
}

// DefaultConfig returns the defaults: 1024 quad entries, one warp (or marker)
// allocated and dispatched per cycle, one shaded warp written per cycle, 8
// entries retired per cycle, one ROP partition, room for 4 messages in each
// input port; no shading cache (8-bit reference counts, 8-quad warps and 4
// look-ups per cycle when it is turned on).
func DefaultConfig() Config {
	return Config{Entries: 1024, DispatchPerCycle: 1, FillPerCycle: 1, RetirePerCycle: 8, NumPartitions: 1,
		InputQueue: 4, ShadedQueue: 4, RefBits: 8, QuadsPerWarp: 8, LookupsPerCycle: 4}
}

// Validate checks the parameters and names the first bad one.
func (c Config) Validate() error {
	r := check.For("reorderbuffer").
		FieldsAtLeast(1, c, "Entries", "DispatchPerCycle", "FillPerCycle", "RetirePerCycle",
			"NumPartitions", "InputQueue", "ShadedQueue").
		NotNegative("ShadingCacheEntries", c.ShadingCacheEntries)
	if c.ShadingCacheEntries > 0 {
		r.InRange("RefBits", c.RefBits, 1, 32).
			InRange("QuadsPerWarp", c.QuadsPerWarp, 1, shader.MaxLanes/4).
			AtLeast("LookupsPerCycle", c.LookupsPerCycle, 1)
	}
	return r.Err()
}

// Builder builds a reorder buffer: MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name)
// (timing.Builder; it panics, naming the unit and the first bad parameter, on
// a bad environment or configuration: configs validates first).
type Builder = timing.Builder[Config, *Comp]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("reorderbuffer", DefaultConfig(), build) }

// build creates the reorder buffer named name (for example "GPU.ReorderBuffer") from a checked
// environment and a valid configuration.
func build(name string, env timing.Env, cfg Config) *Comp {
	c := &Comp{
		entries: newRing(cfg.Entries),
	}
	if cfg.ShadingCacheEntries > 0 {
		c.cache, _ = newShadingCacheMode(cfg.ShadingCacheEntries, cfg.RefBits, cfg.Entries, cfg.QuadsPerWarp, cfg.LookupsPerCycle)
		c.cache.nextWarpID = cfg.WarpIDBase
	}
	c.Unit = timing.NewUnit(name, env, cfg, c, activityNames[:]...)

	c.FromQuadPacker, c.inBuf = timing.AddBufferedPort(c, "FromQuadPacker", cfg.InputQueue)
	c.ToShaderCores = timing.AddPort(c, "ToShaderCores", 1)
	c.FromShaderCores, c.shadedBuf = timing.AddBufferedPort(c, "FromShaderCores", cfg.ShadedQueue)
	c.ToROPs = timing.AddPort(c, "ToROPs", 1)
	c.Control, c.ctlBuf = timing.AddBufferedPort(c, "Control", controlQueue)
	return c
}
