package raster

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/samplepattern"
)

// tableCounts are the densities the pattern-table tests run: powers of two and
// one that is not.
var tableCounts = []int{1, 2, 4, 8, 13, 16}

// mustTableConfig returns a configuration of count samples with the table of
// seed attached.
func mustTableConfig(t testing.TB, count int, seed uint64, bounds Rect) Config {
	t.Helper()
	cfg := mustConfig(t, count, bounds)
	p, err := cfg.Samples.WithTable(samplepattern.Generate(seed))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Samples = p
	return cfg
}

func TestWithTable(t *testing.T) {
	tab := samplepattern.Generate(5)
	for _, n := range tableCounts {
		p, _ := PatternFor(n)
		q, err := p.WithTable(tab)
		if err != nil {
			t.Fatalf("count %d: %v", n, err)
		}
		a, b, c, d := q.Extremes()
		wa, wb, wc, wd := tab.Extremes(n)
		if a != wa || b != wb || c != wc || d != wd {
			t.Errorf("count %d: Extremes %d %d %d %d, want the table's %d %d %d %d", n, a, b, c, d, wa, wb, wc, wd)
		}
		// A table attached by hand (no cache) gives the same bounds.
		p.Table = tab
		if a2, b2, c2, d2 := p.Extremes(); a2 != a || b2 != b || c2 != c || d2 != d {
			t.Errorf("count %d: uncached Extremes %d %d %d %d, want %d %d %d %d", n, a2, b2, c2, d2, a, b, c, d)
		}
		// So does a cache left stale by a change of count.
		q.Count = 16
		a3, b3, c3, d3 := q.Extremes()
		if wa, wb, wc, wd := tab.Extremes(16); a3 != wa || b3 != wb || c3 != wc || d3 != wd {
			t.Errorf("count %d -> 16: Extremes %d %d %d %d, want %d %d %d %d", n, a3, b3, c3, d3, wa, wb, wc, wd)
		}
		if r, err := q.WithTable(nil); err != nil || r.Table != nil {
			t.Errorf("WithTable(nil) = %+v, %v: want no table", r.Table, err)
		}
	}
	p, _ := PatternFor(27)
	if _, err := p.WithTable(tab); err == nil || !strings.Contains(err.Error(), "SamplePattern.Count: 27") {
		t.Errorf("27 samples with a table: error %v, want one naming SamplePattern.Count", err)
	}
	bad := *tab
	bad.Off[3][1][4][0] = 200
	p, _ = PatternFor(4)
	if _, err := p.WithTable(&bad); err == nil || !strings.Contains(err.Error(), "Off[3][1][4][0]") {
		t.Errorf("bad table: error %v, want one naming the offset", err)
	}
}

func TestConfigValidateTable(t *testing.T) {
	cfg := mustTableConfig(t, 16, 1, Rect{0, 0, 8, 8})
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	big := cfg
	big.Samples.Count = 17
	if err := big.Validate(); err == nil || !strings.Contains(err.Error(), "Config.Samples.Count: 17") {
		t.Errorf("17 samples with a table: %v", err)
	}
	var tri Triangle
	if Setup([3]geom.ScreenVertex{pv(0, 0), pv(8, 0), pv(0, 8)}, false, &big, &tri) {
		t.Error("Setup accepted 17 samples with a table")
	}
	bad := *cfg.Samples.Table
	bad.Off[0][0][0][1] = 64
	cfg.Samples.Table = &bad
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "Config.Samples.Table") {
		t.Errorf("bad table: %v", err)
	}
}

// TestTableQuadsMatchEdges checks, with pattern tables, TileQuads and the tile
// classes against a brute-force evaluation of every sample at its own
// position (checkTriangle), and that BBox holds every covered sample.
func TestTableQuadsMatchEdges(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		rng := rand.New(rand.NewSource(int64(seed) + 40))
		for iter := 0; iter < 300; iter++ {
			n := tableCounts[iter%len(tableCounts)]
			cfg := mustTableConfig(t, n, seed, Rect{rng.Intn(5) - 2, rng.Intn(5) - 2, 30 + rng.Intn(20), 24 + rng.Intn(20)})
			cfg.TileSize = []int{2, 4, 8, 16}[rng.Intn(4)]
			cfg.QuadOrder = TraversalOrder(rng.Intn(2))
			cfg.TileOrder = TraversalOrder(rng.Intn(2))
			v := randomTriangle(rng, cfg.Bounds)
			var tri Triangle
			if !Setup(v, false, &cfg, &tri) {
				continue
			}
			if err := checkTriangle(&tri, &cfg); err != nil {
				t.Fatalf("seed %d iteration %d (%d samples): %v: vertices %+v", seed, iter, n, err, v)
			}
			if err := checkBBox(&tri, &cfg); err != nil {
				t.Fatalf("seed %d iteration %d (%d samples): %v: vertices %+v", seed, iter, n, err, v)
			}
		}
	}
}

// checkBBox checks that every sample of cfg.Bounds inside the three edges
// (evaluated directly, at the pattern's own position) lies in tri.BBox.
func checkBBox(tri *Triangle, cfg *Config) error {
	b := cfg.Bounds
	for py := b.Y0; py < b.Y1; py++ {
		for px := b.X0; px < b.X1; px++ {
			for s := 0; s < cfg.Samples.Count; s++ {
				x, y := patternPosition(cfg, px, py, s)
				in := tri.Edges[0].Eval(x, y) >= 0 && tri.Edges[1].Eval(x, y) >= 0 && tri.Edges[2].Eval(x, y) >= 0
				if in && !tri.BBox.Contains(px, py) {
					return fmt.Errorf("sample %d of pixel (%d,%d) is inside the edges but outside BBox %+v", s, px, py, tri.BBox)
				}
			}
		}
	}
	return nil
}

// TestTableWatertight: with pattern tables, a mesh covers every sample of its
// interior exactly once, and a fan around a vertex on a sample too.
func TestTableWatertight(t *testing.T) {
	for _, n := range tableCounts {
		for _, seed := range []uint64{1, 2} {
			name := fmt.Sprintf("%dx/seed%d", n, seed)
			rng := rand.New(rand.NewSource(int64(seed)*100 + int64(n)))
			cfg := mustTableConfig(t, n, seed, Rect{0, 0, 72, 56})
			if seed == 2 {
				cfg.TileSize = 4
				cfg.TileOrder, cfg.QuadOrder = ZOrder, ZOrder
			}
			t.Run("grid/"+name, func(t *testing.T) { checkGrid(t, rng, &cfg) })
			t.Run("fan/"+name, func(t *testing.T) { checkFan(t, rng, &cfg, false) })
			t.Run("fan-on-sample/"+name, func(t *testing.T) { checkFan(t, rng, &cfg, true) })
		}
	}
}

// TestTableTileRejectionConservative: a tile that TestTile rejects has no
// sample inside the three edges at any pixel's own position, and the
// rejection is not vacuous (tiles are rejected).
func TestTableTileRejectionConservative(t *testing.T) {
	rng := rand.New(rand.NewSource(77))
	rejected := 0
	for iter := 0; iter < 200; iter++ {
		n := tableCounts[iter%len(tableCounts)]
		cfg := mustTableConfig(t, n, uint64(iter%3+1), Rect{-40, -40, 40, 40})
		cfg.TileSize = []int{2, 4, 8}[rng.Intn(3)]
		v := randomTriangle(rng, Rect{-20, -20, 20, 20})
		var tri Triangle
		if !Setup(v, false, &cfg, &tri) {
			continue
		}
		size := cfg.TileSize
		tx0, ty0, tx1, ty1 := tri.TileRange(&cfg)
		for ty := ty0; ty < ty1; ty++ {
			for tx := tx0; tx < tx1; tx++ {
				if tri.TestTile(&cfg, tx, ty) != TileOutside {
					continue
				}
				rejected++
				for py := ty * size; py < (ty+1)*size; py++ {
					for px := tx * size; px < (tx+1)*size; px++ {
						for s := 0; s < n; s++ {
							if tri.CoversSample(px, py, s) {
								t.Fatalf("iteration %d: tile (%d,%d) rejected, but sample %d of pixel (%d,%d) is covered", iter, tx, ty, s, px, py)
							}
						}
					}
				}
			}
		}
	}
	if rejected == 0 {
		t.Fatal("no tile was rejected: the test checks nothing")
	}
}

// TestTableSamplePosition: positions come from the pixel's own table entry,
// and centroid evaluation picks the covered sample of that pixel closest to
// its centre.
func TestTableSamplePosition(t *testing.T) {
	var tab samplepattern.Table
	for e := range tab.Off {
		for p := range tab.Off[e] {
			for s := range tab.Off[e][p] {
				tab.Off[e][p][s] = [2]uint8{uint8(4 * s), uint8(63 - 4*s)}
			}
		}
	}
	// Pixel (9, 6): pixel 1 of its quad. Sample 2 is closest to the centre
	// here, sample 3 elsewhere.
	e := samplepattern.Entry(9, 6)
	tab.Off[e][1][2] = [2]uint8{31, 32}
	tab.Off[e][1][3] = [2]uint8{0, 0}
	cfg := mustConfig(t, 4, Rect{0, 0, 32, 32})
	p, err := cfg.Samples.WithTable(&tab)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Samples = p
	tri := mustSetup(t, [3]geom.ScreenVertex{pv(0, 0), pv(30, 0), pv(0, 30)}, &cfg, "")
	if x, y := tri.SamplePosition(9, 6, 2); x != 9*256+4*31+2 || y != 6*256+4*32+2 {
		t.Errorf("SamplePosition(9,6,2) = (%d,%d), want (%d,%d)", x, y, 9*256+4*31+2, 6*256+4*32+2)
	}
	if x, y := tri.SamplePosition(8, 6, 3); x != 8*256+4*12+2 || y != 6*256+4*51+2 {
		t.Errorf("SamplePosition(8,6,3) = (%d,%d), want the shared row's (%d,%d)", x, y, 8*256+4*12+2, 6*256+4*51+2)
	}
	// Samples 2 and 3 of pixel 1 covered: centroid is sample 2 of that pixel.
	q := Quad{X: 8, Y: 6}
	q.Coverage.Set(1, 2)
	q.Coverage.Set(1, 3)
	x, y := tri.EvalPosition(&cfg, q, 1, NoPerspective|CentroidFlag)
	if wx, wy := float32(9*256+4*31+2)/256, float32(6*256+4*32+2)/256; x != wx || y != wy {
		t.Errorf("centroid = (%v,%v), want sample 2 at (%v,%v)", x, y, wx, wy)
	}
	// Pixel 0 of the same quad: its sample 3 (offset 12, 51 from the corner:
	// distance^2 (48+2-128)^2 + (204+2-128)^2) is closer than sample 2's.
	q = Quad{X: 8, Y: 6}
	q.Coverage.Set(0, 2)
	q.Coverage.Set(0, 3)
	x, y = tri.EvalPosition(&cfg, q, 0, NoPerspective|CentroidFlag)
	if wx, wy := float32(8*256+4*12+2)/256, float32(6*256+4*51+2)/256; x != wx || y != wy {
		t.Errorf("pixel 0 centroid = (%v,%v), want sample 3 at (%v,%v)", x, y, wx, wy)
	}
	// Depth is evaluated at the pixel's own position.
	if got, want := tri.SampleDepth(&cfg, 9, 6, 3), tri.depthAt(9*256+2, 6*256+2); got != want {
		t.Errorf("SampleDepth(9,6,3) = %v, want %v", got, want)
	}
}

// TestTableZeroAlloc: rasterizing with a table allocates nothing when the
// output slices have room.
func TestTableZeroAlloc(t *testing.T) {
	cfg := mustTableConfig(t, 13, 9, Rect{0, 0, 128, 128})
	tiles := make([]TilePos, 0, 1024)
	quads := make([]Quad, 0, 64)
	var tri Triangle
	v := [3]geom.ScreenVertex{pv(3.3, 1.7), pv(90.1, 20.6), pv(10.2, 70.9)}
	allocs := testing.AllocsPerRun(10, func() {
		if !Setup(v, false, &cfg, &tri) {
			t.Fatal("Setup rejected")
		}
		tiles = tri.Tiles(&cfg, tiles[:0])
		for _, tp := range tiles {
			quads = tri.TileQuads(&cfg, tp.X, tp.Y, quads[:0])
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per triangle, want 0", allocs)
	}
}
