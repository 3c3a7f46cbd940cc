package raster

// TileClass is the coarse rasterizer's verdict on a tile.
type TileClass uint8

const (
	// TileOutside: no sample of the tile is covered (inside the triangle and BBox).
	TileOutside TileClass = iota
	// TilePartial: some samples may be covered; the fine rasterizer decides.
	TilePartial
	// TileInside: every sample of every pixel of the tile is covered, and the
	// whole tile lies inside BBox (so inside Config.Bounds).
	TileInside
)

// String returns the class name.
func (c TileClass) String() string {
	switch c {
	case TileOutside:
		return "outside"
	case TilePartial:
		return "partial"
	case TileInside:
		return "inside"
	}
	return "TileClass(?)"
}

// TilePos is a tile in tile coordinates (pixel x = X*TileSize) with its class.
type TilePos struct {
	X, Y  int
	Class TileClass
}

// TileRange returns the tiles that overlap BBox, half-open: [tx0, tx1) x [ty0, ty1).
func (t *Triangle) TileRange(cfg *Config) (tx0, ty0, tx1, ty1 int) {
	if t.samples == 0 || t.BBox.Empty() {
		return 0, 0, 0, 0
	}
	sh := cfg.tileShift()
	return t.BBox.X0 >> sh, t.BBox.Y0 >> sh, ((t.BBox.X1 - 1) >> sh) + 1, ((t.BBox.Y1 - 1) >> sh) + 1
}

// extremes returns the largest and the smallest value of e over the samples
// of the pixels of r: at the corner pixels the signs of a and b select, plus
// the extreme sample offsets.
func (e *edgeSetup) extremes(r Rect) (hi, lo int64) {
	v := e.c + e.a*int64(r.X0)*256 + e.b*int64(r.Y0)*256
	sx, sy := e.stepX*int64(r.X1-r.X0-1), e.stepY*int64(r.Y1-r.Y0-1)
	return v + max(0, sx) + max(0, sy) + e.omax, v + min(0, sx) + min(0, sy) + e.omin
}

// tileBox returns the pixels of tile (tx, ty) and the part of them inside
// BBox; ok is false when the tile is outside the triangle's tile range or
// that part is empty.
func (t *Triangle) tileBox(cfg *Config, tx, ty int) (tile, r Rect, ok bool) {
	tx0, ty0, tx1, ty1 := t.TileRange(cfg)
	if tx < tx0 || tx >= tx1 || ty < ty0 || ty >= ty1 {
		return Rect{}, Rect{}, false
	}
	size := 1 << cfg.tileShift()
	tile = Rect{X0: tx * size, Y0: ty * size, X1: tx*size + size, Y1: ty*size + size}
	r = tile.Intersect(t.BBox)
	return tile, r, !r.Empty()
}

// TestTile classifies tile (tx, ty). Each edge is evaluated over the samples of
// the tile's pixels that lie in BBox: the maximum of a linear function over that
// set is at the corner pixel selected by the signs of A and B plus the largest
// sample offset, the minimum likewise. The tile is outside when an edge's maximum
// is negative, inside when every edge's minimum is non-negative and the tile lies
// wholly in BBox. Both verdicts are exact for a pattern without a table; with a
// table each edge is bounded over the box of the table's offsets
// (SamplePattern.Extremes), so the verdicts are conservative: an outside tile
// has no covered sample and an inside tile no uncovered one. A partial tile may
// still have no covered sample (no edge alone excludes it).
func (t *Triangle) TestTile(cfg *Config, tx, ty int) TileClass {
	tile, r, ok := t.tileBox(cfg, tx, ty)
	if !ok {
		return TileOutside
	}
	inside := r == tile
	for k := range t.edge {
		hi, lo := t.edge[k].extremes(r)
		if hi < 0 {
			return TileOutside
		}
		if lo < 0 {
			inside = false
		}
	}
	if inside {
		return TileInside
	}
	return TilePartial
}

// Tiles appends the tiles of the triangle's tile range that are not
// TileOutside, in cfg.TileOrder (Morton order relative to the range's first tile).
func (t *Triangle) Tiles(cfg *Config, out []TilePos) []TilePos {
	tx0, ty0, tx1, ty1 := t.TileRange(cfg)
	if tx0 >= tx1 || ty0 >= ty1 {
		return out
	}
	if cfg.TileOrder == ZOrder {
		var m MortonWalk
		m.Init(0, 0, tx1-tx0, ty1-ty0)
		for {
			i, j, ok := m.Next()
			if !ok {
				return out
			}
			if c := t.TestTile(cfg, tx0+i, ty0+j); c != TileOutside {
				out = append(out, TilePos{X: tx0 + i, Y: ty0 + j, Class: c})
			}
		}
	}
	for ty := ty0; ty < ty1; ty++ {
		for tx := tx0; tx < tx1; tx++ {
			if c := t.TestTile(cfg, tx, ty); c != TileOutside {
				out = append(out, TilePos{X: tx, Y: ty, Class: c})
			}
		}
	}
	return out
}
