package scene

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/internal/names"
)

// DefaultName is the built-in scene used when none is chosen.
const DefaultName = "room"

// Option modifies how a scene is loaded.
type Option func(*options)

type options struct {
	width, height, samples int
	maxTextureSize         int
	maxTextureSizeSet      bool
	allow                  []string       // WithAllowPaths
	budget                 *inputs.Budget // WithBudget
	frame                  int
	blur                   float32
	blurSet                bool
	front                  Front // WithFront
	frontSet               bool
}

// WithResolution overrides the scene's resolution.
func WithResolution(width, height int) Option {
	return func(o *options) { o.width, o.height = width, height }
}

// WithSamples overrides the scene's samples per pixel (1 to 64).
func WithSamples(n int) Option { return func(o *options) { o.samples = n } }

// WithMaxTextureSize overrides max_texture_size: images larger than n texels
// per side are downscaled on load by a power of two (0: never).
func WithMaxTextureSize(n int) Option {
	return func(o *options) { o.maxTextureSize, o.maxTextureSizeSet = n, true }
}

// WithFrame loads frame i of an animated scene (0 <= i < frames; default 0):
// keyframed fields, glTF animations and bats are evaluated at it.
func WithFrame(i int) Option { return func(o *options) { o.frame = i } }

// WithBlur overrides the scene's blur scale (>= 0; 0: no lens or motion blur).
func WithBlur(k float32) Option { return func(o *options) { o.blur, o.blurSet = k, true } }

// WithFront tells FromMeshFile which way the bare mesh's front faces (the
// default is +Z, glTF's convention), so that it is framed from that side. A
// scene file gives each mesh's own `front`; loading one with WithFront is an
// error.
func WithFront(f Front) Option { return func(o *options) { o.front, o.frontSet = f, true } }

func collect(opts []Option) (options, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	if o.width < 0 || o.height < 0 || o.samples < 0 || o.maxTextureSize < 0 || o.frame < 0 {
		return o, fmt.Errorf("negative resolution, samples, texture size or frame in options")
	}
	if o.blurSet && (!(o.blur >= 0) || !geom.AllFinite(o.blur)) {
		return o, fmt.Errorf("blur %v in options must be non-negative and finite", o.blur)
	}
	return o, nil
}

// apply sets the resolution, samples and blur overrides.
func (o options) apply(s *Scene) error {
	if o.blurSet {
		s.Blur = o.blur
	}
	if o.width != 0 || o.height != 0 || o.samples != 0 {
		if err := s.SetResolution(o.width, o.height, o.samples); err != nil {
			return fmt.Errorf("%s: %v", s.Source, err)
		}
	}
	// The lens depends on the blur and the aspect just set.
	if err := s.checkLens(); err != nil {
		return fmt.Errorf("%s: camera: %v", s.Source, err)
	}
	return nil
}

// Load reads a scene file (YAML, see FORMAT.md). Relative file names in it are
// resolved against the file's directory.
func Load(path string, opts ...Option) (*Scene, error) {
	if _, err := collect(opts); err != nil {
		return nil, err // an option's error comes before the file's
	}
	data, err := inputs.ReadFile(path, inputs.SceneFile)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, opts...)
}

// Parse parses scene YAML held in memory; filename labels errors and its
// directory resolves relative file names.
func Parse(filename string, data []byte, opts ...Option) (*Scene, error) {
	o, err := collect(opts)
	if err != nil {
		return nil, err
	}
	s, err := parse(filename, data, filepath.Dir(filename), true, o)
	if err != nil {
		return nil, err
	}
	return s, o.apply(s)
}

//go:embed builtin/*.yaml
var builtinFS embed.FS

// BuiltinNames lists the built-in scenes, sorted.
func BuiltinNames() []string {
	entries, err := builtinFS.ReadDir("builtin")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// BuiltinSource returns the YAML text of a built-in scene.
func BuiltinSource(name string) ([]byte, error) {
	if strings.ContainsAny(name, "/\\.") {
		return nil, fmt.Errorf("unknown built-in scene %q%s (have %s)", name, names.DidYouMean(name, BuiltinNames()), strings.Join(BuiltinNames(), ", "))
	}
	data, err := builtinFS.ReadFile("builtin/" + name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("unknown built-in scene %q%s (have %s)", name, names.DidYouMean(name, BuiltinNames()), strings.Join(BuiltinNames(), ", "))
	}
	return data, nil
}

// Builtin loads a built-in scene by name (see BuiltinNames). Built-in scenes
// are fully procedural: they reference no files.
func Builtin(name string, opts ...Option) (*Scene, error) {
	o, err := collect(opts)
	if err != nil {
		return nil, err
	}
	data, err := BuiltinSource(name)
	if err != nil {
		return nil, err
	}
	s, err := parse("builtin/"+name+".yaml", data, "", false, o)
	if err != nil {
		return nil, err
	}
	s.Source = "builtin:" + name
	return s, o.apply(s)
}

// LoadFrame loads frame i of the scene named nameOrPath (see Open).
func LoadFrame(nameOrPath string, frame int, opts ...Option) (*Scene, error) {
	return Open(nameOrPath, append(append([]Option(nil), opts...), WithFrame(frame))...)
}

// Open loads a scene named on a command line: a built-in scene name, a YAML
// scene file (.yaml, .yml), or a bare mesh file (.obj, .gltf, .glb) wrapped by
// FromMeshFile.
func Open(nameOrPath string, opts ...Option) (*Scene, error) {
	for _, n := range BuiltinNames() {
		if n == nameOrPath {
			return Builtin(n, opts...)
		}
	}
	switch strings.ToLower(filepath.Ext(nameOrPath)) {
	case ".yaml", ".yml":
		return Load(nameOrPath, opts...)
	case ".obj", ".gltf", ".glb":
		return FromMeshFile(nameOrPath, opts...)
	}
	if fi, err := os.Stat(nameOrPath); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("scene %q is a folder: name the scene file in it (.yaml, .yml, .obj, .gltf or .glb)", nameOrPath)
	}
	return nil, fmt.Errorf("unknown scene %q: not a built-in scene (%s) nor a .yaml, .yml, .obj, .gltf or .glb file%s",
		nameOrPath, strings.Join(BuiltinNames(), ", "), names.DidYouMean(nameOrPath, BuiltinNames()))
}
