package study

import (
	"fmt"
	"strings"
	"testing"
)

// TestHysteresisFindings: table 6's findings follow its numbers: the cycles
// fall, stay or rise from the shortest to the longest grant, and the 3DRAM
// hit rate falls, rises, stays or goes both ways over the sweep.
func TestHysteresisFindings(t *testing.T) {
	for _, tc := range []struct {
		cycles []float64
		hits   []float64 // of 100 lookups
		want   []string
	}{
		{[]float64{100, 90, 80}, []float64{52, 40, 51}, []string{"the frame takes 80.00% of its cycles at hysteresis 64 against 1: a sched",
			"the 3DRAM hit rate is not monotonic (0.520 at hysteresis 1, 0.510 at 64)"}},
		{[]float64{100, 100, 100}, []float64{64, 63, 62}, []string{"the frame takes the same cycles at hysteresis 64 as at 1",
			"the 3DRAM hit rate falls from 0.640 to 0.620 as the hysteresis grows"}},
		{[]float64{100, 105, 110}, []float64{40, 45, 50}, []string{"the frame takes 110.00% of its cycles at hysteresis 64 against 1: long grants",
			"the 3DRAM hit rate rises from 0.400 to 0.500"}},
		{[]float64{100, 100, 100}, []float64{50, 50, 50}, []string{"the 3DRAM hit rate is 0.500 at every hysteresis"}},
	} {
		p := plan{hystScene: "room", hysteresis: []int{1, 8, 64}, hystSamples: 8, w: 96, h: 54}
		by := map[string]*Result{}
		for i, h := range p.hysteresis {
			by[fmt.Sprintf("hysteresis-room-%d", h)] = &Result{Timed: &Timed{Cycles: tc.cycles[i], CacheHits: tc.hits[i], CacheMisses: 100 - tc.hits[i]}}
		}
		var b strings.Builder
		if err := tableHysteresis(t.TempDir(), &b, p, by); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), "finding: "+w) {
				t.Errorf("%v cycles, %v hits: no finding %q in\n%s", tc.cycles, tc.hits, w, b.String())
			}
		}
	}
}
