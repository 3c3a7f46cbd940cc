package reference

import (
	"math/bits"

	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/raster5d"
)

// DecoupledCounters are the counters of decoupled sampling (Ragan-Kelley et al.
// 2011) over the decoupled draws of a frame. The image does not depend on them:
// the reference renderer memoizes without bound (a shading quad is shaded once
// per primitive), so ShadingQuads is the least any bounded cache can shade.
type DecoupledCounters struct {
	Draws int // decoupled draws

	// The 5D path: triangles by raster case, sample tests and covered samples
	// (raster5d.Stats), reference views (decouple.MapStats).
	Triangles [raster5d.NumCases]int
	Raster    raster5d.Stats
	Map       decouple.MapStats

	// Visibility: primitive-pixel pairs with a sample that passed early Z
	// (CoveredPixels) and those samples (VisibleSamples), on both paths.
	CoveredPixels  int64
	VisibleSamples int64
	// Shading: shading quads shaded (4 lanes each, helpers included) and the
	// memo's tap look-ups (5D path; a 2D-path quad is one miss).
	ShadingQuads int64
	MemoHits     int64
	MemoMisses   int64
	// Blur area: distinct shading samples read and distinct (shading sample,
	// pixel) pairs (decouple.BlurArea); their ratio is the mean number of
	// pixels one shading sample touches.
	ShadingSamplesRead int64
	ShadingPixelPairs  int64
}

// ShadingRate is shader invocations (4 per shading quad) per covered pixel.
func (c *DecoupledCounters) ShadingRate() float64 {
	return decouple.ShadingRate(c.ShadingQuads, c.CoveredPixels)
}

// Savings is visible samples per shader invocation: the factor saved against
// an idealized supersampler that shades every visible sample once.
func (c *DecoupledCounters) Savings() float64 {
	return decouple.Savings(c.VisibleSamples, c.ShadingQuads)
}

// BlurArea is the mean number of pixels one shading sample touches.
func (c *DecoupledCounters) BlurArea() float64 {
	if c.ShadingSamplesRead == 0 {
		return 0
	}
	return float64(c.ShadingPixelPairs) / float64(c.ShadingSamplesRead)
}

// primShading is the memo of one 5D primitive: tag -> slot, and the shaded
// outputs by slot.
type primShading struct {
	memo   decouple.Memo
	values []pipeline.ShadingLanes
}

// shadeReq is a shading quad waiting for a warp.
type shadeReq struct {
	prim   int
	sh     *primShading
	slot   int32
	tag    decouple.Tag
	sample int               // supersample mode: the sample index (tag.Sample)
	live   raster.SampleMask // supersample mode: the visibility quad's live samples
}

// visRecord is a visibility quad waiting for its shading: written in order.
type visRecord struct {
	prim   int
	sh     *primShading
	qx, qy int32
	live   raster.SampleMask
}

// decoupledState is the reference renderer's state for decoupled draws.
type decoupledState struct {
	dd       *pipeline.Decoupled
	patterns pipeline.PatternCache
	nextID   uint32 // primitive numbers of the frame

	cur     *primShading   // the current 5D primitive's memo
	retired []*primShading // earlier primitives' memos still referenced by pending records
	pool    []*primShading
	shade   []shadeReq
	vis     []visRecord
	maps    []sampleMap // the pending records' live samples, in record and sample order
	mapAt   int         // the next one writeVisibility reads
	quads   []raster5d.Quad
	blur    decouple.BlurArea
}

// sampleMap is a live sample's decoupling result, kept from the map to the
// write: its taps and their memo slots.
type sampleMap struct {
	l    decouple.Lookup
	slot [4]int32
}

func (s *decoupledState) newShading() *primShading {
	if s.cur != nil {
		s.retired = append(s.retired, s.cur)
	}
	if n := len(s.pool); n > 0 {
		s.cur = s.pool[n-1]
		s.pool = s.pool[:n-1]
	} else {
		s.cur = &primShading{}
	}
	s.cur.memo.Clear()
	s.cur.values = s.cur.values[:0]
	return s.cur
}

// releaseRetired returns the memos no record refers to any more (after a
// flush wrote every pending record) to the pool.
func (s *decoupledState) releaseRetired() {
	s.pool = append(s.pool, s.retired...)
	clear(s.retired)
	s.retired = s.retired[:0]
}

// rasterize5D walks the tiles and visibility quads of 5D primitive p: early Z
// per sample, the decoupling map per visible sample, a memo look-up per tap (a
// miss queues the shading quad), and a visibility record per quad.
func (r *renderer) rasterize5D(p int) {
	ds := &r.dec
	prim := &r.prims[p]
	b := prim.Blur
	dc := &r.cnt.Decoupled
	dc.Triangles[b.Tri.Case]++
	obs := r.opts.Observer
	if obs != nil {
		obs.Primitive(r.d, prim)
	}
	sh := ds.newShading()
	bh, _ := r.opts.Hooks.(BlurHooks)
	r.tiles = b.Tri.Tiles(r.tiles[:0])
	for _, tp := range r.tiles {
		r.cnt.Tiles++
		ds.quads = b.Tri.TileQuads(tp.X, tp.Y, ds.quads[:0], &dc.Raster)
		if bh != nil {
			bh.Tile5D(prim, ds.quads)
		}
		for i := range ds.quads {
			q := &ds.quads[i]
			r.cnt.Quads++
			r.cnt.CoveredSamples += q.Coverage.Count()
			live := q.Coverage
			if r.d.EarlyZ {
				var st pipeline.DepthStats
				live = pipeline.EarlyDepthSamples(r.d, prim, q.X, q.Y, live, &st)
				if obs != nil {
					r.observeDepth(q.X, q.Y, q.Coverage, live)
				}
				if r.earlyZCulled(&st, live) {
					continue
				}
			}
			dc.CoveredPixels += int64(bits.OnesCount8(live.Pixels()))
			dc.VisibleSamples += int64(live.Count())
			if obs != nil {
				obs.Quad(prim, q.X, q.Y, live)
			}
			if ds.dd.Supersample {
				r.mapSupersampled(p, sh, q.X, q.Y, live)
			} else {
				r.mapDecoupled(p, sh, q.X, q.Y, live)
			}
			r.cnt.QuadsShaded++ // the quad account counts visibility quads
			ds.vis = append(ds.vis, visRecord{prim: p, sh: sh, qx: q.X, qy: q.Y, live: live})
			if len(ds.shade) >= r.opts.WarpQuads {
				r.flush5D()
			}
		}
	}
}

// mapDecoupled maps the live samples of a visibility quad to their taps and
// looks each tap up in the primitive's memo, queueing the misses.
func (r *renderer) mapDecoupled(p int, sh *primShading, qx, qy int32, live raster.SampleMask) {
	ds := &r.dec
	b := r.prims[p].Blur
	dc := &r.cnt.Decoupled
	obs := r.opts.Observer
	for pix := 0; pix < 4; pix++ {
		x, y := int(qx)+pix&1, int(qy)+pix>>1
		for m := live[pix]; m != 0; m &= m - 1 {
			s := bits.TrailingZeros64(m)
			ds.maps = append(ds.maps, sampleMap{l: b.Map.Index(b.Tri.Barycentrics(x, y, s))})
			sm := &ds.maps[len(ds.maps)-1]
			for i := 0; i < sm.l.N; i++ {
				t := &sm.l.Taps[i]
				if obs != nil {
					obs.Tap(t, x, y)
				}
				ds.blur.Add(t.Tag, int(t.Lane), int32(x), int32(y))
				slot, hit := sh.memo.Slot(t.Tag)
				sm.slot[i] = slot
				if hit {
					dc.MemoHits++
					continue
				}
				dc.MemoMisses++
				sh.values = append(sh.values, pipeline.ShadingLanes{})
				ds.shade = append(ds.shade, shadeReq{prim: p, sh: sh, slot: slot, tag: t.Tag})
			}
		}
	}
}

// mapSupersampled queues one shading quad per sample index with a live sample
// in the visibility quad (every visible sample is shaded at its own point).
func (r *renderer) mapSupersampled(p int, sh *primShading, qx, qy int32, live raster.SampleMask) {
	ds := &r.dec
	id := r.prims[p].ID
	any := live[0] | live[1] | live[2] | live[3]
	for m := any; m != 0; m &= m - 1 {
		s := bits.TrailingZeros64(m)
		tag := decouple.Tag{Prim: id, QuadX: qx, QuadY: qy, Sample: uint8(s)}
		slot, _ := sh.memo.Slot(tag)
		r.cnt.Decoupled.MemoMisses++
		sh.values = append(sh.values, pipeline.ShadingLanes{})
		ds.shade = append(ds.shade, shadeReq{prim: p, sh: sh, slot: slot, tag: tag, sample: s, live: live})
	}
}

// flush5D shades the queued shading quads in warps of WarpQuads and then writes
// every pending visibility record in order.
func (r *renderer) flush5D() {
	ds := &r.dec
	d, w := r.d, r.pwarp
	for len(ds.shade) > 0 {
		n := min(len(ds.shade), r.opts.WarpQuads)
		w.Reset(d.PS, 4*n, d.PSConstants)
		before := w.Stats
		for i := 0; i < n; i++ {
			req := &ds.shade[i]
			prim := &r.prims[req.prim]
			if ds.dd.Supersample {
				pipeline.LoadSampleQuad(d, ds.dd, prim, req.tag.QuadX, req.tag.QuadY, req.sample, req.live, w, 4*i)
			} else {
				pipeline.LoadShadingQuad(d, prim, req.tag, w, 4*i)
			}
		}
		r.cnt.HelperPixels += bits.OnesCount64(w.Helper)
		w.Run(r.pixelSampler())
		r.cnt.PixelWarps++
		r.cnt.PSInstructions += w.Stats.Instructions - before.Instructions
		r.cnt.PSLaneInstructions += w.Stats.LaneInstructions - before.LaneInstructions
		r.cnt.TexRequests += w.Stats.TexRequests - before.TexRequests
		for i := 0; i < n; i++ {
			req := &ds.shade[i]
			req.sh.values[req.slot] = pipeline.ReadShadingQuad(d, w, 4*i)
		}
		r.cnt.ShadingQuads += n
		r.cnt.PSInvocations += 4 * n
		r.cnt.Decoupled.ShadingQuads += int64(n)
		ds.shade = ds.shade[n:]
	}
	ds.shade = ds.shade[:0]
	for i := range ds.vis {
		r.writeVisibility(&ds.vis[i])
	}
	clear(ds.vis)
	ds.vis = ds.vis[:0]
	ds.maps, ds.mapAt = ds.maps[:0], 0
	ds.releaseRetired()
}

// writeVisibility runs the output merger for one visibility quad: each live
// sample takes its reconstructed colour, is dropped if its shading discarded
// it, runs late Z unless the draw used early Z, and blends.
func (r *renderer) writeVisibility(v *visRecord) {
	ds := &r.dec
	d := r.d
	prim := &r.prims[v.prim]
	b := prim.Blur
	var ws pipeline.WriteStats
	killed, written := true, false
	for pix := 0; pix < 4; pix++ {
		x, y := int(v.qx)+pix&1, int(v.qy)+pix>>1
		for m := v.live[pix]; m != 0; m &= m - 1 {
			s := bits.TrailingZeros64(m)
			var c geom.Vec4
			var store bool
			var lanes *pipeline.ShadingLanes
			if ds.dd.Supersample {
				slot, _ := v.sh.memo.Find(decouple.Tag{Prim: prim.ID, QuadX: v.qx, QuadY: v.qy, Sample: uint8(s)})
				lanes = &v.sh.values[slot]
				c, store = lanes.Color[pix], lanes.Store>>uint(pix)&1 != 0
			} else {
				sm := &ds.maps[ds.mapAt]
				ds.mapAt++
				var taps [4]*pipeline.ShadingLanes
				for i := 0; i < sm.l.N; i++ {
					taps[i] = &v.sh.values[sm.slot[i]]
				}
				c, store = pipeline.Reconstruct(&sm.l, &taps)
			}
			if !store {
				ws.Killed++
				continue
			}
			killed = false
			if !d.EarlyZ {
				z := b.Tri.SampleDepth(x, y, s)
				if d.PSResources.WritesDepth && lanes != nil {
					z = pipeline.ShaderDepth(d, lanes.Depth[pix])
				}
				pass := pipeline.SampleDepthTest(d, prim, x, y, s, z, &ws.DepthStats)
				if r.opts.Observer != nil {
					r.observeSampleDepth(x, y, s, pass)
				}
				if !pass {
					continue
				}
			}
			written = true
			pipeline.BlendSample(d, x, y, s, c, &ws)
			if r.opts.Observer != nil {
				r.observeColor(x, y, s)
			}
		}
	}
	ws.EndQuad(!killed, written)
	r.addWriteStats(&ws)
}

// Each calls f with every counter and derived figure under its statistics
// name (snake case: draws, triangles_static, ..., shading_rate, savings,
// blur_area).
func (c *DecoupledCounters) Each(f func(name string, v float64)) {
	f("draws", float64(c.Draws))
	for k := raster5d.Case(1); k < raster5d.NumCases; k++ {
		f("triangles_"+k.String(), float64(c.Triangles[k]))
		f("sample_tests_"+k.String(), float64(c.Raster.SampleTests[k]))
	}
	f("sample_tests", float64(c.Raster.Tests()))
	f("samples_covered", float64(c.Raster.SamplesCovered))
	f("reference_views", float64(c.Map.Triangles))
	f("degenerate_t1", float64(c.Map.DegenerateT1))
	f("degenerate_barycentric", float64(c.Map.DegenerateBarycentric))
	f("covered_pixels", float64(c.CoveredPixels))
	f("visible_samples", float64(c.VisibleSamples))
	f("shading_quads", float64(c.ShadingQuads))
	f("memo_hits", float64(c.MemoHits))
	f("memo_misses", float64(c.MemoMisses))
	f("shading_samples_read", float64(c.ShadingSamplesRead))
	f("shading_pixel_pairs", float64(c.ShadingPixelPairs))
	f("shading_rate", c.ShadingRate())
	f("savings", c.Savings())
	f("blur_area", c.BlurArea())
}
