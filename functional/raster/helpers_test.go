package raster

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/samplepattern"
)

// pv makes a screen vertex from a position in pixels (exact multiples of 1/256).
func pv(x, y float64) geom.ScreenVertex {
	return geom.ScreenVertex{X: int32(x * 256), Y: int32(y * 256), Z: 0.5, InvW: 1}
}

// uv makes a screen vertex from a position in 1/256 pixel units.
func uv(x, y int32) geom.ScreenVertex { return geom.ScreenVertex{X: x, Y: y, Z: 0.5, InvW: 1} }

func mustConfig(t testing.TB, samples int, bounds Rect) Config {
	t.Helper()
	c, err := NewConfig(samples, bounds)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// mustSetup sets up the front-facing triangle v under cfg; a rejection ends
// the test (what names the case, or "").
func mustSetup(t testing.TB, v [3]geom.ScreenVertex, cfg *Config, what string) Triangle {
	t.Helper()
	var tri Triangle
	if !Setup(v, false, cfg, &tri) {
		t.Fatalf("%s: Setup rejected", what)
	}
	return tri
}

// sampleGrid counts, per sample of the pixels of b, how many triangles cover it.
type sampleGrid struct {
	b Rect
	n int
	c []uint8
}

func newGrid(b Rect, n int) *sampleGrid {
	return &sampleGrid{b: b, n: n, c: make([]uint8, (b.X1-b.X0)*(b.Y1-b.Y0)*n)}
}

func (g *sampleGrid) at(px, py, s int) *uint8 {
	return &g.c[((py-g.b.Y0)*(g.b.X1-g.b.X0)+(px-g.b.X0))*g.n+s]
}

// rasterize runs the coarse and fine rasterizers over the whole triangle and
// adds its coverage to g, checking the structural rules of the output.
func (g *sampleGrid) rasterize(t testing.TB, tri *Triangle, cfg *Config) {
	t.Helper()
	var tiles []TilePos
	var quads []Quad
	tiles = tri.Tiles(cfg, tiles)
	size := cfg.TileSize
	if size == 0 {
		size = DefaultTileSize
	}
	for _, tp := range tiles {
		quads = tri.TileQuads(cfg, tp.X, tp.Y, quads[:0])
		for _, q := range quads {
			if q.X&1 != 0 || q.Y&1 != 0 || q.Coverage.Empty() {
				t.Fatalf("bad quad %+v", q)
			}
			if int(q.X) < tp.X*size || int(q.X) >= (tp.X+1)*size || int(q.Y) < tp.Y*size || int(q.Y) >= (tp.Y+1)*size {
				t.Fatalf("quad %+v outside tile %+v", q, tp)
			}
			if q.Coverage != q.Coverage.And(FullPixels(15, cfg.Samples.Count)) {
				t.Fatalf("quad %+v covers samples past the count %d", q, cfg.Samples.Count)
			}
			for m := q.Coverage; !m.Empty(); {
				p, s := m.Pop()
				px, py := int(q.X)+p&1, int(q.Y)+p>>1
				if !cfg.Bounds.Contains(px, py) || !g.b.Contains(px, py) {
					t.Fatalf("covered pixel (%d,%d) outside bounds %+v / grid %+v", px, py, cfg.Bounds, g.b)
				}
				*g.at(px, py, s)++
			}
		}
	}
}

// packed converts a coverage in the packed layout of up to 16 samples (bit
// pixel*n + sample) to a SampleMask, so that expectations stay readable.
func packed(bits uint64, n int) SampleMask {
	var m SampleMask
	for b := 0; b < 4*n && b < 64; b++ {
		if bits>>uint(b)&1 != 0 {
			m.Set(b/n, b%n)
		}
	}
	return m
}

// patternPosition returns the position of sample s of pixel (px, py) in 1/256
// pixel under cfg's pattern, computed from the pattern itself (Offsets, or the
// table's 6-bit offset o as 4o+2 from the pixel's corner), not through a
// Triangle.
func patternPosition(cfg *Config, px, py, s int) (x, y int64) {
	if tab := cfg.Samples.Table; tab != nil {
		o := tab.Off[samplepattern.Entry(px, py)][px&1+2*(py&1)][s]
		return int64(px)*256 + 4*int64(o[0]) + 2, int64(py)*256 + 4*int64(o[1]) + 2
	}
	o := cfg.Samples.Offsets[s]
	return int64(px)*256 + 128 + int64(o[0]), int64(py)*256 + 128 + int64(o[1])
}
