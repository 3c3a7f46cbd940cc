package pipeline

import (
	"math/bits"
	"strings"

	"github.com/gfxsim/gfxsim/functional/blend"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
)

// Per-sample shading, as the SAGE rasterize chip does it (Deering & Naegle
// 2002, §3.3): texturing per pixel, colour, z and alpha interpolated at each
// sample's own position. With a programmable pixel shader that is one shader
// invocation per sample whose inputs are interpolated at the sample, except
// the pixel-rate inputs (texture coordinates by default), which stay at the
// pixel centre so that every sample of a pixel makes the same texture
// requests and the hardware merges them. A sample quad is sample s of the four
// pixels of a raster quad; a pixel whose sample s is not live is a helper lane.

// DefaultPixelRate is the semantic of the inputs interpolated at the pixel
// centre by default.
var DefaultPixelRate = []string{"texcoord"}

// PixelRateLinks returns a mask of the draw's linked inputs (bit i: d.Link[i])
// whose semantic is one of semantics (case-insensitive), or whose semantic
// starts with one followed by a digit (texcoord1).
func PixelRateLinks(d *state.Draw, semantics []string) uint64 {
	var m uint64
	for i, l := range d.Link {
		for _, s := range semantics {
			if SemanticMatches(l.Semantic, s) {
				m |= 1 << uint(i)
			}
		}
	}
	return m
}

// SemanticMatches reports whether an input's semantic sem is the pixel-rate
// semantic s (case-insensitive) or s followed by digits (texcoord1).
func SemanticMatches(sem, s string) bool {
	sem, s = strings.ToLower(sem), strings.ToLower(s)
	return sem == s || strings.HasPrefix(sem, s) && strings.Trim(sem[len(s):], "0123456789") == ""
}

// SampleBits is the mask of sample s in every pixel of a quad.
func SampleBits(s int) raster.SampleMask {
	b := uint64(1) << uint(s)
	return raster.SampleMask{b, b, b, b}
}

// LoadPerSampleQuad writes the inputs of sample quad s of quad q of primitive
// p into lanes lane0..lane0+3: lane k is sample s of pixel k, interpolated at
// that sample's position, except the inputs in pixelRate (a PixelRateLinks
// mask), interpolated at the pixel centre. Pixels whose sample s is not in
// live are helpers.
func LoadPerSampleQuad(d *state.Draw, cfg *raster.Config, p *Primitive, q raster.Quad, s int, live raster.SampleMask,
	pixelRate uint64, w *shader.Warp, lane0 int) {
	t := &p.Triangle
	front := geom.Vec4{1, 1, 1, 1}
	if t.BackFacing {
		front = geom.Vec4{}
	}
	w.Helper |= uint64(live.And(SampleBits(s)).HelperPixels()) << lane0
	for pix := 0; pix < 4; pix++ {
		px, py := int(q.X)+pix&1, int(q.Y)+pix>>1
		pos := t.SampleInputPosition(px, py, s)
		lane := lane0 + pix
		for i, l := range d.Link {
			var v geom.Vec4
			switch l.Source {
			case shader.LinkVarying:
				mode := raster.InterpMode(l.Interp)
				switch {
				case mode.Base() == raster.Flat:
					v = p.Attr[l.VSReg][0]
				case pixelRate&(1<<uint(i)) != 0:
					v = t.InterpolateQuad(cfg, q, pix, mode.Base(), &p.Attr[l.VSReg])
				default:
					b := t.Barycentrics(pos[0], pos[1], mode.Base() == raster.Perspective)
					v = raster.Interpolate(mode, &p.Attr[l.VSReg], b)
				}
			case shader.LinkPosition:
				v = pos
			case shader.LinkFrontFace:
				v = front
			}
			w.SetInput(lane, l.PSReg, v)
		}
	}
}

// SampleZ is the depth sample s of pixel (x, y) of primitive p is tested and
// written with: the shader's depth output clamped to the viewport's range when
// the pixel shader writes depth (o from its sample quad), else the depth plane
// at the sample.
func SampleZ(d *state.Draw, cfg *raster.Config, p *Primitive, x, y, s, pix int, o *QuadOutput) float32 {
	if d.PSResources.WritesDepth {
		return ClampDepth(o.Depth[pix], d.Viewport.MinZ, d.Viewport.MaxZ)
	}
	return p.Triangle.SampleDepth(cfg, x, y, s)
}

// WriteSample is the SAGE 3DRAM's sample write (Deering & Naegle 2002, §3.5:
// the z compare and the blend happen inside the memory): the depth/stencil
// test of sample s of pixel (x, y) at depth z (SampleZ), then, if it passes,
// the blend of c into the colour target. It reports whether the colour was
// written.
func WriteSample(d *state.Draw, x, y, s int, z float32, backFacing bool, c geom.Vec4, st *WriteStats) bool {
	if d.DepthBuf != nil && (d.Depth.DepthEnable || d.Depth.StencilEnable) {
		r := d.DepthBuf.Test(&d.Depth, x, y, s, depth.Quantize(z, d.DepthBuf.Format), backFacing)
		if !r.Pass {
			st.Failed++
			return false
		}
		st.Passed++
	}
	bt := &d.Blend.Targets[0]
	d.Color.BlendStore(x, y, s, c, bt, d.Blend.Constant)
	st.Written++
	if bt.Enable {
		st.Blended++
	}
	return true
}

// WritePerSampleQuad writes quad q of primitive p, shaded per sample, to the
// sample buffer: out[s] holds the outputs of sample quad s for every sample s
// live in some pixel. Per sample quad it drops the killed lanes' samples and
// writes the others with WriteSample, in sample order (samples are
// independent, so each sample still sees its primitives in API order). The
// depth test is always the sample write's (SAGE has no early Z: the draw must
// have EarlyZ off). The quad account counts the quad once: discarded when the
// shader killed every live sample, late-Z culled when none of the rest passed,
// written otherwise.
func WritePerSampleQuad(d *state.Draw, cfg *raster.Config, p *Primitive, q raster.Quad, live raster.SampleMask,
	out *[raster.MaxSamples]QuadOutput, st *WriteStats) {
	shaded, written := false, false
	for m := live[0] | live[1] | live[2] | live[3]; m != 0; m &= m - 1 {
		s := bits.TrailingZeros64(m)
		o := &out[s]
		ls := Survivors(live.And(SampleBits(s)), o, st)
		for !ls.Empty() {
			shaded = true
			pix, _ := ls.Pop()
			x, y := int(q.X)+pix&1, int(q.Y)+pix>>1
			z := SampleZ(d, cfg, p, x, y, s, pix, o)
			if WriteSample(d, x, y, s, z, p.Triangle.BackFacing, o.Color[pix], st) {
				written = true
			}
		}
	}
	st.EndQuad(shaded, written)
}

// OrderIndependent reports whether the sample writes of draw d give the same
// sample buffer in any order between its primitives, as long as each sample
// location sees them once (SAGE's unordered rendering, Deering & Naegle 2002,
// §3.4): the depth test is Less or Greater with depth writes on, against a
// bound depth buffer, with no stencil and no blending, and every colour
// channel written. (Equal depths at one sample are the exception the reference
// counts as OrderTies.) Every other draw is order-dependent: its samples must
// reach the sample buffer in API order.
func OrderIndependent(d *state.Draw) bool {
	ds := &d.Depth
	if d.DepthBuf == nil || !ds.DepthEnable || !ds.DepthWrite || ds.StencilEnable ||
		ds.DepthFunc != depth.Less && ds.DepthFunc != depth.Greater {
		return false
	}
	bt := &d.Blend.Targets[0]
	return !bt.Enable && bt.WriteMask == blend.WriteAll
}
