package timing

import "github.com/sarchlab/akita/v3/sim"

// Builder builds a unit of type T from an Env and a configuration C: the one
// home of the builder every component package repeated (an Env and a Config
// setter, a check, a build step). A package declares its builder as an
// instance and gives the build step:
//
//	type Builder = timing.Builder[Config, *Comp]
//
//	func MakeBuilder() Builder { return timing.NewBuilder("route", DefaultConfig(), build) }
//
// so that its callers write MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name).
type Builder[C interface{ Validate() error }, T any] struct {
	kind  string
	env   Env
	cfg   C
	clock func(C) sim.Freq
	build func(env Env, cfg C, name string) T
}

// NewBuilder returns a builder of kind (the unit's name in a panic, "route")
// with the configuration cfg; build makes the unit once Env and cfg are
// checked.
func NewBuilder[C interface{ Validate() error }, T any](kind string, cfg C,
	build func(env Env, cfg C, name string) T) Builder[C, T] {
	return Builder[C, T]{kind: kind, cfg: cfg, build: build}
}

// NewClockedBuilder is NewBuilder for a unit whose clock its configuration
// gives (a video output's pixel clock): Build replaces the Env's Freq with
// clock(cfg).
func NewClockedBuilder[C interface{ Validate() error }, T any](kind string, cfg C, clock func(C) sim.Freq,
	build func(env Env, cfg C, name string) T) Builder[C, T] {
	return Builder[C, T]{kind: kind, cfg: cfg, clock: clock, build: build}
}

// WithEnv sets the engine, the clock, the halt and the progress (the engine
// and the clock are required).
func (b Builder[C, T]) WithEnv(e Env) Builder[C, T] { b.env = e; return b }

// WithConfig sets the configuration.
func (b Builder[C, T]) WithConfig(c C) Builder[C, T] { b.cfg = c; return b }

// Config returns the configuration the builder holds.
func (b Builder[C, T]) Config() C { return b.cfg }

// Build makes the unit named name. It panics, naming the unit, on a missing
// engine or clock or a configuration that does not validate (Env.MustBuild;
// configs validates every field first).
func (b Builder[C, T]) Build(name string) T {
	env := b.env
	if b.clock != nil {
		env.Freq = b.clock(b.cfg)
	}
	env.MustBuild(b.kind, name, b.cfg)
	return b.build(env, b.cfg, name)
}
