package distributor

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// Mode is the distribution policy (sage.distribution.mode).
type Mode int

// The distribution modes.
const (
	// Document is the rule of docs/sage.md: order-independent draws
	// (pipeline.OrderIndependent) in chunks over the pipes, order-dependent
	// draws whole to one pipe, a barrier at each change of class and when an
	// order-dependent draw goes to another pipe than the previous one.
	Document Mode = iota
	// Ordered treats every draw as order-dependent.
	Ordered
	// BarrierPerDraw distributes as Document and puts a barrier before every
	// draw.
	BarrierPerDraw
	numModes
)

var modeNames = [numModes]string{"document", "ordered", "barrier_per_draw"}

func (m Mode) String() string {
	if m < 0 || m >= numModes {
		return fmt.Sprintf("Mode(%d)", int(m))
	}
	return modeNames[m]
}

// ParseMode returns the mode named s (document, ordered, barrier_per_draw).
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if n == s {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("mode: %q is not one of document, ordered, barrier_per_draw", s)
}

// Builder configures and builds a Distributor. Start from MakeBuilder.
type Builder struct {
	engine          sim.Engine
	freq            sim.Freq
	halt            *timing.Halt
	progress        *timing.Progress
	pipes           int
	chunkTriangles  int
	mode            Mode
	dispatchLatency int
	inputQueue      int
	returnQueue     int
}

// MakeBuilder returns a builder with the defaults: 1 GHz, 4 pipes (the
// board's), chunks of 256 triangles, the document's mode, a dispatch latency
// of 1 cycle, 4 draws in the input queue and 8 DrawEnd returns in the return
// queue. The paper gives the pipe count only; the rest is assumed.
func MakeBuilder() Builder {
	return Builder{
		freq:            1 * sim.GHz,
		pipes:           4,
		chunkTriangles:  256,
		mode:            Document,
		dispatchLatency: 1,
		inputQueue:      4,
		returnQueue:     8,
	}
}

// WithEngine sets the simulation engine (required).
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the clock frequency.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag (protocol errors stop the run through it).
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter (one unit per message sent).
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithPipes sets the number of render pipes (1 to 4 on the board; any number
// of at least 1 here).
func (b Builder) WithPipes(n int) Builder { b.pipes = n; return b }

// WithChunkTriangles sets the size, in triangles, of the chunks an
// order-independent draw is cut into for load balancing.
func (b Builder) WithChunkTriangles(n int) Builder { b.chunkTriangles = n; return b }

// WithMode sets the distribution mode.
func (b Builder) WithMode(m Mode) Builder { b.mode = m; return b }

// WithDispatchLatency sets the cycles from taking a draw to sending its chunks
// and plans (at least 1).
func (b Builder) WithDispatchLatency(n int) Builder { b.dispatchLatency = n; return b }

// WithInputQueue sets the capacity, in messages, of FromCommandProcessor.
func (b Builder) WithInputQueue(n int) Builder { b.inputQueue = n; return b }

// WithReturnQueue sets the capacity, in messages, of FromSampleFills.
func (b Builder) WithReturnQueue(n int) Builder { b.returnQueue = n; return b }

// Validate checks the parameters; the error names the parameter.
func (b Builder) Validate() error {
	switch {
	case b.engine == nil:
		return fmt.Errorf("distributor: engine: not set")
	case b.freq <= 0:
		return fmt.Errorf("distributor: freq: %v must be positive", b.freq)
	case b.pipes < 1:
		return fmt.Errorf("distributor: pipes: %d, want at least 1", b.pipes)
	case b.chunkTriangles < 1:
		return fmt.Errorf("distributor: chunk_triangles: %d, want at least 1", b.chunkTriangles)
	case b.mode < 0 || b.mode >= numModes:
		return fmt.Errorf("distributor: mode: %v is not one of document, ordered, barrier_per_draw", b.mode)
	case b.dispatchLatency < 1:
		return fmt.Errorf("distributor: dispatch_latency: %d cycles, want at least 1", b.dispatchLatency)
	case b.inputQueue < 1:
		return fmt.Errorf("distributor: input_queue: %d, want at least 1", b.inputQueue)
	case b.returnQueue < 1:
		return fmt.Errorf("distributor: return_queue: %d, want at least 1", b.returnQueue)
	}
	return nil
}

// Build validates the parameters and builds the distributor named name (it
// panics on invalid parameters: call Validate first to get the error).
func (b Builder) Build(name string) *Distributor {
	if err := b.Validate(); err != nil {
		panic(err)
	}
	sim.NameMustBeValid(name)
	c := &Distributor{params: params{pipes: b.pipes, chunkTriangles: b.chunkTriangles, mode: b.mode,
		dispatchLatency: b.dispatchLatency, inputQueue: b.inputQueue, returnQueue: b.returnQueue},
		halt: b.halt, progress: b.progress}
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.createPorts(name)
	c.waker = timing.NewWaker(b.engine, b.freq, c)
	c.activity = timing.NewActivity(stateNames[:]...)
	c.lastOrderedPipe = -1
	c.outstanding = make([][]chunkLoad, b.pipes)
	c.load = make([]int, b.pipes)
	c.trianglesPerPipe = make([]uint64, b.pipes)
	c.chunksPerPipe = make([]uint64, b.pipes)
	return c
}

func (c *Distributor) createPorts(name string) {
	c.FromCommandProcessor = sim.NewLimitNumMsgPort(c, c.inputQueue, name+".FromCommandProcessor")
	c.ToPipes = sim.NewLimitNumMsgPort(c, 1, name+".ToPipes")
	c.ToSampleFills = sim.NewLimitNumMsgPort(c, 1, name+".ToSampleFills")
	c.FromSampleFills = sim.NewLimitNumMsgPort(c, c.returnQueue, name+".FromSampleFills")
	c.AddPort("FromCommandProcessor", c.FromCommandProcessor)
	c.AddPort("ToPipes", c.ToPipes)
	c.AddPort("ToSampleFills", c.ToSampleFills)
	c.AddPort("FromSampleFills", c.FromSampleFills)
}
