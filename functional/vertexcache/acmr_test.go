package vertexcache

import (
	"strings"
	"testing"
)

// fan returns n triangles (0, i, i+1), i = 1..n, around vertex 0.
func fan(n int) []uint32 {
	var idx []uint32
	for i := 1; i <= n; i++ {
		idx = append(idx, 0, uint32(i), uint32(i+1))
	}
	return idx
}

// repeat returns n copies of triangle tri.
func repeat(tri [3]uint32, n int) []uint32 {
	var idx []uint32
	for i := 0; i < n; i++ {
		idx = append(idx, tri[:]...)
	}
	return idx
}

// disjoint returns n triangles sharing no vertex.
func disjoint(n int) []uint32 {
	idx := make([]uint32, 3*n)
	for i := range idx {
		idx[i] = uint32(i)
	}
	return idx
}

// The answers below are derived by hand, each in its comment; lookups are
// listed as vertex and m (miss) or h (hit).
func TestKnownAnswers(t *testing.T) {
	tests := []struct {
		name  string
		idx   []uint32
		batch Counts // 32 vertices per batch
		fifo  map[int]int
		lru   map[int]int
	}{
		// Nothing to reuse: every scheme shades 3 vertices.
		{"one triangle", []uint32{0, 1, 2}, Counts{1, 3, 1}, map[int]int{1: 3, 32: 3}, map[int]int{1: 3}},
		// A quad: 4 vertices in one batch. FIFO-1: 0m 1m 2m 2h 1m 3m = 5.
		// FIFO-2: 0m 1m 2m(evicts 0) 2h 1h 3m = 4. LRU-2: 0m 1m 2m(evicts 0)
		// 2h 1h 3m(evicts 2) = 4.
		{"quad", []uint32{0, 1, 2, 2, 1, 3}, Counts{2, 4, 1}, map[int]int{1: 5, 2: 4, 3: 4}, map[int]int{1: 5, 2: 4}},
		// Three triangles around 0. FIFO-3: 0m 1m 2m | 0h 3m(evicts 0) 4m(1)
		// | 0m(2) 5m(3) 6m(4) = 8. LRU-3: 0m 1m 2m | 0h (order 1 2 0) 3m(evicts 1)
		// 4m(2) | 0h 5m(3) 6m(4) = 7: the hit kept 0 in.
		{"FIFO forgets the hub", []uint32{0, 1, 2, 0, 3, 4, 0, 5, 6}, Counts{3, 7, 1}, map[int]int{3: 8, 8: 7}, map[int]int{3: 7}},
		// A fan of 40 triangles over 42 vertices. Batches: triangles 1-30
		// fill 0..31 (32 vertices); triangle 31 needs vertex 32, a 33rd, so
		// a new batch starts empty with 0, 31..41 (12): 44. FIFO-N: vertex 0
		// leaves after N further insertions, and each triangle inserts one,
		// so triangles N, 2N, 3N, ... miss it again: FIFO-8 42+5 (triangles
		// 8, 16, 24, 32, 40) = 47; FIFO-32 42+1 (triangle 32) = 43; FIFO-64
		// 42. LRU: 0 is used by every triangle and never the least recent: 42.
		{"fan of 40", fan(40), Counts{40, 44, 2}, map[int]int{8: 47, 32: 43, 64: 42}, map[int]int{8: 42, 64: 42}},
		// The batch also closes after vertex.DefaultBatchTriangles (256)
		// triangles: 300 copies of one triangle are 2 batches of 3 vertices.
		{"triangle limit", repeat([3]uint32{0, 1, 2}, 300), Counts{300, 6, 2}, map[int]int{3: 3}, map[int]int{3: 3}},
		// A repeated index in a triangle is shaded once: 0m 0h 1m.
		{"degenerate", []uint32{0, 0, 1}, Counts{1, 2, 1}, map[int]int{1: 2}, map[int]int{1: 2}},
		// 11 triangles without shared vertices: 10 fill 30 slots, the 11th
		// would make 33, so it starts a second batch: 33 in 2 batches.
		{"disjoint 11", disjoint(11), Counts{11, 33, 2}, map[int]int{64: 33}, map[int]int{64: 33}},
		// Belady's reference string 1 2 3 4 1 2 5 1 2 3 4 5 (4 triangles).
		// FIFO-3: 1m 2m 3m 4m(1) 1m(2) 2m(3) 5m(4) 1h 2h 3m(1) 4m(2) 5h = 9;
		// FIFO-4: 1m 2m 3m 4m 1h 2h 5m(1) 1m(2) 2m(3) 3m(4) 4m(5) 5m(1) = 10:
		// the larger FIFO misses more. LRU-3: 1m 2m 3m 4m(1) 1m(2) 2m(3)
		// 5m(4) 1h 2h 3m(5) 4m(1) 5m(2) = 10; LRU-4: 1m 2m 3m 4m 1h 2h
		// 5m(3) 1h 2h 3m(4) 4m(5) 5m(1) = 8.
		{"Belady", []uint32{1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5}, Counts{4, 5, 1}, map[int]int{3: 9, 4: 10}, map[int]int{3: 10, 4: 8}},
	}
	for _, tc := range tests {
		got, err := Batches(tc.idx, 32)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got != tc.batch {
			t.Errorf("%s: batches %+v, want %+v", tc.name, got, tc.batch)
		}
		for _, p := range []struct {
			policy Policy
			want   map[int]int
		}{{FIFO, tc.fifo}, {LRU, tc.lru}} {
			for n, want := range p.want {
				c, err := Cache(tc.idx, p.policy, n)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				if c.Invocations != want || c.Triangles != tc.batch.Triangles {
					t.Errorf("%s: %v-%d: %d invocations for %d triangles, want %d for %d", tc.name, p.policy, n,
						c.Invocations, c.Triangles, want, tc.batch.Triangles)
				}
			}
		}
	}
}

func TestACMR(t *testing.T) {
	if got := (Counts{Triangles: 40, Invocations: 44}).ACMR(); got != 1.1 {
		t.Errorf("ACMR %v, want 1.1", got)
	}
	if got := (Counts{}).ACMR(); got != 0 {
		t.Errorf("ACMR of nothing %v, want 0", got)
	}
	if got := (Counts{1, 3, 1}).Add(Counts{2, 4, 1}); got != (Counts{3, 7, 2}) {
		t.Errorf("Add: %+v", got)
	}
}

// TestBatchSize: the batch size is the IA's parameter; 3 vertices per batch
// make the fan of 40 one batch per triangle (120 invocations).
func TestBatchSize(t *testing.T) {
	c, err := Batches(fan(40), 3)
	if err != nil {
		t.Fatal(err)
	}
	if c != (Counts{40, 120, 40}) {
		t.Errorf("3-vertex batches: %+v, want {40 120 40}", c)
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"batch list", func() error { _, err := Batches([]uint32{0, 1}, 32); return err }, "indices: 2 indices"},
		{"batch size", func() error { _, err := Batches(fan(2), 2); return err }, "batch vertices"},
		{"cache list", func() error { _, err := Cache([]uint32{0}, FIFO, 8); return err }, "indices: 1 indices"},
		{"cache size", func() error { _, err := Cache(fan(2), LRU, 0); return err }, "cache entries: 0"},
		{"policy", func() error { _, err := Cache(fan(2), Policy(7), 8); return err }, "cache policy: Policy(7)"},
		{"tipsify list", func() error { _, err := Tipsify([]uint32{0, 1, 2, 3}, 4, 8); return err }, "indices: 4 indices"},
		{"tipsify range", func() error { _, err := Tipsify([]uint32{0, 1, 5}, 4, 8); return err }, "indices[2]: vertex 5 out of range"},
		{"tipsify cache", func() error { _, err := Tipsify(fan(2), 4, 0); return err }, "cache size: 0"},
	}
	for _, tc := range tests {
		err := tc.err()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}
