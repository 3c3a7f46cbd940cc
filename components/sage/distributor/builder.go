package distributor

import (
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/internal/enum"
	"github.com/gfxsim/gfxsim/timing"
)

// Mode is the distribution policy (sage.distribution.mode).
type Mode int

// The distribution modes.
const (
	// Document is the rule of ../shared/docs/sage.md: order-independent draws
	// (pipeline.OrderIndependent) in chunks over the pipes, order-dependent
	// draws whole to one pipe, a barrier at each change of class and when an
	// order-dependent draw goes to another pipe than the previous one.
	Document Mode = iota
	// Ordered treats every draw as order-dependent.
	Ordered
	// BarrierPerDraw distributes as Document and puts a barrier before every
	// draw.
	BarrierPerDraw
)

var modeNames = enum.Names[Mode]{Type: "Mode", What: "mode", Names: []string{"document", "ordered", "barrier_per_draw"}, OneOf: true, CaseOnly: true}

func (m Mode) String() string { return modeNames.String(m) }

// ParseMode returns the mode named s (document, ordered, barrier_per_draw).
func ParseMode(s string) (Mode, error) { return modeNames.Parse(s) }

// Config is the distributor's configuration (sage.distribution).
type Config struct {
	Pipes int // render pipes (1 to 4 on the board; any number of at least 1 here)
	// ChunkTriangles is the size, in triangles, of the chunks an
	// order-independent draw is cut into for load balancing.
	ChunkTriangles  int
	Mode            Mode // the distribution mode
	DispatchLatency int  // cycles from taking a draw to sending its chunks and plans (at least 1)
	InputQueue      int  // capacity, in messages, of FromCommandProcessor
	ReturnQueue     int  // capacity, in messages, of FromSampleFills
}

// DefaultConfig is the board's 4 pipes, chunks of 256 triangles, the
// document's mode, a dispatch latency of 1 cycle, 4 draws in the input queue
// and 8 DrawEnd returns in the return queue. The paper gives the pipe count
// only; the rest is assumed. Its clock (the Env's) is the core clock.
func DefaultConfig() Config {
	return Config{Pipes: 4, ChunkTriangles: 256, Mode: Document, DispatchLatency: 1, InputQueue: 4, ReturnQueue: 8}
}

// Validate names the first bad field.
func (c Config) Validate() error {
	return check.For("distributor").
		AtLeast("Pipes", c.Pipes, 1).
		AtLeast("ChunkTriangles", c.ChunkTriangles, 1).
		That(modeNames.Valid(c.Mode), "Mode %v is not one of document, ordered, barrier_per_draw", c.Mode).
		AtLeast("DispatchLatency", c.DispatchLatency, 1).
		AtLeast("InputQueue", c.InputQueue, 1).
		AtLeast("ReturnQueue", c.ReturnQueue, 1).
		Err()
}

// Builder builds a Distributor: MakeBuilder().WithEnv(env).WithConfig(cfg).
// Build(name) (timing.Builder). Protocol errors stop the run through the
// Env's halt; the progress counts one unit per message sent. Build panics on
// a bad Env or Config (configs validates first).
type Builder = timing.Builder[Config, *Distributor]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("distributor", DefaultConfig(), build) }

// build makes the unit named name from a checked Env and Config.
func build(name string, env timing.Env, cfg Config) *Distributor {
	n := cfg.Pipes
	c := &Distributor{}
	c.Unit = timing.NewUnit(name, env, cfg, c, stateNames[:]...)
	c.createPorts()
	c.lastOrderedPipe = -1
	c.outstanding = make([][]chunkLoad, n)
	c.load = make([]int, n)
	c.trianglesPerPipe = make([]uint64, n)
	c.chunksPerPipe = make([]uint64, n)
	return c
}

func (c *Distributor) createPorts() {
	c.FromCommandProcessor = timing.AddPort(c, "FromCommandProcessor", c.Cfg.InputQueue)
	c.ToPipes = timing.AddPort(c, "ToPipes", 1)
	c.ToSampleFills = timing.AddPort(c, "ToSampleFills", 1)
	c.FromSampleFills = timing.AddPort(c, "FromSampleFills", c.Cfg.ReturnQueue)
}
