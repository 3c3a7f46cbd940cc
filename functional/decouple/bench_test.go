package decouple

import (
	"math/rand"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// benchSamples returns barycentrics of n visibility samples of a triangle about
// 200 pixels wide, in a traversal-like order (sorted by the first weight in
// runs), and its map.
func benchSamples(b *testing.B, n int, o Options) (Map, [][3]float32) {
	vp := geom.Viewport{Width: 1280, Height: 720, MaxZ: 1}
	ref := [3]geom.Vec4{{-0.2, -0.2, 0.5, 1}, {0.1, -0.25, 0.5, 1.5}, {-0.1, 0.3, 0.5, 2}}
	end := [3]geom.Vec4{{-0.1, -0.2, 0.5, 1}, {0.2, -0.25, 0.5, 1.5}, {0, 0.3, 0.5, 2}}
	m := mustMap(b, 1, ref, end, vp, o)
	rng := rand.New(rand.NewSource(1))
	bs := make([][3]float32, n)
	for i := range bs {
		r := [3]float32{rng.Float32(), rng.Float32(), rng.Float32()}
		s := r[0] + r[1] + r[2]
		bs[i] = [3]float32{r[0] / s, r[1] / s, r[2] / s}
	}
	return m, bs
}

// BenchmarkIndexLRU measures look-ups per second through Index and a
// 1024-entry LRU (the paper's 4k-sample cache), one look-up per tap.
func BenchmarkIndexLRU(b *testing.B) {
	for _, c := range []struct {
		name string
		o    Options
	}{{"nearest", Options{}}, {"bilinear", Options{Bilinear: true}}} {
		b.Run(c.name, func(b *testing.B) {
			m, bs := benchSamples(b, 1<<16, c.o)
			cache, _ := NewLRU(1024)
			taps := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				l := m.Index(bs[i&(len(bs)-1)])
				for _, tp := range l.Taps[:l.N] {
					cache.Lookup(tp.Tag)
				}
				taps += l.N
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "samples/s")
			b.ReportMetric(float64(taps)/b.Elapsed().Seconds(), "lookups/s")
		})
	}
}

// BenchmarkQuad measures the per-miss work: the four shading points of a quad.
func BenchmarkQuad(b *testing.B) {
	m, bs := benchSamples(b, 1<<12, Options{})
	tags := make([]Tag, len(bs))
	for i := range bs {
		tags[i] = m.Index(bs[i]).Taps[0].Tag
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = m.Quad(tags[i&(len(tags)-1)])
	}
}
