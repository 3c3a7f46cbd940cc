package raster5d

import "github.com/gfxsim/gfxsim/functional/raster"

// TileSize is the edge of the traversal tiles in pixels (section 5.1: 32x32
// tiles in Z order, quads in Z order inside).
const TileSize = 32

const tileShift = 5

// Quad is a 2x2 pixel block at even (X, Y) with the samples the triangle covers:
// Coverage word p = (x&1) + 2*(y&1), bit s = sample s (raster.SampleMask).
type Quad struct {
	X, Y     int32
	Coverage raster.SampleMask
}

// Stats counts the rasterizer's work; the timed rasterizer turns it into cycles.
type Stats struct {
	// SampleTests counts the samples whose coverage was evaluated, by the case
	// of their triangle (index Case; Rejected stays 0). Samples the traversal
	// buckets exclude are not tested and not counted.
	SampleTests [NumCases]uint64
	// BlockTests counts the evaluations of a bucket's edge bounds over a
	// tile's part of its box or over one of the tile's blocks (doc.go,
	// "Traversal"), whether or not they rejected it.
	BlockTests     uint64
	SamplesCovered uint64 // samples found covered
	Quads          uint64 // quads emitted (at least one covered sample)
	Tiles          uint64 // TileQuads calls on a tile that overlaps BBox
}

// Add adds o's counts to s.
func (s *Stats) Add(o Stats) {
	for c := range s.SampleTests {
		s.SampleTests[c] += o.SampleTests[c]
	}
	s.BlockTests += o.BlockTests
	s.SamplesCovered += o.SamplesCovered
	s.Quads += o.Quads
	s.Tiles += o.Tiles
}

// Tests returns the number of sample tests over all cases.
func (s *Stats) Tests() uint64 {
	var n uint64
	for _, v := range s.SampleTests {
		n += v
	}
	return n
}

// TileRange returns the tiles that overlap BBox, half-open: [tx0, tx1) x [ty0, ty1),
// in tile coordinates (pixel x = tx*TileSize).
func (t *Triangle) TileRange() (tx0, ty0, tx1, ty1 int) {
	if t.Case == Rejected || t.BBox.Empty() {
		return 0, 0, 0, 0
	}
	b := t.BBox
	return b.X0 >> tileShift, b.Y0 >> tileShift, ((b.X1 - 1) >> tileShift) + 1, ((b.Y1 - 1) >> tileShift) + 1
}

// Tiles appends the tiles of TileRange in Morton order (x in the low bit,
// relative to the range's first tile, as raster.ZOrder) that some traversal
// bucket's box overlaps, each with Class raster.TilePartial (the 5D rasterizer
// does not classify tiles further).
func (t *Triangle) Tiles(out []raster.TilePos) []raster.TilePos {
	tx0, ty0, tx1, ty1 := t.TileRange()
	if tx0 >= tx1 || ty0 >= ty1 {
		return out
	}
	var m raster.MortonWalk
	m.Init(0, 0, tx1-tx0, ty1-ty0)
	for {
		i, j, ok := m.Next()
		if !ok {
			return out
		}
		tile := tileRect(tx0+i, ty0+j)
		for b := 0; b < t.numBuckets(); b++ {
			if !t.boxes[b].Intersect(tile).Empty() {
				out = append(out, raster.TilePos{X: tx0 + i, Y: ty0 + j, Class: raster.TilePartial})
				break
			}
		}
	}
}

func tileRect(tx, ty int) raster.Rect {
	return raster.Rect{X0: tx * TileSize, Y0: ty * TileSize, X1: tx*TileSize + TileSize, Y1: ty*TileSize + TileSize}
}

func (t *Triangle) numBuckets() int { return t.layout.count() }

// TileQuads appends the quads of tile (tx, ty) with at least one covered sample,
// in Morton order of the quads inside the tile (x in the low bit), and adds its
// work to st (which may be nil). A sample is tested only when its pixel lies in
// the box of its (u, v, t) bucket and no edge excludes the pixel's block over
// the bucket (doc.go, "Traversal"). Nothing is allocated when out has room.
func (t *Triangle) TileQuads(tx, ty int, out []Quad, st *Stats) []Quad {
	return t.TileQuadsIn(tx, ty, raster.Rect{}, out, st)
}

// TileQuadsIn is TileQuads restricted to the pixels of window (the tiled
// machine's screen tile; an empty window restricts nothing): only samples of
// pixels inside it are tested, so the work counted in st is the window's.
func (t *Triangle) TileQuadsIn(tx, ty int, window raster.Rect, out []Quad, st *Stats) []Quad {
	var local Stats
	if st == nil {
		st = &local
	}
	if t.Case == Rejected {
		return out
	}
	tile := tileRect(tx, ty)
	r := tile.Intersect(t.BBox)
	if !window.Empty() {
		r = r.Intersect(window)
	}
	if r.Empty() {
		return out
	}
	st.Tiles++
	// col[i] (row[j]): the buckets whose box holds pixel column tile.X0+i (row).
	var col, row [TileSize]uint64
	for b := 0; b < t.numBuckets(); b++ {
		bb := t.boxes[b].Intersect(r)
		if bb.Empty() {
			continue
		}
		for x := bb.X0; x < bb.X1; x++ {
			col[x-tile.X0] |= 1 << uint(b)
		}
		for y := bb.Y0; y < bb.Y1; y++ {
			row[y-tile.Y0] |= 1 << uint(b)
		}
	}
	n := t.pat.n
	blk := t.blockMasks(tile, r, st)
	bucket := t.pat.bucket[t.Case]
	var se sampleEval
	var tests, covered uint64
	for k := 0; k < (TileSize/2)*(TileSize/2); k++ {
		i, j := raster.MortonDecode(k)
		qx, qy := tile.X0+2*i, tile.Y0+2*j
		if qx+1 < r.X0 || qx >= r.X1 || qy+1 < r.Y0 || qy >= r.Y1 {
			continue
		}
		var cov raster.SampleMask
		for p := 0; p < 4; p++ {
			px, py := qx+p&1, qy+p>>1
			if !r.Contains(px, py) {
				continue
			}
			m := col[px-tile.X0] & row[py-tile.Y0] & blk[(py-tile.Y0)>>blockShift*blocksPerRow+(px-tile.X0)>>blockShift]
			if m == 0 {
				continue
			}
			e0 := t.pat.entry(px, py, 0)
			for s := 0; s < n; s++ {
				if m>>bucket[e0+s]&1 == 0 {
					continue
				}
				tests++
				t.evalSample(px, py, s, &se)
				if t.covered(&se) {
					cov[p] |= 1 << uint(s)
					covered++
				}
			}
		}
		if !cov.Empty() {
			out = append(out, Quad{X: int32(qx), Y: int32(qy), Coverage: cov})
			st.Quads++
		}
	}
	st.SampleTests[t.Case] += tests
	st.SamplesCovered += covered
	return out
}

// blockMasks returns, per block of the tile (row-major), the buckets that no
// edge excludes over the block: all of them except where a bucket's bounds
// were tested (Stats.BlockTests) and rejected the block. r is the tile within
// BBox.
func (t *Triangle) blockMasks(tile, r raster.Rect, st *Stats) [blocksPerRow * blocksPerRow]uint64 {
	var blk [blocksPerRow * blocksPerRow]uint64
	for i := range blk {
		blk[i] = ^uint64(0)
	}
	n := t.pat.n
	nb := t.numBuckets()
	var bb bucketBound
	for b := 0; b < nb; b++ {
		box := t.boxes[b].Intersect(r)
		if box.Empty() || t.signs[b] == 0 {
			continue
		}
		// Testing a bucket costs about as much as a few sample tests per block:
		// skip buckets with few samples in the tile.
		if (box.X1-box.X0)*(box.Y1-box.Y0)*n < minBlockSamples*nb {
			continue
		}
		t.prepareBucket(b, r, &bb)
		st.BlockTests++
		if t.rejects(&bb, box.X0, box.Y0, box.X1, box.Y1) {
			for i := range blk {
				blk[i] &^= 1 << uint(b)
			}
			continue
		}
		if box.X1-box.X0 <= BlockSize && box.Y1-box.Y0 <= BlockSize {
			continue
		}
		for by := (box.Y0 - tile.Y0) >> blockShift; by <= (box.Y1-1-tile.Y0)>>blockShift; by++ {
			for bx := (box.X0 - tile.X0) >> blockShift; bx <= (box.X1-1-tile.X0)>>blockShift; bx++ {
				x0, y0 := tile.X0+bx<<blockShift, tile.Y0+by<<blockShift
				blkBox := box.Intersect(raster.Rect{X0: x0, Y0: y0, X1: x0 + BlockSize, Y1: y0 + BlockSize})
				st.BlockTests++
				if t.rejects(&bb, blkBox.X0, blkBox.Y0, blkBox.X1, blkBox.Y1) {
					blk[by*blocksPerRow+bx] &^= 1 << uint(b)
				}
			}
		}
	}
	return blk
}

// minBlockSamples is the number of samples a bucket must expect in a tile
// for TileQuads to test it against the tile's blocks.
const minBlockSamples = 64
