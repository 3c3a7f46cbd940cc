package raster

// MortonDecode returns the cell (x, y) at Morton index k (x in the low bit):
// the even and the odd bits of k.
func MortonDecode(k int) (x, y int) {
	return int(MortonCompact(uint(k))), int(MortonCompact(uint(k) >> 1))
}

// MortonSpread moves bit i of the low 16 bits of v to bit 2i: the x part of
// a Morton index (the y part is MortonSpread(y) << 1).
func MortonSpread(v uint) uint {
	v &= 0xFFFF
	v = (v | v<<8) & 0x00FF00FF
	v = (v | v<<4) & 0x0F0F0F0F
	v = (v | v<<2) & 0x33333333
	v = (v | v<<1) & 0x55555555
	return v
}

// MortonCompact gathers the even bits of the low 32 bits of v (bit 2i moves
// to bit i): it inverts MortonSpread.
func MortonCompact(v uint) uint {
	v &= 0x55555555
	v = (v | v>>1) & 0x33333333
	v = (v | v>>2) & 0x0F0F0F0F
	v = (v | v>>4) & 0x00FF00FF
	v = (v | v>>8) & 0x0000FFFF
	return v
}

// MortonWalk enumerates the cells of the rectangle [x0, x1) x [y0, y1) of a
// grid in Morton order (x in the low bit) by a depth-first walk of the quadtree
// over the enclosing power-of-two square at the origin, skipping subtrees outside
// the rectangle, so its cost is proportional to the visited cells (plus the
// perimeter times the depth), whatever the aspect ratio. It does not allocate.
// Coordinates must be in [0, 2^31).
type MortonWalk struct {
	x0, y0, x1, y1 int32
	n              int
	stack          [3*32 + 1]mortonNode
}

type mortonNode struct{ x, y, size int32 }

// Init starts a walk of [x0, x1) x [y0, y1).
func (m *MortonWalk) Init(x0, y0, x1, y1 int) {
	size := int32(1)
	for size < 1<<30 && (int(size) < x1 || int(size) < y1) {
		size <<= 1
	}
	m.x0, m.y0, m.x1, m.y1 = int32(x0), int32(y0), int32(x1), int32(y1)
	m.stack[0] = mortonNode{0, 0, size}
	m.n = 1
}

// Next returns the next cell, or ok false when the walk is over.
func (m *MortonWalk) Next() (x, y int, ok bool) {
	for m.n > 0 {
		m.n--
		nd := m.stack[m.n]
		if nd.x >= m.x1 || nd.y >= m.y1 || nd.x+nd.size <= m.x0 || nd.y+nd.size <= m.y0 {
			continue
		}
		if nd.size == 1 {
			return int(nd.x), int(nd.y), true
		}
		h := nd.size >> 1
		m.stack[m.n] = mortonNode{nd.x + h, nd.y + h, h}
		m.stack[m.n+1] = mortonNode{nd.x, nd.y + h, h}
		m.stack[m.n+2] = mortonNode{nd.x + h, nd.y, h}
		m.stack[m.n+3] = mortonNode{nd.x, nd.y, h}
		m.n += 4
	}
	return 0, 0, false
}
