package study

import (
	"fmt"
	"image"
	"time"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// Frame is one functional frame of the study: a scene at a size and sample
// count, its blur scale (scene.WithBlur), animation frame, and the
// decoupled-sampling setting given to every material.
type Frame struct {
	Scene                  string
	Width, Height, Samples int
	Blur                   float64
	Index                  int // animation frame
	Decoupling             scene.Decoupling
	KeepImage              bool // keep the resolved image (image-error comparisons)
}

// String names the frame by its fields, as errors show it: "scene room,
// 64x36, 4 spp, blur 1, frame 0, adaptive (rate 1)".
func (f Frame) String() string {
	return fmt.Sprintf("scene %s, %dx%d, %d spp, blur %g, frame %d, %s (rate %g)",
		f.Scene, f.Width, f.Height, f.Samples, f.Blur, f.Index, variantName(f), f.Decoupling.Rate)
}

// Point is a measured frame.
type Point struct {
	Frame
	Counts
	// Ref are the reference renderer's decoupling counters (its memo is
	// unbounded: Ref.ShadingQuads equals the unbounded global cache's count).
	Ref     reference.DecoupledCounters
	Image   *image.RGBA
	Seconds float64 // wall time of the render
}

// BlurArea is the mean number of pixels one shading sample touches (a 2D-path
// pixel's shading sample touches one).
func (p *Point) BlurArea() float64 {
	s := p.Ref.ShadingSamplesRead + p.Pixels2D
	if s == 0 {
		return 0
	}
	return float64(p.Ref.ShadingPixelPairs+p.Pixels2D) / float64(s)
}

// Rate is shader invocations per covered pixel with q shading quads.
func (p *Point) Rate(q int64) float64 { return decouple.ShadingRate(q, p.CoveredPixels) }

// Savings is the factor saved against idealized supersampling with q shading quads.
func (p *Point) Savings(q int64) float64 { return decouple.Savings(p.VisibleSamples, q) }

// BinSpread is tiles per primitive of the sort-middle model
// (decouple.TiledModel.MeanBinSpread).
func (c *Counts) BinSpread() float64 {
	if c.Primitives == 0 {
		return 0
	}
	return float64(c.BinEntries) / float64(c.Primitives)
}

// TexelHitRate is the texture L1's per-texel hit rate.
func (p *Point) TexelHitRate() float64 {
	if p.Texels == 0 {
		return 0
	}
	return float64(p.TexelHits) / float64(p.Texels)
}

// global returns the shading quads of the global cache of entries (Unbounded
// for memoization); ok is false when the frame did not model it.
func (p *Point) global(entries int) (int64, bool) { return find(p.Global, entries) }

func (p *Point) tiled(entries int) (int64, bool) { return find(p.Tiled, entries) }

func find(cs []CacheCount, entries int) (int64, bool) {
	for _, c := range cs {
		if c.Entries == entries {
			return c.ShadingQuads, true
		}
	}
	return 0, false
}

// rop returns the framebuffer bytes of ROP configuration r.
func (p *Point) rop(r ROPCache) (int64, bool) {
	for _, c := range p.ROP {
		if c.ROPCache == r {
			return c.Bytes, true
		}
	}
	return 0, false
}

// Render renders frame f with the reference renderer (pattern seed seed) and
// the models m watching, within the memory budget b (nil: the default
// budget): a frame larger than the budget is refused before it is drawn.
func Render(f Frame, m Models, seed uint64, b *inputs.Budget) (*Point, error) {
	if b == nil {
		b = inputs.NewBudget(0)
	}
	s, err := expt.LoadScene(f.Scene, f.Width, f.Height, f.Samples, scene.WithBlur(float32(f.Blur)), scene.WithFrame(f.Index))
	if err != nil {
		return nil, err
	}
	if err := expt.ReserveFrame(b, s); err != nil {
		return nil, err
	}
	for i := range s.Materials {
		s.Materials[i].Decoupled = f.Decoupling
	}
	fr, err := driver.Encode(s, driver.DefaultOptions())
	if err != nil {
		return nil, err
	}
	p, err := newProbe(fr.Memory, s.Width, s.Height, s.Samples, m)
	if err != nil {
		return nil, err
	}
	o := reference.DefaultOptions()
	o.Observer = p
	o.PatternSeed = seed
	t0 := time.Now()
	res, err := reference.Render(fr.Memory, fr.Stream, fr.StreamBytes, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	pt := &Point{Frame: f, Counts: p.finish(), Ref: res.Counters.Decoupled, Seconds: time.Since(t0).Seconds()}
	pt.Width, pt.Height, pt.Samples = s.Width, s.Height, s.Samples
	if f.KeepImage {
		pt.Image = res.Image
	}
	return pt, nil
}
