package enum

import "testing"

type mode uint8

type signed int

func TestNames(t *testing.T) {
	n := New[mode]("Mode", "elastic", "strict")
	for _, tc := range []struct {
		v    mode
		want string
	}{{0, "elastic"}, {1, "strict"}, {7, "Mode(7)"}} {
		if got := n.Name(tc.v); got != tc.want {
			t.Errorf("Name(%d) = %q, want %q", tc.v, got, tc.want)
		}
		if got := n.Valid(tc.v); got != (tc.v < 2) {
			t.Errorf("Valid(%d) = %v", tc.v, got)
		}
	}
	if v, err := n.Parse("strict"); err != nil || v != 1 {
		t.Errorf("Parse(strict) = %d, %v, want 1", v, err)
	}
	if _, err := n.Parse("lazy"); err == nil || err.Error() != `Mode "lazy" is not one of elastic, strict` {
		t.Errorf("Parse(lazy): %v", err)
	}
	s := New[signed]("Signed", "a")
	if got := s.Name(-1); got != "Signed(-1)" || s.Valid(-1) {
		t.Errorf("Name(-1) = %q, Valid %v, want Signed(-1), false", got, s.Valid(-1))
	}
}
