package vertexcache

import (
	"math/rand"
	"reflect"
	"sort"
	"testing"
)

// grid returns a w x h grid of quads, two counter-clockwise triangles each,
// in row order, over (w+1)(h+1) vertices.
func grid(w, h int) []uint32 {
	var idx []uint32
	at := func(x, y int) uint32 { return uint32(y*(w+1) + x) }
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			idx = append(idx, at(x, y), at(x+1, y), at(x, y+1), at(x+1, y), at(x+1, y+1), at(x, y+1))
		}
	}
	return idx
}

// shuffled returns the triangles of idx in a random order (seeded).
func shuffled(idx []uint32, seed int64) []uint32 {
	r := rand.New(rand.NewSource(seed))
	n := len(idx) / 3
	out := make([]uint32, 0, len(idx))
	for _, t := range r.Perm(n) {
		out = append(out, idx[3*t:3*t+3]...)
	}
	return out
}

// canonical returns the triangles of idx, each rotated so that its smallest
// index comes first (a rotation keeps the winding; a reflection would not),
// sorted: two lists hold the same triangles with the same windings exactly
// when their canonical lists are equal.
func canonical(idx []uint32) [][3]uint32 {
	out := make([][3]uint32, 0, len(idx)/3)
	for i := 0; i < len(idx); i += 3 {
		t := [3]uint32{idx[i], idx[i+1], idx[i+2]}
		for t[0] > t[1] || t[0] > t[2] {
			t = [3]uint32{t[1], t[2], t[0]}
		}
		out = append(out, t)
	}
	sort.Slice(out, func(a, b int) bool {
		x, y := out[a], out[b]
		if x[0] != y[0] {
			return x[0] < y[0]
		}
		if x[1] != y[1] {
			return x[1] < y[1]
		}
		return x[2] < y[2]
	})
	return out
}

func TestCanonicalSeesWinding(t *testing.T) {
	if reflect.DeepEqual(canonical([]uint32{0, 1, 2}), canonical([]uint32{0, 2, 1})) {
		t.Error("canonical does not tell the two windings of a triangle apart")
	}
	if !reflect.DeepEqual(canonical([]uint32{0, 1, 2, 5, 3, 4}), canonical([]uint32{4, 5, 3, 2, 0, 1})) {
		t.Error("canonical tells a rotation of the same triangles apart")
	}
}

// TestTipsifyByHand traces the paper's figures 2 and 3 on three triangles,
// T0 = (0 1 2), T1 = (3 4 5), T2 = (2 1 6), with k = 3. The fan starts at
// vertex 0 and emits T0; time stamps 0:4, 1:5, 2:6, time 7; live counts 0:0,
// 1:1, 2:1. Candidates: 1 (age 2, 2+2*1 > 3: priority 0), 2 (age 1, 1+2 <= 3:
// priority 1): 2 wins and emits T2. Its 1-ring has no live triangle and the
// dead-end stack neither, so the cursor walks to vertex 3 and emits T1.
func TestTipsifyByHand(t *testing.T) {
	got, err := Tipsify([]uint32{0, 1, 2, 3, 4, 5, 2, 1, 6}, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []uint32{0, 1, 2, 2, 1, 6, 3, 4, 5}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Tipsify: %v, want %v", got, want)
	}
	empty, err := Tipsify(nil, 0, 8)
	if err != nil || len(empty) != 0 {
		t.Errorf("Tipsify of nothing: %v, %v", empty, err)
	}
}

// TestTipsifyKeepsTriangles: the same triangles with the same windings, on
// meshes with unused vertices, degenerate and repeated triangles too.
func TestTipsifyKeepsTriangles(t *testing.T) {
	cases := map[string]struct {
		idx []uint32
		n   int
	}{
		"grid":          {grid(17, 9), 18 * 10},
		"shuffled grid": {shuffled(grid(17, 9), 1), 18 * 10},
		"fan":           {fan(40), 42},
		"repeats":       {append(repeat([3]uint32{0, 0, 1}, 3), repeat([3]uint32{4, 2, 3}, 2)...), 9},
		"disjoint":      {shuffled(disjoint(50), 2), 150},
	}
	for name, c := range cases {
		in := append([]uint32(nil), c.idx...)
		got, err := Tipsify(c.idx, c.n, 16)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(c.idx, in) {
			t.Errorf("%s: Tipsify modified its input", name)
		}
		if !reflect.DeepEqual(canonical(got), canonical(c.idx)) {
			t.Errorf("%s: the reordered list does not hold the same triangles with the same windings", name)
		}
	}
}

// acmrs returns the ACMR of idx under the batch scheme (32) and FIFO and LRU
// of 16 entries.
func acmrs(t *testing.T, idx []uint32) [3]float64 {
	t.Helper()
	b, err := Batches(idx, 32)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Cache(idx, FIFO, 16)
	if err != nil {
		t.Fatal(err)
	}
	l, err := Cache(idx, LRU, 16)
	if err != nil {
		t.Fatal(err)
	}
	return [3]float64{b.ACMR(), f.ACMR(), l.ACMR()}
}

// TestTipsifyImproves: on a grid in row order (already fairly good) the
// reordering is not worse for any scheme; on the same grid shuffled
// (seeded) it is much better for every scheme.
func TestTipsifyImproves(t *testing.T) {
	const w, h = 40, 30
	names := [3]string{"batches of 32", "FIFO-16", "LRU-16"}
	// reorder returns the ACMRs of idx before and after Tipsify.
	reorder := func(idx []uint32) (before, after [3]float64) {
		out, err := Tipsify(idx, (w+1)*(h+1), 16)
		if err != nil {
			t.Fatal(err)
		}
		return acmrs(t, idx), acmrs(t, out)
	}
	g := grid(w, h)
	before, after := reorder(g)
	for i := range names {
		if after[i] > before[i] {
			t.Errorf("grid, %s: ACMR %.3f after reordering, %.3f before", names[i], after[i], before[i])
		}
	}
	for _, seed := range []int64{1, 2, 3} {
		before, after := reorder(shuffled(g, seed))
		for i := range names {
			if after[i] > 0.75*before[i] {
				t.Errorf("shuffled grid (seed %d), %s: ACMR %.3f after reordering, want at most 3/4 of %.3f",
					seed, names[i], after[i], before[i])
			}
		}
		t.Logf("seed %d: before %.3f, after %.3f (grid in row order: %.3f)", seed, before, after, acmrs(t, g))
	}
}

// TestLRUIsAStackAlgorithm: an LRU of 2N entries never misses more than one
// of N, on random index buffers (seeded) and the hand-built ones.
func TestLRUIsAStackAlgorithm(t *testing.T) {
	r := rand.New(rand.NewSource(16))
	bufs := [][]uint32{fan(40), grid(20, 20), shuffled(grid(20, 20), 4), {1, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5}}
	for i := 0; i < 50; i++ {
		b := make([]uint32, 3*(1+r.Intn(200)))
		span := 1 + r.Intn(150)
		for k := range b {
			b[k] = uint32(r.Intn(span))
		}
		bufs = append(bufs, b)
	}
	for i, b := range bufs {
		for n := 1; n <= 64; n *= 2 {
			small, _ := Cache(b, LRU, n)
			large, _ := Cache(b, LRU, 2*n)
			if large.Invocations > small.Invocations {
				t.Errorf("buffer %d: LRU-%d %d invocations, LRU-%d %d", i, 2*n, large.Invocations, n, small.Invocations)
			}
		}
	}
}

func BenchmarkTipsify(b *testing.B) {
	g := shuffled(grid(200, 190), 1) // 76,000 triangles, about Sibenik's
	for i := 0; i < b.N; i++ {
		if _, err := Tipsify(g, 201*191, 16); err != nil {
			b.Fatal(err)
		}
	}
}
