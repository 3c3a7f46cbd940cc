package geom

import "math"

// Mat4 is a row-major 4x4 float32 matrix, m[row][col]. It transforms column
// vectors: MulVec computes M*v.
type Mat4 [4][4]float32

// Identity returns the identity matrix.
func Identity() Mat4 {
	return Mat4{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}
}

// Mul returns the matrix product m*n (apply n first, then m).
func (m Mat4) Mul(n Mat4) Mat4 {
	var r Mat4
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			r[i][j] = m[i][0]*n[0][j] + m[i][1]*n[1][j] + m[i][2]*n[2][j] + m[i][3]*n[3][j]
		}
	}
	return r
}

// MulVec returns m*v. Each component is the dot product of a row with v, summed
// left to right, exactly as the DP4-based vertex shaders compute it.
func (m Mat4) MulVec(v Vec4) Vec4 {
	return Vec4{
		m[0][0]*v[0] + m[0][1]*v[1] + m[0][2]*v[2] + m[0][3]*v[3],
		m[1][0]*v[0] + m[1][1]*v[1] + m[1][2]*v[2] + m[1][3]*v[3],
		m[2][0]*v[0] + m[2][1]*v[1] + m[2][2]*v[2] + m[2][3]*v[3],
		m[3][0]*v[0] + m[3][1]*v[1] + m[3][2]*v[2] + m[3][3]*v[3],
	}
}

// MulPoint transforms the point p (w = 1) and drops w.
func (m Mat4) MulPoint(p Vec3) Vec3 { return m.MulVec(p.Vec4(1)).XYZ() }

// MulDir transforms the direction d (w = 0) and drops w.
func (m Mat4) MulDir(d Vec3) Vec3 { return m.MulVec(d.Vec4(0)).XYZ() }

// Row returns row i as a Vec4 (the constant-register layout of a matrix).
func (m Mat4) Row(i int) Vec4 { return Vec4(m[i]) }

// Transpose returns the transpose of m.
func (m Mat4) Transpose() Mat4 {
	var r Mat4
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			r[i][j] = m[j][i]
		}
	}
	return r
}

// Inverse returns the inverse of m and whether it exists. It is computed in
// float64 by cofactor expansion and rounded once to float32.
func (m Mat4) Inverse() (Mat4, bool) {
	var a [16]float64
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			a[i*4+j] = float64(m[i][j])
		}
	}
	var inv [16]float64
	inv[0] = a[5]*a[10]*a[15] - a[5]*a[11]*a[14] - a[9]*a[6]*a[15] + a[9]*a[7]*a[14] + a[13]*a[6]*a[11] - a[13]*a[7]*a[10]
	inv[4] = -a[4]*a[10]*a[15] + a[4]*a[11]*a[14] + a[8]*a[6]*a[15] - a[8]*a[7]*a[14] - a[12]*a[6]*a[11] + a[12]*a[7]*a[10]
	inv[8] = a[4]*a[9]*a[15] - a[4]*a[11]*a[13] - a[8]*a[5]*a[15] + a[8]*a[7]*a[13] + a[12]*a[5]*a[11] - a[12]*a[7]*a[9]
	inv[12] = -a[4]*a[9]*a[14] + a[4]*a[10]*a[13] + a[8]*a[5]*a[14] - a[8]*a[6]*a[13] - a[12]*a[5]*a[10] + a[12]*a[6]*a[9]
	inv[1] = -a[1]*a[10]*a[15] + a[1]*a[11]*a[14] + a[9]*a[2]*a[15] - a[9]*a[3]*a[14] - a[13]*a[2]*a[11] + a[13]*a[3]*a[10]
	inv[5] = a[0]*a[10]*a[15] - a[0]*a[11]*a[14] - a[8]*a[2]*a[15] + a[8]*a[3]*a[14] + a[12]*a[2]*a[11] - a[12]*a[3]*a[10]
	inv[9] = -a[0]*a[9]*a[15] + a[0]*a[11]*a[13] + a[8]*a[1]*a[15] - a[8]*a[3]*a[13] - a[12]*a[1]*a[11] + a[12]*a[3]*a[9]
	inv[13] = a[0]*a[9]*a[14] - a[0]*a[10]*a[13] - a[8]*a[1]*a[14] + a[8]*a[2]*a[13] + a[12]*a[1]*a[10] - a[12]*a[2]*a[9]
	inv[2] = a[1]*a[6]*a[15] - a[1]*a[7]*a[14] - a[5]*a[2]*a[15] + a[5]*a[3]*a[14] + a[13]*a[2]*a[7] - a[13]*a[3]*a[6]
	inv[6] = -a[0]*a[6]*a[15] + a[0]*a[7]*a[14] + a[4]*a[2]*a[15] - a[4]*a[3]*a[14] - a[12]*a[2]*a[7] + a[12]*a[3]*a[6]
	inv[10] = a[0]*a[5]*a[15] - a[0]*a[7]*a[13] - a[4]*a[1]*a[15] + a[4]*a[3]*a[13] + a[12]*a[1]*a[7] - a[12]*a[3]*a[5]
	inv[14] = -a[0]*a[5]*a[14] + a[0]*a[6]*a[13] + a[4]*a[1]*a[14] - a[4]*a[2]*a[13] - a[12]*a[1]*a[6] + a[12]*a[2]*a[5]
	inv[3] = -a[1]*a[6]*a[11] + a[1]*a[7]*a[10] + a[5]*a[2]*a[11] - a[5]*a[3]*a[10] - a[9]*a[2]*a[7] + a[9]*a[3]*a[6]
	inv[7] = a[0]*a[6]*a[11] - a[0]*a[7]*a[10] - a[4]*a[2]*a[11] + a[4]*a[3]*a[10] + a[8]*a[2]*a[7] - a[8]*a[3]*a[6]
	inv[11] = -a[0]*a[5]*a[11] + a[0]*a[7]*a[9] + a[4]*a[1]*a[11] - a[4]*a[3]*a[9] - a[8]*a[1]*a[7] + a[8]*a[3]*a[5]
	inv[15] = a[0]*a[5]*a[10] - a[0]*a[6]*a[9] - a[4]*a[1]*a[10] + a[4]*a[2]*a[9] + a[8]*a[1]*a[6] - a[8]*a[2]*a[5]
	det := a[0]*inv[0] + a[1]*inv[4] + a[2]*inv[8] + a[3]*inv[12]
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return Mat4{}, false
	}
	var r Mat4
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			r[i][j] = float32(inv[i*4+j] / det)
		}
	}
	return r, true
}

// Det3 returns the determinant of m's upper 3x3 block: negative when m
// mirrors (turns a counter-clockwise triangle clockwise).
func (m Mat4) Det3() float32 {
	return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
		m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
		m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
}

// NormalMatrix returns the inverse transpose of m's upper 3x3 block, embedded in
// a Mat4 with zero translation: it transforms normals of a surface transformed by m.
// A singular m yields the identity.
func (m Mat4) NormalMatrix() Mat4 {
	a := m
	a[0][3], a[1][3], a[2][3] = 0, 0, 0
	a[3] = [4]float32{0, 0, 0, 1}
	inv, ok := a.Inverse()
	if !ok {
		return Identity()
	}
	return inv.Transpose()
}

// Translate returns a translation matrix.
func Translate(t Vec3) Mat4 {
	m := Identity()
	m[0][3], m[1][3], m[2][3] = t[0], t[1], t[2]
	return m
}

// Scale returns a scaling matrix.
func Scale(s Vec3) Mat4 {
	m := Identity()
	m[0][0], m[1][1], m[2][2] = s[0], s[1], s[2]
	return m
}

// RotateAxis returns a rotation of angle radians about axis (right-handed:
// counter-clockwise when looking down the axis towards the origin).
func RotateAxis(axis Vec3, radians float32) Mat4 {
	a := axis.Normalize()
	s, c := math.Sincos(float64(radians))
	sf, cf := float32(s), float32(c)
	t := 1 - cf
	x, y, z := a[0], a[1], a[2]
	return Mat4{
		{t*x*x + cf, t*x*y - sf*z, t*x*z + sf*y, 0},
		{t*x*y + sf*z, t*y*y + cf, t*y*z - sf*x, 0},
		{t*x*z - sf*y, t*y*z + sf*x, t*z*z + cf, 0},
		{0, 0, 0, 1},
	}
}

// RotateEulerDegrees returns Rz*Ry*Rx for angles in degrees (X applied first).
func RotateEulerDegrees(deg Vec3) Mat4 {
	const d2r = math.Pi / 180
	rx := RotateAxis(Vec3{1, 0, 0}, deg[0]*d2r)
	ry := RotateAxis(Vec3{0, 1, 0}, deg[1]*d2r)
	rz := RotateAxis(Vec3{0, 0, 1}, deg[2]*d2r)
	return rz.Mul(ry).Mul(rx)
}

// LookAt returns a right-handed view matrix: the camera at eye looks towards
// target, with up roughly up; in view space the camera looks down -Z.
func LookAt(eye, target, up Vec3) Mat4 {
	f := target.Sub(eye).Normalize()
	s := f.Cross(up).Normalize()
	u := s.Cross(f)
	return Mat4{
		{s[0], s[1], s[2], -s.Dot(eye)},
		{u[0], u[1], u[2], -u.Dot(eye)},
		{-f[0], -f[1], -f[2], f.Dot(eye)},
		{0, 0, 0, 1},
	}
}

// Perspective returns a right-handed projection to D3D clip space
// (0 <= z <= w): view-space z = -near maps to z/w = 0 and z = -far to z/w = 1.
// fovY is the vertical field of view in radians.
func Perspective(fovY, aspect, near, far float32) Mat4 {
	f := float32(1 / math.Tan(float64(fovY)/2))
	return Mat4{
		{f / aspect, 0, 0, 0},
		{0, f, 0, 0},
		{0, 0, far / (near - far), near * far / (near - far)},
		{0, 0, -1, 0},
	}
}
