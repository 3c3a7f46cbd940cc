package configs

import (
	"fmt"
	"image"

	"github.com/gfxsim/gfxsim/functional/filter"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/functional/samplepattern"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// ReferenceOptions returns the reference renderer's options for this machine:
// its raster order, vertex batches, warps, pattern seed and hierarchical-Z
// decisions (so that it counts what the machine counts); on the SAGE
// machine also its pattern RAM, per-sample shading and the convolve chips'
// video output at Present (the image the timed SAGE machine must equal).
func (c *Config) ReferenceOptions() (reference.Options, error) {
	o := reference.DefaultOptions()
	o.Raster = c.RasterOptions()
	o.BatchVertices = c.InputAssembler.BatchVertices
	o.WarpQuads = c.QuadPacker.QuadsPerWarp
	o.PatternSeed = c.PatternSeed()
	if c.Machine != "sage" {
		o.Hooks = c.ReferenceHooks() // the machine's hierarchical-Z decisions
		return o, nil
	}
	o.WarpQuads = c.Sage.Fill.QuadsPerWarp
	table, err := c.SageFilter()
	if err != nil {
		return o, err
	}
	conv := filter.NewConvolver(table)
	pattern := o.Raster.PatternTable
	o.Sage = &reference.SageOptions{PixelRate: c.Sage.Fill.PixelRate,
		Display: func(ct *framebuffer.ColorTarget) (*image.RGBA, error) {
			w, h, step, err := c.VideoSize(ct.Width, ct.Height)
			if err != nil {
				return nil, err
			}
			return filter.Display(w, h, ct.Samples, pattern, ct, conv, step, nil)
		}}
	return o, nil
}

// RenderReference renders frame f on the reference renderer with this
// machine's options (ReferenceOptions): the image and counters the timed
// machine must match.
func (c *Config) RenderReference(f *driver.Frame) (*reference.Result, error) {
	return c.RenderReferenceWith(f, nil)
}

// RenderReferenceWith is RenderReference with the options changed by adjust
// first (nil: none), for a study that sets batches, an observer or the
// display.
func (c *Config) RenderReferenceWith(f *driver.Frame, adjust func(*reference.Options) error) (*reference.Result, error) {
	o, err := c.ReferenceOptions()
	if err != nil {
		return nil, err
	}
	if adjust != nil {
		if err := adjust(&o); err != nil {
			return nil, err
		}
	}
	return reference.Render(f.Memory, f.Stream, f.StreamBytes, o)
}

// SagePattern returns the SAGE machine's pattern RAM, generated from
// sage.pattern.seed.
func (c *Config) SagePattern() *samplepattern.Table {
	return samplepattern.Generate(uint64(c.Sage.Pattern.Seed))
}

// VideoSize returns the SAGE video output's size for a rendered raster of
// width x height and the convolution centres' step in rendered pixels: the
// rendered size unless sage.video sets one (resizing, §7.2), by one factor on
// both axes.
func (c *Config) VideoSize(width, height int) (w, h int, step float64, err error) {
	w, h = c.Sage.Video.Width, c.Sage.Video.Height
	if w == 0 && h == 0 {
		return width, height, 1, nil
	}
	fail := func(format string, a ...any) error {
		return &Error{File: DefaultNameOr(c.file), Line: c.lineOf("sage.video.width", "sage.video.height"), Field: "sage.video",
			Msg: fmt.Sprintf("%dx%d output from a %dx%d render: ", w, h, width, height) + fmt.Sprintf(format, a...)}
	}
	if w == 0 || h == 0 || width*h != height*w {
		return 0, 0, 0, fail("resizing scales both axes by one factor")
	}
	step = float64(width) / float64(w)
	if step > filter.MaxStep {
		return 0, 0, 0, fail("a reduction by %v; the convolve chips' 5x5 window reaches at most %d source pixels per output pixel",
			step, filter.MaxStep)
	}
	return w, h, step, nil
}
