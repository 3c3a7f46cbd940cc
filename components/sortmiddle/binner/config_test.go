package binner

import (
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/timing"
)

func TestConfigValidate(t *testing.T) {
	set := testpeer.Reject[Config]
	testpeer.CheckValidate(t, DefaultConfig(),
		set(func(c *Config) { c.EntriesPerCycle = 0 }, "binner: EntriesPerCycle 0 must be at least 1"),
		set(func(c *Config) { c.LineBytes = 48 }, "binner: LineBytes 48 must be a power of two of at least 8"),
		set(func(c *Config) { c.ChunkBytes = 96 }, "binner: ChunkBytes 96 must hold an entry and a link and align with LineBytes (64)"),
		set(func(c *Config) { c.MaxOutstandingMemory = 0 }, "binner: MaxOutstandingMemory 0 must be at least 1"),
		set(func(c *Config) { c.InputQueue = 0 }, "binner: InputQueue 0 must be at least 1"),
	)
	testpeer.CheckEnv(t, true, func(e timing.Env) { MakeBuilder().WithEnv(e).Build("Binner") })
}
