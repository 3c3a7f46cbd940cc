package decouple

import "github.com/gfxsim/gfxsim/functional/geom"

const inv256 = 1.0 / 256

// planes are the barycentric planes of the snapped reference triangle, the
// same float32 arithmetic as raster.Triangle.Barycentrics (perspective), so that
// with no blur a shading point inside the triangle gets exactly the weights
// pipeline.LoadQuad gives the pixel centre. raster.Setup itself cannot be used:
// it refuses triangles whose bounding box holds no pixel centre, which are valid
// reference triangles here. (If raster exports its planes, use them instead.)
type planes struct {
	x0, y0             float32 // vertex 0 in pixels
	b1x, b1y, b2x, b2y float32
	invW               [3]float32
}

// newPlanes sets up the planes of v, whose geom.SignedArea is area (non-zero).
func newPlanes(v *[3]geom.ScreenVertex, area int64) planes {
	dx1 := float32(int64(v[1].X)-int64(v[0].X)) * inv256
	dy1 := float32(int64(v[1].Y)-int64(v[0].Y)) * inv256
	dx2 := float32(int64(v[2].X)-int64(v[0].X)) * inv256
	dy2 := float32(int64(v[2].Y)-int64(v[0].Y)) * inv256
	det := float32(area) * (1.0 / 65536)
	invDet := 1 / det
	return planes{
		x0:  float32(float32(v[0].X) * inv256),
		y0:  float32(float32(v[0].Y) * inv256),
		b1x: float32(dy2 * invDet), b1y: -float32(dx2 * invDet),
		b2x: -float32(dy1 * invDet), b2y: float32(dx1 * invDet),
		invW: [3]float32{v[0].InvW, v[1].InvW, v[2].InvW},
	}
}

// perspective returns the perspective-correct weights at screen (x, y) pixels.
func (p *planes) perspective(x, y float32) [3]float32 {
	dx := float32(x - p.x0)
	dy := float32(y - p.y0)
	b1 := float32(p.b1x*dx) + float32(p.b1y*dy)
	b2 := float32(p.b2x*dx) + float32(p.b2y*dy)
	b0 := 1 - b1 - b2
	q0 := float32(b0 * p.invW[0])
	q1 := float32(b1 * p.invW[1])
	q2 := float32(b2 * p.invW[2])
	s := q0 + q1 + q2
	if s == 0 {
		return [3]float32{b0, b1, b2}
	}
	inv := 1 / s
	return [3]float32{float32(q0 * inv), float32(q1 * inv), float32(q2 * inv)}
}
