package rasterizer

import "github.com/gfxsim/gfxsim/functional/raster"

// A primitive with a Window (protocol.PrimitiveMsg.Window, the screen tile of
// the tiled machine it is rasterized for) is rasterized only inside it: the
// coarse walk is clamped to the raster tiles (2D) or 32x32 tiles (5D) that
// intersect the window, and the fine rasterizer drops the quads outside it.
// The window's corners are even and quads are 2x2 at even pixels, so a quad
// is inside the window when its first pixel is.

// clampToWindow intersects tile range [tx0, tx1) x [ty0, ty1) (tiles of ts
// pixels) with the tiles that window w overlaps.
func clampToWindow(tx0, ty0, tx1, ty1 int, w raster.Rect, ts int) (int, int, int, int) {
	return max(tx0, floorDiv(w.X0, ts)), max(ty0, floorDiv(w.Y0, ts)),
		min(tx1, floorDiv(w.X1-1, ts)+1), min(ty1, floorDiv(w.Y1-1, ts)+1)
}

// tileMeetsWindow reports whether tile (tx, ty) of ts pixels overlaps window w.
func tileMeetsWindow(tx, ty, ts int, w raster.Rect) bool {
	return !w.Intersect(raster.Rect{X0: tx * ts, Y0: ty * ts, X1: tx*ts + ts, Y1: ty*ts + ts}).Empty()
}

// outsideWindow reports whether the quad at (x, y) lies outside window w.
func outsideWindow(w raster.Rect, x, y int32) bool { return !w.Contains(int(x), int(y)) }

// floorDiv is a/b rounded down (b > 0).
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
