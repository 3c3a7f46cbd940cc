package scene

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene/teximage"
	"gopkg.in/yaml.v3"
)

// Defaults of the scene format (see FORMAT.md).
const (
	DefaultWidth          = 1280
	DefaultHeight         = 720
	DefaultSamples        = 1
	DefaultMaxTextureSize = 1024
	maxInstances          = 100000 // objects per repeat, and objects per scene
	maxProceduralTexture  = 4096   // texels per side of a procedural texture
)

// fromFile is the material name that draws a file mesh with the file's own
// materials; fromMTL is its alias.
const (
	fromFile = "from_file"
	fromMTL  = "from_mtl"
)

var topKeys = []string{"name", "resolution", "samples", "max_texture_size", "frames", "blur", "decoupled", "clear", "camera", "ambient",
	"lights", "textures", "meshes", "materials", "stream_buffers", "objects"}

// maxFrames bounds a scene's animation length.
const maxFrames = 100000

// parser reads one scene document.
type parser struct {
	w     *walker
	dir   string // directory for relative file names
	files bool   // whether file references are allowed (not in built-ins)
	opt   options
	b     *builder
	s     *Scene
	max   int           // max_texture_size in effect
	roots *inputs.Roots // where file references may be read from (files only)
	// decoupled is the scene's `decoupled`, the default of every material.
	decoupled Decoupling
	// streamed marks the stream buffers an object so far streams out to.
	streamed map[int]bool
	images   teximage.Cache // image files, decoded once (loadImage)
}

// parse parses a scene document. file labels errors; dir resolves relative
// file names; files=false forbids file references.
func parse(file string, data []byte, dir string, files bool, opt options) (*Scene, error) {
	if opt.frontSet {
		return nil, fmt.Errorf("%s: a front option (render -front) applies to a bare mesh file; in a scene file give each mesh's front", file)
	}
	w := &walker{file: file, frame: opt.frame}
	root, err := w.parseYAML(data)
	if err != nil {
		return nil, err
	}
	s := &Scene{Source: file}
	p := &parser{w: w, dir: dir, files: files, opt: opt, b: newBuilder(s), s: s, streamed: map[int]bool{}}
	if err := p.scene(root); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		// Everything Validate checks is checked with a line number above;
		// this is a safety net.
		return nil, &Error{File: file, Msg: err.Error()}
	}
	return s, nil
}

func (p *parser) scene(root *yaml.Node) error {
	w := p.w
	top, err := w.object(root, "", topKeys...)
	if err != nil {
		return err
	}
	s := p.s
	s.Name = strings.TrimSuffix(filepath.Base(p.w.file), filepath.Ext(p.w.file))
	if n := top.get("name"); n != nil {
		if s.Name, err = w.str(n, "name"); err != nil {
			return err
		}
	}
	s.Width, s.Height, s.Samples = DefaultWidth, DefaultHeight, DefaultSamples
	if n := top.get("resolution"); n != nil {
		items, err := w.list(n, "resolution")
		if err != nil {
			return err
		}
		if len(items) != 2 {
			return w.errAt(n, "resolution", "expected [width, height], got %d values", len(items))
		}
		var wh [2]int64
		for i, it := range items {
			if wh[i], err = w.integer(it, fmt.Sprintf("resolution[%d]", i), 1, MaxResolution); err != nil {
				return err
			}
		}
		s.Width, s.Height = int(wh[0]), int(wh[1])
	}
	if n := top.get("samples"); n != nil {
		v, err := w.integer(n, "samples", 0, 1<<30)
		if err != nil {
			return err
		}
		if !samplesAllowed(int(v)) {
			return w.errAt(n, "samples", "%d not supported (%s)", v, samplesWant)
		}
		s.Samples = int(v)
	}
	p.max = DefaultMaxTextureSize
	if n := top.get("max_texture_size"); n != nil {
		v, err := w.integer(n, "max_texture_size", 0, teximage.MaxSize)
		if err != nil {
			return err
		}
		p.max = int(v)
	}
	if p.opt.maxTextureSizeSet {
		p.max = p.opt.maxTextureSize
	}
	if err := p.sceneBlur(root, top); err != nil {
		return err
	}
	if err := p.clear(top.get("clear")); err != nil {
		return err
	}
	if err := p.camera(top.get("camera")); err != nil {
		return err
	}
	s.Ambient = geom.Vec3{0.05, 0.05, 0.05}
	if n := top.get("ambient"); n != nil {
		c, err := w.floats(n, "ambient", 3, 3, false)
		if err != nil {
			return err
		}
		s.Ambient = geom.Vec3{c[0], c[1], c[2]}
	}
	if n := top.get("lights"); n != nil {
		if err := p.lights(n); err != nil {
			return err
		}
	}
	if err := p.checkFrames(top); err != nil {
		return err
	}
	if err := p.each(top, "textures", p.texture); err != nil {
		return err
	}
	needFile := p.meshesDrawnFromFile(top.get("objects"))
	if err := p.each(top, "meshes", func(e entry) error { return p.mesh(e, needFile[e.key]) }); err != nil {
		return err
	}
	if err := p.each(top, "materials", p.material); err != nil {
		return err
	}
	if n := top.get("stream_buffers"); n != nil {
		if err := p.streamBuffers(n); err != nil {
			return err
		}
	}
	if n := top.get("objects"); n != nil {
		items, err := w.list(n, "objects")
		if err != nil {
			return err
		}
		for i, it := range items {
			if err := p.object(it, fmt.Sprintf("objects[%d]", i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// each runs f on every entry of the mapping section key of top, in document
// order, when the section is there.
func (p *parser) each(top *object, key string, f func(entry) error) error {
	n := top.get(key)
	if n == nil {
		return nil
	}
	es, err := p.w.entries(n, key)
	if err != nil {
		return err
	}
	for _, e := range es {
		if err := f(e); err != nil {
			return err
		}
	}
	return nil
}

// meshesDrawnFromFile pre-scans the objects for "material: from_file" and
// returns the names of their meshes, so that only those meshes load their
// files' materials and images. Malformed objects are ignored here; the full
// parse reports them.
func (p *parser) meshesDrawnFromFile(objects *yaml.Node) map[string]bool {
	out := map[string]bool{}
	if objects == nil {
		return out
	}
	scan := &walker{file: p.w.file}
	items, err := scan.list(objects, "objects")
	if err != nil {
		return out
	}
	for _, it := range items {
		es, err := scan.entries(it, "")
		if err != nil {
			continue
		}
		var meshName, mat string
		for _, e := range es {
			if v, err := scan.scalar(e.v, ""); err == nil {
				switch e.key {
				case "mesh":
					meshName = v.Value
				case "material":
					mat = v.Value
				}
			}
		}
		if mat == fromFile || mat == fromMTL {
			out[meshName] = true
		}
	}
	return out
}

func (p *parser) clear(n *yaml.Node) error {
	p.s.Clear = Clear{Color: geom.Vec4{0, 0, 0, 1}, Depth: 1}
	if n == nil {
		return nil
	}
	r := p.reader(n, "clear", "color", "depth", "stencil")
	p.s.Clear.Color = r.color("color", p.s.Clear.Color)
	p.s.Clear.Depth = r.float("depth", 1, 0, 1)
	p.s.Clear.Stencil = uint8(r.int("stencil", 0, 0, 255))
	return r.err
}
