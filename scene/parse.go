package scene

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene/internal/rng"
	"github.com/gfxsim/gfxsim/scene/mesh"
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
	"lights", "textures", "meshes", "materials", "objects"}

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
}

// parse parses a scene document. file labels errors; dir resolves relative
// file names; files=false forbids file references.
func parse(file string, data []byte, dir string, files bool, opt options) (*Scene, error) {
	w := &walker{file: file, frame: opt.frame}
	root, err := w.parseYAML(data)
	if err != nil {
		return nil, err
	}
	s := &Scene{Source: file}
	p := &parser{w: w, dir: dir, files: files, opt: opt, b: newBuilder(s), s: s}
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
	if n := top.get("textures"); n != nil {
		es, err := w.entries(n, "textures")
		if err != nil {
			return err
		}
		for _, e := range es {
			if err := p.texture(e); err != nil {
				return err
			}
		}
	}
	needFile := p.meshesDrawnFromFile(top.get("objects"))
	if n := top.get("meshes"); n != nil {
		es, err := w.entries(n, "meshes")
		if err != nil {
			return err
		}
		for _, e := range es {
			if err := p.mesh(e, needFile[e.key]); err != nil {
				return err
			}
		}
	}
	if n := top.get("materials"); n != nil {
		es, err := w.entries(n, "materials")
		if err != nil {
			return err
		}
		for _, e := range es {
			if err := p.material(e); err != nil {
				return err
			}
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

func (p *parser) camera(n *yaml.Node) error {
	c := Camera{
		Position: geom.Vec3{0, 0, 5}, Up: geom.Vec3{0, 1, 0},
		FovYDegrees: 60, Near: 0.1, Far: 100, ShutterClose: 1,
	}
	field := "camera"
	if n != nil {
		r := p.reader(n, field, "position", "target", "up", "position_end", "target_end", "up_end",
			"fov_y", "near", "far", "aperture", "focus_distance", "shutter")
		c.Position = r.vec3("position", c.Position, false)
		c.Target = r.vec3("target", c.Target, false)
		c.Up = r.vec3("up", c.Up, false)
		c.PositionEnd = r.vec3("position_end", c.Position, false)
		c.TargetEnd = r.vec3("target_end", c.Target, false)
		c.UpEnd = r.vec3("up_end", c.Up, false)
		c.FovYDegrees = r.float("fov_y", c.FovYDegrees, 1e-3, 179.9)
		c.Near = r.float("near", c.Near, 1e-6, 1e30)
		c.Far = r.float("far", c.Far, 1e-6, 1e30)
		c.Aperture = r.float("aperture", 0, 0, 1e30)
		c.FocusDistance = r.float("focus_distance", 0, 1e-6, 1e30)
		sh := r.floats("shutter", []float32{0, 1}, 2, 2)
		if r.err != nil {
			return r.err
		}
		c.ShutterOpen, c.ShutterClose = sh[0], sh[1]
		o := r.o
		at := func(key string) *yaml.Node {
			if v := o.get(key); v != nil {
				return v
			}
			return n
		}
		if !(c.Far > c.Near) {
			return p.w.errAt(at("far"), o.path("far"), "%v must be greater than near %v", c.Far, c.Near)
		}
		if !(c.ShutterOpen >= 0 && c.ShutterOpen <= c.ShutterClose && c.ShutterClose <= 1) {
			return p.w.errAt(at("shutter"), o.path("shutter"), "[%v, %v]: want 0 <= open <= close <= 1", c.ShutterOpen, c.ShutterClose)
		}
		dir := c.Target.Sub(c.Position)
		if dir.Length() == 0 {
			return p.w.errAt(at("target"), o.path("target"), "equals the camera position %v", c.Position)
		}
		if dir.Normalize().Cross(c.Up.Normalize()).Length() < 1e-4 {
			return p.w.errAt(at("up"), o.path("up"), "%v is parallel to the view direction %v", c.Up, dir)
		}
		if c.FocusDistance == 0 {
			c.FocusDistance = c.Target.Sub(c.Position).Length()
		}
		if err := p.cameraMotion(&c, o, at); err != nil {
			return err
		}
	}
	if c.FocusDistance == 0 {
		c.FocusDistance = c.Target.Sub(c.Position).Length()
	}
	p.s.Camera = c
	return nil
}

// cameraMotion checks the end pose (position_end, target_end, up_end: the
// pose at frame time 1) and replaces the two poses by those at shutter open
// and close, linearly interpolated as object poses are.
func (p *parser) cameraMotion(c *Camera, o *object, at func(string) *yaml.Node) error {
	if o.get("position_end") == nil && o.get("target_end") == nil && o.get("up_end") == nil {
		return nil
	}
	dir := c.TargetEnd.Sub(c.PositionEnd)
	if dir.Length() == 0 {
		return p.w.errAt(at("target_end"), o.path("target_end"), "equals position_end %v", c.PositionEnd)
	}
	if dir.Normalize().Cross(c.UpEnd.Normalize()).Length() < 1e-4 {
		return p.w.errAt(at("up_end"), o.path("up_end"), "%v is parallel to the view direction at frame time 1 %v", c.UpEnd, dir)
	}
	p0, t0, u0 := c.Position, c.Target, c.Up
	c.Position, c.PositionEnd = lerp3(p0, c.PositionEnd, c.ShutterOpen), lerp3(p0, c.PositionEnd, c.ShutterClose)
	c.Target, c.TargetEnd = lerp3(t0, c.TargetEnd, c.ShutterOpen), lerp3(t0, c.TargetEnd, c.ShutterClose)
	c.Up, c.UpEnd = lerp3(u0, c.UpEnd, c.ShutterOpen), lerp3(u0, c.UpEnd, c.ShutterClose)
	c.Moving = c.Position != c.PositionEnd || c.Target != c.TargetEnd || c.Up != c.UpEnd
	if err := c.validate(); err != nil {
		return p.w.errAt(o.node, o.field, "over the shutter: %v", err)
	}
	return nil
}

// lerp3 returns (1-u)*a + u*b, exactly a at u = 0 and b at u = 1.
func lerp3(a, b geom.Vec3, u float32) geom.Vec3 {
	switch {
	case u == 0 || a == b:
		return a
	case u == 1:
		return b
	}
	return geom.Vec3{(1-u)*a[0] + u*b[0], (1-u)*a[1] + u*b[1], (1-u)*a[2] + u*b[2]}
}

func (p *parser) lights(n *yaml.Node) error {
	items, err := p.w.list(n, "lights")
	if err != nil {
		return err
	}
	if len(items) > MaxLights {
		return p.w.errAt(n, "lights", "%d lights, at most %d", len(items), MaxLights)
	}
	for i, it := range items {
		field := fmt.Sprintf("lights[%d]", i)
		r := p.reader(it, field, "type", "position", "direction", "color", "intensity")
		if r.err != nil {
			return r.err
		}
		tn := r.o.get("type")
		if tn == nil {
			return p.w.errAt(it, field, "missing type (point or directional)")
		}
		kind, err := p.w.enum(tn, r.o.path("type"), []string{"point", "directional"})
		if err != nil {
			return err
		}
		l := Light{Kind: LightKind(kind)}
		if l.Kind == PointLight {
			if r.o.get("direction") != nil {
				return p.w.errAt(r.o.get("direction"), r.o.path("direction"), "a point light has a position, not a direction")
			}
			if r.o.get("position") == nil {
				return p.w.errAt(it, field, "missing position")
			}
			l.Position = r.vec3("position", geom.Vec3{}, false)
		} else {
			if r.o.get("position") != nil {
				return p.w.errAt(r.o.get("position"), r.o.path("position"), "a directional light has a direction, not a position")
			}
			dn := r.o.get("direction")
			if dn == nil {
				return p.w.errAt(it, field, "missing direction")
			}
			d := r.vec3("direction", geom.Vec3{}, false)
			if r.err == nil && d.Length() == 0 {
				return p.w.errAt(dn, r.o.path("direction"), "zero vector")
			}
			l.Direction = d.Normalize()
		}
		col := r.vec3("color", geom.Vec3{1, 1, 1}, false)
		l.Color = col.Scale(r.float("intensity", 1, 0, 1e30))
		if r.err != nil {
			return r.err
		}
		p.s.Lights = append(p.s.Lights, l)
	}
	return nil
}

// path resolves a file name from the scene against the scene's directory.
func (p *parser) path(n *yaml.Node, field string) (string, error) {
	f, err := p.w.str(n, field)
	if err != nil {
		return "", err
	}
	if !p.files {
		return "", p.w.errAt(n, field, "file references are not allowed in built-in scenes")
	}
	if p.roots == nil {
		if p.roots, err = p.opt.roots(p.dir); err != nil {
			return "", p.w.errAt(n, field, "%v", err)
		}
	}
	path, err := p.roots.Resolve(p.dir, filepath.FromSlash(f))
	if err != nil {
		return "", p.w.errAt(n, field, "%v", err)
	}
	return path, nil
}

var textureKeys = []string{"file", "procedural", "faces", "layers", "type", "format", "srgb", "mipmaps", "filter",
	"address", "border", "anisotropy", "lod_bias", "min_lod", "max_lod"}

func (p *parser) texture(e entry) error {
	w := p.w
	field := "textures." + e.key
	o, err := w.object(e.v, field, textureKeys...)
	if err != nil {
		return err
	}
	t := Texture{Name: e.key, Mipmaps: true, MaxLOD: DefaultMaxLOD, MaxAnisotropy: DefaultMaxAnisotropy}
	if n := o.get("type"); n != nil {
		v, err := w.enum(n, o.path("type"), textureTypeNames)
		if err != nil {
			return err
		}
		t.Type = TextureType(v)
	}
	ims, err := p.textureSlices(e.v, o, field, t.Type)
	if err != nil {
		return err
	}
	t.Width, t.Height = ims[0].Width, ims[0].Height
	if t.Type == TextureArray || t.Type == Texture3D {
		t.Depth = len(ims)
	}
	t.Pix = make([]byte, 0, len(ims)*t.Width*t.Height*4)
	for _, im := range ims {
		t.Pix = append(t.Pix, im.Pix...)
	}
	if err := p.textureFormat(o, &t); err != nil {
		return err
	}
	if err := p.textureSampler(o, &t); err != nil {
		return err
	}
	p.s.Textures = append(p.s.Textures, t)
	return nil
}

// textureSlices reads the images of a texture of type typ: file or procedural
// for 2D; faces, or a cube or 2D procedural kind for cubes; layers for arrays;
// layers or a volume procedural kind for 3D. Every image is downscaled to the
// maximum texture size and all must have the same size.
func (p *parser) textureSlices(at *yaml.Node, o *object, field string, typ TextureType) ([]*teximage.Image, error) {
	w := p.w
	var given []string
	for _, k := range []string{"file", "procedural", "faces", "layers"} {
		if o.get(k) != nil {
			given = append(given, k)
		}
	}
	want := map[TextureType]string{Texture2D: "file or procedural", TextureCube: "faces or procedural",
		TextureArray: "layers", Texture3D: "layers or procedural"}[typ]
	if len(given) != 1 {
		if len(given) == 0 {
			return nil, w.errAt(at, field, "needs %s", want)
		}
		return nil, w.errAt(at, field, "give one of %s, not %s", want, strings.Join(given, " and "))
	}
	key := given[0]
	n := o.get(key)
	allowed := map[TextureType][]string{Texture2D: {"file", "procedural"}, TextureCube: {"faces", "procedural"},
		TextureArray: {"layers"}, Texture3D: {"layers", "procedural"}}[typ]
	if !slices.Contains(allowed, key) {
		return nil, w.errAt(n, o.path(key), "a %v texture needs %s", typ, want)
	}
	var ims []*teximage.Image
	switch key {
	case "file", "procedural":
		switch {
		case key == "procedural" && typ == TextureCube:
			var err error
			if ims, err = p.proceduralCube(n, o.path(key)); err != nil {
				return nil, err
			}
		case key == "procedural" && typ == Texture3D:
			var err error
			if ims, err = p.proceduralVolume(n, o.path(key)); err != nil {
				return nil, err
			}
		default:
			im, err := p.image(o, key)
			if err != nil {
				return nil, err
			}
			if err := p.keepImage(im); err != nil {
				return nil, w.errAt(n, o.path(key), "%v", err)
			}
			ims = []*teximage.Image{im}
		}
	case "faces", "layers":
		items, err := w.list(n, o.path(key))
		if err != nil {
			return nil, err
		}
		if key == "faces" && len(items) != 6 {
			return nil, w.errAt(n, o.path(key), "a cube map needs 6 faces (+x, -x, +y, -y, +z, -z), got %d", len(items))
		}
		if len(items) < 1 || len(items) > teximage.MaxDepth {
			return nil, w.errAt(n, o.path(key), "%d layers, want 1 to %d", len(items), teximage.MaxDepth)
		}
		for i, it := range items {
			f := fmt.Sprintf("%s[%d]", o.path(key), i)
			src, err := w.object(it, f, "file", "procedural")
			if err != nil {
				return nil, err
			}
			var im *teximage.Image
			switch {
			case src.get("file") != nil && src.get("procedural") != nil:
				return nil, w.errAt(it, f, "give either file or procedural, not both")
			case src.get("file") != nil:
				im, err = p.image(src, "file")
			case src.get("procedural") != nil:
				im, err = p.image(src, "procedural")
			default:
				return nil, w.errAt(it, f, "needs file or procedural")
			}
			if err != nil {
				return nil, err
			}
			if err := p.keepImage(im); err != nil {
				return nil, w.errAt(it, f, "%v", err)
			}
			ims = append(ims, im)
		}
	}
	for i := range ims {
		ims[i] = ims[i].Downscale(p.max)
		if ims[i].Width != ims[0].Width || ims[i].Height != ims[0].Height {
			return nil, w.errAt(n, o.path(key), "image %d is %dx%d, image 0 is %dx%d: all must have the same size",
				i, ims[i].Width, ims[i].Height, ims[0].Width, ims[0].Height)
		}
	}
	if typ == TextureCube && ims[0].Width != ims[0].Height {
		return nil, w.errAt(n, o.path(key), "cube faces must be square, got %dx%d", ims[0].Width, ims[0].Height)
	}
	if err := p.keepCopy(ims); err != nil {
		return nil, w.errAt(n, o.path(key), "%v", err)
	}
	if typ == TextureCube && len(ims) == 1 { // a 2D procedural kind on every face
		for len(ims) < 6 {
			ims = append(ims, ims[0])
		}
	}
	return ims, nil
}

// image reads the image of key "file" or "procedural" (a 2D kind) of o.
func (p *parser) image(o *object, key string) (*teximage.Image, error) {
	n := o.get(key)
	if key == "procedural" {
		return p.proceduralTexture(n, o.path(key))
	}
	path, err := p.path(n, o.path(key))
	if err != nil {
		return nil, err
	}
	im, err := p.loadImage(path)
	if err != nil {
		return nil, p.w.errAt(n, o.path(key), "%v", err)
	}
	return im, nil
}

// textureFormat reads format and srgb.
func (p *parser) textureFormat(o *object, t *Texture) error {
	w := p.w
	if n := o.get("format"); n != nil {
		v, err := w.enum(n, o.path("format"), textureFormatNames)
		if err != nil {
			return err
		}
		t.Format = TextureFormat(v)
	}
	if n := o.get("srgb"); n != nil {
		srgb, err := w.boolean(n, o.path("srgb"))
		if err != nil {
			return err
		}
		if srgb {
			if t.Format != FormatRGBA8 && t.Format != FormatRGBA8SRGB {
				return w.errAt(n, o.path("srgb"), "sRGB needs format rgba8, not %v", t.Format)
			}
			t.Format = FormatRGBA8SRGB
		} else if t.Format == FormatRGBA8SRGB {
			return w.errAt(n, o.path("srgb"), "false contradicts format rgba8_srgb")
		}
	}
	return nil
}

// textureSampler reads mipmaps, filter, address, border, anisotropy and the LOD settings.
func (p *parser) textureSampler(o *object, t *Texture) error {
	w := p.w
	var err error
	if n := o.get("mipmaps"); n != nil {
		if t.Mipmaps, err = w.boolean(n, o.path("mipmaps")); err != nil {
			return err
		}
	}
	t.Filter = FilterBilinear
	if t.Mipmaps {
		t.Filter = FilterTrilinear
	}
	if n := o.get("filter"); n != nil {
		f, err := w.enum(n, o.path("filter"), filterNames)
		if err != nil {
			return err
		}
		t.Filter = Filter(f)
		if (t.Filter == FilterTrilinear || t.Filter == FilterAnisotropic) && !t.Mipmaps {
			return w.errAt(n, o.path("filter"), "%v filtering needs mipmaps", t.Filter)
		}
	}
	if n := o.get("address"); n != nil {
		r, err := w.resolve(n, o.path("address"))
		if err != nil {
			return err
		}
		items := []*yaml.Node{r}
		if r.Kind == yaml.SequenceNode {
			if len(r.Content) != 2 && len(r.Content) != 3 {
				return w.errAt(r, o.path("address"), "expected one mode, [u, v] or [u, v, w], got %d values", len(r.Content))
			}
			items = r.Content
		}
		var modes [3]AddressMode
		for i, it := range items {
			f := o.path("address")
			if r.Kind == yaml.SequenceNode {
				f = fmt.Sprintf("%s[%d]", f, i)
			}
			a, err := w.enum(it, f, addressNames)
			if err != nil {
				return err
			}
			modes[i] = AddressMode(a)
		}
		switch len(items) {
		case 1:
			modes[1], modes[2] = modes[0], modes[0]
		case 2:
			modes[2] = modes[1]
		}
		t.AddressU, t.AddressV, t.AddressW = modes[0], modes[1], modes[2]
	}
	r := &reader{p: p, o: o}
	t.Border = r.color("border", geom.Vec4{})
	t.MaxAnisotropy = r.int("anisotropy", DefaultMaxAnisotropy, 1, 16)
	t.LODBias = r.float("lod_bias", 0, -16, 16)
	t.MinLOD = r.float("min_lod", 0, 0, DefaultMaxLOD)
	t.MaxLOD = r.float("max_lod", DefaultMaxLOD, 0, DefaultMaxLOD)
	if r.err != nil {
		return r.err
	}
	if t.MinLOD > t.MaxLOD {
		return w.errAt(o.get("min_lod"), o.path("min_lod"), "%g is above max_lod %g", t.MinLOD, t.MaxLOD)
	}
	return nil
}

var cubeKinds = []string{"sky", "solid", "checker", "bricks", "bricks_normal", "noise", "leaf", "bumps_normal", "gradient"}

// proceduralCube generates the faces of a cube map: the sky kind, or a 2D
// kind repeated on every face.
func (p *parser) proceduralCube(n *yaml.Node, field string) ([]*teximage.Image, error) {
	kind, err := p.kindOf(n, field, cubeKinds)
	if err != nil {
		return nil, err
	}
	if kind != "sky" {
		im, err := p.proceduralTexture(n, field)
		if err != nil {
			return nil, err
		}
		return []*teximage.Image{im}, nil
	}
	r := p.reader(n, field, "kind", "size", "colors", "sun", "sun_color", "sun_size")
	c := r.colors("colors", geom.Vec4{0.25, 0.45, 0.85, 1}, geom.Vec4{0.75, 0.85, 0.95, 1}, geom.Vec4{0.3, 0.27, 0.22, 1})
	g := teximage.Sky{Size: r.int("size", 128, 1, maxProceduralTexture), Colors: [3]geom.Vec4{c[0], c[1], c[2]},
		Sun: r.vec3("sun", geom.Vec3{0.4, 0.6, -0.7}, false), SunColor: r.color("sun_color", geom.Vec4{1, 0.95, 0.8, 1}),
		SunSize: r.float("sun_size", 3, 0, 90)}
	if r.err != nil {
		return nil, r.err
	}
	ims, err := g.GenerateCube()
	if err != nil {
		return nil, p.w.errAt(n, field, "%v", err)
	}
	return ims, nil
}

var volumeKinds = []string{"noise3d", "checker3d"}

// proceduralVolume generates the slices of a 3D texture.
func (p *parser) proceduralVolume(n *yaml.Node, field string) ([]*teximage.Image, error) {
	kind, err := p.kindOf(n, field, volumeKinds)
	if err != nil {
		return nil, err
	}
	keys := map[string][]string{"noise3d": {"size", "frequency", "octaves", "colors", "seed"},
		"checker3d": {"size", "cells", "colors"}}[kind]
	r := p.reader(n, field, append([]string{"kind"}, keys...)...)
	sz := r.ints("size", []int{32, 32, 32}, 3, 3, 1, teximage.MaxDepth)
	if len(sz) == 1 {
		sz = []int{sz[0], sz[0], sz[0]}
	}
	var g teximage.VolumeGenerator
	switch kind {
	case "noise3d":
		c := r.colors("colors", geom.Vec4{0, 0, 0, 1}, geom.Vec4{1, 1, 1, 1})
		g = teximage.Noise3D{Width: sz[0], Height: sz[1], Depth: sz[2], Frequency: r.int("frequency", 4, 1, 4096),
			Octaves: r.int("octaves", 3, 1, 12), Colors: [2]geom.Vec4{c[0], c[1]}, Seed: r.seed()}
	case "checker3d":
		c := r.colors("colors", geom.Vec4{0.9, 0.9, 0.9, 1}, geom.Vec4{0.2, 0.2, 0.2, 1})
		cells := r.ints("cells", []int{4, 4, 4}, 3, 3, 1, teximage.MaxSize)
		if len(cells) == 1 {
			cells = []int{cells[0], cells[0], cells[0]}
		}
		g = teximage.Checker3D{Width: sz[0], Height: sz[1], Depth: sz[2], Cells: [3]int{cells[0], cells[1], cells[2]},
			Colors: [2]geom.Vec4{c[0], c[1]}}
	}
	if r.err != nil {
		return nil, r.err
	}
	ims, err := g.GenerateVolume()
	if err != nil {
		return nil, p.w.errAt(n, field, "%v", err)
	}
	return ims, nil
}

// kindOf reads the "kind" of a procedural mapping.
func (p *parser) kindOf(n *yaml.Node, field string, kinds []string) (string, error) {
	es, err := p.w.entries(n, field)
	if err != nil {
		return "", err
	}
	for _, e := range es {
		if e.key == "kind" {
			k, err := p.w.enum(e.v, field+".kind", kinds)
			if err != nil {
				return "", err
			}
			return kinds[k], nil
		}
	}
	return "", p.w.errAt(n, field, "missing kind (one of %s)", strings.Join(kinds, ", "))
}

var textureKinds = []string{"solid", "checker", "bricks", "bricks_normal", "noise", "leaf", "bumps_normal", "gradient"}

func (p *parser) proceduralTexture(n *yaml.Node, field string) (*teximage.Image, error) {
	kind, err := p.kindOf(n, field, textureKinds)
	if err != nil {
		return nil, err
	}
	keys := map[string][]string{
		"solid":         {"size", "color"},
		"checker":       {"size", "cells", "colors"},
		"bricks":        {"size", "rows", "columns", "mortar", "colors", "variation", "seed"},
		"bricks_normal": {"size", "rows", "columns", "mortar", "strength"},
		"noise":         {"size", "frequency", "octaves", "colors", "seed"},
		"leaf":          {"size", "colors", "seed"},
		"bumps_normal":  {"size", "count", "radius", "strength", "seed"},
		"gradient":      {"size", "colors", "direction"},
	}[kind]
	r := p.reader(n, field, append([]string{"kind"}, keys...)...)
	size := r.int2("size", [2]int{256, 256}, 1, maxProceduralTexture)
	var g teximage.Generator
	switch kind {
	case "solid":
		g = teximage.Solid{Width: size[0], Height: size[1], Color: r.color("color", geom.Vec4{1, 1, 1, 1})}
	case "checker":
		c := r.colors("colors", geom.Vec4{0.9, 0.9, 0.9, 1}, geom.Vec4{0.2, 0.2, 0.2, 1})
		g = teximage.Checker{Width: size[0], Height: size[1], Cells: r.int2("cells", [2]int{8, 8}, 1, teximage.MaxSize), Colors: [2]geom.Vec4{c[0], c[1]}}
	case "bricks":
		c := r.colors("colors", geom.Vec4{0.62, 0.27, 0.18, 1}, geom.Vec4{0.75, 0.73, 0.68, 1})
		g = teximage.Bricks{Width: size[0], Height: size[1], Rows: r.int("rows", 8, 1, teximage.MaxSize),
			Columns: r.int("columns", 4, 1, teximage.MaxSize), Mortar: r.float("mortar", 0.1, 0, 0.5),
			Colors: [2]geom.Vec4{c[0], c[1]}, Variation: r.float("variation", 0.15, 0, 1), Seed: r.seed()}
	case "bricks_normal":
		g = teximage.BricksNormal{Width: size[0], Height: size[1], Rows: r.int("rows", 8, 1, teximage.MaxSize),
			Columns: r.int("columns", 4, 1, teximage.MaxSize), Mortar: r.float("mortar", 0.1, 0, 0.5),
			Strength: r.float("strength", 2, 0, 100)}
	case "noise":
		c := r.colors("colors", geom.Vec4{0, 0, 0, 1}, geom.Vec4{1, 1, 1, 1})
		g = teximage.Noise{Width: size[0], Height: size[1], Frequency: r.int("frequency", 4, 1, 4096),
			Octaves: r.int("octaves", 4, 1, 12), Colors: [2]geom.Vec4{c[0], c[1]}, Seed: r.seed()}
	case "leaf":
		c := r.colors("colors", geom.Vec4{0.25, 0.55, 0.12, 1}, geom.Vec4{0.55, 0.75, 0.3, 1})
		g = teximage.Leaf{Width: size[0], Height: size[1], Colors: [2]geom.Vec4{c[0], c[1]}, Seed: r.seed()}
	case "bumps_normal":
		g = teximage.BumpsNormal{Width: size[0], Height: size[1], Count: r.int2("count", [2]int{8, 8}, 1, teximage.MaxSize),
			Radius: r.float("radius", 0.4, 0, 0.5), Strength: r.float("strength", 1, 0, 100), Seed: r.seed()}
	case "gradient":
		c := r.colors("colors", geom.Vec4{1, 1, 1, 1}, geom.Vec4{0, 0, 0, 1})
		dir := r.enum("direction", 0, []string{"vertical", "horizontal"})
		g = teximage.Gradient{Width: size[0], Height: size[1], Colors: [2]geom.Vec4{c[0], c[1]}, Horizontal: dir == 1}
	}
	if r.err != nil {
		return nil, r.err
	}
	im, err := g.Generate()
	if err != nil {
		return nil, p.w.errAt(n, field, "%v", err)
	}
	return im, nil
}

var meshKinds = []string{"plane", "cube", "sphere", "torus", "terrain", "flock", "leaves", "triangle"}

func (p *parser) mesh(e entry, needFileMaterials bool) error {
	w := p.w
	field := "meshes." + e.key
	o, err := w.object(e.v, field, "file", "procedural", "fit")
	if err != nil {
		return err
	}
	var model *mesh.Model
	var parts []*mesh.Mesh
	fit := geom.Identity()
	fn, pn := o.get("file"), o.get("procedural")
	switch {
	case fn != nil && pn != nil:
		return w.errAt(e.v, field, "give either file or procedural, not both")
	case fn != nil:
		path, err := p.path(fn, o.path("file"))
		if err != nil {
			return err
		}
		model, err = mesh.Load(path, p.meshOptions(!needFileMaterials))
		if err != nil {
			return w.errAt(fn, o.path("file"), "%v", err)
		}
		for _, part := range model.Parts {
			parts = append(parts, part.Mesh)
		}
	case pn != nil:
		m, err := p.proceduralMesh(pn, o.path("procedural"))
		if err != nil {
			return err
		}
		parts = []*mesh.Mesh{m}
	default:
		return w.errAt(e.v, field, "needs file or procedural")
	}
	if n := o.get("fit"); n != nil {
		size, err := w.float(n, o.path("fit"), 1e-6, 1e30)
		if err != nil {
			return err
		}
		fit = fitMeshes(size, parts...)
	}
	var m *mesh.Mesh
	if model != nil {
		m = model.Merged()
	} else {
		m = parts[0]
	}
	m.Name = e.key
	p.b.fit[p.b.addMesh(m, model)] = fit
	return nil
}

func (p *parser) proceduralMesh(n *yaml.Node, field string) (*mesh.Mesh, error) {
	kind, err := p.kindOf(n, field, meshKinds)
	if err != nil {
		return nil, err
	}
	keys := map[string][]string{
		"plane":    {"size", "segments", "uv_scale"},
		"cube":     {"size", "segments", "uv_scale"},
		"sphere":   {"radius", "stacks", "slices", "uv_scale"},
		"torus":    {"major_radius", "minor_radius", "segments", "sides", "uv_scale"},
		"terrain":  {"size", "segments", "height", "frequency", "octaves", "seed", "uv_scale"},
		"flock":    {"count", "volume", "size", "flap", "phase", "seed"},
		"leaves":   {"count", "radii", "size", "seed"},
		"triangle": {"vertices", "colors"},
	}[kind]
	r := p.reader(n, field, append([]string{"kind"}, keys...)...)
	const big = 1e30
	var g mesh.Generator
	switch kind {
	case "plane":
		g = mesh.Plane{Size: r.vec2("size", geom.Vec2{1, 1}), Segments: r.int2("segments", [2]int{1, 1}, 1, mesh.MaxSegments),
			UVScale: r.vec2("uv_scale", geom.Vec2{1, 1})}
	case "cube":
		g = mesh.Cube{Size: r.vec3("size", geom.Vec3{1, 1, 1}, true), Segments: r.int("segments", 1, 1, mesh.MaxSegments),
			UVScale: r.vec2("uv_scale", geom.Vec2{1, 1})}
	case "sphere":
		g = mesh.Sphere{Radius: r.float("radius", 1, 0, big), Stacks: r.int("stacks", 16, 2, mesh.MaxSegments),
			Slices: r.int("slices", 32, 3, mesh.MaxSegments), UVScale: r.vec2("uv_scale", geom.Vec2{1, 1})}
	case "torus":
		g = mesh.Torus{MajorRadius: r.float("major_radius", 1, 0, big), MinorRadius: r.float("minor_radius", 0.25, 0, big),
			Segments: r.int("segments", 48, 3, mesh.MaxSegments), Sides: r.int("sides", 16, 3, mesh.MaxSegments),
			UVScale: r.vec2("uv_scale", geom.Vec2{1, 1})}
	case "terrain":
		g = mesh.Terrain{Size: r.vec2("size", geom.Vec2{10, 10}), Segments: r.int2("segments", [2]int{64, 64}, 1, mesh.MaxSegments),
			Height: r.float("height", 1, 0, big), Frequency: r.float("frequency", 0.3, 0, big), Octaves: r.int("octaves", 4, 1, 12),
			Seed: r.seed(), UVScale: r.vec2("uv_scale", geom.Vec2{1, 1})}
	case "flock":
		g = mesh.Flock{Count: r.int("count", 100, 1, mesh.MaxVertices/6), Volume: r.vec3("volume", geom.Vec3{4, 2, 4}, true),
			Size: r.float("size", 0.2, 0, big), Flap: r.float("flap", 30, -90, 90), Phase: r.float("phase", 0, -big, big), Seed: r.seed()}
	case "leaves":
		g = mesh.Leaves{Count: r.int("count", 200, 1, mesh.MaxVertices/4), Radii: r.vec3("radii", geom.Vec3{1, 1, 1}, true),
			Size: r.float("size", 0.2, 0, big), Seed: r.seed()}
	case "triangle":
		t := mesh.Triangle{Vertices: [3]geom.Vec3{{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}}}
		if vs := r.vecList("vertices", 3, 3, 3); vs != nil {
			for i := range vs {
				t.Vertices[i] = geom.Vec3{vs[i][0], vs[i][1], vs[i][2]}
			}
		}
		if cs := r.vecList("colors", 3, 3, 4); cs != nil {
			for i := range cs {
				t.Colors[i] = toColor(cs[i])
			}
			t.HasColors = true
		}
		g = t
	}
	if r.err != nil {
		return nil, r.err
	}
	m, err := g.Generate()
	if err != nil {
		return nil, p.w.errAt(n, field, "%v", err)
	}
	return m, nil
}

var reservedMaterials = []string{fromFile, fromMTL}

func (p *parser) material(e entry) error {
	w := p.w
	field := "materials." + e.key
	if contains(reservedMaterials, e.key) {
		return w.errAt(e.kn, field, "%s is reserved (it draws a file mesh with its own materials)", inputs.Quote(e.key))
	}
	o, err := w.object(e.v, field, "shader", "params", "textures", "cull", "front_ccw", "depth_test", "depth_write", "depth_func", "blend", "decoupled")
	if err != nil {
		return err
	}
	sn := o.get("shader")
	if sn == nil {
		return w.errAt(e.v, field, "missing shader (one of %s)", strings.Join(ShaderNames(), ", "))
	}
	name, err := w.str(sn, o.path("shader"))
	if err != nil {
		return err
	}
	info, ok := LookupShader(name)
	if !ok {
		return w.errAt(sn, o.path("shader"), "unknown shader %s (want one of %s)", inputs.Quote(name), strings.Join(ShaderNames(), ", "))
	}
	m := Material{Name: e.key, Shader: name, State: DefaultState(), Decoupled: p.decoupled}
	if n := o.get("decoupled"); n != nil {
		if m.Decoupled, err = p.decoupling(n, o.path("decoupled"), p.decoupled); err != nil {
			return err
		}
	}
	if n := o.get("params"); n != nil {
		es, err := w.entries(n, o.path("params"))
		if err != nil {
			return err
		}
		vals := map[string]geom.Vec4{}
		for _, pe := range es {
			pf := o.path("params") + "." + pe.key
			if !contains(info.Params, pe.key) {
				return w.errAt(pe.kn, pf, "unknown parameter of shader %s (want %s)", name, listOrNone(info.Params))
			}
			v, err := w.floats(pe.v, pf, 1, 4, true)
			if err != nil {
				return err
			}
			vals[pe.key] = toParam(v)
		}
		for _, pn := range info.Params {
			if v, ok := vals[pn]; ok {
				m.Params = append(m.Params, Param{pn, v})
			}
		}
	}
	bound := map[string]int{}
	if n := o.get("textures"); n != nil {
		es, err := w.entries(n, o.path("textures"))
		if err != nil {
			return err
		}
		for _, te := range es {
			tf := o.path("textures") + "." + te.key
			if !contains(info.Samplers, te.key) {
				return w.errAt(te.kn, tf, "unknown sampler of shader %s (want %s)", name, listOrNone(info.Samplers))
			}
			tn, err := w.str(te.v, tf)
			if err != nil {
				return err
			}
			ti := p.s.TextureIndex(tn)
			if ti < 0 {
				return w.errAt(te.v, tf, "unknown texture %s", inputs.Quote(tn))
			}
			if want, ok := SamplerType(name, te.key); ok && want != p.s.Textures[ti].Type {
				return w.errAt(te.v, tf, "texture %s is a %v texture, sampler %s of shader %s samples %v textures",
					inputs.Quote(tn), p.s.Textures[ti].Type, te.key, name, want)
			}
			bound[te.key] = ti
		}
	}
	for _, smp := range info.Samplers {
		ti, ok := bound[smp]
		if !ok {
			at, f := e.v, field
			if n := o.get("textures"); n != nil {
				at, f = n, o.path("textures")
			}
			return w.errAt(at, f, "shader %s needs a texture for sampler %s", name, smp)
		}
		m.Textures = append(m.Textures, Binding{smp, ti})
	}
	st := &m.State
	if n := o.get("cull"); n != nil {
		v, err := w.enum(n, o.path("cull"), cullNames)
		if err != nil {
			return err
		}
		st.Cull = CullMode(v)
	}
	for _, b := range []struct {
		key string
		dst *bool
	}{{"front_ccw", &st.FrontCCW}, {"depth_test", &st.DepthTest}, {"depth_write", &st.DepthWrite}} {
		if n := o.get(b.key); n != nil {
			if *b.dst, err = w.boolean(n, o.path(b.key)); err != nil {
				return err
			}
		}
	}
	if n := o.get("depth_func"); n != nil {
		v, err := w.enum(n, o.path("depth_func"), compareNames)
		if err != nil {
			return err
		}
		st.DepthFunc = CompareFunc(v)
	}
	if n := o.get("blend"); n != nil {
		v, err := w.enum(n, o.path("blend"), blendNames)
		if err != nil {
			return err
		}
		st.Blend = BlendMode(v)
	}
	p.s.Materials = append(p.s.Materials, m)
	return nil
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}

// toParam widens 1 to 4 numbers to a parameter: one number is replicated, and
// missing components of 2 or 3 numbers are taken from (0, 0, 0, 1).
func toParam(v []float32) geom.Vec4 {
	switch len(v) {
	case 1:
		return geom.Vec4{v[0], v[0], v[0], v[0]}
	case 2:
		return geom.Vec4{v[0], v[1], 0, 1}
	case 3:
		return geom.Vec4{v[0], v[1], v[2], 1}
	}
	return geom.Vec4{v[0], v[1], v[2], v[3]}
}

// toColor widens 3 or 4 numbers to RGBA (alpha 1).
func toColor(v []float32) geom.Vec4 {
	if len(v) == 3 {
		return geom.Vec4{v[0], v[1], v[2], 1}
	}
	return geom.Vec4{v[0], v[1], v[2], v[3]}
}

// trs is a transform as translation, Euler rotation (degrees, X then Y then
// Z) and scale: M = T * R * S.
type trs struct{ t, r, s geom.Vec3 }

var identityTRS = trs{s: geom.Vec3{1, 1, 1}}

func (x trs) matrix() geom.Mat4 {
	return geom.Translate(x.t).Mul(geom.RotateEulerDegrees(x.r)).Mul(geom.Scale(x.s))
}

// lerp interpolates component-wise: (1-u)*a + u*b, exact at u = 0 and u = 1.
func (x trs) lerp(y trs, u float32) trs {
	if x == y {
		return x
	}
	l := func(a, b geom.Vec3) geom.Vec3 {
		return geom.Vec3{(1-u)*a[0] + u*b[0], (1-u)*a[1] + u*b[1], (1-u)*a[2] + u*b[2]}
	}
	return trs{l(x.t, y.t), l(x.r, y.r), l(x.s, y.s)}
}

func (p *parser) trs(n *yaml.Node, field string, def trs) (trs, error) {
	r := p.reader(n, field, "translate", "rotate", "scale")
	x := trs{
		t: r.vec3("translate", def.t, false),
		r: r.vec3("rotate", def.r, false),
		s: r.vec3("scale", def.s, true),
	}
	if r.err == nil && (x.s[0] == 0 || x.s[1] == 0 || x.s[2] == 0) {
		return x, p.w.errAt(r.o.get("scale"), r.o.path("scale"), "%v has a zero component", x.s)
	}
	return x, r.err
}

// instance is one copy of a repeated object: its start and end transforms and
// its name suffix.
type instance struct {
	start, end trs
	suffix     string
}

func (p *parser) object(n *yaml.Node, field string) error {
	w := p.w
	o, err := w.object(n, field, "name", "mesh", "material", "transform", "motion", "repeat", "animation", "bats")
	if err != nil {
		return err
	}
	if o.get("bats") != nil {
		return p.batsObject(n, o, field)
	}
	mn := o.get("mesh")
	if mn == nil {
		return w.errAt(n, field, "missing mesh")
	}
	meshName, err := w.str(mn, o.path("mesh"))
	if err != nil {
		return err
	}
	mi := p.s.MeshIndex(meshName)
	if mi < 0 || p.b.isPart(mi) {
		return w.errAt(mn, o.path("mesh"), "unknown mesh %s", inputs.Quote(meshName))
	}
	matNode := o.get("material")
	if matNode == nil {
		return w.errAt(n, field, "missing material (a material name, or %s)", fromFile)
	}
	matName, err := w.str(matNode, o.path("material"))
	if err != nil {
		return err
	}
	var draws []draw
	if matName == fromFile || matName == fromMTL {
		if p.b.models[mi] == nil {
			return w.errAt(matNode, o.path("material"), "%s needs a mesh loaded from a file; %s is procedural", matName, inputs.Quote(meshName))
		}
		draws = p.b.fileDraws(mi)
	} else {
		ma := p.s.MaterialIndex(matName)
		if ma < 0 || p.b.isFileMaterial(ma) {
			return w.errAt(matNode, o.path("material"), "unknown material %s", inputs.Quote(matName))
		}
		draws = []draw{{mi, ma}}
	}
	for _, d := range draws {
		if err := needsTexCoords(&p.s.Materials[d.material], p.s.Meshes[d.mesh]); err != nil {
			return w.errAt(matNode, o.path("material"), "%v", err)
		}
	}
	name := meshName
	if nn := o.get("name"); nn != nil {
		if name, err = w.str(nn, o.path("name")); err != nil {
			return err
		}
	}
	start := identityTRS
	if tn := o.get("transform"); tn != nil {
		if start, err = p.trs(tn, o.path("transform"), identityTRS); err != nil {
			return err
		}
	}
	end := start
	if mo := o.get("motion"); mo != nil {
		if end, err = p.trs(mo, o.path("motion"), start); err != nil {
			return err
		}
	}
	insts := []instance{{start, end, ""}}
	if rn := o.get("repeat"); rn != nil {
		if insts, err = p.repeat(rn, o.path("repeat"), start, end); err != nil {
			return err
		}
	}
	anim, err := p.objectAnimation(o, mi)
	if err != nil {
		return err
	}
	motions := make([][2]geom.Mat4, len(draws))
	for k := range motions {
		motions[k] = [2]geom.Mat4{geom.Identity(), geom.Identity()}
	}
	if anim != nil {
		if draws, motions = p.b.animatedDraws(mi, draws, anim, matName == fromFile || matName == fromMTL); len(draws) == 0 {
			return w.errAt(n, field, "no parts to draw")
		}
	}
	if len(p.s.Objects)+len(insts)*len(draws) > maxInstances {
		return w.errAt(n, field, "more than %d objects in the scene", maxInstances)
	}
	cam := p.s.Camera
	for _, in := range insts {
		t0 := in.start.lerp(in.end, cam.ShutterOpen).matrix()
		t1 := in.start.lerp(in.end, cam.ShutterClose).matrix()
		for k, d := range draws {
			on := name + in.suffix
			if len(draws) > 1 {
				on = fmt.Sprintf("%s/%d", on, k)
			}
			a, b := mulMotion(t0, motions[k][0]), mulMotion(t1, motions[k][1])
			p.s.Objects = append(p.s.Objects, Object{
				Name: on, Mesh: d.mesh, Material: d.material,
				Transform: a, EndTransform: b, Moving: a != b,
			})
		}
	}
	return nil
}

// mulMotion returns t * m, or t itself when m is the identity (so static
// objects keep their transforms bit for bit).
func mulMotion(t, m geom.Mat4) geom.Mat4 {
	if m == geom.Identity() {
		return t
	}
	return t.Mul(m)
}

// isPart reports whether scene mesh i was added for a part of a file mesh
// (such meshes cannot be named by objects).
func (b *builder) isPart(i int) bool { return b.partMesh[i] }

// isFileMaterial reports whether scene material i was converted from a mesh
// file (such materials cannot be named by objects).
func (b *builder) isFileMaterial(i int) bool { return b.fileMat[i] }

func (p *parser) repeat(n *yaml.Node, field string, start, end trs) ([]instance, error) {
	w := p.w
	r := p.reader(n, field, "count", "step", "jitter", "order", "seed")
	count := r.ints("count", []int{1, 1, 1}, 1, 3, 1, maxInstances)
	step := r.vec3("step", geom.Vec3{}, false)
	order := r.enum("order", 0, []string{"forward", "reverse", "shuffle"})
	seed := r.seed()
	if r.err != nil {
		return nil, r.err
	}
	for len(count) < 3 {
		count = append(count, 1)
	}
	total := int64(count[0]) * int64(count[1]) * int64(count[2])
	if total > maxInstances {
		return nil, w.errAt(r.o.get("count"), r.o.path("count"), "%d instances, at most %d", total, maxInstances)
	}
	var jt, jr geom.Vec3
	var js float32
	if jn := r.o.get("jitter"); jn != nil {
		jrd := p.reader(jn, r.o.path("jitter"), "translate", "rotate", "scale")
		jt = jrd.vec3("translate", geom.Vec3{}, true)
		jr = jrd.vec3("rotate", geom.Vec3{}, true)
		js = jrd.float("scale", 0, 0, 0.999)
		if jrd.err != nil {
			return nil, jrd.err
		}
		for k := 0; k < 3; k++ {
			if jt[k] < 0 || jr[k] < 0 {
				return nil, w.errAt(jn, r.o.path("jitter"), "jitter amplitudes must be non-negative")
			}
		}
	}
	g := rng.New(seed)
	out := make([]instance, 0, total)
	for iz := 0; iz < count[2]; iz++ {
		for iy := 0; iy < count[1]; iy++ {
			for ix := 0; ix < count[0]; ix++ {
				off := geom.Vec3{step[0] * float32(ix), step[1] * float32(iy), step[2] * float32(iz)}
				off = off.Add(geom.Vec3{g.Symmetric(jt[0]), g.Symmetric(jt[1]), g.Symmetric(jt[2])})
				rot := geom.Vec3{g.Symmetric(jr[0]), g.Symmetric(jr[1]), g.Symmetric(jr[2])}
				sc := 1 + g.Symmetric(js)
				apply := func(x trs) trs {
					return trs{x.t.Add(off), x.r.Add(rot), x.s.Scale(sc)}
				}
				out = append(out, instance{apply(start), apply(end), fmt.Sprintf("[%d]", len(out))})
			}
		}
	}
	switch order {
	case 1:
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	case 2:
		for i := len(out) - 1; i > 0; i-- {
			j := g.Intn(i + 1)
			out[i], out[j] = out[j], out[i]
		}
	}
	return out, nil
}
