package tileunit

import (
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/timing"
)

func TestConfigValidate(t *testing.T) {
	set := testpeer.Reject[Config]
	testpeer.CheckValidate(t, DefaultConfig(),
		set(func(c *Config) { c.LineBytes = 2 }, "tile unit: LineBytes 2 must be a power of two of at least 4"),
		set(func(c *Config) { c.PrimitivesPerCycle = 0 }, "tile unit: PrimitivesPerCycle 0 must be at least 1"),
		set(func(c *Config) { c.MaxOutstandingMemory = 0 }, "tile unit: MaxOutstandingMemory 0 must be at least 1"),
		set(func(c *Config) { c.MemoryLatency = 0 }, "tile unit: MemoryLatency 0 must be at least 1"),
		set(func(c *Config) { c.MemoryBytesPerCycle = 0 }, "tile unit: MemoryBytesPerCycle 0 must be at least 1"),
		set(func(c *Config) { c.MemoryBytes = 0 }, "tile unit: MemoryBytes 0 must be at least 1"),
		set(func(c *Config) { c.InputQueue = 0 }, "tile unit: InputQueue 0 must be at least 1"),
	)
	testpeer.CheckEnv(t, true, func(e timing.Env) { MakeBuilder().WithEnv(e).Build("TileUnit") })
}
