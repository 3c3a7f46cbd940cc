// Package samplebuffer is the SAGE sample buffer's organisation (Deering &
// Naegle 2002, §3.5): 32 3DRAM chips as independent interleaves of chips that
// share one control, address and data bus, samples interleaved per sample so
// that adjacent samples of a pixel's list sit in different packages, and the
// capacity that bounds resolution times density.
//
// The paper does not give the map from a sample to its chip. The choice made
// here (docs: configs/README.md, sage.sample_buffer): number the samples of
// the raster in list order, g = (y*Width + x)*Samples + s; the sample lives in
// chip g mod Chips, which belongs to interleave chip mod Interleaves (so that
// consecutive samples also go to different interleaves and spread the write
// load), at row g / Chips of that chip. A pixel's samples are therefore in
// min(Samples, Chips) different packages.
package samplebuffer

import "fmt"

// The shipped board's sample buffer.
const (
	DefaultInterleaves        = 8
	DefaultChipsPerInterleave = 4
	// DefaultCapacity is the samples one buffer of the board holds: 1280x1024
	// at 8 samples per pixel, double-buffered with z (the paper's §3.5 limit;
	// 1920x1200 at 4 fits too).
	DefaultCapacity = 1280 * 1024 * 8
)

// Geometry is a sample buffer holding a Width x Height raster at Samples per
// pixel over Interleaves x ChipsPerInterleave chips.
type Geometry struct {
	Width, Height, Samples          int
	Interleaves, ChipsPerInterleave int
}

// Validate checks the geometry against capacity, the samples one buffer
// holds; the error names the field.
func (g Geometry) Validate(capacity int64) error {
	switch {
	case g.Interleaves < 1 || g.ChipsPerInterleave < 1:
		return fmt.Errorf("interleaves: %d interleaves of %d chips: want at least one of one", g.Interleaves, g.ChipsPerInterleave)
	case g.Width < 1 || g.Height < 1:
		return fmt.Errorf("resolution: %dx%d is empty", g.Width, g.Height)
	case g.Samples < 1 || g.Samples > 16:
		return fmt.Errorf("samples: %d samples per pixel outside [1, 16] (the pattern RAM holds 16)", g.Samples)
	}
	if n := int64(g.Width) * int64(g.Height) * int64(g.Samples); n > capacity {
		return fmt.Errorf("resolution: %dx%d at %d samples per pixel is %d samples; the sample buffer holds %d per buffer (double-buffered, with z)",
			g.Width, g.Height, g.Samples, n, capacity)
	}
	return nil
}

// SetRaster makes g hold a width x height raster at samples per pixel (the
// frame's render target) when that passes Validate with no capacity limit;
// otherwise it leaves g as it was and returns Validate's error.
func (g *Geometry) SetRaster(width, height, samples int) error {
	n := *g
	n.Width, n.Height, n.Samples = width, height, samples
	if err := n.Validate(1 << 62); err != nil {
		return err
	}
	*g = n
	return nil
}

// Chips is the number of 3DRAM chips.
func (g Geometry) Chips() int { return g.Interleaves * g.ChipsPerInterleave }

// index is the sample's number in list order.
func (g Geometry) index(x, y, s int) int64 {
	return (int64(y)*int64(g.Width)+int64(x))*int64(g.Samples) + int64(s)
}

// Chip returns the chip (0 to Chips()-1) holding sample s of pixel (x, y).
func (g Geometry) Chip(x, y, s int) int { return int(g.index(x, y, s) % int64(g.Chips())) }

// Interleave returns the interleave holding sample s of pixel (x, y).
func (g Geometry) Interleave(x, y, s int) int { return g.Chip(x, y, s) % g.Interleaves }

// Row returns the sample's row inside its chip (its address in samples).
func (g Geometry) Row(x, y, s int) int64 { return g.index(x, y, s) / int64(g.Chips()) }

// SamplesPerChip is the rows a chip holds for the raster (the largest chip).
func (g Geometry) SamplesPerChip() int64 {
	n := int64(g.Width) * int64(g.Height) * int64(g.Samples)
	return (n + int64(g.Chips()) - 1) / int64(g.Chips())
}
