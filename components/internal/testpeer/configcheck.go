package testpeer

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// CheckEnv checks that build panics naming the fault when the timing.Env it
// is given has no engine, and, with clocked, when its clock is 0: the Engine
// and Freq cases of a builder that takes its engine and clock from an Env
// (timing.Env.MustBuild). A builder whose clock comes from its configuration
// (a video output's pixel clock) passes clocked false.
func CheckEnv(t testing.TB, clocked bool, build func(timing.Env)) {
	t.Helper()
	cases := []struct {
		env  timing.Env
		want string
	}{
		{timing.Env{Freq: Freq}, "Env: no engine"},
		{timing.Env{Engine: sim.NewSerialEngine()}, "Env: the clock must be positive"},
	}
	if !clocked {
		cases = cases[:1]
	}
	for _, tc := range cases {
		if got := panicOf(func() { build(tc.env) }); !strings.Contains(got, tc.want) {
			t.Errorf("building with %+v: panic %q, want one naming %q", tc.env, got, tc.want)
		}
	}
}

// panicOf runs f and returns what it panicked with, formatted ("" if it did
// not).
func panicOf(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// Invalid is a configuration change that Validate must refuse with the error
// Want: a case of CheckValidate (made by Reject).
type Invalid[C any] struct {
	Set  func(*C)
	Want string
}

// Reject is the case of CheckValidate where set's change must fail with
// exactly want.
func Reject[C any](set func(*C), want string) Invalid[C] { return Invalid[C]{Set: set, Want: want} }

// CheckValidate checks that ok validates and that each case's change of ok
// fails with exactly its Want: the table test of a unit's Config.Validate.
func CheckValidate[C interface{ Validate() error }](t testing.TB, ok C, cases ...Invalid[C]) {
	t.Helper()
	if err := ok.Validate(); err != nil {
		t.Errorf("the valid configuration %+v: %v", ok, err)
	}
	for _, tc := range cases {
		cfg := ok
		tc.Set(&cfg)
		if err := cfg.Validate(); err == nil || err.Error() != tc.Want {
			t.Errorf("Validate() = %v, want %q", err, tc.Want)
		}
	}
}

// CheckAtLeast checks, for each named int field of ok, that min-1 there fails
// Validate with exactly "<unit>: <Field> <min-1> must be at least <min>" (the
// rule of internal/check's AtLeast): the rows of CheckValidate that every
// count, depth and queue of a configuration repeats.
func CheckAtLeast[C interface{ Validate() error }](t testing.TB, ok C, unit string, min int, fields ...string) {
	t.Helper()
	for _, f := range fields {
		cfg := ok
		v := reflect.ValueOf(&cfg).Elem().FieldByName(f)
		if !v.IsValid() || v.Kind() != reflect.Int {
			t.Fatalf("%T has no int field %s", ok, f)
		}
		v.SetInt(int64(min - 1))
		want := fmt.Sprintf("%s: %s %d must be at least %d", unit, f, min-1, min)
		if err := cfg.Validate(); err == nil || err.Error() != want {
			t.Errorf("%s %d: Validate() = %v, want %q", f, min-1, err, want)
		}
	}
}
