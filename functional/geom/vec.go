package geom

import "math"

// Vec2 is a 2-component float32 vector.
type Vec2 [2]float32

// Vec3 is a 3-component float32 vector.
type Vec3 [3]float32

// Vec4 is a 4-component float32 vector; it is also the shader register type.
type Vec4 [4]float32

// V4 builds a Vec4.
func V4(x, y, z, w float32) Vec4 { return Vec4{x, y, z, w} }

// V3 builds a Vec3.
func V3(x, y, z float32) Vec3 { return Vec3{x, y, z} }

// Add returns a+b.
func (a Vec4) Add(b Vec4) Vec4 { return Vec4{a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]} }

// Sub returns a-b.
func (a Vec4) Sub(b Vec4) Vec4 { return Vec4{a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]} }

// Mul returns the component-wise product.
func (a Vec4) Mul(b Vec4) Vec4 { return Vec4{a[0] * b[0], a[1] * b[1], a[2] * b[2], a[3] * b[3]} }

// Scale returns a*s.
func (a Vec4) Scale(s float32) Vec4 { return Vec4{a[0] * s, a[1] * s, a[2] * s, a[3] * s} }

// Dot returns the 4-component dot product, summed left to right.
func (a Vec4) Dot(b Vec4) float32 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3] }

// XYZ drops w.
func (a Vec4) XYZ() Vec3 { return Vec3{a[0], a[1], a[2]} }

// Lerp returns a + t*(b-a), component-wise.
func (a Vec4) Lerp(b Vec4, t float32) Vec4 {
	return Vec4{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1]), a[2] + t*(b[2]-a[2]), a[3] + t*(b[3]-a[3])}
}

// Add returns a+b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// Sub returns a-b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Mul returns the component-wise product.
func (a Vec3) Mul(b Vec3) Vec3 { return Vec3{a[0] * b[0], a[1] * b[1], a[2] * b[2]} }

// Scale returns a*s.
func (a Vec3) Scale(s float32) Vec3 { return Vec3{a[0] * s, a[1] * s, a[2] * s} }

// Dot returns the dot product.
func (a Vec3) Dot(b Vec3) float32 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Cross returns the cross product a x b.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Length returns the Euclidean length. Where a.Dot(a) overflows or
// underflows a float32 (components beyond about 1e19, or all below about
// 1e-19), it is computed in float64.
func (a Vec3) Length() float32 {
	if d := a.Dot(a); d >= minNormal32 && d <= math.MaxFloat32 {
		return float32(math.Sqrt(float64(d)))
	}
	return float32(a.length64())
}

// minNormal32 is the least normal float32: a squared length below it has
// lost precision.
const minNormal32 = 0x1p-126

// length64 is the length in float64.
func (a Vec3) length64() float64 {
	x, y, z := float64(a[0]), float64(a[1]), float64(a[2])
	return math.Sqrt(x*x + y*y + z*z)
}

// Normalize returns a/|a|, or the zero vector when |a| is zero. A vector
// whose squared length a float32 cannot hold (see Length) is normalised in
// float64.
func (a Vec3) Normalize() Vec3 {
	if d := a.Dot(a); d >= minNormal32 && d <= math.MaxFloat32 {
		return a.Scale(1 / float32(math.Sqrt(float64(d))))
	}
	l := a.length64()
	switch {
	case l == 0:
		return Vec3{}
	case math.IsInf(l, 0) || math.IsNaN(l): // a component is not finite
		return a.Scale(1 / float32(l))
	}
	return Vec3{float32(float64(a[0]) / l), float32(float64(a[1]) / l), float32(float64(a[2]) / l)}
}

// Lerp returns a + t*(b-a).
func (a Vec3) Lerp(b Vec3, t float32) Vec3 {
	return Vec3{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1]), a[2] + t*(b[2]-a[2])}
}

// Vec4 extends a with w.
func (a Vec3) Vec4(w float32) Vec4 { return Vec4{a[0], a[1], a[2], w} }

// Add returns a+b.
func (a Vec2) Add(b Vec2) Vec2 { return Vec2{a[0] + b[0], a[1] + b[1]} }

// Sub returns a-b.
func (a Vec2) Sub(b Vec2) Vec2 { return Vec2{a[0] - b[0], a[1] - b[1]} }

// Scale returns a*s.
func (a Vec2) Scale(s float32) Vec2 { return Vec2{a[0] * s, a[1] * s} }

// Dot returns the dot product.
func (a Vec2) Dot(b Vec2) float32 { return a[0]*b[0] + a[1]*b[1] }
