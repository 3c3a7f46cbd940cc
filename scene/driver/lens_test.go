package driver

import (
	"math"
	"testing"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/scene"
)

const blurScene = `
resolution: [64, 32]
camera: {position: [0, 0, 5], position_end: [1, 0, 5], target_end: [1, 0, 0], fov_y: 90, near: 0.5, far: 50,
         aperture: 0.5, focus_distance: 4}
meshes:
  tri: {procedural: {kind: triangle}}
materials:
  red: {shader: unlit}
  blue: {shader: unlit, decoupled: {mode: on, rate: 2, bilinear: true}}
objects:
  - {mesh: tri, material: red, transform: {translate: [0, 1, 0]}, motion: {translate: [2, 1, 0]}}
  - {mesh: tri, material: blue}
`

// frameCommands encodes s and returns its SetLens commands, its
// SetDecoupling commands, and each draw's vertex-shader mvp and mvp_end.
func frameCommands(t *testing.T, s *scene.Scene) (lens []command.Lens, dec []command.Decoupling, mvp, mvpEnd []geom.Mat4) {
	t.Helper()
	f, err := Encode(s, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	vs := programAt(t, f, command.VertexStage)
	bm, _ := vs.ConstBlock("mvp")
	be, ok := vs.ConstBlock("mvp_end")
	if !ok {
		t.Fatal("vertex shader has no mvp_end block")
	}
	rows := func(v []geom.Vec4, reg int) geom.Mat4 {
		return geom.Mat4{v[reg], v[reg+1], v[reg+2], v[reg+3]}
	}
	for _, c := range decode(t, f) {
		switch c := c.Command.(type) {
		case command.SetLens:
			lens = append(lens, c.Lens)
		case command.SetDecoupling:
			dec = append(dec, c.Decoupling)
		case command.SetConstants:
			if c.Stage == command.VertexStage {
				v := readVecs(f.Memory, c)
				mvp, mvpEnd = append(mvp, rows(v, bm.Reg)), append(mvpEnd, rows(v, be.Reg))
			}
		}
	}
	return lens, dec, mvp, mvpEnd
}

func TestLensAndMotion(t *testing.T) {
	s := parseYAML(t, "blur.yaml", blurScene)
	p := geom.Perspective(math.Pi/2, 2, 0.5, 50)
	v := geom.LookAt(geom.Vec3{0, 0, 5}, geom.Vec3{0, 0, 0}, geom.Vec3{0, 1, 0})
	ve := geom.LookAt(geom.Vec3{1, 0, 5}, geom.Vec3{1, 0, 0}, geom.Vec3{0, 1, 0})
	t0, t1 := geom.Translate(geom.Vec3{0, 1, 0}), geom.Translate(geom.Vec3{2, 1, 0})
	lerp := func(a, b geom.Mat4, k float32) geom.Mat4 {
		var m geom.Mat4
		for r := range m {
			for c := range m[r] {
				m[r][c] = a[r][c] + k*(b[r][c]-a[r][c])
			}
		}
		return m
	}
	for _, tc := range []struct {
		blur       float32
		kx, ky     float32
		wantMvpEnd [2]geom.Mat4
	}{
		{1, p[0][0] * 0.5 / 4, p[1][1] * 0.5 / 4, [2]geom.Mat4{p.Mul(ve).Mul(t1), p.Mul(ve)}},
		{0.5, p[0][0] * 0.25 / 4, p[1][1] * 0.25 / 4, [2]geom.Mat4{p.Mul(lerp(v, ve, 0.5)).Mul(lerp(t0, t1, 0.5)), p.Mul(lerp(v, ve, 0.5))}},
		{0, 0, 0, [2]geom.Mat4{p.Mul(v).Mul(t0), p.Mul(v)}},
	} {
		if err := s.SetBlur(tc.blur); err != nil {
			t.Fatal(err)
		}
		lens, dec, mvp, mvpEnd := frameCommands(t, s)
		if len(lens) != 1 || lens[0] != (command.Lens{Kx: tc.kx, Ky: tc.ky, F: 4}) {
			t.Errorf("blur %v: lens commands %+v, want one {%v %v 4}", tc.blur, lens, tc.kx, tc.ky)
		}
		// Kx = P00*R/F with P00 = 1/(aspect*tan(45 deg)) = 0.5: 0.0625 at blur 1.
		if tc.blur == 1 && (math.Abs(float64(tc.kx)-0.0625) > 1e-7 || math.Abs(float64(tc.ky)-0.125) > 1e-7) {
			t.Errorf("Kx %v Ky %v, want 0.0625 and 0.125", tc.kx, tc.ky)
		}
		want := []command.Decoupling{{Mode: command.DecoupleOff, Rate: 1}, {Mode: command.DecoupleOn, Rate: 2, Bilinear: true}}
		if len(dec) != 2 || dec[0] != want[0] || dec[1] != want[1] {
			t.Errorf("blur %v: decoupling commands %+v, want %+v", tc.blur, dec, want)
		}
		if len(mvp) != 2 || mvp[0] != p.Mul(v).Mul(t0) || mvp[1] != p.Mul(v) {
			t.Fatalf("blur %v: mvp %v", tc.blur, mvp)
		}
		for i := range mvpEnd {
			if mvpEnd[i] != tc.wantMvpEnd[i] {
				t.Errorf("blur %v: object %d mvp_end %v, want %v", tc.blur, i, mvpEnd[i], tc.wantMvpEnd[i])
			}
		}
		if tc.blur == 0 && (mvpEnd[0] != mvp[0] || mvpEnd[1] != mvp[1]) {
			t.Errorf("blur 0: mvp_end differs from mvp")
		}
	}
}

// TestStaticSceneMvpEnd checks that a scene without motion sends mvp_end ==
// mvp, a pinhole lens and one SetDecoupling (off).
func TestStaticSceneMvpEnd(t *testing.T) {
	s := parseYAML(t, "two.yaml", twoObjects)
	lens, dec, mvp, mvpEnd := frameCommands(t, s)
	if len(lens) != 1 || lens[0].Kx != 0 || lens[0].Ky != 0 || lens[0].F != 5 {
		t.Errorf("lens %+v, want one pinhole focused at 5", lens)
	}
	if len(dec) != 1 || dec[0] != command.DefaultDecoupling() {
		t.Errorf("decoupling %+v", dec)
	}
	for i := range mvp {
		if mvp[i] != mvpEnd[i] {
			t.Errorf("object %d: mvp_end %v != mvp %v", i, mvpEnd[i], mvp[i])
		}
	}
}

// TestDecouplingRateRange: the scene format accepts the shading rates the
// command stream does, and the coarsest one encodes into a stream that
// decodes.
func TestDecouplingRateRange(t *testing.T) {
	if scene.MinDecoupleRate != command.MinDecouplingRate || scene.MaxDecoupleRate != command.MaxDecouplingRate {
		t.Fatalf("scene rates [%g, %d], command stream rates [%g, %d]", scene.MinDecoupleRate, scene.MaxDecoupleRate,
			command.MinDecouplingRate, command.MaxDecouplingRate)
	}
	s := parseYAML(t, "coarse.yaml", "resolution: [8, 8]\ndecoupled: {mode: on, rate: 1.52587890625e-05}\n"+
		"meshes: {tri: {procedural: {kind: triangle}}}\nmaterials: {red: {shader: unlit}}\nobjects: [{mesh: tri, material: red}]\n")
	if _, dec, _, _ := frameCommands(t, s); len(dec) == 0 || dec[0].Rate != command.MinDecouplingRate {
		t.Errorf("SetDecoupling commands %+v, want rate %g", dec, command.MinDecouplingRate)
	}
}
