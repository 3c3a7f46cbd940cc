package reorderbuffer

import (
	"math/rand"
	"testing"
)

// step is one operation on a cache: a look-up of tag (want idx and result), a
// release or a fill of entry idx.
type step struct {
	op     byte // 'l' look-up, 'r' release, 'f' fill
	tag    int
	idx    int
	result CacheResult
}

func TestShadingCacheSequences(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries int
		refBits int
		steps   []step
		stats   CacheStats
	}{
		{
			name: "hit after miss while in flight, then ready", entries: 2, refBits: 4,
			steps: []step{
				{op: 'l', tag: 7, idx: 0, result: CacheMiss},
				{op: 'l', tag: 7, idx: 0, result: CacheHit}, // still shading: in flight
				{op: 'f', idx: 0},
				{op: 'l', tag: 7, idx: 0, result: CacheHit},
			},
			stats: CacheStats{Hits: 2, HitsInFlight: 1, Misses: 1},
		},
		{
			name: "stall when every entry is referenced", entries: 2, refBits: 4,
			steps: []step{
				{op: 'l', tag: 1, idx: 0, result: CacheMiss},
				{op: 'l', tag: 2, idx: 1, result: CacheMiss},
				{op: 'l', tag: 3, idx: -1, result: CacheStallAllReferenced},
				{op: 'l', tag: 3, idx: -1, result: CacheStallAllReferenced},
				{op: 'r', idx: 1},
				{op: 'l', tag: 3, idx: 1, result: CacheMiss}, // evicts tag 2
				{op: 'l', tag: 2, idx: -1, result: CacheStallAllReferenced},
			},
			stats: CacheStats{Misses: 3, Evictions: 1, StallsAllReferenced: 3},
		},
		{
			name: "LRU only among unreferenced entries", entries: 3, refBits: 4,
			steps: []step{
				{op: 'l', tag: 1, idx: 0, result: CacheMiss},
				{op: 'l', tag: 2, idx: 1, result: CacheMiss},
				{op: 'l', tag: 3, idx: 2, result: CacheMiss},
				{op: 'r', idx: 0}, {op: 'r', idx: 1}, {op: 'r', idx: 2},
				{op: 'l', tag: 1, idx: 0, result: CacheHit}, // 1 is now the most recent and referenced
				{op: 'l', tag: 2, idx: 1, result: CacheHit}, // 2 referenced too
				{op: 'r', idx: 1},
				// unreferenced: 3 (used at 3) and 2 (used at 5): 3 is the victim,
				// although 1 (used at 4) is older than 2: 1 is referenced.
				{op: 'l', tag: 4, idx: 2, result: CacheMiss},
				{op: 'l', tag: 5, idx: 1, result: CacheMiss}, // then 2
				{op: 'l', tag: 6, idx: -1, result: CacheStallAllReferenced},
				{op: 'r', idx: 0},
				{op: 'l', tag: 6, idx: 0, result: CacheMiss}, // 1 freed: the only candidate
			},
			stats: CacheStats{Hits: 2, HitsInFlight: 2, Misses: 6, Evictions: 3, StallsAllReferenced: 1},
		},
		{
			name: "reference count overflow", entries: 1, refBits: 2,
			steps: []step{
				{op: 'l', tag: 9, idx: 0, result: CacheMiss},
				{op: 'l', tag: 9, idx: 0, result: CacheHit},
				{op: 'l', tag: 9, idx: 0, result: CacheHit}, // 3 = 2^2-1 references
				{op: 'l', tag: 9, idx: -1, result: CacheStallRefOverflow},
				{op: 'r', idx: 0},
				{op: 'l', tag: 9, idx: 0, result: CacheHit},
			},
			stats: CacheStats{Hits: 3, HitsInFlight: 3, Misses: 1, StallsRefOverflow: 1},
		},
		{
			name: "a released entry keeps its value for later hits", entries: 2, refBits: 8,
			steps: []step{
				{op: 'l', tag: 1, idx: 0, result: CacheMiss},
				{op: 'f', idx: 0},
				{op: 'r', idx: 0},
				{op: 'l', tag: 2, idx: 1, result: CacheMiss}, // the never-used entry goes first
				{op: 'r', idx: 1},
				{op: 'l', tag: 1, idx: 0, result: CacheHit},
			},
			stats: CacheStats{Hits: 1, Misses: 2},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewShadingCache[int](tc.entries, tc.refBits)
			if err != nil {
				t.Fatal(err)
			}
			for k, s := range tc.steps {
				switch s.op {
				case 'l':
					idx, r := c.Lookup(s.tag)
					if idx != s.idx || r != s.result {
						t.Fatalf("step %d: Lookup(%d) = %d, %v; want %d, %v", k, s.tag, idx, r, s.idx, s.result)
					}
				case 'r':
					if err := c.Release(s.idx); err != nil {
						t.Fatalf("step %d: %v", k, err)
					}
				case 'f':
					c.Filled(s.idx)
				}
			}
			if c.Stats != tc.stats {
				t.Errorf("stats %+v, want %+v", c.Stats, tc.stats)
			}
		})
	}
}

func TestShadingCacheErrors(t *testing.T) {
	for _, tc := range []struct{ entries, refBits int }{{0, 4}, {4, 0}, {4, 33}} {
		if _, err := NewShadingCache[int](tc.entries, tc.refBits); err == nil {
			t.Errorf("NewShadingCache(%d, %d): no error", tc.entries, tc.refBits)
		}
	}
	c, _ := NewShadingCache[int](2, 4)
	if err := c.Release(0); err == nil {
		t.Error("release of an unreferenced entry: no error")
	}
	c.Lookup(1)
	if err := c.Invalidate(); err == nil {
		t.Error("Invalidate with a referenced entry: no error")
	}
	_ = c.Release(0)
	if err := c.Invalidate(); err != nil {
		t.Fatal(err)
	}
	if idx, r := c.Lookup(1); idx != 0 || r != CacheMiss {
		t.Errorf("after Invalidate: Lookup(1) = %d, %v; want 0, miss", idx, r)
	}
}

// model is a brute-force shading cache: linear scans, the same rules.
type model struct {
	tag, refs []int
	used      []bool
	lastUse   []int
	clock     int
	maxRefs   int
}

func (m *model) lookup(k int) (int, CacheResult) {
	for i := range m.tag {
		if m.used[i] && m.tag[i] == k {
			if m.refs[i] == m.maxRefs {
				return -1, CacheStallRefOverflow
			}
			m.refs[i]++
			m.clock++
			m.lastUse[i] = m.clock
			return i, CacheHit
		}
	}
	v := -1
	for i := range m.tag {
		if m.refs[i] == 0 && (v < 0 || m.lastUse[i] < m.lastUse[v]) {
			v = i
		}
	}
	if v < 0 {
		return -1, CacheStallAllReferenced
	}
	m.tag[v], m.used[v], m.refs[v] = k, true, 1
	m.clock++
	m.lastUse[v] = m.clock
	return v, CacheMiss
}

func TestShadingCacheAgainstModel(t *testing.T) {
	const seed = 20261126
	rng := rand.New(rand.NewSource(seed))
	for trial := 0; trial < 50; trial++ {
		n := 1 + rng.Intn(16)
		bits := 1 + rng.Intn(3)
		c, err := NewShadingCache[int](n, bits)
		if err != nil {
			t.Fatal(err)
		}
		m := &model{tag: make([]int, n), refs: make([]int, n), used: make([]bool, n),
			lastUse: make([]int, n), maxRefs: 1<<bits - 1}
		var held []int
		tags := 1 + rng.Intn(3*n)
		for op := 0; op < 2000; op++ {
			if len(held) > 0 && rng.Intn(3) == 0 {
				j := rng.Intn(len(held))
				i := held[j]
				held[j] = held[len(held)-1]
				held = held[:len(held)-1]
				if err := c.Release(i); err != nil {
					t.Fatalf("seed %d trial %d op %d: %v", seed, trial, op, err)
				}
				m.refs[i]--
				continue
			}
			k := rng.Intn(tags)
			gi, gr := c.Lookup(k)
			wi, wr := m.lookup(k)
			if gi != wi || gr != wr {
				t.Fatalf("seed %d trial %d op %d: Lookup(%d) = %d, %v; model %d, %v", seed, trial, op, k, gi, gr, wi, wr)
			}
			if gi >= 0 {
				held = append(held, gi)
			}
		}
		refd := 0
		for i := range m.refs {
			if m.refs[i] > 0 {
				refd++
			}
			if c.Refs(i) != m.refs[i] {
				t.Fatalf("trial %d: entry %d refs %d, model %d", trial, i, c.Refs(i), m.refs[i])
			}
		}
		if c.Referenced() != refd {
			t.Fatalf("trial %d: Referenced %d, model %d", trial, c.Referenced(), refd)
		}
	}
}

func BenchmarkShadingCacheLookup(b *testing.B) {
	c, _ := NewShadingCache[int](4096, 8)
	rng := rand.New(rand.NewSource(1))
	keys := make([]int, 1<<16)
	for i := range keys {
		keys[i] = rng.Intn(8192)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if idx, r := c.Lookup(keys[i&(len(keys)-1)]); r <= CacheMiss {
			_ = c.Release(idx)
		}
	}
}
