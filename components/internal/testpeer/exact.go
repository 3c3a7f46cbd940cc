package testpeer

import (
	"reflect"
	"testing"

	"github.com/gfxsim/gfxsim/timing"
)

// Unit is a unit under test that reports statistics and buffers.
type Unit interface {
	timing.StatsReporter
	timing.Buffered
}

// CheckExact fails t unless u reports exactly the statistics stats (every
// name and value, no other) and the buffers bufs, in order.
func CheckExact(t testing.TB, u Unit, stats map[string]float64, bufs []timing.BufferState) {
	t.Helper()
	if got := StatMap(u); !reflect.DeepEqual(got, stats) {
		t.Fatalf("stats\n%v\nwant\n%v", got, stats)
	}
	if got := u.Buffers(); !reflect.DeepEqual(got, bufs) {
		t.Fatalf("buffers %v, want %v", got, bufs)
	}
}
