package testpeer

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// BuildOn builds b's unit named name on engine e at Freq, keeping the rest of
// b's environment (its halt and progress), with b's configuration changed by
// edits.
func BuildOn[C interface{ Validate() error }, T any](b timing.Builder[C, T], e sim.Engine, name string, edits ...func(*C)) T {
	env := b.Env()
	env.Engine, env.Freq = e, Freq
	return b.WithEnv(env).WithConfig(Edit(b.Config(), edits...)).Build(name)
}
