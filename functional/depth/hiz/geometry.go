package hiz

import (
	"fmt"
	"math/bits"

	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// Target is the depth target a coarse depth buffer covers.
type Target struct {
	Width, Height, Samples int
	Format                 depth.Format
}

// Geometry is the tiling of a depth target into HiZ tiles of TileW x TileH
// pixels (TileSamples samples). Tiles are numbered row-major from the top-left
// tile. Inside a tile, pixels are in Morton order (x in the low bit) over
// squares of TileH x TileH pixels, the squares left to right (TileW is TileH or
// 2*TileH), and the samples of a pixel are adjacent: sample s of local pixel p
// is bit p*Samples + s of the tile's masks (a pixel's run of bits may straddle
// two words of a Mask when Samples does not divide 64). Blocks of 16
// consecutive bits are therefore compact (4x4 pixels at 1x, 2x2 at 4x): the
// 16-sample units the statistics are normalized to.
type Geometry struct {
	Target
	TileSamples    int
	TileW, TileH   int
	TilesX, TilesY int
	shiftH         uint
}

// TileDims returns the pixel size of a tile of tileSamples samples at
// samplesPerPixel samples per pixel: tileSamples/samplesPerPixel pixels rounded
// down to a power of two, at least one, as a square or a 2:1 rectangle (wider
// than high). The tile shrinks in pixels as the sample count grows and never
// splits a pixel. For example 16 samples are 4x4 pixels at 1x and 2x2 at 4x;
// 32 samples 8x4 and 4x2; 128 samples 16x8 and 8x4.
//
// At 1 to 16 samples per pixel (powers of two, at most the 16-sample minimum
// tile) a tile holds exactly tileSamples samples. Above, the rule is the same
// and explicit: at 27 samples 128 samples make 2x2 pixels (108 samples) and 64
// make 2x1 (54); at 64 samples 128 make 2x1 (128). When one pixel has more
// samples than tileSamples (27 or 64 samples with 16- or 32-sample tiles) the
// tile is that one pixel, and NewBuffer sizes the tile's memory format for it
// (Buffer.Config().TileSamples: the next power of two). hiz.tile_samples in a
// machine configuration sets tileSamples.
func TileDims(tileSamples, samplesPerPixel int) (w, h int) {
	pixels := max(1, tileSamples/max(1, samplesPerPixel))
	k := bits.Len(uint(pixels)) - 1
	return 1 << ((k + 1) / 2), 1 << (k / 2)
}

// NewGeometry tiles target t (1 to raster.MaxSamples samples per pixel) into
// tiles of tileSamples samples (a power of two in [16, MaxTileSamples]) by the
// rule of TileDims; a tile holds at least one pixel.
func NewGeometry(t Target, tileSamples int) (Geometry, error) {
	switch {
	case t.Width < 1 || t.Height < 1:
		return Geometry{}, fmt.Errorf("hiz: target %dx%d has no pixel", t.Width, t.Height)
	case t.Samples < 1 || t.Samples > raster.MaxSamples:
		return Geometry{}, fmt.Errorf("hiz: target Samples %d is not in [1, %d]", t.Samples, raster.MaxSamples)
	case !t.Format.Valid():
		return Geometry{}, fmt.Errorf("hiz: target Format %d is not a depth format", uint8(t.Format))
	case tileSamples < 16 || tileSamples > MaxTileSamples || bits.OnesCount(uint(tileSamples)) != 1:
		return Geometry{}, fmt.Errorf("hiz: TileSamples %d is not a power of two in [16, %d]", tileSamples, MaxTileSamples)
	}
	w, h := TileDims(tileSamples, t.Samples)
	g := Geometry{Target: t, TileW: w, TileH: h, TileSamples: w * h * t.Samples,
		TilesX: (t.Width + w - 1) / w, TilesY: (t.Height + h - 1) / h, shiftH: uint(bits.TrailingZeros(uint(h)))}
	return g, nil
}

// Tiles returns the number of tiles.
func (g *Geometry) Tiles() int { return g.TilesX * g.TilesY }

// Index returns the number of tile (tx, ty).
func (g *Geometry) Index(tx, ty int) int { return ty*g.TilesX + tx }

// TileOf returns the tile holding pixel (x, y) (inside the target) and the bit
// of its sample 0 in the tile's masks.
func (g *Geometry) TileOf(x, y int) (tile, bit int) {
	tx, ty := x/g.TileW, y/g.TileH
	lx, ly := x-tx*g.TileW, y-ty*g.TileH
	sq := lx >> g.shiftH
	local := sq<<(2*g.shiftH) | int(raster.MortonSpread(uint(lx&(g.TileH-1)))|raster.MortonSpread(uint(ly))<<1)
	return ty*g.TilesX + tx, local * g.Samples
}

// PixelOf returns the pixel and sample of bit b of tile (the inverse of TileOf).
func (g *Geometry) PixelOf(tile, b int) (x, y, s int) {
	local, s := b/g.Samples, b%g.Samples
	sq, m := local>>(2*g.shiftH), uint(local&(1<<(2*g.shiftH)-1))
	lx := sq<<g.shiftH | int(raster.MortonCompact(m))
	ly := int(raster.MortonCompact(m >> 1))
	tx, ty := tile%g.TilesX, tile/g.TilesX
	return tx*g.TileW + lx, ty*g.TileH + ly, s
}

// Valid returns the samples of tile that lie inside the target (all of them
// except in the last column and row of tiles).
func (g *Geometry) Valid(tile int) Mask {
	tx, ty := tile%g.TilesX, tile/g.TilesX
	if (tx+1)*g.TileW <= g.Width && (ty+1)*g.TileH <= g.Height {
		return Range(0, g.TileSamples)
	}
	var m Mask
	for b := 0; b < g.TileSamples; b += g.Samples {
		x, y, _ := g.PixelOf(tile, b)
		if x < g.Width && y < g.Height {
			m = m.Or(Range(b, b+g.Samples))
		}
	}
	return m
}

// TileRect returns the pixels of tile: [x0, x1) x [y0, y1), clipped to the target.
func (g *Geometry) TileRect(tile int) (x0, y0, x1, y1 int) {
	tx, ty := tile%g.TilesX, tile/g.TilesX
	x0, y0 = tx*g.TileW, ty*g.TileH
	return x0, y0, min(x0+g.TileW, g.Width), min(y0+g.TileH, g.Height)
}
