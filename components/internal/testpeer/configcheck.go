package testpeer

import (
	"fmt"
	"reflect"
	"testing"
)

// Invalid is a configuration change that Validate must refuse with the error
// Want: a case of CheckInvalid (made by Reject).
type Invalid[C any] struct {
	Set  func(*C)
	Want string
}

// Reject is the case of CheckInvalid where set's change must fail with
// exactly want.
func Reject[C any](set func(*C), want string) Invalid[C] { return Invalid[C]{Set: set, Want: want} }

// CheckInvalid checks that ok validates and that each case's change of ok
// fails with exactly its Want: the table test of a unit's Config.Validate
// that pins whole messages (CheckValidate checks that they name the field).
func CheckInvalid[C interface{ Validate() error }](t testing.TB, ok C, cases ...Invalid[C]) {
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
// rule of internal/check's AtLeast): the rows of CheckInvalid that every
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
