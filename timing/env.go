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

type errEnv string

func (e errEnv) Error() string { return "Env: " + string(e) }
