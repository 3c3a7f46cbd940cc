package testpeer

import (
	"fmt"
	"testing"

	"github.com/gfxsim/gfxsim/timing"
)

// StatMap collects the statistics of u by name; a name reported twice is a
// bug of u and panics.
func StatMap(u timing.StatsReporter) map[string]float64 {
	m := map[string]float64{}
	u.Stats(func(n string, v float64) {
		if _, dup := m[n]; dup {
			panic(fmt.Sprintf("duplicate statistic %s", n))
		}
		m[n] = v
	})
	return m
}

// CheckStats fails t for every statistic "<prefix>.<name>" of want that got
// lacks or holds with another value.
func CheckStats(t testing.TB, got map[string]float64, prefix string, want map[string]float64) {
	t.Helper()
	for k, v := range want {
		g, ok := got[prefix+"."+k]
		if !ok {
			t.Errorf("statistic %s.%s missing", prefix, k)
			continue
		}
		if g != v {
			t.Errorf("%s.%s = %v, want %v", prefix, k, g, v)
		}
	}
}
