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
