package raster5d

import (
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// Case is the kind of a triangle, chosen once at setup (section 5.1 of
// Ragan-Kelley et al.); each has its own edge functions (see doc.go).
type Case uint8

const (
	// Rejected: nothing can be covered (invalid input, empty box, zero area,
	// or culled at every lens position and time).
	Rejected Case = iota
	// Static: no motion and a pinhole lens: 2D homogeneous edge functions.
	Static
	// Moving: motion, pinhole lens: edge functions quadratic in t.
	Moving
	// Defocused: no motion, a lens: aperture-continuous edge functions (Av+B, Cu+D, Eu+Fv+G).
	Defocused
	// Both: motion and a lens: the vertices are warped to each sample's (u, v, t).
	Both
	// NumCases is the number of cases, Rejected included (the length of Stats.SampleTests).
	NumCases
)

var caseNames = enum.Names[Case]{Type: "Case", Names: []string{"rejected", "static", "moving", "defocused", "both"}}

// String returns the case's name.
func (c Case) String() string { return caseNames.String(c) }

// Config is the per-draw rasterizer state.
type Config struct {
	Pattern  *Pattern
	Bounds   raster.Rect   // render-target bounds intersected with the viewport and the scissor (pixels)
	Cull     geom.CullMode // which faces are discarded, decided per sample
	FrontCCW bool          // front faces are counter-clockwise on screen (D3D FrontCounterClockwise)
}

// Validate checks the configuration and names the offending field.
func (c *Config) Validate() error {
	if c.Pattern == nil || c.Pattern.n == 0 {
		return fmt.Errorf("raster5d: Config.Pattern: missing (use NewPattern)")
	}
	if c.Bounds.X1 < c.Bounds.X0 || c.Bounds.Y1 < c.Bounds.Y0 {
		return fmt.Errorf("raster5d: Config.Bounds: %+v is inverted", c.Bounds)
	}
	if c.Cull > geom.CullBack {
		return fmt.Errorf("raster5d: Config.Cull: unknown mode %d", c.Cull)
	}
	return nil
}

// edgeForm is how an edge's function is evaluated at a sample; it depends only
// on the edge's two vertices and the lens, so two triangles sharing the edge
// evaluate it the same way.
type edgeForm uint8

const (
	// formPoly: pinhole lens; A(t) = a0 + t*(a1 + t*a2), B(t), C(t) likewise
	// (a1 = a2 = 0 when neither vertex moves).
	formPoly edgeForm = iota
	// formLens: a lens and two still vertices: A = a0 + v*a1, B = b0 + u*b1,
	// C = (c0 + u*c1) + v*c2.
	formLens
	// formWarp: a lens and a moving vertex: the cross product of the two
	// vertices warped to (u, v, t), times a[0] (the orientation sign).
	formWarp
)

// vertex is a triangle vertex in float64.
type vertex struct {
	x0, y0, z0, w0 float64 // clip position at shutter open
	dx, dy, dz, dw float64 // clip motion over the shutter: p1 - p0
	hx, hy         float64 // screen-homogeneous x, y at t = 0 (w is w0)
	hdx, hdy       float64 // screen-homogeneous motion: hx(1) - hx(0), hy(1) - hy(0)
	ax, by         float64 // lens shear of the still vertex: Kx*sx*(w0-F), Ky*sy*(w0-F)
	moving         bool    // x, y or w differ between p0 and p1
}

// edge is the function of the edge opposite vertex k, from V[k+1] to V[k+2],
// with the coefficients of its canonical evaluation already multiplied by the
// orientation sign (an exact negation), so that it is positive inside a
// triangle whose determinant is positive.
type edge struct {
	form    edgeForm
	i, j    int // canonical endpoints (vertex indices), i's positions sort first
	a, b, c [3]float64
}

// Triangle is a triangle set up for 5D rasterization. Setup fills it; the
// methods read it and never modify it. It holds the Pattern pointer of its
// Config and is otherwise a plain value.
type Triangle struct {
	Case     Case
	BBox     raster.Rect  // union screen box over t in [0, 1] and |u|, |v| <= 1, within Config.Bounds
	P0, P1   [3]geom.Vec4 // clip positions at shutter open and close
	Lens     Lens
	Viewport geom.Viewport

	pat      *Pattern
	v        [3]vertex
	e        [3]edge
	det      [4]float64 // Static: d; Moving: cubic in t; Defocused: N0, Nu, Nv
	kx, ky   float64    // Lens.Kx, Lens.Ky
	f        float64    // Lens.F
	sx, sy   float64    // viewport scale: Width/2, -Height/2
	cx, cy   float64    // viewport centre: X + Width/2, Y + Height/2
	cull     geom.CullMode
	frontCCW bool
	zlo, zhi float32 // viewport depth range, ordered

	// Traversal buckets (doc.go): the case's layout, each bucket's box, the
	// sign d has at a covered sample of the bucket (0: unknown) and the buckets
	// the cull mode discards whole.
	layout        bucketLayout
	boxes         [maxBuckets]raster.Rect
	signs         [maxBuckets]int8
	culledBuckets uint64
	mag           [3][3]float64 // per vertex, the largest |hx|, |hy|, |w| over the (u, v, t) domain
}

// Setup sets up the triangle with clip positions p0 at shutter open and p1 at
// shutter close (p1 = p0 for a still triangle), the lens, the viewport and the
// configuration, and returns its case. Rejected means no sample can be covered:
// an invalid Config, Lens or viewport (Width, Height must be > 0), a non-finite
// coordinate, an empty box, a zero-area triangle, or a triangle culled at every
// (u, v, t). t is fully overwritten.
func Setup(p0, p1 [3]geom.Vec4, lens Lens, vp geom.Viewport, cfg *Config, t *Triangle) Case {
	if !t.setupEquations(p0, p1, lens, vp, cfg) {
		*t = Triangle{}
		return Rejected
	}
	t.setupSigns()
	if !t.setupBoxes(cfg.Bounds) {
		*t = Triangle{}
		return Rejected
	}
	return t.Case
}

// setupEquations is Setup without the traversal bounds: the case, the
// vertices, the edge functions and the determinant. It returns false when
// Setup rejects the triangle before looking at its box.
func (t *Triangle) setupEquations(p0, p1 [3]geom.Vec4, lens Lens, vp geom.Viewport, cfg *Config) bool {
	*t = Triangle{}
	if cfg.Validate() != nil || lens.Validate() != nil || !validViewport(vp) {
		return false
	}
	motion := false
	for k := 0; k < 3; k++ {
		for c := 0; c < 4; c++ {
			if !geom.Finite(p0[k][c]) || !geom.Finite(p1[k][c]) {
				return false
			}
		}
		motion = motion || p0[k] != p1[k]
	}
	t.P0, t.P1, t.Lens, t.Viewport = p0, p1, lens, vp
	t.pat, t.cull, t.frontCCW = cfg.Pattern, cfg.Cull, cfg.FrontCCW
	t.kx, t.ky, t.f = float64(lens.Kx), float64(lens.Ky), float64(lens.F)
	t.sx, t.sy = float64(vp.Width)/2, -float64(vp.Height)/2
	t.cx, t.cy = float64(vp.X)+float64(vp.Width)/2, float64(vp.Y)+float64(vp.Height)/2
	t.zlo, t.zhi = min(vp.MinZ, vp.MaxZ), max(vp.MinZ, vp.MaxZ)
	lensOn := !lens.Pinhole()
	switch {
	case !motion && !lensOn:
		t.Case = Static
	case !lensOn:
		t.Case = Moving
	case !motion:
		t.Case = Defocused
	default:
		t.Case = Both
	}
	t.layout = layouts[t.Case]
	for k := range t.v {
		t.setupVertex(k)
	}
	for k := range t.e {
		t.setupEdge(k, lensOn)
	}
	return t.setupDet()
}

func validViewport(vp geom.Viewport) bool {
	for _, f := range []float32{vp.X, vp.Y, vp.Width, vp.Height, vp.MinZ, vp.MaxZ} {
		if !geom.Finite(f) {
			return false
		}
	}
	return vp.Width > 0 && vp.Height > 0
}

func (t *Triangle) setupVertex(k int) {
	a, b := t.P0[k], t.P1[k]
	p := &t.v[k]
	p.x0, p.y0, p.z0, p.w0 = float64(a[0]), float64(a[1]), float64(a[2]), float64(a[3])
	p.dx = float64(b[0]) - p.x0
	p.dy = float64(b[1]) - p.y0
	p.dz = float64(b[2]) - p.z0
	p.dw = float64(b[3]) - p.w0
	p.moving = a[0] != b[0] || a[1] != b[1] || a[3] != b[3]
	p.hx = float64(p.x0*t.sx) + float64(p.w0*t.cx)
	p.hy = float64(p.y0*t.sy) + float64(p.w0*t.cy)
	x1, y1, w1 := float64(b[0]), float64(b[1]), float64(b[3])
	p.hdx = float64(float64(x1*t.sx)+float64(w1*t.cx)) - p.hx
	p.hdy = float64(float64(y1*t.sy)+float64(w1*t.cy)) - p.hy
	p.ax = float64(float64(t.kx*t.sx) * float64(p.w0-t.f))
	p.by = float64(float64(t.ky*t.sy) * float64(p.w0-t.f))
}

// before reports whether vertex i's positions sort before vertex j's
// (lexicographically over p0 then p1, as float32): the canonical edge order.
func (t *Triangle) before(i, j int) bool {
	for c := 0; c < 8; c++ {
		a, b := t.P0[i][c&3], t.P0[j][c&3]
		if c >= 4 {
			a, b = t.P1[i][c&3], t.P1[j][c&3]
		}
		if a != b {
			return a < b
		}
	}
	return false
}

func (t *Triangle) setupEdge(k int, lensOn bool) {
	e := &t.e[k]
	i, j := (k+1)%3, (k+2)%3
	s := 1.0
	if t.before(j, i) {
		i, j, s = j, i, -1
	}
	e.i, e.j = i, j
	p, q := &t.v[i], &t.v[j]
	switch {
	case !lensOn:
		e.form = formPoly
		hp := [3]float64{p.hx, p.hy, p.w0}
		hq := [3]float64{q.hx, q.hy, q.w0}
		dp := [3]float64{p.hdx, p.hdy, p.dw}
		dq := [3]float64{q.hdx, q.hdy, q.dw}
		c0 := cross(hp, hq)
		c1 := add3(cross(hp, dq), cross(dp, hq))
		c2 := cross(dp, dq)
		e.a = [3]float64{c0[0], c1[0], c2[0]}
		e.b = [3]float64{c0[1], c1[1], c2[1]}
		e.c = [3]float64{c0[2], c1[2], c2[2]}
	case !p.moving && !q.moving:
		e.form = formLens
		e.a = [3]float64{diffProd(p.hy, q.w0, p.w0, q.hy), diffProd(p.by, q.w0, p.w0, q.by), 0}
		e.b = [3]float64{diffProd(p.w0, q.hx, p.hx, q.w0), diffProd(p.w0, q.ax, p.ax, q.w0), 0}
		e.c = [3]float64{diffProd(p.hx, q.hy, p.hy, q.hx), diffProd(p.ax, q.hy, p.hy, q.ax), diffProd(p.hx, q.by, p.by, q.hx)}
	default:
		e.form = formWarp
		e.a[0] = s
		return
	}
	for c := 0; c < 3; c++ {
		e.a[c], e.b[c], e.c[c] = s*e.a[c], s*e.b[c], s*e.c[c]
	}
}

// diffProd returns a*b - c*d with each product rounded (no fused multiply-add).
func diffProd(a, b, c, d float64) float64 { return float64(a*b) - float64(c*d) }

// cross returns p x q for screen-homogeneous points (x, y, w): the edge
// function's coefficients (A, B, C) of the line through p and q.
func cross(p, q [3]float64) [3]float64 {
	return [3]float64{diffProd(p[1], q[2], p[2], q[1]), diffProd(p[2], q[0], p[0], q[2]), diffProd(p[0], q[1], p[1], q[0])}
}

func add3(a, b [3]float64) [3]float64 { return [3]float64{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// det3 returns the determinant of the 3x3 matrix with columns (or rows) a, b, c:
// (a0*x + a1*y) + a2*z with (x, y, z) = b x c.
func det3(a, b, c [3]float64) float64 {
	x := cross(b, c)
	return float64(float64(a[0]*x[0])+float64(a[1]*x[1])) + float64(a[2]*x[2])
}

// setupDet computes the determinant polynomial of the case and returns false
// when the triangle is degenerate or culled at every (u, v, t) it can have.
func (t *Triangle) setupDet() bool {
	h := func(k int) [3]float64 { return [3]float64{t.v[k].hx, t.v[k].hy, t.v[k].w0} }
	d := func(k int) [3]float64 { return [3]float64{t.v[k].hdx, t.v[k].hdy, t.v[k].dw} }
	h0, h1, h2 := h(0), h(1), h(2)
	switch t.Case {
	case Static:
		t.det[0] = det3(h0, h1, h2)
		return t.det[0] != 0 && !t.culled(t.det[0])
	case Moving:
		d0, d1, d2 := d(0), d(1), d(2)
		t.det = [4]float64{
			det3(h0, h1, h2),
			det3(d0, h1, h2) + det3(h0, d1, h2) + det3(h0, h1, d2),
			det3(d0, d1, h2) + det3(d0, h1, d2) + det3(h0, d1, d2),
			det3(d0, d1, d2),
		}
	case Defocused:
		rx := [3]float64{t.v[0].hx, t.v[1].hx, t.v[2].hx}
		ry := [3]float64{t.v[0].hy, t.v[1].hy, t.v[2].hy}
		rw := [3]float64{t.v[0].w0, t.v[1].w0, t.v[2].w0}
		ax := [3]float64{t.v[0].ax, t.v[1].ax, t.v[2].ax}
		by := [3]float64{t.v[0].by, t.v[1].by, t.v[2].by}
		t.det = [4]float64{det3(rx, ry, rw), det3(ax, ry, rw), det3(rx, by, rw)}
	default: // Both: per sample from the warped vertices
		return true
	}
	// The sign is the same everywhere when the constant term outweighs the
	// others over t in [0, 1] or |u|, |v| <= 1 (with a margin for rounding).
	c0, rest := t.det[0], math.Abs(t.det[1])+math.Abs(t.det[2])+math.Abs(t.det[3])
	if c0 == 0 && rest == 0 {
		return false
	}
	if math.Abs(c0) > rest*(1+1e-9) && t.culled(c0) {
		return false
	}
	return true
}

// culled reports whether a sample where the warped triangle's determinant is d
// is discarded by the cull mode (d > 0: clockwise on screen).
func (t *Triangle) culled(d float64) bool {
	front := (d > 0) != t.frontCCW
	return t.cull == geom.CullBack && !front || t.cull == geom.CullFront && front
}

// setupBoxes computes the screen box of every traversal bucket and their union
// BBox, within bounds; it returns false when BBox is empty.
func (t *Triangle) setupBoxes(bounds raster.Rect) bool {
	nt, nl := t.layout.nt, t.layout.nl
	p := t.pat
	t.BBox = raster.Rect{}
	first := true
	var pts nearHull
	for tb := 0; tb < nt; tb++ {
		t.clipNear(bucketEnd(0, 1, nt, tb), bucketEnd(0, 1, nt, tb+1), &pts)
		for vb := 0; vb < nl; vb++ {
			for ub := 0; ub < nl; ub++ {
				b := tb*nl*nl + vb*nl + ub
				box := bounds
				if pts.front && pts.n == 0 || t.culledBuckets>>uint(b)&1 != 0 {
					box = raster.Rect{}
				} else if pts.front {
					u0, u1 := bucketEnd(-1, 1, nl, ub), bucketEnd(-1, 1, nl, ub+1)
					v0, v1 := bucketEnd(-1, 1, nl, vb), bucketEnd(-1, 1, nl, vb+1)
					xlo, xhi, ylo, yhi := t.screenSpan(&pts, u0, u1, v0, v1)
					box.X0, box.X1 = pixelSpan(xlo, xhi, p.minX, p.maxX, bounds.X0, bounds.X1)
					box.Y0, box.Y1 = pixelSpan(ylo, yhi, p.minY, p.maxY, bounds.Y0, bounds.Y1)
				}
				t.boxes[b] = box
				if box.Empty() {
					continue
				}
				if first {
					t.BBox, first = box, false
					continue
				}
				t.BBox = raster.Rect{X0: min(t.BBox.X0, box.X0), Y0: min(t.BBox.Y0, box.Y0),
					X1: max(t.BBox.X1, box.X1), Y1: max(t.BBox.Y1, box.Y1)}
			}
		}
	}
	return !t.BBox.Empty()
}

// nearTolerance is how far beyond the near plane (in z/w) the bucket boxes
// keep the triangle, for the rounding of a sample's depth ratio.
const nearTolerance = 1e-6

// nearHull is the point set whose convex hull holds the triangle over a time
// interval, clipped to the near plane: the vertices at the interval's ends
// that are in front of it and the crossings of the plane by the segments
// between those in front and those behind. front is false when some point
// has w <= 0 (no bound: the box is the whole Bounds); n = 0 with front true
// means the triangle is behind the near plane all the interval.
type nearHull struct {
	p     [12][4]float64 // clip x, y, z, w (unsheared)
	n     int
	front bool
}

// clipNear fills h for the triangle over [t0, t1]. Every point of the
// triangle at a time in the interval is a convex combination of the six
// vertex positions at its ends (the vertices move linearly), and the part of
// that hull with z/w >= 0 is the hull of the points kept here; a sample's
// point has w > 0 and z/w in [0, 1] (doc.go), so it lies in it (the plane is
// moved by nearTolerance for rounding).
func (t *Triangle) clipNear(t0, t1 float64, h *nearHull) {
	var all [6][4]float64
	var dist [6]float64
	for k := 0; k < 3; k++ {
		for e, tm := range [2]float64{t0, t1} {
			v := &t.v[k]
			q := [4]float64{v.x0 + float64(tm*v.dx), v.y0 + float64(tm*v.dy), v.z0 + float64(tm*v.dz), v.w0 + float64(tm*v.dw)}
			all[2*k+e] = q
			dist[2*k+e] = q[2] + float64(nearTolerance*q[3])
		}
	}
	h.n, h.front = 0, true
	for i := range all {
		if dist[i] >= 0 {
			h.add(all[i])
		}
	}
	for i := range all {
		for j := range all {
			if dist[i] >= 0 && dist[j] < 0 {
				a := dist[i] / (dist[i] - dist[j])
				var q [4]float64
				for c := range q {
					q[c] = all[i][c] + a*(all[j][c]-all[i][c])
				}
				h.add(q)
			}
		}
	}
}

func (h *nearHull) add(q [4]float64) {
	if !(q[3] > 0) {
		h.front = false
	}
	h.p[h.n] = q
	h.n++
}

// screenSpan returns the screen x and y extents (pixels) of the hull's points
// sheared by the lens at u in [u0, u1] and v in [v0, v1]: a point's screen x
// is linear in u and its y in v, and with w > 0 the hull projects to a convex
// set spanned by its points' projections. No points gives an empty span.
func (t *Triangle) screenSpan(h *nearHull, u0, u1, v0, v1 float64) (xlo, xhi, ylo, yhi float64) {
	xlo, xhi, ylo, yhi = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i := 0; i < h.n; i++ {
		q := &h.p[i]
		w := q[3]
		for _, u := range [2]float64{u0, u1} {
			x := q[0] + float64(u*float64(t.kx*float64(w-t.f)))
			sx := (float64(x*t.sx) + float64(w*t.cx)) / w
			xlo, xhi = math.Min(xlo, sx), math.Max(xhi, sx)
		}
		for _, v := range [2]float64{v0, v1} {
			y := q[1] + float64(v*float64(t.ky*float64(w-t.f)))
			sy := (float64(y*t.sy) + float64(w*t.cy)) / w
			ylo, yhi = math.Min(ylo, sy), math.Max(yhi, sy)
		}
	}
	return xlo, xhi, ylo, yhi
}

// pixelSpan returns the pixels [p0, p1) within [b0, b1) that have a sample
// position (pixel + (128 + o)/256, o in [minO, maxO]) inside [lo, hi] pixels,
// widened by a tolerance for the rounding of the edge functions. NaN bounds give
// [b0, b1).
func pixelSpan(lo, hi float64, minO, maxO int16, b0, b1 int) (int, int) {
	if !(lo <= hi) {
		return b0, b1
	}
	tol := 1e-6 + 1e-9*math.Max(math.Abs(lo), math.Abs(hi))
	a := lo - tol - float64(128+int(maxO))/256
	z := hi + tol - float64(128+int(minO))/256
	a = math.Min(math.Max(a, float64(b0)), float64(b1))
	z = math.Min(math.Max(z, float64(b0)-1), float64(b1))
	p0, p1 := int(math.Ceil(a)), int(math.Floor(z))+1
	return max(p0, b0), min(p1, b1)
}
