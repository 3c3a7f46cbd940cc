package geom

import "math"

// DefaultGuardBandRange is the rasterizer's default signed coordinate range in
// pixels: screen coordinates stay within (-16384, 16384), i.e. below 2^22 in
// 1/256 units, which leaves int64 edge arithmetic a wide margin (see SnapLimit).
const DefaultGuardBandRange = 16384

// maxGuardBandRange is the largest range NewGuardBand accepts (SnapLimit in pixels).
const maxGuardBandRange = SnapLimit / SubPixelScale

// GuardBand gives the guard-band clip planes in clip space: |x| <= X*w,
// |y| <= Y*w. X and Y are at least 1 (the guard band contains the viewport).
type GuardBand struct{ X, Y float32 }

// NewGuardBand makes the guard band of viewport vp for a rasterizer whose signed
// screen-coordinate range is rangePixels (DefaultGuardBandRange when <= 0 or NaN;
// at most 2^21). Per axis, with centre c and half size h of the viewport, the plane
// is (rangePixels - 1 - |c|) / h: a vertex on or inside it maps to a screen
// coordinate of magnitude at most rangePixels - 1 plus float rounding, so after
// snapping |X|, |Y| < rangePixels*256. When the viewport itself reaches beyond
// the range, or has no extent, the plane is 1 (the viewport edge): screen
// coordinates then stay within the viewport.
func NewGuardBand(vp Viewport, rangePixels float32) GuardBand {
	if !(rangePixels > 0) {
		rangePixels = DefaultGuardBandRange
	}
	if rangePixels > maxGuardBandRange {
		rangePixels = maxGuardBandRange
	}
	plane := func(origin, size float32) float32 {
		h := float64(size) / 2
		c := float64(origin) + h
		g := (float64(rangePixels) - 1 - math.Abs(c)) / h
		if !(h > 0) || !(g > 1) || math.IsInf(g, 0) {
			return 1
		}
		// Round down so the float32 plane never lies beyond the exact one.
		f := float32(g)
		if float64(f) > g {
			f = math.Nextafter32(f, 0)
		}
		return f
	}
	return GuardBand{X: plane(vp.X, vp.Width), Y: plane(vp.Y, vp.Height)}
}

// Clip codes (Cohen-Sutherland out-codes), one bit per plane.
const (
	ClipLeft    uint32 = 1 << iota // x < -w
	ClipRight                      // x > w
	ClipBottom                     // y < -w
	ClipTop                        // y > w
	ClipNear                       // z < 0
	ClipFar                        // z > w
	GuardLeft                      // x < -gb.X*w
	GuardRight                     // x > gb.X*w
	GuardBottom                    // y < -gb.Y*w
	GuardTop                       // y > gb.Y*w
	// ClipInvalid marks a position with a NaN or infinite component. Such a
	// vertex has every other bit set too, and ClassifyTriangle rejects any
	// triangle that has one.
	ClipInvalid
)

// FrustumMask holds the view-frustum bits; ClipPlaneMask the planes that
// ClipTriangle clips against (near, far and the guard band).
const (
	FrustumMask   = ClipLeft | ClipRight | ClipBottom | ClipTop | ClipNear | ClipFar
	GuardMask     = GuardLeft | GuardRight | GuardBottom | GuardTop
	ClipPlaneMask = ClipNear | ClipFar | GuardMask
)

// ClipCode returns the out-code of clip-space position p. A coordinate is
// compared with the same float32 product (gb.X*w) that the clipper uses, so a
// vertex has a guard bit exactly when ClipTriangle considers it outside.
func ClipCode(p Vec4, gb GuardBand) uint32 {
	x, y, z, w := p[0], p[1], p[2], p[3]
	if !Finite(x) || !Finite(y) || !Finite(z) || !Finite(w) {
		return FrustumMask | GuardMask | ClipInvalid
	}
	c := beyond(x, w, ClipLeft, ClipRight) | beyond(y, w, ClipBottom, ClipTop)
	if z < 0 {
		c |= ClipNear
	}
	if z > w {
		c |= ClipFar
	}
	gx := float32(gb.X * w)
	gy := float32(gb.Y * w)
	return c | beyond(x, gx, GuardLeft, GuardRight) | beyond(y, gy, GuardBottom, GuardTop)
}

// beyond returns the bit low when v < -lim and high when v > lim (both when
// lim is negative).
func beyond(v, lim float32, low, high uint32) uint32 {
	var c uint32
	if v < -lim {
		c |= low
	}
	if v > lim {
		c |= high
	}
	return c
}

// Finite reports whether v is neither NaN nor infinite.
func Finite(v float32) bool {
	return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0)
}

// AllFinite reports whether every one of vs is Finite.
func AllFinite(vs ...float32) bool {
	for _, v := range vs {
		if !Finite(v) {
			return false
		}
	}
	return true
}

// ClassifyTriangle combines the out-codes of a triangle's three vertices. The
// triangle is rejected when all vertices lie outside one frustum plane, or when a
// vertex is invalid (non-finite). Otherwise clipMask holds the near, far and
// guard-band planes that some vertex is outside of: pass it to ClipTriangle when
// it is non-zero. Triangles crossing only the viewport's side planes inside the
// guard band are not clipped (guard-band clipping).
func ClassifyTriangle(c0, c1, c2 uint32) (reject bool, clipMask uint32) {
	if (c0|c1|c2)&ClipInvalid != 0 || c0&c1&c2&FrustumMask != 0 {
		return true, 0
	}
	return false, (c0 | c1 | c2) & ClipPlaneMask
}

// ClipVertex is a clipped polygon vertex: its clip-space position and its
// barycentric weights relative to the three input vertices. Attributes are
// interpolated by the caller as B[0]*a0 + B[1]*a1 + B[2]*a2, linearly in clip
// space; for screen-linear (noperspective) attributes use NoPerspectiveWeights.
type ClipVertex struct {
	Pos Vec4
	B   [3]float32
}

// MaxClipVertices is the capacity of a ClipPolygon. Clipping a convex polygon
// against a plane adds at most one vertex, so a triangle clipped by the six
// planes has at most 3+6 = 9 vertices. Float rounding can make an intermediate
// polygon very slightly non-convex, and then a plane can add up to n/2 vertices
// to an n-gon (3 -> 4 -> 6 -> 9 -> 13 -> 19 -> 28); the array holds that worst case
// so that no input can overflow it.
const MaxClipVertices = 28

// ClipPolygon holds the result of clipping one triangle. It is empty (N < 3)
// when the triangle lies outside a plane. Callers fan it into triangles from
// its first vertex: (V[0], V[i], V[i+1]).
type ClipPolygon struct {
	N int
	V [MaxClipVertices]ClipVertex
}

// Plane indices in clipping order.
const (
	planeNear = iota
	planeFar
	planeGuardLeft
	planeGuardRight
	planeGuardBottom
	planeGuardTop
	numPlanes
)

var planeBits = [numPlanes]uint32{ClipNear, ClipFar, GuardLeft, GuardRight, GuardBottom, GuardTop}

// planeDistance is the signed distance of p to plane (inside when >= 0). It is
// exactly consistent with ClipCode: distance < 0 if and only if the plane's bit is set.
func planeDistance(plane int, p Vec4, gb GuardBand) float32 {
	switch plane {
	case planeNear:
		return p[2]
	case planeFar:
		return p[3] - p[2]
	case planeGuardLeft:
		return p[0] + float32(gb.X*p[3])
	case planeGuardRight:
		return float32(gb.X*p[3]) - p[0]
	case planeGuardBottom:
		return p[1] + float32(gb.Y*p[3])
	default: // planeGuardTop
		return float32(gb.Y*p[3]) - p[1]
	}
}

// placeOnPlane moves the clipped coordinate exactly onto the plane, so the
// new vertex's distance to the plane it was clipped against is exactly zero.
func placeOnPlane(plane int, p *Vec4, gb GuardBand) {
	switch plane {
	case planeNear:
		p[2] = 0
	case planeFar:
		p[2] = p[3]
	case planeGuardLeft:
		p[0] = -float32(gb.X * p[3])
	case planeGuardRight:
		p[0] = float32(gb.X * p[3])
	case planeGuardBottom:
		p[1] = -float32(gb.Y * p[3])
	default:
		p[1] = float32(gb.Y * p[3])
	}
}

// clipWork is a polygon vertex while clipping; orig is the input vertex it
// came from (0..2) or -1 for a vertex made by the clipper.
type clipWork struct {
	v    ClipVertex
	orig int8
}

// ClipTriangle clips the triangle p against the planes whose bits are in mask,
// in the fixed order near, far, guard left, guard right, guard bottom, guard top
// (Sutherland-Hodgman); other bits of mask are ignored. Invariants:
//   - an input vertex inside all planes is output bit-exactly (Pos and B unchanged);
//   - an edge AB is clipped identically to BA: the intersection is computed from
//     the inside vertex I towards the outside vertex O, t = dI/(dI-dO),
//     P = I + t*(O-I) in float32 with every operation rounded, and the coordinate
//     of the plane is then set exactly onto the plane;
//   - no intersection is made on an edge whose inside vertex lies exactly on the
//     plane (that vertex already is the boundary point), so no duplicates arise;
//   - the output keeps the input's winding and starts at the first surviving
//     input vertex in input order (when none survives: at the first vertex in
//     the clipper's processing order, which visits edges from vertex 0 onwards).
//
// Positions must be finite (ClassifyTriangle rejects the others).
func ClipTriangle(p [3]Vec4, mask uint32, gb GuardBand, out *ClipPolygon) {
	var bufA, bufB [MaxClipVertices]clipWork
	cur, next := &bufA, &bufB
	n := 3
	for i := 0; i < 3; i++ {
		cur[i].v.Pos = p[i]
		cur[i].v.B = [3]float32{}
		cur[i].v.B[i] = 1
		cur[i].orig = int8(i)
	}
	for plane := 0; plane < numPlanes && n > 0; plane++ {
		if mask&planeBits[plane] == 0 {
			continue
		}
		n = clipAgainst(plane, gb, cur[:n], next)
		cur, next = next, cur
	}
	// Rotate so the polygon starts at the lowest-numbered surviving input vertex.
	start := 0
	best := int8(3)
	for i := 0; i < n; i++ {
		if o := cur[i].orig; o >= 0 && o < best {
			best, start = o, i
		}
	}
	if n < 3 {
		n = 0
	}
	out.N = n
	for i := 0; i < n; i++ {
		out.V[i] = cur[(start+i)%n].v
	}
}

// clipAgainst clips polygon in against one plane into out and returns the
// output vertex count. Edges are visited from vertex 0: each inside vertex is
// emitted, followed by the intersection of its outgoing edge if that crosses
// the plane.
func clipAgainst(plane int, gb GuardBand, in []clipWork, out *[MaxClipVertices]clipWork) int {
	var d [MaxClipVertices]float32
	anyOut := false
	for i := range in {
		d[i] = planeDistance(plane, in[i].v.Pos, gb)
		if !(d[i] >= 0) {
			anyOut = true
		}
	}
	if !anyOut {
		copy(out[:], in)
		return len(in)
	}
	n := 0
	for i := range in {
		j := i + 1
		if j == len(in) {
			j = 0
		}
		inI, inJ := d[i] >= 0, d[j] >= 0
		if inI && n < MaxClipVertices {
			out[n] = in[i]
			n++
		}
		if inI == inJ || n >= MaxClipVertices {
			continue
		}
		// The edge crosses the plane: interpolate from the inside vertex.
		a, b, da, db := i, j, d[i], d[j]
		if !inI {
			a, b, da, db = j, i, d[j], d[i]
		}
		if da == 0 {
			continue // the inside vertex is on the plane: it is the boundary point
		}
		out[n] = clipWork{v: intersect(&in[a].v, &in[b].v, da, db), orig: -1}
		placeOnPlane(plane, &out[n].v.Pos, gb)
		n++
	}
	return n
}

// intersect returns the point of segment inside->outside where the distance is
// zero, and its weights, computed from the inside vertex.
func intersect(in, out *ClipVertex, din, dout float32) ClipVertex {
	t := din / float32(din-dout)
	var r ClipVertex
	for k := 0; k < 4; k++ {
		r.Pos[k] = in.Pos[k] + float32(t*float32(out.Pos[k]-in.Pos[k]))
	}
	for k := 0; k < 3; k++ {
		r.B[k] = in.B[k] + float32(t*float32(out.B[k]-in.B[k]))
	}
	return r
}

// NoPerspectiveWeights converts the clip-space weights b of a clipped vertex into
// the weights for screen-linear (noperspective) attributes of the input
// triangle whose vertices have clip-space w values w: b'[i] = b[i]*w[i] / sum_j b[j]*w[j].
// (The vertex's screen position is sum b[i]*p[i] / sum b[i]*w[i], so a
// screen-linear attribute takes these weights.) Weights of a degenerate sum are
// returned unchanged.
func NoPerspectiveWeights(b [3]float32, w [3]float32) [3]float32 {
	q0 := float32(b[0] * w[0])
	q1 := float32(b[1] * w[1])
	q2 := float32(b[2] * w[2])
	s := q0 + q1 + q2
	if s == 0 || !Finite(s) {
		return b
	}
	inv := 1 / s
	return [3]float32{float32(q0 * inv), float32(q1 * inv), float32(q2 * inv)}
}
