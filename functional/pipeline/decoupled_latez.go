package pipeline

import (
	"math/bits"

	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/state"
)

// LateDepthSamples runs the late depth/stencil test (SampleDepthTest) of the
// samples in mask of the 5D primitive p's visibility quad at (qx, qy), pixel
// 0..3 and then sample order, and returns those that passed. Each sample is
// tested at its own depth (raster5d.Triangle.SampleDepth), or, when depths is
// not nil, at depths[k] clamped to the depth range (ShaderDepth): the pixel
// shader's depth output for the k-th sample of mask. It is the late Z of the
// reference renderer's writeVisibility, for a timed depth unit.
func LateDepthSamples(d *state.Draw, p *Primitive, qx, qy int32, mask raster.SampleMask, depths []float32, st *DepthStats) raster.SampleMask {
	if d.DepthBuf == nil || (!d.Depth.DepthEnable && !d.Depth.StencilEnable) {
		return mask
	}
	var pass raster.SampleMask
	t := &p.Blur.Tri
	k := 0
	for pix := 0; pix < 4; pix++ {
		x, y := int(qx)+pix&1, int(qy)+pix>>1
		for m := mask[pix]; m != 0; m &= m - 1 {
			s := bits.TrailingZeros64(m)
			var z float32
			if depths != nil {
				z = ShaderDepth(d, depths[k])
			} else {
				z = t.SampleDepth(x, y, s)
			}
			k++
			if SampleDepthTest(d, p, x, y, s, z, st) {
				pass[pix] |= 1 << uint(s)
			}
		}
	}
	return pass
}
