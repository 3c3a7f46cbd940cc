package binner

import (
	"fmt"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/timing"
)

// DefaultConfig is the binner of configs/sortmiddle.yaml: 4 entries per
// cycle, 256-byte chunks (31 entries and a link), 64-byte writes, 16 writes
// in flight, 16 messages in the input queue.
func DefaultConfig() Config {
	return Config{EntriesPerCycle: 4, ChunkBytes: 256, LineBytes: 64, MaxOutstandingMemory: 16, InputQueue: 16}
}

// Builder builds a Binner: MakeBuilder().WithEnv(env).WithConfig(cfg).
// Build(name) (timing.Builder). Build panics on a bad Env or Config (configs
// validates first).
type Builder = timing.Builder[Config, *Binner]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("binner", DefaultConfig(), build) }

// build makes the unit named name from a checked Env and Config.
func build(name string, env timing.Env, cfg Config) *Binner {
	c := &Binner{zero: make([]byte, cfg.LineBytes)}
	c.Unit = timing.NewUnit(name, env, cfg, c, stateNames[:]...)
	c.FromPrimitiveAssembly = timing.AddPort(c, "FromPrimitiveAssembly", cfg.InputQueue)
	c.Control = timing.AddPort(c, "Control", 4)
	c.ToMemory = timing.AddPort(c, "ToMemory", cfg.MaxOutstandingMemory)
	c.ToScheduler = timing.AddPort(c, "ToScheduler", 2)
	mc, err := memclient.New(c.ToMemory, timing.LateFinder{At: &c.Memory}, env.Freq, memclient.Config{MaxOutstanding: cfg.MaxOutstandingMemory, Progress: env.Progress})
	if err != nil {
		panic(fmt.Sprintf("binner %s: %v", name, err))
	}
	c.mem = mc
	return c
}
