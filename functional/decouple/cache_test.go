package decouple

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/raster"
)

// randomTags returns n tags drawn from distinct candidates (a few primitives,
// clustered quads, negative coordinates included).
func randomTags(rng *rand.Rand, n, distinct int) []Tag {
	pool := make([]Tag, distinct)
	for i := range pool {
		pool[i] = Tag{Prim: uint32(rng.Intn(4)), QuadX: int32(rng.Intn(64)-16) * 2, QuadY: int32(rng.Intn(64)-16) * 2}
	}
	seq := make([]Tag, n)
	for i := range seq {
		// Mostly near the previous one, as a traversal is.
		j := rng.Intn(distinct)
		if i > 0 && rng.Intn(4) != 0 {
			j = (j%8 + int(seq[i-1].QuadX)) & (distinct - 1)
		}
		seq[i] = pool[j]
	}
	return seq
}

// refLRU is a slice-based LRU (most recent last) to check LRU against.
type refLRU struct {
	entries int
	tags    []Tag
	stats   CacheStats
}

func (r *refLRU) lookup(t Tag) {
	for i, x := range r.tags {
		if x == t {
			r.tags = append(append(r.tags[:i:i], r.tags[i+1:]...), t)
			r.stats.Hits++
			return
		}
	}
	r.stats.Misses++
	if len(r.tags) == r.entries {
		r.tags = r.tags[1:]
		r.stats.Evictions++
	}
	r.tags = append(r.tags, t)
}

func TestMemo(t *testing.T) {
	const seed = 42
	rng := rand.New(rand.NewSource(seed))
	var m Memo // the zero value is ready
	seq := randomTags(rng, 20000, 1024)
	seen := map[Tag]bool{}
	for _, tag := range seq {
		if got := m.Lookup(tag); got != seen[tag] {
			t.Fatalf("seed %d: Lookup(%+v) = %v, want %v", seed, tag, got, seen[tag])
		}
		seen[tag] = true
	}
	st := m.Stats()
	if st.Lookups() != int64(len(seq)) || st.Misses != int64(len(seen)) || st.Evictions != 0 || m.Len() != len(seen) {
		t.Fatalf("seed %d: %+v, len %d; want %d look-ups, %d misses", seed, st, m.Len(), len(seq), len(seen))
	}
	m.Clear()
	if m.Len() != 0 || m.Lookup(seq[0]) || !m.Lookup(seq[0]) {
		t.Fatalf("after Clear: len %d, or %+v still present", m.Len(), seq[0])
	}
	if st := m.Stats(); st.Misses != int64(len(seen))+1 || st.Hits != int64(len(seq)-len(seen))+1 {
		t.Fatalf("stats after Clear %+v", st)
	}
	// Warm, it does not allocate.
	m.Clear()
	if n := testing.AllocsPerRun(10, func() {
		for _, tag := range seq[:2000] {
			m.Lookup(tag)
		}
		m.Clear()
	}); n != 0 {
		t.Errorf("warm Memo: %v allocations", n)
	}
}

func TestLRUSequence(t *testing.T) {
	a, b, c, d := Tag{QuadX: 0}, Tag{QuadX: 2}, Tag{QuadX: 4}, Tag{Prim: 1, QuadX: 0}
	for _, tc := range []struct {
		entries int
		seq     []Tag
		hits    []bool
		want    CacheStats
	}{
		{2, []Tag{a, b, a, c, b, a}, []bool{false, false, true, false, false, false}, CacheStats{Hits: 1, Misses: 5, Evictions: 3}},
		{2, []Tag{a, b, a, c, a, b}, []bool{false, false, true, false, true, false}, CacheStats{Hits: 2, Misses: 4, Evictions: 2}},
		{3, []Tag{a, b, c, d, a, b}, []bool{false, false, false, false, false, false}, CacheStats{Misses: 6, Evictions: 3}},
		{3, []Tag{a, b, c, a, d, a, b}, []bool{false, false, false, true, false, true, false}, CacheStats{Hits: 2, Misses: 5, Evictions: 2}},
		{1, []Tag{a, a, b, b, a}, []bool{false, true, false, true, false}, CacheStats{Hits: 2, Misses: 3, Evictions: 2}},
	} {
		c, err := NewLRU(tc.entries)
		if err != nil {
			t.Fatal(err)
		}
		for i, tag := range tc.seq {
			if got := c.Lookup(tag); got != tc.hits[i] {
				t.Errorf("entries %d, sequence %v: look-up %d hit %v, want %v", tc.entries, tc.seq, i, got, tc.hits[i])
			}
		}
		if c.Stats() != tc.want {
			t.Errorf("entries %d, sequence %v: %+v, want %+v", tc.entries, tc.seq, c.Stats(), tc.want)
		}
	}
	if _, err := NewLRU(0); err == nil || !strings.Contains(err.Error(), "LRU entries") {
		t.Errorf("NewLRU(0): %v", err)
	}
}

// TestLRUAgainstReference checks every look-up against a slice-based LRU, with
// sizes small enough that evictions and table deletions happen constantly, and
// that LRU never misses less often than Memo, equal to it when large.
func TestLRUAgainstReference(t *testing.T) {
	const seed = 99
	rng := rand.New(rand.NewSource(seed))
	seq := randomTags(rng, 30000, 512)
	var memo Memo
	for _, tag := range seq {
		memo.Lookup(tag)
	}
	for _, entries := range []int{1, 2, 3, 7, 16, 64, 200, 511, 512, 4096} {
		c, _ := NewLRU(entries)
		ref := refLRU{entries: entries}
		for i, tag := range seq {
			hit := c.Lookup(tag)
			before := ref.stats.Hits
			ref.lookup(tag)
			if hit != (ref.stats.Hits > before) {
				t.Fatalf("seed %d entries %d: look-up %d of %+v hit %v, reference disagrees", seed, entries, i, tag, hit)
			}
		}
		if c.Stats() != ref.stats {
			t.Fatalf("seed %d entries %d: %+v, reference %+v", seed, entries, c.Stats(), ref.stats)
		}
		if c.Stats().Misses < memo.Stats().Misses || c.Stats().Lookups() != memo.Stats().Lookups() {
			t.Errorf("seed %d entries %d: LRU %+v against Memo %+v", seed, entries, c.Stats(), memo.Stats())
		}
		if entries >= memo.Len() && (c.Stats().Misses != memo.Stats().Misses || c.Stats().Evictions != 0) {
			t.Errorf("seed %d entries %d >= %d distinct: LRU %+v, Memo %+v", seed, entries, memo.Len(), c.Stats(), memo.Stats())
		}
	}
}

func TestLRUClear(t *testing.T) {
	c, _ := NewLRU(4)
	a := Tag{QuadX: 6}
	c.Lookup(a)
	c.Clear()
	if c.Len() != 0 || c.Lookup(a) || !c.Lookup(a) {
		t.Fatalf("after Clear")
	}
	if want := (CacheStats{Hits: 1, Misses: 2}); c.Stats() != want {
		t.Fatalf("stats %+v, want %+v", c.Stats(), want)
	}
}

func TestTileSize(t *testing.T) {
	for _, c := range []struct{ samples, w, h int }{
		{1, 128, 128}, {4, 64, 64}, {8, 64, 32}, {16, 32, 32}, {27, 32, 16}, {64, 16, 16},
	} {
		w, h, err := TileSize(c.samples, DefaultTileMemory)
		if err != nil || w != c.w || h != c.h {
			t.Errorf("%d samples: %dx%d %v, want %dx%d", c.samples, w, h, err, c.w, c.h)
		}
	}
	for _, c := range []struct {
		samples, memory int
		field           string
	}{{0, DefaultTileMemory, "tile samples"}, {65, DefaultTileMemory, "tile samples"}, {8, 63, "tile memory"}} {
		if _, _, err := TileSize(c.samples, c.memory); err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("TileSize(%d, %d): %v, want an error naming %s", c.samples, c.memory, err, c.field)
		}
	}
}

func TestTiledModel(t *testing.T) {
	m, err := NewTiledModel(27, DefaultTileMemory, &Memo{}) // 32x16 tiles
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		box  raster.Rect
		want int
	}{
		{raster.Rect{X0: 10, Y0: 5, X1: 70, Y1: 40}, 9}, // x tiles 0..2, y tiles 0..2
		{raster.Rect{X0: 0, Y0: 0, X1: 32, Y1: 16}, 1},
		{raster.Rect{X0: 0, Y0: 0, X1: 33, Y1: 16}, 2},
		{raster.Rect{X0: 31, Y0: 15, X1: 33, Y1: 17}, 4},
		{raster.Rect{X0: -1, Y0: -1, X1: 1, Y1: 1}, 4},
		{raster.Rect{X0: 5, Y0: 5, X1: 5, Y1: 9}, 0},
	} {
		if got := m.BinSpread(c.box); got != c.want {
			t.Errorf("box %+v: bin spread %d, want %d", c.box, got, c.want)
		}
		m.Bin(c.box)
	}
	if m.BinEntries() != 20 || m.MeanBinSpread() != 20.0/6 {
		t.Errorf("bin entries %d mean %v, want 20, 20/6", m.BinEntries(), m.MeanBinSpread())
	}
	a, b := Tag{QuadX: 2}, Tag{QuadX: 4}
	m.BeginTile()
	for i, want := range []bool{false, false, true, true} {
		if got := m.Lookup([]Tag{a, b, a, b}[i]); got != want {
			t.Errorf("tile 1 look-up %d: %v", i, got)
		}
	}
	m.BeginTile() // a new tile starts with an empty cache
	if m.Lookup(a) {
		t.Errorf("tile 2: a hit across tiles")
	}
	if want := (CacheStats{Hits: 2, Misses: 3}); m.Stats() != want || m.Tiles() != 2 {
		t.Errorf("stats %+v tiles %d, want %+v, 2", m.Stats(), m.Tiles(), want)
	}
	if _, err := NewTiledModel(8, DefaultTileMemory, nil); err == nil {
		t.Errorf("nil cache accepted")
	}
}

func TestStatistics(t *testing.T) {
	for _, c := range []struct {
		got, want float64
	}{
		{ShadingRate(10, 20), 2}, {ShadingRate(5, 0), 0},
		{Savings(80, 10), 2}, {Savings(3, 0), 0},
	} {
		if c.got != c.want {
			t.Errorf("%v, want %v", c.got, c.want)
		}
	}

	var b BlurArea
	if b.Mean() != 0 {
		t.Errorf("empty mean %v", b.Mean())
	}
	q := Tag{Prim: 1, QuadX: 4, QuadY: 8}
	b.Add(q, 0, 4, 8)
	b.Add(q, 0, 5, 8)
	b.Add(q, 0, 4, 8) // same pixel again
	b.Add(q, 3, 5, 9)
	b.Add(Tag{Prim: 1, QuadX: 4, QuadY: 10}, 0, 4, 10)
	// Three shading samples touching 2, 1 and 1 pixels.
	if b.ShadingSamples() != 3 || b.PixelPairs() != 4 || b.Mean() != 4.0/3 {
		t.Errorf("samples %d pairs %d mean %v, want 3 4 4/3", b.ShadingSamples(), b.PixelPairs(), b.Mean())
	}
	// A new primitive: the same grid cell is a new shading sample.
	b.Add(Tag{Prim: 2, QuadX: 4, QuadY: 8}, 0, 4, 8)
	b.Add(Tag{Prim: 2, QuadX: 4, QuadY: 8}, 0, 6, 8)
	if b.ShadingSamples() != 4 || b.PixelPairs() != 6 || b.Mean() != 1.5 {
		t.Errorf("after prim 2: samples %d pairs %d mean %v, want 4 6 1.5", b.ShadingSamples(), b.PixelPairs(), b.Mean())
	}
	// No blur, rate 1: every shading sample touches one pixel, whatever the
	// sample count.
	var nb BlurArea
	m := mustMap(t, 9, unitTri, unitTri, exactVP, Options{})
	for py := 0; py < 40; py++ {
		for px := 0; px < 40; px++ {
			for _, off := range [][2]float32{{0.25, 0.25}, {0.75, 0.5}, {0.5, 0.875}} {
				l := m.Index(unitBary(float32(px)+off[0], float32(py)+off[1]))
				nb.Add(l.Taps[0].Tag, int(l.Taps[0].Lane), int32(px), int32(py))
			}
		}
	}
	if nb.ShadingSamples() != 1600 || nb.Mean() != 1 {
		t.Errorf("no blur: %d shading samples, mean %v; want 1600, 1", nb.ShadingSamples(), nb.Mean())
	}
}

func TestMemoSlot(t *testing.T) {
	var m Memo
	seq := []struct {
		tag  Tag
		slot int32
		hit  bool
	}{
		{Tag{Prim: 1, QuadX: 0, QuadY: 0}, 0, false}, {Tag{Prim: 1, QuadX: 2, QuadY: 0}, 1, false}, {Tag{Prim: 1, QuadX: 0, QuadY: 0}, 0, true},
		{Tag{Prim: 2, QuadX: 0, QuadY: 0}, 2, false}, {Tag{Prim: 1, QuadX: 2, QuadY: 0}, 1, true},
	}
	for i, s := range seq {
		if slot, hit := m.Slot(s.tag); slot != s.slot || hit != s.hit {
			t.Fatalf("step %d: Slot(%v) = %d, %v; want %d, %v", i, s.tag, slot, hit, s.slot, s.hit)
		}
	}
	m.Clear()
	if slot, hit := m.Slot(Tag{Prim: 2, QuadX: 0, QuadY: 0}); slot != 0 || hit {
		t.Fatalf("after Clear: Slot = %d, %v; want 0, false", slot, hit)
	}
	if st := m.Stats(); st.Hits != 2 || st.Misses != 4 {
		t.Fatalf("stats %+v, want 2 hits, 4 misses", st)
	}
}

func TestMemoFindAndSampleTags(t *testing.T) {
	var m Memo
	if _, ok := m.Find(Tag{Prim: 1}); ok {
		t.Fatal("Find on an empty Memo found a tag")
	}
	a, b := Tag{Prim: 1, QuadX: 2, QuadY: 4}, Tag{Prim: 1, QuadX: 2, QuadY: 4, Sample: 26}
	m.Slot(a)
	m.Slot(b)
	if sa, ok := m.Find(a); !ok || sa != 0 {
		t.Errorf("Find(a) = %d, %v; want 0, true", sa, ok)
	}
	if sb, ok := m.Find(b); !ok || sb != 1 {
		t.Errorf("Find(b) = %d, %v; want 1, true (a tag's Sample is part of its key)", sb, ok)
	}
	if st := m.Stats(); st.Lookups() != 2 {
		t.Errorf("Find counted look-ups: %+v", st)
	}
}
