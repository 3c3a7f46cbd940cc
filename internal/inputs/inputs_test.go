package inputs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"abc", `"abc"`},
		{"a\x00b\n", `"a\x00b\n"`},
		{strings.Repeat("x", MaxExcerpt), `"` + strings.Repeat("x", MaxExcerpt) + `"`},
		{strings.Repeat("x", MaxExcerpt+1), `"` + strings.Repeat("x", MaxExcerpt) + `"...`},
		{strings.Repeat("é", 20), `"` + strings.Repeat("é", 16) + `"...`},
	}
	for _, tc := range tests {
		if got := Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%q) = %s, want %s", tc.in, got, tc.want)
		}
		if got := QuoteBytes([]byte(tc.in)); got != tc.want {
			t.Errorf("QuoteBytes(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestQuotePath: a file name is quoted whole up to MaxPathExcerpt bytes,
// escaped like Quote, and cut past it.
func TestQuotePath(t *testing.T) {
	long := "/work/shared/scenes/bunny/stanford-bunny.obj" // 44 bytes: Quote cut it
	tests := []struct{ in, want string }{
		{long, `"` + long + `"`},
		{"a\x1b[2Jb\x00.png", `"a\x1b[2Jb\x00.png"`},
		{strings.Repeat("x", MaxPathExcerpt), `"` + strings.Repeat("x", MaxPathExcerpt) + `"`},
		{strings.Repeat("x", MaxPathExcerpt+1), `"` + strings.Repeat("x", MaxPathExcerpt) + `"...`},
		{"x" + strings.Repeat("é", MaxPathExcerpt/2), `"x` + strings.Repeat("é", MaxPathExcerpt/2-1) + `"...`},
	}
	for _, tc := range tests {
		if got := QuotePath(tc.in); got != tc.want {
			t.Errorf("QuotePath(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestBytes(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{{"1024", 1024}, {"6G", 6 << 30}, {"512MiB", 512 << 20}, {"1.5g", 3 << 29}, {"4 KB", 4096}}
	for _, tc := range tests {
		if got, err := ParseBytes(tc.in); err != nil || got != tc.want {
			t.Errorf("ParseBytes(%q) = %d, %v, want %d", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "x", "-1G", "1Q", "NaN", "Inf", "0", "1e-3", "0.5", "1e30"} {
		if _, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q) accepted", bad)
		}
	}
	if got := Bytes(3 << 29); got != "1.5 GiB" {
		t.Errorf("Bytes = %s", got)
	}
}

func TestBudget(t *testing.T) {
	b := NewBudget(100)
	if err := b.Reserve("a", 60); err != nil {
		t.Fatal(err)
	}
	if err := b.Check("peak", 40); err != nil {
		t.Fatal(err)
	}
	err := b.Reserve("b", 41)
	if err == nil || err.Error() != "b needs about 41 B, and 60 B is already reserved: more than the memory budget of 100 B (-max-memory)" {
		t.Fatalf("Reserve over budget: %v", err)
	}
	if b.Used() != 60 {
		t.Errorf("a refused reservation was kept: %d used", b.Used())
	}
	if DefaultMaxMemory() <= 0 {
		t.Error("no default budget")
	}
}

func TestReadFileCap(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, make([]byte, 11), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(p, Kind{"test file", 10}); err == nil || !strings.Contains(err.Error(), "larger than 10 B") {
		t.Errorf("over the cap: %v", err)
	}
	if b, err := ReadFile(p, Kind{"test file", 11}); err != nil || len(b) != 11 {
		t.Errorf("at the cap: %d bytes, %v", len(b), err)
	}
	if _, err := ReadFile(dir, Kind{"test file", 11}); err == nil || !strings.Contains(err.Error(), "not a regular file (a folder)") {
		t.Errorf("folder: %v", err)
	}
}

// TestRootsThroughALinkedFolder: a root named through a symbolic link (as
// ../shared may be) admits files named through the link, and a link inside it
// that leads outside is still refused.
func TestRootsThroughALinkedFolder(t *testing.T) {
	tmp := t.TempDir()
	real := filepath.Join(tmp, "real")
	outside := filepath.Join(tmp, "outside")
	for _, d := range []string{real, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(real, "a.obj"), []byte("v 0 0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink(outside, filepath.Join(real, "escape")); err != nil {
		t.Fatal(err)
	}
	r, err := NewRoots(link)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Resolve(tmp, filepath.Join(link, "a.obj"))
	if want := filepath.Join(real, "a.obj"); err != nil || got != want {
		t.Errorf("a file through the linked root: %q, %v; want %q", got, err, want)
	}
	if _, err := r.Resolve(link, "escape/secret"); err == nil || !strings.Contains(err.Error(), "is outside the folders") {
		t.Errorf("a link leading outside: %v", err)
	}
	if _, err := r.Resolve(link, "../outside/secret"); err == nil || !strings.Contains(err.Error(), "is outside the folders") {
		t.Errorf("../ out of the linked root: %v", err)
	}
}

// TestKindArticle: errors name a kind with its article.
func TestKindArticle(t *testing.T) {
	for k, want := range map[Kind]string{OBJFile: "an OBJ file", MTLFile: "an MTL file", ImageFile: "an image file",
		GLTFFile: "a glTF file", SceneFile: "a scene file", ConfigFile: "a configuration file", PointFile: "a point file"} {
		if got := k.an(); got != want {
			t.Errorf("%s: %q, want %q", k.Name, got, want)
		}
	}
}

// TestClip: a library's message is printed as is unless it holds a control
// character or invalid UTF-8 (then quoted), and cut to MaxMessage bytes.
func TestClip(t *testing.T) {
	long := strings.Repeat("a", MaxMessage+10)
	for _, tc := range []struct{ in, want string }{
		{`json: unknown field "x"`, `json: unknown field "x"`},
		{"uri '\x1b[2J'", `"uri '\x1b[2J'"`},
		{"bad \xff byte", `"bad \xff byte"`},
		{long, long[:MaxMessage] + "..."},
	} {
		if got := Clip(tc.in); got != tc.want {
			t.Errorf("Clip(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestReadFileConfined: Roots.ReadFile reads a resolved file through its
// folder tree, so a folder or the file swapped for a link leading outside
// after Resolve is refused, while a plain ReadFile would follow it; relative
// links that stay inside the tree are followed (os.Root takes every absolute
// link for one leading outside).
func TestReadFileConfined(t *testing.T) {
	swapped := "became a link leading outside the folders inputs may be read from after the path was checked (path escapes from parent)"
	cases := []struct {
		name    string
		ref     string
		swap    func(t *testing.T, root, outside string) // after Resolve
		want    string                                   // the data read, or
		wantErr string                                   // the error's end
		plain   string                                   // what a plain ReadFile reads after the swap
	}{
		{"unchanged", "sub/a.txt", nil, "inside", "", "inside"},
		{"folder swapped for a link outside", "sub/a.txt", func(t *testing.T, root, outside string) {
			mustRename(t, filepath.Join(root, "sub"), filepath.Join(root, "sub.old"))
			mustSymlink(t, filepath.Join(outside, "sub"), filepath.Join(root, "sub"))
		}, "", swapped, "secret"},
		{"file swapped for a link outside", "b.txt", func(t *testing.T, root, outside string) {
			mustRename(t, filepath.Join(root, "b.txt"), filepath.Join(root, "b.old"))
			mustSymlink(t, filepath.Join(outside, "a.txt"), filepath.Join(root, "b.txt"))
		}, "", swapped, "secret"},
		{"file swapped for a link inside", "b.txt", func(t *testing.T, root, outside string) {
			mustRename(t, filepath.Join(root, "b.txt"), filepath.Join(root, "b.old"))
			mustSymlink(t, filepath.Join("sub", "a.txt"), filepath.Join(root, "b.txt"))
		}, "inside", "", "inside"},
		{"file swapped for an absolute link inside", "b.txt", func(t *testing.T, root, outside string) {
			mustRename(t, filepath.Join(root, "b.txt"), filepath.Join(root, "b.old"))
			mustSymlink(t, filepath.Join(root, "sub", "a.txt"), filepath.Join(root, "b.txt"))
		}, "", swapped, "inside"},
		{"file removed", "b.txt", func(t *testing.T, root, outside string) {
			if err := os.Remove(filepath.Join(root, "b.txt")); err != nil {
				t.Fatal(err)
			}
		}, "", "b.txt: no such file", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root, outside := confinedTree(t)
			r, err := NewRoots(root)
			if err != nil {
				t.Fatal(err)
			}
			p, err := r.Resolve(root, tc.ref)
			if err != nil {
				t.Fatal(err)
			}
			if tc.swap != nil {
				tc.swap(t, root, outside)
			}
			data, err := r.ReadFile(p, SceneFile)
			switch {
			case tc.wantErr != "" && (err == nil || !strings.HasSuffix(err.Error(), tc.wantErr)):
				t.Fatalf("ReadFile = %q, %v; want an error ending %q", data, err, tc.wantErr)
			case tc.wantErr == "" && (err != nil || string(data) != tc.want):
				t.Fatalf("ReadFile = %q, %v; want %q", data, err, tc.want)
			}
			// What a plain read does instead: it follows the link outside
			// (the race the confined open closes).
			if data, _ := ReadFile(p, SceneFile); string(data) != tc.plain {
				t.Errorf("plain ReadFile = %q, want %q", data, tc.plain)
			}
			// A path outside every tree (a file named on the command line) is
			// read as it is.
			if data, err := r.ReadFile(filepath.Join(outside, "a.txt"), SceneFile); err != nil || string(data) != "secret" {
				t.Errorf("ReadFile outside the trees = %q, %v", data, err)
			}
		})
	}
}

// TestReadFileConfinedNested: with a tree inside another (a mesh file's own
// folder inside the scene's), the read goes through the outer one, so that
// swapping the inner folder itself for a link is refused too.
func TestReadFileConfinedNested(t *testing.T) {
	root, outside := confinedTree(t)
	r, err := NewRoots(filepath.Join(root, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	if r, err = r.With(root); err != nil {
		t.Fatal(err)
	}
	p, err := r.Resolve(filepath.Join(root, "sub"), "a.txt")
	if err != nil {
		t.Fatal(err)
	}
	mustRename(t, filepath.Join(root, "sub"), filepath.Join(root, "sub.old"))
	mustSymlink(t, filepath.Join(outside, "sub"), filepath.Join(root, "sub"))
	if data, err := r.ReadFile(p, SceneFile); err == nil || !strings.Contains(err.Error(), "became a link leading outside") {
		t.Errorf("ReadFile = %q, %v; want the swap refused", data, err)
	}
}

// confinedTree makes root/{sub/a.txt,b.txt} (data "inside") and
// outside/{a.txt,sub/a.txt} (data "secret") in a new folder.
func confinedTree(t *testing.T) (root, outside string) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, outside = filepath.Join(tmp, "root"), filepath.Join(tmp, "outside")
	for _, p := range []string{"root/sub/a.txt", "root/b.txt", "outside/a.txt", "outside/sub/a.txt"} {
		data := "inside"
		if strings.HasPrefix(p, "outside/") {
			data = "secret"
		}
		p = filepath.Join(tmp, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, outside
}

func mustRename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestResolveRefusals: a file name that cannot name a file is refused at
// once, quoting at most MaxPathExcerpt bytes of it (MaxExcerpt of one longer
// than the system opens): a NUL byte, a URI scheme, a
// name longer than the system opens (a 200 kB "a/a/a/..." took 38 s to be
// reported missing).
func TestResolveRefusals(t *testing.T) {
	dir := t.TempDir()
	r, err := NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("a/", 100000) + "x.png"
	for _, tc := range []struct{ ref, want string }{
		{"a.png\x00.png", `file name "a.png\x00.png" contains a NUL byte`},
		{"file:///etc/passwd", `file name "file:///etc/passwd": URI scheme "file:" is not supported (only relative file names)`},
		{long, `file name "a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/"...: 200005 bytes, more than 4096 (the longest path the system opens)`},
		{strings.Repeat("a/", 2045) + "x.png", `"` + strings.Repeat("a/", MaxPathExcerpt/2) + `"...: no such file`},
		// A file name of ordinary length is named whole (Quote cut it at
		// 32 bytes), escaped.
		{"textures/stone_wall_albedo_2048.png", `"textures/stone_wall_albedo_2048.png": no such file`},
		{"/no-such-root/shared/scenes/bunny/stanford-bunny.obj",
			`"/no-such-root/shared/scenes/bunny/stanford-bunny.obj" is outside the folders inputs may be read from (` + r.Dirs()[0] + `; add one with -allow-path)`},
		{"../\x1b]0;x\x07/stanford-bunny.obj\x1b[2J", `"../\x1b]0;x\a/stanford-bunny.obj\x1b[2J" is outside the folders inputs may be read from (` + r.Dirs()[0] + `; add one with -allow-path)`},
	} {
		start := time.Now()
		_, err := r.Resolve(dir, tc.ref)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%.40q:\n got  %v\n want %s", tc.ref, err, tc.want)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%.40q: took %v", tc.ref, d)
		}
	}
}
