package decouple

import (
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// View is the domain a Map shades in, chosen once per triangle.
type View uint8

const (
	// ViewOpen: the triangle at shutter open (t = 0) seen from the lens centre.
	ViewOpen View = iota
	// ViewClose: the triangle at shutter close (t = 1) from the lens centre,
	// used when the shutter-open view is degenerate.
	ViewClose
	// ViewBarycentric: a regular grid in barycentric space, used when both
	// views are degenerate.
	ViewBarycentric
)

// String returns the view's name.
func (v View) String() string {
	switch v {
	case ViewOpen:
		return "open"
	case ViewClose:
		return "close"
	case ViewBarycentric:
		return "barycentric"
	}
	return "View(?)"
}

// Tag names a shading quad: 2x2 shading points of one primitive. QuadX and
// QuadY are the grid cell of its lane-0 point (both even); with no blur and
// rate 1 they are the pixel coordinates of the pixel quad (raster.Quad.X, Y).
//
// Sample is zero except in supersampling (one shading quad per pixel quad and
// sample index: lane k is sample Sample of pixel k), which the renderers tag
// themselves; the map never sets it.
type Tag struct {
	Prim         uint32
	QuadX, QuadY int32
	Sample       uint8
}

// Tap is one shading point a visibility sample reads: the shading quad, the
// lane in it ((x&1) + 2*(y&1) of the grid cell) and the reconstruction weight.
type Tap struct {
	Tag    Tag
	Lane   uint8
	Weight float32
}

// Lookup is the result of Map.Index: N taps (1 for nearest-neighbour
// reconstruction, 1 to 4 for bilinear), weights summing to 1.
type Lookup struct {
	Taps [4]Tap
	N    int
}

// PointKind says where a shading point is evaluated (Map.Barycentrics).
type PointKind uint8

const (
	// PointInside: the grid point is inside the reference triangle and is
	// evaluated there.
	PointInside PointKind = iota
	// PointSnapped: the grid point is outside the triangle but a visibility
	// sample can map to it; it is evaluated at its barycentrics clamped into the
	// triangle.
	PointSnapped
	// PointHelper: no visibility sample can map to the lane; it is evaluated
	// at its grid point (extrapolated) for the quad's derivatives only.
	PointHelper
)

// String returns the kind's name.
func (k PointKind) String() string {
	switch k {
	case PointInside:
		return "inside"
	case PointSnapped:
		return "snapped"
	case PointHelper:
		return "helper"
	}
	return "PointKind(?)"
}

// maxSpacing is the largest grid spacing in 1/256 units (MaxRate pixels).
const maxSpacing = MaxRate * 256

// Map is the decoupling map S of one triangle: from the clip-space barycentrics
// of a visibility sample to the shading points it reads. It holds no pointers;
// copy it freely. The zero Map is not usable: build one with NewMap.
type Map struct {
	prim     uint32
	view     View
	bilinear bool
	spacing  int64       // grid spacing in 1/256 units of grid space
	cells    int64       // ViewBarycentric: cells per unit of barycentric space at rate 1
	g        [3][2]int64 // the triangle in grid space, 1/256 units (snapped screen vertices, or the unit triangle)
	area     int64       // geom.SignedArea of g
	w        [3]float64  // clip w of the reference vertices
	pl       raster.BarycentricPlanes
}

// NewMap builds the map of primitive prim, whose clip-space vertex positions are
// ref at shutter open (t = 0) and end at shutter close (t = 1), both from the
// lens centre, in viewport vp. The reference view is ViewOpen unless that
// triangle is degenerate (a vertex with w <= 0 or non-finite, a vertex beyond
// geom.SnapLimit on screen, or zero snapped area), then ViewClose under the same
// test, else ViewBarycentric. The only error is invalid options.
func NewMap(prim uint32, ref, end [3]geom.Vec4, vp geom.Viewport, opts Options) (Map, error) {
	if err := opts.Validate(); err != nil {
		return Map{}, err
	}
	m := Map{prim: prim, bilinear: opts.Bilinear}
	if sv, ok := screenTriangle(ref, vp); ok {
		m.setScreen(ViewOpen, &ref, &sv, vp, opts)
	} else if sv, ok := screenTriangle(end, vp); ok {
		m.setScreen(ViewClose, &end, &sv, vp, opts)
	} else {
		m.setBarycentric(opts)
	}
	return m, nil
}

// screenTriangle projects p and reports whether it is a valid shading domain.
func screenTriangle(p [3]geom.Vec4, vp geom.Viewport) ([3]geom.ScreenVertex, bool) {
	var sv [3]geom.ScreenVertex
	for k := range p {
		for c := 0; c < 4; c++ {
			if f := float64(p[k][c]); math.IsNaN(f) || math.IsInf(f, 0) {
				return sv, false
			}
		}
		if !(p[k][3] > 0) {
			return sv, false
		}
		sv[k] = vp.ToScreen(p[k])
		if abs32(sv[k].X) >= geom.SnapLimit || abs32(sv[k].Y) >= geom.SnapLimit {
			return sv, false
		}
	}
	return sv, geom.SignedArea(sv[0], sv[1], sv[2]) != 0
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

func (m *Map) setScreen(view View, p *[3]geom.Vec4, sv *[3]geom.ScreenVertex, vp geom.Viewport, opts Options) {
	m.view = view
	for k := range sv {
		m.g[k] = [2]int64{int64(sv[k].X), int64(sv[k].Y)}
		m.w[k] = float64(p[k][3])
	}
	m.area = geom.SignedArea(sv[0], sv[1], sv[2])
	m.pl = raster.NewBarycentricPlanes(sv, m.area)
	spacing := opts.rate()
	if opts.Adaptive && !opts.Discards {
		// The smallest circle of confusion of the three vertices (the
		// paper's "computed at the vertices", taken literally). It is not
		// conservative for a triangle that straddles the focus plane, whose
		// interior holds a point in focus though no vertex is: such a
		// triangle keeps a spacing its vertices allow. On defocus at
		// 640x360 x 8 spp, 20 of its 9,572 blurred primitives straddle the
		// focus plane and none of them gets a spacing above 1 (7,979 others
		// do): no effect there today.
		coc := math.Inf(1)
		for k := range p {
			coc = math.Min(coc, opts.Lens.CoC(p[k][3], vp))
		}
		spacing = math.Max(spacing, opts.adaptiveScale()*coc)
	}
	m.spacing = spacingUnits(spacing)
}

func (m *Map) setBarycentric(opts Options) {
	m.view = ViewBarycentric
	m.cells = opts.cells()
	n := m.cells * 256
	m.g = [3][2]int64{{0, 0}, {n, 0}, {0, n}}
	m.area = n * n
	m.spacing = spacingUnits(opts.rate())
}

// spacingUnits rounds a spacing to 1/256 units, within [1, maxSpacing].
func spacingUnits(s float64) int64 {
	u := math.RoundToEven(s * 256)
	if !(u >= 1) {
		return 1
	}
	if u > maxSpacing {
		return maxSpacing
	}
	return int64(u)
}

// Prim returns the primitive id the map tags with.
func (m *Map) Prim() uint32 { return m.prim }

// View returns the reference view.
func (m *Map) View() View { return m.view }

// Spacing returns the shading grid spacing: in pixels for ViewOpen and
// ViewClose, in barycentric cells (1/BarycentricCells of barycentric space) for
// ViewBarycentric.
func (m *Map) Spacing() float32 { return float32(float64(m.spacing) / 256) }

// Index maps the clip-space barycentrics b of a visibility sample to the
// shading points it reads (see the package documentation for the exact rule).
func (m *Map) Index(b [3]float32) Lookup {
	u, v := m.gridPosition(b)
	var l Lookup
	s := m.spacing
	if !m.bilinear {
		l.Taps[0] = m.tap(floorDiv(u, s), floorDiv(v, s), 1)
		l.N = 1
		return l
	}
	// Grid point i sits at (2i+1)*s/2: work in doubled units.
	s2 := 2 * s
	du, dv := 2*u-s, 2*v-s
	i0, j0 := floorDiv(du, s2), floorDiv(dv, s2)
	rx, ry := du-i0*s2, dv-j0*s2 // in [0, s2)
	inv := 1 / float64(s2*s2)
	num := [4]int64{(s2 - rx) * (s2 - ry), rx * (s2 - ry), (s2 - rx) * ry, rx * ry}
	for k, n := range num {
		if n != 0 {
			l.Taps[l.N] = m.tap(i0+int64(k&1), j0+int64(k>>1), float32(float64(n)*inv))
			l.N++
		}
	}
	return l
}

func (m *Map) tap(i, j int64, w float32) Tap {
	return Tap{Tag: Tag{Prim: m.prim, QuadX: int32(i &^ 1), QuadY: int32(j &^ 1)},
		Lane: uint8(i&1 | (j&1)<<1), Weight: w}
}

// gridPosition returns the sample's point in grid space, 1/256 units.
func (m *Map) gridPosition(b [3]float32) (u, v int64) {
	if m.view == ViewBarycentric {
		n := float64(m.cells * 256)
		return int64(math.RoundToEven(float64(clamp01(b[1])) * n)), int64(math.RoundToEven(float64(clamp01(b[2])) * n))
	}
	// Screen-linear weights of the reference triangle: l_k = b_k*w_k / sum_j b_j*w_j.
	q1 := float64(float64(b[1]) * m.w[1])
	q2 := float64(float64(b[2]) * m.w[2])
	s := float64(float64(b[0])*m.w[0]) + q1 + q2
	l1, l2 := q1/s, q2/s
	x := float64(m.g[0][0]) + float64(l1*float64(m.g[1][0]-m.g[0][0])) + float64(l2*float64(m.g[2][0]-m.g[0][0]))
	y := float64(m.g[0][1]) + float64(l1*float64(m.g[1][1]-m.g[0][1])) + float64(l2*float64(m.g[2][1]-m.g[0][1]))
	return snapUnits(x, m.g[0][0]), snapUnits(y, m.g[0][1])
}

// snapUnits rounds x half to even and saturates it at +-geom.SnapLimit; a
// non-finite x (a sample with sum b_k*w_k = 0) becomes fallback, vertex 0.
func snapUnits(x float64, fallback int64) int64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fallback
	}
	r := math.RoundToEven(x)
	return int64(math.Max(-geom.SnapLimit, math.Min(geom.SnapLimit, r)))
}

func clamp01(v float32) float32 {
	if !(v > 0) {
		return 0
	}
	return min(v, 1)
}

// floorDiv returns floor(a / b) for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// cell returns the grid cell of lane of tag.
func cell(tag Tag, lane int) (i, j int64) {
	return int64(tag.QuadX) + int64(lane&1), int64(tag.QuadY) + int64(lane>>1&1)
}

// ShadingPoint returns the grid position of lane (0..3) of shading quad tag:
// ((i + 0.5)*spacing, (j + 0.5)*spacing) for grid cell (i, j) = (QuadX +
// lane&1, QuadY + lane>>1), in pixels, or in barycentric coordinates (b1, b2)
// for ViewBarycentric.
func (m *Map) ShadingPoint(tag Tag, lane int) (x, y float32) {
	i, j := cell(tag, lane)
	scale := 512.0
	if m.view == ViewBarycentric {
		scale *= float64(m.cells)
	}
	return float32(float64(2*i*m.spacing+m.spacing) / scale), float32(float64(2*j*m.spacing+m.spacing) / scale)
}

// Barycentrics returns the perspective-correct clip-space barycentrics on the
// reference triangle at which lane of shading quad tag is shaded, and where
// that is: PointInside (at the grid point), PointSnapped (the grid point's
// barycentrics with negative weights set to 0 and renormalized) or PointHelper
// (the grid point's extrapolated barycentrics; (1/3, 1/3, 1/3) if they are not
// finite). It depends only on the map and (tag, lane).
func (m *Map) Barycentrics(tag Tag, lane int) ([3]float32, PointKind) {
	x, y := m.ShadingPoint(tag, lane)
	var b [3]float32
	if m.view == ViewBarycentric {
		b = [3]float32{float32(1-x) - y, x, y}
	} else {
		b = m.pl.At(x, y, true)
	}
	finite := geom.Finite(b[0]) && geom.Finite(b[1]) && geom.Finite(b[2])
	if finite && b[0] >= 0 && b[1] >= 0 && b[2] >= 0 {
		return b, PointInside
	}
	i, j := cell(tag, lane)
	if !m.reachable(i, j) {
		if !finite {
			return centroid, PointHelper
		}
		return b, PointHelper
	}
	return clampBarycentrics(b), PointSnapped
}

var centroid = [3]float32{1.0 / 3, 1.0 / 3, 1.0 / 3}

// clampBarycentrics sets negative (and non-finite) weights to 0 and
// renormalizes; with nothing left it returns the centroid.
func clampBarycentrics(b [3]float32) [3]float32 {
	var c [3]float32
	for k, v := range b {
		if v > 0 && geom.Finite(v) {
			c[k] = v
		}
	}
	s := c[0] + c[1] + c[2]
	if !(s > 0) || !geom.Finite(s) {
		return centroid
	}
	return [3]float32{c[0] / s, c[1] / s, c[2] / s}
}

// reachable reports whether a visibility sample can map to grid cell (i, j):
// whether the cell's reconstruction footprint (the cell for nearest, the
// square of half-width one spacing around its point for bilinear), grown by one
// 1/256 unit on every side, touches the closed grid-space triangle. The test is
// exact integer arithmetic in doubled units.
func (m *Map) reachable(i, j int64) bool {
	s := m.spacing
	var x0, x1, y0, y1 int64
	if m.bilinear {
		x0, x1 = 2*i*s-s-2, 2*i*s+3*s+2
		y0, y1 = 2*j*s-s-2, 2*j*s+3*s+2
	} else {
		x0, x1 = 2*i*s-2, 2*(i+1)*s+2
		y0, y1 = 2*j*s-2, 2*(j+1)*s+2
	}
	var g [3][2]int64
	for k := range g {
		g[k] = [2]int64{2 * m.g[k][0], 2 * m.g[k][1]}
	}
	if max(g[0][0], g[1][0], g[2][0]) < x0 || min(g[0][0], g[1][0], g[2][0]) > x1 ||
		max(g[0][1], g[1][1], g[2][1]) < y0 || min(g[0][1], g[1][1], g[2][1]) > y1 {
		return false
	}
	for k := 0; k < 3; k++ {
		p, q := g[(k+1)%3], g[(k+2)%3]
		a, bb, c := p[1]-q[1], q[0]-p[0], p[0]*q[1]-q[0]*p[1]
		if m.area < 0 {
			a, bb, c = -a, -bb, -c
		}
		x, y := x0, y0
		if a > 0 {
			x = x1
		}
		if bb > 0 {
			y = y1
		}
		if a*x+bb*y+c < 0 {
			return false
		}
	}
	return true
}

// QuadPoints are the four lanes of a shading quad as the shader loads them.
type QuadPoints struct {
	X, Y    [4]float32    // grid positions (Map.ShadingPoint)
	Bary    [4][3]float32 // barycentrics to interpolate with (Map.Barycentrics)
	Snapped uint8         // bit lane: PointSnapped
	Helper  uint8         // bit lane: PointHelper, shaded for derivatives only, never read
}

// Quad returns the four lanes of shading quad tag.
func (m *Map) Quad(tag Tag) QuadPoints {
	var q QuadPoints
	for lane := 0; lane < 4; lane++ {
		q.X[lane], q.Y[lane] = m.ShadingPoint(tag, lane)
		b, kind := m.Barycentrics(tag, lane)
		q.Bary[lane] = b
		switch kind {
		case PointSnapped:
			q.Snapped |= 1 << lane
		case PointHelper:
			q.Helper |= 1 << lane
		}
	}
	return q
}

// MapStats counts the reference views chosen (statistics degenerate_t1 and
// degenerate_barycentric).
type MapStats struct {
	Triangles             int64
	DegenerateT1          int64 // ViewClose
	DegenerateBarycentric int64 // ViewBarycentric
}

// Count adds map m.
func (s *MapStats) Count(m *Map) {
	s.Triangles++
	switch m.view {
	case ViewClose:
		s.DegenerateT1++
	case ViewBarycentric:
		s.DegenerateBarycentric++
	}
}

// Add adds o to s.
func (s *MapStats) Add(o MapStats) {
	s.Triangles += o.Triangles
	s.DegenerateT1 += o.DegenerateT1
	s.DegenerateBarycentric += o.DegenerateBarycentric
}
