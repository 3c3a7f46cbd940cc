package protocol

import "github.com/gfxsim/gfxsim/functional/raster5d"

// The 5D primitives of decoupled draws are rasterized in 32x32-pixel tiles
// (raster5d.TileSize), while the screen is interleaved over the rasterizers in
// raster tiles of raster.tile_size pixels. Every depth, HiZ and colour update of
// a pixel must come from the rasterizer that owns the pixel's raster tile, or
// the depth units (which keep each rasterizer's stream in order, not the
// streams of two rasterizers against each other) could see a 2D-path quad and
// a 5D quad of the same pixel out of API order. So a 5D tile belongs to the
// owners of the raster tiles it overlaps: with raster tiles of 32 pixels or
// more that is one rasterizer, TileOwner over the 32x32 tile coordinates when
// the raster tile is 32 pixels (the decoupled machine's raster.tile_size,
// docs/design-timing.md); with smaller raster tiles the owners of its
// (32/tile)^2 raster tiles share it, each keeping the quads of its own tiles.

// blurTileSpan returns the raster tiles [rx0, rx1) x [ry0, ry1) that 5D tiles
// [tx0, tx1) x [ty0, ty1) overlap, for raster tiles of tileSize pixels.
func blurTileSpan(tx0, ty0, tx1, ty1, tileSize int) (rx0, ry0, rx1, ry1 int) {
	const t = raster5d.TileSize
	rx0, ry0 = tx0*t/tileSize, ty0*t/tileSize
	rx1, ry1 = (tx1*t+tileSize-1)/tileSize, (ty1*t+tileSize-1)/tileSize
	return
}

// BlurOwners returns the set (bit r: rasterizer r, n <= 64) of the rasterizers
// owning a raster tile (tileSize pixels, interleaved with TileOwner(stride, n))
// that 5D tiles [tx0, tx1) x [ty0, ty1) overlap: the rasterizers a 5D primitive
// with that raster5d.Triangle.TileRange goes to.
func BlurOwners(tx0, ty0, tx1, ty1, tileSize, stride, n int) uint64 {
	if tx0 >= tx1 || ty0 >= ty1 {
		return 0
	}
	rx0, ry0, rx1, ry1 := blurTileSpan(tx0, ty0, tx1, ty1, tileSize)
	all := ^uint64(0) >> (64 - max(1, min(n, 64)))
	var m uint64
	for ry := ry0; ry < ry1 && m != all; ry++ {
		for rx := rx0; rx < rx1 && rx < rx0+max(1, n); rx++ {
			m |= 1 << TileOwner(rx, ry, stride, n)
		}
	}
	return m
}

// BlurTileOwned reports whether rasterizer r owns a raster tile that 5D tile
// (tx, ty) overlaps.
func BlurTileOwned(tx, ty, tileSize, stride, n, r int) bool {
	rx0, ry0, rx1, ry1 := blurTileSpan(tx, ty, tx+1, ty+1, tileSize)
	for ry := ry0; ry < ry1; ry++ {
		for rx := rx0; rx < rx1 && rx < rx0+max(1, n); rx++ {
			if TileOwner(rx, ry, stride, n) == r {
				return true
			}
		}
	}
	return false
}

// BlurTilePrimary returns the rasterizer that counts the work of 5D tile (tx,
// ty) when several share it: the owner of the raster tile holding its first
// pixel.
func BlurTilePrimary(tx, ty, tileSize, stride, n int) int {
	const t = raster5d.TileSize
	return TileOwner(tx*t/tileSize, ty*t/tileSize, stride, n)
}
