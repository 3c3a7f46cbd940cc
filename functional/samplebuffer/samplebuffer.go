// Package samplebuffer is the SAGE sample buffer's organisation (Deering &
// Naegle 2002, §3.5): 32 3DRAM chips as independent interleaves of chips that
// share one control, address and data bus, samples interleaved per sample so
// that adjacent samples of a pixel's list sit in different packages, and the
// capacity that bounds resolution times density.
//
// The paper does not give the arithmetic of the map from a sample to its chip;
// it calls the buffer "pixel interleaved" (§3.4, §3.6) with the samples of a
// list "interleaved per-sample" over packages (§3.5). Two maps are modelled
// (Geometry.Map; docs: configs/README.md, sage.sample_buffer.map). Chip c of
// the board is chip c / Interleaves of interleave c mod Interleaves under both.
//
//   - MapSample (the default): number the samples of the raster in list order,
//     g = (y*Width + x)*Samples + s; the sample lives in chip g mod Chips,
//     which belongs to interleave chip mod Interleaves (so that consecutive
//     samples also go to different interleaves and spread the write load), at
//     row g / Chips of that chip. A pixel's samples are therefore in
//     min(Samples, Chips) different packages and min(Samples, Interleaves)
//     interleaves.
//   - MapPixel and MapLine: all of a pixel's samples are in one interleave,
//     chosen by the pixel's place in a tile of a x h pixels that holds every
//     interleave once, interleave (x mod a) + a*(y mod h). MapPixel's tile is
//     Interleaves/2 x 2 (4x2 on the board: any 4x2 block of pixels touches
//     every interleave, and each sched serves alternate lines); MapLine's is
//     Interleaves x 1 (x mod 8: any 8 pixels of a line touch every
//     interleave, so a scan line's video read, bursts a quarter scan line
//     wide and one pixel high from the chips' 640 output pins (§3.6), draws
//     on every interleave, where MapPixel's draws on half of them per line).
//     Sample s of the list is in chip s mod ChipsPerInterleave of the
//     interleave (adjacent samples in different packages; below
//     ChipsPerInterleave samples per pixel only the first chips are used), at
//     row rank*m + s / ChipsPerInterleave, rank being the pixel's place in
//     its interleave's pixels in raster order ((y/h)*columns + x/a, columns
//     the interleave's pixels per line) and m the samples per pixel that chip
//     holds: each chip's rows are dense.
package samplebuffer

import (
	"fmt"

	"github.com/gfxsim/gfxsim/internal/enum"
)

// The shipped board's sample buffer.
const (
	DefaultInterleaves        = 8
	DefaultChipsPerInterleave = 4
	// DefaultCapacity is the samples one buffer of the board holds: 1280x1024
	// at 8 samples per pixel, double-buffered with z (the paper's §3.5 limit;
	// 1920x1200 at 4 fits too).
	DefaultCapacity = 1280 * 1024 * 8
)

// Map is how samples are dealt to interleaves and chips (see the package
// documentation).
type Map uint8

const (
	// MapSample deals the raster's samples in list order to the chips in turn:
	// a pixel's samples are spread over the interleaves.
	MapSample Map = iota
	// MapPixel puts a pixel's samples in one interleave, its place in a tile
	// of Interleaves/2 x 2 pixels, its list over that interleave's chips.
	MapPixel
	// MapLine is MapPixel with a tile of Interleaves x 1 pixels.
	MapLine
)

// mapNames are the maps' names, by Map (sage.sample_buffer.map).
var mapNames = enum.Names[Map]{Type: "Map", What: "sample buffer map", Names: []string{"sample", "pixel", "line"}, OneOf: true,
	Exact: true}

// String is the map's name.
func (m Map) String() string { return mapNames.String(m) }

// ParseMap returns the map named name.
func ParseMap(name string) (Map, error) { return mapNames.Parse(name) }

// Geometry is a sample buffer holding a Width x Height raster at Samples per
// pixel over Interleaves x ChipsPerInterleave chips, its samples placed by
// Map.
type Geometry struct {
	Width, Height, Samples          int
	Interleaves, ChipsPerInterleave int
	Map                             Map
}

// Validate checks the geometry against capacity, the samples one buffer
// holds; the error names the field.
func (g Geometry) Validate(capacity int64) error {
	switch {
	case g.Interleaves < 1 || g.ChipsPerInterleave < 1:
		return fmt.Errorf("interleaves: %d interleaves of %d chips: want at least one of one", g.Interleaves, g.ChipsPerInterleave)
	case !mapNames.Valid(g.Map):
		return fmt.Errorf("map: %v is not %s", g.Map, mapNames.Want())
	case g.Map == MapPixel && g.Interleaves%2 != 0:
		return fmt.Errorf("interleaves: %d: the pixel map tiles the interleaves over 2 pixel lines, so their number must be even", g.Interleaves)
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

// tiled reports whether the map puts a pixel's samples in one interleave by
// the pixel's place in a tile (MapPixel, MapLine), and tile returns that
// tile's width a and height h (a*h = Interleaves).
func (g Geometry) tiled() bool { return g.Map == MapPixel || g.Map == MapLine }

func (g Geometry) tile() (a, h int) {
	if g.Map == MapPixel {
		return max(1, g.Interleaves/2), 2
	}
	return g.Interleaves, 1
}

// Chip returns the chip (0 to Chips()-1) holding sample s of pixel (x, y):
// chip ChipInInterleave of interleave Interleave, numbered interleave +
// Interleaves x chip in interleave.
func (g Geometry) Chip(x, y, s int) int {
	if g.tiled() {
		return g.Interleave(x, y, s) + g.Interleaves*g.ChipInInterleave(x, y, s)
	}
	return int(g.index(x, y, s) % int64(g.Chips()))
}

// Interleave returns the interleave holding sample s of pixel (x, y).
func (g Geometry) Interleave(x, y, s int) int {
	if g.tiled() {
		a, h := g.tile()
		return x%a + a*(y%h)
	}
	return g.Chip(x, y, s) % g.Interleaves
}

// ChipInInterleave returns the chip (0 to ChipsPerInterleave-1) of its
// interleave holding sample s of pixel (x, y).
func (g Geometry) ChipInInterleave(x, y, s int) int {
	if g.tiled() {
		return s % g.ChipsPerInterleave
	}
	return g.Chip(x, y, s) / g.Interleaves
}

// columns is how many pixels of a line a tiled map puts in interleave i
// (on the lines that hold its pixels); lines is how many lines do.
func (g Geometry) columns(i int) int64 {
	a, _ := g.tile()
	return int64(max(0, (g.Width-i%a+a-1)/a))
}

func (g Geometry) lines(i int) int64 {
	a, h := g.tile()
	return int64(max(0, (g.Height-i/a+h-1)/h))
}

// perPixel is how many of a pixel's samples chip k of an interleave holds
// under a tiled map.
func (g Geometry) perPixel(k int) int64 {
	return int64(max(0, (g.Samples-k+g.ChipsPerInterleave-1)/g.ChipsPerInterleave))
}

// Row returns the sample's row inside its chip (its address in samples).
func (g Geometry) Row(x, y, s int) int64 {
	if g.tiled() {
		a, h := g.tile()
		i, k := g.Interleave(x, y, s), s%g.ChipsPerInterleave
		rank := int64(y/h)*g.columns(i) + int64(x/a)
		return rank*g.perPixel(k) + int64(s/g.ChipsPerInterleave)
	}
	return g.index(x, y, s) / int64(g.Chips())
}

// InterleaveSamples is how many samples of the raster interleave i holds
// (what a clear of the raster writes there).
func (g Geometry) InterleaveSamples(i int) int64 {
	if g.tiled() {
		return g.columns(i) * g.lines(i) * int64(g.Samples)
	}
	n, chips := int64(g.Width)*int64(g.Height)*int64(g.Samples), int64(g.Chips())
	var total int64
	for k := 0; k < g.ChipsPerInterleave; k++ {
		total += n / chips
		if int64(i+k*g.Interleaves) < n%chips {
			total++
		}
	}
	return total
}

// SamplesPerChip is the rows a chip holds for the raster (the largest chip).
func (g Geometry) SamplesPerChip() int64 {
	if g.tiled() {
		// Interleave 0 has the most pixels, its chip 0 the most of each.
		return g.columns(0) * g.lines(0) * g.perPixel(0)
	}
	n := int64(g.Width) * int64(g.Height) * int64(g.Samples)
	return (n + int64(g.Chips()) - 1) / int64(g.Chips())
}

// BusiestChip is the most samples of pixels [x0, x1) of line y that any one
// chip holds: the chips read their own samples in parallel (each on its own
// video pins, §3.5), so a scan-out burst of those pixels takes that many
// reads of the busiest chip. Under MapSample the burst's samples are
// consecutive in list order and dealt to the chips in turn, so the busiest
// holds ceil(n / Chips) of its n; under a tiled map only the line's a
// interleaves hold its pixels, each every a-th pixel, and chip 0 of an
// interleave the most of a pixel's list (ceil(Samples / ChipsPerInterleave)),
// so below ChipsPerInterleave samples per pixel, and on lines that touch
// fewer than all interleaves, some chips hold none of the burst.
func (g Geometry) BusiestChip(y, x0, x1 int) int64 {
	if x1 <= x0 {
		return 0
	}
	p := int64(x1 - x0)
	if g.tiled() {
		a, _ := g.tile()
		return (p + int64(a) - 1) / int64(a) * g.perPixel(0)
	}
	n, chips := p*int64(g.Samples), int64(g.Chips())
	return (n + chips - 1) / chips
}
