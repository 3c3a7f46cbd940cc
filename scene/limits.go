package scene

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene/mesh"
	"github.com/gfxsim/gfxsim/scene/teximage"
)

// WithAllowPaths adds folder trees that the files a scene names (meshes,
// images, and the files those name) may be read from, besides the scene
// file's own folder tree (the -allow-path flag of the experiments).
func WithAllowPaths(dirs ...string) Option {
	return func(o *options) { o.allow = append(o.allow, dirs...) }
}

// WithBudget makes the load reserve the memory of what it decodes and builds
// (images, meshes) in b, and refuse what exceeds it (nil: the default budget,
// for each allocation alone). An experiment shares one budget between the
// machine, the scene and the frame (see Scene.FrameBytes).
func WithBudget(b *inputs.Budget) Option { return func(o *options) { o.budget = b } }

// roots returns the folder trees a scene file in dir may read from.
func (o options) roots(dir string) (*inputs.Roots, error) {
	r, err := inputs.NewRoots(o.allow...)
	if err != nil {
		return nil, fmt.Errorf("-allow-path: %v", err)
	}
	return r.With(dir)
}

// meshOptions are the mesh loading options of a scene.
func (p *parser) meshOptions(skipMaterials bool) mesh.LoadOptions {
	return mesh.LoadOptions{MaxTextureSize: p.max, SkipMaterials: skipMaterials, Roots: p.roots, Named: true, Budget: p.opt.budget}
}

// loadImage reads the image file at path, which the scene names as name, its
// decoding peak checked against the scene's budget from its header,
// downscales it and reserves it; a file named by several textures is decoded
// and reserved once.
func (p *parser) loadImage(path, name string) (*teximage.Image, error) {
	p.images.MaxSize, p.images.Budget, p.images.Roots = p.max, p.opt.budget, p.roots
	return p.images.LoadNamed(path, name)
}

// reserveGenerated reserves, before they are generated, the n RGBA8 images of
// w x h texels of a procedural texture read by r (nothing when r has an
// error, which generated reports), so that a texture of many layers (aliases
// of one large procedural image) or a large sky stops at the first image past
// the budget with nothing allocated for it.
func (p *parser) reserveGenerated(r *reader, n *yaml.Node, field string, images, w, h int) error {
	if r.err != nil {
		return nil
	}
	what := fmt.Sprintf("the %dx%d image", w, h)
	if images > 1 {
		what = fmt.Sprintf("the %d images of %dx%d", images, w, h)
	}
	if err := p.opt.budget.Reserve(what, int64(images)*int64(w)*int64(h)*4); err != nil {
		return p.w.errAt(n, field, "%v", err)
	}
	return nil
}

// keepCopy reserves the texture's copy of its images.
func (p *parser) keepCopy(ims []*teximage.Image) error {
	return p.opt.budget.Reserve(fmt.Sprintf("the texture of %d images", len(ims)), int64(len(ims))*int64(len(ims[0].Pix)))
}

// texelBits are the bits per texel of each storage format.
var texelBits = map[TextureFormat]int64{
	FormatRGBA8: 32, FormatRGBA8SRGB: 32, FormatR8: 8, FormatRG8: 16, FormatRGBA16F: 64, FormatRGBA32F: 128,
	FormatBC1: 4, FormatBC2: 8, FormatBC3: 8, FormatBC4: 4, FormatBC5: 8,
}

// StorageBytes estimates the bytes the driver stores texture t in: its
// texels in its format, with a third more for the mip chain.
func (t *Texture) StorageBytes() int64 {
	n := int64(t.Width) * int64(t.Height) * int64(max(1, t.Slices())) * texelBits[t.Format] / 8
	if t.Mipmaps {
		n += n / 3
	}
	return n
}

// FrameBytes estimates the simulated memory the driver builds for the scene
// at its resolution and sample count, which the reference renderer and the
// timed machine then work on: the colour and depth targets (4 + 4 bytes per
// sample) and the resolved image, every texture in its storage format with
// its mips, the vertex and index buffers (64 bytes per vertex, 4 per index),
// the stream-out buffers with their filled-size counters (256 bytes each, as
// aligned), and the command stream (256 bytes per object).
func (s *Scene) FrameBytes() int64 {
	px := int64(s.Width) * int64(s.Height)
	n := px*int64(max(1, s.Samples))*8 + 2*4*px
	for i := range s.Textures {
		n += s.Textures[i].StorageBytes()
	}
	for _, m := range s.Meshes {
		n += 64*int64(m.VertexCount()) + 4*int64(len(m.Indices))
	}
	for _, b := range s.StreamBuffers {
		n += int64(b.Size) + 256
	}
	return n + 256*int64(len(s.Objects))
}
