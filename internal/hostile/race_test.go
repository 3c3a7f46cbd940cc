package hostile

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/mesh"
)

// TestSwapAfterCheck: every loader opens a file it resolved through the
// folder tree it was resolved in (inputs.Roots.ReadFile), so a folder on its
// path, or the file itself, swapped for a link leading outside between the
// path check and the open is refused (class 7, the race of the README's
// "Untrusted inputs"). The files outside are copies of those inside, so a
// loader that opened the path as it is would load them without an error.
func TestSwapAfterCheck(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	tex := buf.Bytes()
	tri := []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nf 1/1 2/2 3/3\n")
	positions := make([]byte, 36)
	for i, v := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0} {
		binary.LittleEndian.PutUint32(positions[4*i:], math.Float32bits(v))
	}
	gltf := func(buffers, image string) []byte {
		s := `{"asset":{"version":"2.0"},"buffers":[{"byteLength":36,"uri":"` + buffers + `b.bin"}],"bufferViews":[{"buffer":0,"byteLength":36}],` +
			`"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],`
		if image != "" {
			s += `"images":[{"uri":"` + image + `"}],"textures":[{"source":0}],"materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}],` +
				`"meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],`
		} else {
			s += `"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],`
		}
		return []byte(s + `"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0}`)
	}
	files := map[string][]byte{
		"sub/m.obj": tri, "mtl.obj": append([]byte("mtllib sub/m.mtl\nusemtl a\n"), tri...),
		"sub/m.mtl": []byte("newmtl a\nKd 1 1 1\nmap_Kd t.png\n"), "sub/t.png": tex,
		"sub/b.gltf": gltf("", ""), "b.gltf": gltf("sub/", ""), "i.gltf": gltf("sub/", "sub/t.png"), "sub/b.bin": positions,
		"bare.obj": tri, "bare.png": tex,
	}
	// A folder on the target's path is swapped (sub/), or else the file; a
	// mesh loaded alone lies in the top folder, its tree, whose own path is
	// the user's choice.
	cases := []struct {
		name, target string // the file whose open races the swap
		scene        string // scene.yaml, or
		mesh         string // a mesh file loaded alone (relative to the folder)
	}{
		{"mesh named by a scene", "sub/m.obj", "meshes:\n  a: {file: sub/m.obj}\n", ""},
		{"texture named by a scene", "sub/t.png", "textures:\n  t: {file: sub/t.png}\n", ""},
		{"glTF named by a scene", "sub/b.gltf", "meshes:\n  a: {file: sub/b.gltf}\n", ""},
		{"MTL file named by an OBJ", "sub/m.mtl", "", "mtl.obj"},
		{"image named by an MTL file", "sub/t.png", "", "mtl.obj"},
		{"glTF buffer", "sub/b.bin", "", "b.gltf"},
		{"glTF image", "sub/t.png", "", "i.gltf"},
		{"sibling texture of a bare mesh", "bare.png", "", "bare.obj"},
	}
	for _, tc := range cases {
		for _, swap := range []bool{false, true} {
			name := tc.name
			if !swap {
				name += ", no swap"
			}
			t.Run(name, func(t *testing.T) {
				tmp, err := filepath.EvalSymlinks(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				dir, outside := filepath.Join(tmp, "in"), filepath.Join(tmp, "out")
				for name, data := range files {
					write(t, dir, name, data)
					write(t, outside, name, data)
				}
				target := filepath.Join(dir, tc.target)
				swapped := false
				inputs.AfterResolve = func(p string) {
					if p != target || !swap || swapped {
						return
					}
					swapped = true
					// The file's folder when it is sub/, else the file itself.
					from := target
					if filepath.Base(filepath.Dir(target)) == "sub" {
						from = filepath.Dir(target)
					}
					rel, _ := filepath.Rel(dir, from)
					if err := os.Rename(from, from+".old"); err != nil {
						t.Fatal(err)
					}
					if err := os.Symlink(filepath.Join(outside, rel), from); err != nil {
						t.Fatal(err)
					}
				}
				defer func() { inputs.AfterResolve = nil }()
				if tc.scene != "" {
					_, err = scene.Load(write(t, dir, "s.yaml", []byte(tc.scene)))
				} else if tc.mesh == "bare.obj" {
					_, err = scene.Open(filepath.Join(dir, tc.mesh))
				} else {
					_, err = mesh.Load(filepath.Join(dir, tc.mesh), mesh.LoadOptions{})
				}
				if !swap {
					if err != nil {
						t.Fatal(err)
					}
					return
				}
				if !swapped {
					t.Fatalf("%s was never resolved (err %v)", tc.target, err)
				}
				named := target
				if strings.HasPrefix(tc.scene, "meshes:") {
					named = filepath.FromSlash(tc.target) // a scene's mesh file is named as the scene names it
				}
				wantErr(t, err, named+": a folder on its path, or the file itself, became a link leading outside the folders inputs may be read from")
			})
		}
	}
}
