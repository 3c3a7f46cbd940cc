package scene

import (
	"path/filepath"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// A bare mesh is framed from its front: the camera (and the light's source)
// sits on the side of the centre the front faces, exactly.
func TestFromMeshFileFront(t *testing.T) {
	dir := t.TempDir()
	// A box off the origin, so that the side is relative to its centre.
	path := filepath.Join(dir, "box.obj")
	writeFile(t, path, []byte("v 9 1 4\nv 11 1 4\nv 11 3 4\nv 9 3 6\nf 1 2 3\nf 1 3 4\n"))
	centre := geom.Vec3{10, 2, 5}
	tests := []struct {
		front    string
		axis     int
		positive bool
	}{{"", 2, true}, {"+z", 2, true}, {"-z", 2, false}, {"+x", 0, true}, {"-x", 0, false}}
	for _, tc := range tests {
		var opts []Option
		if tc.front != "" {
			f, err := ParseFront(tc.front)
			if err != nil {
				t.Fatal(err)
			}
			opts = append(opts, WithFront(f))
		}
		s, err := FromMeshFile(path, opts...)
		if err != nil {
			t.Fatal(err)
		}
		cam, light := s.Camera.Position.Sub(centre), s.Lights[0].Direction
		if side := cam[tc.axis] > 0; side != tc.positive || abs32(cam[tc.axis]) <= abs32(cam[2-tc.axis]) {
			t.Errorf("front %q: camera %v from the centre, want mostly on the %s side of axis %d", tc.front, cam, map[bool]string{true: "+", false: "-"}[tc.positive], tc.axis)
		}
		if side := light[tc.axis] < 0; side != tc.positive {
			t.Errorf("front %q: light direction %v does not shine on the front", tc.front, light)
		}
		checkFramed(t, s)
	}
	if _, err := ParseFront("+y"); err == nil || err.Error() != `unknown front "+y" (want one of +z, -z, +x, -x)` {
		t.Errorf("ParseFront(+y): %v", err)
	}
	if _, err := Parse(filepath.Join(dir, "e.yaml"), []byte("name: a\n"), WithFront(FrontMinusZ)); err == nil {
		t.Error("a scene file loaded with WithFront")
	}
}

// TestFromMeshFileTooLarge: a bare mesh too large to frame (coordinates that
// overflow the camera's float32 arithmetic) is an error naming the file and
// its bounding box; it was "scene "big": camera: a value is not finite". The
// largest mesh that frames still loads.
func TestFromMeshFileTooLarge(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ size, want string }{
		{"1e30", "big.obj: the mesh's bounding box from [0 0 0] to [1e+30 1e+30 0] is too large for the default camera " +
			"(its diagonal squared overflows a 32-bit float): scale the mesh down, or draw it from a scene file with fit: (scene/FORMAT.md)"},
		{"3e38", "big.obj: the mesh's bounding box from [0 0 0] to [3e+38 3e+38 0] is too large for the default camera " +
			"(its diagonal squared overflows a 32-bit float): scale the mesh down, or draw it from a scene file with fit: (scene/FORMAT.md)"},
		{"1e18", ""},
	} {
		path := filepath.Join(dir, "big.obj")
		writeFile(t, path, []byte("v 0 0 0\nv "+tc.size+" 0 0\nv 0 "+tc.size+" 0\nf 1 2 3\n"))
		_, err := FromMeshFile(path)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.size, err)
			}
			continue
		}
		if want := filepath.Join(dir, tc.want); err == nil || err.Error() != want {
			t.Errorf("%s:\n got  %v\n want %s", tc.size, err, want)
		}
	}
}

// Turn turns each front to +Z, and is the inverse of Facing.
func TestFrontTurn(t *testing.T) {
	for f := range FrontNames {
		fr := Front(f)
		if got := fr.Turn().MulDir(fr.Facing(geom.Vec3{0, 0, 1})); got != (geom.Vec3{0, 0, 1}) {
			t.Errorf("%s: the front turns to %v, want +Z", fr, got)
		}
		v := geom.Vec3{1, 2, 3}
		if got := fr.Turn().MulDir(fr.Facing(v)); got != v {
			t.Errorf("%s: Turn(Facing(%v)) = %v", fr, v, got)
		}
	}
}

// A scene mesh's front turns the file's mesh to face +Z; a bad value is an
// error naming file, line and field.
func TestMeshFront(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "tri.obj"), []byte("v 0 0 -3\nv 1 0 -3\nv 0 1 -3\nf 1 2 3\n"))
	src := "meshes:\n  tri: {file: tri.obj, front: -z}\nmaterials:\n  red: {shader: unlit}\nobjects:\n  - {mesh: tri, material: red}\n"
	s, err := Parse(filepath.Join(dir, "e.yaml"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Meshes[0].Positions[1]; got != (geom.Vec3{-1, 0, 3}) {
		t.Errorf("front -z: vertex (1, 0, -3) at %v, want (-1, 0, 3)", got)
	}
	for _, tc := range []struct{ src, want string }{
		{"meshes:\n  tri:\n    file: tri.obj\n    front: up\n", "e.yaml:4: meshes.tri.front: unknown value \"up\" (want one of +z, -z, +x, -x)"},
		{"meshes:\n  t: {procedural: {kind: triangle}, front: -z}\n", "e.yaml:2: meshes.t.front: front turns a mesh file; a procedural mesh has its own orientation (rotate its objects)"},
	} {
		_, err := Parse(filepath.Join(dir, "e.yaml"), []byte(tc.src))
		if err == nil || err.Error() != filepath.Join(dir, tc.want) {
			t.Errorf("got  %v\nwant %s", err, filepath.Join(dir, tc.want))
		}
	}
}

// The texture a bare mesh takes from its folder: a name of the mesh's stem
// and a separator (not any name that starts with the stem), a colour map
// before a name that says nothing, and never one that says it is another map.
func TestSiblingImage(t *testing.T) {
	for _, tc := range []struct {
		files []string
		want  string
	}{
		{[]string{"a.obj", "apple.png"}, ""},
		{[]string{"a.obj", "apple.png", "a_wood.jpg"}, "a_wood.jpg"},
		{[]string{"spot_triangulated.obj", "spot_texture.png", "spotlight.png"}, "spot_texture.png"},
		{[]string{"helmet.obj", "helmet_AO.jpg", "helmet_albedo.jpg", "helmet-a.png"}, "helmet_albedo.jpg"},
		{[]string{"helmet.obj", "helmet_AO.jpg", "helmet_normal.png", "helmet_metalRoughness.jpg"}, ""},
		{[]string{"m.obj", "m_base_color.png", "m.png"}, "m_base_color.png"},
		{[]string{"m.obj", "m.png"}, "m.png"},
	} {
		dir := t.TempDir()
		for _, f := range tc.files {
			writeFile(t, filepath.Join(dir, f), []byte("x"))
		}
		got := siblingImage(filepath.Join(dir, tc.files[0]))
		if got != "" {
			got = filepath.Base(got)
		}
		if got != tc.want {
			t.Errorf("%v: %q, want %q", tc.files, got, tc.want)
		}
	}
}
