package scene

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"

	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/internal/testscenes"
)

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func pngBytes(w, h int, c color.NRGBA) []byte {
	im := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < w*h; i++ {
		im.SetNRGBA(i%w, i/w, c)
	}
	var b bytes.Buffer
	png.Encode(&b, im)
	return b.Bytes()
}

// A quad with two materials: the left triangle textured, the right plain.
const twoMatOBJ = `mtllib quad.mtl
v -1 -1 0
v 1 -1 0
v 1 1 0
v -1 1 0
vt 0 0
vt 1 0
vt 1 1
vt 0 1
usemtl painted
f 1/1 2/2 4/4
usemtl plain
f 2/2 3/3 4/4
`

const quadMTL = `newmtl painted
Kd 1 1 1
map_Kd tex/paint.png
newmtl plain
Kd 0.2 0.4 0.6
Ks 0.5 0.5 0.5
Ns 0
`

func TestSceneWithFileMeshes(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "models", "quad.obj"), []byte(twoMatOBJ))
	writeFile(t, filepath.Join(dir, "models", "quad.mtl"), []byte(quadMTL))
	writeFile(t, filepath.Join(dir, "models", "tex", "paint.png"), pngBytes(64, 32, color.NRGBA{9, 8, 7, 255}))
	writeFile(t, filepath.Join(dir, "wall.png"), pngBytes(4, 4, color.NRGBA{1, 2, 3, 255}))
	writeFile(t, filepath.Join(dir, "novt.obj"), []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"))
	src := `max_texture_size: 16
textures:
  wall: {file: wall.png}
meshes:
  quad: {file: models/quad.obj, fit: 1}
  plain: {file: novt.obj}
materials:
  wall: {shader: textured, textures: {albedo: wall}}
objects:
  - {name: own, mesh: quad, material: from_file, transform: {translate: [0, 0, -1]}}
  - {name: again, mesh: quad, material: from_mtl}
  - {name: walled, mesh: quad, material: wall}
  - {name: bare, mesh: plain, material: from_file}
`
	path := filepath.Join(dir, "s.yaml")
	writeFile(t, path, []byte(src))
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	// Meshes: quad (merged), plain, then the two parts of quad.
	var meshNames []string
	for _, m := range s.Meshes {
		meshNames = append(meshNames, m.Name)
	}
	if got := strings.Join(meshNames, " "); got != "quad plain quad/0 quad/1" {
		t.Errorf("meshes %s", got)
	}
	if s.Meshes[0].TriangleCount() != 2 {
		t.Errorf("merged quad has %d triangles", s.Meshes[0].TriangleCount())
	}
	lo, hi := s.Meshes[0].Bounds()
	if lo != (geom.Vec3{-0.5, -0.5, 0}) || hi != (geom.Vec3{0.5, 0.5, 0}) {
		t.Errorf("fitted quad bounds %v %v", lo, hi)
	}
	var matNames []string
	for _, m := range s.Materials {
		matNames = append(matNames, m.Name+":"+m.Shader)
	}
	if got := strings.Join(matNames, " "); got != "wall:textured quad/painted:textured quad/plain:blinnphong plain/default:blinnphong" {
		t.Errorf("materials %s", got)
	}
	plain := s.Materials[2]
	if d, _ := plain.Param("diffuse"); d != (geom.Vec4{0.2, 0.4, 0.6, 1}) {
		t.Errorf("plain diffuse %v", d)
	}
	if sp, _ := plain.Param("specular"); sp != (geom.Vec4{0.5, 0.5, 0.5, 1}) {
		t.Errorf("plain specular %v (shininess at least 1)", sp)
	}
	// The file texture is downscaled to max_texture_size and named as written.
	if len(s.Textures) != 2 || s.Textures[1].Name != "tex/paint.png" || s.Textures[1].Width != 16 || s.Textures[1].Height != 8 ||
		!s.Textures[1].Mipmaps || s.Textures[1].Filter != FilterTrilinear {
		t.Errorf("textures %+v", s.Textures[1])
	}
	var objs []string
	for _, o := range s.Objects {
		objs = append(objs, o.Name+":"+s.Meshes[o.Mesh].Name+":"+s.Materials[o.Material].Name)
	}
	want := "own/0:quad/0:quad/painted own/1:quad/1:quad/plain again/0:quad/0:quad/painted again/1:quad/1:quad/plain " +
		"walled:quad:wall bare:plain:plain/default"
	if got := strings.Join(objs, " "); got != want {
		t.Errorf("objects\n got  %s\n want %s", got, want)
	}
	if s.Objects[0].Transform != geom.Translate(geom.Vec3{0, 0, -1}) {
		t.Errorf("own transform %v", s.Objects[0].Transform)
	}
	// Part meshes and file materials cannot be named by objects.
	bad := strings.Replace(src, "{name: walled, mesh: quad, material: wall}", "{name: walled, mesh: quad/0, material: wall}", 1)
	writeFile(t, path, []byte(bad))
	if _, err := Load(path); err == nil || err.Error() != path+`:12: objects[2].mesh: unknown mesh "quad/0"; did you mean "quad"?` {
		t.Errorf("part mesh by name: %v", err)
	}
	// A textured material on a mesh without texture coordinates.
	bad = strings.Replace(src, "{name: bare, mesh: plain, material: from_file}", "{name: bare, mesh: plain, material: wall}", 1)
	writeFile(t, path, []byte(bad))
	if _, err := Load(path); err == nil || err.Error() != path+`:13: objects[3].material: material "wall" (shader textured) samples textures but mesh "plain" has no texture coordinates` {
		t.Errorf("texcoords: %v", err)
	}
	// Errors inside a mesh file name that file and line, after the scene's,
	// as the scene names its folder (not by the resolved absolute path).
	writeFile(t, filepath.Join(dir, "models", "quad.mtl"), []byte("newmtl painted\nKd x\n"))
	writeFile(t, path, []byte(src))
	_, err = Load(path)
	wantErr := path + ":5: meshes.quad.file: " + filepath.Join("models", "quad.mtl") + `:2: Kd: bad number "x"`
	if err == nil || err.Error() != wantErr {
		t.Errorf("nested error\n got  %v\n want %s", err, wantErr)
	}
}

func TestFromMeshFile(t *testing.T) {
	dir := t.TempDir()
	// A textured OBJ without MTL and an image named after it.
	writeFile(t, filepath.Join(dir, "cow_mesh.obj"), []byte(strings.Replace(twoMatOBJ, "mtllib quad.mtl\n", "", 1)))
	writeFile(t, filepath.Join(dir, "cow_skin.png"), pngBytes(8, 8, color.NRGBA{200, 100, 0, 255}))
	writeFile(t, filepath.Join(dir, "zebra.png"), pngBytes(8, 8, color.NRGBA{0, 0, 0, 255}))
	s, err := FromMeshFile(filepath.Join(dir, "cow_mesh.obj"), WithResolution(320, 200))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "cow_mesh" || s.Width != 320 || s.Height != 200 || s.Samples != 4 || len(s.Lights) != 1 {
		t.Errorf("scene %q %dx%d x%d, %d lights", s.Name, s.Width, s.Height, s.Samples, len(s.Lights))
	}
	if len(s.Textures) != 1 || s.Textures[0].Name != "cow_skin.png" {
		t.Fatalf("textures %+v", s.Textures)
	}
	for _, o := range s.Objects {
		if m := s.Materials[o.Material]; m.Shader != "textured" {
			t.Errorf("object %s drawn with %s, want textured", o.Name, m.Shader)
		}
	}
	checkFramed(t, s)
	if _, err := FromMeshFile(filepath.Join(dir, "missing.obj")); err == nil {
		t.Error("missing file accepted")
	}
	if _, err := Open(filepath.Join(dir, "cow_mesh.obj")); err != nil {
		t.Errorf("Open(.obj): %v", err)
	}
	if s.Frames != 1 || s.Frame != 0 {
		t.Errorf("a still: frame %d of %d, want 0 of 1", s.Frame, s.Frames)
	}
	obj := filepath.Join(dir, "cow_mesh.obj")
	want := obj + ": frame 1 asked for, but the file has no animation (frame 0 only)"
	if _, err := FromMeshFile(obj, WithFrame(1)); err == nil || err.Error() != want {
		t.Errorf("frame 1 of a still: %v, want %s", err, want)
	}
}

// checkFramed checks that every vertex of every object projects inside the
// view frustum.
func checkFramed(t *testing.T, s *Scene) {
	t.Helper()
	vp := s.ViewProjection()
	for _, o := range s.Objects {
		mvp := vp.Mul(o.Transform)
		for _, p := range s.Meshes[o.Mesh].Positions {
			c := mvp.MulVec(p.Vec4(1))
			if c[3] <= 0 || c[0] < -c[3] || c[0] > c[3] || c[1] < -c[3] || c[1] > c[3] || c[2] < 0 || c[2] > c[3] {
				t.Fatalf("object %s vertex %v outside the frustum (clip %v)", o.Name, p, c)
			}
		}
	}
}

func TestFromMeshFileRealModels(t *testing.T) {
	tests := []struct {
		file, shader string
		textures     int
		triangles    int
	}{
		{"bunny/stanford-bunny.obj", "blinnphong", 0, 69451},
		{"suzanne/suzanne.obj", "blinnphong", 0, 968},
		{"spot/spot_triangulated.obj", "textured", 1, 5856},
		{"damaged_helmet/DamagedHelmet.gltf", "normalmap", 2, 15452},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			path := testscenes.File(t, tc.file)
			s, err := FromMeshFile(path, WithMaxTextureSize(128))
			if err != nil {
				t.Fatal(err)
			}
			if s.TriangleCount() != tc.triangles || len(s.Textures) != tc.textures {
				t.Errorf("%d triangles %d textures, want %d and %d", s.TriangleCount(), len(s.Textures), tc.triangles, tc.textures)
			}
			for _, o := range s.Objects {
				if sh := s.Materials[o.Material].Shader; sh != tc.shader {
					t.Errorf("object %s uses %s, want %s", o.Name, sh, tc.shader)
				}
			}
			checkFramed(t, s)
		})
	}
	// A scene file using a real model with its own materials.
	helmet := testscenes.File(t, "damaged_helmet/DamagedHelmet.gltf")
	src := "max_texture_size: 64\nmeshes:\n  helmet: {file: " + helmet + ", fit: 2}\nobjects:\n  - {mesh: helmet, material: from_file}\n"
	s, err := Parse(filepath.Join(t.TempDir(), "h.yaml"), []byte(src), WithAllowPaths(testscenes.Dir(t)))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Objects) != 1 || s.Materials[0].Shader != "normalmap" || s.Textures[0].Width != 64 {
		t.Errorf("helmet scene: %d objects, shader %s, texture %dx%d", len(s.Objects), s.Materials[0].Shader, s.Textures[0].Width, s.Textures[0].Height)
	}
}

func TestValidate(t *testing.T) {
	good := func() *Scene {
		s, err := Builtin("triangle")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	tests := []struct {
		break_ func(s *Scene)
		want   string
	}{
		{func(s *Scene) {}, ""},
		{func(s *Scene) { s.Samples = 65 }, "samples 65 not supported (want 1 to 64)"},
		{func(s *Scene) { s.Samples = 27 }, ""},
		{func(s *Scene) { s.Width = 0 }, "resolution 0x240 out of range"},
		{func(s *Scene) { s.Camera.Near = 0 }, "camera: near 0 and far 10: want 0 < near < far"},
		{func(s *Scene) { s.Camera.ShutterOpen = 2 }, "camera: shutter [2, 1]"},
		{func(s *Scene) { s.Lights = make([]Light, 5) }, "5 lights, at most 4"},
		{func(s *Scene) { s.Lights = []Light{{Kind: DirectionalLight}} }, "lights[0]: zero direction"},
		{func(s *Scene) { s.Materials[0].Shader = "x" }, `unknown shader "x"`},
		{func(s *Scene) { s.Materials[0].Params = []Param{{"diffuse", geom.Vec4{}}} }, `shader unlit has no parameter "diffuse"`},
		{func(s *Scene) { s.Materials[0].Shader = "textured"; s.Materials[0].Params = nil }, "sampler albedo of shader textured is not bound"},
		{func(s *Scene) { s.Materials[0].Textures = []Binding{{"albedo", 0}} }, `shader unlit has no sampler "albedo"`},
		{func(s *Scene) { s.Objects[0].Mesh = 3 }, "mesh 3 of 1"},
		{func(s *Scene) { s.Objects[0].Material = -1 }, "material -1 of 1"},
		{func(s *Scene) { s.Objects[0].Moving = true }, "Moving is true but the transforms are equal"},
		{func(s *Scene) { s.Meshes[0].Indices = append(s.Meshes[0].Indices, 7) }, "4 indices is not a whole number of triangles"},
		{func(s *Scene) { s.Textures = []Texture{{Name: "t", Width: 2, Height: 2}} }, `textures[0] "t": 2x2 with 1 slices and 0 bytes`},
		{func(s *Scene) {
			s.Textures = []Texture{{Name: "c", Width: 2, Height: 2, Type: TextureCube, Pix: make([]byte, 16)}}
		}, `textures[0] "c": 2x2 with 6 slices and 16 bytes`},
		{func(s *Scene) {
			s.Textures = []Texture{{Name: "a", Width: 1, Height: 1, Type: TextureArray, Pix: make([]byte, 4)}}
		}, `textures[0] "a": depth 0 out of range [1, 2048]`},
		{func(s *Scene) {
			s.Textures = []Texture{{Name: "s", Width: 1, Height: 1, Pix: make([]byte, 4), MaxAnisotropy: 17}}
		}, `textures[0] "s": bad sampler settings`},
	}
	re := regexp.MustCompile(`^scene "triangle": `)
	for _, tc := range tests {
		s := good()
		tc.break_(s)
		err := s.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("valid scene: %v", err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !re.MatchString(err.Error())):
			t.Errorf("got %v, want an error containing %q", err, tc.want)
		}
	}
}

// FuzzParse feeds scene documents to the parser (without file access).
// Inputs with numbers of three or more digits are skipped: they ask for large
// textures, meshes or instance counts, which are valid but take up to a second
// each; the built-in seeds have their large numbers replaced by 64.
func FuzzParse(f *testing.F) {
	big := regexp.MustCompile(`[0-9]{3,}`)
	for _, n := range BuiltinNames() {
		src, _ := BuiltinSource(n)
		f.Add(big.ReplaceAll(src, []byte("64")))
	}
	f.Add([]byte(minimal))
	f.Add([]byte("materials:\n  a: &a {shader: unlit}\n  b: {<<: *a, cull: none}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if big.Match(data) {
			return
		}
		s, err := parse("fuzz.yaml", data, "", false, options{budget: inputs.NewBudget(256 << 20)})
		if err != nil {
			if len(err.Error()) > 1000 {
				t.Fatalf("error of %d bytes: %.300s", len(err.Error()), err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("parsed scene does not validate: %v", err)
		}
	})
}

// TestSceneFileNamesWhole: a file a scene names that is refused (outside the
// folders inputs may be read from, or missing) is named whole in the error,
// escaped (the 32-byte excerpt of a file's content cut it).
func TestSceneFileNamesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.yaml")
	root, err := filepath.EvalSymlinks(dir) // as the error lists it
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(filepath.Dir(dir), "shared", "scenes", "bunny", "stanford-bunny.obj")
	tests := []struct{ src, want string }{
		{"meshes:\n  bunny: {file: " + outside + "}\n",
			path + `:2: meshes.bunny.file: "` + outside + `" is outside the folders inputs may be read from (` + root + `; add one with -allow-path)`},
		{"textures:\n  wall: {file: textures/stone_wall_albedo_2048.png}\n",
			path + `:2: textures.wall.file: "textures/stone_wall_albedo_2048.png": no such file`},
		{"textures:\n  wall: {file: \"textures/\\e[2J_stone_wall_albedo_2048.png\"}\n",
			path + `:2: textures.wall.file: "textures/\x1b[2J_stone_wall_albedo_2048.png": no such file`},
	}
	for _, tc := range tests {
		writeFile(t, path, []byte(tc.src))
		if _, err := Load(path); err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got  %v\n want %s", tc.src, err, tc.want)
		}
	}
}

// TestSceneMeshFileChecked: an OBJ drawn in the scene's own material (its
// materials are not converted) still has its MTL libraries checked: a
// missing one is the error it is when the OBJ is given alone, naming the
// OBJ file and its line.
func TestSceneMeshFileChecked(t *testing.T) {
	dir := t.TempDir()
	obj := filepath.Join(dir, "sub", "b3.obj")
	writeFile(t, obj, []byte("mtllib missing.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl m\nf 1 2 3\n"))
	path := filepath.Join(dir, "s.yaml")
	const missing = `:1: mtllib: "missing.mtl": no such file (put the library beside the OBJ file, or delete this line to draw the mesh in the default material)`
	for _, tc := range []struct{ material, want string }{
		{"red", path + ":2: meshes.b.file: " + filepath.Join("sub", "b3.obj") + missing},
		{"from_file", path + ":2: meshes.b.file: " + filepath.Join("sub", "b3.obj") + missing},
	} {
		writeFile(t, path, []byte("meshes:\n  b: {file: sub/b3.obj}\nmaterials:\n  red: {shader: unlit}\nobjects:\n  - {mesh: b, material: "+tc.material+"}\n"))
		if _, err := Load(path); err == nil || err.Error() != tc.want {
			t.Errorf("material %s:\n got  %v\n want %s", tc.material, err, tc.want)
		}
	}
	if _, err := FromMeshFile(obj); err == nil || err.Error() != obj+missing {
		t.Errorf("bare mesh:\n got  %v\n want %s", err, obj+missing)
	}
}
