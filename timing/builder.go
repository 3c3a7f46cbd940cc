package timing

import "github.com/sarchlab/akita/v3/sim"

// Builder builds one kind of unit T from an Env and a configuration C: the one
// home of the builder every component exposes,
//
//	MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name)
//
// A component declares `type Builder = timing.Builder[Config, *Comp]` and
// `func MakeBuilder() Builder { return timing.NewBuilder("kind",
// DefaultConfig(), build) }`, where build makes the unit from a checked
// environment and a valid configuration:
//
//	c := &Comp{...}
//	c.Unit = timing.NewUnit(name, env, cfg, c, activityNames[:]...)
//
// (see Unit), then its ports. Builders are values: each With returns a copy.
type Builder[C interface{ Validate() error }, T any] struct {
	kind  string
	env   Env
	cfg   C
	clock func(C) sim.Freq // NewClockedBuilder: the clock the configuration gives
	build func(name string, env Env, cfg C) T
}

// NewBuilder returns a builder of kind (the prefix of Build's panics, e.g.
// "rasterizer") holding cfg, that makes units with build.
func NewBuilder[C interface{ Validate() error }, T any](kind string, cfg C, build func(name string, env Env, cfg C) T) Builder[C, T] {
	return Builder[C, T]{kind: kind, cfg: cfg, build: build}
}

// NewClockedBuilder is NewBuilder for a unit whose clock its configuration
// gives (a video output's pixel clock): Build replaces the Env's Freq with
// clock(cfg).
func NewClockedBuilder[C interface{ Validate() error }, T any](kind string, cfg C, clock func(C) sim.Freq,
	build func(name string, env Env, cfg C) T) Builder[C, T] {
	return Builder[C, T]{kind: kind, cfg: cfg, clock: clock, build: build}
}

// WithEnv sets the engine, clock, halt and progress (required).
func (b Builder[C, T]) WithEnv(e Env) Builder[C, T] { b.env = e; return b }

// WithConfig sets the configuration.
func (b Builder[C, T]) WithConfig(c C) Builder[C, T] { b.cfg = c; return b }

// Env returns the environment set so far.
func (b Builder[C, T]) Env() Env { return b.env }

// Config returns the configuration set so far.
func (b Builder[C, T]) Config() C { return b.cfg }

// Build makes the unit named name. It panics, naming the kind and the unit,
// when the environment lacks an engine or a clock or the configuration does
// not validate (configs validates every field before building, so this
// guards only direct use of a builder).
func (b Builder[C, T]) Build(name string) T {
	env := b.env
	if b.clock != nil {
		env.Freq = b.clock(b.cfg)
	}
	env.MustBuild(b.kind, name, b.cfg)
	return b.build(name, env, b.cfg)
}
