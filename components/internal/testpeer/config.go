// The checks of a unit's builder: its environment (Env, CheckEnv), its
// configuration's rules (CheckConfigs) and a panic on bad input (MustPanic).

package testpeer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// Env is the environment of a unit under test: engine e, the peers' clock
// (Freq), halt h (nil for none) and a fresh progress counter.
func Env(e sim.Engine, h *timing.Halt) timing.Env {
	return timing.Env{Engine: e, Freq: Freq, Halt: h, Progress: &timing.Progress{}}
}

// ConfigCase is a change to a unit's default configuration and the field the
// error of Validate must name ("" when the changed configuration is valid).
type ConfigCase[C any] struct {
	Set   func(c *C)
	Field string
}

// Bad is the case of a configuration changed by set that Validate must
// reject, naming field.
func Bad[C any](field string, set func(c *C)) ConfigCase[C] {
	return ConfigCase[C]{Set: set, Field: field}
}

// Good is the case of a configuration changed by set that Validate must
// accept.
func Good[C any](set func(c *C)) ConfigCase[C] { return ConfigCase[C]{Set: set} }

// CheckConfigs checks every case against the default configuration def
// returns: Validate of the changed configuration must fail naming the case's
// Field, or pass when Field is "". The default itself must pass.
func CheckConfigs[C interface{ Validate() error }](t testing.TB, def func() C, cases []ConfigCase[C]) {
	t.Helper()
	if err := def().Validate(); err != nil {
		t.Fatalf("the default configuration: %v", err)
	}
	for i, tc := range cases {
		c := def()
		tc.Set(&c)
		err := c.Validate()
		switch {
		case tc.Field == "" && err != nil:
			t.Errorf("case %d: want no error, got %v", i, err)
		case tc.Field != "" && (err == nil || !strings.Contains(err.Error(), tc.Field)):
			t.Errorf("case %d: want an error naming %s, got %v", i, tc.Field, err)
		}
	}
}

// MustPanic runs build and fails t unless it panics with a message that
// contains want: a builder given a bad environment or configuration.
func MustPanic(t testing.TB, want string, build func()) {
	t.Helper()
	msg := func() (msg string) {
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprint(r)
			}
		}()
		build()
		return ""
	}()
	if msg == "" || !strings.Contains(msg, want) {
		t.Errorf("want a panic naming %q, got %q", want, msg)
	}
}

// CheckEnv checks that build panics, naming the missing part, when its
// environment lacks an engine or a clock; build builds the unit with env.
func CheckEnv(t testing.TB, build func(env timing.Env)) {
	t.Helper()
	MustPanic(t, "no engine", func() { build(timing.Env{Freq: Freq}) })
	MustPanic(t, "clock", func() { build(timing.Env{Engine: sim.NewSerialEngine()}) })
}
