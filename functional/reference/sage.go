package reference

import (
	"image"
	"math/bits"

	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// SageOptions make the reference renderer render what the SAGE machine
// displays (Deering & Naegle 2002): every draw shaded per sample at the
// pattern RAM's positions (pipeline.LoadPerSampleQuad), the render target an
// RGBA10 sample buffer (the driver allocates it: driver.Options.ColorFormat),
// and at Present the video output of the convolve chips instead of a box
// resolve.
type SageOptions struct {
	// PixelRate lists the semantics of the inputs interpolated at the pixel
	// centre (nil: pipeline.DefaultPixelRate, texture coordinates).
	PixelRate []string
	// Display makes the displayed image from the sample buffer at Present
	// (nil: a box resolve).
	Display func(*framebuffer.ColorTarget) (*image.RGBA, error)
}

// sageSample is one sample quad of a pending quad.
type sageSample struct {
	quad   int // index in renderer.pending
	sample int
}

// sageState is the per-sample path's scratch.
type sageState struct {
	pixelRate uint64 // the current draw's pixel-rate links (pipeline.PixelRateLinks)
	work      []sageSample
	out       [][raster.MaxSamples]pipeline.QuadOutput // per pending quad
}

// beginSageDraw sets up the per-sample path for draw r.d.
func (r *renderer) beginSageDraw() {
	rate := r.opts.Sage.PixelRate
	if rate == nil {
		rate = pipeline.DefaultPixelRate
	}
	r.sage.pixelRate = pipeline.PixelRateLinks(r.d, rate)
}

// flushPerSample shades the pending quads per sample, WarpQuads sample quads
// per warp, then merges each quad's samples in quad order.
func (r *renderer) flushPerSample() {
	ss := &r.sage
	ss.work = ss.work[:0]
	for i, pq := range r.pending {
		for m := pq.live[0] | pq.live[1] | pq.live[2] | pq.live[3]; m != 0; m &= m - 1 {
			ss.work = append(ss.work, sageSample{quad: i, sample: bits.TrailingZeros64(m)})
		}
	}
	if cap(ss.out) < len(r.pending) {
		ss.out = make([][raster.MaxSamples]pipeline.QuadOutput, len(r.pending))
	}
	ss.out = ss.out[:len(r.pending)]
	d, w := r.d, r.pwarp
	for first := 0; first < len(ss.work); first += r.opts.WarpQuads {
		chunk := ss.work[first:min(first+r.opts.WarpQuads, len(ss.work))]
		w.Reset(d.PS, 4*len(chunk), d.PSConstants)
		before := w.Stats
		for i, sq := range chunk {
			pq := &r.pending[sq.quad]
			pipeline.LoadPerSampleQuad(d, &r.cfg, &r.prims[pq.prim], pq.quad, sq.sample, pq.live, ss.pixelRate, w, 4*i)
		}
		w.Run(r.pixelSampler())
		r.cnt.PixelWarps++
		r.cnt.PSInstructions += w.Stats.Instructions - before.Instructions
		r.cnt.PSLaneInstructions += w.Stats.LaneInstructions - before.LaneInstructions
		r.cnt.TexRequests += w.Stats.TexRequests - before.TexRequests
		for i, sq := range chunk {
			pq := &r.pending[sq.quad]
			ss.out[sq.quad][sq.sample] = pipeline.ReadQuad(d, w, 4*i)
			r.cnt.ShadingQuads++
			r.cnt.PSInvocations += 4
			r.cnt.HelperPixels += bits.OnesCount8(pq.live.And(pipeline.SampleBits(sq.sample)).HelperPixels())
		}
	}
	var ws pipeline.WriteStats
	for i, pq := range r.pending {
		r.cnt.QuadsShaded++
		pipeline.WritePerSampleQuad(d, &r.cfg, &r.prims[pq.prim], pq.quad, pq.live, &ss.out[i], &ws)
	}
	r.pending = r.pending[:0]
	r.addWriteStats(&ws)
}
