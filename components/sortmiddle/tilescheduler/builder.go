package tilescheduler

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/timing"
)

// Builder builds a Scheduler. Start from MakeBuilder.
type Builder struct {
	env timing.Env
	cfg Config
}

// MakeBuilder returns a builder for 2 tile units, one tile each at a time, in
// Z order.
func MakeBuilder() Builder {
	return Builder{cfg: Config{TileUnits: 2, JobsPerUnit: 1, Order: ZOrder}}
}

// WithEnv sets the engine, clock, halt and progress (required).
func (b Builder) WithEnv(e timing.Env) Builder { b.env = e; return b }

// WithConfig sets the configuration.
func (b Builder) WithConfig(c Config) Builder { b.cfg = c; return b }

// Build builds the scheduler; it panics on a bad configuration (configs
// validates first).
func (b Builder) Build(name string) *Scheduler {
	b.env.MustBuild("tile scheduler", name, b.cfg)
	c := &Scheduler{cfg: b.cfg, env: b.env, held: make([]int, b.cfg.TileUnits),
		perUnit: make([]uint64, b.cfg.TileUnits), jobs: map[string]int{}}
	c.TickingComponent = sim.NewTickingComponent(name, b.env.Engine, b.env.Freq, c)
	c.FromBinner = sim.NewLimitNumMsgPort(c, 2, name+".FromBinner")
	c.ToTileUnits = sim.NewLimitNumMsgPort(c, 2*b.cfg.TileUnits*b.cfg.JobsPerUnit, name+".ToTileUnits")
	c.activity = timing.NewActivity(stateNames[:]...)
	return c
}

// Stats reports, under "<name>.": passes, tiles (rendered), tiles_skipped
// (without primitives in a pass that neither presents nor stores cleared
// targets), tiles_u<k> per tile unit, and the activity cycles and
// utilization.
func (c *Scheduler) Stats(add func(name string, v float64)) {
	p := c.Name() + "."
	add(p+"passes", float64(c.passes))
	add(p+"tiles", float64(c.tilesDone))
	add(p+"tiles_skipped", float64(c.tilesSkipped))
	for u, n := range c.perUnit {
		add(fmt.Sprintf("%stiles_u%d", p, u), float64(n))
	}
	c.activity.Stats(c.Name(), add)
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
		bs = append(bs, timing.BufferState{Name: fmt.Sprintf("%s.TileUnit[%d]", n, u), Len: h, Cap: c.cfg.JobsPerUnit})
	}
	return bs
}

// Finish closes the activity accounting.
func (c *Scheduler) Finish(now sim.VTimeInSec) { c.activity.Finish(c.Freq.Cycle(now)) }

var _ protocol.Unit = (*Scheduler)(nil)
