package tilescheduler

import (
	"fmt"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/timing"
)

// DefaultConfig is 2 tile units, one tile each at a time, in Z order.
func DefaultConfig() Config { return Config{TileUnits: 2, JobsPerUnit: 1, Order: ZOrder} }

// Builder builds a Scheduler: MakeBuilder().WithEnv(env).WithConfig(cfg).
// Build(name) (timing.Builder). Build panics on a bad Env or Config (configs
// validates first).
type Builder = timing.Builder[Config, *Scheduler]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("tile scheduler", DefaultConfig(), build) }

// build makes the unit named name from a checked Env and Config.
func build(name string, env timing.Env, cfg Config) *Scheduler {
	c := &Scheduler{held: make([]int, cfg.TileUnits),
		perUnit: make([]uint64, cfg.TileUnits), jobs: map[string]int{}}
	c.Unit = timing.NewUnit(name, env, cfg, c, stateNames[:]...)
	c.FromBinner = timing.AddPort(c, "FromBinner", 2)
	c.ToTileUnits = timing.AddPort(c, "ToTileUnits", 2*cfg.TileUnits*cfg.JobsPerUnit)
	return c
}

// Stats reports, under "<name>.": passes, tiles (rendered), tiles_skipped
// (without primitives in a pass that neither presents nor stores cleared
// targets), tiles_u<k> per tile unit, and the activity cycles and
// utilization.
func (c *Scheduler) Stats(add func(name string, v float64)) {
	p := c.Name() + "."
	timing.AddTagged(p, add, &c.st)
	for u, n := range c.perUnit {
		add(fmt.Sprintf("%stiles_u%d", p, u), float64(n))
	}
	c.Activity.Stats(c.Name(), add)
}

// Buffers describes the pass in progress: its tiles not yet handed out and
// each unit's tiles in progress.
func (c *Scheduler) Buffers() []timing.BufferState {
	n := c.Name()
	left := 0
	if c.pass != nil {
		left = len(c.tiles) - c.next
	}
	bs := []timing.BufferState{{Name: n + ".Tiles", Len: left}}
	for u, h := range c.held {
		bs = append(bs, timing.BufferState{Name: fmt.Sprintf("%s.TileUnit[%d]", n, u), Len: h, Cap: c.Cfg.JobsPerUnit})
	}
	return bs
}

var _ protocol.Unit = (*Scheduler)(nil)
