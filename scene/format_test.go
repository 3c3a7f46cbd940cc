package scene

import (
	"bytes"
	"go/ast"
	goparser "go/parser"
	"go/token"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// formatExamples are the YAML blocks of FORMAT.md, in order, with what each
// needs around it to be a whole scene: a line put before it and the sections
// (meshes, materials, textures) that define the names it uses.
var formatExamples = []struct {
	start   string // the block's first line
	prefix  string
	context string
}{
	{start: "camera:"},
	{start: "textures:"},
	{start: "meshes:"},
	{start: "materials:", context: `
textures:
  bricks: {procedural: {kind: bricks}}
  bricks_n: {procedural: {kind: bricks_normal}}
`},
	{start: "objects:", context: `
meshes:
  box: {procedural: {kind: cube}}
  ball: {procedural: {kind: sphere}}
  helmet: {file: DamagedHelmet.gltf}
materials:
  wood: {shader: blinnphong}
  red: {shader: blinnphong}
  stone: {shader: blinnphong}
`},
	{start: "  - name: bats", prefix: "objects:", context: `
materials:
  bat: {shader: blinnphong, cull: none}
`},
	{start: "stream_buffers:", context: `
meshes:
  sources: {procedural: {kind: triangle}}
materials:
  step: {shader: particle_step}
  sprite: {shader: particle_sprite}
`},
}

// TestFormatExamplesLoad loads every YAML example of FORMAT.md (with the
// files it names, stand-ins written to a temporary folder, and the names it
// uses defined around it).
func TestFormatExamplesLoad(t *testing.T) {
	doc, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) != len(formatExamples) {
		t.Fatalf("FORMAT.md has %d YAML examples, formatExamples describes %d: update the table", len(blocks), len(formatExamples))
	}
	root := t.TempDir()
	dir := filepath.Join(root, "scene")
	png := pngBytes(256, 256, color.NRGBA{200, 100, 50, 255})
	for _, f := range []string{"textures/wood.png", "px.png", "nx.png", "py.png", "ny.png", "pz.png", "nz.png", "a.png"} {
		writeFile(t, filepath.Join(dir, f), png)
	}
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, image.NewRGBA(image.Rect(0, 0, 64, 64)), nil); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "photo.jpg"), jb.Bytes())
	writeFile(t, filepath.Join(dir, "DamagedHelmet.gltf"), animatedGLTF())
	shared := filepath.Join(root, "shared", "scenes")
	writeFile(t, filepath.Join(shared, "bunny", "stanford-bunny.obj"), []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"))
	for i, ex := range formatExamples {
		block := string(blocks[i][1])
		if !strings.HasPrefix(block, ex.start) {
			t.Errorf("FORMAT.md's YAML example %d starts %q, formatExamples expects %q", i, strings.SplitN(block, "\n", 2)[0], ex.start)
			continue
		}
		src := ex.context + "\n" + ex.prefix + "\n" + block
		path := filepath.Join(dir, "example"+strconv.Itoa(i)+".yaml")
		writeFile(t, path, []byte(src))
		if _, err := Load(path, WithAllowPaths(shared)); err != nil {
			t.Errorf("FORMAT.md's YAML example %d (%s): %v", i, ex.start, err)
		}
	}
}

// TestFormatDocumentsEveryKey checks that every key and enumerated value the
// parser accepts (the string lists of the parser's sources), every parameter
// and sampler of Shaders() (in its shader's row) and every built-in scene
// appears in FORMAT.md as inline code.
func TestFormatDocumentsEveryKey(t *testing.T) {
	doc, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile("(?s)```.*?```").ReplaceAll(doc, nil) // inline code only
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllSubmatch(text, -1) {
		for _, w := range regexp.MustCompile(`[a-z0-9_+-]+`).FindAll(m[1], -1) {
			documented[string(w)] = true
		}
	}
	// The parser's keys and values: the string literals of every []string
	// and map[string][]string literal, and of the calls that read a mapping.
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	accepted := map[string]string{} // word -> file
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "shaders.go" { // Shaders(): by row below
			continue
		}
		af, err := goparser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		add := func(e ast.Expr) {
			if l, ok := e.(*ast.BasicLit); ok && l.Kind == token.STRING {
				if s, err := strconv.Unquote(l.Value); err == nil && regexp.MustCompile(`^[a-z0-9_+-]+$`).MatchString(s) {
					accepted[s] = f
				}
			}
		}
		ast.Inspect(af, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CompositeLit:
				if a, ok := x.Type.(*ast.ArrayType); ok {
					if id, ok := a.Elt.(*ast.Ident); ok && id.Name == "string" {
						for _, e := range x.Elts {
							add(e)
						}
					}
				}
			case *ast.CallExpr:
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "object" || sel.Sel.Name == "reader") {
					for _, e := range x.Args[1:] {
						add(e)
					}
				}
			}
			return true
		})
	}
	for w, f := range accepted {
		if !documented[w] {
			t.Errorf("%s accepts %q, which FORMAT.md does not name (as `%s`)", f, w, w)
		}
	}
	builtins := regexp.MustCompile("(?s)\n## Built-in scenes\n(.*?)\n## ").Find(text)
	for _, name := range BuiltinNames() {
		if !bytes.Contains(builtins, []byte("`"+name+"`")) {
			t.Errorf("FORMAT.md's \"Built-in scenes\" does not list %s", name)
		}
	}
	for _, sh := range Shaders() {
		row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(sh.Name) + "` \\|.*$").Find(text)
		if row == nil {
			t.Errorf("FORMAT.md's shader table has no row for %s", sh.Name)
			continue
		}
		for _, name := range slices.Concat(sh.Params, sh.Samplers) {
			if bytes.Contains(row, []byte("`"+name+"`")) {
				continue
			}
			if regexp.MustCompile(`^slide[0-3]`).MatchString(name) && bytes.Contains(row, []byte("...")) {
				continue // slide0_s ... slide3_pos
			}
			t.Errorf("FORMAT.md's row of shader %s does not name its parameter or sampler %s", sh.Name, name)
		}
	}
}
