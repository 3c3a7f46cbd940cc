package framebuffer

import (
	"fmt"
	"math/bits"

	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// Layout is the pixel order of a surface in memory.
type Layout uint8

// Surface layouts (see the package comment).
const (
	Linear Layout = iota // row-major
	Tiled                // TileW x TileH tiles, row-major tiles, row-major pixels inside
	ZOrder               // Morton order over the power-of-two padded surface
	numLayouts
)

var layoutNames = enum.Names[Layout]{Type: "Layout", What: "layout", Names: []string{"Linear", "Tiled", "ZOrder"}}

// String returns the layout's name.
func (l Layout) String() string { return layoutNames.String(l) }

// Valid reports whether l is a known layout.
func (l Layout) Valid() bool { return layoutNames.Valid(l) }

// ParseLayout parses a layout name case-insensitively, ignoring '_' and '-' ("z_order").
func ParseLayout(s string) (Layout, error) { return layoutNames.Parse(s) }

// Limits on surfaces.
const (
	MaxDimension    = 16384   // largest Width or Height, and largest TileW or TileH
	DefaultTileSize = 4       // TileW and TileH when zero
	MaxBytes        = 1 << 32 // largest allocation of one target, padding included
)

// Geometry describes a surface: its size, its samples per pixel and its layout.
type Geometry struct {
	Width, Height int
	Samples       int // 1 to raster.MaxSamples (64)
	Layout        Layout
	TileW, TileH  int // Tiled only: tile size in pixels; 0 means DefaultTileSize
}

// Validate checks g, naming the offending field. Zero TileW/TileH are valid (default).
func (g Geometry) Validate() error {
	return check.For("").
		Within("Width", g.Width, 1, MaxDimension).
		Within("Height", g.Height, 1, MaxDimension).
		Within("Samples", g.Samples, 1, raster.MaxSamples).
		That(g.Layout.Valid(), "Layout: invalid value %d", uint8(g.Layout)).
		Within("TileW", g.TileW, 0, MaxDimension).
		Within("TileH", g.TileH, 0, MaxDimension).
		Err()
}

// Surface is the address arithmetic of a Geometry: it maps (x, y, sample) to an
// element index in memory order. Build it with NewSurface; the fields of the embedded
// Geometry are read-only afterwards.
type Surface struct {
	Geometry
	paddedW, paddedH int
	tilesX           int
	tilePixels       int
	mortonBits       uint // interleaved bits per coordinate (ZOrder)
	tileShift        bool // TileW and TileH are powers of two: divide by shifting
	shiftW, shiftH   uint
}

// NewSurface validates g, fills in the default tile size and precomputes the layout.
func NewSurface(g Geometry) (Surface, error) {
	if err := g.Validate(); err != nil {
		return Surface{}, err
	}
	if g.TileW == 0 {
		g.TileW = DefaultTileSize
	}
	if g.TileH == 0 {
		g.TileH = DefaultTileSize
	}
	s := Surface{Geometry: g, paddedW: g.Width, paddedH: g.Height}
	switch g.Layout {
	case Tiled:
		s.tilesX = (g.Width + g.TileW - 1) / g.TileW
		s.paddedW = s.tilesX * g.TileW
		s.paddedH = (g.Height + g.TileH - 1) / g.TileH * g.TileH
		s.tilePixels = g.TileW * g.TileH
		if bits.OnesCount(uint(g.TileW)) == 1 && bits.OnesCount(uint(g.TileH)) == 1 {
			s.tileShift = true
			s.shiftW, s.shiftH = uint(bits.TrailingZeros(uint(g.TileW))), uint(bits.TrailingZeros(uint(g.TileH)))
		}
	case ZOrder:
		s.paddedW = nextPow2(g.Width)
		s.paddedH = nextPow2(g.Height)
		s.mortonBits = uint(min(bits.TrailingZeros(uint(s.paddedW)), bits.TrailingZeros(uint(s.paddedH))))
	}
	return s, nil
}

// PaddedWidth is the allocated width in pixels (Width, or rounded up to whole tiles
// or to a power of two).
func (s *Surface) PaddedWidth() int { return s.paddedW }

// PaddedHeight is the allocated height in pixels.
func (s *Surface) PaddedHeight() int { return s.paddedH }

// Elements is the number of samples in the allocation, padding included.
func (s *Surface) Elements() int { return s.paddedW * s.paddedH * s.Samples }

// PixelIndex returns the position of pixel (x, y) in memory order, for
// 0 <= x < PaddedWidth and 0 <= y < PaddedHeight.
func (s *Surface) PixelIndex(x, y int) int {
	switch s.Layout {
	case Tiled:
		if s.tileShift {
			tx, ty := x>>s.shiftW, y>>s.shiftH
			return (ty*s.tilesX+tx)*s.tilePixels + (y&(s.TileH-1))<<s.shiftW + x&(s.TileW-1)
		}
		tx, ty := x/s.TileW, y/s.TileH
		return (ty*s.tilesX+tx)*s.tilePixels + (y-ty*s.TileH)*s.TileW + (x - tx*s.TileW)
	case ZOrder:
		m := s.mortonBits
		low := uint(1)<<m - 1
		ux, uy := uint(x), uint(y)
		return int(raster.MortonSpread(ux&low) | raster.MortonSpread(uy&low)<<1 | (ux>>m|uy>>m)<<(2*m))
	}
	return y*s.Width + x
}

// Index returns the element index of sample s of pixel (x, y): PixelIndex*Samples + s.
func (s *Surface) Index(x, y, sample int) int { return s.PixelIndex(x, y)*s.Samples + sample }

// inside reports whether (x, y, sample) is a visible sample.
func (s *Surface) inside(x, y, sample int) bool {
	return uint(x) < uint(s.Width) && uint(y) < uint(s.Height) && uint(sample) < uint(s.Samples)
}

func nextPow2(v int) int {
	p := 1
	for p < v {
		p <<= 1
	}
	return p
}

func checkSize(elements, bytesPerElement int) error {
	if n := uint64(elements) * uint64(bytesPerElement); n > MaxBytes {
		return fmt.Errorf("size: %d bytes exceeds the limit of %d", n, uint64(MaxBytes))
	}
	return nil
}
