package mesh

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

const quadOBJ = `# a unit quad facing +Z
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vn 0 0 2
f 1/1/1 2/2/1 3/3/1 4/4/1
`

func TestParseOBJQuad(t *testing.T) {
	obj, err := ParseOBJ("q.obj", []byte(quadOBJ))
	if err != nil {
		t.Fatal(err)
	}
	if len(obj.Parts) != 1 || obj.Parts[0].Material != "" {
		t.Fatalf("parts %+v", obj.Parts)
	}
	m := obj.Parts[0].Mesh
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	wantIdx := []uint32{0, 1, 2, 0, 2, 3}
	wantUV := []geom.Vec2{{0, 1}, {1, 1}, {1, 0}, {0, 0}}
	if len(m.Indices) != 6 || m.VertexCount() != 4 {
		t.Fatalf("%d indices %d vertices", len(m.Indices), m.VertexCount())
	}
	for i, w := range wantIdx {
		if m.Indices[i] != w {
			t.Fatalf("indices %v, want %v", m.Indices, wantIdx)
		}
	}
	for i, w := range wantUV {
		if m.TexCoords[i] != w || m.Normals[i] != (geom.Vec3{0, 0, 1}) || m.Tangents[i] != (geom.Vec4{1, 0, 0, 1}) {
			t.Errorf("vertex %d: uv %v normal %v tangent %v", i, m.TexCoords[i], m.Normals[i], m.Tangents[i])
		}
	}
}

func TestParseOBJFeatures(t *testing.T) {
	src := `mtllib a.mtl b.mtl
v 0 0 0 1 0 0
v 1 0 0
v 0 1 0
v 0 0 1
v 1 1 1
usemtl red
f -5 -4 -3
usemtl blue
f 1 3 4
usemtl red
f 2 \
  3 5
g ignored
s 1
o also ignored
f 1/ 2/ 3/
`
	obj, err := ParseOBJ("f.obj", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(obj.MaterialLibs) != 2 || obj.MaterialLibs[1] != (OBJRef{"b.mtl", 1}) {
		t.Fatalf("mtllibs %+v", obj.MaterialLibs)
	}
	if len(obj.Parts) != 2 {
		t.Fatalf("%d parts, want 2", len(obj.Parts))
	}
	red, blue := obj.Parts[0], obj.Parts[1]
	if red.Material != "red" || red.Line != 7 || blue.Material != "blue" || blue.Line != 9 {
		t.Fatalf("parts %q line %d, %q line %d", red.Material, red.Line, blue.Material, blue.Line)
	}
	// red: faces (1 2 3), (2 3 5) and the last face (1 2 3) again after usemtl red.
	if red.Mesh.TriangleCount() != 3 || red.Mesh.VertexCount() != 4 || blue.Mesh.VertexCount() != 3 {
		t.Fatalf("red %d triangles %d vertices, blue %d vertices", red.Mesh.TriangleCount(), red.Mesh.VertexCount(), blue.Mesh.VertexCount())
	}
	want := []uint32{0, 1, 2, 1, 2, 3, 0, 1, 2}
	for i, w := range want {
		if red.Mesh.Indices[i] != w {
			t.Fatalf("red indices %v, want %v", red.Mesh.Indices, want)
		}
	}
	// Colours: v 1 had red, the others white.
	if red.Mesh.Colors[0] != (geom.Vec4{1, 0, 0, 1}) || red.Mesh.Colors[1] != (geom.Vec4{1, 1, 1, 1}) {
		t.Errorf("colours %v", red.Mesh.Colors)
	}
	// Generated normals: triangle (0,0,0),(0,1,0),(0,0,1) faces +X.
	if blue.Mesh.Normals[0] != (geom.Vec3{1, 0, 0}) {
		t.Errorf("blue normal %v, want (1,0,0)", blue.Mesh.Normals[0])
	}
	if len(red.Mesh.TexCoords) != 0 {
		t.Errorf("texcoords without vt statements")
	}
}

func TestParseOBJDedupByTriple(t *testing.T) {
	src := "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 1\nf 1/1 2/1 3/1\nf 1/2 3/2 2/2\n"
	obj, err := ParseOBJ("d.obj", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m := obj.Parts[0].Mesh
	if m.VertexCount() != 6 {
		t.Fatalf("%d vertices, want 6 (same positions, different texcoords)", m.VertexCount())
	}
}

func TestParseOBJErrors(t *testing.T) {
	v3 := "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
	tests := []struct {
		src, want string
	}{
		{"v 1 2\n", "t.obj:1: v: expected 3, 4 or 6 numbers (x y z [w] or x y z r g b), got 2"},
		{"\n\nv 1 2 x\n", `t.obj:3: v: bad number "x"`},
		{"v 1 2 nan\n", `t.obj:1: v: bad number "nan"`},
		{"v 1 2 1e99\n", `t.obj:1: v: bad number "1e99"`},
		{"vt\n", "t.obj:1: vt: expected 1 to 3 numbers (u [v [w]]), got 0"},
		{"vn 1 0\n", "t.obj:1: vn: expected 3 numbers, got 2"},
		{v3 + "f 1 2\n", "t.obj:4: f: a face needs at least 3 vertices, got 2"},
		{v3 + "f 1 2 4\n", `t.obj:4: f: vertex 3 "4": position index 4 out of range (3 defined so far)`},
		{v3 + "f 1 2 -4\n", `t.obj:4: f: vertex 3 "-4": position index -4 out of range (3 defined so far)`},
		{v3 + "f 0 1 2\n", `t.obj:4: f: vertex 1 "0": position index 0 (indices start at 1)`},
		{v3 + "f a 1 2\n", `t.obj:4: f: vertex 1 "a": bad position index "a"`},
		{v3 + "f 1/1 2 3\n", `t.obj:4: f: vertex 1 "1/1": texcoord index 1 out of range (0 defined so far)`},
		{v3 + "vt 0 0\nf 1/1 2 3\n", `t.obj:5: f: vertex 2 "2": format differs from the face's first vertex "1/1"`},
		{v3 + "f 1/1/1/1 2 3\n", `t.obj:4: f: vertex 1 "1/1/1/1": too many '/'`},
		{v3 + "f /1 2 3\n", `t.obj:4: f: vertex 1 "/1": missing position index`},
		{v3 + "vn 0 0 1\nf 1/1/ 2 3\n", `t.obj:5: f: vertex 1 "1/1/": texcoord index 1 out of range (0 defined so far)`},
		{"usemtl\n", "t.obj:1: usemtl: missing material name"},
		{"mtllib\n", "t.obj:1: mtllib: missing file name"},
		{"v 0 0 0\nbogus 1 2\n", "t.obj:2: unknown statement \"bogus\""},
		{"SECRET_TOKEN=abc 1\nv 0 0 0\n", "t.obj:1: not an OBJ file (its first statement is not an OBJ statement)"},
		{"# nothing\n\n", "t.obj: no faces"},
		{v3 + "usemtl a\n", "t.obj: no faces"},
	}
	for _, tc := range tests {
		_, err := ParseOBJ("t.obj", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got  %v\n want %s", tc.src, err, tc.want)
		}
	}
}

func TestParseMTL(t *testing.T) {
	src := `# materials
newmtl brick wall
Ka 0.1 0.1 0.1
Kd 0.5
Ks 0.2 0.3 0.4
Ns 64
d 0.5
illum 2
map_Kd -clamp on -s 2 2 1 -bm 0.5 textures/brick wall.png
norm -o 0.1 n.png
newmtl glass
Tr 0.75
Ke 1 1 1
map_bump bump.png
`
	mats, err := ParseMTL("m.mtl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(mats) != 2 {
		t.Fatalf("%d materials", len(mats))
	}
	b := mats[0]
	if b.Name != "brick wall" || b.Line != 2 || b.Kd != (geom.Vec3{0.5, 0.5, 0.5}) || b.Ks != (geom.Vec3{0.2, 0.3, 0.4}) ||
		b.Ns != 64 || b.D != 0.5 || b.Illum != 2 {
		t.Errorf("brick %+v", b)
	}
	if b.MapKd != (MTLMap{"textures/brick wall.png", true, 9}) || b.Normal != (MTLMap{"n.png", false, 10}) {
		t.Errorf("maps %+v %+v", b.MapKd, b.Normal)
	}
	if g := mats[1]; g.D != 0.25 || g.Kd != (geom.Vec3{0.8, 0.8, 0.8}) {
		t.Errorf("glass %+v", g)
	}
}

func TestParseMTLErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"Kd 1 1 1\n", "t.mtl:1: Kd: statement before the first newmtl"},
		{"newmtl\n", "t.mtl:1: newmtl: missing material name"},
		{"newmtl a\nnewmtl a\n", `t.mtl:2: newmtl: duplicate material "a" (first defined on line 1)`},
		{"newmtl a\nKd 1 2\n", "t.mtl:2: Kd: expected 1 or 3 numbers, got 2"},
		{"newmtl a\nKd spectral x.rfl\n", "t.mtl:2: Kd: spectral colours are not supported (use r g b)"},
		{"newmtl a\nKs 1 x 1\n", `t.mtl:2: Ks: bad number "x"`},
		{"newmtl a\nd 2\n", "t.mtl:2: d: dissolve 2 out of range [0, 1]"},
		{"newmtl a\nNs -1\n", "t.mtl:2: Ns: negative exponent -1"},
		{"newmtl a\nillum x\n", `t.mtl:2: illum: bad illumination model "x" (want 0 to 10)`},
		{"newmtl a\nmap_Kd\n", "t.mtl:2: map_Kd: missing file name"},
		{"newmtl a\nmap_Kd -clamp on\n", "t.mtl:2: map_Kd: missing file name"},
		{"newmtl a\nmap_Kd -clamp maybe x.png\n", `t.mtl:2: map_Kd: -clamp "maybe": want on or off`},
		{"newmtl a\nmap_Kd -q 1 x.png\n", `t.mtl:2: map_Kd: unknown option "-q"`},
		{"newmtl a\nmap_Kd -mm 1\n", "t.mtl:2: map_Kd: option -mm needs 2 argument(s)"},
		{"newmtl a\nfoo\n", "t.mtl:2: unknown statement \"foo\""},
		{"API_KEY=s3cr3t\n", "t.mtl:1: not an MTL file (its first statement is not an MTL statement)"},
	}
	for _, tc := range tests {
		_, err := ParseMTL("t.mtl", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got  %v\n want %s", tc.src, err, tc.want)
		}
	}
}

func writePNG(t *testing.T, path string, w, h int, c color.NRGBA) {
	t.Helper()
	im := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			im.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, im)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadOBJWithMaterials(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "tex"), 0o755)
	writePNG(t, filepath.Join(dir, "tex", "a.png"), 8, 4, color.NRGBA{200, 100, 50, 255})
	writePNG(t, filepath.Join(dir, "tex", "mask.png"), 8, 4, color.NRGBA{77, 0, 0, 255})
	writeFile(t, filepath.Join(dir, "m.mtl"), `newmtl tex
Kd 1 1 1
map_Kd -clamp on tex/a.png
newmtl cut
map_Kd tex/a.png
map_d tex\mask.png
newmtl plain
Kd 0.1 0.2 0.3
Ks 0.5 0.5 0.5
Ns 20
d 0.5
`)
	writeFile(t, filepath.Join(dir, "x.obj"), "mtllib m.mtl\n"+quadOBJ[strings.Index(quadOBJ, "v "):strings.Index(quadOBJ, "f ")]+
		"usemtl plain\nf 1 2 3\nusemtl tex\nf 1/1 2/2 3/3\nusemtl cut\nf 1/1 3/3 4/4\n")
	m, err := LoadOBJ(filepath.Join(dir, "x.obj"), LoadOptions{MaxTextureSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "x" || len(m.Parts) != 3 || len(m.Materials) != 3 || m.TriangleCount() != 3 {
		t.Fatalf("model %q: %d parts %d materials %d triangles", m.Name, len(m.Parts), len(m.Materials), m.TriangleCount())
	}
	if m.Parts[1].Mesh.Name != "x/tex" || m.Parts[1].Material != 1 {
		t.Errorf("part 1 %q material %d", m.Parts[1].Mesh.Name, m.Parts[1].Material)
	}
	plain, tex, cut := m.Materials[0], m.Materials[1], m.Materials[2]
	if plain.Diffuse != (geom.Vec4{0.1, 0.2, 0.3, 0.5}) || plain.Specular != (geom.Vec4{0.5, 0.5, 0.5, 20}) || !plain.Blend || plain.Albedo != nil {
		t.Errorf("plain %+v", plain)
	}
	if tex.Albedo == nil || !tex.Albedo.ClampU || tex.Albedo.Image.Width != 4 || tex.Albedo.Image.Height != 2 ||
		tex.Albedo.Image.RGBA(1, 1) != [4]byte{200, 100, 50, 255} {
		t.Errorf("tex albedo %+v", tex.Albedo)
	}
	if cut.AlphaCutoff != 0.5 || cut.Albedo == nil || cut.Albedo.Image.RGBA(0, 0) != [4]byte{200, 100, 50, 77} {
		t.Errorf("cut %+v", cut)
	}
	// The same file with the same addressing is one Texture; with other
	// addressing another.
	if cut.Albedo == tex.Albedo {
		t.Error("masked albedo shares the unmasked texture")
	}
	geomOnly, err := LoadOBJ(filepath.Join(dir, "x.obj"), LoadOptions{SkipMaterials: true})
	if err != nil || len(geomOnly.Materials) != 0 || geomOnly.Parts[0].Material != -1 || len(geomOnly.Parts) != 3 {
		t.Errorf("SkipMaterials: %v %+v", err, geomOnly)
	}
	if geomOnly.Merged().TriangleCount() != 3 {
		t.Errorf("merged %d triangles", geomOnly.Merged().TriangleCount())
	}
}

// TestLoadOBJErrors: with SkipMaterials (a scene drawing the mesh in its own
// material) the files an OBJ names are checked as without it: every case
// gives the same error both ways.
func TestLoadOBJErrors(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "m.mtl"), "newmtl a\nmap_Kd missing.png\n")
	writeFile(t, filepath.Join(dir, "bad.mtl"), "newmtl a\nKd x\n")
	writeFile(t, filepath.Join(dir, "maps.mtl"), "newmtl d\nmap_d missing_mask.png\nnewmtl n\nnorm missing_normal.png\n")
	tri := "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
	tests := []struct{ obj, want string }{
		{"mtllib nope.mtl\n" + tri + "f 1 2 3\n", "x.obj:1: mtllib: \"nope.mtl\": no such file (put the library beside the OBJ file, or delete this line to draw the mesh in the default material)"},
		{"mtllib m.mtl\n" + tri + "usemtl b\nf 1 2 3\n", `x.obj:5: usemtl: unknown material "b" (not in any mtllib)`},
		{"mtllib m.mtl\n" + tri + "usemtl a\nf 1 2 3\n", "m.mtl:2: map_Kd: \"missing.png\": no such file"},
		{"mtllib bad.mtl\n" + tri + "f 1 2 3\n", `bad.mtl:2: Kd: bad number "x"`},
		{"mtllib maps.mtl\n" + tri + "usemtl d\nf 1 2 3\n", `maps.mtl:2: map_d: "missing_mask.png": no such file`},
		{"mtllib maps.mtl\n" + tri + "usemtl n\nf 1 2 3\n", `maps.mtl:4: norm: "missing_normal.png": no such file`},
		{"mtllib ../" + filepath.Base(dir) + "-elsewhere/m.mtl\n" + tri + "f 1 2 3\n",
			`x.obj:1: mtllib: "../` + filepath.Base(dir) + `-elsewhere/m.mtl" is outside the folders inputs may be read from (` + dir + `; add one with -allow-path)`},
	}
	// usemtl without any mtllib: no material, no error.
	writeFile(t, filepath.Join(dir, "n.obj"), tri+"usemtl a\nf 1 2 3\n")
	if m, err := LoadOBJ(filepath.Join(dir, "n.obj"), LoadOptions{}); err != nil || m.Parts[0].Material != -1 {
		t.Errorf("usemtl without mtllib: %v", err)
	}
	for _, tc := range tests {
		p := filepath.Join(dir, "x.obj")
		writeFile(t, p, tc.obj)
		want := filepath.Join(dir, tc.want)
		for _, skip := range []bool{false, true} {
			_, err := LoadOBJ(p, LoadOptions{SkipMaterials: skip})
			if err == nil || err.Error() != want {
				t.Errorf("SkipMaterials %v:\ngot  %v\nwant %s", skip, err, want)
			}
		}
	}
	// Images are decoded only for the file's materials: a library's map that
	// is not an image fails without SkipMaterials alone.
	writeFile(t, filepath.Join(dir, "text.png"), "not an image")
	writeFile(t, filepath.Join(dir, "t.mtl"), "newmtl a\nmap_Kd text.png\n")
	writeFile(t, filepath.Join(dir, "t.obj"), "mtllib t.mtl\n"+tri+"usemtl a\nf 1 2 3\n")
	if _, err := LoadOBJ(filepath.Join(dir, "t.obj"), LoadOptions{}); err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, "t.mtl")+`:2: map_Kd: "text.png": `) {
		t.Errorf("undecodable map_Kd: %v", err)
	}
	if m, err := LoadOBJ(filepath.Join(dir, "t.obj"), LoadOptions{SkipMaterials: true}); err != nil || m.Parts[0].Material != -1 || len(m.Materials) != 0 {
		t.Errorf("undecodable map_Kd, SkipMaterials: %v", err)
	}
	// An OBJ named by a relative path: its library's errors name the
	// library as relative too, as the user would write it.
	t.Chdir(filepath.Dir(dir))
	rel := filepath.Join(filepath.Base(dir), "x.obj")
	writeFile(t, rel, "mtllib m.mtl\n"+tri+"usemtl a\nf 1 2 3\n")
	if _, err := LoadOBJ(rel, LoadOptions{}); err == nil || err.Error() != filepath.Join(filepath.Base(dir), "m.mtl")+`:2: map_Kd: "missing.png": no such file` {
		t.Errorf("relative OBJ: %v, want the library named relative to the working folder", err)
	}
	if _, err := Load(filepath.Join(dir, "x.stl"), LoadOptions{}); err == nil || !strings.Contains(err.Error(), `unsupported mesh file type ".stl"`) {
		t.Errorf("Load(.stl) = %v", err)
	}
}

func FuzzParseOBJ(f *testing.F) {
	f.Add([]byte(quadOBJ))
	f.Add([]byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\nusemtl a\nf 1/1/1 2/1/1 3/1/1\nf -1 -2 -3\n"))
	f.Add([]byte("v 1 2 3 0 0 1\nf 1 1 1 1\\\n 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		obj, err := ParseOBJ("fuzz.obj", data)
		if failed(t, err) {
			return
		}
		for _, p := range obj.Parts {
			if err := p.Mesh.Validate(); err != nil {
				t.Fatalf("parsed mesh invalid: %v", err)
			}
		}
	})
}

func FuzzParseMTL(f *testing.F) {
	f.Add([]byte("newmtl a\nKd 1 0 0\nmap_Kd -clamp on -s 1 1 x.png\nd 0.5\n"))
	f.Add([]byte("newmtl b\nTr 0.2\nnorm n.png\nillum 2\n"))
	// Found by fuzzing: an unknown option of 6 kB was copied whole into the error.
	f.Add([]byte("newmtl a\nmap_Kd -clamp" + strings.Repeat("\xff", 6000) + " x.png\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		mats, err := ParseMTL("fuzz.mtl", data)
		if failed(t, err) {
			return
		}
		for _, m := range mats {
			if m.Name == "" || m.D < 0 || m.D > 1 {
				t.Fatalf("bad material %+v", m)
			}
		}
	})
}

// TestByteOrderMark: OBJ and MTL files that start with a UTF-8 byte order mark
// parse as without it, with the same line numbers.
func TestByteOrderMark(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	obj, err := ParseOBJ("b.obj", []byte(bom+"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	if n := obj.Parts[0].Mesh.VertexCount(); n != 3 {
		t.Errorf("%d vertices, want 3", n)
	}
	if _, err := ParseOBJ("b.obj", []byte(bom+"v 0 0 0\nf 1 2 3\n")); err == nil || err.Error() != `b.obj:2: f: vertex 2 "2": position index 2 out of range (1 defined so far)` {
		t.Errorf("got %v", err)
	}
	mats, err := ParseMTL("b.mtl", []byte(bom+"newmtl m\nKd 1 0 0\n"))
	if err != nil || len(mats) != 1 || mats[0].Name != "m" {
		t.Errorf("got %v, %v", mats, err)
	}
}
