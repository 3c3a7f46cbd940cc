package scene

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// minimal is a valid scene that error cases modify.
const minimal = `name: t
meshes:
  tri: {procedural: {kind: triangle}}
materials:
  red: {shader: unlit, params: {color: [1, 0, 0, 1]}}
objects:
  - {mesh: tri, material: red}
`

func TestParseDefaults(t *testing.T) {
	s, err := Parse("dir/t.yaml", []byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "t" || s.Width != 1280 || s.Height != 720 || s.Samples != 1 || s.Source != "dir/t.yaml" {
		t.Errorf("scene %q %dx%d x%d from %q", s.Name, s.Width, s.Height, s.Samples, s.Source)
	}
	if s.Clear != (Clear{Color: geom.Vec4{0, 0, 0, 1}, Depth: 1}) {
		t.Errorf("clear %+v", s.Clear)
	}
	wantCam := Camera{Position: geom.Vec3{0, 0, 5}, Up: geom.Vec3{0, 1, 0}, FovYDegrees: 60, Near: 0.1, Far: 100,
		FocusDistance: 5, ShutterClose: 1}
	if s.Camera != wantCam {
		t.Errorf("camera %+v, want %+v", s.Camera, wantCam)
	}
	if s.Ambient != (geom.Vec3{0.05, 0.05, 0.05}) || len(s.Lights) != 0 {
		t.Errorf("ambient %v lights %v", s.Ambient, s.Lights)
	}
	m := s.Materials[0]
	if m.State != (State{Cull: CullBack, FrontCCW: true, DepthTest: true, DepthWrite: true, DepthFunc: CompareLess, Blend: BlendOpaque}) {
		t.Errorf("default state %+v", m.State)
	}
	o := s.Objects[0]
	if o.Name != "tri" || o.Mesh != 0 || o.Material != 0 || o.Transform != geom.Identity() || o.Moving {
		t.Errorf("object %+v", o)
	}
	// Empty values mean the defaults.
	s, err = Parse("t.yaml", []byte(minimal+"camera:\nlights: ~\ntextures:\n"))
	if err != nil || s.Camera != wantCam || len(s.Lights) != 0 {
		t.Errorf("empty values: %v", err)
	}
	// The name defaults to the file name.
	s, err = Parse("x/some_scene.yaml", []byte(strings.Replace(minimal, "name: t\n", "", 1)))
	if err != nil || s.Name != "some_scene" {
		t.Errorf("default name %q (%v)", s.Name, err)
	}
}

func TestParseFull(t *testing.T) {
	src := `name: full
resolution: [640, 360]
samples: 8
clear: {color: [0.1, 0.2, 0.3], depth: 0.5, stencil: 7}
camera:
  position: [1, 2, 3]
  target: [1, 2, 0]
  up: [0, 1, 0]
  fov_y: 45
  near: 0.5
  far: 50
  aperture: 0.1
  focus_distance: 4
  shutter: [0.25, 0.75]
ambient: [0.2, 0.2, 0.2]
lights:
  - {type: point, position: [0, 5, 0], color: [1, 0.5, 0.5], intensity: 2}
  - {type: directional, direction: [0, -2, 0]}
textures:
  check: {procedural: {kind: checker, size: [16, 8], cells: 2}, address: [wrap, clamp], filter: bilinear}
  flat: {procedural: {kind: solid, size: 2, color: [1, 1, 1]}, mipmaps: false}
meshes:
  box: {procedural: {kind: cube, size: [1, 2, 3]}}
  ball: {procedural: {kind: sphere, stacks: 4, slices: 6}, fit: 4}
materials:
  tex:
    shader: textured
    textures: {albedo: check}
    params: {tint: 0.5}
    cull: none
    front_ccw: false
    depth_test: false
    depth_write: false
    depth_func: greaterequal
    blend: premultiplied
  shiny:
    shader: blinnphong
    params: {specular: [0.5, 0.5, 0.5], diffuse: [1, 0, 0, 1]}
objects:
  - name: mover
    mesh: box
    material: tex
    transform: {translate: [0, 0, 0], rotate: [0, 90, 0], scale: 2}
    motion: {translate: [4, 0, 0]}
  - {mesh: ball, material: shiny}
`
	s, err := Parse("full.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if s.Width != 640 || s.Height != 360 || s.Samples != 8 {
		t.Errorf("%dx%d x%d", s.Width, s.Height, s.Samples)
	}
	if s.Clear != (Clear{Color: geom.Vec4{0.1, 0.2, 0.3, 1}, Depth: 0.5, Stencil: 7}) {
		t.Errorf("clear %+v", s.Clear)
	}
	c := s.Camera
	if c.FovYDegrees != 45 || c.Aperture != 0.1 || c.FocusDistance != 4 || c.ShutterOpen != 0.25 || c.ShutterClose != 0.75 {
		t.Errorf("camera %+v", c)
	}
	if len(s.Lights) != 2 || s.Lights[0] != (Light{Kind: PointLight, Position: geom.Vec3{0, 5, 0}, Color: geom.Vec3{2, 1, 1}}) ||
		s.Lights[1] != (Light{Kind: DirectionalLight, Direction: geom.Vec3{0, -1, 0}, Color: geom.Vec3{1, 1, 1}}) {
		t.Errorf("lights %+v", s.Lights)
	}
	tc := s.Textures[0]
	if tc.Width != 16 || tc.Height != 8 || !tc.Mipmaps || tc.Filter != FilterBilinear || tc.AddressU != AddressWrap || tc.AddressV != AddressClamp {
		t.Errorf("texture %s %dx%d mips %v %v %v %v", tc.Name, tc.Width, tc.Height, tc.Mipmaps, tc.Filter, tc.AddressU, tc.AddressV)
	}
	if f := s.Textures[1]; f.Mipmaps || f.Filter != FilterBilinear || len(f.Pix) != 16 || f.Pix[0] != 255 {
		t.Errorf("flat texture %+v", f)
	}
	lo, hi := s.Meshes[1].Bounds()
	// A 6-slice sphere is hexagonal around Y: x spans 2*sin(60) of its z span.
	if !near3(lo, geom.Vec3{-1.7320508, -2, -2}) || !near3(hi, geom.Vec3{1.7320508, 2, 2}) {
		t.Errorf("fitted sphere bounds %v %v", lo, hi)
	}
	tex := s.Materials[0]
	if tex.State != (State{Cull: CullNone, DepthFunc: CompareGreaterEqual, Blend: BlendPremultiplied}) {
		t.Errorf("state %+v", tex.State)
	}
	if len(tex.Params) != 1 || tex.Params[0] != (Param{"tint", geom.Vec4{0.5, 0.5, 0.5, 0.5}}) || tex.Textures[0] != (Binding{"albedo", 0}) {
		t.Errorf("tex params %+v textures %+v", tex.Params, tex.Textures)
	}
	// Params are stored in the shader's declaration order; 3 numbers get w = 1.
	sh := s.Materials[1].Params
	if len(sh) != 2 || sh[0] != (Param{"diffuse", geom.Vec4{1, 0, 0, 1}}) || sh[1] != (Param{"specular", geom.Vec4{0.5, 0.5, 0.5, 1}}) {
		t.Errorf("shiny params %+v", sh)
	}
	// Motion over the shutter [0.25, 0.75]: translation x goes 0 -> 4 over the
	// frame, so 1 at open and 3 at close; rotation and scale stay.
	mv := s.Objects[0]
	rs := geom.RotateEulerDegrees(geom.Vec3{0, 90, 0}).Mul(geom.Scale(geom.Vec3{2, 2, 2}))
	want0 := geom.Translate(geom.Vec3{1, 0, 0}).Mul(rs)
	want1 := geom.Translate(geom.Vec3{3, 0, 0}).Mul(rs)
	if !mv.Moving || mv.Transform != want0 || mv.EndTransform != want1 {
		t.Errorf("mover %+v\nwant %v\n     %v", mv, want0, want1)
	}
	if s.Objects[1].Name != "ball" || s.Objects[1].Moving {
		t.Errorf("ball %+v", s.Objects[1])
	}
}

func near3(a, b geom.Vec3) bool {
	for k := 0; k < 3; k++ {
		d := a[k] - b[k]
		if d > 1e-5 || d < -1e-5 {
			return false
		}
	}
	return true
}

func TestRepeat(t *testing.T) {
	src := func(extra string) string {
		return `meshes: {b: {procedural: {kind: cube}}}
materials: {m: {shader: unlit}}
objects:
  - name: box
    mesh: b
    material: m
    transform: {translate: [10, 0, 0]}
    motion: {translate: [10, 1, 0]}
    repeat: {count: [3, 2, 1], step: [2, 0, 5]` + extra + `}
`
	}
	s, err := Parse("r.yaml", []byte(src("")))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Objects) != 6 {
		t.Fatalf("%d objects", len(s.Objects))
	}
	// Instance k = x + 3*y; translation 10 + 2x at open, y offset 0 (step y is 0).
	for k, o := range s.Objects {
		x := float32(k % 3)
		want := geom.Translate(geom.Vec3{10 + 2*x, 0, 0})
		end := geom.Translate(geom.Vec3{10 + 2*x, 1, 0})
		if o.Name != "box["+string(rune('0'+k))+"]" || o.Transform != want || o.EndTransform != end || !o.Moving {
			t.Errorf("instance %d: %+v", k, o)
		}
	}
	rev, _ := Parse("r.yaml", []byte(src(", order: reverse")))
	if rev.Objects[0].Name != "box[5]" || rev.Objects[5].Name != "box[0]" {
		t.Errorf("reverse order: %s ... %s", rev.Objects[0].Name, rev.Objects[5].Name)
	}
	a, _ := Parse("r.yaml", []byte(src(", order: shuffle, seed: 3, jitter: {translate: 0.5, rotate: [0, 30, 0], scale: 0.2}")))
	b, _ := Parse("r.yaml", []byte(src(", order: shuffle, seed: 3, jitter: {translate: 0.5, rotate: [0, 30, 0], scale: 0.2}")))
	c, _ := Parse("r.yaml", []byte(src(", order: shuffle, seed: 4, jitter: {translate: 0.5, rotate: [0, 30, 0], scale: 0.2}")))
	same, names := true, map[string]bool{}
	for i := range a.Objects {
		if a.Objects[i] != b.Objects[i] {
			t.Fatal("same seed, different instances")
		}
		same = same && a.Objects[i] == c.Objects[i]
		names[a.Objects[i].Name] = true
	}
	if same || len(names) != 6 {
		t.Errorf("seed has no effect (%v) or names repeat (%d distinct)", same, len(names))
	}
}

func TestParseErrors(t *testing.T) {
	obj := "objects:\n  - {mesh: tri, material: red}\n"
	base := "meshes:\n  tri: {procedural: {kind: triangle}}\nmaterials:\n  red: {shader: unlit}\n"
	tests := []struct{ src, want string }{
		{"", "e.yaml: empty scene file"},
		{"name: [1\n", "e.yaml:1: yaml: did not find expected ',' or ']'"},
		{"- 1\n", "e.yaml:1: not a YAML mapping of keys (a scene file starts with keys such as resolution:, camera:, meshes:)"},
		{"colour: 1\n", "e.yaml:1: colour: unknown field (want one of name, resolution, samples, max_texture_size, frames, blur, decoupled, clear, camera, ambient, lights, textures, meshes, materials, stream_buffers, objects)"},
		{"name: a\nname: b\n", "e.yaml:2: name: duplicate key (first on line 1)"},
		{"resolution: [0, 10]\n", "e.yaml:1: resolution[0]: 0 out of range [1, 16384]"},
		{"resolution: [-640, 480]\n", "e.yaml:1: resolution[0]: -640 out of range [1, 16384]"},
		{"resolution: [640]\n", "e.yaml:1: resolution: expected [width, height], got 1 values"},
		{"resolution: [640.5, 480]\n", "e.yaml:1: resolution[0]: expected an integer, got 640.5"},
		{"max_texture_size: 99999999999999999999999\n", "e.yaml:1: max_texture_size: 99999999999999999999999 out of range [0, 16384]"},
		{"resolution: [-99_999_999_999_999_999_999, 480]\n", "e.yaml:1: resolution[0]: -99_999_999_999_999_999_999 out of range [1, 16384]"},
		{"resolution: [1e3, 480]\n", "e.yaml:1: resolution[0]: expected an integer, got 1e3"},
		{"resolution: [0640, 480]\n", "e.yaml:1: resolution[0]: 0640 has a leading zero, which YAML reads as an octal number: write it without the zero"},
		{"camera:\n  fov_y: 060\n", "e.yaml:2: camera.fov_y: 060 has a leading zero, which YAML reads as an octal number: write it without the zero"},
		{"camera:\n  fov_y: 1e400\n", "e.yaml:2: camera.fov_y: number 1e400 is beyond the 32-bit float range (±3.4e38)"},
		{"camera:\n  fov_y: \"1e400\"\n", `e.yaml:2: camera.fov_y: expected a number, got string "1e400"`},
		{"samples: 65\n", "e.yaml:1: samples: 65 not supported (want 1 to 64)"},
		{"samples: 0\n", "e.yaml:1: samples: 0 not supported (want 1 to 64)"},
		{"samples: four\n", `e.yaml:1: samples: expected an integer, got string "four"`},
		{"clear: {depth: 2}\n", "e.yaml:1: clear.depth: 2 out of range [0, 1]"},
		{"clear: {color: [1, 1]}\n", "e.yaml:1: clear.color: expected 3 to 4 numbers, got 2"},
		{"camera:\n  fov_y: 190\n", "e.yaml:2: camera.fov_y: 190 out of range [0.001, 179.9]"},
		{"camera:\n  near: 5\n  far: 1\n", "e.yaml:3: camera.far: 1 must be greater than near 5"},
		{"camera:\n  target: [0, 0, 5]\n", "e.yaml:2: camera.target: equals the camera position [0 0 5]"},
		{"camera:\n  up: [0, 0, 1]\n", "e.yaml:2: camera.up: [0 0 1] is parallel to the view direction [0 0 -5]"},
		{"camera:\n  position: [3e38, 0, 0]\n  target: [-3e38, 0, 0]\n  focus_distance: 1\n",
			"e.yaml:3: camera.target: [-3e+38 0 0] is too far from the camera position [3e+38 0 0]: their difference overflows a 32-bit float"},
		{"camera:\n  position_end: [3e38, 0, 0]\n  target_end: [-3e38, 0, 0]\n",
			"e.yaml:3: camera.target_end: [-3e+38 0 0] is too far from position_end [3e+38 0 0]: their difference overflows a 32-bit float"},
		{"camera:\n  shutter: [0.8, 0.2]\n", "e.yaml:2: camera.shutter: [0.8, 0.2]: want 0 <= open <= close <= 1"},
		{"camera:\n  aperture: .nan\n", "e.yaml:2: camera.aperture: number .nan is not finite"},
		{"camera:\n  aperture: 1e308\n", "e.yaml:2: camera.aperture: number 1e308 is beyond the 32-bit float range (±3.4e38)"},
		{"lights:\n  - {position: [0, 1, 0]}\n", "e.yaml:2: lights[0]: missing type (point or directional)"},
		{"lights:\n  - {type: spot, position: [0, 1, 0]}\n", `e.yaml:2: lights[0].type: unknown value "spot" (want one of point, directional)`},
		{"lights:\n  - {type: point, direction: [0, 1, 0]}\n", "e.yaml:2: lights[0].direction: a point light has a position, not a direction"},
		{"lights:\n  - {type: directional, direction: [0, 0, 0]}\n", "e.yaml:2: lights[0].direction: zero vector"},
		{"lights: [{type: directional, direction: [0,-1,0]}, {type: directional, direction: [0,-1,0]}, {type: directional, direction: [0,-1,0]}, {type: directional, direction: [0,-1,0]}, {type: directional, direction: [0,-1,0]}]\n",
			"e.yaml:1: lights: 5 lights, at most 4"},
		{"textures:\n  a: {}\n", "e.yaml:2: textures.a: needs file or procedural"},
		{"textures:\n  a: {procedural: {kind: marble}}\n", `e.yaml:2: textures.a.procedural.kind: unknown value "marble" (want one of solid, checker, bricks, bricks_normal, noise, leaf, bumps_normal, gradient)`},
		{"textures:\n  a: {procedural: {size: 4}}\n", "e.yaml:2: textures.a.procedural: missing kind (one of solid, checker, bricks, bricks_normal, noise, leaf, bumps_normal, gradient)"},
		{"textures:\n  a:\n    procedural: {kind: checker, rows: 4}\n", "e.yaml:3: textures.a.procedural.rows: unknown field (want one of kind, size, cells, colors)"},
		{"textures:\n  a:\n    procedural: {kind: checker, size: 4, cells: 8}\n", "e.yaml:3: textures.a.procedural: cells 8x8 out of range [1, image size 4x4]"},
		{"textures:\n  a:\n    procedural: {kind: checker, colors: [[1, 1, 1]]}\n", "e.yaml:3: textures.a.procedural.colors: expected 2 entries, got 1"},
		{"textures:\n  a:\n    procedural: {kind: solid, size: 5000}\n", "e.yaml:3: textures.a.procedural.size: 5000 out of range [1, 4096]"},
		{"textures:\n  a:\n    file: x.png\n", "e.yaml:3: textures.a.file: \"x.png\": no such file"},
		{"textures:\n  a: {procedural: {kind: solid}, mipmaps: false, filter: trilinear}\n", "e.yaml:2: textures.a.filter: trilinear filtering needs mipmaps"},
		{"textures:\n  a: {procedural: {kind: solid}, address: mirrored}\n", `e.yaml:2: textures.a.address: unknown value "mirrored"; did you mean "mirror"? (want one of wrap, clamp, mirror, border, mirror_once)`},
		{"textures:\n  a: {procedural: {kind: solid}, address: [wrap, clamp, border, wrap]}\n", "e.yaml:2: textures.a.address: expected one mode, [u, v] or [u, v, w], got 4 values"},
		{"textures:\n  a: {procedural: {kind: solid}, format: bc7}\n", `e.yaml:2: textures.a.format: unknown value "bc7" (want one of rgba8, rgba8_srgb, r8, rg8, rgba16f, rgba32f, bc1, bc2, bc3, bc4, bc5)`},
		{"textures:\n  a: {procedural: {kind: solid}, format: bc1, srgb: true}\n", "e.yaml:2: textures.a.srgb: sRGB needs format rgba8, not bc1"},
		{"textures:\n  a: {procedural: {kind: solid}, format: rgba8_srgb, srgb: false}\n", "e.yaml:2: textures.a.srgb: false contradicts format rgba8_srgb"},
		{"textures:\n  a: {procedural: {kind: solid}, mipmaps: false, filter: anisotropic}\n", "e.yaml:2: textures.a.filter: anisotropic filtering needs mipmaps"},
		{"textures:\n  a: {procedural: {kind: solid}, anisotropy: 32}\n", "e.yaml:2: textures.a.anisotropy: 32 out of range [1, 16]"},
		{"textures:\n  a: {procedural: {kind: solid}, min_lod: 3, max_lod: 2}\n", "e.yaml:2: textures.a.min_lod: 3 is above max_lod 2"},
		{"textures:\n  a: {procedural: {kind: solid}, border: [1, 2]}\n", "e.yaml:2: textures.a.border: expected 3 to 4 numbers, got 2"},
		{"textures:\n  a: {type: cube, procedural: {kind: solid, size: [4, 2]}}\n", "e.yaml:2: textures.a.procedural: cube faces must be square, got 4x2"},
		{"textures:\n  a: {type: cube, file: x.png}\n", "e.yaml:2: textures.a.file: a cube texture needs faces or procedural"},
		{"textures:\n  a: {type: cube, faces: [{procedural: {kind: solid}}]}\n", "e.yaml:2: textures.a.faces: a cube map needs 6 faces (+x, -x, +y, -y, +z, -z), got 1"},
		{"textures:\n  a: {type: array}\n", "e.yaml:2: textures.a: needs layers"},
		{"textures:\n  a: {type: array, layers: [{procedural: {kind: solid, size: 4}}, {procedural: {kind: solid, size: 8}}]}\n", "e.yaml:2: textures.a.layers: image 1 is 8x8, image 0 is 4x4: all must have the same size"},
		{"textures:\n  a: {type: array, layers: [{}]}\n", "e.yaml:2: textures.a.layers[0]: needs file or procedural"},
		{"textures:\n  a: {type: 3d, procedural: {kind: checker}}\n", `e.yaml:2: textures.a.procedural.kind: unknown value "checker"; did you mean "checker3d"? (want one of noise3d, checker3d)`},
		{"textures:\n  a: {type: 3d, procedural: {kind: noise3d, size: [4, 4]}}\n", "e.yaml:2: textures.a.procedural.size: expected an integer or a list of 3 integers, got 2 values"},
		{"textures:\n  a: {type: 3d, procedural: {kind: noise3d, size: 4000}}\n", "e.yaml:2: textures.a.procedural.size: 4000 out of range [1, 2048]"},
		{"textures:\n  a: {type: 4d, procedural: {kind: solid}}\n", `e.yaml:2: textures.a.type: unknown value "4d" (want one of 2d, array, cube, 3d)`},
		{"textures:\n  a: {file: x.png, faces: []}\n", "e.yaml:2: textures.a: give one of file or procedural, not file and faces"},
		{"textures:\n  c: {type: cube, procedural: {kind: sky, size: 2}}\nmaterials:\n  m: {shader: textured, textures: {albedo: c}}\n",
			`e.yaml:4: materials.m.textures.albedo: texture "c" is a cube texture, sampler albedo of shader textured samples 2d textures`},
		{"meshes:\n  m: {procedural: {kind: sphere, stacks: 1}}\n", "e.yaml:2: meshes.m.procedural.stacks: 1 out of range [2, 4096]"},
		{"meshes:\n  m: {procedural: {kind: torus, minor_radius: 2}}\n", "e.yaml:2: meshes.m.procedural: minor_radius 2 must be smaller than major_radius 1"},
		{"meshes:\n  m: {file: a.obj, procedural: {kind: cube}}\n", "e.yaml:2: meshes.m: give either file or procedural, not both"},
		{"meshes:\n  m: {file: nope.obj}\n", "e.yaml:2: meshes.m.file: \"nope.obj\": no such file"},
		{"meshes:\n  m: {procedural: {kind: triangle, vertices: [[0, 0, 0], [1, 0, 0]]}}\n", "e.yaml:2: meshes.m.procedural.vertices: expected 3 entries, got 2"},
		{"meshes:\n  m: {procedural: {kind: cube}, fit: 0}\n", "e.yaml:2: meshes.m.fit: 0 out of range [1e-06, 1e+30]"},
		{"materials:\n  m: {params: {color: 1}}\n", "e.yaml:2: materials.m: missing shader (one of unlit, gouraud, blinnphong, textured, normalmap, alphatest, depthwrite, long, envmap, layered, volume, bowlingpin, bumppin, grass, grass_instanced, silhouette, particle_step, particle_sprite, wood)"},
		{"materials:\n  m: {shader: phong}\n", `e.yaml:2: materials.m.shader: unknown shader "phong" (want one of unlit, gouraud, blinnphong, textured, normalmap, alphatest, depthwrite, long, envmap, layered, volume, bowlingpin, bumppin, grass, grass_instanced, silhouette, particle_step, particle_sprite, wood)`},
		{"materials:\n  m:\n    shader: unlit\n    params:\n      colour: [1, 0, 0]\n", "e.yaml:5: materials.m.params.colour: unknown parameter of shader unlit (want color)"},
		{"materials:\n  m:\n    shader: unlit\n    params:\n      color: [1, 0, 0, 1, 1]\n", "e.yaml:5: materials.m.params.color: expected 1 to 4 numbers, got 5"},
		{"materials:\n  m:\n    shader: unlit\n    textures: {albedo: x}\n", "e.yaml:4: materials.m.textures.albedo: unknown sampler of shader unlit (want none)"},
		{"materials:\n  m:\n    shader: textured\n", "e.yaml:3: materials.m: shader textured needs a texture for sampler albedo"},
		{"materials:\n  m:\n    shader: textured\n    textures: {albedo: nope}\n", `e.yaml:4: materials.m.textures.albedo: unknown texture "nope"`},
		{"materials:\n  m:\n    shader: unlit\n    blend: multiply\n", `e.yaml:4: materials.m.blend: unknown value "multiply" (want one of opaque, alpha, additive, premultiplied)`},
		{"materials:\n  m:\n    shader: unlit\n    depth_func: le\n", `e.yaml:4: materials.m.depth_func: unknown value "le" (want one of never, less, equal, lessequal, greater, notequal, greaterequal, always)`},
		{"materials:\n  m:\n    shader: unlit\n    depth_write: yes please\n", `e.yaml:4: materials.m.depth_write: expected true or false, got string "yes please"`},
		{"materials:\n  from_file: {shader: unlit}\n", `e.yaml:2: materials.from_file: "from_file" is reserved (it draws a file mesh with its own materials)`},
		{base + "objects:\n  - {material: red}\n", "e.yaml:6: objects[0]: missing mesh"},
		{base + "objects:\n  - {mesh: tri}\n", "e.yaml:6: objects[0]: missing material (a material name, or from_file)"},
		{base + "objects:\n  - {mesh: tri, material: blue}\n", `e.yaml:6: objects[0].material: unknown material "blue"`},
		{base + "objects:\n  - {mesh: square, material: red}\n", `e.yaml:6: objects[0].mesh: unknown mesh "square"`},
		{base + "objects:\n  - {mesh: tri, material: from_file}\n", `e.yaml:6: objects[0].material: from_file needs a mesh loaded from a file; "tri" is procedural`},
		{base + obj + "  - mesh: tri\n    material: red\n    transform: {scale: [1, 0, 1]}\n", "e.yaml:9: objects[1].transform.scale: [1 0 1] has a zero component"},
		{base + obj + "  - mesh: tri\n    material: red\n    transform: {rotate: 90}\n", "e.yaml:9: objects[1].transform.rotate: expected a list of 3 numbers, got 90"},
		{base + obj + "  - mesh: tri\n    material: red\n    motion: {translate: [0, 0]}\n", "e.yaml:9: objects[1].motion.translate: expected 3 numbers, got 2"},
		{base + obj + "  - mesh: tri\n    material: red\n    repeat: {count: [1000, 1000]}\n", "e.yaml:9: objects[1].repeat.count: 1000000 instances, at most 100000"},
		{base + obj + "  - mesh: tri\n    material: red\n    repeat: {count: 2, order: random}\n", `e.yaml:9: objects[1].repeat.order: unknown value "random" (want one of forward, reverse, shuffle)`},
		// A motion that the blur scales past a float32: the object's
		// triangles vanished from the frame without a word.
		{"blur: 1e6\n" + base + obj + "  - mesh: tri\n    material: red\n    motion: {translate: [1e35, 0, 0]}\n",
			`e.yaml:10: objects[1].motion: the motion of "tri" times blur 1e+06 is not finite: it overflows a 32-bit float (make the motion or the blur smaller)`},
		// Copies whose offsets overflow a float32: the error named no line
		// (e.yaml: scene "e": objects[5] "tri[4]": transform is not finite).
		{base + obj + "  - mesh: tri\n    material: red\n    repeat: {count: 10, step: [1e38, 0, 0]}\n",
			`e.yaml:9: objects[1].repeat: the transform of "tri[4]" is not finite: its translation, rotation or scale overflows a 32-bit float`},
		{base + obj + "  - mesh: tri\n    material: red\n    transform: {translate: [3e38, 0, 0]}\n    repeat: {count: 2, jitter: {translate: [3e38, 0, 0]}, seed: 3}\n",
			`e.yaml:10: objects[1].repeat: the transform of "tri[1]" is not finite: its translation, rotation or scale overflows a 32-bit float`},
		{base + obj + "  - mesh: tri\n    material: red\n    visible: false\n", "e.yaml:9: objects[1].visible: unknown field (want one of name, mesh, material, transform, motion, repeat, animation, bats, topology, stream_out, draw_auto, ping_pong)"},
		{"a: &x [1\n", "e.yaml:1: yaml: did not find expected ',' or ']'"},
		// A slip of the keyboard gets a guess (internal/names.DidYouMean).
		{"camrea: {fov_y: 40}\n", `e.yaml:1: camrea: unknown field; did you mean "camera"? (want one of name, resolution, samples, max_texture_size, frames, blur, decoupled, clear, camera, ambient, lights, textures, meshes, materials, stream_buffers, objects)`},
		{"materials:\n  m: {shader: blinnphon}\n", `e.yaml:2: materials.m.shader: unknown shader "blinnphon"; did you mean "blinnphong"? (want one of unlit, gouraud, blinnphong, textured, normalmap, alphatest, depthwrite, long, envmap, layered, volume, bowlingpin, bumppin, grass, grass_instanced, silhouette, particle_step, particle_sprite, wood)`},
		{"textures:\n  bricks: {procedural: {kind: solid}}\nmaterials:\n  m:\n    shader: textured\n    textures: {albedo: brick}\n", `e.yaml:6: materials.m.textures.albedo: unknown texture "brick"; did you mean "bricks"?`},
		{base + "objects:\n  - {mesh: tri, material: rde}\n", `e.yaml:6: objects[0].material: unknown material "rde"; did you mean "red"?`},
		{base + "objects:\n  - {mesh: tir, material: red}\n", `e.yaml:6: objects[0].mesh: unknown mesh "tir"; did you mean "tri"?`},
	}
	for _, tc := range tests {
		_, err := Parse("e.yaml", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got  %v\n want %s", tc.src, err, tc.want)
		}
	}
}

func TestAliasesAndMerge(t *testing.T) {
	src := `meshes:
  tri: {procedural: {kind: triangle}}
materials:
  base: &base {shader: blinnphong, params: {diffuse: [1, 0, 0, 1]}, cull: none}
  other:
    <<: *base
    cull: front
objects:
  - &obj {mesh: tri, material: base, transform: {translate: [1, 2, 3]}}
  - *obj
`
	s, err := Parse("a.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	o := s.Materials[1]
	if o.Shader != "blinnphong" || o.State.Cull != CullFront || len(o.Params) != 1 {
		t.Errorf("merged material %+v", o)
	}
	if len(s.Objects) != 2 || s.Objects[1].Transform != geom.Translate(geom.Vec3{1, 2, 3}) {
		t.Errorf("aliased object %+v", s.Objects)
	}
	// A merge-key bomb (each level merges the previous one ten times) is
	// stopped by the node budget instead of being expanded 10^7 times.
	var b strings.Builder
	b.WriteString("materials:\n  m0: &m0 {shader: unlit}\n")
	for i := 1; i <= 7; i++ {
		fmt.Fprintf(&b, "  m%d: &m%d {<<: [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*m%d", i-1)
		}
		b.WriteString("]}\n")
	}
	_, err = Parse("bomb.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "document too large (aliases expand to more than 1048576 nodes)") {
		t.Errorf("bomb: %v", err)
	}
}

func TestParseTextureKinds(t *testing.T) {
	src := minimal + `max_texture_size: 8
textures:
  plain: {procedural: {kind: solid, size: 4, color: [0.2, 0.4, 0.6]}}
  tuned:
    procedural: {kind: solid, size: [16, 2]}
    format: bc3
    filter: anisotropic
    anisotropy: 4
    address: [mirror, border, mirror_once]
    border: [0.5, 0.25, 1]
    lod_bias: -0.5
    min_lod: 1
    max_lod: 6
  srgb: {procedural: {kind: solid, size: 2}, srgb: true, address: [clamp, wrap]}
  sky: {type: cube, procedural: {kind: sky, size: 4}}
  box:
    type: cube
    faces: [{procedural: {kind: solid, size: 2, color: [1, 0, 0]}}, {procedural: {kind: solid, size: 2, color: [0, 1, 0]}},
            {procedural: {kind: solid, size: 2}}, {procedural: {kind: solid, size: 2}},
            {procedural: {kind: solid, size: 2}}, {procedural: {kind: solid, size: 2, color: [0, 0, 1]}}]
  tiles: {type: cube, procedural: {kind: checker, size: 4, cells: 2}}
  atlas: {type: array, layers: [{procedural: {kind: solid, size: 2}}, {procedural: {kind: checker, size: 2, cells: 1}}], format: r8}
  fog: {type: 3d, procedural: {kind: noise3d, size: [4, 2, 3]}, format: rgba16f, address: clamp}
  cells: {type: 3d, layers: [{procedural: {kind: solid, size: 2}}, {procedural: {kind: solid, size: 2}}]}
`
	s, err := Parse("k.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	tx := map[string]*Texture{}
	for i := range s.Textures {
		tx[s.Textures[i].Name] = &s.Textures[i]
	}
	p := tx["plain"]
	if p.Type != Texture2D || p.Format != FormatRGBA8 || p.Filter != FilterTrilinear || p.AddressU != AddressWrap ||
		p.AddressW != AddressWrap || p.MaxAnisotropy != 16 || p.MaxLOD != 1000 || p.MinLOD != 0 || p.LODBias != 0 ||
		p.Border != (geom.Vec4{}) || p.Slices() != 1 || len(p.Pix) != 64 || p.Pix[0] != 51 {
		t.Errorf("defaults: %+v", *p)
	}
	// Downscaled to max_texture_size 8 (16x2 -> 8x1).
	u := tx["tuned"]
	if u.Width != 8 || u.Height != 1 || u.Format != FormatBC3 || u.Filter != FilterAnisotropic || u.MaxAnisotropy != 4 ||
		u.AddressU != AddressMirror || u.AddressV != AddressBorder || u.AddressW != AddressMirrorOnce ||
		u.Border != (geom.Vec4{0.5, 0.25, 1, 1}) || u.LODBias != -0.5 || u.MinLOD != 1 || u.MaxLOD != 6 {
		t.Errorf("tuned: %+v", *u)
	}
	if sr := tx["srgb"]; sr.Format != FormatRGBA8SRGB || sr.AddressU != AddressClamp || sr.AddressV != AddressWrap || sr.AddressW != AddressWrap {
		t.Errorf("srgb: %+v", *sr)
	}
	if sk := tx["sky"]; sk.Type != TextureCube || sk.Slices() != 6 || len(sk.Pix) != 6*4*4*4 {
		t.Errorf("sky: %v %d slices %d bytes", sk.Type, sk.Slices(), len(sk.Pix))
	}
	b := tx["box"]
	if b.Type != TextureCube || len(b.Pix) != 6*16 || b.Pix[0] != 255 || b.Pix[16+1] != 255 || b.Pix[5*16+2] != 255 || b.Pix[5*16] != 0 {
		t.Errorf("box faces: %v", b.Pix)
	}
	if tl := tx["tiles"]; len(tl.Pix) != 6*64 || string(tl.Pix[:64]) != string(tl.Pix[5*64:]) {
		t.Errorf("a 2D kind fills every face")
	}
	if a := tx["atlas"]; a.Type != TextureArray || a.Depth != 2 || a.Format != FormatR8 || len(a.Pix) != 2*16 {
		t.Errorf("atlas: %+v", *a)
	}
	if f := tx["fog"]; f.Type != Texture3D || f.Depth != 3 || f.Width != 4 || f.Height != 2 || f.Format != FormatRGBA16F ||
		f.AddressW != AddressClamp || len(f.Pix) != 4*2*3*4 {
		t.Errorf("fog: %v %dx%dx%d %v", f.Type, f.Width, f.Height, f.Depth, f.Format)
	}
	if c := tx["cells"]; c.Type != Texture3D || c.Depth != 2 {
		t.Errorf("cells: %v %d", c.Type, c.Depth)
	}
}

// TestNullValues: a field written without its value is an error at its line,
// not the default; a section or list written empty ("camera:", "lights: ~")
// keeps its defaults (TestParseDefaults).
func TestNullValues(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{minimal + "camera:\n  fov_y:\n", "t.yaml:9: camera.fov_y: no value: give one, or remove the line to keep the default"},
		{minimal + "samples: ~\n", "t.yaml:8: samples: no value: give one, or remove the line to keep the default"},
		{minimal + "camera: {position: }\n", "t.yaml:8: camera.position: expected a list of 3 numbers, got null"},
	} {
		if _, err := Parse("t.yaml", []byte(tc.src)); err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got  %v\n want %s", tc.src, err, tc.want)
		}
	}
}

// Poses and light directions whose squared lengths overflow a float32 load
// as what they are (the camera check called perpendicular vectors parallel,
// and the light's direction normalised to zero).
func TestParseHugeVectors(t *testing.T) {
	for _, src := range []string{
		"camera: {position: [2e19, 0, 0], target: [0, 0, 0]}\n",
		"camera: {position: [1e29, 0, 0], target: [0, 0, 0], near: 1e28, far: 1e30}\n",
		"camera: {up: [0, 3e38, 3e38]}\n",
		"lights: [{type: directional, direction: [3e38, 3e38, 0]}]\n",
	} {
		s, err := Parse("e.yaml", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		for _, l := range s.Lights {
			if d := l.Direction; math.Abs(float64(d.Length())-1) > 1e-6 {
				t.Errorf("%q: light direction %v, want a unit vector", src, d)
			}
		}
	}
}

// The checks that join keyframed values (the camera's pose, a light's
// direction) hold at every frame: a frame that breaks one is refused
// whichever frame loads, and the error names it.
func TestParseChecksEveryFrame(t *testing.T) {
	tests := []struct {
		src   string
		loads []int // the frames loaded, each a good one
		want  string
	}{
		{"frames: 3\ncamera: {position: {frames: [0, 2], values: [[0, 0, 5], [0, 0, -5]]}}\n", []int{0, 2},
			"e.yaml:2: camera.target: at frame 1: equals the camera position [0 0 0]"},
		{"frames: 5\nlights: [{type: directional, direction: {frames: [0, 4], values: [[0, 1, 0], [0, -1, 0]]}}]\n", []int{0, 4},
			"e.yaml:2: lights[0].direction: at frame 2: zero vector"},
		{"frames: 5\ncamera: {up: {frames: [3, 4], values: [[0, 1, 0], [0, 0, 1]]}}\n", []int{0, 3},
			"e.yaml:2: camera.up: at frame 4: [0 0 1] is parallel to the view direction [0 0 -5]"},
	}
	for _, tc := range tests {
		for _, frame := range tc.loads {
			_, err := Parse("e.yaml", []byte(tc.src), WithFrame(frame))
			if err == nil || err.Error() != tc.want {
				t.Errorf("%q at frame %d:\n got  %v\n want %s", tc.src, frame, err, tc.want)
			}
		}
	}
}
