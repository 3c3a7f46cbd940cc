package hostile

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/internal/outputs"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/mesh"
)

// TestSpecialFiles: a device, a named pipe or a folder is refused, for every
// path a scene, a mesh, a material or a flag may name, without blocking
// (class 6).
func TestSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.png")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "folder.obj"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.mtl")); err != nil {
		t.Fatal(err)
	}
	tri := "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl m\nf 1 2 3\n"
	cases := []loadCase{
		{"scene file is /dev/zero", func() error { _, err := scene.Load("/dev/zero"); return err },
			[]string{"/dev/zero: not a regular file (a character device)"}},
		{"config is a named pipe", func() error { _, err := configs.Load(fifo); return err },
			[]string{fifo + ": not a regular file (a named pipe)"}},
		{"texture is a named pipe", sceneFile(t, dir, "t.yaml", "textures:\n  a: {file: pipe.png}\n"), []string{"t.yaml:2: textures.a.file", "not a regular file (a named pipe)"}},
		{"mesh is a folder", sceneFile(t, dir, "m.yaml", "meshes:\n  a: {file: folder.obj}\n"), []string{"m.yaml:2: meshes.a.file", "not a regular file (a folder)"}},
		{"mtllib is a link to /dev/zero", func() error {
			_, err := mesh.LoadOBJ(write(t, dir, "z.obj", []byte("mtllib zero.mtl\n"+tri)), mesh.LoadOptions{})
			return err
		}, []string{"z.obj:1: mtllib", "is outside the folders"}},
		{"mesh from the command line is a named pipe", func() error {
			p := filepath.Join(dir, "pipe.obj")
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := scene.FromMeshFile(p)
			return err
		}, []string{"pipe.obj: not a regular file (a named pipe)"}},
	}
	runBounded(t, 2*time.Second, cases)
}

// TestPathRule: every file a scene, mesh or material names must be inside
// the folder tree of the file given on the command line or of -allow-path,
// after resolving links, and the refusal does not tell whether the file
// exists (class 7).
func TestPathRule(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "scene")
	other := filepath.Join(root, "other")
	tri := "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"
	write(t, other, "x.obj", []byte(tri))
	write(t, other, "x.mtl", []byte("newmtl m\n"))
	write(t, dir, "sub/in.obj", []byte(tri))
	if err := os.Symlink(filepath.Join(other, "x.obj"), filepath.Join(dir, "link.obj")); err != nil {
		t.Fatal(err)
	}
	outside := "is outside the folders inputs may be read from"
	load := func(src string, opts ...scene.Option) error {
		_, err := scene.Load(write(t, dir, "s.yaml", []byte(src)), opts...)
		return err
	}
	obj := func(name, src string) error {
		_, err := mesh.LoadOBJ(write(t, dir, name, []byte(src)), mesh.LoadOptions{})
		return err
	}
	gltf := func(uri string) error {
		_, err := mesh.LoadGLTF(write(t, dir, "b.gltf", []byte(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":36,"uri":"`+uri+`"}]}`)), mesh.LoadOptions{})
		return err
	}
	gltfImage := func(uri string) error {
		_, err := mesh.LoadGLTF(write(t, dir, "i.gltf", []byte(`{"asset":{"version":"2.0"},"images":[{"uri":"`+uri+`"}],"textures":[{"source":0}],`+
			`"materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}],"meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],`+
			`"accessors":[{"componentType":5126,"count":3,"type":"VEC3"}],"nodes":[{"mesh":0}]}`)), mesh.LoadOptions{})
		return err
	}
	cases := []struct {
		name string
		err  error
		want []string
	}{
		{"relative inside", load("meshes:\n  a: {file: sub/in.obj}\n"), nil},
		{"../ outside", load("meshes:\n  a: {file: ../other/x.obj}\n"), []string{"s.yaml:2: meshes.a.file", outside}},
		{"../ outside, missing file", load("meshes:\n  a: {file: ../other/nope.obj}\n"), []string{"s.yaml:2: meshes.a.file", outside}},
		{"absolute outside", load("meshes:\n  a: {file: " + filepath.Join(other, "x.obj") + "}\n"), []string{outside}},
		{"absolute /etc/passwd", load("textures:\n  a: {file: /etc/passwd}\n"), []string{"s.yaml:2: textures.a.file", outside}},
		{"link to outside", load("meshes:\n  a: {file: link.obj}\n"), []string{outside}},
		{"missing inside", load("meshes:\n  a: {file: nope.obj}\n"), []string{`"nope.obj": no such file`}},
		{"-allow-path", load("meshes:\n  a: {file: ../other/x.obj}\n", scene.WithAllowPaths(other)), nil},
		{"mtllib ../", obj("m1.obj", "mtllib ../other/x.mtl\n"+tri), []string{"m1.obj:1: mtllib", outside}},
		{"mtllib /proc/self/environ", obj("m2.obj", "mtllib /proc/self/environ\n"+tri), []string{"m2.obj:1: mtllib", outside}},
		{"gltf buffer ../", gltf("../other/x.obj"), []string{"b.gltf: buffers[0].uri: ", outside}},
		{"gltf buffer behind a made-up scheme", gltf("foo:../../other/x.obj"), []string{"b.gltf", `URI scheme "foo:" is not supported`}},
		{"gltf buffer file: URI", gltf("file:///etc/passwd"), []string{"b.gltf", `URI scheme "file:" is not supported`}},
		{"gltf buffer absolute", gltf("/etc/passwd"), []string{"b.gltf: buffers[0].uri: ", outside}},
		{"gltf image ../", gltfImage("../other/x.png"), []string{"i.gltf", outside}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.want == nil {
				if tc.err != nil {
					t.Fatal(tc.err)
				}
				return
			}
			wantErr(t, tc.err, tc.want...)
		})
	}
	// The same message whether the file outside exists or not.
	a := load("meshes:\n  a: {file: ../other/x.obj}\n").Error()
	b := load("meshes:\n  a: {file: ../other/y.obj}\n").Error()
	if strings.ReplaceAll(a, "x.obj", "y.obj") != b {
		t.Errorf("the refusals differ:\n%s\n%s", a, b)
	}
}

// TestOutputsDoNotFollowLinks: an output file whose name is a link in the
// output folder replaces the link and leaves its target alone (class 10).
func TestOutputsDoNotFollowLinks(t *testing.T) {
	out, elsewhere := t.TempDir(), t.TempDir()
	target := write(t, elsewhere, "victim", []byte("keep me"))
	hard := write(t, elsewhere, "hard", []byte("keep me too"))
	if err := os.Symlink(target, filepath.Join(out, "image.png")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(out, "stats.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(hard, filepath.Join(out, "results.csv")); err != nil {
		t.Fatal(err)
	}
	if err := framebuffer.WritePNG(filepath.Join(out, "image.png"), image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	if err := (expt.Stats{"a.b": 1}).WriteJSON(filepath.Join(out, "stats.json")); err != nil {
		t.Fatal(err)
	}
	if err := outputs.WriteCSV(filepath.Join(out, "results.csv"), []string{"x"}, [][]string{{"1"}}); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]string{target: "keep me", hard: "keep me too"} {
		if b, _ := os.ReadFile(f); string(b) != want {
			t.Errorf("%s now holds %q", f, b)
		}
	}
	for _, n := range []string{"image.png", "stats.json", "results.csv"} {
		fi, err := os.Lstat(filepath.Join(out, n))
		if err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s: %v %v, want a regular file", n, fi, err)
		}
	}
	if err := os.Mkdir(filepath.Join(out, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := outputs.Create(filepath.Join(out, "dir")); err == nil {
		t.Error("a folder was replaced by an output")
	}
}

// TestLoadProgress: a long load prints progress lines like a simulation
// (class 11).
func TestLoadProgress(t *testing.T) {
	var log bytes.Buffer
	in := &expt.Inputs{Log: &log, ProgressEvery: 20 * time.Millisecond}
	b := in.Budget()
	err := in.Progress("loading scene slow", b, func() error { time.Sleep(110 * time.Millisecond); return nil })
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(log.String(), "\n"), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "  loading scene slow: 0 s, 0 B of memory reserved") {
		t.Errorf("progress lines %q", lines)
	}
}

// TestOutputFoldersDoNotFollowLinks: a link standing for a folder inside the
// output folder (a study's points/, a run's runs/<name>) is replaced by a
// real folder; nothing is written through it.
func TestOutputFoldersDoNotFollowLinks(t *testing.T) {
	out, elsewhere := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(out, "points")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(out, "runs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(out, "runs", "a")); err != nil {
		t.Fatal(err)
	}
	s := &expt.Sweep[int]{Study: "s", Out: out, Points: []string{"p"}, Run: func(int) (int, error) { return 1, nil }}
	if _, err := s.RunShard(expt.Shard{}); err != nil {
		t.Fatal(err)
	}
	if _, err := outputs.Dir(out, filepath.Join("runs", "a", "b")); err != nil {
		t.Fatal(err)
	}
	if es, _ := os.ReadDir(elsewhere); len(es) != 0 {
		t.Errorf("%d entries were written through the links: %v", len(es), es)
	}
	for _, d := range []string{"points", "runs/a/b"} {
		if fi, err := os.Lstat(filepath.Join(out, d)); err != nil || !fi.IsDir() {
			t.Errorf("%s: %v %v, want a folder", d, fi, err)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "points", "p.json")); err != nil {
		t.Errorf("the point file: %v", err)
	}
	if _, err := outputs.Dir(out, "../up"); err == nil {
		t.Error("an output folder outside the output folder was made")
	}
}
