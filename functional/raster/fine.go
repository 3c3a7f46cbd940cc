package raster

// Quad is a 2x2 pixel block at even (X, Y) with its sample coverage: bit
// pixel*Samples + sample, where pixel = (x&1) + 2*(y&1). With 16 samples the 64
// bits are exactly full.
type Quad struct {
	X, Y     int32
	Coverage uint64
}

// TileQuads appends the quads of tile (tx, ty) that have covered samples
// inside BBox (so inside Config.Bounds, the scissor), in cfg.QuadOrder: row-major,
// or Morton order over the quads' positions relative to the tile's first quad.
//
// The work per tile is one evaluation of each edge at the tile's corner; edges
// that contain every sample of the tile are dropped. Per quad, each remaining edge
// costs an add (stepping to the quad) and two compares against the quad's extreme
// offsets; only a quad that an edge crosses needs a per-pixel binary search over
// the sorted sample offsets. Nothing is allocated when out has room.
func (t *Triangle) TileQuads(cfg *Config, tx, ty int, out []Quad) []Quad {
	tx0, ty0, tx1, ty1 := t.TileRange(cfg)
	if tx < tx0 || tx >= tx1 || ty < ty0 || ty >= ty1 {
		return out
	}
	size := 1 << cfg.tileShift()
	tile := Rect{X0: tx * size, Y0: ty * size, X1: tx*size + size, Y1: ty*size + size}
	r := tile.Intersect(t.BBox)
	if r.Empty() {
		return out
	}
	n := t.samples
	qx0, qy0 := r.X0&^1, r.Y0&^1 // first quad (tiles are quad aligned)

	// Coarse test of each edge over the samples of r.
	var act [3]int
	var val [3]int64 // edge values at the corner of quad (qx0, qy0)
	na := 0
	w, h := int64(r.X1-r.X0-1), int64(r.Y1-r.Y0-1)
	for k := range t.edge {
		e := &t.edge[k]
		v := e.c + e.a*int64(r.X0)*256 + e.b*int64(r.Y0)*256
		sx, sy := e.stepX*w, e.stepY*h
		if v+max(0, sx)+max(0, sy)+e.so[0] < 0 {
			return out
		}
		if v+min(0, sx)+min(0, sy)+e.so[n-1] >= 0 {
			continue // every sample of r is inside this edge
		}
		act[na] = k
		na++
		val[k] = e.c + e.a*int64(qx0)*256 + e.b*int64(qy0)*256
	}
	nqx, nqy := (r.X1-qx0+1)>>1, (r.Y1-qy0+1)>>1
	all := expandPixels(15, uint(n), t.fullPixel)
	full := r == tile // no quad is cut by BBox

	if cfg.QuadOrder == ZOrder {
		i0, j0 := (qx0-tile.X0)>>1, (qy0-tile.Y0)>>1
		var vq [3]int64
		emit := func(i, j int) {
			qx, qy := tile.X0+2*i, tile.Y0+2*j
			cov := all
			if !full && (qx < r.X0 || qx+1 >= r.X1 || qy < r.Y0 || qy+1 >= r.Y1) {
				cov = expandPixels(pixelsIn(r, qx, qy), uint(n), t.fullPixel)
			}
			di, dj := int64(i-i0), int64(j-j0)
			for k := 0; k < na; k++ {
				e := &t.edge[act[k]]
				vq[act[k]] = val[act[k]] + di*2*e.stepX + dj*2*e.stepY
			}
			if cov = t.quadCoverage(&act, na, &vq, cov); cov != 0 {
				out = append(out, Quad{X: int32(qx), Y: int32(qy), Coverage: cov})
			}
		}
		if full {
			half := size >> 1
			for k := 0; k < half*half; k++ {
				emit(int(compact1By1(uint32(k))), int(compact1By1(uint32(k>>1))))
			}
			return out
		}
		var m mortonWalk
		m.init(i0, j0, i0+nqx, j0+nqy)
		for {
			i, j, ok := m.next()
			if !ok {
				return out
			}
			emit(i, j)
		}
	}

	// Row-major: incremental edge evaluation.
	var dx, dy [3]int64
	for k := 0; k < na; k++ {
		e := &t.edge[act[k]]
		dx[act[k]], dy[act[k]] = 2*e.stepX, 2*e.stepY
	}
	row := val
	for j := 0; j < nqy; j++ {
		qy := qy0 + 2*j
		vq := row
		for i := 0; i < nqx; i++ {
			qx := qx0 + 2*i
			cov := all
			if !full && (qx < r.X0 || qx+1 >= r.X1 || qy < r.Y0 || qy+1 >= r.Y1) {
				cov = expandPixels(pixelsIn(r, qx, qy), uint(n), t.fullPixel)
			}
			if cov = t.quadCoverage(&act, na, &vq, cov); cov != 0 {
				out = append(out, Quad{X: int32(qx), Y: int32(qy), Coverage: cov})
			}
			vq[0] += dx[0]
			vq[1] += dx[1]
			vq[2] += dx[2]
		}
		row[0] += dy[0]
		row[1] += dy[1]
		row[2] += dy[2]
	}
	return out
}

// quadCoverage ANDs cov with the coverage of the active edges at a quad whose
// corner values are vals.
func (t *Triangle) quadCoverage(act *[3]int, na int, vals *[3]int64, cov uint64) uint64 {
	n := uint(t.samples)
	for k := 0; k < na; k++ {
		e := &t.edge[act[k]]
		v := vals[act[k]]
		if v+e.qmax < 0 {
			return 0
		}
		if v+e.qmin >= 0 {
			continue
		}
		var m uint64
		last := e.so[n-1]
		for p := uint(0); p < 4; p++ {
			thr := -(v + e.pix[p])
			switch {
			case thr <= last: // every sample of the pixel is inside
				m |= t.fullPixel << (p * n)
			case thr > e.so[0]: // none is
			default:
				m |= uint64(e.prefix[countAtLeast(&e.so, int(n), thr)]) << (p * n)
			}
		}
		if cov &= m; cov == 0 {
			return 0
		}
	}
	return cov
}

// countAtLeast returns how many of the first n (a power of two) values of the
// descending array so are >= thr: a binary search of log2(n)+1 compares.
func countAtLeast(so *[MaxSamples]int64, n int, thr int64) int {
	k := 0
	for step := n >> 1; step > 0; step >>= 1 {
		if so[k+step-1] >= thr {
			k += step
		}
	}
	if so[k] >= thr {
		k++
	}
	return k
}

// pixelsIn returns the 4-bit mask of the pixels of quad (qx, qy) inside r.
func pixelsIn(r Rect, qx, qy int) uint {
	var cols, m uint
	if qx >= r.X0 && qx < r.X1 {
		cols |= 1
	}
	if qx+1 >= r.X0 && qx+1 < r.X1 {
		cols |= 2
	}
	if qy >= r.Y0 && qy < r.Y1 {
		m |= cols
	}
	if qy+1 >= r.Y0 && qy+1 < r.Y1 {
		m |= cols << 2
	}
	return m
}

// expandPixels turns a 4-bit pixel mask into a coverage mask with every sample
// of those pixels (full is the mask of one pixel's samples): the pixel bits are
// spread n positions apart and multiplied by full, which cannot carry.
func expandPixels(pm uint, n uint, full uint64) uint64 {
	spread := uint64(pm&1) | uint64(pm&2)<<(n-1) | uint64(pm&4)<<(2*n-2) | uint64(pm&8)<<(3*n-3)
	return spread * full
}

// compact1By1 gathers the even bits of x (Morton decoding).
func compact1By1(x uint32) uint32 {
	x &= 0x55555555
	x = (x ^ (x >> 1)) & 0x33333333
	x = (x ^ (x >> 2)) & 0x0f0f0f0f
	x = (x ^ (x >> 4)) & 0x00ff00ff
	x = (x ^ (x >> 8)) & 0x0000ffff
	return x
}

// PixelMask returns the 4-bit mask of the pixels of q with at least one covered
// sample (bit = pixel index).
func PixelMask(q Quad, samples int) uint8 {
	if samples <= 0 || samples > MaxSamples {
		return 0
	}
	full := uint64(1)<<uint(samples) - 1
	var m uint8
	for p := 0; p < 4; p++ {
		if q.Coverage>>(uint(p*samples))&full != 0 {
			m |= 1 << p
		}
	}
	return m
}

// HelperMask returns the 4-bit mask of the pixels of q with no covered sample:
// the helper pixels that are shaded only to provide derivatives.
func HelperMask(q Quad, samples int) uint8 { return ^PixelMask(q, samples) & 15 }
