package tracing

import (
	"testing"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/timing"
)

// occupancy counts bounded buffers only, each up to its capacity.
func TestOccupancy(t *testing.T) {
	for _, tc := range []struct {
		name string
		bs   []timing.BufferState
		want float64
	}{
		{"no buffers", nil, 0},
		{"empty", []timing.BufferState{{Len: 0, Cap: 4}}, 0},
		{"bounded", []timing.BufferState{{Len: 1, Cap: 4}, {Len: 2, Cap: 4}}, 0.375},
		{"full", []timing.BufferState{{Len: 4, Cap: 4}, {Len: 4, Cap: 4}}, 1},
		{"unbounded only", []timing.BufferState{{Len: 300, Cap: 0}}, 0},
		{"unbounded left out", []timing.BufferState{{Len: 300, Cap: 0}, {Len: 1, Cap: 4}}, 0.25},
		{"soft limit exceeded counts as full", []timing.BufferState{{Len: 112, Cap: 16}, {Len: 0, Cap: 16}}, 0.5},
	} {
		if got := occupancy(tc.bs); got != tc.want {
			t.Errorf("%s: occupancy %v, want %v", tc.name, got, tc.want)
		}
	}
}

// metricsRun samples the built-in scene name at w x h with spp samples per
// pixel on cfg every interval cycles, and returns the sampler after Finish at
// the engine's time and the frame's cycles.
func metricsRun(t *testing.T, cfg *configs.Config, name string, w, h, spp int, interval uint64) (*Metrics, uint64) {
	t.Helper()
	p, f := buildOn(t, cfg, name, w, h, spp)
	m, err := NewMetrics(p, interval)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Run(f)
	if err != nil {
		t.Fatal(err)
	}
	m.Finish(p.Engine.CurrentTime())
	return m, res.Cycles
}

// Every sample's buffer occupancy is a share, at most 1, on the machines
// whose units hold unbounded buffers (the tile units' tile lists, the SAGE
// distributor's chunks outstanding) and soft-limited write queues that a
// flush fills past their limit (the caches of the ROPs, depth and HiZ units).
func TestMetricsOccupancyAtMostOne(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, scene string
	}{
		{"sortlast", "", "room"},
		{"sortmiddle", "machine: sortmiddle\n", "room"},
		{"sage", "machine: sage\n", "triangle"},
	} {
		cfg := configs.Default()
		if tc.yaml != "" {
			var err error
			if cfg, err = configs.Parse(tc.name+".yaml", []byte(tc.yaml)); err != nil {
				t.Fatal(err)
			}
		}
		m, _ := metricsRun(t, cfg, tc.scene, 64, 36, 4, 500)
		n := 0
		for _, r := range m.rows {
			if r.metric != "buffer_occupancy" {
				continue
			}
			n++
			if r.value < 0 || r.value > 1 {
				t.Errorf("%s: cycle %d: %s buffer_occupancy %v, want a share in [0, 1]", tc.name, r.cycle, r.name, r.value)
			}
		}
		if n == 0 {
			t.Errorf("%s: no buffer_occupancy sampled", tc.name)
		}
	}
}
