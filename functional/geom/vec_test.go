package geom

import (
	"math"
	"testing"
)

func TestMat4InverseAndMul(t *testing.T) {
	m := Translate(Vec3{1, 2, 3}).Mul(RotateEulerDegrees(Vec3{10, 20, 30})).Mul(Scale(Vec3{2, 2, 2}))
	inv, ok := m.Inverse()
	if !ok {
		t.Fatal("inverse reported singular")
	}
	p := m.Mul(inv)
	id := Identity()
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			if d := math.Abs(float64(p[i][j] - id[i][j])); d > 1e-5 {
				t.Fatalf("m*inv(m)[%d][%d] = %v", i, j, p[i][j])
			}
		}
	}
	if _, ok := (Mat4{}).Inverse(); ok {
		t.Fatal("zero matrix inverted")
	}
}

func TestPerspectiveMapsNearFar(t *testing.T) {
	p := Perspective(math.Pi/2, 1, 1, 10)
	tests := []struct {
		z, wantZoverW float32
	}{{-1, 0}, {-10, 1}}
	for _, tc := range tests {
		c := p.MulVec(Vec4{0, 0, tc.z, 1})
		if got := c[2] / c[3]; math.Abs(float64(got-tc.wantZoverW)) > 1e-6 {
			t.Errorf("z=%v: z/w = %v, want %v", tc.z, got, tc.wantZoverW)
		}
	}
}

func TestLookAtLooksDownMinusZ(t *testing.T) {
	v := LookAt(Vec3{0, 0, 5}, Vec3{0, 0, 0}, Vec3{0, 1, 0})
	got := v.MulPoint(Vec3{0, 0, 0})
	if got != (Vec3{0, 0, -5}) {
		t.Fatalf("origin in view space = %v, want (0,0,-5)", got)
	}
}

// Length and Normalize hold for vectors whose squared length a float32
// cannot (it overflowed to +Inf, or underflowed to 0, and the camera check
// then called perpendicular vectors parallel), and give the float32 results
// bit for bit elsewhere.
func TestLengthNormalizeRange(t *testing.T) {
	tests := []struct {
		v    Vec3
		len  float32
		unit Vec3
	}{
		{Vec3{3, 4, 0}, 5, Vec3{0.6, 0.8, 0}},
		{Vec3{2e19, 0, 0}, 2e19, Vec3{1, 0, 0}},
		{Vec3{0, -3e38, 0}, 3e38, Vec3{0, -1, 0}},
		{Vec3{3e-20, 0, -4e-20}, 5e-20, Vec3{0.6, 0, -0.8}},
		{Vec3{}, 0, Vec3{}},
	}
	for _, tc := range tests {
		if got := tc.v.Length(); got != tc.len {
			t.Errorf("%v.Length() = %v, want %v", tc.v, got, tc.len)
		}
		if got := tc.v.Normalize(); got != tc.unit {
			t.Errorf("%v.Normalize() = %v, want %v", tc.v, got, tc.unit)
		}
	}
	// sqrt(2) * 3e38 overflows a float32: the length is +Inf, the direction
	// still a unit vector.
	v := Vec3{3e38, 3e38, 0}
	if l := v.Length(); !math.IsInf(float64(l), 1) {
		t.Errorf("%v.Length() = %v, want +Inf", v, l)
	}
	if u := v.Normalize(); math.Abs(float64(u.Length())-1) > 1e-6 || u[0] != u[1] {
		t.Errorf("%v.Normalize() = %v, want a unit vector along x+y", v, u)
	}
	// In range, the float32 arithmetic as before.
	w := Vec3{0.1, 0.7, -2.3}
	if l := float32(math.Sqrt(float64(w.Dot(w)))); w.Length() != l || w.Normalize() != w.Scale(1/l) {
		t.Errorf("%v: Length %v, Normalize %v; want %v and %v", w, w.Length(), w.Normalize(), l, w.Scale(1/l))
	}
}
