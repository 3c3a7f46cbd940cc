package raster

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// frameMesh returns a jittered grid of triangles covering a 1280x720 target,
// with cells of cell pixels.
func frameMesh(cell int) [][3]geom.ScreenVertex {
	rng := rand.New(rand.NewSource(1))
	nx, ny := 1280/cell, 720/cell
	c := int32(cell * 256)
	vert := make([][]geom.ScreenVertex, ny+1)
	for j := range vert {
		vert[j] = make([]geom.ScreenVertex, nx+1)
		for i := range vert[j] {
			x, y := int32(i)*c, int32(j)*c
			if i > 0 && i < nx {
				x += int32(rng.Intn(int(c)/4+1)) - c/8
			}
			if j > 0 && j < ny {
				y += int32(rng.Intn(int(c)/4+1)) - c/8
			}
			vert[j][i] = geom.ScreenVertex{X: x, Y: y, Z: 0.5, InvW: 1}
		}
	}
	var tris [][3]geom.ScreenVertex
	for j := 0; j < ny; j++ {
		for i := 0; i < nx; i++ {
			a, b, cc, d := vert[j][i], vert[j][i+1], vert[j+1][i+1], vert[j+1][i]
			tris = append(tris, [3]geom.ScreenVertex{a, b, cc}, [3]geom.ScreenVertex{a, cc, d})
		}
	}
	return tris
}

// BenchmarkFrame rasterizes a full 1280x720 frame (setup, tiles, quads): the
// work the reference renderer does per frame before shading.
func BenchmarkFrame(b *testing.B) { benchFrame(b, false) }

// BenchmarkFrameTable is BenchmarkFrame with per-pixel positions from a SAGE
// pattern table.
func BenchmarkFrameTable(b *testing.B) { benchFrame(b, true) }

func benchFrame(b *testing.B, table bool) {
	for _, samples := range []int{1, 4, 16} {
		for _, cell := range []int{4, 16, 80} {
			for _, order := range []TraversalOrder{RowMajor, ZOrder} {
				b.Run(fmt.Sprintf("%dx/cell%d/%v", samples, cell, order), func(b *testing.B) {
					cfg := mustConfig(b, samples, Rect{0, 0, 1280, 720})
					if table {
						cfg = mustTableConfig(b, samples, 1, Rect{0, 0, 1280, 720})
					}
					cfg.TileOrder, cfg.QuadOrder = order, order
					tris := frameMesh(cell)
					tiles := make([]TilePos, 0, 1024)
					quads := make([]Quad, 0, 64)
					var tri Triangle
					b.ReportAllocs()
					b.ResetTimer()
					nq := 0
					for it := 0; it < b.N; it++ {
						nq = 0
						for _, v := range tris {
							if !Setup(v, false, &cfg, &tri) {
								continue
							}
							tiles = tri.Tiles(&cfg, tiles[:0])
							for _, tp := range tiles {
								quads = tri.TileQuads(&cfg, tp.X, tp.Y, quads[:0])
								nq += len(quads)
							}
						}
					}
					b.ReportMetric(float64(nq), "quads/frame")
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nq), "ns/quad")
				})
			}
		}
	}
}

// BenchmarkTileQuads measures the fine rasterizer alone on a partly covered
// tile (an edge crosses it) and on a fully covered one.
func BenchmarkTileQuads(b *testing.B) {
	for _, samples := range []int{1, 4, 16, 27, 64} {
		cfg := mustConfig(b, samples, Rect{0, 0, 1280, 720})
		tri := mustSetup(b, [3]geom.ScreenVertex{pv(3.3, 1.7), pv(90.1, 20.6), pv(10.2, 70.9)}, &cfg, "")
		quads := make([]Quad, 0, 64)
		for _, tc := range []struct {
			name   string
			tx, ty int
		}{{"edge", 1, 0}, {"inside", 2, 2}} {
			b.Run(fmt.Sprintf("%dx/%s/%v", samples, tc.name, tri.TestTile(&cfg, tc.tx, tc.ty)), func(b *testing.B) {
				b.ReportAllocs()
				for it := 0; it < b.N; it++ {
					quads = tri.TileQuads(&cfg, tc.tx, tc.ty, quads[:0])
				}
			})
		}
	}
}

func BenchmarkSetup(b *testing.B) {
	for _, samples := range []int{1, 4, 16, 27, 64} {
		b.Run(fmt.Sprintf("%dx", samples), func(b *testing.B) {
			cfg := mustConfig(b, samples, Rect{0, 0, 1280, 720})
			v := [3]geom.ScreenVertex{pv(3.3, 1.7), pv(90.1, 20.6), pv(10.2, 70.9)}
			var tri Triangle
			b.ReportAllocs()
			for it := 0; it < b.N; it++ {
				Setup(v, false, &cfg, &tri)
			}
		})
	}
}
