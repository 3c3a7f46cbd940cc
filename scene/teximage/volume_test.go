package teximage

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/texture"
)

func TestChecker3D(t *testing.T) {
	g := Checker3D{Width: 4, Height: 2, Depth: 2, Cells: [3]int{2, 1, 2}, Colors: [2]geom.Vec4{{1, 1, 1, 1}, {0, 0, 0, 1}}}
	v, err := g.GenerateVolume()
	if err != nil {
		t.Fatal(err)
	}
	// Cell (x*2/4, 0, z): colour 0 when x/2 + z is even.
	for z := 0; z < 2; z++ {
		for x := 0; x < 4; x++ {
			want := byte(255)
			if (x/2+z)%2 == 1 {
				want = 0
			}
			if got := v[z].RGBA(x, 1); got != [4]byte{want, want, want, 255} {
				t.Errorf("(%d, 1, %d) = %v, want %d", x, z, got, want)
			}
		}
	}
	if _, err := (Checker3D{Width: 4, Height: 4, Depth: 0, Cells: [3]int{1, 1, 1}}).GenerateVolume(); err == nil || err.Error() != "depth 0 out of range [1, 2048]" {
		t.Errorf("depth 0: %v", err)
	}
	if _, err := (Checker3D{Width: 4, Height: 4, Depth: 4, Cells: [3]int{1, 0, 1}}).GenerateVolume(); err == nil || err.Error() != "cells[1] 0 out of range [1, 16384]" {
		t.Errorf("cells: %v", err)
	}
	if _, err := (Checker3D{Width: 4096, Height: 4096, Depth: 8, Cells: [3]int{1, 1, 1}}).GenerateVolume(); err == nil {
		t.Error("a 2^27-texel volume accepted")
	}
}

func TestNoise3D(t *testing.T) {
	g := Noise3D{Width: 8, Height: 8, Depth: 8, Frequency: 2, Octaves: 2, Colors: [2]geom.Vec4{{0, 0, 0, 1}, {1, 1, 1, 1}}, Seed: 7}
	a, err := g.GenerateVolume()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := g.GenerateVolume()
	distinct := map[byte]bool{}
	for z := range a {
		if string(a[z].Pix) != string(b[z].Pix) {
			t.Fatal("not deterministic")
		}
		for i := 0; i < len(a[z].Pix); i += 4 {
			distinct[a[z].Pix[i]] = true
		}
	}
	if len(distinct) < 20 {
		t.Errorf("only %d distinct values", len(distinct))
	}
	// Periodic: the lattice wraps, so the noise at a point and one period (the
	// volume) away agree; checked on the lattice function directly.
	if n0, n1 := noise3(0.3, 1.7, 0.2, 2, 7), noise3(2.3, 1.7, 2.2, 2, 7); n0-n1 > 1e-12 || n1-n0 > 1e-12 {
		t.Errorf("noise not periodic: %v %v", n0, n1)
	}
	g.Seed = 8
	c, _ := g.GenerateVolume()
	if string(c[0].Pix) == string(a[0].Pix) {
		t.Error("seed has no effect")
	}
	if _, err := (Noise3D{Width: 4, Height: 4, Depth: 4, Frequency: 0, Octaves: 1}).GenerateVolume(); err == nil || err.Error() != "frequency 0 out of range [1, 4096]" {
		t.Errorf("frequency: %v", err)
	}
}

func TestSky(t *testing.T) {
	g := Sky{Size: 4, Colors: [3]geom.Vec4{{0, 0, 1, 1}, {1, 1, 1, 1}, {0, 1, 0, 1}}, Sun: geom.Vec3{0, 0, 1}, SunColor: geom.Vec4{1, 0, 0, 1}, SunSize: 30}
	f, err := g.GenerateCube()
	if err != nil {
		t.Fatal(err)
	}
	if len(f) != 6 {
		t.Fatalf("%d faces", len(f))
	}
	// The centre of +Y looks up: nearly the zenith colour; -Y the ground; the
	// centre of +Z looks at the sun (texel (1, 1) is 19.5 degrees off, inside the
	// 30-degree disk). Texel (1, 1) of a 4x4 face is at s = t = 0.375,
	// direction (-0.25, 1, -0.25) on +Y: |y|/|d| = 0.943, sqrt = 0.971.
	up := f[2].RGBA(1, 1)
	if up[2] != 255 || up[0] < 5 || up[0] > 10 {
		t.Errorf("+Y near the zenith = %v", up)
	}
	if down := f[3].RGBA(2, 2); down[1] != 255 || down[0] > 10 {
		t.Errorf("-Y = %v", down)
	}
	if sun := f[4].RGBA(1, 1); sun != [4]byte{255, 0, 0, 255} {
		t.Errorf("+Z centre = %v, want the sun", sun)
	}
	if _, err := (Sky{Size: 4, SunSize: 100, Sun: geom.Vec3{0, 1, 0}}).GenerateCube(); err == nil || err.Error() != "sun size 100 out of range [0, 90] degrees" {
		t.Errorf("sun size: %v", err)
	}
	if _, err := (Sky{Size: 4, Sun: geom.Vec3{}}).GenerateCube(); err == nil {
		t.Error("zero sun direction accepted")
	}
	// Faces follow the cube orientation: texel (0, 0) of +X looks along (1, 0.75, 0.75).
	if d := texture.CubeDirection(0, -0.75, -0.75); d != [3]float64{1, 0.75, 0.75} {
		t.Errorf("+X corner direction %v", d)
	}
}
