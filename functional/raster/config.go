package raster

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/gfxsim/gfxsim/functional/samplepattern"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// SamplePattern gives the sample positions of a pixel as offsets from the pixel
// centre in 1/256 pixel units (range -128..127). Sample s of pixel (px, py) sits
// at (px*256 + 128 + dx, py*256 + 128 + dy) in 1/256 pixel units. Without a
// Table the offsets are Offsets[s], the same in every pixel (offsets past Count
// are zero). With a Table (SAGE's pattern RAM, attached by WithTable) they are
// Table.Offset(px, py, s), per pixel, Count is 1 to samplepattern.MaxSamples and
// Offsets is ignored; the table must not change while a draw uses it.
type SamplePattern struct {
	Count   int
	Offsets [MaxSamples][2]int16
	Table   *samplepattern.Table
	ext     tableExtremes // Table.Extremes(Count), cached by WithTable
}

// tableExtremes caches a table's offset bounds for a sample count.
type tableExtremes struct {
	of                     *samplepattern.Table
	n                      int
	minX, maxX, minY, maxY int16
}

// WithTable returns p with per-pixel positions from the pattern RAM t (nil
// removes a table): it checks that p.Count is in [1, samplepattern.MaxSamples]
// and that t is valid, and caches t's offset bounds for Setup.
func (p SamplePattern) WithTable(t *samplepattern.Table) (SamplePattern, error) {
	p.Table, p.ext = t, tableExtremes{}
	if t == nil {
		return p, nil
	}
	if p.Count < 1 || p.Count > samplepattern.MaxSamples {
		return SamplePattern{}, fmt.Errorf("raster: SamplePattern.Count: %d: a pattern table holds 1 to %d samples per pixel", p.Count, samplepattern.MaxSamples)
	}
	if err := t.Validate(); err != nil {
		return SamplePattern{}, err
	}
	p.ext.of, p.ext.n = t, p.Count
	p.ext.minX, p.ext.maxX, p.ext.minY, p.ext.maxY = t.Extremes(p.Count)
	return p, nil
}

// Extremes returns the bounds of the offsets of the first Count samples of
// every pixel, in 1/256 pixel from the pixel centre: over Offsets without a
// table, over every pixel of the table (Table.Extremes, cached by WithTable)
// with one.
func (p *SamplePattern) Extremes() (minX, maxX, minY, maxY int16) {
	if p.Table != nil {
		if e := &p.ext; e.of == p.Table && e.n == p.Count {
			return e.minX, e.maxX, e.minY, e.maxY
		}
		return p.Table.Extremes(p.Count)
	}
	minX, maxX, minY, maxY = math.MaxInt16, math.MinInt16, math.MaxInt16, math.MinInt16
	for s := 0; s < p.Count && s < MaxSamples; s++ {
		dx, dy := p.Offsets[s][0], p.Offsets[s][1]
		minX, maxX = min(minX, dx), max(maxX, dx)
		minY, maxY = min(minY, dy), max(maxY, dy)
	}
	return minX, maxX, minY, maxY
}

// MaxSamples is the largest supported sample count: one 64-bit word per pixel
// of a SampleMask.
const MaxSamples = SampleMaskSamples

// MinOffset and MaxOffset bound a sample offset from the pixel centre in 1/256
// pixel: a sample lies inside its pixel, [px, px+1) x [py, py+1).
const (
	MinOffset = -128
	MaxOffset = 127
)

// standardPatterns are the D3D10.1+ standard multisample positions in 1/16
// pixel; PatternFor scales them by 16.
var standardPatterns = map[int][][2]int16{
	1: {{0, 0}},
	2: {{4, 4}, {-4, -4}},
	4: {{-2, -6}, {6, -2}, {-6, 2}, {2, 6}},
	8: {{1, -3}, {-1, 3}, {5, 1}, {-3, -5}, {-5, 5}, {-7, -1}, {3, 7}, {7, -7}},
	16: {{1, 1}, {-1, -3}, {-3, 2}, {4, -1}, {-5, -2}, {2, 5}, {5, 3}, {3, -5},
		{-2, 6}, {0, -7}, {-4, -6}, {-6, 4}, {-8, 0}, {7, -4}, {6, 7}, {-7, -8}},
}

// PatternFor returns the sample pattern every part of gfxsim uses for count
// samples per pixel, 1 to MaxSamples: the D3D standard positions for 1, 2, 4, 8
// and 16, and the Hammersley point set (HammersleyPattern) for every other count.
func PatternFor(count int) (SamplePattern, error) {
	if count < 1 || count > MaxSamples {
		return SamplePattern{}, fmt.Errorf("raster: sample count %d: must be in [1, %d]", count, MaxSamples)
	}
	offs, ok := standardPatterns[count]
	if !ok {
		return HammersleyPattern(count), nil
	}
	p := SamplePattern{Count: count}
	for s, o := range offs {
		p.Offsets[s] = [2]int16{16 * o[0], 16 * o[1]}
	}
	return p, nil
}

// HammersleyPattern returns the Hammersley point set of count samples (1 to
// MaxSamples) on the 1/256 pixel grid: sample i sits at x = (i + 1/2)/count and
// y = the base-2 radical inverse of i in m = ceil(log2 count) bits plus half its
// step, both in pixels from the pixel's corner, x rounded down to 1/256 pixel.
// The x coordinates are stratified (one sample per column of width 1/count, so
// every near-vertical edge moves coverage one sample at a time), the y
// coordinates are distinct multiples of 2^-m, and the set has low discrepancy;
// all positions are distinct because the x strata are at least 4/256 wide. The
// pattern is deterministic and the same in every pixel.
func HammersleyPattern(count int) SamplePattern {
	count = min(max(count, 1), MaxSamples)
	m := bits.Len(uint(count - 1)) // ceil(log2 count)
	p := SamplePattern{Count: count}
	for i := 0; i < count; i++ {
		x := (2*i + 1) * 256 / (2 * count) // floor((i + 1/2)/count * 256)
		r := 0                             // i bit-reversed in m bits
		for b := 0; b < m; b++ {
			r |= (i >> b & 1) << (m - 1 - b)
		}
		y := (2*r + 1) * 128 >> m // (r + 1/2)/2^m * 256, exact for m <= 7
		p.Offsets[i] = [2]int16{int16(x - 128), int16(y - 128)}
	}
	return p
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

// Quads returns r grown to whole quads: every corner rounded outward to an
// even pixel. A screen tile clipped by a frame of odd width or height ends at
// an odd pixel; the quads of its last column or row reach one pixel past
// the frame, which no sample covers.
func (r Rect) Quads() Rect {
	return Rect{X0: r.X0 &^ 1, Y0: r.Y0 &^ 1, X1: (r.X1 + 1) &^ 1, Y1: (r.Y1 + 1) &^ 1}
}

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

var traversalOrderNames = enum.Names[TraversalOrder]{Type: "TraversalOrder", Names: []string{"rowmajor", "zorder"}}

// String returns the order's name.
func (o TraversalOrder) String() string { return traversalOrderNames.String(o) }

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

// NewConfig returns a Config with the pattern PatternFor(samples), the default
// tile size, row-major traversal and the depth range [0, 1].
func NewConfig(samples int, bounds Rect) (Config, error) {
	p, err := PatternFor(samples)
	if err != nil {
		return Config{}, err
	}
	return Config{Samples: p, TileSize: DefaultTileSize, Bounds: bounds, MinZ: 0, MaxZ: 1}, nil
}

// Validate checks the configuration and names the offending field.
func (c *Config) Validate() error {
	if !validCount(c.Samples.Count) {
		return fmt.Errorf("raster: Config.Samples.Count: %d: must be in [1, %d]", c.Samples.Count, MaxSamples)
	}
	if c.Samples.Table != nil {
		if c.Samples.Count > samplepattern.MaxSamples {
			return fmt.Errorf("raster: Config.Samples.Count: %d: a pattern table holds at most %d samples per pixel", c.Samples.Count, samplepattern.MaxSamples)
		}
		if err := c.Samples.Table.Validate(); err != nil {
			return fmt.Errorf("raster: Config.Samples.Table: %w", err)
		}
	}
	for s := 0; s < c.Samples.Count; s++ {
		for k, o := range c.Samples.Offsets[s] {
			if o < MinOffset || o > MaxOffset {
				return fmt.Errorf("raster: Config.Samples.Offsets[%d][%d]: %d: must be in [%d, %d] (1/256 pixel)", s, k, o, MinOffset, MaxOffset)
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

func validCount(n int) bool { return n >= 1 && n <= MaxSamples }

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
