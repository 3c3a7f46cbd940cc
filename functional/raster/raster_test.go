package raster

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

func TestPatternFor(t *testing.T) {
	tests := []struct {
		count   int
		wantErr bool
		check   map[int][2]int16 // spot checks, 1/256 pixel
	}{
		{1, false, map[int][2]int16{0: {0, 0}}},
		{2, false, map[int][2]int16{0: {64, 64}, 1: {-64, -64}}},
		{4, false, map[int][2]int16{0: {-32, -96}, 1: {96, -32}, 2: {-96, 32}, 3: {32, 96}}},
		{8, false, map[int][2]int16{0: {16, -48}, 3: {-48, -80}, 7: {112, -112}}},
		{16, false, map[int][2]int16{0: {16, 16}, 9: {0, -112}, 12: {-128, 0}, 15: {-112, -128}}},
		// Hammersley: x = floor((2i+1)*128/n) - 128; y from i bit-reversed in
		// ceil(log2 n) bits, (2r+1)*128/2^m - 128.
		{3, false, map[int][2]int16{0: {-86, -96}, 1: {0, 32}, 2: {85, -32}}},
		{27, false, map[int][2]int16{0: {-124, -124}, 1: {-114, 4}, 13: {0, 52}, 26: {123, -36}}},
		{64, false, map[int][2]int16{0: {-126, -126}, 1: {-122, 2}, 63: {126, 126}}},
		{0, true, nil},
		{65, true, nil},
		{-4, true, nil},
	}
	for _, tc := range tests {
		p, err := PatternFor(tc.count)
		if (err != nil) != tc.wantErr {
			t.Errorf("PatternFor(%d): err = %v, want error %v", tc.count, err, tc.wantErr)
			continue
		}
		if tc.wantErr {
			continue
		}
		if p.Count != tc.count {
			t.Errorf("PatternFor(%d).Count = %d", tc.count, p.Count)
		}
		for s, want := range tc.check {
			if p.Offsets[s] != want {
				t.Errorf("PatternFor(%d).Offsets[%d] = %v, want %v", tc.count, s, p.Offsets[s], want)
			}
		}
	}
}

// TestPatternsDistinct checks every count from 1 to MaxSamples: distinct
// positions inside the pixel, zero offsets past the count, a valid Config.
func TestPatternsDistinct(t *testing.T) {
	for n := 1; n <= MaxSamples; n++ {
		p, err := PatternFor(n)
		if err != nil {
			t.Fatalf("PatternFor(%d): %v", n, err)
		}
		if p.Count != n {
			t.Errorf("PatternFor(%d).Count = %d", n, p.Count)
		}
		seen := map[[2]int16]bool{}
		for s := 0; s < n; s++ {
			o := p.Offsets[s]
			if o[0] < MinOffset || o[0] > MaxOffset || o[1] < MinOffset || o[1] > MaxOffset {
				t.Errorf("PatternFor(%d): sample %d at %v is outside the pixel", n, s, o)
			}
			if seen[o] {
				t.Errorf("PatternFor(%d): duplicate position %v", n, o)
			}
			seen[o] = true
		}
		for s := n; s < MaxSamples; s++ {
			if p.Offsets[s] != ([2]int16{}) {
				t.Errorf("PatternFor(%d): unused offset %d is %v", n, s, p.Offsets[s])
			}
		}
		cfg := Config{Samples: p}
		if err := cfg.Validate(); err != nil {
			t.Errorf("PatternFor(%d) does not validate: %v", n, err)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	good := mustConfig(t, 4, Rect{0, 0, 64, 64})
	tests := []struct {
		name   string
		modify func(c *Config)
		want   string // substring of the error; "" = valid
		// setupRejects: Setup checks the fields it depends on (count, tile size).
		setupRejects bool
	}{
		{"good", func(c *Config) {}, "", false},
		{"tile 0 means default", func(c *Config) { c.TileSize = 0 }, "", false},
		{"tile 2", func(c *Config) { c.TileSize = 2 }, "", false},
		{"tile 256", func(c *Config) { c.TileSize = 256 }, "", false},
		{"zorder", func(c *Config) { c.TileOrder, c.QuadOrder = ZOrder, ZOrder }, "", false},
		{"empty bounds", func(c *Config) { c.Bounds = Rect{5, 5, 5, 5} }, "", false},
		{"reversed depth range", func(c *Config) { c.MinZ, c.MaxZ = 1, 0 }, "", false},
		{"count 3", func(c *Config) { c.Samples.Count = 3 }, "", false},
		{"count 64", func(c *Config) { c.Samples.Count = 64 }, "", false},
		{"count 0", func(c *Config) { c.Samples.Count = 0 }, "Config.Samples.Count: 0", true},
		{"count 65", func(c *Config) { c.Samples.Count = 65 }, "Config.Samples.Count: 65", true},
		{"offset 127", func(c *Config) { c.Samples.Offsets[2][1] = 127 }, "", false},
		{"offset 128", func(c *Config) { c.Samples.Offsets[2][1] = 128 }, "Config.Samples.Offsets[2][1]: 128", false},
		{"offset -129", func(c *Config) { c.Samples.Offsets[0][0] = -129 }, "Config.Samples.Offsets[0][0]: -129", false},
		{"tile 12", func(c *Config) { c.TileSize = 12 }, "Config.TileSize: 12", true},
		{"tile 1", func(c *Config) { c.TileSize = 1 }, "Config.TileSize: 1", true},
		{"tile 512", func(c *Config) { c.TileSize = 512 }, "Config.TileSize: 512", true},
		{"tile order", func(c *Config) { c.TileOrder = 2 }, "Config.TileOrder", false},
		{"quad order", func(c *Config) { c.QuadOrder = 7 }, "Config.QuadOrder", false},
		{"inverted bounds", func(c *Config) { c.Bounds = Rect{5, 0, 4, 10} }, "Config.Bounds", false},
		{"nan depth", func(c *Config) { c.MaxZ = float32(math.NaN()) }, "Config.MinZ/MaxZ", false},
	}
	for _, tc := range tests {
		c := good
		tc.modify(&c)
		err := c.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: unexpected error %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
		if tc.setupRejects {
			var tri Triangle
			if Setup([3]geom.ScreenVertex{pv(0, 0), pv(8, 0), pv(0, 8)}, false, &c, &tri) {
				t.Errorf("%s: Setup accepted an invalid configuration", tc.name)
			}
		}
	}
}

func TestSetupEdges(t *testing.T) {
	cfg := mustConfig(t, 1, Rect{0, 0, 64, 64})
	// (0,0), (4,0), (0,4) pixels: clockwise on screen (A > 0). Edge k is opposite vertex k.
	want := [3]Edge{
		{A: -1024, B: -1024, C: 1048576 - 1}, // hypotenuse: neither top nor left, biased
		{A: 1024, B: 0, C: 0},                // x = 0: left edge
		{A: 0, B: 1024, C: 0},                // y = 0: top edge
	}
	tri := mustSetup(t, [3]geom.ScreenVertex{pv(0, 0), pv(4, 0), pv(0, 4)}, &cfg, "")
	if tri.Edges != want {
		t.Errorf("CW edges = %+v, want %+v", tri.Edges, want)
	}
	if tri.Area != 1<<20 || tri.BBox != (Rect{0, 0, 4, 4}) {
		t.Errorf("Area = %d, BBox = %+v; want 2^20, {0 0 4 4}", tri.Area, tri.BBox)
	}
	// The other winding yields the same edges (permuted with the vertices).
	if !Setup([3]geom.ScreenVertex{pv(0, 0), pv(0, 4), pv(4, 0)}, true, &cfg, &tri) {
		t.Fatal("Setup rejected the CCW triangle")
	}
	if tri.Edges != [3]Edge{want[0], want[2], want[1]} || !tri.BackFacing || tri.Area != 1<<20 {
		t.Errorf("CCW edges = %+v back=%v area=%d", tri.Edges, tri.BackFacing, tri.Area)
	}
	// Edge functions are positive at the opposite vertex.
	for k := 0; k < 3; k++ {
		v := tri.V[k]
		if e := tri.Edges[k].Eval(int64(v.X), int64(v.Y)); e <= 0 {
			t.Errorf("E_%d at vertex %d = %d, want > 0", k, k, e)
		}
	}
}

func TestSetupRejects(t *testing.T) {
	cfg := mustConfig(t, 1, Rect{0, 0, 64, 64})
	bad := cfg
	bad.Samples.Count = 65
	tests := []struct {
		name string
		v    [3]geom.ScreenVertex
		cfg  *Config
	}{
		{"zero area", [3]geom.ScreenVertex{pv(0, 0), pv(4, 4), pv(8, 8)}, &cfg},
		{"repeated vertex", [3]geom.ScreenVertex{pv(1, 1), pv(1, 1), pv(5, 8)}, &cfg},
		{"outside bounds", [3]geom.ScreenVertex{pv(70, 0), pv(80, 0), pv(70, 10)}, &cfg},
		{"left of bounds", [3]geom.ScreenVertex{pv(-10, 0), pv(-1, 0), pv(-10, 10)}, &cfg},
		// Between the centres of pixels (2,2) and (3,2): no sample in the bounding box.
		{"no sample in box", [3]geom.ScreenVertex{pv(2.6, 2.0), pv(3.4, 2.0), pv(2.6, 2.4)}, &cfg},
		{"beyond the snap limit", [3]geom.ScreenVertex{uv(0, 0), uv(geom.SnapLimit+1, 0), uv(0, 256)}, &cfg},
		{"invalid config", [3]geom.ScreenVertex{pv(0, 0), pv(8, 0), pv(0, 8)}, &bad},
	}
	for _, tc := range tests {
		var tri Triangle
		if Setup(tc.v, false, tc.cfg, &tri) {
			t.Errorf("%s: Setup accepted, BBox %+v", tc.name, tri.BBox)
		}
	}
}

type pix struct{ x, y int }

// coveredPixels returns the pixels with any covered sample, from TileQuads.
func coveredPixels(t *testing.T, v [3]geom.ScreenVertex, cfg *Config) []pix {
	t.Helper()
	var tri Triangle
	if !Setup(v, false, cfg, &tri) {
		return nil
	}
	var out []pix
	var quads []Quad
	for _, tp := range tri.Tiles(cfg, nil) {
		for _, q := range tri.TileQuads(cfg, tp.X, tp.Y, quads[:0]) {
			m := q.Coverage.Pixels()
			for p := 0; p < 4; p++ {
				if m>>p&1 != 0 {
					out = append(out, pix{int(q.X) + p&1, int(q.Y) + p>>1})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].y != out[j].y {
			return out[i].y < out[j].y
		}
		return out[i].x < out[j].x
	})
	// Cross-check with the direct edge evaluation.
	for py := cfg.Bounds.Y0; py < cfg.Bounds.Y1; py++ {
		for px := cfg.Bounds.X0; px < cfg.Bounds.X1; px++ {
			in := false
			for _, o := range out {
				in = in || o == pix{px, py}
			}
			if tri.CoversSample(px, py, 0) != in {
				t.Errorf("pixel (%d,%d): CoversSample %v, TileQuads %v", px, py, !in, in)
			}
		}
	}
	return out
}

func TestFillRule(t *testing.T) {
	cfg := mustConfig(t, 1, Rect{0, 0, 16, 16})
	tests := []struct {
		name string
		v    [3]geom.ScreenVertex
		want []pix
	}{
		// Square [0,4]^2 split along the diagonal through the pixel centres (i+.5, i+.5).
		// Upper-right triangle: the diagonal is its left edge, so it owns the centres on it.
		{"diagonal, left side owns it", [3]geom.ScreenVertex{pv(0, 0), pv(4, 0), pv(4, 4)},
			[]pix{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {1, 1}, {2, 1}, {3, 1}, {2, 2}, {3, 2}, {3, 3}}},
		{"diagonal, right side does not", [3]geom.ScreenVertex{pv(0, 0), pv(4, 4), pv(0, 4)},
			[]pix{{0, 1}, {0, 2}, {1, 2}, {0, 3}, {1, 3}, {2, 3}}},
		// Vertices on pixel centres: top and left edges include their centres, the
		// hypotenuse (x+y = 4) excludes them, so do the vertices on it.
		{"vertices on centres", [3]geom.ScreenVertex{pv(0.5, 0.5), pv(3.5, 0.5), pv(0.5, 3.5)},
			[]pix{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {0, 2}}},
		// Shared horizontal edge y = 2.5 through centres: the triangle below (top edge) owns it.
		{"horizontal edge, triangle above", [3]geom.ScreenVertex{pv(2, 0), pv(4, 2.5), pv(0, 2.5)},
			[]pix{{1, 1}, {2, 1}}},
		{"horizontal edge, triangle below", [3]geom.ScreenVertex{pv(0, 2.5), pv(4, 2.5), pv(2, 5)},
			[]pix{{0, 2}, {1, 2}, {2, 2}, {3, 2}, {1, 3}, {2, 3}}},
		// Shared vertical edge x = 2.5 through centres: the triangle on the right (left edge) owns it.
		{"vertical edge, triangle left", [3]geom.ScreenVertex{pv(2.5, 0), pv(2.5, 4), pv(0, 2)},
			[]pix{{1, 1}, {1, 2}}},
		{"vertical edge, triangle right", [3]geom.ScreenVertex{pv(2.5, 0), pv(5, 2), pv(2.5, 4)},
			[]pix{{2, 0}, {2, 1}, {3, 1}, {2, 2}, {3, 2}, {2, 3}}},
		// The same triangles with the other winding cover the same pixels.
		{"vertical edge, triangle right, CCW", [3]geom.ScreenVertex{pv(2.5, 0), pv(2.5, 4), pv(5, 2)},
			[]pix{{2, 0}, {2, 1}, {3, 1}, {2, 2}, {3, 2}, {2, 3}}},
		{"horizontal edge, triangle below, CCW", [3]geom.ScreenVertex{pv(0, 2.5), pv(2, 5), pv(4, 2.5)},
			[]pix{{0, 2}, {1, 2}, {2, 2}, {3, 2}, {1, 3}, {2, 3}}},
	}
	for _, tc := range tests {
		got := coveredPixels(t, tc.v, &cfg)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: covered %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestMSAACoverage(t *testing.T) {
	tests := []struct {
		name    string
		samples int
		bounds  Rect
		v       [3]geom.ScreenVertex
		want    []Quad
	}{
		// Half of pixel (0,0) below the anti-diagonal x+y < 256: 4x samples 0 (96,32)
		// and 2 (32,160) are inside, 1 (224,96) and 3 (160,224) outside.
		{"4x half pixel", 4, Rect{0, 0, 8, 8}, [3]geom.ScreenVertex{uv(0, 0), uv(256, 0), uv(0, 256)},
			[]Quad{{0, 0, packed(0x5, 4)}}},
		// x >= 256, y >= 256, x+y < 1024: pixel (1,1) full, (2,1) and (1,2) samples 0 and 2.
		{"4x three pixels", 4, Rect{0, 0, 8, 8}, [3]geom.ScreenVertex{uv(256, 256), uv(768, 256), uv(256, 768)},
			[]Quad{{0, 0, packed(0xF000, 4)}, {2, 0, packed(0x0500, 4)}, {0, 2, packed(0x0050, 4)}}},
		// Vertical right edge x = 128 (the pixel centre line): 16x samples with dx < 0.
		{"16x right edge through the centre", 16, Rect{0, 0, 1, 1},
			[3]geom.ScreenVertex{uv(-2560, -2560), uv(128, -2560), uv(128, 2560)},
			[]Quad{{0, 0, packed(0x9D16, 16)}}},
		// The mirror image: a left edge at x = 128 includes the samples on it (dx >= 0).
		{"16x left edge through the centre", 16, Rect{0, 0, 1, 1},
			[3]geom.ScreenVertex{uv(128, -2560), uv(2560, -2560), uv(128, 2560)},
			[]Quad{{0, 0, packed(0x62E9, 16)}}},
		// 2x: samples (4,4) -> (192,192) and (-4,-4) -> (64,64); the triangle x+y < 256 holds only the second.
		{"2x", 2, Rect{0, 0, 4, 4}, [3]geom.ScreenVertex{uv(0, 0), uv(256, 0), uv(0, 256)},
			[]Quad{{0, 0, packed(0x2, 2)}}},
		// 8x, a left edge at x = 384 (the centre line of pixel (1,0), quad pixel 1,
		// bits 8..15) includes the samples with dx >= 0: 0 (1), 2 (5), 6 (3), 7 (7).
		{"8x", 8, Rect{0, 0, 2, 1}, [3]geom.ScreenVertex{uv(384, -2560), uv(2560, -2560), uv(384, 2560)},
			[]Quad{{0, 0, packed(0xC500, 8)}}},
	}
	for _, tc := range tests {
		cfg := mustConfig(t, tc.samples, tc.bounds)
		var tri Triangle
		if !Setup(tc.v, false, &cfg, &tri) {
			t.Errorf("%s: Setup rejected", tc.name)
			continue
		}
		var got []Quad
		for _, tp := range tri.Tiles(&cfg, nil) {
			got = tri.TileQuads(&cfg, tp.X, tp.Y, got)
		}
		if fmt.Sprintf("%x", got) != fmt.Sprintf("%x", tc.want) {
			t.Errorf("%s: quads %x, want %x", tc.name, got, tc.want)
		}
	}
}

func TestScissor(t *testing.T) {
	cfg := mustConfig(t, 4, Rect{3, 2, 7, 5})
	tri := mustSetup(t, [3]geom.ScreenVertex{pv(-20, -20), pv(40, -20), pv(-20, 40)}, &cfg, "")
	if tri.BBox != cfg.Bounds {
		t.Errorf("BBox = %+v, want the bounds %+v", tri.BBox, cfg.Bounds)
	}
	var got []Quad
	for _, tp := range tri.Tiles(&cfg, nil) {
		got = tri.TileQuads(&cfg, tp.X, tp.Y, got)
	}
	// Pixels x 3..6, y 2..4: quads (2,2) (4,2) (6,2) (2,4) (4,4) (6,4).
	want := []Quad{
		{2, 2, packed(0xF0F0, 4)}, {4, 2, packed(0xFFFF, 4)}, {6, 2, packed(0x0F0F, 4)},
		{2, 4, packed(0x00F0, 4)}, {4, 4, packed(0x00FF, 4)}, {6, 4, packed(0x000F, 4)},
	}
	if fmt.Sprintf("%x", got) != fmt.Sprintf("%x", want) {
		t.Errorf("quads %x, want %x", got, want)
	}
	// A tile straddling the scissor is never TileInside.
	if c := tri.TestTile(&cfg, 0, 0); c != TilePartial {
		t.Errorf("tile (0,0) = %v, want partial", c)
	}
	if c := tri.TestTile(&cfg, 1, 0); c != TileOutside {
		t.Errorf("tile (1,0) = %v, want outside", c)
	}
}

// TestWatertight rasterizes seeded random meshes that tile a region exactly and
// checks that every sample inside is covered exactly once and none outside.
func TestWatertight(t *testing.T) {
	for _, samples := range []int{1, 4, 16, 27, 64} {
		for seed := int64(1); seed <= 3; seed++ {
			for _, tile := range []int{8, 4, 16} {
				name := fmt.Sprintf("%dx/seed%d/tile%d", samples, seed, tile)
				rng := rand.New(rand.NewSource(seed*100 + int64(samples)))
				cfg := mustConfig(t, samples, Rect{0, 0, 72, 56})
				cfg.TileSize = tile
				if seed == 2 {
					cfg.TileOrder, cfg.QuadOrder = ZOrder, ZOrder
				}
				t.Run("grid/"+name, func(t *testing.T) { checkGrid(t, rng, &cfg) })
				t.Run("fan/"+name, func(t *testing.T) { checkFan(t, rng, &cfg, false) })
				t.Run("fan-on-sample/"+name, func(t *testing.T) { checkFan(t, rng, &cfg, true) })
			}
		}
	}
}

// shuffleWinding returns the triangle with a random rotation and, half of the
// time, the opposite winding: coverage must not depend on either.
func shuffleWinding(rng *rand.Rand, v [3]geom.ScreenVertex) [3]geom.ScreenVertex {
	r := rng.Intn(3)
	v = [3]geom.ScreenVertex{v[r], v[(r+1)%3], v[(r+2)%3]}
	if rng.Intn(2) == 0 {
		v[1], v[2] = v[2], v[1]
	}
	return v
}

func checkGrid(t *testing.T, rng *rand.Rand, cfg *Config) {
	// A rectangle whose sides are not on the sample lattice, cut into
	// 12x8 cells of 5x6 pixels; inner vertices jittered by up to an eighth of a cell (the cells stay convex),
	// boundary vertices only along the boundary.
	const nx, ny, cw, ch = 12, 8, 5 * 256, 6 * 256
	x0, y0 := int32(3*256+37), int32(2*256+101)
	var vert [ny + 1][nx + 1]geom.ScreenVertex
	for j := 0; j <= ny; j++ {
		for i := 0; i <= nx; i++ {
			x, y := x0+int32(i)*cw, y0+int32(j)*ch
			if i > 0 && i < nx {
				x += int32(rng.Intn(cw/4+1) - cw/8)
			}
			if j > 0 && j < ny {
				y += int32(rng.Intn(ch/4+1) - ch/8)
			}
			vert[j][i] = uv(x, y)
		}
	}
	g := newGrid(cfg.Bounds, cfg.Samples.Count)
	for j := 0; j < ny; j++ {
		for i := 0; i < nx; i++ {
			a, b, c, d := vert[j][i], vert[j][i+1], vert[j+1][i+1], vert[j+1][i]
			tris := [2][3]geom.ScreenVertex{{a, b, c}, {a, c, d}}
			if rng.Intn(2) == 0 {
				tris = [2][3]geom.ScreenVertex{{a, b, d}, {b, c, d}}
			}
			for _, v := range tris {
				var tri Triangle
				if Setup(shuffleWinding(rng, v), false, cfg, &tri) {
					g.rasterize(t, &tri, cfg)
				}
			}
		}
	}
	x1, y1 := int64(x0)+nx*cw, int64(y0)+ny*ch
	for py := g.b.Y0; py < g.b.Y1; py++ {
		for px := g.b.X0; px < g.b.X1; px++ {
			for s := 0; s < g.n; s++ {
				sx, sy := patternPosition(cfg, px, py, s)
				want := uint8(0)
				if sx > int64(x0) && sx < x1 && sy > int64(y0) && sy < y1 {
					want = 1
				}
				if got := *g.at(px, py, s); got != want {
					t.Fatalf("sample %d of pixel (%d,%d) covered %d times, want %d", s, px, py, got, want)
				}
			}
		}
	}
}

func checkFan(t *testing.T, rng *rand.Rand, cfg *Config, centreOnSample bool) {
	// A convex polygon around a centre vertex, fanned from the centre.
	const n = 13
	cx, cy := int64(36*256+rng.Intn(256)), int64(28*256+rng.Intn(256))
	if centreOnSample {
		s := rng.Intn(cfg.Samples.Count)
		cx, cy = patternPosition(cfg, 36, 28, s)
	}
	var ring [n][2]int64
	for i := 0; i < n; i++ {
		// Angles strictly increasing (clockwise on screen), radius 10..24 pixels.
		a := (float64(i) + 0.8*rng.Float64()) / n * 2 * 3.141592653589793
		r := 2560 + float64(rng.Intn(14*256))
		ring[i] = [2]int64{cx + int64(r*math.Cos(a)), cy + int64(r*math.Sin(a))}
	}
	g := newGrid(cfg.Bounds, cfg.Samples.Count)
	c := uv(int32(cx), int32(cy))
	for i := 0; i < n; i++ {
		p, q := ring[i], ring[(i+1)%n]
		v := shuffleWinding(rng, [3]geom.ScreenVertex{c, uv(int32(p[0]), int32(p[1])), uv(int32(q[0]), int32(q[1]))})
		var tri Triangle
		if Setup(v, false, cfg, &tri) {
			g.rasterize(t, &tri, cfg)
		}
	}
	// The union is the star-shaped polygon ring[0..n); a sample strictly inside
	// every fan triangle's outer edge half-plane and the sector is inside it. We
	// classify each sample exactly by the fan triangle whose sector contains it.
	for py := g.b.Y0; py < g.b.Y1; py++ {
		for px := g.b.X0; px < g.b.X1; px++ {
			for s := 0; s < g.n; s++ {
				sx, sy := patternPosition(cfg, px, py, s)
				inside, onBoundary := false, false
				if sx == cx && sy == cy {
					inside = true
				}
				for i := 0; i < n && !inside; i++ {
					p, q := ring[i], ring[(i+1)%n]
					// Orientation of (centre, p, sample), (centre, sample, q), (p, q, sample).
					e1 := cross(cx, cy, p[0], p[1], sx, sy)
					e2 := cross(cx, cy, sx, sy, q[0], q[1])
					e3 := cross(p[0], p[1], q[0], q[1], sx, sy)
					if e1 >= 0 && e2 >= 0 {
						if e3 > 0 {
							inside = true
						} else if e3 == 0 {
							onBoundary = true
						}
					}
				}
				got := *g.at(px, py, s)
				switch {
				case inside && got != 1:
					t.Fatalf("sample %d of pixel (%d,%d) inside the fan covered %d times", s, px, py, got)
				case !inside && !onBoundary && got != 0:
					t.Fatalf("sample %d of pixel (%d,%d) outside the fan covered %d times", s, px, py, got)
				case got > 1:
					t.Fatalf("sample %d of pixel (%d,%d) covered %d times", s, px, py, got)
				}
			}
		}
	}
}

// cross is the doubled signed area of (a, b, c) (> 0: clockwise on screen).
func cross(ax, ay, bx, by, cx, cy int64) int64 { return (bx-ax)*(cy-ay) - (by-ay)*(cx-ax) }

// randomTriangle returns a seeded random triangle around the area of bounds,
// sometimes far larger, sometimes tiny.
func randomTriangle(rng *rand.Rand, b Rect) [3]geom.ScreenVertex {
	var v [3]geom.ScreenVertex
	scale := []int{4, 16, 64, 400}[rng.Intn(4)]
	ox, oy := (b.X0+rng.Intn(b.X1-b.X0+1))*256, (b.Y0+rng.Intn(b.Y1-b.Y0+1))*256
	for i := range v {
		v[i] = uv(int32(ox+rng.Intn(2*scale*256+1)-scale*256), int32(oy+rng.Intn(2*scale*256+1)-scale*256))
	}
	return v
}

// TestQuadsMatchEdges checks TileQuads against CoversSample, and the tile
// classification against the covered samples, on seeded random triangles.
func TestQuadsMatchEdges(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for iter := 0; iter < 600; iter++ {
		samples := []int{1, 2, 4, 8, 16, 3, 27, 64}[iter%8]
		cfg := mustConfig(t, samples, Rect{rng.Intn(5), rng.Intn(5), 30 + rng.Intn(20), 24 + rng.Intn(20)})
		cfg.TileSize = []int{2, 4, 8, 16}[rng.Intn(4)]
		cfg.QuadOrder = TraversalOrder(rng.Intn(2))
		cfg.TileOrder = TraversalOrder(rng.Intn(2))
		cfg.Samples.Offsets[rng.Intn(samples)] = [2]int16{int16(rng.Intn(256) - 128), int16(rng.Intn(256) - 128)} // a custom pattern
		v := randomTriangle(rng, cfg.Bounds)
		var tri Triangle
		if !Setup(v, false, &cfg, &tri) {
			continue
		}
		if err := checkTriangle(&tri, &cfg); err != nil {
			t.Fatalf("iteration %d: %v: vertices %+v cfg %+v", iter, err, v, cfg)
		}
	}
}

// checkTriangle compares every tile's class and quads with a brute-force
// evaluation of every sample.
func checkTriangle(tri *Triangle, cfg *Config) error {
	n := cfg.Samples.Count
	size := cfg.TileSize
	if size == 0 {
		size = DefaultTileSize
	}
	tx0, ty0, tx1, ty1 := tri.TileRange(cfg)
	listed := map[[2]int]TileClass{}
	for _, tp := range tri.Tiles(cfg, nil) {
		listed[[2]int{tp.X, tp.Y}] = tp.Class
	}
	var quads []Quad
	for ty := ty0 - 1; ty <= ty1; ty++ {
		for tx := tx0 - 1; tx <= tx1; tx++ {
			class := tri.TestTile(cfg, tx, ty)
			if l, ok := listed[[2]int{tx, ty}]; ok != (class != TileOutside) || (ok && l != class) {
				return fmt.Errorf("tile (%d,%d): Tiles says %v (listed %v), TestTile %v", tx, ty, l, ok, class)
			}
			// Brute force over the tile.
			want := map[[2]int]SampleMask{}
			all, any := true, false
			for py := ty * size; py < (ty+1)*size; py++ {
				for px := tx * size; px < (tx+1)*size; px++ {
					for s := 0; s < n; s++ {
						if tri.CoversSample(px, py, s) {
							any = true
							p := px&1 + 2*(py&1)
							m := want[[2]int{px &^ 1, py &^ 1}]
							m.Set(p, s)
							want[[2]int{px &^ 1, py &^ 1}] = m
						} else {
							all = false
						}
					}
				}
			}
			if class == TileOutside && any {
				return fmt.Errorf("tile (%d,%d) TileOutside but has covered samples", tx, ty)
			}
			// With a pattern table the inside verdict is conservative.
			if class == TileInside && !all || cfg.Samples.Table == nil && class != TileInside && all {
				return fmt.Errorf("tile (%d,%d) class %v but all-covered = %v", tx, ty, class, all)
			}
			quads = tri.TileQuads(cfg, tx, ty, quads[:0])
			if len(quads) != len(want) {
				return fmt.Errorf("tile (%d,%d): %d quads, want %d", tx, ty, len(quads), len(want))
			}
			for _, q := range quads {
				if want[[2]int{int(q.X), int(q.Y)}] != q.Coverage {
					return fmt.Errorf("tile (%d,%d) quad (%d,%d): coverage %#x, want %#x", tx, ty, q.X, q.Y, q.Coverage, want[[2]int{int(q.X), int(q.Y)}])
				}
			}
			if err := checkQuadOrder(quads, cfg.QuadOrder, tx*size, ty*size); err != nil {
				return fmt.Errorf("tile (%d,%d): %v", tx, ty, err)
			}
		}
	}
	return nil
}

func morton(x, y int) int {
	r := 0
	for b := 0; b < 16; b++ {
		r |= (x>>b&1)<<(2*b) | (y>>b&1)<<(2*b+1)
	}
	return r
}

func checkQuadOrder(q []Quad, order TraversalOrder, ox, oy int) error {
	for i := 1; i < len(q); i++ {
		a, b := q[i-1], q[i]
		var less bool
		if order == RowMajor {
			less = a.Y < b.Y || (a.Y == b.Y && a.X < b.X)
		} else {
			less = morton((int(a.X)-ox)/2, (int(a.Y)-oy)/2) < morton((int(b.X)-ox)/2, (int(b.Y)-oy)/2)
		}
		if !less {
			return fmt.Errorf("quads %d and %d out of %v order: %+v %+v", i-1, i, order, a, b)
		}
	}
	return nil
}

func TestTraversalOrders(t *testing.T) {
	big := [3]geom.ScreenVertex{pv(-100, -100), pv(300, -100), pv(-100, 300)}
	tests := []struct {
		name   string
		bounds Rect
		order  TraversalOrder
		want   []TilePos
	}{
		{"row major", Rect{0, 0, 24, 16}, RowMajor, []TilePos{
			{0, 0, TileInside}, {1, 0, TileInside}, {2, 0, TileInside},
			{0, 1, TileInside}, {1, 1, TileInside}, {2, 1, TileInside}}},
		{"z order", Rect{0, 0, 24, 16}, ZOrder, []TilePos{
			{0, 0, TileInside}, {1, 0, TileInside}, {0, 1, TileInside}, {1, 1, TileInside},
			{2, 0, TileInside}, {2, 1, TileInside}}},
		// Relative to the range's first tile (1, 1); partial tiles at the cut edges.
		{"z order offset", Rect{8, 12, 40, 24}, ZOrder, []TilePos{
			{1, 1, TilePartial}, {2, 1, TilePartial}, {1, 2, TileInside}, {2, 2, TileInside},
			{3, 1, TilePartial}, {4, 1, TilePartial}, {3, 2, TileInside}, {4, 2, TileInside}}},
	}
	for _, tc := range tests {
		cfg := mustConfig(t, 4, tc.bounds)
		cfg.TileOrder = tc.order
		tri := mustSetup(t, big, &cfg, tc.name)
		if got := tri.Tiles(&cfg, nil); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: tiles %v, want %v", tc.name, got, tc.want)
		}
	}

	// Quads of one tile.
	quadTests := []struct {
		name   string
		bounds Rect
		order  TraversalOrder
		want   string
	}{
		{"full tile row major", Rect{0, 0, 8, 8}, RowMajor,
			"(0,0) (2,0) (4,0) (6,0) (0,2) (2,2) (4,2) (6,2) (0,4) (2,4) (4,4) (6,4) (0,6) (2,6) (4,6) (6,6)"},
		{"full tile z order", Rect{0, 0, 8, 8}, ZOrder,
			"(0,0) (2,0) (0,2) (2,2) (4,0) (6,0) (4,2) (6,2) (0,4) (2,4) (0,6) (2,6) (4,4) (6,4) (4,6) (6,6)"},
		// Quad coordinates relative to the tile, not to the cut rectangle.
		{"cut tile z order", Rect{2, 0, 8, 6}, ZOrder,
			"(2,0) (2,2) (4,0) (6,0) (4,2) (6,2) (2,4) (4,4) (6,4)"},
		{"cut tile row major", Rect{3, 1, 8, 6}, RowMajor,
			"(2,0) (4,0) (6,0) (2,2) (4,2) (6,2) (2,4) (4,4) (6,4)"},
	}
	for _, tc := range quadTests {
		cfg := mustConfig(t, 1, tc.bounds)
		cfg.QuadOrder = tc.order
		tri := mustSetup(t, big, &cfg, tc.name)
		var s []string
		for _, q := range tri.TileQuads(&cfg, 0, 0, nil) {
			s = append(s, fmt.Sprintf("(%d,%d)", q.X, q.Y))
		}
		if got := strings.Join(s, " "); got != tc.want {
			t.Errorf("%s: quads %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestMortonWalk(t *testing.T) {
	for _, r := range []Rect{{0, 0, 3, 5}, {0, 0, 1, 100}, {0, 0, 100, 1}, {2, 3, 7, 4}, {5, 1, 6, 9}, {0, 0, 16, 16}, {1, 1, 1, 5}} {
		var want [][2]int
		for y := r.Y0; y < r.Y1; y++ {
			for x := r.X0; x < r.X1; x++ {
				want = append(want, [2]int{x, y})
			}
		}
		sort.Slice(want, func(i, j int) bool { return morton(want[i][0], want[i][1]) < morton(want[j][0], want[j][1]) })
		var got [][2]int
		var m MortonWalk
		m.Init(r.X0, r.Y0, r.X1, r.Y1)
		for {
			x, y, ok := m.Next()
			if !ok {
				break
			}
			got = append(got, [2]int{x, y})
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("rect %+v: walk %v, want %v", r, got, want)
		}
	}
}

func FuzzRasterize(f *testing.F) {
	f.Add(int32(0), int32(0), int32(1024), int32(0), int32(0), int32(1024), uint8(2), uint8(1), uint8(0))
	f.Add(int32(-2560), int32(-2560), int32(128), int32(-2560), int32(128), int32(2560), uint8(4), uint8(2), uint8(3))
	f.Add(int32(300), int32(17), int32(301), int32(5000), int32(299), int32(9000), uint8(1), uint8(0), uint8(1))
	f.Fuzz(func(t *testing.T, x0, y0, x1, y1, x2, y2 int32, samples, tile, orders uint8) {
		cfg, err := NewConfig(int(samples)%MaxSamples+1, Rect{0, 0, 40, 32})
		if err != nil {
			t.Fatal(err)
		}
		cfg.TileSize = 2 << (tile % 4)
		cfg.TileOrder, cfg.QuadOrder = TraversalOrder(orders&1), TraversalOrder(orders>>1&1)
		// Keep the brute force small: coordinates within +-64 pixels.
		clampC := func(v int32) int32 { return v%(64*256+1) + 8*256 }
		v := [3]geom.ScreenVertex{uv(clampC(x0), clampC(y0)), uv(clampC(x1), clampC(y1)), uv(clampC(x2), clampC(y2))}
		var tri Triangle
		if !Setup(v, false, &cfg, &tri) {
			return
		}
		if err := checkTriangle(&tri, &cfg); err != nil {
			t.Fatal(err)
		}
	})
}

func TestSetupExtremeCoordinates(t *testing.T) {
	// Vertices at the snap limit must not overflow: a huge triangle covering the
	// whole target covers every sample.
	for _, n := range []int{16, 27, 64} {
		cfg := mustConfig(t, n, Rect{0, 0, 16, 16})
		l := int32(geom.SnapLimit)
		tri := mustSetup(t, [3]geom.ScreenVertex{uv(-l, -l), uv(l, -l), uv(-l, l)}, &cfg, "")
		if err := checkTriangle(&tri, &cfg); err != nil {
			t.Fatalf("%dx: %v", n, err)
		}
		for _, tp := range tri.Tiles(&cfg, nil) {
			if tp.Class != TileInside {
				t.Fatalf("%dx: tile %+v not inside", n, tp)
			}
		}
	}
}

// TestLargeTriangleCoversEverySample rasterizes a triangle much larger than a
// cut of the target at 27 and 64 samples (and the standard counts): every
// sample of every pixel of the bounds is covered, every quad is full.
func TestLargeTriangleCoversEverySample(t *testing.T) {
	for _, n := range []int{1, 8, 16, 27, 64} {
		for _, order := range []TraversalOrder{RowMajor, ZOrder} {
			cfg := mustConfig(t, n, Rect{3, 1, 45, 30})
			cfg.TileOrder, cfg.QuadOrder = order, order
			tri := mustSetup(t, [3]geom.ScreenVertex{pv(-50.3, -40.7), pv(200.1, -30.2), pv(-20.6, 170.9)}, &cfg, "")
			g := newGrid(cfg.Bounds, n)
			g.rasterize(t, &tri, &cfg)
			for i, c := range g.c {
				if c != 1 {
					t.Fatalf("%dx %v: sample %d of pixel %d covered %d times, want 1", n, order, i%n, i/n, c)
				}
			}
			var quads []Quad
			for _, tp := range tri.Tiles(&cfg, nil) {
				for _, q := range tri.TileQuads(&cfg, tp.X, tp.Y, quads[:0]) {
					want := FullPixels(pixelsIn(cfg.Bounds, int(q.X), int(q.Y)), n)
					if q.Coverage != want {
						t.Fatalf("%dx %v: quad (%d,%d) coverage %x, want %x", n, order, q.X, q.Y, q.Coverage, want)
					}
				}
			}
		}
	}
}

// TestSharedEdge checks the fill rule on seeded random pairs of triangles
// sharing an edge, at every pattern kind (D3D and Hammersley, 27 and 64
// samples): no sample is covered twice, every sample strictly inside either
// triangle or on the open shared edge is covered once, and no sample strictly
// outside both is covered.
func TestSharedEdge(t *testing.T) {
	for _, n := range []int{1, 4, 16, 27, 64} {
		rng := rand.New(rand.NewSource(int64(1000 + n)))
		cfg := mustConfig(t, n, Rect{0, 0, 40, 40})
		for iter := 0; iter < 150; iter++ {
			rp := func() [2]int64 { return [2]int64{int64(rng.Intn(40 * 256)), int64(rng.Intn(40 * 256))} }
			a, b, c, d := rp(), rp(), rp(), rp()
			sc, sd := cross(a[0], a[1], b[0], b[1], c[0], c[1]), cross(a[0], a[1], b[0], b[1], d[0], d[1])
			if sc == 0 || sd == 0 || (sc > 0) == (sd > 0) {
				continue // c and d must be strictly on opposite sides of ab
			}
			if iter%3 == 0 { // shared edge along a row or column of samples
				b[rng.Intn(2)] = a[rng.Intn(2)]
				sc, sd = cross(a[0], a[1], b[0], b[1], c[0], c[1]), cross(a[0], a[1], b[0], b[1], d[0], d[1])
				if a == b || sc == 0 || sd == 0 || (sc > 0) == (sd > 0) {
					continue
				}
			}
			g := newGrid(cfg.Bounds, n)
			v := func(p [2]int64) geom.ScreenVertex { return uv(int32(p[0]), int32(p[1])) }
			for _, tri3 := range [2][3]geom.ScreenVertex{{v(a), v(b), v(c)}, {v(b), v(a), v(d)}} {
				var tri Triangle
				if Setup(shuffleWinding(rng, tri3), false, &cfg, &tri) {
					g.rasterize(t, &tri, &cfg)
				}
			}
			for py := 0; py < 40; py++ {
				for px := 0; px < 40; px++ {
					for s := 0; s < n; s++ {
						o := cfg.Samples.Offsets[s]
						sx, sy := int64(px)*256+128+int64(o[0]), int64(py)*256+128+int64(o[1])
						want := -1 // 0 or 1: on an outer edge
						switch {
						case strictlyInside(a, b, c, sx, sy) || strictlyInside(a, b, d, sx, sy) || onOpenSegment(a, b, sx, sy):
							want = 1
						case outside(a, b, c, sx, sy) && outside(a, b, d, sx, sy):
							want = 0
						}
						got := *g.at(px, py, s)
						if got > 1 || (want >= 0 && int(got) != want) {
							t.Fatalf("%dx iteration %d: sample %d of pixel (%d,%d) covered %d times, want %d; a %v b %v c %v d %v",
								n, iter, s, px, py, got, want, a, b, c, d)
						}
					}
				}
			}
		}
	}
}

// strictlyInside reports whether (x, y) is strictly inside triangle pqr.
func strictlyInside(p, q, r [2]int64, x, y int64) bool {
	e0, e1, e2 := cross(p[0], p[1], q[0], q[1], x, y), cross(q[0], q[1], r[0], r[1], x, y), cross(r[0], r[1], p[0], p[1], x, y)
	return (e0 > 0 && e1 > 0 && e2 > 0) || (e0 < 0 && e1 < 0 && e2 < 0)
}

// outside reports whether (x, y) is strictly outside triangle pqr (not on it).
func outside(p, q, r [2]int64, x, y int64) bool {
	e0, e1, e2 := cross(p[0], p[1], q[0], q[1], x, y), cross(q[0], q[1], r[0], r[1], x, y), cross(r[0], r[1], p[0], p[1], x, y)
	return !(e0 >= 0 && e1 >= 0 && e2 >= 0) && !(e0 <= 0 && e1 <= 0 && e2 <= 0)
}

// onOpenSegment reports whether (x, y) lies on segment pq, endpoints excluded.
func onOpenSegment(p, q [2]int64, x, y int64) bool {
	if cross(p[0], p[1], q[0], q[1], x, y) != 0 || (x == p[0] && y == p[1]) || (x == q[0] && y == q[1]) {
		return false
	}
	return x >= min(p[0], q[0]) && x <= max(p[0], q[0]) && y >= min(p[1], q[1]) && y <= max(p[1], q[1])
}
