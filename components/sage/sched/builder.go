package sched

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// Config is a sched chip's configuration (sage.sched; configs gives each of
// the two its interleaves).
type Config struct {
	Pipes int // R, the render pipes feeding the sched (one input FIFO each)
	// FirstInterleave and Interleaves are the interleaves the sched serves:
	// global indices FirstInterleave to FirstInterleave+Interleaves-1 (local
	// interleave j is global FirstInterleave+j).
	FirstInterleave, Interleaves int
	InputDepth                   int // each input FIFO's depth in samples
	SecondStageDepth             int // each second-stage FIFO's depth in samples
	// Hysteresis is the samples a source may send while another waits before
	// the switch moves on (0: move on whenever another source waits).
	Hysteresis    int
	PrewriteDepth int // each pre-write queue's depth in samples
	// SnoopDistance is how far behind the pre-write queue's head (in samples)
	// the snoop looks for the block to prefetch; 0 turns prefetching off.
	SnoopDistance   int
	SamplesPerCycle int // the samples each interleave's switch moves per cycle (the width of its pin set)
	// OutputBurst is the most samples one SampleBurst to an interleave carries
	// (a modelling granularity: the pre-write queue leaves in bursts).
	OutputBurst     int
	InputPortQueue  int // each FromPipes port's capacity in messages
	OutputPortQueue int // the ToInterleaves port's capacity in messages
}

// DefaultConfig is Sched[0] of the board (the paper gives none of these
// numbers; ../shared/docs/sage.md section 1 "silent"): 4 pipes, interleaves 0 to 3,
// input FIFOs of 256 samples, second-stage FIFOs of 64 samples, a hysteresis
// of 16 samples, pre-write queues of 64 samples snooped 16 samples ahead, one
// sample per cycle per interleave (a 3DRAM interleave takes one sample write
// per bus cycle), bursts of at most 16 samples to an interleave, 4 messages in
// the input port and 8 in the output port. Its clock (the Env's) is 100 MHz
// in sage.yaml (the 3DRAM pixel port's clock, FBRAM 1994).
func DefaultConfig() Config {
	return Config{Pipes: 4, Interleaves: 4, InputDepth: 256, SecondStageDepth: 64, Hysteresis: 16,
		PrewriteDepth: 64, SnoopDistance: 16, SamplesPerCycle: 1, OutputBurst: 16, InputPortQueue: 4,
		OutputPortQueue: 8}
}

// Validate names the first bad field.
func (c Config) Validate() error {
	return check.For("sched").
		NotNegative("FirstInterleave", c.FirstInterleave).
		NotNegative("Hysteresis", c.Hysteresis).
		NotNegative("SnoopDistance", c.SnoopDistance).
		That(c.SnoopDistance < c.PrewriteDepth || c.SnoopDistance == 0,
			"SnoopDistance %d must be below PrewriteDepth %d", c.SnoopDistance, c.PrewriteDepth).
		FieldsAtLeast(1, c,
			"Pipes", "Interleaves", "InputDepth", "SecondStageDepth", "PrewriteDepth", "SamplesPerCycle",
			"OutputBurst", "InputPortQueue", "OutputPortQueue").
		Err()
}

// Builder builds a Sched: MakeBuilder().WithEnv(env).WithConfig(cfg).
// Build(name), for example "GPU.Sched[0]" (timing.Builder). Protocol errors
// are reported through the Env's halt (without one they panic). Build panics
// on a bad Env or Config (configs validates first).
type Builder = timing.Builder[Config, *Comp]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("sched", DefaultConfig(), build) }

// build makes the unit named name from a checked Env and Config.
func build(name string, env timing.Env, cfg Config) *Comp {
	c := &Comp{
		Interleaves: make([]sim.Port, cfg.Interleaves),
	}
	c.Unit = timing.NewUnit(name, env, cfg, c, activityNames[:]...)
	c.configure(cfg)
	for p := 0; p < cfg.Pipes; p++ {
		c.FromPipes = append(c.FromPipes, timing.AddPort(c, fmt.Sprintf("FromPipe[%d]", p), cfg.InputPortQueue))
	}
	c.ToInterleaves = timing.AddPort(c, "ToInterleaves", cfg.OutputPortQueue)
	return c
}

// configure creates the FIFOs and the switches.
func (c *Comp) configure(cfg Config) {
	c.input = make([]fifo, cfg.Pipes)
	for p := range c.input {
		c.input[p].depth = cfg.InputDepth
	}
	c.lanes = make([]lane, cfg.Interleaves)
	for j := range c.lanes {
		l := &c.lanes[j]
		l.second = make([]fifo, cfg.Pipes)
		for p := range l.second {
			l.second[p].depth = cfg.SecondStageDepth
		}
		l.prewrite.depth = cfg.PrewriteDepth
		l.barrierSince = -1
	}
	c.stallSince = -1
}
