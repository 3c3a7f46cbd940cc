package scene

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

func TestBuiltins(t *testing.T) {
	want := []string{"bats", "bowlingpin", "defocus", "depthwrite", "egomotion", "foliage", "grass", "motion", "occluders", "overdraw",
		"particles", "room", "silhouette", "smalltris", "texmagnify", "texminify", "texmodes", "texstudy", "triangle"}
	names := BuiltinNames()
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("BuiltinNames() = %v, want %v", names, want)
	}
	tests := []struct {
		name             string
		w, h, samples    int
		triangles, draws int
		shaders          []string // shaders that must be used by some object
		check            func(t *testing.T, s *Scene)
	}{
		{"triangle", 320, 240, 1, 1, 1, []string{"unlit"}, nil},
		// The geometry shader scenes (TriangleCount counts the meshes' triangles of every object, however drawn).
		// grass: a 24x24 terrain (1152 triangles) through the grass GS and a sphere of 2*24*11.
		{"grass", 320, 180, 1, 1680, 2, []string{"grass", "gouraud"}, nil},
		// silhouette: a torus (2*32*12) and a sphere (2*20*9), shaded and again with adjacency.
		{"silhouette", 320, 180, 1, 2 * (768 + 360), 4, []string{"gouraud", "silhouette"}, nil},
		// particles: a 2-triangle floor, the seed (1 triangle as 3 points), 2*4 ping-pong steps at frame 0, the sprites.
		{"particles", 320, 180, 1, 3, 11, []string{"particle_step", "particle_sprite"}, func(t *testing.T, s *Scene) {
			if !s.NeedsGeometryStage() || s.Frames != 8 || len(s.StreamBuffers) != 2 || s.Objects[2].DrawAuto != 1 || s.Objects[3].DrawAuto != 2 {
				t.Errorf("frames %d, buffers %v, objects %+v", s.Frames, s.StreamBuffers, s.Objects[2:4])
			}
		}},
		// Two spheres of 2*32*15 triangles and a 4x4 floor.
		{"bowlingpin", 320, 240, 1, 1952, 3, []string{"bowlingpin", "textured"}, nil},
		{"room", 1280, 720, 4, 12112, 17, []string{"textured", "normalmap", "gouraud", "blinnphong", "long"}, func(t *testing.T, s *Scene) {
			if len(s.Lights) != 3 {
				t.Errorf("room has %d lights, want 3", len(s.Lights))
			}
		}},
		{"smalltris", 1280, 720, 4, 52896, 3, []string{"textured", "blinnphong", "gouraud"}, nil},
		{"overdraw", 1280, 720, 4, 98, 49, []string{"unlit", "textured"}, func(t *testing.T, s *Scene) {
			blended := 0
			for _, o := range s.Objects {
				st := s.Materials[o.Material].State
				if st.Blend == BlendAlpha && !st.DepthWrite {
					blended++
				}
			}
			if blended != 48 {
				t.Errorf("%d blended layers without depth writes, want 48", blended)
			}
		}},
		{"occluders", 1280, 720, 4, 1920, 145, []string{"blinnphong", "gouraud", "textured"}, func(t *testing.T, s *Scene) {
			// Walls are drawn neither front to back nor back to front.
			var z []float32
			for _, o := range s.Objects {
				if strings.HasPrefix(o.Name, "wall[") {
					z = append(z, o.Transform[2][3])
				}
			}
			inc, dec := true, true
			for i := 1; i < len(z); i++ {
				inc = inc && z[i] > z[i-1]
				dec = dec && z[i] < z[i-1]
			}
			if len(z) != 16 || inc || dec {
				t.Errorf("wall depths in draw order %v: want 16 in mixed order", z)
			}
		}},
		{"foliage", 1280, 720, 4, 4836, 7, []string{"alphatest", "textured"}, func(t *testing.T, s *Scene) {
			m := s.Materials[s.MaterialIndex("leaf")]
			if m.State.Cull != CullNone {
				t.Error("leaves must be double-sided")
			}
			if c, _ := m.Param("cutoff"); c[0] != 0.5 {
				t.Errorf("cutoff %v", c)
			}
		}},
		{"depthwrite", 1280, 720, 4, 6396, 6, []string{"depthwrite", "blinnphong", "gouraud", "textured"}, nil},
		// The texture-cache study scenes: planes only.
		{"texstudy", 320, 180, 1, 10, 5, []string{"textured"}, nil},
		{"texmagnify", 320, 180, 1, 2, 1, []string{"textured"}, nil},
		{"texminify", 320, 180, 1, 2, 1, []string{"textured"}, func(t *testing.T, s *Scene) {
			if s.Textures[0].Mipmaps || s.Textures[0].Filter != FilterBilinear {
				t.Error("the minified texture must have no mipmaps")
			}
		}},
		// texmodes: a floor, 12 tiles, a 24x12 sphere (2*24*11 triangles) and a cube.
		{"texmodes", 320, 180, 4, 566, 15, []string{"textured", "layered", "envmap", "volume"}, func(t *testing.T, s *Scene) {
			formats, types, modes, filters := map[TextureFormat]bool{}, map[TextureType]bool{}, map[AddressMode]bool{}, map[Filter]bool{}
			for _, tx := range s.Textures {
				formats[tx.Format], types[tx.Type], filters[tx.Filter] = true, true, true
				modes[tx.AddressU], modes[tx.AddressV], modes[tx.AddressW] = true, true, true
			}
			if len(formats) != 11 || len(types) != 4 || len(modes) != 5 || len(filters) != 4 {
				t.Errorf("%d formats, %d types, %d address modes, %d filters; want all 11, 4, 5, 4", len(formats), len(types), len(modes), len(filters))
			}
		}},
		{"motion", 1280, 720, 8, 7352, 7, []string{"blinnphong", "gouraud", "long", "normalmap", "textured"}, func(t *testing.T, s *Scene) {
			moving := 0
			for _, o := range s.Objects {
				if o.Moving {
					moving++
				}
			}
			if moving != 5 || s.Camera.Aperture != 0.06 || s.Camera.FocusDistance != 6 {
				t.Errorf("%d moving objects, aperture %v, focus %v", moving, s.Camera.Aperture, s.Camera.FocusDistance)
			}
			if s.Materials[0].Decoupled != (Decoupling{Mode: DecoupleOn, Rate: 1}) || s.Blur != 1 || s.Frames != 1 {
				t.Errorf("motion: decoupled %+v, blur %v, frames %d", s.Materials[0].Decoupled, s.Blur, s.Frames)
			}
		}},
		// The decoupled-sampling study scenes. defocus: floor 4*20*2, three walls 20*2*2, 12 pillars, 6 boxes,
		// 48 + 36 balls of 2*16*7 and 32 crates of 12 triangles.
		{"defocus", 1280, 720, 8, 19816, 138, []string{"textured", "normalmap", "gouraud", "blinnphong"}, func(t *testing.T, s *Scene) {
			studyScene(t, s, 0, false)
			if s.Camera.Aperture != 0.12 || s.Camera.FocusDistance != 9 || s.Camera.Moving {
				t.Errorf("lens %v focused at %v, camera moving %v", s.Camera.Aperture, s.Camera.FocusDistance, s.Camera.Moving)
			}
		}},
		{"egomotion", 1280, 720, 8, 668, 33, []string{"textured", "normalmap", "gouraud"}, func(t *testing.T, s *Scene) {
			studyScene(t, s, 0, true)
			if s.Camera.Aperture != 0 || s.Camera.PositionEnd != (geom.Vec3{0.3, 1.6, 5.6}) || s.Camera.TargetEnd != (geom.Vec3{1.4, 1.4, 0}) {
				t.Errorf("camera %+v", s.Camera)
			}
		}},
		// bats: 120 bats of 10 triangles in 3 draws, a 32x32 terrain and an 8x4 plane.
		{"bats", 1280, 720, 8, 3312, 362, []string{"textured", "blinnphong"}, func(t *testing.T, s *Scene) {
			studyScene(t, s, 360, false)
			if s.Frames != 50 || s.Frame != 0 || s.Camera.FocusDistance != 3 || s.Camera.Aperture != 0.1 {
				t.Errorf("frames %d, frame %d, focus %v, aperture %v", s.Frames, s.Frame, s.Camera.FocusDistance, s.Camera.Aperture)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Builtin(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			if s.Name != tc.name || s.Source != "builtin:"+tc.name {
				t.Errorf("name %q source %q", s.Name, s.Source)
			}
			if s.Width != tc.w || s.Height != tc.h || s.Samples != tc.samples {
				t.Errorf("%dx%d x%d, want %dx%d x%d", s.Width, s.Height, s.Samples, tc.w, tc.h, tc.samples)
			}
			if s.TriangleCount() != tc.triangles || len(s.Objects) != tc.draws {
				t.Errorf("%d triangles in %d draws, want %d in %d", s.TriangleCount(), len(s.Objects), tc.triangles, tc.draws)
			}
			used := map[string]bool{}
			for _, o := range s.Objects {
				used[s.Materials[o.Material].Shader] = true
			}
			for _, sh := range tc.shaders {
				if !used[sh] {
					t.Errorf("shader %s not used", sh)
				}
			}
			if tc.check != nil {
				tc.check(t, s)
			}
			// Every built-in starts with a comment saying what it exercises.
			src, _ := BuiltinSource(tc.name)
			if !bytes.HasPrefix(src, []byte("# "+tc.name+": ")) {
				t.Errorf("YAML does not start with a %q comment", "# "+tc.name+": ")
			}
		})
	}
}

func TestBuiltinDeterministic(t *testing.T) {
	a, err := Builtin("smalltris")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Builtin("smalltris")
	for i := range a.Meshes {
		ma, mb := a.Meshes[i], b.Meshes[i]
		for j := range ma.Positions {
			if ma.Positions[j] != mb.Positions[j] {
				t.Fatalf("mesh %s vertex %d differs between loads", ma.Name, j)
			}
		}
	}
	for i := range a.Textures {
		if !bytes.Equal(a.Textures[i].Pix, b.Textures[i].Pix) {
			t.Fatalf("texture %s differs between loads", a.Textures[i].Name)
		}
	}
}

func TestOptionsAndOpen(t *testing.T) {
	s, err := Builtin(DefaultName, WithResolution(64, 48), WithSamples(2), WithMaxTextureSize(64))
	if err != nil {
		t.Fatal(err)
	}
	if s.Width != 64 || s.Height != 48 || s.Samples != 2 {
		t.Errorf("%dx%d x%d", s.Width, s.Height, s.Samples)
	}
	for _, tx := range s.Textures {
		if tx.Width > 64 || tx.Height > 64 {
			t.Errorf("texture %s %dx%d above the maximum", tx.Name, tx.Width, tx.Height)
		}
	}
	if _, err := Builtin("room", WithSamples(65)); err == nil || err.Error() != "builtin:room: samples 65 not supported (want 1 to 64)" {
		t.Errorf("bad samples: %v", err)
	}
	if err := s.SetResolution(0, 0, 16); err != nil || s.Samples != 16 || s.Width != 64 {
		t.Errorf("SetResolution: %v", err)
	}
	if err := s.SetResolution(20000, 0, 0); err == nil || err.Error() != "resolution 20000x48 out of range [1, 16384]" {
		t.Errorf("SetResolution too large: %v", err)
	}
	o, err := Open("triangle", WithResolution(32, 24))
	if err != nil || o.Width != 32 || o.Name != "triangle" {
		t.Errorf("Open(triangle): %v", err)
	}
	// An unknown name lists the built-in scenes and guesses the one meant
	// (case ignored), when one is a slip of the keyboard away.
	all := strings.Join(BuiltinNames(), ", ")
	for _, tc := range []struct{ name, guess string }{
		{"nothing", ""},
		{"Room", `; did you mean "room"?`},
		{"ROOM", `; did you mean "room"?`},
		{"rooom", `; did you mean "room"?`},
		{"trinagle", `; did you mean "triangle"?`},
		{"rm", ""}, // two edits in two letters: too far to guess
	} {
		want := `unknown scene "` + tc.name + `": not a built-in scene (` + all + `) nor a .yaml, .yml, .obj, .gltf or .glb file` + tc.guess
		if _, err := Open(tc.name); err == nil || err.Error() != want {
			t.Errorf("Open(%s):\n got  %v\n want %s", tc.name, err, want)
		}
	}
	dir := t.TempDir()
	if _, err := Open(dir); err == nil || err.Error() != fmt.Sprintf("scene %q is a folder: name the scene file in it (.yaml, .yml, .obj, .gltf or .glb)", dir) {
		t.Errorf("Open(a folder): %v", err)
	}
	if _, err := Builtin("../room"); err == nil || !strings.HasPrefix(err.Error(), `unknown built-in scene "../room"`) {
		t.Errorf("Builtin(../room): %v", err)
	}
	// Built-in scenes may not reference files.
	if _, err := parse("builtin/x.yaml", []byte("textures:\n  a: {file: /etc/hosts}\n"), "", false, options{}); err == nil ||
		err.Error() != "builtin/x.yaml:2: textures.a.file: file references are not allowed in built-in scenes" {
		t.Errorf("file in built-in: %v", err)
	}
}

// studyScene checks what the decoupled-sampling study scenes share: every
// material decoupled, blur 1, the given number of moving objects and camera
// motion.
func studyScene(t *testing.T, s *Scene, moving int, cameraMoves bool) {
	t.Helper()
	for _, m := range s.Materials {
		if m.Decoupled != (Decoupling{Mode: DecoupleOn, Rate: 1}) {
			t.Errorf("material %s: decoupled %+v", m.Name, m.Decoupled)
		}
	}
	n := 0
	for _, o := range s.Objects {
		if o.Moving {
			n++
		}
	}
	if n != moving || s.Camera.Moving != cameraMoves || s.Blur != 1 {
		t.Errorf("%d moving objects, camera moving %v, blur %v; want %d, %v, 1", n, s.Camera.Moving, s.Blur, moving, cameraMoves)
	}
}

// TestBatsFrames checks the bats animation: the focus racks from 3 to 12 over
// the 50 frames (linear in the frame), bats move from frame to frame, and
// frames outside [0, 50) are errors.
func TestBatsFrames(t *testing.T) {
	var prev *Scene
	for _, f := range []int{0, 1, 24, 49} {
		s, err := LoadFrame("bats", f)
		if err != nil {
			t.Fatal(err)
		}
		want := float32(3 + 9*float64(f)/49)
		if s.Frame != f || s.Camera.FocusDistance != want {
			t.Errorf("frame %d: Frame %d, focus %v, want %v", f, s.Frame, s.Camera.FocusDistance, want)
		}
		if prev != nil {
			same := 0
			for i := range s.Objects {
				if s.Objects[i].Transform == prev.Objects[i].Transform {
					same++
				}
			}
			if same != 2 { // the ground and the wall
				t.Errorf("frame %d: %d objects kept their frame-%d transform, want 2", f, same, prev.Frame)
			}
		}
		prev = s
	}
	if _, err := LoadFrame("bats", 50); err == nil || err.Error() != "builtin/bats.yaml:15: frames: frame 50 out of range [0, 49]" {
		t.Errorf("frame 50: %v", err)
	}
	if _, err := LoadFrame("room", 1); err == nil || err.Error() != "builtin/room.yaml:10: frames: frame 1 asked for, but the scene is not animated (no frames field: frame 0 only)" {
		t.Errorf("room frame 1: %v", err)
	}
}

// TestReadmeListsBuiltins: the README's table of built-in scenes has a row
// for every built-in scene and no other (it once listed 9 of 13).
func TestReadmeListsBuiltins(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^ *\\| `([a-z0-9]+)`( \\(default\\))? \\|")
	var listed []string
	for _, m := range row.FindAllSubmatch(readme, -1) {
		listed = append(listed, string(m[1]))
	}
	slices.Sort(listed)
	if got, want := strings.Join(listed, " "), strings.Join(BuiltinNames(), " "); got != want {
		t.Errorf("README.md's scene table lists\n  %s\nthe built-in scenes are\n  %s", got, want)
	}
}
