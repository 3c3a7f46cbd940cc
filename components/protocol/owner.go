package protocol

// TileOwner returns which of n units owns raster tile (tx, ty) when screen tiles
// are interleaved with the given row stride: (tx + ty*stride) mod n. With stride 1
// and n = 2 the tiles form a checkerboard; rasterizers and ROP partitions each use
// their own stride (docs/design-timing.md, section 2).
func TileOwner(tx, ty, stride, n int) int {
	if n <= 1 {
		return 0
	}
	v := (tx + ty*stride) % n
	if v < 0 {
		v += n
	}
	return v
}
