package hiz

import (
	"fmt"
	"sort"

	"github.com/gfxsim/gfxsim/components/protocol"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// regionShift sizes the memory region of one (depth target, partition) HiZ
// buffer: 1 GiB, far more than a 16384x16384 target at 16x needs at 4 bits per
// sample divided over the partitions.
const regionShift = 30

// layout places the HiZ tiles of one depth target that partition p owns in
// memory lines. The partition's tiles are numbered densely: its partition
// tiles in row-major order (those with TileOwner(ptx, pty, stride, P) == p),
// and inside a partition tile its HiZ tiles in Morton order, so that a line
// holds spatially close tiles of one partition and no line is shared between
// two HiZ units. A line holds TilesPerLine tiles (or a tile spans LinesPerTile
// lines when it is larger than a line).
type layout struct {
	geo          *fhiz.Geometry
	base         uint64
	p, np        int
	stride       int
	nx, ny       int // HiZ tiles per partition tile
	ptW, ptH     int // partition tiles over the target
	rowStart     []int
	tilesPerLine int
	linesPerTile int
	lineBytes    uint64
	lines        uint64 // lines of the partition's region
}

func newLayout(g *fhiz.Geometry, base uint64, p, np, stride, ptPixels int, tileBits, lineBytes int) (*layout, error) {
	if ptPixels%g.TileW != 0 || ptPixels%g.TileH != 0 {
		return nil, fmt.Errorf("HiZ tiles of %dx%d pixels do not divide the %d-pixel partition tiles", g.TileW, g.TileH, ptPixels)
	}
	l := &layout{geo: g, base: base, p: p, np: np, stride: stride, nx: ptPixels / g.TileW, ny: ptPixels / g.TileH,
		ptW: (g.Width + ptPixels - 1) / ptPixels, ptH: (g.Height + ptPixels - 1) / ptPixels, lineBytes: uint64(lineBytes)}
	lineBits := 8 * lineBytes
	if tileBits <= lineBits {
		l.tilesPerLine, l.linesPerTile = lineBits/tileBits, 1
	} else {
		l.tilesPerLine, l.linesPerTile = 1, (tileBits+lineBits-1)/lineBits
	}
	l.rowStart = make([]int, l.ptH+1)
	for y := 0; y < l.ptH; y++ {
		l.rowStart[y+1] = l.rowStart[y] + l.ownedInRow(y)
	}
	tiles := uint64(l.rowStart[l.ptH]) * uint64(l.nx*l.ny)
	if l.linesPerTile > 1 {
		l.lines = tiles * uint64(l.linesPerTile)
	} else {
		l.lines = (tiles + uint64(l.tilesPerLine) - 1) / uint64(l.tilesPerLine)
	}
	if l.lines*l.lineBytes > 1<<regionShift {
		return nil, fmt.Errorf("the HiZ buffer of a %dx%d target needs %d bytes per partition, more than %d",
			g.Width, g.Height, l.lines*l.lineBytes, 1<<regionShift)
	}
	return l, nil
}

// first returns the first partition-tile column partition p owns in row y.
func (l *layout) first(y int) int { return protocol.TileOwner(l.p-y*l.stride, 0, 0, l.np) }

func (l *layout) ownedInRow(y int) int {
	f := l.first(y)
	if f >= l.ptW {
		return 0
	}
	return (l.ptW - f + l.np - 1) / l.np
}

// morton numbers the HiZ tile (lx, ly) inside its partition tile: Morton
// order over squares of the shorter side, the squares along the longer one.
func (l *layout) morton(lx, ly int) int {
	s := min(l.nx, l.ny)
	if l.ny > l.nx {
		return (ly/s)*s*s + int(raster.MortonSpread(uint(lx))|raster.MortonSpread(uint(ly%s))<<1)
	}
	return (lx/s)*s*s + int(raster.MortonSpread(uint(lx%s))|raster.MortonSpread(uint(ly))<<1)
}

func (l *layout) unmorton(i int) (lx, ly int) {
	s := min(l.nx, l.ny)
	sq := i / (s * s)
	lx, ly = raster.MortonDecode(i % (s * s))
	if l.ny > l.nx {
		return lx, ly + sq*s
	}
	return lx + sq*s, ly
}

// local returns the dense number of HiZ tile ti among partition p's tiles.
func (l *layout) local(ti int) int {
	hx, hy := ti%l.geo.TilesX, ti/l.geo.TilesX
	ptx, pty := hx/l.nx, hy/l.ny
	k := l.rowStart[pty] + (ptx-l.first(pty))/l.np
	return k*l.nx*l.ny + l.morton(hx%l.nx, hy%l.ny)
}

// line returns the address of the (first) line holding tile ti.
func (l *layout) line(ti int) uint64 {
	loc := uint64(l.local(ti))
	if l.linesPerTile > 1 {
		return l.base + loc*uint64(l.linesPerTile)*l.lineBytes
	}
	return l.base + loc/uint64(l.tilesPerLine)*l.lineBytes
}

// tiles appends the tiles of the line at addr (those inside the target).
func (l *layout) tiles(addr uint64, out []int) []int {
	idx := int((addr - l.base) / l.lineBytes)
	lo, hi := idx*l.tilesPerLine, (idx+1)*l.tilesPerLine
	if l.linesPerTile > 1 {
		lo, hi = idx/l.linesPerTile, idx/l.linesPerTile+1
	}
	per := l.nx * l.ny
	for loc := lo; loc < hi; loc++ {
		k, m := loc/per, loc%per
		y := sort.SearchInts(l.rowStart, k+1) - 1
		if y < 0 || y >= l.ptH {
			continue
		}
		ptx := l.first(y) + (k-l.rowStart[y])*l.np
		lx, ly := l.unmorton(m)
		hx, hy := ptx*l.nx+lx, y*l.ny+ly
		if hx < l.geo.TilesX && hy < l.geo.TilesY {
			out = append(out, l.geo.Index(hx, hy))
		}
	}
	return out
}

// contains reports whether addr lies in the layout's region.
func (l *layout) contains(addr uint64) bool {
	return addr >= l.base && addr < l.base+l.lines*l.lineBytes
}
