package scene

import (
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/scene/mesh"
)

const blurBase = "meshes:\n  tri: {procedural: {kind: triangle}}\nmaterials:\n  red: {shader: unlit}\n"

// TestBlurErrors: every new field reports file, line and field.
func TestBlurErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"camera:\n  aperture: -1\n", "e.yaml:2: camera.aperture: -1 out of range [0, 1e+30]"},
		{"camera:\n  focus_distance: 0\n", "e.yaml:2: camera.focus_distance: 0 out of range [1e-06, 1e+30]"},
		{"camera:\n  focus_distance: -2\n", "e.yaml:2: camera.focus_distance: -2 out of range [1e-06, 1e+30]"},
		{"camera:\n  shutter: [0.8, 0.2]\n", "e.yaml:2: camera.shutter: [0.8, 0.2]: want 0 <= open <= close <= 1"},
		{"camera:\n  shutter: [-0.1, 0.5]\n", "e.yaml:2: camera.shutter: [-0.1, 0.5]: want 0 <= open <= close <= 1"},
		{"camera:\n  shutter: [0, 1.5]\n", "e.yaml:2: camera.shutter: [0, 1.5]: want 0 <= open <= close <= 1"},
		{"camera:\n  position_end: [0, 0, 0]\n", "e.yaml:2: camera.target_end: equals position_end [0 0 0]"},
		{"camera:\n  target_end: [0, 5, 5]\n  up_end: [0, 1, 0]\n", "e.yaml:3: camera.up_end: [0 1 0] is parallel to the view direction at frame time 1 [0 5 0]"},
		{"camera:\n  target_end: [1, 2]\n", "e.yaml:2: camera.target_end: expected 3 numbers, got 2"},
		{"frames: 0\n", "e.yaml:1: frames: 0 out of range [1, 100000]"},
		{"blur: -0.5\n", "e.yaml:1: blur: -0.5 out of range [0, 1e+06]"},
		{"decoupled: {mode: always}\n", `e.yaml:1: decoupled.mode: unknown value "always" (want one of off, on, supersample)`},
		{"decoupled: {rate: 0}\n", "e.yaml:1: decoupled.rate: 0 out of range [1/65536, 64]"},
		{"decoupled: {rate: -1}\n", "e.yaml:1: decoupled.rate: -1 out of range [1/65536, 64]"},
		{"decoupled: {rate: 65}\n", "e.yaml:1: decoupled.rate: 65 out of range [1/65536, 64]"},
		// Coarser than the decoupling map's widest grid: it failed at the
		// first draw (command stream @0x...: DrawIndexed: decouple: ...).
		{"decoupled: {rate: 0.0000001}\n", "e.yaml:1: decoupled.rate: 1e-07 out of range [1/65536, 64]"},
		{"materials:\n  m:\n    shader: unlit\n    decoupled: {rate: 1.5e-5}\n", "e.yaml:4: materials.m.decoupled.rate: 1.5e-05 out of range [1/65536, 64]"},
		{"decoupled: {adaptive: 1}\n", "e.yaml:1: decoupled.adaptive: expected true or false, got 1"},
		{"decoupled: {mode: on, speed: 2}\n", "e.yaml:1: decoupled.speed: unknown field (want one of mode, rate, adaptive, bilinear)"},
		{"decoupled: on\n", "e.yaml:1: decoupled: expected a mapping, got string \"on\""},
		{"materials:\n  m:\n    shader: unlit\n    decoupled: {rate: 0.0}\n", "e.yaml:4: materials.m.decoupled.rate: 0 out of range [1/65536, 64]"},
		{"materials:\n  m:\n    shader: unlit\n    decoupled: {mode: maybe}\n", `e.yaml:4: materials.m.decoupled.mode: unknown value "maybe" (want one of off, on, supersample)`},
		// Keyframed values.
		{"camera:\n  aperture: {frames: [0, 10], values: [0.1, -0.2]}\n", "e.yaml:2: camera.aperture.values[1]: -0.2 out of range [0, 1e+30]"},
		{"camera:\n  aperture: {frames: [3, 3], values: [0.1, 0.2]}\n", "e.yaml:2: camera.aperture.frames[1]: frame 3 after frame 3: keyframes' frames must increase"},
		{"camera:\n  aperture: {frames: [0, 1], values: [0.1]}\n", "e.yaml:2: camera.aperture.values: 1 values for 2 frames: want as many values as frames, 1 to 10000"},
		{"camera:\n  aperture: {frames: [0, 1]}\n", "e.yaml:2: camera.aperture: a keyframed value needs frames and values ({frames: [0, 49], values: [a, b]})"},
		{"camera:\n  aperture: {frames: [0, 1], values: [[0.1], [0.2]]}\n", "e.yaml:2: camera.aperture.values[0]: expected a number, got a list"},
		{"camera:\n  position: {frames: [0, 1], values: [[0, 0, 5], [1, 0]]}\n", "e.yaml:2: camera.position.values[1]: expected 3 numbers, got 2"},
		{"camera:\n  position: {frames: [0, 1], values: [1, 2]}\n", "e.yaml:2: camera.position.values: expected lists of 3 numbers"},
		{"camera:\n  aperture: {frames: [0], values: [0.1], speed: 2}\n", "e.yaml:2: camera.aperture.speed: unknown field (want one of frames, values)"},
		// Bats and animation.
		{blurBase + "objects:\n  - {bats: {count: 2}, mesh: tri, material: red}\n", "e.yaml:6: objects[0].mesh: an object with bats has no mesh (the bats are their own meshes and motion)"},
		{blurBase + "objects:\n  - {bats: {count: 0}, material: red}\n", "e.yaml:6: objects[0].bats.count: 0 out of range [1, 10000]"},
		{blurBase + "objects:\n  - {bats: {flap: 95}, material: red}\n", "e.yaml:6: objects[0].bats.flap: 95 out of range [0, 90]"},
		{blurBase + "objects:\n  - {bats: {}, material: blue}\n", `e.yaml:6: objects[0].material: unknown material "blue"`},
		{blurBase + "objects:\n  - {bats: {wings: 4}, material: red}\n", "e.yaml:6: objects[0].bats.wings: unknown field (want one of count, volume, size, flap, flap_rate, speed, seed)"},
		{blurBase + "objects:\n  - {mesh: tri, material: red, animation: {index: 0}}\n", `e.yaml:6: objects[0].animation: mesh "tri" has no animations (a glTF file with animations is needed)`},
		{blurBase + "objects:\n  - {mesh: tri, material: red, animation: on}\n", "e.yaml:6: objects[0].animation: expected off or a mapping {index | name, time, fps, shutter, loop}"},
	}
	for _, tc := range tests {
		_, err := Parse("e.yaml", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got  %v\n want %s", tc.src, err, tc.want)
		}
	}
}

const blurScene = `
frames: 11
blur: 0.5
decoupled: {mode: on, rate: 2}
camera:
  position: {frames: [0, 10], values: [[0, 0, 5], [0, 0, 10]]}
  position_end: [1, 0, 5]
  aperture: {frames: [0, 5, 10], values: [0, 0.5, 0.25]}
  shutter: [0.5, 1]
meshes:
  tri: {procedural: {kind: triangle}}
materials:
  red: {shader: unlit}
  blue: {shader: unlit, decoupled: {bilinear: true}}
  green: {shader: unlit, decoupled: {mode: supersample, rate: 0.5, adaptive: true}}
objects:
  - {mesh: tri, material: red, transform: {translate: [0, 0, 0]}, motion: {translate: [4, 0, 0]}}
  - {mesh: tri, material: red, animation: off}
`

func TestBlurFramesAndDecoupling(t *testing.T) {
	for _, tc := range []struct {
		frame    int
		aperture float32
		z0       float32
	}{{0, 0, 5}, {3, 0.3, 6.5}, {5, 0.5, 7.5}, {10, 0.25, 10}} {
		s, err := Parse("b.yaml", []byte(blurScene), WithFrame(tc.frame))
		if err != nil {
			t.Fatal(err)
		}
		c := s.Camera
		// The camera moves from position (frame time 0) to position_end (time 1); the shutter is [0.5, 1].
		open := geom.Vec3{0.5, 0, (tc.z0 + 5) / 2}
		if s.Frames != 11 || s.Frame != tc.frame || s.Blur != 0.5 || c.Aperture != tc.aperture || !c.Moving ||
			c.Position != open || c.PositionEnd != (geom.Vec3{1, 0, 5}) || c.Target != (geom.Vec3{}) {
			t.Errorf("frame %d: frames %d, frame %d, blur %v, aperture %v, camera %v -> %v moving %v", tc.frame, s.Frames, s.Frame,
				s.Blur, c.Aperture, c.Position, c.PositionEnd, c.Moving)
		}
		if got := s.LensRadius(); got != tc.aperture*0.5 {
			t.Errorf("frame %d: lens radius %v", tc.frame, got)
		}
	}
	s, err := Parse("b.yaml", []byte(blurScene))
	if err != nil {
		t.Fatal(err)
	}
	want := []Decoupling{{Mode: DecoupleOn, Rate: 2}, {Mode: DecoupleOn, Rate: 2, Bilinear: true},
		{Mode: DecoupleSupersample, Rate: 0.5, Adaptive: true}}
	for i, w := range want {
		if s.Materials[i].Decoupled != w {
			t.Errorf("material %s: %+v, want %+v", s.Materials[i].Name, s.Materials[i].Decoupled, w)
		}
	}
	// The object moves 0 -> 4 over frame time [0, 1]: 2 -> 4 over the shutter; blur 0.5 halves it.
	o := &s.Objects[0]
	if o.Transform[0][3] != 2 || o.EndTransform[0][3] != 4 || s.EndTransform(o)[0][3] != 3 {
		t.Errorf("transforms x %v -> %v, blurred end %v", o.Transform[0][3], o.EndTransform[0][3], s.EndTransform(o)[0][3])
	}
	for _, k := range []float32{0, 1} {
		if err := s.SetBlur(k); err != nil {
			t.Fatal(err)
		}
		wantEnd := map[float32]geom.Mat4{0: o.Transform, 1: o.EndTransform}[k]
		if s.EndTransform(o) != wantEnd {
			t.Errorf("blur %v: end transform %v", k, s.EndTransform(o))
		}
	}
	if s.SetBlur(0); s.ViewProjectionEnd() != s.ViewProjection() || s.LensRadius() != 0 {
		t.Error("blur 0 keeps camera motion or lens")
	}
	if err := s.SetBlur(-1); err == nil {
		t.Error("negative blur accepted")
	}
	if b, err := Parse("b.yaml", []byte(blurScene), WithBlur(2)); err != nil || b.Blur != 2 {
		t.Errorf("WithBlur(2): blur %v, %v", b.Blur, err)
	}
	if _, err := Parse("b.yaml", []byte(blurScene), WithFrame(11)); err == nil ||
		err.Error() != "b.yaml:2: frames: frame 11 out of range [0, 10]" {
		t.Errorf("frame 11: %v", err)
	}
	if _, err := Parse("s.yaml", []byte(blurBase), WithFrame(3)); err == nil ||
		err.Error() != "s.yaml:1: frames: frame 3 asked for, but the scene is not animated (no frames field: frame 0 only)" {
		t.Errorf("frame 3 of a still scene: %v", err)
	}
}

// TestBatsObject checks the expansion of bats into three moving objects
// per bat that share three meshes, posed at frame + shutter.
func TestBatsObject(t *testing.T) {
	src := blurBase + "frames: 4\nobjects:\n  - {name: b, bats: {count: 3, seed: 2}, material: red, transform: {translate: [0, 5, 0]}}\n"
	s, err := Parse("b.yaml", []byte(src), WithFrame(2))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Objects) != 9 || len(s.Meshes) != 4 || s.Objects[4].Name != "b[1]/wing_left" || s.TriangleCount() != 30 {
		t.Fatalf("%d objects, %d meshes, object 4 %q, %d triangles", len(s.Objects), len(s.Meshes), s.Objects[4].Name, s.TriangleCount())
	}
	for _, o := range s.Objects {
		if !o.Moving {
			t.Errorf("%s does not move", o.Name)
		}
	}
	// Frame 2 at shutter [0, 1]: poses at tau = 2 and 3 placed 5 units up.
	g := mesh3(t)
	body, left, _ := g.Pose(1, 2)
	_, _, right := g.Pose(1, 3)
	place := geom.Translate(geom.Vec3{0, 5, 0})
	if s.Objects[3].Transform != place.Mul(body) || s.Objects[4].Transform != place.Mul(left) || s.Objects[5].EndTransform != place.Mul(right) {
		t.Errorf("bat 1 transforms differ from the flock's poses")
	}
}

func mesh3(t *testing.T) *mesh.BatFlock {
	t.Helper()
	// The defaults of FORMAT.md with count 3 and seed 2.
	f, err := mesh.Bats{Count: 3, Volume: geom.Vec3{8, 3, 8}, Size: 0.3, Flap: 50, FlapRate: 0.3, Speed: 0.05, Seed: 2}.Generate()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestLensShearFinite: a lens whose shear (Kx = P00*R/F) overflows a float32
// is refused with the camera's fields when the scene is read, and with the
// blur or resolution that makes it overflow when they are overridden; it
// used to reach the command stream (SetLens: kx/ky: shear (+Inf, +Inf) is
// not finite), naming no file.
func TestLensShearFinite(t *testing.T) {
	const wide = "camera:\n  fov_y: 0.01\n  aperture: 1e30\n  focus_distance: 0.001\n"
	tests := []struct {
		src  string
		opts []Option
		want string
	}{
		{"camera:\n  fov_y: 0.001\n  aperture: 1e30\n  focus_distance: 1e-6\n", nil,
			"e.yaml:3: camera.aperture: aperture 1e+30 (times blur 1) over focus_distance 1e-06 with fov_y 0.001 at 1280x720 pixels " +
				"shears the image by (+Inf, +Inf) per unit of depth, more than a 32-bit float holds: " +
				"make the aperture or the blur smaller, or focus_distance or fov_y larger"},
		{"blur: 1000000\n" + wide, nil,
			"e.yaml:4: camera.aperture: aperture 1e+30 (times blur 1e+06) over focus_distance 0.001 with fov_y 0.01 at 1280x720 pixels " +
				"shears the image by (+Inf, +Inf) per unit of depth, more than a 32-bit float holds: " +
				"make the aperture or the blur smaller, or focus_distance or fov_y larger"},
		{wide, nil, ""},
		{wide, []Option{WithBlur(1e6)},
			"e.yaml: camera: aperture 1e+30 (times blur 1e+06) over focus_distance 0.001 with fov_y 0.01 at 1280x720 pixels " +
				"shears the image by (+Inf, +Inf) per unit of depth, more than a 32-bit float holds: " +
				"make the aperture or the blur smaller, or focus_distance or fov_y larger"},
		// A resolution option is the scene's when its camera is read: the
		// error names the field's line and the resolution used.
		{wide, []Option{WithResolution(1, 16384)},
			"e.yaml:3: camera.aperture: aperture 1e+30 (times blur 1) over focus_distance 0.001 with fov_y 0.01 at 1x16384 pixels " +
				"shears the image by (+Inf, 1.1459155e+37) per unit of depth, more than a 32-bit float holds: " +
				"make the aperture or the blur smaller, or focus_distance or fov_y larger"},
	}
	tests = append(tests, struct {
		src  string
		opts []Option
		want string
	}{tests[0].src, []Option{WithResolution(64, 36)}, strings.Replace(tests[0].want, "1280x720", "64x36", 1)})
	for _, tc := range tests {
		_, err := Parse("e.yaml", []byte(tc.src), tc.opts...)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%q: %v", tc.src, err)
			}
			continue
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got  %v\n want %s", tc.src, err, tc.want)
		}
	}
}
