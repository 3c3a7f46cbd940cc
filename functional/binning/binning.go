package binning

import (
	"sort"

	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// EntryBytes is the size of one bin entry: a 4-byte primitive index in the
// pass's parameter buffer and a 4-byte draw number.
const EntryBytes = 8

// LinkBytes is the size of a chunk's link to the next chunk of its bin.
const LinkBytes = 8

// TileSize returns the tile for samples samples per pixel of bytesPerSample
// bytes (colour plus depth and stencil) in budget bytes of tile memory
// (decouple.TileSizeBytes, the document's rule).
func TileSize(samples, bytesPerSample, budget int) (w, h int, err error) {
	return decouple.TileSizeBytes(samples, bytesPerSample, budget)
}

// Grid is the frame's screen cut into TileW x TileH tiles.
type Grid struct {
	Width, Height int
	TileW, TileH  int
}

// Tiles returns the number of tile columns and rows.
func (g Grid) Tiles() (nx, ny int) {
	return (g.Width + g.TileW - 1) / g.TileW, (g.Height + g.TileH - 1) / g.TileH
}

// Count returns the number of tiles.
func (g Grid) Count() int {
	nx, ny := g.Tiles()
	return nx * ny
}

// Rect returns the pixels of tile k (row-major numbering), clipped to the
// screen.
func (g Grid) Rect(k int) raster.Rect {
	nx, _ := g.Tiles()
	tx, ty := k%nx, k/nx
	return raster.Rect{X0: tx * g.TileW, Y0: ty * g.TileH,
		X1: min(g.Width, (tx+1)*g.TileW), Y1: min(g.Height, (ty+1)*g.TileH)}
}

// Range returns the tiles [tx0, tx1) x [ty0, ty1) that box touches (empty
// when box is empty or off screen).
func (g Grid) Range(box raster.Rect) (tx0, ty0, tx1, ty1 int) {
	box = box.Intersect(raster.Rect{X1: g.Width, Y1: g.Height})
	if box.Empty() {
		return 0, 0, 0, 0
	}
	return box.X0 / g.TileW, box.Y0 / g.TileH, (box.X1-1)/g.TileW + 1, (box.Y1-1)/g.TileH + 1
}

// Box returns the screen box a primitive is binned by: the union box over time
// and lens of a 5D primitive, the set-up triangle's box otherwise.
func Box(p *pipeline.Primitive) raster.Rect {
	if p.Blur != nil {
		return p.Blur.Tri.BBox
	}
	return p.Triangle.BBox
}

// RecordBytes is the size of one primitive in the parameter buffer with links
// interpolated attributes (protocol.PrimitiveMsg's size on a bus).
func RecordBytes(links int) int { return 64 + 48*links }

// EntriesPerChunk returns the entries a chunk of chunkBytes holds.
func EntriesPerChunk(chunkBytes int) int { return (chunkBytes - LinkBytes) / EntryBytes }

// Lines appends to out the sorted, distinct lines of lineBytes (a power of
// two) that hold the samples of the pixels in r of a target whose sample
// (x, y, s) lies at base+addr(x, y, s) with bytes bytes, and returns it.
func Lines(out []uint64, r raster.Rect, samples, bytes int, base uint64, lineBytes uint64,
	addr func(x, y, s int) uint64) []uint64 {
	n := len(out)
	mask := ^(lineBytes - 1)
	for y := r.Y0; y < r.Y1; y++ {
		for x := r.X0; x < r.X1; x++ {
			for s := 0; s < samples; s++ {
				a := base + addr(x, y, s)
				first, last := a&mask, (a+uint64(bytes)-1)&mask
				for l := first; l <= last; l += lineBytes {
					out = append(out, l)
				}
			}
		}
	}
	tail := out[n:]
	sort.Slice(tail, func(i, j int) bool { return tail[i] < tail[j] })
	k := 0
	for i, l := range tail {
		if i == 0 || l != tail[k-1] {
			tail[k] = l
			k++
		}
	}
	return out[:n+k]
}

// ColorLines appends the lines of tile r of colour target ct at base.
func ColorLines(out []uint64, ct *framebuffer.ColorTarget, base uint64, r raster.Rect, lineBytes uint64) []uint64 {
	return Lines(out, r, ct.Samples, ct.Format.BytesPerSample(), base, lineBytes, ct.Address)
}

// DepthLines appends the lines of tile r of depth target dt at base: the depth
// words and, with a separate stencil plane, the stencil bytes.
func DepthLines(out []uint64, dt *framebuffer.DepthTarget, base uint64, r raster.Rect, lineBytes uint64) []uint64 {
	out = Lines(out, r, dt.Samples, 4, base, lineBytes, dt.Address)
	if dt.StencilPlaneOffset() != 0 {
		out = Lines(out, r, dt.Samples, 1, base, lineBytes, dt.StencilAddress)
	}
	return out
}
