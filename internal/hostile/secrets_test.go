package hostile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/mesh"
)

// secret stands for /proc/self/environ: NUL-separated NAME=value pairs.
const secret = "GFXSIM_FAKE_TOKEN=ghp_s3cr3tVALUE0123456789\x00PATH=/usr/bin\x00HOME=/home/x\x00"

// maxErrorLen bounds an error of one of these cases: the paths (the temporary
// folder), the field, the message and one excerpt.
func maxErrorLen(dir string) int { return 4*len(dir) + 300 + 4*inputs.MaxExcerpt }

// TestNoSecretsInErrors names a file of secrets, kept inside the scene's
// folder so that the path rule lets it be read, as every kind of input; no
// error may show any of it, and each stays short.
func TestNoSecretsInErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "env", []byte(secret))
	tri := "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
	cases := []loadCase{
		{"mtllib", func() error {
			_, err := mesh.LoadOBJ(write(t, dir, "a.obj", []byte("mtllib env\n"+tri+"usemtl m\nf 1 2 3\n")), mesh.LoadOptions{})
			return err
		}, []string{"env:1", "not an MTL file"}},
		{"map_Kd", func() error {
			write(t, dir, "b.mtl", []byte("newmtl m\nmap_Kd env\n"))
			_, err := mesh.LoadOBJ(write(t, dir, "b.obj", []byte("mtllib b.mtl\n"+tri+"usemtl m\nf 1 2 3\n")), mesh.LoadOptions{})
			return err
		}, []string{`b.mtl:2: map_Kd: "env": byte 0: not a PNG or JPEG`}}, // the file as the library writes it
		{"obj", func() error {
			_, err := mesh.LoadOBJ(write(t, dir, "env.obj", []byte(secret)), mesh.LoadOptions{})
			return err
		}, []string{"env.obj:1", "not an OBJ file"}},
		{"scene texture", sceneFile(t, dir, "t.yaml", "textures:\n  a: {file: env}\n"), []string{`t.yaml:2: textures.a.file: "env": byte 0: not a PNG or JPEG`}}, // as the scene writes it
		{"scene file", sceneFile(t, dir, "env.yaml", strings.ReplaceAll(secret, "\x00", "\n")), []string{"env.yaml:1", "not a YAML mapping"}},
		{"scene file with NULs", sceneFile(t, dir, "env0.yaml", secret), []string{"env0.yaml"}},
		{"config", configFile(t, dir, "env.cfg", strings.ReplaceAll(secret, "\x00", "\n")), []string{"env.cfg:1", "not a YAML mapping"}},
		{"config as key: value", configFile(t, dir, "kv.cfg", "GFXSIM_FAKE_TOKEN: ghp_s3cr3tVALUE0123456789\n"), []string{"kv.cfg:1", "not a configuration file"}},
		{"gltf buffer", func() error {
			_, err := mesh.LoadGLTF(write(t, dir, "g.gltf", []byte(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":9,"uri":"env"}],`+
				`"bufferViews":[{"buffer":0,"byteLength":9}],"accessors":[{"bufferView":0,"componentType":5126,"count":1,"type":"VEC3"}],`+
				`"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]}`)), mesh.LoadOptions{})
			return err
		}, []string{"g.gltf"}},
		{"gltf image", func() error {
			_, err := mesh.DecodeGLTF(filepath.Join(dir, "i.gltf"), []byte(`{"asset":{"version":"2.0"},"images":[{"uri":"env"}],"textures":[{"source":0}],`+
				`"materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}],"meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],`+
				`"accessors":[{"componentType":5126,"count":3,"type":"VEC3"}],"nodes":[{"mesh":0}]}`),
				func(uri string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, uri)) }, mesh.LoadOptions{})
			return err
		}, []string{"i.gltf", "materials[0]", "not a PNG or JPEG"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.load()
			wantErr(t, err, tc.want...)
			if err == nil {
				return
			}
			msg := err.Error()
			for _, s := range []string{"ghp_", "s3cr3t", "GFXSIM_FAKE", "/usr/bin", "/home/x"} {
				if strings.Contains(msg, s) {
					t.Errorf("error shows %q of the secret file: %s", s, msg)
				}
			}
			if len(msg) > maxErrorLen(dir) {
				t.Errorf("error of %d bytes: %s", len(msg), msg)
			}
		})
	}
}

// TestBoundedExcerpt: an error about a long bad token of a file of the right
// format quotes at most MaxExcerpt bytes of it, escaped.
func TestBoundedExcerpt(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x\x01", 5000)
	jsonLong := strings.Repeat(`x\u0001`, 5000) // long in a JSON string
	cases := []struct {
		name string
		load func() error
	}{
		{"obj number", func() error {
			_, err := mesh.ParseOBJ("l.obj", []byte("v 0 0 0\nv 1 "+long+" 0\n"))
			return err
		}},
		{"obj statement", func() error {
			_, err := mesh.ParseOBJ("l.obj", []byte("v 0 0 0\n"+long+" 1\n"))
			return err
		}},
		{"mtl", func() error {
			_, err := mesh.ParseMTL("l.mtl", []byte("newmtl a\nillum "+long+"\n"))
			return err
		}},
		{"scene value", func() error {
			_, err := scene.Parse(filepath.Join(dir, "l.yaml"), []byte("materials:\n  a: {shader: \""+strings.Repeat("y", 5000)+"\"}\n"))
			return err
		}},
		{"scene key", func() error {
			_, err := scene.Parse(filepath.Join(dir, "l.yaml"), []byte(strings.Repeat("k", 5000)+": 1\n"))
			return err
		}},
		{"gltf buffer uri", func() error {
			_, err := mesh.LoadGLTF(write(t, dir, "u.gltf", []byte(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":4,"uri":"../`+jsonLong+`"}]}`)), mesh.LoadOptions{})
			return err
		}},
		{"gltf library message", func() error {
			_, err := mesh.DecodeGLTF("l.gltf", []byte(`{"asset":{"version":"2.0"},"accessors":[{"type":"`+jsonLong+`"}]}`), nil, mesh.LoadOptions{})
			return err
		}},
		{"config value", func() error {
			_, err := configs.Parse("l.cfg", []byte("raster: {tile_order: "+strings.Repeat("z", 5000)+"}\n"))
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.load()
			if err == nil {
				t.Fatal("no error")
			}
			if n := len(err.Error()); n > maxErrorLen(dir) {
				t.Errorf("error of %d bytes: %.200s", n, err)
			}
			if strings.ContainsRune(err.Error(), 1) {
				t.Errorf("error has an unescaped control byte: %q", err)
			}
		})
	}
}
