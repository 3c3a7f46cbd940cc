package testpeer

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// Env is the environment of a unit under test: engine e at Freq, with no
// halt and no progress counter.
func Env(e sim.Engine) timing.Env { return timing.Env{Engine: e, Freq: Freq} }

// Edit returns c after applying edits in order: a unit's DefaultConfig with
// the fields a test changes, in one expression.
func Edit[C any](c C, edits ...func(*C)) C {
	for _, edit := range edits {
		edit(&c)
	}
	return c
}
