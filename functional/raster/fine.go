package raster

import (
	"math/bits"
	"slices"

	"github.com/gfxsim/gfxsim/functional/samplepattern"
)

// Quad is a 2x2 pixel block at even (X, Y) with its sample coverage: word
// pixel, bit sample, where pixel = (x&1) + 2*(y&1).
type Quad struct {
	X, Y     int32
	Coverage SampleMask
}

// TileQuads appends the quads of tile (tx, ty) that have covered samples
// inside BBox (so inside Config.Bounds, the scissor), in cfg.QuadOrder: row-major,
// or Morton order over the quads' positions relative to the tile's first quad.
//
// The work per tile is one evaluation of each edge at the tile's corner; edges
// that contain every sample of the tile are dropped. Per quad, each remaining edge
// costs an add (stepping to the quad) and two compares against the quad's extreme
// offsets; only a quad that an edge crosses needs a per-pixel binary search over
// the sorted sample offsets. Nothing is allocated when out has room.
func (t *Triangle) TileQuads(cfg *Config, tx, ty int, out []Quad) []Quad {
	tile, r, ok := t.tileBox(cfg, tx, ty)
	if !ok {
		return out
	}
	n := t.samples
	qx0, qy0 := r.X0&^1, r.Y0&^1 // first quad (tiles are quad aligned)

	// Coarse test of each edge over the samples of r.
	var act [3]int
	var val [3]int64 // edge values at the corner of quad (qx0, qy0)
	na := 0
	for k := range t.edge {
		e := &t.edge[k]
		hi, lo := e.extremes(r)
		if hi < 0 {
			return out
		}
		if lo >= 0 {
			continue // every sample of r is inside this edge
		}
		act[na] = k
		na++
		val[k] = e.c + e.a*int64(qx0)*256 + e.b*int64(qy0)*256
	}
	nqx, nqy := (r.X1-qx0+1)>>1, (r.Y1-qy0+1)>>1
	w1 := t.fullPixel
	all := SampleMask{w1, w1, w1, w1}
	full := r == tile // no quad is cut by BBox

	if cfg.QuadOrder == ZOrder {
		i0, j0 := (qx0-tile.X0)>>1, (qy0-tile.Y0)>>1
		var vq [3]int64
		emit := func(i, j int) {
			qx, qy := tile.X0+2*i, tile.Y0+2*j
			cov := all
			if !full && (qx < r.X0 || qx+1 >= r.X1 || qy < r.Y0 || qy+1 >= r.Y1) {
				cov = FullPixels(pixelsIn(r, qx, qy), n)
			}
			di, dj := int64(i-i0), int64(j-j0)
			for k := 0; k < na; k++ {
				e := &t.edge[act[k]]
				vq[act[k]] = val[act[k]] + di*2*e.stepX + dj*2*e.stepY
			}
			if na == 0 || t.quadCoverage(&act, na, &vq, &cov, qx, qy) {
				out = appendQuad(out, qx, qy, &cov)
			}
		}
		if full {
			half := (tile.X1 - tile.X0) >> 1
			for k := 0; k < half*half; k++ {
				x, y := MortonDecode(k)
				emit(x, y)
			}
			return out
		}
		var m MortonWalk
		m.Init(i0, j0, i0+nqx, j0+nqy)
		for {
			i, j, ok := m.Next()
			if !ok {
				return out
			}
			emit(i, j)
		}
	}

	// Row-major: incremental edge evaluation.
	var dx, dy [3]int64
	for k := 0; k < na; k++ {
		e := &t.edge[act[k]]
		dx[act[k]], dy[act[k]] = 2*e.stepX, 2*e.stepY
	}
	row := val
	for j := 0; j < nqy; j++ {
		qy := qy0 + 2*j
		vq := [3]int64{row[0], row[1], row[2]} // word by word: no wide load of narrow stores
		for i := 0; i < nqx; i++ {
			qx := qx0 + 2*i
			cov := all
			if !full && (qx < r.X0 || qx+1 >= r.X1 || qy < r.Y0 || qy+1 >= r.Y1) {
				cov = FullPixels(pixelsIn(r, qx, qy), n)
			}
			if na == 0 || t.quadCoverage(&act, na, &vq, &cov, qx, qy) {
				out = appendQuad(out, qx, qy, &cov)
			}
			vq[0] += dx[0]
			vq[1] += dx[1]
			vq[2] += dx[2]
		}
		row[0] += dy[0]
		row[1] += dy[1]
		row[2] += dy[2]
	}
	return out
}

// appendQuad appends the quad at (qx, qy) with coverage cov to out, writing
// every field in place: building a Quad in a temporary and copying it costs a
// store-forwarding stall per quad (wide loads of narrower stores).
func appendQuad(out []Quad, qx, qy int, cov *SampleMask) []Quad {
	n := len(out)
	out = slices.Grow(out, 1)[:n+1]
	q := &out[n]
	q.X, q.Y = int32(qx), int32(qy)
	q.Coverage[0], q.Coverage[1], q.Coverage[2], q.Coverage[3] = cov[0], cov[1], cov[2], cov[3]
	return out
}

// quadCoverage ANDs *cov with the coverage of the active edges at the quad
// (qx, qy) whose corner values are vals and reports whether any sample is left.
func (t *Triangle) quadCoverage(act *[3]int, na int, vals *[3]int64, cov *SampleMask, qx, qy int) bool {
	n := t.samples
	for k := 0; k < na; k++ {
		e := &t.edge[act[k]]
		v := vals[act[k]]
		if v+e.qmax < 0 {
			return false
		}
		if v+e.qmin >= 0 {
			continue
		}
		for p := range cov {
			thr := -(v + e.pix[p])
			switch {
			case thr <= e.omin: // every sample of the pixel is inside
			case thr > e.omax: // none is
				cov[p] = 0
			case t.table != nil:
				cov[p] &= t.tableCoverage(e, v+e.pix[p], qx+p&1, qy+p>>1)
			default:
				cov[p] &= e.prefix[countAtLeast(&e.so, n, thr)]
			}
		}
		if cov[0]|cov[1]|cov[2]|cov[3] == 0 { // cov.Empty() would copy *cov through a stall
			return false
		}
	}
	return true
}

// tableCoverage returns the pixel-local mask of the samples of pixel (px, py)
// inside edge e, whose value at the pixel's corner is v, with the pattern
// table's per-pixel positions: sample s is inside when
// v + a*(128+dx) + b*(128+dy) >= 0, the inequality of CoversSample, where
// 128 + dx = 4*ox + 2 for the table's 6-bit offset ox (and likewise y).
func (t *Triangle) tableCoverage(e *edgeSetup, v int64, px, py int) uint64 {
	offs := &t.table.Off[samplepattern.Entry(px, py)][px&1+2*(py&1)]
	v += 2 * (e.a + e.b)
	a4, b4 := 4*e.a, 4*e.b
	var m uint64
	for s, o := range offs[:t.samples] {
		if v+a4*int64(o[0])+b4*int64(o[1]) >= 0 {
			m |= 1 << uint(s)
		}
	}
	return m
}

// countAtLeast returns how many of the first n (1 to MaxSamples) values of the
// descending array so are >= thr: a binary search of bits.Len(n) compares, each
// step taken only while it stays within n.
func countAtLeast(so *[MaxSamples]int64, n int, thr int64) int {
	k := 0
	for step := 1 << (bits.Len(uint(n)) - 1); step > 0; step >>= 1 {
		if k+step <= n && so[k+step-1] >= thr {
			k += step
		}
	}
	return k
}

// pixelsIn returns the 4-bit mask of the pixels of quad (qx, qy) inside r.
func pixelsIn(r Rect, qx, qy int) uint8 {
	var cols, m uint8
	if qx >= r.X0 && qx < r.X1 {
		cols |= 1
	}
	if qx+1 >= r.X0 && qx+1 < r.X1 {
		cols |= 2
	}
	if qy >= r.Y0 && qy < r.Y1 {
		m |= cols
	}
	if qy+1 >= r.Y0 && qy+1 < r.Y1 {
		m |= cols << 2
	}
	return m
}
