// Package enumtest is the one home of the tests every enum.Names enumeration
// repeats: names parse to their values, bad names are refused, every value
// round-trips through String and Parse, and a fuzzed string parses only to a
// valid value whose name it spells. Only _test.go files import it.
package enumtest

import (
	"maps"
	"slices"
	"testing"

	"github.com/gfxsim/gfxsim/internal/enum"
)

// Enum is an enumeration whose methods forward to an enum.Names.
type Enum interface {
	~uint8 | ~uint32 | ~int
	String() string
	Valid() bool
}

// Parse checks that parse reads every name of want to its value (in name
// order) and refuses every bad name.
func Parse[T comparable](t testing.TB, parse func(string) (T, error), want map[string]T, bad ...string) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if got, err := parse(name); err != nil || got != want[name] {
			t.Errorf("%q: %v %v, want %v", name, got, err, want[name])
		}
	}
	for _, s := range bad {
		if got, err := parse(s); err == nil {
			t.Errorf("%q accepted as %v", s, got)
		}
	}
}

// RoundTrip checks that parse reads back the String of every value 0..n-1.
func RoundTrip[T Enum](t testing.TB, parse func(string) (T, error), n T) {
	t.Helper()
	for v := T(0); v < n; v++ {
		if got, err := parse(v.String()); err != nil || got != v {
			t.Errorf("round trip %v: %v %v", v, got, err)
		}
	}
}

// Check returns the fuzz check of parse: a string it takes gives a valid
// value whose name the string spells (ignoring case, '_' and '-').
func Check[T Enum](parse func(string) (T, error)) func(t *testing.T, s string) {
	return func(t *testing.T, s string) {
		t.Helper()
		if v, err := parse(s); err == nil && (!v.Valid() || !enum.Equal(s, v.String())) {
			t.Errorf("%q parsed to %v", s, v)
		}
	}
}

// Fuzz fuzzes the checks (Check of each parser, or any other) from the
// seed strings.
func Fuzz(f *testing.F, seeds []string, checks ...func(t *testing.T, s string)) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range checks {
			c(t, s)
		}
	})
}
