package rasterizer

import (
	"github.com/gfxsim/gfxsim/functional/raster"
)

// tileWalk enumerates the tiles of a rectangle of tiles that one rasterizer owns
// (protocol.TileOwner(tx, ty, stride, n) == r), in a draw's tile order: the order
// of raster.Triangle.Tiles restricted to the owned tiles. Row-major walks step
// directly from one owned tile of a row to the next (n columns apart); Z-order
// walks the quadtree of the enclosing power-of-two square depth-first (Morton
// order relative to the rectangle's first tile, x in the low bit), skipping
// subtrees outside the rectangle. The walk looks one tile ahead, so done() is
// exact right after the last owned tile was taken. It does not allocate.
type tileWalk struct {
	order          raster.TraversalOrder
	tx0, ty0, w, h int
	r, n, stride   int
	has            bool
	cx, cy         int // the next owned tile (absolute), valid when has
	x, y           int // row-major cursor (relative)
	rowStarted     bool
	sp             int
	stack          [3*32 + 1]mortonNode
}

type mortonNode struct{ x, y, size int32 }

// init starts a walk over tiles [tx0, tx1) x [ty0, ty1).
func (t *tileWalk) init(order raster.TraversalOrder, tx0, ty0, tx1, ty1, r, n, stride int) {
	*t = tileWalk{order: order, tx0: tx0, ty0: ty0, w: tx1 - tx0, h: ty1 - ty0, r: r, n: n, stride: stride}
	if t.w <= 0 || t.h <= 0 {
		return
	}
	if order == raster.ZOrder {
		size := int32(1)
		for int(size) < t.w || int(size) < t.h {
			size <<= 1
		}
		t.stack[0] = mortonNode{size: size}
		t.sp = 1
	}
	t.advance()
}

// done reports whether every owned tile was taken.
func (t *tileWalk) done() bool { return !t.has }

// take returns the next owned tile and moves on; the walk must not be done.
func (t *tileWalk) take() (tx, ty int) {
	tx, ty = t.cx, t.cy
	t.advance()
	return tx, ty
}

func (t *tileWalk) owned(tx, ty int) bool {
	if t.n <= 1 {
		return true
	}
	v := (tx + ty*t.stride) % t.n
	if v < 0 {
		v += t.n
	}
	return v == t.r
}

func (t *tileWalk) advance() {
	t.has = false
	if t.order == raster.ZOrder {
		for t.sp > 0 {
			t.sp--
			nd := t.stack[t.sp]
			if int(nd.x) >= t.w || int(nd.y) >= t.h {
				continue
			}
			if nd.size == 1 {
				tx, ty := t.tx0+int(nd.x), t.ty0+int(nd.y)
				if t.owned(tx, ty) {
					t.cx, t.cy, t.has = tx, ty, true
					return
				}
				continue
			}
			h := nd.size / 2
			// Pushed in reverse so that (x, y) comes out first: Morton order.
			t.stack[t.sp] = mortonNode{nd.x + h, nd.y + h, h}
			t.stack[t.sp+1] = mortonNode{nd.x, nd.y + h, h}
			t.stack[t.sp+2] = mortonNode{nd.x + h, nd.y, h}
			t.stack[t.sp+3] = mortonNode{nd.x, nd.y, h}
			t.sp += 4
		}
		return
	}
	for t.y < t.h {
		if !t.rowStarted {
			t.rowStarted = true
			t.x = 0
			if t.n > 1 {
				ty := t.ty0 + t.y
				v := (t.r - t.tx0 - ty*t.stride) % t.n
				if v < 0 {
					v += t.n
				}
				t.x = v
			}
		}
		if t.x < t.w {
			t.cx, t.cy, t.has = t.tx0+t.x, t.ty0+t.y, true
			t.x += max(1, t.n)
			return
		}
		t.y++
		t.rowStarted = false
	}
}
