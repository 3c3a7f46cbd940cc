package raster

import "github.com/gfxsim/gfxsim/functional/geom"

// BarycentricPlanes are the screen-space planes of the barycentric weights of
// a snapped triangle: over the offset (dx, dy) in pixels from vertex 0,
// b1 = B1X*dx + B1Y*dy and b2 = B2X*dx + B2Y*dy, and b0 = 1 - b1 - b2. They are
// the one home of this float32 arithmetic: Triangle interpolates with them,
// and the decoupling map (functional/decouple) shades on them, so that without
// blur a shading point gets exactly the weights of the pixel it stands for.
// Each float32 operation is rounded separately.
type BarycentricPlanes struct {
	B1X, B1Y, B2X, B2Y float32
	X0, Y0             float32    // vertex 0 in pixels
	InvW               [3]float32 // the vertices' 1/w, for perspective-correct weights
}

// planeDeltas returns the edges v1 - v0 and v2 - v0 of the snapped triangle
// v in pixels, and 1 over its determinant dx1*dy2 - dx2*dy1 (from area, the
// geom.SignedArea, so exactly rounded once).
func planeDeltas(v *[3]geom.ScreenVertex, area int64) (dx1, dy1, dx2, dy2, invDet float32) {
	dx1 = float32(int64(v[1].X)-int64(v[0].X)) * inv256
	dy1 = float32(int64(v[1].Y)-int64(v[0].Y)) * inv256
	dx2 = float32(int64(v[2].X)-int64(v[0].X)) * inv256
	dy2 = float32(int64(v[2].Y)-int64(v[0].Y)) * inv256
	det := float32(area) * (1.0 / 65536)
	return dx1, dy1, dx2, dy2, 1 / det
}

// NewBarycentricPlanes sets up the planes of the snapped triangle v, whose
// geom.SignedArea is area (non-zero). Unlike Setup it accepts any triangle,
// whether or not its bounding box holds a sample.
func NewBarycentricPlanes(v *[3]geom.ScreenVertex, area int64) BarycentricPlanes {
	dx1, dy1, dx2, dy2, invDet := planeDeltas(v, area)
	return BarycentricPlanes{
		B1X: float32(dy2 * invDet), B1Y: -float32(dx2 * invDet),
		B2X: -float32(dy1 * invDet), B2Y: float32(dx1 * invDet),
		X0: float32(float32(v[0].X) * inv256), Y0: float32(float32(v[0].Y) * inv256),
		InvW: [3]float32{v[0].InvW, v[1].InvW, v[2].InvW},
	}
}

// At returns the weights at screen position (x, y) in pixels: screen-linear,
// or perspective-correct (b_i*InvW_i renormalised) with perspective set.
// Outside the triangle the weights extrapolate.
func (p *BarycentricPlanes) At(x, y float32, perspective bool) [3]float32 {
	return p.Rel(float32(x-p.X0), float32(y-p.Y0), perspective)
}

// Rel returns the weights at the offset (dx, dy) in pixels from vertex 0.
func (p *BarycentricPlanes) Rel(dx, dy float32, perspective bool) [3]float32 {
	b1 := float32(p.B1X*dx) + float32(p.B1Y*dy)
	b2 := float32(p.B2X*dx) + float32(p.B2Y*dy)
	b0 := 1 - b1 - b2
	if !perspective {
		return [3]float32{b0, b1, b2}
	}
	q0 := float32(b0 * p.InvW[0])
	q1 := float32(b1 * p.InvW[1])
	q2 := float32(b2 * p.InvW[2])
	s := q0 + q1 + q2
	if s == 0 {
		return [3]float32{b0, b1, b2}
	}
	inv := 1 / s
	return [3]float32{float32(q0 * inv), float32(q1 * inv), float32(q2 * inv)}
}
