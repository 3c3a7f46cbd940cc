package hiz

import (
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/state"
)

// DrawContext is what HiZ needs to know about a draw, computed once per draw.
type DrawContext struct {
	// Active: the draw has a depth target and the depth test on, so HiZ tests
	// and updates its tiles. Otherwise its tiles pass through untouched (with
	// the depth test off nothing is culled and the depth buffer never changes).
	Active bool
	Target Target
	Func   depth.CompareFunc
	// Write: passing samples store their depth (DepthEnable and DepthWrite).
	Write bool
	// ShaderDepth: the pixel shader writes depth; the fragment depth is only
	// known to lie in the viewport's depth range.
	ShaderDepth bool
	// ZRange is the viewport's depth range as keys (the range of shader depths).
	ZRange [2]uint32
	face   [2]faceInfo // front, back
}

type faceInfo struct {
	// canCull: removing a sample that fails the depth test changes nothing: no
	// stencil op would have run on it (stencil off, write mask 0, or Fail and
	// DepthFail both Keep for this facing). Otherwise HiZ culls nothing: the
	// stencil passes through to the depth unit conservatively.
	canCull bool
	// guaranteed: every covered sample that passes the depth test is written
	// with its interpolated depth: early Z (no discard, no shader depth) and a
	// stencil test that cannot fail for this facing. Only then may an update
	// assume the primitive's depths were stored.
	guaranteed bool
}

// NewDrawContext summarizes draw d.
func NewDrawContext(d *state.Draw) DrawContext {
	var c DrawContext
	if d.DepthBuf == nil || !d.Depth.DepthEnable {
		return c
	}
	db := d.DepthBuf
	c.Active = true
	c.Target = Target{Width: db.Width, Height: db.Height, Samples: db.Samples, Format: db.Format}
	c.Func = d.Depth.DepthFunc
	c.Write = d.Depth.WritesDepth()
	c.ShaderDepth = d.PSResources.WritesDepth
	lo, hi := min(d.Viewport.MinZ, d.Viewport.MaxZ), max(d.Viewport.MinZ, d.Viewport.MaxZ)
	c.ZRange = [2]uint32{depth.Quantize(lo, db.Format), depth.Quantize(hi, db.Format)}
	st := &d.Depth
	for i, f := range [2]*depth.StencilFace{&st.Front, &st.Back} {
		fi := &c.face[i]
		fi.canCull = !st.StencilEnable || st.WriteMask == 0 || (f.Fail == depth.Keep && f.DepthFail == depth.Keep)
		fi.guaranteed = d.EarlyZ && !c.ShaderDepth && (!st.StencilEnable || f.Func == depth.Always)
	}
	return c
}

// CanCull reports whether samples of a primitive with the given facing that
// surely fail the depth test may be removed.
func (c *DrawContext) CanCull(backFacing bool) bool { return c.face[b2i(backFacing)].canCull }

// Guaranteed reports whether every covered sample of a primitive with the
// given facing that passes the depth test is written with its interpolated
// depth.
func (c *DrawContext) Guaranteed(backFacing bool) bool { return c.face[b2i(backFacing)].guaranteed }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
