package scene

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/testscenes"
)

// animatedGLTF is a glTF file with two nodes drawing one triangle: "mover"
// (translated (0,0,0) -> (4,0,0) over 0..2 s by the LINEAR animation "slide")
// and "fixed".
func animatedGLTF() []byte {
	var b bytes.Buffer
	for _, v := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 4, 0, 0} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	uri := "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(b.Bytes())
	return []byte(fmt.Sprintf(`{
  "asset": {"version": "2.0"},
  "buffers": [{"byteLength": 68, "uri": %q}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36}, {"buffer": 0, "byteOffset": 36, "byteLength": 32}],
  "accessors": [
    {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"},
    {"bufferView": 1, "byteOffset": 0, "componentType": 5126, "count": 2, "type": "SCALAR"},
    {"bufferView": 1, "byteOffset": 8, "componentType": 5126, "count": 2, "type": "VEC3"}
  ],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
  "nodes": [{"name": "mover", "mesh": 0}, {"name": "fixed", "mesh": 0, "translation": [0, 5, 0]}],
  "scenes": [{"nodes": [0, 1]}],
  "animations": [{"name": "slide", "samplers": [{"input": 1, "output": 2}],
                  "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}]
}`, uri))
}

const animatedScene = `
frames: 3
meshes:
  m: {file: anim.gltf}
materials:
  red: {shader: unlit}
objects:
  - {name: split, mesh: m, material: red, animation: {time: 0.5, fps: 2, shutter: 0.25}}
  - {name: own, mesh: m, material: from_file, animation: {name: slide, time: 0.5, fps: 2, shutter: 0.25}}
  - {name: still, mesh: m, material: red, animation: off}
  - {name: default, mesh: m, material: red, transform: {translate: [0, 0, -1]}}
  - {name: looped, mesh: m, material: red, animation: {index: 0, time: 1.5, fps: 1, shutter: 0, loop: true}}
`

func TestGLTFAnimationObjects(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "anim.gltf"), animatedGLTF())
	writeFile(t, filepath.Join(dir, "s.yaml"), []byte(animatedScene))
	s, err := Load(filepath.Join(dir, "s.yaml"), WithFrame(1))
	if err != nil {
		t.Fatal(err)
	}
	tx := func(x float32) geom.Mat4 { return geom.Translate(geom.Vec3{x, 0, 0}) }
	// Frame 1 at 2 fps from 0.5 s: shutter open at 1 s (x = 2), close at 1.25 s (x = 2.5).
	want := []struct {
		name       string
		start, end geom.Mat4
	}{
		{"split/0", tx(2), tx(2.5)}, {"split/1", geom.Identity(), geom.Identity()},
		{"own/0", tx(2), tx(2.5)}, {"own/1", geom.Identity(), geom.Identity()},
		{"still", geom.Identity(), geom.Identity()},
		// Default: animation 0 from 0 s at 30 fps, one frame long: 1/30 s to 2/30 s; times the object transform.
		{"default/0", geom.Translate(geom.Vec3{0, 0, -1}).Mul(tx(2.0 / 30)), geom.Translate(geom.Vec3{0, 0, -1}).Mul(tx(4.0 / 30))},
		{"default/1", geom.Translate(geom.Vec3{0, 0, -1}), geom.Translate(geom.Vec3{0, 0, -1})},
		// Looped: 1.5 + 1 = 2.5 s wraps to 0.5 s (x = 1).
		{"looped/0", tx(1), tx(1)}, {"looped/1", geom.Identity(), geom.Identity()},
	}
	if len(s.Objects) != len(want) {
		t.Fatalf("%d objects, want %d", len(s.Objects), len(want))
	}
	for i, w := range want {
		o := s.Objects[i]
		if o.Name != w.name || !nearMat4(o.Transform, w.start, 1e-6) || !nearMat4(o.EndTransform, w.end, 1e-6) {
			t.Errorf("object %d %q: %v -> %v, want %q %v -> %v", i, o.Name, o.Transform, o.EndTransform, w.name, w.start, w.end)
		}
		if still := w.start == w.end; still && (o.Moving || o.Transform != w.start) {
			t.Errorf("%s: static part moving %v, transform %v", o.Name, o.Moving, o.Transform)
		}
	}
	// The groups are meshes of their own, the merged mesh is drawn when nothing moves.
	if s.Meshes[s.Objects[0].Mesh].Name != "m@mover" || s.Meshes[s.Objects[1].Mesh].Name != "m@static" || s.Objects[4].Mesh != s.MeshIndex("m") {
		t.Errorf("meshes %q %q %q", s.Meshes[s.Objects[0].Mesh].Name, s.Meshes[s.Objects[1].Mesh].Name, s.Meshes[s.Objects[4].Mesh].Name)
	}
	for _, tc := range []struct{ obj, want string }{
		{"{mesh: m, material: red, animation: {name: run}}", `s.yaml:8: objects[0].animation.name: no animation "run" (have slide)`},
		{"{mesh: m, material: red, animation: {index: 1}}", "s.yaml:8: objects[0].animation.index: 1 out of range [0, 0]"},
		{"{mesh: m, material: red, animation: {index: 0, name: slide}}", "s.yaml:8: objects[0].animation: give index or name, not both"},
		{"{mesh: m, material: red, animation: {fps: 0}}", "s.yaml:8: objects[0].animation.fps: 0 out of range [1e-06, 1e+06]"},
		// The animation's x = 2 at 1 s times a scale of 3e38 (it was refused
		// by Scene.Validate, without a line).
		{"{mesh: m, material: red, transform: {scale: 3e38}, animation: {time: 1}}",
			`s.yaml:8: objects[0].animation: the transform of "m/0" is not finite: the mesh file's animation times the object's transform overflows a 32-bit float`},
	} {
		src := "meshes:\n  m: {file: anim.gltf}\nmaterials:\n  red: {shader: unlit}\nobjects:\n\n\n  - " + tc.obj + "\n"
		writeFile(t, filepath.Join(dir, "s.yaml"), []byte(src))
		if _, err := Load(filepath.Join(dir, "s.yaml")); err == nil || err.Error() != filepath.Join(dir, tc.want) {
			t.Errorf("%s:\n got  %v\n want %s", tc.obj, err, tc.want)
		}
	}
}

func nearMat4(a, b geom.Mat4, tol float32) bool {
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			if d := a[r][c] - b[r][c]; d > tol || d < -tol {
				return false
			}
		}
	}
	return true
}

// TestAnimatedSamples loads the animated Khronos samples as bare mesh files
// and in a scene at a time when they move: each moving node subtree is an
// object of its own, with different transforms at shutter open and close.
func TestAnimatedSamples(t *testing.T) {
	for _, tc := range []struct {
		file           string
		objects, moves int
		frames         int // animation 0's last key at 30 frames a second: 3.708 s, 1.25 s
	}{
		{"box_animated/BoxAnimated.gltf", 2, 1, 112},
		{"cesium_milk_truck/CesiumMilkTruck.gltf", 5, 2, 38},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			path := testscenes.File(t, tc.file)
			s, err := FromMeshFile(path, WithMaxTextureSize(64))
			if err != nil {
				t.Fatal(err)
			}
			if n := countMoving(s); len(s.Objects) != tc.objects || n != tc.moves {
				t.Errorf("bare file: %d objects, %d moving; want %d and %d", len(s.Objects), n, tc.objects, tc.moves)
			}
			// The bare file's frames: frame f's shutter opens at f/30 s, where
			// frame f+1's opens, so a moving part's pose at the close of frame
			// f is its pose at the open of frame f+1.
			if s.Frames != tc.frames || s.Frame != 0 {
				t.Errorf("bare file: frame %d of %d, want 0 of %d", s.Frame, s.Frames, tc.frames)
			}
			last, err := FromMeshFile(path, WithMaxTextureSize(64), WithFrame(tc.frames-1))
			if err != nil {
				t.Fatal(err)
			}
			s1, err := FromMeshFile(path, WithMaxTextureSize(64), WithFrame(1))
			if err != nil {
				t.Fatal(err)
			}
			if last.Frame != tc.frames-1 || s1.Frame != 1 || len(s1.Objects) != len(s.Objects) {
				t.Fatalf("frames %d and %d: %d and %d objects", s1.Frame, last.Frame, len(s1.Objects), len(s.Objects))
			}
			for k, o := range s.Objects {
				if o.Moving && (s1.Objects[k].Transform != o.EndTransform || s1.Objects[k].Transform == o.Transform) {
					t.Errorf("object %s: frame 1 opens at %v, want frame 0's close %v (and not its open)", o.Name, s1.Objects[k].Transform, o.EndTransform)
				}
			}
			_, err = FromMeshFile(path, WithMaxTextureSize(64), WithFrame(tc.frames))
			if want := fmt.Sprintf("frame %d out of range [0, %d]", tc.frames, tc.frames-1); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("frame %d: %v, want %q", tc.frames, err, want)
			}
			src := fmt.Sprintf("max_texture_size: 64\nmeshes:\n  m: {file: %s}\nmaterials:\n  grey: {shader: blinnphong}\n"+
				"objects:\n  - {mesh: m, material: grey, animation: {time: 0.6, fps: 24}}\n  - {mesh: m, material: from_file, animation: {time: 0.6}}\n", path)
			s, err = Parse("s.yaml", []byte(src), WithAllowPaths(filepath.Dir(filepath.Dir(path))))
			if err != nil {
				t.Fatal(err)
			}
			if n := countMoving(s); n != 2*tc.moves {
				t.Errorf("scene: %d moving objects of %d, want %d", n, len(s.Objects), 2*tc.moves)
			}
		})
	}
}

func countMoving(s *Scene) int {
	n := 0
	for _, o := range s.Objects {
		if o.Moving {
			n++
		}
	}
	return n
}
