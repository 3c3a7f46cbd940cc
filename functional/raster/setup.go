package raster

import (
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/samplepattern"
)

// Edge is an integer edge function E(x,y) = A*x + B*y + C with x, y in 1/256
// pixel units; C already includes the top-left fill-rule bias (-1 on edges that
// are not top or left), so a sample is inside when E >= 0 for all three edges.
type Edge struct{ A, B, C int64 }

// Eval returns E at (x, y) in 1/256 pixel units.
func (e Edge) Eval(x, y int64) int64 { return e.A*x + e.B*y + e.C }

// edgeSetup holds the per-triangle constants of one edge for the coarse and
// fine rasterizers: everything that is not an add or a compare at traversal time.
type edgeSetup struct {
	a, b, c int64
	stepX   int64    // a*256: one pixel to the right
	stepY   int64    // b*256: one pixel down
	pix     [4]int64 // offsets of the four pixels of a quad from the quad corner: 0, stepX, stepY, stepX+stepY
	qmin    int64    // min over the quad's samples of pix + sample offset
	qmax    int64    // max over the quad's samples of pix + sample offset
	// omax and omin bound a*(128+dx) + b*(128+dy) over the samples of any
	// pixel: so[0] and so[n-1] without a table, the corners of the table's
	// offset box (SamplePattern.Extremes) with one.
	omax, omin int64
	// so holds the sample offsets a*(128+dx) + b*(128+dy) (relative to a
	// pixel's corner) sorted in descending order; prefix[k] is the pixel-local
	// coverage mask of the first k samples of that order. At a pixel whose corner
	// value is v, the samples inside the edge are exactly those with offset >= -v:
	// a prefix of the order, found by a binary search. Unused with a table.
	so     [MaxSamples]int64
	prefix [MaxSamples + 1]uint64
}

// Triangle is the result of setup: the edge equations, oriented so that the
// inside is positive for both windings, and the float planes for depth and the
// barycentrics. Its only pointer is to the pattern's read-only table; copy it
// freely.
//
// Edges[k] is the edge opposite vertex k (from V[k+1] to V[k+2]), so that
// E_k/(E_0+E_1+E_2) is the screen-space barycentric weight of vertex k.
type Triangle struct {
	V          [3]geom.ScreenVertex
	Edges      [3]Edge
	BBox       Rect // pixels that have a sample inside the vertices' bounding box, intersected with Config.Bounds
	BackFacing bool
	Area       int64 // |doubled signed area| in 1/256 pixel units squared

	samples   int // sample count of the pattern given to Setup
	pattern   [MaxSamples][2]int16
	table     *samplepattern.Table // per-pixel positions; nil: pattern
	fullPixel uint64               // the mask of one pixel's samples: (1 << samples) - 1
	edge      [3]edgeSetup

	// Planes over screen offsets (dx, dy) in pixels from V[0]: the barycentric
	// planes, and z = V[0].Z + zx*dx + zy*dy.
	planes   BarycentricPlanes
	zx, zy   float32
	zlo, zhi float32
}

// Setup computes the triangle's edge equations and planes for the rasterizer
// configuration cfg. It returns false when nothing can be covered: a zero-area
// triangle, a bounding box without samples inside cfg.Bounds, a vertex beyond
// geom.SnapLimit, or an invalid configuration (see Config.Validate). backFacing
// is carried to the triangle (from geom.Cull) for the stencil test and
// sv_isfrontface.
func Setup(v [3]geom.ScreenVertex, backFacing bool, cfg *Config, t *Triangle) bool {
	n := cfg.Samples.Count
	if !validCount(n) || (cfg.Samples.Table != nil && n > samplepattern.MaxSamples) {
		return false
	}
	if cfg.TileSize != 0 && !validTileSize(cfg.TileSize) {
		return false
	}
	for i := range v {
		if v[i].X > geom.SnapLimit || v[i].X < -geom.SnapLimit || v[i].Y > geom.SnapLimit || v[i].Y < -geom.SnapLimit {
			return false
		}
	}
	area := geom.SignedArea(v[0], v[1], v[2])
	if area == 0 {
		return false
	}

	// Bounding box: pixels with a sample position inside [minX, maxX] x [minY, maxY].
	minX, maxX := min(v[0].X, v[1].X, v[2].X), max(v[0].X, v[1].X, v[2].X)
	minY, maxY := min(v[0].Y, v[1].Y, v[2].Y), max(v[0].Y, v[1].Y, v[2].Y)
	ex0, ex1, ey0, ey1 := cfg.Samples.Extremes()
	minDx, maxDx, minDy, maxDy := int64(ex0), int64(ex1), int64(ey0), int64(ey1)
	bb := Rect{
		X0: int(ceilDiv256(int64(minX) - 128 - maxDx)),
		Y0: int(ceilDiv256(int64(minY) - 128 - maxDy)),
		X1: int(floorDiv256(int64(maxX)-128-minDx)) + 1,
		Y1: int(floorDiv256(int64(maxY)-128-minDy)) + 1,
	}.Intersect(cfg.Bounds)
	if bb.Empty() {
		return false
	}

	t.V = v
	t.BBox = bb
	t.BackFacing = backFacing
	t.Area = area
	if area < 0 {
		t.Area = -area
	}
	t.samples = n
	t.pattern = cfg.Samples.Offsets
	t.table = cfg.Samples.Table
	t.fullPixel = FullPixels(1, n)[0]

	for k := 0; k < 3; k++ {
		p, q := v[(k+1)%3], v[(k+2)%3]
		a := int64(p.Y) - int64(q.Y)
		b := int64(q.X) - int64(p.X)
		c := int64(p.X)*int64(q.Y) - int64(q.X)*int64(p.Y)
		if area < 0 {
			a, b, c = -a, -b, -c
		}
		// Top-left rule: a left edge has the inside to its right (a > 0); a top
		// edge is horizontal with the inside below it (a == 0, b > 0). Samples
		// exactly on any other edge are outside.
		if !(a > 0 || (a == 0 && b > 0)) {
			c--
		}
		t.Edges[k] = Edge{A: a, B: b, C: c}
		if t.table == nil {
			setupEdge(&t.edge[k], a, b, c, n, &cfg.Samples.Offsets)
		} else {
			setupTableEdge(&t.edge[k], a, b, c, minDx, maxDx, minDy, maxDy)
		}
	}

	// Float planes relative to V[0], from the snapped positions.
	dx1, dy1, dx2, dy2, invDet := planeDeltas(&v, area)
	t.planes = NewBarycentricPlanes(&v, area)
	dz1 := float32(v[1].Z - v[0].Z)
	dz2 := float32(v[2].Z - v[0].Z)
	t.zx = float32(float32(dz1*dy2)-float32(dz2*dy1)) * invDet
	t.zy = float32(float32(dx1*dz2)-float32(dx2*dz1)) * invDet
	t.zlo, t.zhi = min(cfg.MinZ, cfg.MaxZ), max(cfg.MinZ, cfg.MaxZ)
	return true
}

func setupEdge(e *edgeSetup, a, b, c int64, n int, offs *[MaxSamples][2]int16) {
	e.a, e.b, e.c = a, b, c
	e.stepX, e.stepY = a*256, b*256
	e.pix = [4]int64{0, e.stepX, e.stepY, e.stepX + e.stepY}
	// Sample offsets, insertion-sorted in descending order with their indices.
	var idx [MaxSamples]uint8
	for s := 0; s < n; s++ {
		off := a*(128+int64(offs[s][0])) + b*(128+int64(offs[s][1]))
		i := s
		for i > 0 && e.so[i-1] < off {
			e.so[i], idx[i] = e.so[i-1], idx[i-1]
			i--
		}
		e.so[i], idx[i] = off, uint8(s)
	}
	e.prefix[0] = 0
	for k := 0; k < n; k++ {
		e.prefix[k+1] = e.prefix[k] | 1<<idx[k]
	}
	e.omax, e.omin = e.so[0], e.so[n-1]
	e.qmax = max(0, e.stepX) + max(0, e.stepY) + e.omax
	e.qmin = min(0, e.stepX) + min(0, e.stepY) + e.omin
}

// setupTableEdge sets up an edge for per-pixel sample positions whose offsets
// lie in [minDx, maxDx] x [minDy, maxDy]: the edge's extremes over that box
// (at the corners chosen by the signs of a and b) bound it over every pixel's
// samples, which keeps the tile and quad tests conservative. A pixel the edge
// crosses is resolved sample by sample (tableCoverage).
func setupTableEdge(e *edgeSetup, a, b, c, minDx, maxDx, minDy, maxDy int64) {
	e.a, e.b, e.c = a, b, c
	e.stepX, e.stepY = a*256, b*256
	e.pix = [4]int64{0, e.stepX, e.stepY, e.stepX + e.stepY}
	e.omax = max(a*(128+minDx), a*(128+maxDx)) + max(b*(128+minDy), b*(128+maxDy))
	e.omin = min(a*(128+minDx), a*(128+maxDx)) + min(b*(128+minDy), b*(128+maxDy))
	e.qmax = max(0, e.stepX) + max(0, e.stepY) + e.omax
	e.qmin = min(0, e.stepX) + min(0, e.stepY) + e.omin
}

// floorDiv256 returns floor(v / 256).
func floorDiv256(v int64) int64 { return v >> 8 }

// ceilDiv256 returns ceil(v / 256).
func ceilDiv256(v int64) int64 { return -((-v) >> 8) }

// SamplePosition returns the position of sample s of pixel (px, py) in 1/256
// pixel units: the pattern's offset, or with a table the pixel's own.
func (t *Triangle) SamplePosition(px, py, s int) (x, y int64) {
	if t.table != nil {
		return t.tableSamplePosition(px, py, s)
	}
	return t.patternPosition(px, py, s)
}

// patternPosition is SamplePosition without a table. It inlines; the
// per-sample loops (QuadDepths, SampleDepth) call it directly when the
// triangle has no table, so that path costs what it did before tables.
func (t *Triangle) patternPosition(px, py, s int) (x, y int64) {
	o := t.pattern[s&(MaxSamples-1)]
	return int64(px)*256 + 128 + int64(o[0]), int64(py)*256 + 128 + int64(o[1])
}

// tableSamplePosition is SamplePosition with a pattern table.
func (t *Triangle) tableSamplePosition(px, py, s int) (x, y int64) {
	dx, dy := t.table.Offset(px, py, s)
	return int64(px)*256 + 128 + int64(dx), int64(py)*256 + 128 + int64(dy)
}

// sampleOffset returns the offset of sample s of pixel (px, py) from the pixel
// centre in 1/256 pixel.
func (t *Triangle) sampleOffset(px, py, s int) (dx, dy int64) {
	if t.table != nil {
		ox, oy := t.table.Offset(px, py, s)
		return int64(ox), int64(oy)
	}
	o := t.pattern[s&(MaxSamples-1)]
	return int64(o[0]), int64(o[1])
}

// CoversSample reports whether sample s of pixel (px, py) is inside the
// triangle and inside BBox (so inside Config.Bounds). It evaluates the three
// edge functions directly; TileQuads gives the same answer incrementally.
func (t *Triangle) CoversSample(px, py, s int) bool {
	if t.samples == 0 || s < 0 || s >= t.samples || !t.BBox.Contains(px, py) {
		return false
	}
	x, y := t.SamplePosition(px, py, s)
	return t.Edges[0].Eval(x, y) >= 0 && t.Edges[1].Eval(x, y) >= 0 && t.Edges[2].Eval(x, y) >= 0
}

// Samples returns the sample count the triangle was set up for.
func (t *Triangle) Samples() int { return t.samples }
