package raster5d

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// BenchmarkTriangle rasterizes one blurred triangle at 27 samples per pixel
// (setup, tiles, quads) and reports sample tests per second, the tests per
// covered sample and the block tests per covered sample. The triangle spans about 40 pixels; motion moves it 60 pixels,
// the lens blurs it by a circle of confusion of about 10 pixels.
func BenchmarkTriangle(b *testing.B) {
	vp := geom.Viewport{Width: 256, Height: 256, MaxZ: 1}
	pat := mustPattern(b, 27, 4)
	cfg := Config{Pattern: pat, Bounds: raster.Rect{X1: 256, Y1: 256}, Cull: geom.CullBack}
	p0 := [3]geom.Vec4{clipOf(vp, 40, 40, 2, 0.5), clipOf(vp, 80, 44, 2, 0.5), clipOf(vp, 50, 80, 4, 0.5)}
	p1 := moved(vp, p0, 60, 30)
	lens := Lens{Kx: 0.08, Ky: 0.08, F: 3}
	for _, tc := range []struct {
		name string
		p1   [3]geom.Vec4
		lens Lens
	}{
		{"static", p0, Lens{}},
		{"moving", p1, Lens{}},
		{"defocused", p0, lens},
		{"both", p1, lens},
	} {
		b.Run(tc.name, func(b *testing.B) {
			tiles := make([]raster.TilePos, 0, 64)
			quads := make([]Quad, 0, 256)
			var tri Triangle
			var st Stats
			b.ReportAllocs()
			for b.Loop() {
				Setup(p0, tc.p1, tc.lens, vp, &cfg, &tri)
				tiles = tri.Tiles(tiles[:0])
				for _, tp := range tiles {
					quads = tri.TileQuads(tp.X, tp.Y, quads[:0], &st)
				}
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(st.Tests())/sec, "tests/s")
			b.ReportMetric(float64(st.Tests())/float64(st.SamplesCovered), "tests/covered")
			b.ReportMetric(float64(st.BlockTests)/float64(st.SamplesCovered), "blocks/covered")
		})
	}
}
