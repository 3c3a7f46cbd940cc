package reference

import (
	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
)

// Access is one per-sample framebuffer access of the output merger, at its
// byte address in simulated memory (the target's base plus the surface
// layout's offset of the sample).
type Access struct {
	Addr  uint64
	Depth bool // depth/stencil target (else colour target 0)
	Write bool // a store (else a load)
}

// Observer watches a frame for a study, in API order. It only observes: the
// image and the counters do not change. Options.Observer nil costs nothing.
//
// For every primitive: Primitive, then per quad whose samples survived early
// Z, Quad (on the 2D path the quad goes to shading as one shading quad; on the
// 5D path Tap follows for every tap of every live sample, in the order the
// memo looks them up). Framebuffer reports every depth test (a load, and a
// store when the sample passed with depth writes on) and every colour write
// (a load first when blending). Texture reports every pixel-shader texture
// request with the binding it samples, before it is filtered.
type Observer interface {
	Primitive(d *state.Draw, p *pipeline.Primitive)
	Quad(p *pipeline.Primitive, qx, qy int32, live raster.SampleMask)
	Tap(t *decouple.Tap, x, y int)
	Framebuffer(a Access)
	Texture(b *state.TextureBinding, req *shader.TexRequest)
}

// observedTextures reports texture requests to an Observer and samples them.
type observedTextures struct {
	units *pipeline.TextureUnits
	obs   Observer
}

func (o *observedTextures) SampleTexture(req *shader.TexRequest) geom.Vec4 {
	o.obs.Texture(&o.units.Bindings[req.Unit], req)
	return o.units.SampleTexture(req)
}

// pixelSampler returns the texture sampler of pixel warps.
func (r *renderer) pixelSampler() shader.TextureSampler {
	if r.opts.Observer != nil {
		r.obsTex = observedTextures{units: &r.psTex, obs: r.opts.Observer}
		return &r.obsTex
	}
	return &r.psTex
}

// observeDepth reports the depth accesses of the samples in tested, of which
// those in passed passed.
func (r *renderer) observeDepth(qx, qy int32, tested, passed raster.SampleMask) {
	d := r.d
	if d.DepthBuf == nil || (!d.Depth.DepthEnable && !d.Depth.StencilEnable) {
		return
	}
	for m := tested; !m.Empty(); {
		pix, s := m.Pop()
		x, y := int(qx)+pix&1, int(qy)+pix>>1
		r.observeSampleDepth(x, y, s, passed.Has(pix, s))
	}
}

// observeSampleDepth reports one sample's depth test.
func (r *renderer) observeSampleDepth(x, y, s int, pass bool) {
	d := r.d
	if d.DepthBuf == nil || (!d.Depth.DepthEnable && !d.Depth.StencilEnable) {
		return
	}
	a := Access{Addr: d.DepthDesc.Addr + d.DepthBuf.Address(x, y, s), Depth: true}
	r.opts.Observer.Framebuffer(a)
	if pass && d.Depth.DepthWrite {
		a.Write = true
		r.opts.Observer.Framebuffer(a)
	}
}

// observeColor reports one sample's colour write.
func (r *renderer) observeColor(x, y, s int) {
	d := r.d
	a := Access{Addr: d.ColorDesc.Addr + d.Color.Address(x, y, s)}
	if d.Blend.Targets[0].Enable {
		r.opts.Observer.Framebuffer(a)
	}
	a.Write = true
	r.opts.Observer.Framebuffer(a)
}

// writeQuadObserved is pipeline.WriteQuad step by step, reporting the
// framebuffer accesses.
func (r *renderer) writeQuadObserved(p *pipeline.Primitive, q raster.Quad, live raster.SampleMask, o *pipeline.QuadOutput, ws *pipeline.WriteStats) {
	d := r.d
	live = pipeline.Survivors(live, o, ws)
	if live.Empty() {
		ws.QuadsDiscarded++
		return
	}
	if !d.EarlyZ {
		tested := live
		live = pipeline.LateDepth(d, &r.cfg, p, q, live, o, &ws.DepthStats)
		r.observeDepth(q.X, q.Y, tested, live)
		if live.Empty() {
			ws.QuadsLateZCulled++
			return
		}
	}
	pipeline.BlendQuad(d, q, live, o, ws)
	for m := live; !m.Empty(); {
		pix, s := m.Pop()
		r.observeColor(int(q.X)+pix&1, int(q.Y)+pix>>1, s)
	}
	ws.QuadsWritten++
}
