package raster

import (
	"fmt"
	"math"
	"math/bits"
)

// SamplePattern gives the sample positions of a pixel as offsets from the pixel
// centre in 1/16 pixel units (range -8..7). Sample s of pixel (px, py) sits at
// (px*256 + 128 + 16*dx, py*256 + 128 + 16*dy) in 1/256 pixel units.
type SamplePattern struct {
	Count   int
	Offsets [MaxSamples][2]int8
}

// MaxSamples is the largest supported sample count; with it the 64 coverage
// bits of a quad are exactly full.
const MaxSamples = 16

// standardPatterns are the D3D10.1+ standard multisample positions.
var standardPatterns = map[int][][2]int8{
	1: {{0, 0}},
	2: {{4, 4}, {-4, -4}},
	4: {{-2, -6}, {6, -2}, {-6, 2}, {2, 6}},
	8: {{1, -3}, {-1, 3}, {5, 1}, {-3, -5}, {-5, 5}, {-7, -1}, {3, 7}, {7, -7}},
	16: {{1, 1}, {-1, -3}, {-3, 2}, {4, -1}, {-5, -2}, {2, 5}, {5, 3}, {3, -5},
		{-2, 6}, {0, -7}, {-4, -6}, {-6, 4}, {-8, 0}, {7, -4}, {6, 7}, {-7, -8}},
}

// StandardPattern returns the standard D3D sample pattern for 1, 2, 4, 8 or 16
// samples; other counts are an error.
func StandardPattern(count int) (SamplePattern, error) {
	offs, ok := standardPatterns[count]
	if !ok {
		return SamplePattern{}, fmt.Errorf("raster: sample count %d: must be 1, 2, 4, 8 or 16", count)
	}
	p := SamplePattern{Count: count}
	copy(p.Offsets[:], offs)
	return p, nil
}

// Rect is a pixel rectangle, half-open: [X0, X1) x [Y0, Y1).
type Rect struct{ X0, Y0, X1, Y1 int }

// Empty reports whether r contains no pixel.
func (r Rect) Empty() bool { return r.X0 >= r.X1 || r.Y0 >= r.Y1 }

// Intersect returns the intersection of r and s (possibly empty).
func (r Rect) Intersect(s Rect) Rect {
	return Rect{X0: max(r.X0, s.X0), Y0: max(r.Y0, s.Y0), X1: min(r.X1, s.X1), Y1: min(r.Y1, s.Y1)}
}

// Contains reports whether pixel (x, y) lies in r.
func (r Rect) Contains(x, y int) bool { return x >= r.X0 && x < r.X1 && y >= r.Y0 && y < r.Y1 }

// TraversalOrder is the order in which tiles of a triangle, or quads of a tile,
// are produced.
type TraversalOrder uint8

const (
	// RowMajor: by rows from the top, each row from the left.
	RowMajor TraversalOrder = iota
	// ZOrder: Morton order, x in the low bit: (0,0), (1,0), (0,1), (1,1), (2,0), ...
	// Tiles are numbered relative to the first tile of the triangle's tile range,
	// quads relative to the tile's first quad.
	ZOrder
)

// String returns the order's name.
func (o TraversalOrder) String() string {
	switch o {
	case RowMajor:
		return "rowmajor"
	case ZOrder:
		return "zorder"
	}
	return fmt.Sprintf("TraversalOrder(%d)", uint8(o))
}

// DefaultTileSize is the coarse tile edge used when Config.TileSize is zero.
const DefaultTileSize = 8

// MaxTileSize is the largest coarse tile edge.
const MaxTileSize = 256

// Config is the per-draw rasterizer state. The same Config must be passed to
// Setup and to every method of the resulting Triangle.
type Config struct {
	Samples   SamplePattern
	TileSize  int  // coarse tile edge in pixels, a power of two in [2, 256]; 0 means DefaultTileSize
	Bounds    Rect // render-target bounds intersected with the viewport and the scissor
	TileOrder TraversalOrder
	QuadOrder TraversalOrder
	// MinZ and MaxZ are the viewport's depth range. Interpolated depth is
	// clamped to [min(MinZ, MaxZ), max(MinZ, MaxZ)], as D3D clamps to the viewport range.
	MinZ, MaxZ float32
}

// NewConfig returns a Config with the standard pattern for samples, the
// default tile size, row-major traversal and the depth range [0, 1].
func NewConfig(samples int, bounds Rect) (Config, error) {
	p, err := StandardPattern(samples)
	if err != nil {
		return Config{}, err
	}
	return Config{Samples: p, TileSize: DefaultTileSize, Bounds: bounds, MinZ: 0, MaxZ: 1}, nil
}

// Validate checks the configuration and names the offending field.
func (c *Config) Validate() error {
	switch c.Samples.Count {
	case 1, 2, 4, 8, 16:
	default:
		return fmt.Errorf("raster: Config.Samples.Count: %d: must be 1, 2, 4, 8 or 16", c.Samples.Count)
	}
	for s := 0; s < c.Samples.Count; s++ {
		for k, o := range c.Samples.Offsets[s] {
			if o < -8 || o > 7 {
				return fmt.Errorf("raster: Config.Samples.Offsets[%d][%d]: %d: must be in [-8, 7] (1/16 pixel)", s, k, o)
			}
		}
	}
	if c.TileSize != 0 && !validTileSize(c.TileSize) {
		return fmt.Errorf("raster: Config.TileSize: %d: must be a power of two in [2, %d]", c.TileSize, MaxTileSize)
	}
	if c.TileOrder > ZOrder {
		return fmt.Errorf("raster: Config.TileOrder: unknown order %d", c.TileOrder)
	}
	if c.QuadOrder > ZOrder {
		return fmt.Errorf("raster: Config.QuadOrder: unknown order %d", c.QuadOrder)
	}
	if c.Bounds.X1 < c.Bounds.X0 || c.Bounds.Y1 < c.Bounds.Y0 {
		return fmt.Errorf("raster: Config.Bounds: %+v is inverted", c.Bounds)
	}
	if math.IsNaN(float64(c.MinZ)) || math.IsNaN(float64(c.MaxZ)) {
		return fmt.Errorf("raster: Config.MinZ/MaxZ: NaN depth range")
	}
	return nil
}

func validTileSize(t int) bool {
	return t >= 2 && t <= MaxTileSize && t&(t-1) == 0
}

// tileShift returns log2 of the tile size (the default for an invalid size;
// Setup rejects invalid configurations, so a Triangle never sees one).
func (c *Config) tileShift() uint {
	if !validTileSize(c.TileSize) {
		return 3
	}
	return uint(bits.TrailingZeros(uint(c.TileSize)))
}
