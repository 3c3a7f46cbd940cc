package sched

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// Builder configures and builds a Sched. The zero value is not usable; start
// from MakeBuilder.
type Builder struct {
	engine          sim.Engine
	freq            sim.Freq
	halt            *timing.Halt
	progress        *timing.Progress
	pipes           int
	firstInterleave int
	interleaves     int
	inputDepth      int
	secondDepth     int
	hysteresis      int
	prewriteDepth   int
	snoopDistance   int
	samplesPerCycle int
	outputBurst     int
	inputPortQueue  int
	outputPortQueue int
}

// MakeBuilder returns a builder with the defaults (the paper gives none of
// these numbers; docs/sage.md section 1 "silent"): 4 pipes, interleaves 0 to 3
// (Sched[0] of the board), input FIFOs of 256 samples, second-stage FIFOs of
// 64 samples, a hysteresis of 16 samples, pre-write queues of 64 samples
// snooped 16 samples ahead, one sample per cycle per interleave (a 3DRAM
// interleave takes one sample write per bus cycle), bursts of at most 16
// samples to an interleave, 4 messages in the input port and 8 in the output
// port, 100 MHz (the 3DRAM pixel port's clock, FBRAM 1994).
func MakeBuilder() Builder {
	return Builder{
		freq:            100 * sim.MHz,
		pipes:           4,
		interleaves:     4,
		inputDepth:      256,
		secondDepth:     64,
		hysteresis:      16,
		prewriteDepth:   64,
		snoopDistance:   16,
		samplesPerCycle: 1,
		outputBurst:     16,
		inputPortQueue:  4,
		outputPortQueue: 8,
	}
}

// WithEngine sets the simulation engine (required).
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the clock frequency.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag (protocol errors are reported through
// it; without one they panic).
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter.
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithPipes sets R, the render pipes feeding the sched (one input FIFO each).
func (b Builder) WithPipes(n int) Builder { b.pipes = n; return b }

// WithInterleaves sets the interleaves the sched serves: global indices first
// to first+count-1 (local interleave j is global first+j).
func (b Builder) WithInterleaves(first, count int) Builder {
	b.firstInterleave, b.interleaves = first, count
	return b
}

// WithInputDepth sets each input FIFO's depth in samples.
func (b Builder) WithInputDepth(n int) Builder { b.inputDepth = n; return b }

// WithSecondStageDepth sets each second-stage FIFO's depth in samples.
func (b Builder) WithSecondStageDepth(n int) Builder { b.secondDepth = n; return b }

// WithHysteresis sets the samples a source may send while another waits before
// the switch moves on (0: move on whenever another source waits).
func (b Builder) WithHysteresis(n int) Builder { b.hysteresis = n; return b }

// WithPrewriteDepth sets each pre-write queue's depth in samples.
func (b Builder) WithPrewriteDepth(n int) Builder { b.prewriteDepth = n; return b }

// WithSnoopDistance sets how far behind the pre-write queue's head (in
// samples) the snoop looks for the block to prefetch; 0 turns prefetching off.
func (b Builder) WithSnoopDistance(n int) Builder { b.snoopDistance = n; return b }

// WithSamplesPerCycle sets the samples each interleave's switch moves per
// cycle (the width of the interleave's pin set).
func (b Builder) WithSamplesPerCycle(n int) Builder { b.samplesPerCycle = n; return b }

// WithOutputBurst sets the most samples one SampleBurst to an interleave
// carries (a modelling granularity: the pre-write queue leaves in bursts).
func (b Builder) WithOutputBurst(n int) Builder { b.outputBurst = n; return b }

// WithInputPortQueue sets each FromPipes port's capacity in messages.
func (b Builder) WithInputPortQueue(n int) Builder { b.inputPortQueue = n; return b }

// WithOutputPortQueue sets the ToInterleaves port's capacity in messages.
func (b Builder) WithOutputPortQueue(n int) Builder { b.outputPortQueue = n; return b }

// Validate checks the parameters and names the first bad one.
func (b Builder) Validate() error {
	switch {
	case b.engine == nil:
		return fmt.Errorf("sched: Engine is not set")
	case !(b.freq > 0):
		return fmt.Errorf("sched: Freq %v must be positive", float64(b.freq))
	case b.firstInterleave < 0:
		return fmt.Errorf("sched: FirstInterleave %d must not be negative", b.firstInterleave)
	case b.hysteresis < 0:
		return fmt.Errorf("sched: Hysteresis %d must not be negative", b.hysteresis)
	case b.snoopDistance < 0:
		return fmt.Errorf("sched: SnoopDistance %d must not be negative", b.snoopDistance)
	case b.snoopDistance >= b.prewriteDepth && b.snoopDistance > 0:
		return fmt.Errorf("sched: SnoopDistance %d must be below PrewriteDepth %d", b.snoopDistance, b.prewriteDepth)
	}
	for _, c := range []struct {
		name string
		v    int
	}{
		{"Pipes", b.pipes}, {"Interleaves", b.interleaves}, {"InputDepth", b.inputDepth},
		{"SecondStageDepth", b.secondDepth}, {"PrewriteDepth", b.prewriteDepth},
		{"SamplesPerCycle", b.samplesPerCycle}, {"OutputBurst", b.outputBurst},
		{"InputPortQueue", b.inputPortQueue}, {"OutputPortQueue", b.outputPortQueue},
	} {
		if c.v < 1 {
			return fmt.Errorf("sched: %s %d must be at least 1", c.name, c.v)
		}
	}
	return nil
}

// Build creates the sched named name (for example "GPU.Sched[0]"). It panics
// with the message of Validate when a parameter is invalid (callers validate
// first).
func (b Builder) Build(name string) *Comp {
	if err := b.Validate(); err != nil {
		panic(err)
	}
	sim.NameMustBeValid(name)
	c := &Comp{
		halt:        b.halt,
		progress:    b.progress,
		first:       b.firstInterleave,
		hysteresis:  b.hysteresis,
		snoop:       b.snoopDistance,
		width:       b.samplesPerCycle,
		outputBurst: b.outputBurst,
		activity:    timing.NewActivity(activityNames[:]...),
		Interleaves: make([]sim.Port, b.interleaves),
	}
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.configure(b)
	for p := 0; p < b.pipes; p++ {
		port := sim.NewLimitNumMsgPort(c, b.inputPortQueue, fmt.Sprintf("%s.FromPipe[%d]", name, p))
		c.FromPipes = append(c.FromPipes, port)
		c.AddPort(fmt.Sprintf("FromPipe[%d]", p), port)
	}
	c.ToInterleaves = sim.NewLimitNumMsgPort(c, b.outputPortQueue, name+".ToInterleaves")
	c.AddPort("ToInterleaves", c.ToInterleaves)
	return c
}

// configure creates the FIFOs and the switches.
func (c *Comp) configure(b Builder) {
	c.input = make([]fifo, b.pipes)
	for p := range c.input {
		c.input[p].depth = b.inputDepth
	}
	c.lanes = make([]lane, b.interleaves)
	for j := range c.lanes {
		l := &c.lanes[j]
		l.second = make([]fifo, b.pipes)
		for p := range l.second {
			l.second[p].depth = b.secondDepth
		}
		l.prewrite.depth = b.prewriteDepth
		l.barrierSince = -1
	}
	c.stallSince = -1
}
