package testpeer

import (
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// CheckBufferNames fails t unless the names of u's buffers, in order and
// joined by single spaces, are want; a name Akita would refuse panics
// (sim.NameMustBeValid).
func CheckBufferNames(t testing.TB, u timing.Buffered, want string) {
	t.Helper()
	var names []string
	for _, b := range u.Buffers() {
		sim.NameMustBeValid(b.Name)
		names = append(names, b.Name)
	}
	if got := strings.Join(names, " "); got != want {
		t.Errorf("buffers %q, want %q", got, want)
	}
}
