package binner

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/timing"
)

// DefaultConfig is the binner of configs/sortmiddle.yaml: 4 entries per
// cycle, 256-byte chunks (31 entries and a link), 64-byte writes, 16 writes
// in flight, 16 messages in the input queue.
func DefaultConfig() Config {
	return Config{EntriesPerCycle: 4, ChunkBytes: 256, LineBytes: 64, MaxOutstandingMemory: 16, InputQueue: 16}
}

// Builder builds a Binner. Start from MakeBuilder.
type Builder struct {
	env timing.Env
	cfg Config
}

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return Builder{cfg: DefaultConfig()} }

// WithEnv sets the engine, clock, halt and progress (required).
func (b Builder) WithEnv(e timing.Env) Builder { b.env = e; return b }

// WithConfig sets the configuration.
func (b Builder) WithConfig(c Config) Builder { b.cfg = c; return b }

// Build builds the binner; it panics on a bad configuration (configs
// validates first).
func (b Builder) Build(name string) *Binner {
	b.env.MustBuild("binner", name, b.cfg)
	c := &Binner{cfg: b.cfg, env: b.env, zero: make([]byte, b.cfg.LineBytes)}
	c.TickingComponent = sim.NewTickingComponent(name, b.env.Engine, b.env.Freq, c)
	c.FromPrimitiveAssembly = sim.NewLimitNumMsgPort(c, b.cfg.InputQueue, name+".FromPrimitiveAssembly")
	c.Control = sim.NewLimitNumMsgPort(c, 4, name+".Control")
	c.ToMemory = sim.NewLimitNumMsgPort(c, b.cfg.MaxOutstandingMemory, name+".ToMemory")
	c.ToScheduler = sim.NewLimitNumMsgPort(c, 2, name+".ToScheduler")
	c.activity = timing.NewActivity(stateNames[:]...)
	mc, err := memclient.New(c.ToMemory, finder{c}, b.env.Freq, memclient.Config{MaxOutstanding: b.cfg.MaxOutstandingMemory})
	if err != nil {
		panic(fmt.Sprintf("binner %s: %v", name, err))
	}
	c.mem = mc
	return c
}

// finder asks the binner's Memory peer, set after Build.
type finder struct{ c *Binner }

func (f finder) Find(addr uint64) sim.Port { return f.c.Memory.Find(addr) }
