package scene

// The scene file parser, textures: file references, images, formats, samplers
// and procedural textures.

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene/teximage"
)

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
	if err := enumField(w, o, "type", textureTypeNames, &t.Type); err != nil {
		return err
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
	if typ == TextureCube && len(ims) == 1 { // a 2D procedural kind on every face
		for len(ims) < 6 {
			ims = append(ims, ims[0])
		}
	}
	if err := p.keepCopy(ims); err != nil {
		return nil, w.errAt(n, o.path(key), "%v", err)
	}
	return ims, nil
}

// image reads the image of key "file" or "procedural" (a 2D kind) of o,
// reserved in the budget.
func (p *parser) image(o *object, key string) (*teximage.Image, error) {
	n := o.get(key)
	if key == "procedural" {
		return p.proceduralTexture(n, o.path(key))
	}
	path, err := p.path(n, o.path(key))
	if err != nil {
		return nil, err
	}
	im, err := p.loadImage(path, inputs.QuotePath(n.Value)) // as the scene writes it
	if err != nil {
		return nil, p.w.errAt(n, o.path(key), "%v", err)
	}
	return im, nil
}

// textureFormat reads format and srgb.
func (p *parser) textureFormat(o *object, t *Texture) error {
	w := p.w
	if err := enumField(w, o, "format", textureFormatNames, &t.Format); err != nil {
		return err
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
	if err := p.reserveGenerated(r, n, field, 6, g.Size, g.Size); err != nil {
		return nil, err
	}
	return generated(p, r, n, field, g.GenerateCube)
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
	if err := p.reserveGenerated(r, n, field, sz[2], sz[0], sz[1]); err != nil {
		return nil, err
	}
	return generated(p, r, n, field, g.GenerateVolume)
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
	if err := p.reserveGenerated(r, n, field, 1, size[0], size[1]); err != nil {
		return nil, err
	}
	return generated(p, r, n, field, g.Generate)
}

var meshKinds = []string{"plane", "cube", "sphere", "torus", "terrain", "flock", "leaves", "triangle"}
