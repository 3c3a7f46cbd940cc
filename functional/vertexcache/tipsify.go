package vertexcache

import "fmt"

// Tipsify returns the triangles of the triangle list indices (over vertices
// 0..vertexCount-1) reordered for a FIFO post-transform cache of cacheSize
// entries by Sander, Nehab and Barczak's Tipsify (2007; see the package
// documentation). Every triangle appears exactly once, with its corners in
// their original order. indices is not modified.
func Tipsify(indices []uint32, vertexCount, cacheSize int) ([]uint32, error) {
	if err := checkList(indices); err != nil {
		return nil, err
	}
	if cacheSize < 1 {
		return nil, fmt.Errorf("cache size: %d, want at least 1", cacheSize)
	}
	if vertexCount < 0 {
		return nil, fmt.Errorf("vertex count: %d, want at least 0", vertexCount)
	}
	for i, v := range indices {
		if uint64(v) >= uint64(vertexCount) {
			return nil, fmt.Errorf("indices[%d]: vertex %d out of range (%d vertices)", i, v, vertexCount)
		}
	}
	t := newTipsifier(indices, vertexCount, cacheSize)
	t.run()
	return t.out, nil
}

// tipsifier holds the state of figures 2 and 3 of the paper: the
// vertex-triangle adjacency A (CSR: the triangles around vertex v are
// adj[start[v]:start[v+1]]), the live triangle counts L, the cache time
// stamps C, the dead-end stack D, the emitted flags E, the output O, the time
// stamp s and the cursor i.
type tipsifier struct {
	indices []uint32
	k       int
	start   []int
	adj     []int32
	live    []int32
	stamp   []int
	dead    []uint32
	emitted []bool
	out     []uint32
	time    int
	cursor  int
	ring    []uint32 // the 1-ring N of the current fan, in first-touch order
	inRing  []bool
}

func newTipsifier(indices []uint32, vertexCount, k int) *tipsifier {
	t := &tipsifier{indices: indices, k: k, start: make([]int, vertexCount+1), adj: make([]int32, len(indices)),
		live: make([]int32, vertexCount), stamp: make([]int, vertexCount), emitted: make([]bool, len(indices)/3),
		out: make([]uint32, 0, len(indices)), time: k + 1, inRing: make([]bool, vertexCount)}
	for _, v := range indices {
		t.live[v]++
	}
	for v := 0; v < vertexCount; v++ {
		t.start[v+1] = t.start[v] + int(t.live[v])
	}
	fill := append([]int(nil), t.start[:vertexCount]...)
	for i, v := range indices {
		t.adj[fill[v]] = int32(i / 3)
		fill[v]++
	}
	return t
}

// run is Tipsify's main loop: fan around f, then pick the next f, until no
// vertex has triangles left.
func (t *tipsifier) run() {
	f := 0
	if len(t.live) == 0 {
		return
	}
	for f >= 0 {
		t.ring = t.ring[:0]
		for _, tri := range t.adj[t.start[f]:t.start[f+1]] {
			if !t.emitted[tri] {
				t.emit(int(tri))
			}
		}
		for _, v := range t.ring {
			t.inRing[v] = false
		}
		f = t.nextVertex()
	}
}

// emit appends triangle tri, updating the live counts, the cache stamps, the
// dead-end stack and the 1-ring.
func (t *tipsifier) emit(tri int) {
	for _, v := range t.indices[3*tri : 3*tri+3] {
		t.out = append(t.out, v)
		t.dead = append(t.dead, v)
		if !t.inRing[v] {
			t.inRing[v] = true
			t.ring = append(t.ring, v)
		}
		t.live[v]--
		if t.time-t.stamp[v] > t.k {
			t.stamp[v] = t.time
			t.time++
		}
	}
	t.emitted[tri] = true
}

// nextVertex is Get-Next-Vertex (figure 3): the candidate of the 1-ring with
// live triangles that stays in the cache while its own triangles are emitted
// and entered it earliest; else Skip-Dead-End. -1: every triangle is out.
func (t *tipsifier) nextVertex() int {
	best, priority := -1, -1
	for _, v := range t.ring {
		if t.live[v] <= 0 {
			continue
		}
		p := 0
		if age := t.time - t.stamp[v]; age+2*int(t.live[v]) <= t.k {
			p = age
		}
		if p > priority {
			best, priority = int(v), p
		}
	}
	if best >= 0 {
		return best
	}
	return t.skipDeadEnd()
}

// skipDeadEnd pops the dead-end stack down to a vertex with live triangles,
// else advances the cursor to the next such vertex in index order.
func (t *tipsifier) skipDeadEnd() int {
	for len(t.dead) > 0 {
		d := t.dead[len(t.dead)-1]
		t.dead = t.dead[:len(t.dead)-1]
		if t.live[d] > 0 {
			return int(d)
		}
	}
	for ; t.cursor < len(t.live); t.cursor++ {
		if t.live[t.cursor] > 0 {
			return t.cursor
		}
	}
	return -1
}
