package teststats

import (
	"slices"
	"testing"
)

func TestUnitsAndSum(t *testing.T) {
	s := Stats{"GPU.ROP[0].cache_hits": 3, "GPU.ROP[1].cache_hits": 4, "GPU.ROP[1].cache_misses": 1, "GPU.L2.Bank[0].read_hits": 9}
	if got, want := s.Units(".cache_hits"), []string{"GPU.ROP[0]", "GPU.ROP[1]"}; !slices.Equal(got, want) {
		t.Errorf("Units = %q, want %q", got, want)
	}
	tests := []struct {
		re   string
		want float64
	}{
		{`GPU\.ROP\[[0-9]+\]\.cache_hits`, 7},
		{`GPU\.ROP\[1\]\..*`, 5},
		{`cache_hits`, 0}, // the whole key must match
	}
	for _, tc := range tests {
		if got := s.Sum(tc.re); got != tc.want {
			t.Errorf("Sum(%q) = %v, want %v", tc.re, got, tc.want)
		}
	}
}
