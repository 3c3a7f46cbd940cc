package depthunit

import (
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
)

// clear fast-clears the planes of the depth target that the command clears:
// their lines leave the cache without write-back and are marked cleared. A
// D24S8 target keeps depth and stencil in the same words, so only a clear of
// both is a fast clear; clearing one of them leaves the cached lines as they
// are (the image holds the new values and write-backs carry them).
func (c *Comp) clear(m *protocol.ClearCmd) {
	clearDepth := m.Flags&command.ClearDepth != 0
	clearStencil := m.Flags&command.ClearStencil != 0
	if !clearDepth && !clearStencil {
		return
	}
	t := m.Target
	lo := t.Addr
	if depth.Format(t.Format) == depth.D32F {
		g := framebuffer.Geometry{Width: int(t.Width), Height: int(t.Height), Samples: int(t.Samples),
			Layout: framebuffer.Layout(t.Layout), TileW: int(t.TileW), TileH: int(t.TileH)}
		if s, err := framebuffer.NewSurface(g); err == nil {
			n := uint64(s.Elements())
			plane := (4*n + framebuffer.StencilPlaneAlign - 1) &^ (framebuffer.StencilPlaneAlign - 1)
			if clearDepth {
				c.cache.Clear(lo, lo+4*n)
			}
			if clearStencil {
				c.cache.Clear(lo+plane, lo+plane+n)
			}
			return
		}
	}
	if clearDepth && clearStencil {
		c.cache.Clear(lo, lo+m.Size)
	}
}
