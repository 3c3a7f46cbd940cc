package timing

import "github.com/sarchlab/akita/v3/sim"

// Env is what every component of one machine shares: the engine, the
// component's clock, and the platform's halt and progress. Builders take it in
// one call (WithEnv) instead of four setters.
type Env struct {
	Engine   sim.Engine
	Freq     sim.Freq
	Halt     *Halt
	Progress *Progress
}

// Check reports a missing engine or a clock that is not positive.
func (e Env) Check() error {
	if e.Engine == nil {
		return errEnv("no engine")
	}
	if e.Freq <= 0 {
		return errEnv("the clock must be positive")
	}
	return nil
}

// MustBuild panics, naming the unit ("binner GPU.Binner: ..."), when e lacks
// an engine or a clock or cfg does not validate: a builder's first step
// (configs validates every field before building, so this guards only direct
// use of a builder).
func (e Env) MustBuild(kind, name string, cfg interface{ Validate() error }) {
	err := e.Check()
	if err == nil {
		err = cfg.Validate()
	}
	if err != nil {
		panic(kind + " " + name + ": " + err.Error())
	}
}

type errEnv string

func (e errEnv) Error() string { return "Env: " + string(e) }
