package raster5d

import (
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// BlockSize is the edge in pixels of the blocks of a tile that TileQuads
// tests against each (u, v, t) bucket before any of their samples (doc.go,
// "Traversal").
const BlockSize = 8

const blockShift = 3

// blocksPerRow is the number of blocks along a tile's edge.
const blocksPerRow = TileSize / BlockSize

// marginRel is the rejection margin relative to the magnitude of the terms of
// a function: the rounding of its per-sample evaluation is a few units in the
// last place (1e-16) of that magnitude, so a bound below -marginRel*M decides
// the sign of the computed value.
const marginRel = 1e-9

// quadT is g0 + t*(g1 + t*g2).
type quadT [3]float64

func (q quadT) at(t float64) float64 { return q[0] + t*(q[1]+t*q[2]) }

// span returns the range of q over [t0, t1] (NaN coefficients give NaN
// ends or a range that rejects nothing).
func (q quadT) span(t0, t1 float64) (lo, hi float64) {
	lo, hi = q.at(t0), q.at(t1)
	if hi < lo {
		lo, hi = hi, lo
	}
	if q[2] != 0 {
		if m := -q[1] / (2 * q[2]); m > t0 && m < t1 {
			c := q.at(m)
			if c < lo {
				lo = c
			}
			if c > hi {
				hi = c
			}
		}
	}
	return lo, hi
}

// maxAbs returns the largest |q(t)| over [t0, t1].
func (q quadT) maxAbs(t0, t1 float64) float64 {
	lo, hi := q.span(t0, t1)
	return math.Max(-lo, hi)
}

// edgePoly is an edge function at a fixed lens position, quadratic in t:
// E = A(t)*X + B(t)*Y + C(t), signed like edge.a, b, c (positive inside when
// d > 0).
type edgePoly struct{ a, b, c quadT }

// lensPoly returns edge k at lens position (u, v) as a polynomial in t. For a
// fixed (u, v) the warped vertices move linearly in t, so every form is one:
// formPoly does not depend on (u, v), formLens not on t, and formWarp is the
// Moving form of the vertices warped to (u, v).
func (t *Triangle) lensPoly(k int, u, v float64) edgePoly {
	ed := &t.e[k]
	switch ed.form {
	case formPoly:
		return edgePoly{ed.a, ed.b, ed.c}
	case formLens:
		return edgePoly{
			a: quadT{ed.a[0] + v*ed.a[1]},
			b: quadT{ed.b[0] + u*ed.b[1]},
			c: quadT{ed.c[0] + u*ed.c[1] + v*ed.c[2]},
		}
	}
	hp, dp := t.warpLine(ed.i, u, v)
	hq, dq := t.warpLine(ed.j, u, v)
	c0 := cross(hp, hq)
	c1 := add3(cross(hp, dq), cross(dp, hq))
	c2 := cross(dp, dq)
	s := ed.a[0]
	return edgePoly{
		a: quadT{s * c0[0], s * c1[0], s * c2[0]},
		b: quadT{s * c0[1], s * c1[1], s * c2[1]},
		c: quadT{s * c0[2], s * c1[2], s * c2[2]},
	}
}

// warpLine returns vertex k warped to lens (u, v) as h + t*d in
// screen-homogeneous coordinates (hx, hy, w).
func (t *Triangle) warpLine(k int, u, v float64) (h, d [3]float64) {
	x0, y0, w0, _ := t.warp(k, u, v, 0)
	x1, y1, w1, _ := t.warp(k, u, v, 1)
	return [3]float64{x0, y0, w0}, [3]float64{x1 - x0, y1 - y0, w1 - w0}
}

// lensCorners returns the ends of bucket b's u and v intervals (its lens
// cell's corners) and of its time interval.
func (t *Triangle) lensCorners(b int) (u, v [2]float64, t0, t1 float64) {
	nl, l := t.layout.nl, t.layout
	tb, vb, ub := b/(nl*nl), b/nl%nl, b%nl
	u = [2]float64{bucketEnd(-1, 1, nl, ub), bucketEnd(-1, 1, nl, ub+1)}
	v = [2]float64{bucketEnd(-1, 1, nl, vb), bucketEnd(-1, 1, nl, vb+1)}
	return u, v, bucketEnd(0, 1, l.nt, tb), bucketEnd(0, 1, l.nt, tb+1)
}

// cornerBound is an edge's bound data over a bucket at one corner of its lens
// cell: E(t) at the block centre is g.at(t) with g = a*Xc + b*Yc + c, and
// |A|, |B| are at most ma, mb over the bucket's time interval.
type cornerBound struct {
	p      edgePoly
	ma, mb float64
	still  bool // no t terms: E is A*X + B*Y + C with constants
}

// bucketBound is what TileQuads needs to test one bucket against blocks.
type bucketBound struct {
	t0, t1 float64
	n      [3]int // corners per edge (1 or 4)
	c      [3][4]cornerBound
	margin [3]float64
	sign   float64 // the sign d has at a covered sample of the bucket: +1 or -1
}

// prepareBucket fills bb for bucket b (whose sign is known) within tile
// rectangle r.
func (t *Triangle) prepareBucket(b int, r raster.Rect, bb *bucketBound) {
	bb.sign = float64(t.signs[b])
	us, vs, t0, t1 := t.lensCorners(b)
	bb.t0, bb.t1 = t0, t1
	xm := math.Max(math.Abs(float64(r.X0)), math.Abs(float64(r.X1))) + 1
	ym := math.Max(math.Abs(float64(r.Y0)), math.Abs(float64(r.Y1))) + 1
	for k := range t.e {
		n := 1
		if t.e[k].form != formPoly {
			n = 4
		}
		bb.n[k] = n
		for c := 0; c < n; c++ {
			p := t.lensPoly(k, us[c&1], vs[c>>1])
			still := p.a[1] == 0 && p.a[2] == 0 && p.b[1] == 0 && p.b[2] == 0 && p.c[1] == 0 && p.c[2] == 0
			bb.c[k][c] = cornerBound{p: p, ma: p.a.maxAbs(t0, t1), mb: p.b.maxAbs(t0, t1), still: still}
		}
		bb.margin[k] = marginRel * t.edgeMag(k, xm, ym)
	}
}

// edgeMag bounds the magnitude of the terms of edge k's per-sample evaluation
// at |X| <= xm, |Y| <= ym over the whole (u, v, t) domain.
func (t *Triangle) edgeMag(k int, xm, ym float64) float64 {
	ed := &t.e[k]
	switch ed.form {
	case formPoly:
		return sumAbs(ed.a[:])*xm + sumAbs(ed.b[:])*ym + sumAbs(ed.c[:])
	case formLens:
		return sumAbs(ed.a[:])*xm + sumAbs(ed.b[:])*ym + sumAbs(ed.c[:])
	}
	hx, hy, w := t.mag[ed.i][0]+t.mag[ed.j][0], t.mag[ed.i][1]+t.mag[ed.j][1], t.mag[ed.i][2]+t.mag[ed.j][2]
	return (hy*w)*xm + (hx*w)*ym + hx*hy
}

func sumAbs(a []float64) float64 {
	s := 0.0
	for _, x := range a {
		s += math.Abs(x)
	}
	return s
}

// rejects reports whether some edge excludes every sample of bucket bb whose
// pixel lies in [x0, x1) x [y0, y1): at each corner of the bucket's lens cell
// the edge times the required sign of d stays below -margin over the block's
// sample positions and the bucket's time interval. The edge function is
// multilinear in (u, v) (doc.go), so its maximum over the cell is at a corner.
func (t *Triangle) rejects(bb *bucketBound, x0, y0, x1, y1 int) bool {
	p := t.pat
	// The block's sample positions: centre and half-extent, in pixels.
	sx0 := float64(x0) + float64(128+int(p.minX))/256
	sx1 := float64(x1-1) + float64(128+int(p.maxX))/256
	sy0 := float64(y0) + float64(128+int(p.minY))/256
	sy1 := float64(y1-1) + float64(128+int(p.maxY))/256
	xc, yc := (sx0+sx1)/2, (sy0+sy1)/2
	hx, hy := (sx1-sx0)/2, (sy1-sy0)/2
	s := bb.sign
	for k := range bb.n {
		// The edge rejects when its largest value (times s) over every corner
		// stays below -margin; NaN never rejects.
		rejected := true
		for c := 0; c < bb.n[k] && rejected; c++ {
			cb := &bb.c[k][c]
			var m float64
			g0 := cb.p.a[0]*xc + cb.p.b[0]*yc + cb.p.c[0]
			if cb.still {
				m = s * g0
			} else {
				g := quadT{g0, cb.p.a[1]*xc + cb.p.b[1]*yc + cb.p.c[1], cb.p.a[2]*xc + cb.p.b[2]*yc + cb.p.c[2]}
				lo, hi := g.span(bb.t0, bb.t1)
				m = hi
				if s < 0 {
					m = -lo
				}
			}
			rejected = m+cb.ma*hx+cb.mb*hy < -bb.margin[k]
		}
		if rejected {
			return true
		}
	}
	return false
}

// setupSigns decides, per bucket, the sign the determinant d has at a covered
// sample: the sign the cull mode keeps, or d's sign over the bucket when that
// is fixed; 0 when neither is known. A bucket whose d has a fixed sign that
// the cull mode discards covers nothing: it is marked culled (setupBoxes
// empties its box). nodes holds Both's determinant cubics at the lens grid. It also records
// the vertices' magnitudes for the margins.
func (t *Triangle) setupSigns() {
	for k := range t.v {
		for c := 0; c < 8; c++ {
			hx, hy, w, _ := t.warp(k, float64(c&1*2-1), float64(c>>1&1*2-1), float64(c>>2))
			t.mag[k] = [3]float64{math.Max(t.mag[k][0], math.Abs(hx)), math.Max(t.mag[k][1], math.Abs(hy)), math.Max(t.mag[k][2], math.Abs(w))}
		}
	}
	keep := 0.0 // the sign of d the cull mode keeps
	switch t.cull {
	case geom.CullBack:
		keep = 1
	case geom.CullFront:
		keep = -1
	}
	if t.frontCCW {
		keep = -keep
	}
	var nodes [maxLensBuckets + 1][maxLensBuckets + 1][4]float64
	if t.Case == Both {
		nl := t.layout.nl
		for vi := 0; vi <= nl; vi++ {
			for ui := 0; ui <= nl; ui++ {
				var h, d [3][3]float64
				for k := range h {
					h[k], d[k] = t.warpLine(k, bucketEnd(-1, 1, nl, ui), bucketEnd(-1, 1, nl, vi))
				}
				nodes[vi][ui] = cubicDet(h, d)
			}
		}
	}
	for b := 0; b < t.numBuckets(); b++ {
		ds := t.detSign(b, &nodes)
		switch {
		case keep != 0 && ds != 0 && ds != keep:
			t.culledBuckets |= 1 << uint(b)
		case keep != 0:
			t.signs[b] = int8(keep)
		default:
			t.signs[b] = int8(ds)
		}
	}
}

// detSign returns the sign of d over bucket b when it is fixed (with a
// margin for rounding), else 0.
func (t *Triangle) detSign(b int, nodes *[maxLensBuckets + 1][maxLensBuckets + 1][4]float64) float64 {
	us, vs, t0, t1 := t.lensCorners(b)
	lo, hi, mag := math.Inf(1), math.Inf(-1), 0.0
	switch t.Case {
	case Static:
		lo, hi = t.det[0], t.det[0]
	case Moving:
		lo, hi = cubicSpan(t.det, t0, t1)
		mag = sumAbs(t.det[:])
	case Defocused:
		for c := 0; c < 4; c++ {
			d := t.det[0] + us[c&1]*t.det[1] + vs[c>>1]*t.det[2]
			lo, hi = math.Min(lo, d), math.Max(hi, d)
		}
		mag = sumAbs(t.det[:3])
	default: // Both: bilinear in (u, v) and, at a fixed (u, v), cubic in t
		nl := t.layout.nl
		vb, ub := b/nl%nl, b%nl
		for c := 0; c < 4; c++ {
			l, u := cubicSpan(nodes[vb+c>>1][ub+c&1], t0, t1)
			lo, hi = math.Min(lo, l), math.Max(hi, u)
		}
		m := t.mag
		mag = 6 * (m[0][0] + m[1][0] + m[2][0]) * (m[0][1] + m[1][1] + m[2][1]) * (m[0][2] + m[1][2] + m[2][2])
	}
	margin := marginRel * mag
	switch {
	case lo > margin:
		return 1
	case hi < -margin:
		return -1
	}
	return 0
}

// cubicSpan bounds d0 + t*(d1 + t*(d2 + t*d3)) over [t0, t1] (0 <= t0 <= t1)
// by interval arithmetic.
func cubicSpan(d [4]float64, t0, t1 float64) (lo, hi float64) {
	lo, hi = d[3], d[3]
	for i := 2; i >= 0; i-- {
		a, b := lo*t0, lo*t1
		c, e := hi*t0, hi*t1
		lo = math.Min(math.Min(a, b), math.Min(c, e)) + d[i]
		hi = math.Max(math.Max(a, b), math.Max(c, e)) + d[i]
	}
	return lo, hi
}

// cubicDet returns the coefficients in t of det(h_0 + t*d_0, h_1 + t*d_1,
// h_2 + t*d_2).
func cubicDet(h, d [3][3]float64) [4]float64 {
	return [4]float64{
		det3(h[0], h[1], h[2]),
		det3(d[0], h[1], h[2]) + det3(h[0], d[1], h[2]) + det3(h[0], h[1], d[2]),
		det3(d[0], d[1], h[2]) + det3(d[0], h[1], d[2]) + det3(h[0], d[1], d[2]),
		det3(d[0], d[1], d[2]),
	}
}
