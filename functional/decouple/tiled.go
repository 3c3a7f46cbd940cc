package decouple

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/raster"
)

// DefaultTileMemory is the tile memory of the sort-middle model (the paper's
// 4.4 and 5.3.3: tiles of at most 128 KB).
const DefaultTileMemory = 128 << 10

// BytesPerSample is what one sample occupies in tile memory: 4 B colour and 4 B
// depth.
const BytesPerSample = 8

// TileSize returns the sort-middle tile for samples samples per pixel and
// memory bytes of tile memory: the largest rectangle w x h of powers of two
// with w >= h, w <= 2h and w*h*samples*BytesPerSample <= memory.
func TileSize(samples, memory int) (w, h int, err error) {
	if samples < 1 || samples > raster.SampleMaskSamples {
		return 0, 0, fmt.Errorf("decouple: tile samples: %d: must be in [1, %d]", samples, raster.SampleMaskSamples)
	}
	w, h, err = TileSizeBytes(samples, BytesPerSample, memory)
	if err != nil {
		return 0, 0, fmt.Errorf("decouple: tile memory: %w", err)
	}
	return w, h, nil
}

// TileSizeBytes is TileSize for samples of bytesPerSample bytes (colour plus
// depth and stencil), the tiled machine's rule for the frame's formats.
func TileSizeBytes(samples, bytesPerSample, memory int) (w, h int, err error) {
	if samples < 1 || bytesPerSample < 1 {
		return 0, 0, fmt.Errorf("%d samples of %d bytes: both must be positive", samples, bytesPerSample)
	}
	if memory < samples*bytesPerSample {
		return 0, 0, fmt.Errorf("%d bytes: less than one pixel of %d samples (%d bytes)",
			memory, samples, samples*bytesPerSample)
	}
	pixels := memory / (samples * bytesPerSample)
	k := 0
	for 1<<(k+1) <= pixels && k < 40 {
		k++
	}
	h = 1 << (k / 2)
	return 1 << (k - k/2), h, nil
}

// TiledModel is the sort-middle variant (the paper's 4.4): the screen is cut
// into tiles of TileSize; a primitive is binned to every tile its union box
// touches (bin spread); the back end takes one tile at a time with a purely
// local shading cache that is cleared when the tile begins. The study feeds the
// visibility samples tile by tile: BeginTile, then Lookup per tap.
type TiledModel struct {
	W, H  int // tile size in pixels
	cache Cache
	tiles int64
	prims int64
	bins  int64
}

// NewTiledModel returns the model for samples per pixel, memory bytes of tile
// memory (DefaultTileMemory in the paper) and the per-tile cache (a Memo, or an
// LRU of the tile's cache entries).
func NewTiledModel(samples, memory int, cache Cache) (*TiledModel, error) {
	w, h, err := TileSize(samples, memory)
	if err != nil {
		return nil, err
	}
	if cache == nil {
		return nil, fmt.Errorf("decouple: tiled model cache: nil")
	}
	return &TiledModel{W: w, H: h, cache: cache}, nil
}

// Tile returns the tile holding pixel (px, py).
func (m *TiledModel) Tile(px, py int) (tx, ty int) {
	return int(floorDiv(int64(px), int64(m.W))), int(floorDiv(int64(py), int64(m.H)))
}

// TileRect returns the tiles a pixel box touches, half-open in tile units.
func (m *TiledModel) TileRect(box raster.Rect) raster.Rect {
	if box.Empty() {
		return raster.Rect{}
	}
	x0, y0 := m.Tile(box.X0, box.Y0)
	x1, y1 := m.Tile(box.X1-1, box.Y1-1)
	return raster.Rect{X0: x0, Y0: y0, X1: x1 + 1, Y1: y1 + 1}
}

// BinSpread returns the number of tiles a primitive whose union box (over time
// and lens) is box touches.
func (m *TiledModel) BinSpread(box raster.Rect) int {
	r := m.TileRect(box)
	return (r.X1 - r.X0) * (r.Y1 - r.Y0)
}

// Bin counts a primitive with union box box into the bin statistics and
// returns its bin spread.
func (m *TiledModel) Bin(box raster.Rect) int {
	n := m.BinSpread(box)
	m.prims++
	m.bins += int64(n)
	return n
}

// BinEntries returns the bin entries written so far (the sum of bin spreads).
func (m *TiledModel) BinEntries() int64 { return m.bins }

// MeanBinSpread returns bin entries per binned primitive (0 before any).
func (m *TiledModel) MeanBinSpread() float64 {
	if m.prims == 0 {
		return 0
	}
	return float64(m.bins) / float64(m.prims)
}

// BeginTile starts a tile: the tile's cache starts empty.
func (m *TiledModel) BeginTile() {
	m.cache.Clear()
	m.tiles++
}

// Tiles returns the number of tiles begun.
func (m *TiledModel) Tiles() int64 { return m.tiles }

// Lookup looks tag up in the current tile's cache.
func (m *TiledModel) Lookup(tag Tag) bool { return m.cache.Lookup(tag) }

// Stats returns the cache counts over all tiles.
func (m *TiledModel) Stats() CacheStats { return m.cache.Stats() }
