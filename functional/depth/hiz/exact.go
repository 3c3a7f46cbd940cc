package hiz

import (
	"math/bits"

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
func ExactPass(d *state.Draw, cfg *raster.Config, p *pipeline.Primitive, q raster.Quad, mask uint64, out *pipeline.QuadOutput) uint64 {
	db := d.DepthBuf
	if db == nil || (!d.Depth.DepthEnable && !d.Depth.StencilEnable) || mask == 0 {
		return mask
	}
	var z [64]float32
	shader := d.PSResources.WritesDepth && out != nil
	if !shader {
		tq := q
		tq.Coverage = mask
		p.Triangle.QuadDepths(cfg, tq, &z)
	}
	n := cfg.Samples.Count
	pass := uint64(0)
	for m := mask; m != 0; m &= m - 1 {
		bit := bits.TrailingZeros64(m)
		pix, s := bit/n, bit%n
		x, y := int(q.X)+pix&1, int(q.Y)+pix>>1
		zv := z[bit]
		if shader {
			zv = clampDepth(out.Depth[pix], d.Viewport.MinZ, d.Viewport.MaxZ)
		}
		sd, ss := db.Load(x, y, s)
		if d.Depth.Test(db.Format, depth.Quantize(zv, db.Format), sd, ss, p.Triangle.BackFacing).Pass {
			pass |= 1 << bit
		}
	}
	return pass
}

// clampDepth clamps a shader depth to the viewport range as the output merger
// does (NaN to the minimum).
func clampDepth(z, lo, hi float32) float32 {
	if !(z >= lo) {
		return lo
	}
	if z > hi {
		return hi
	}
	return z
}
