package testpeer

import (
	"fmt"
	"strings"
	"testing"

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

// ConfigCase is an edit of a unit's configuration and the field that Validate
// must name in its error ("": the edited configuration is valid).
type ConfigCase[C any] struct {
	Want string
	Edit func(*C)
}

// CheckValidate fails t for every case whose edit of base Validate accepts
// when it should refuse, refuses without naming Want, or refuses when Want
// is "".
func CheckValidate[C interface{ Validate() error }](t testing.TB, base C, cases []ConfigCase[C]) {
	t.Helper()
	for i, tc := range cases {
		err := Edit(base, tc.Edit).Validate()
		switch {
		case tc.Want == "" && err != nil:
			t.Errorf("case %d: valid configuration refused: %v", i, err)
		case tc.Want != "" && (err == nil || !strings.Contains(err.Error(), tc.Want)):
			t.Errorf("case %d: Validate() = %v, want an error naming %s", i, err, tc.Want)
		}
	}
}

// Panics fails t unless f panics with a message that contains want: a
// builder's refusal of a bad environment or configuration.
func Panics(t testing.TB, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), want) {
			t.Errorf("recovered %v, want a panic naming %s", r, want)
		}
	}()
	f()
}
