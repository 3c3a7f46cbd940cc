package hiz

import (
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/state"
)

// ExactPass returns the samples of mask (quad q of primitive p) that pass the
// exact depth/stencil test against the depth buffer as it is now, without
// changing it: the test pipeline.EarlyDepth or pipeline.LateDepth would run,
// with the shader's depth output out when the pixel shader writes depth (nil
// otherwise). With no depth target, or the test off, every sample passes.
func ExactPass(d *state.Draw, cfg *raster.Config, p *pipeline.Primitive, q raster.Quad, mask raster.SampleMask, out *pipeline.QuadOutput) raster.SampleMask {
	db := d.DepthBuf
	if db == nil || (!d.Depth.DepthEnable && !d.Depth.StencilEnable) || mask.Empty() {
		return mask
	}
	shader := d.PSResources.WritesDepth && out != nil
	var pass raster.SampleMask
	for m := mask; !m.Empty(); {
		pix, s := m.Pop()
		x, y := int(q.X)+pix&1, int(q.Y)+pix>>1
		var zv float32
		if shader {
			zv = pipeline.ClampDepth(out.Depth[pix], d.Viewport.MinZ, d.Viewport.MaxZ)
		} else {
			zv = p.Triangle.SampleDepth(cfg, x, y, s)
		}
		sd, ss := db.Load(x, y, s)
		if d.Depth.Test(db.Format, depth.Quantize(zv, db.Format), sd, ss, p.Triangle.BackFacing).Pass {
			pass.Set(pix, s)
		}
	}
	return pass
}
