package reference

import (
	"fmt"
	"image"
	"math/bits"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/raster5d"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/vertex"
)

// Options are the hardware parameters that change what is counted (not the image).
type Options struct {
	Raster        pipeline.RasterOptions
	BatchVertices int // unique vertices per vertex batch (default 32)
	WarpQuads     int // quads per pixel warp (default 8; at most 16)
	// ForceLateZ runs the depth/stencil test after shading even when the pixel
	// shader would allow early Z (the image must not change).
	ForceLateZ bool
	// Hooks, when non-nil, observes the work (and may cull samples, as
	// hierarchical Z does); see Hooks. nil renders exactly as without it.
	// Hooks see only the 2D path: 5D primitives of decoupled draws pass
	// untested (a Hooks that is also a BlurHooks is told of their tiles).
	Hooks Hooks
	// PatternSeed seeds the lens and time pattern of stochastic rasterization
	// (0: pipeline.DefaultPatternSeed). The image depends on it.
	PatternSeed uint64
	// Observer, when non-nil, watches primitives, quads, decoupling taps,
	// framebuffer accesses and texture requests (see Observer). nil renders
	// exactly as without it, at the same speed.
	Observer Observer
	// Sage, when non-nil, renders the SAGE machine's image (see SageOptions).
	Sage *SageOptions
}

// Hooks lets a study observe the renderer in API order and, for hierarchical
// Z, remove samples that surely fail their depth test before they are tested.
// The image must not change: a hook may only clear live samples that would
// fail the depth/stencil test without side effects.
type Hooks interface {
	// BeginDraw is called before the draw's first primitive, with the raster
	// configuration of the draw.
	BeginDraw(d *state.Draw, cfg *raster.Config)
	// Tile is called for every tile of a primitive after fine rasterization,
	// before its quads go on: quads are the quads with coverage (Coverage is
	// the raster coverage) and live[i] starts as quads[i].Coverage. The hook
	// may clear bits of live; a quad left with none is dropped (counted in
	// HiZQuadsCulled), the others continue with their live samples.
	Tile(p *pipeline.Primitive, tx, ty int, quads []raster.Quad, live []raster.SampleMask)
	// DepthTest is called right before the depth/stencil test of a quad's live
	// samples: early Z (out nil) or, for late-Z draws, before the output merger
	// with the shader's outputs (live still includes the samples the shader
	// killed).
	DepthTest(p *pipeline.Primitive, q raster.Quad, live raster.SampleMask, out *pipeline.QuadOutput)
	// Clear is called after a clear was carried out.
	Clear(a state.Action)
}

// BlurHooks is implemented by Hooks that must know where the 5D primitives of
// decoupled draws write, although they do not test them: hierarchical Z
// forgets what it knew about the tiles they cover (hiz.Buffer.Forget), as the
// timed HiZ unit does.
type BlurHooks interface {
	// Tile5D is called for every tile of a 5D primitive after stochastic
	// rasterization, before early Z, with its quads (Coverage the raster
	// coverage), in API order with Tile.
	Tile5D(p *pipeline.Primitive, quads []raster5d.Quad)
}

// DefaultOptions returns the defaults: 8x8 tiles in row-major order, quads in
// row-major order, 32-vertex batches, 8-quad warps.
func DefaultOptions() Options {
	return Options{Raster: pipeline.RasterOptions{TileSize: raster.DefaultTileSize},
		BatchVertices: vertex.DefaultBatchVertices, WarpQuads: 8}
}

// Counters is what the reference renderer counts. The timed model keeps the same
// counters under the same names.
type Counters struct {
	Commands int
	Draws    int
	Clears   int
	Presents int

	VertexBatches     int
	VertexCacheHits   int // tag-array hits while forming batches
	VertexCacheMisses int
	VSInvocations     int

	pipeline.GeometryStats

	Tiles          int // coarse tiles not rejected by the coarse test
	TilesInside    int // of which entirely inside the triangle
	Quads          int // quads with coverage from the fine rasterizer
	CoveredSamples int

	HiZQuadsCulled    int // quads whose every sample a Hooks.Tile culled (0 without hooks)
	EarlyZQuadsCulled int // quads whose every sample failed early Z
	QuadsShaded       int
	ShadingQuads      int // quads of shader lanes run: QuadsShaded, plus decoupled shading quads; per-sample draws: their sample quads (PSInvocations = 4*ShadingQuads)
	PerSampleDraws    int // draws shaded per sample (SageOptions)
	PixelWarps        int
	PSInvocations     int // lanes shaded: 4 per shaded quad, helpers included
	HelperPixels      int

	// Geometry shading and stream-out (draws with a geometry shader or
	// stream-out; see pipeline.GSStats and pipeline.StreamOutStats).
	GSInvocations       int
	GSWarps             int
	GSInstructions      uint64
	GSLaneInstructions  uint64
	GSEmits             uint64
	GSEmitsDropped      uint64 // emits beyond .max_vertices, dropped
	GSPrimitives        int    // primitives the second primitive assembly cut from the output strips
	SOPrimitivesWritten int
	SOPrimitivesNeeded  int
	SOBytesWritten      uint64

	VSInstructions     uint64 // warp instructions
	PSInstructions     uint64
	VSLaneInstructions uint64
	PSLaneInstructions uint64
	TexRequests        uint64 // lane texture requests (vertex and pixel)

	DepthTestsPassed int // per sample, early and late
	DepthTestsFailed int
	SamplesKilled    int
	SamplesWritten   int
	SamplesBlended   int

	// Every quad from the rasterizer ends one of four ways: culled by early Z,
	// discarded by the shader, culled by late Z, or written.
	QuadsDiscarded   int
	QuadsLateZCulled int
	QuadsWritten     int

	// Decoupled sampling (draws whose Decoupling.Mode is not off). On the 5D
	// path of those draws Quads and the quad account above count visibility
	// quads (QuadsShaded: visibility quads that went on to shading), while
	// PixelWarps, PSInvocations and HelperPixels count shading quads' warps and
	// lanes (Decoupled.ShadingQuads).
	Decoupled DecoupledCounters
}

// Result is a rendered frame.
type Result struct {
	Image    *image.RGBA // the resolved render target at the last Present (nil without one)
	Counters Counters
}

type pendingQuad struct {
	prim int
	quad raster.Quad
	live raster.SampleMask
}

type renderer struct {
	// quadOut is flush's output of the quad being written, reused: a
	// per-quad value would escape to the heap through Hooks (hundreds of MB
	// of garbage on a large frame).
	quadOut pipeline.QuadOutput
	mem     state.Memory
	opts    Options
	cnt     Counters
	vwarp   *shader.Warp
	pwarp   *shader.Warp
	gwarp   *shader.Warp
	gout    pipeline.GeometryOutput
	fetch   vertex.Fetcher

	d       *state.Draw
	cfg     raster.Config
	psTex   pipeline.TextureUnits
	prims   []pipeline.Primitive
	pending []pendingQuad
	tiles   []raster.TilePos
	quads   []raster.Quad
	live    []raster.SampleMask
	dec     decoupledState
	sage    sageState
	obsTex  observedTextures // the pixel warps' sampler when an Observer is set
}

// Render executes the command stream of size bytes at address stream in memory mem.
func Render(mem state.Memory, stream, size uint64, opts Options) (*Result, error) {
	if opts.BatchVertices == 0 {
		opts.BatchVertices = vertex.DefaultBatchVertices
	}
	if opts.WarpQuads == 0 {
		opts.WarpQuads = 8
	}
	if opts.WarpQuads < 1 || opts.WarpQuads > shader.MaxLanes/4 {
		return nil, fmt.Errorf("reference: %d quads per warp out of range [1, %d]", opts.WarpQuads, shader.MaxLanes/4)
	}
	if opts.Sage != nil && (opts.Hooks != nil || opts.Observer != nil) {
		return nil, fmt.Errorf("reference: the SAGE path takes no Hooks or Observer")
	}
	batcher, err := vertex.NewBatcher(opts.BatchVertices)
	if err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	cmds, err := command.DecodeStream(mem, stream, size)
	if err != nil {
		return nil, err
	}
	r := &renderer{mem: mem, opts: opts, vwarp: shader.NewWarp(shader.MaxLanes), gwarp: shader.NewWarp(shader.MaxLanes), pwarp: shader.NewWarp(4 * opts.WarpQuads)}
	tr := state.NewTracker(mem)
	res := &Result{}
	for _, c := range cmds {
		r.cnt.Commands++
		act, err := tr.Apply(c)
		if err != nil {
			return nil, err
		}
		switch act.Kind {
		case state.ActDraw:
			r.cnt.Draws++
			if err := r.draw(act.Draw, batcher); err != nil {
				return nil, fmt.Errorf("command stream @0x%x: %v: %w", c.Addr, c.Opcode(), err)
			}
		case state.ActClear:
			r.cnt.Clears++
			Clear(act)
			if opts.Hooks != nil {
				opts.Hooks.Clear(act)
			}
		case state.ActSync:
			if act.Sync.Addr != 0 {
				WriteSyncToken(mem, act.Sync)
			}
		case state.ActPresent:
			r.cnt.Presents++
			if opts.Sage != nil && opts.Sage.Display != nil {
				if res.Image, err = opts.Sage.Display(act.Color); err != nil {
					return nil, fmt.Errorf("command stream @0x%x: %v: video output: %w", c.Addr, c.Opcode(), err)
				}
			} else {
				res.Image = act.Color.Resolve()
			}
		}
	}
	res.Counters = r.cnt
	return res, nil
}

// Clear carries out a clear action on its targets.
func Clear(a state.Action) {
	c := a.Clear
	if c.Flags&command.ClearColor != 0 {
		a.Color.Clear(c.Color)
	}
	if c.Flags&command.ClearDepth != 0 {
		a.DepthBuf.ClearDepth(c.Depth)
	}
	if c.Flags&command.ClearStencil != 0 {
		a.DepthBuf.ClearStencil(c.Stencil)
	}
}

// WriteSyncToken stores a sync token's value at its address when that is mapped.
func WriteSyncToken(mem state.Memory, s command.SyncToken) {
	if b, ok := mem.Slice(s.Addr, 4); ok {
		b[0], b[1], b[2], b[3] = byte(s.Value), byte(s.Value>>8), byte(s.Value>>16), byte(s.Value>>24)
	}
}

func (r *renderer) draw(d *state.Draw, batcher *vertex.Batcher) error {
	if r.opts.ForceLateZ {
		d.EarlyZ = false
	}
	r.d = d
	r.cfg = pipeline.RasterConfig(d, r.opts.Raster)
	if err := r.cfg.Validate(); err != nil {
		return err
	}
	if r.opts.Hooks != nil {
		r.opts.Hooks.BeginDraw(d, &r.cfg)
	}
	if r.opts.Sage != nil {
		// SAGE has no decoupled sampling: blur scenes render sharp, at t = 0
		// through the lens centre.
		d.Decoupling = command.DefaultDecoupling()
		d.EarlyZ = false // the 3DRAM tests depth at the sample write
		r.beginSageDraw()
		r.cnt.PerSampleDraws++
	}
	dd, err := pipeline.NewDecoupled(d, &r.cfg, &r.dec.patterns, r.opts.PatternSeed)
	if err != nil {
		return err
	}
	r.dec.dd = dd
	if dd != nil {
		r.cnt.Decoupled.Draws++
	}
	r.psTex = pipeline.TextureUnits{Bindings: &d.PSTextures}
	vsTex := pipeline.TextureUnits{Bindings: &d.VSTextures}
	geo := pipeline.NewGeometry(d, &r.cfg)
	var batch vertex.Batch
	// A primitive wider than the batch (6 vertices with adjacency) gets a batch of its own.
	vout := make([]pipeline.VertexOut, batcher.MaxVertices+vertex.MaxCorners)
	attrs := make([]vertex.Attributes, batcher.MaxVertices+vertex.MaxCorners)
	geoStage := d.GS != nil || d.StreamOut != nil
	so := pipeline.BeginStreamOut(d, r.mem)
	source := 0 // the draw's primitives leaving the geometry stage
	for first := 0; batcher.Next(r.mem, &d.Stream, first, &batch); first += batch.NumPrimitives() {
		r.cnt.VertexBatches++
		r.cnt.VertexCacheHits += batch.Hits
		r.cnt.VertexCacheMisses += batch.Misses
		st, err := pipeline.ShadeBatch(d, r.mem, &batch, r.vwarp, &r.fetch, &vsTex, attrs, vout)
		if err != nil {
			return err
		}
		r.cnt.VSInvocations += st.Vertices
		r.cnt.VSInstructions += st.Instructions
		r.cnt.VSLaneInstructions += st.LaneInstructions
		r.cnt.TexRequests += st.TexRequests
		if geoStage {
			if err := r.geometryStage(d, &batch, first, vout, geo, so, &source); err != nil {
				return err
			}
			continue
		}
		for i, tri := range batch.Triangles {
			v := [3]*pipeline.VertexOut{&vout[tri[0]], &vout[tri[1]], &vout[tri[2]]}
			if dd != nil {
				if p0, p1 := dd.Positions(v); dd.Takes5D(&p0, &p1) {
					r.flush() // the 2D path's quads blend before this triangle's samples
					id := r.dec.nextID
					r.dec.nextID++
					start := len(r.prims)
					r.prims = geo.Triangle5D(dd, first+i, id, v, r.prims, &r.cnt.GeometryStats, &r.cnt.Decoupled.Map)
					for p := start; p < len(r.prims); p++ {
						r.rasterize5D(p)
					}
					r.compact()
					continue
				}
				r.flush5D()
			}
			r.triangle(geo, first+i, v)
		}
	}
	r.flush()
	if so != nil {
		so.End()
		r.cnt.SOPrimitivesWritten += so.Stats.PrimitivesWritten
		r.cnt.SOPrimitivesNeeded += so.Stats.PrimitivesNeeded
		r.cnt.SOBytesWritten += so.Stats.BytesWritten
	}
	if dd != nil {
		r.flush5D()
		r.dec.blur.EndPrimitive()
		r.cnt.Decoupled.ShadingSamplesRead = r.dec.blur.ShadingSamples()
		r.cnt.Decoupled.ShadingPixelPairs = r.dec.blur.PixelPairs()
	}
	r.prims = r.prims[:0]
	return nil
}

// geometryStage runs the geometry shader (or passes the primitives
// through) over one shaded batch, streams the output primitives out in API
// order and rasterizes the triangles when the draw is rasterized. source
// numbers the draw's output primitives.
func (r *renderer) geometryStage(d *state.Draw, b *vertex.Batch, first int, vout []pipeline.VertexOut,
	geo *pipeline.Geometry, so *pipeline.StreamOutWriter, source *int) error {
	out := &r.gout
	out.Reset(d.OutputPrimitive().Vertices())
	if d.GS != nil {
		gsTex := pipeline.TextureUnits{Bindings: &d.GSTextures}
		st, err := pipeline.ShadeGeometry(d, b, first, vout, r.gwarp, &gsTex, out)
		if err != nil {
			return err
		}
		r.cnt.GSInvocations += st.Invocations
		r.cnt.GSWarps += st.Warps
		r.cnt.GSInstructions += st.Instructions
		r.cnt.GSLaneInstructions += st.LaneInstructions
		r.cnt.GSEmits += st.Emits
		r.cnt.GSEmitsDropped += st.EmitsDropped
		r.cnt.GSPrimitives += st.Primitives
		r.cnt.TexRequests += st.TexRequests
	} else {
		pipeline.PassThrough(d, b, vout, out)
	}
	rasterize := d.StreamOut == nil || d.StreamOut.Rasterize
	for i := range out.Prims {
		v := out.Vertices(i)
		if so != nil {
			so.Primitive(v, out.Corners)
		}
		if rasterize {
			r.triangle(geo, *source, v)
		}
		*source++
	}
	return nil
}

// triangle sets up (clips, culls) triangle v, primitive id of the draw, and
// rasterizes what is left of it.
func (r *renderer) triangle(geo *pipeline.Geometry, id int, v [3]*pipeline.VertexOut) {
	start := len(r.prims)
	r.prims = geo.Triangle(id, v, r.prims, &r.cnt.GeometryStats)
	for p := start; p < len(r.prims); p++ {
		r.rasterize(p)
	}
	r.compact()
}

// earlyZCulled counts an early depth test's results st; it reports whether
// the quad is culled: no sample of it, live, passed.
func (r *renderer) earlyZCulled(st *pipeline.DepthStats, live raster.SampleMask) bool {
	r.cnt.DepthTestsPassed += st.Passed
	r.cnt.DepthTestsFailed += st.Failed
	if live.Empty() {
		r.cnt.EarlyZQuadsCulled++
		return true
	}
	return false
}

// rasterize walks the tiles and quads of primitive p.
func (r *renderer) rasterize(p int) {
	prim := &r.prims[p]
	obs := r.opts.Observer
	if obs != nil {
		obs.Primitive(r.d, prim)
	}
	r.tiles = prim.Triangle.Tiles(&r.cfg, r.tiles[:0])
	for _, tp := range r.tiles {
		r.cnt.Tiles++
		if tp.Class == raster.TileInside {
			r.cnt.TilesInside++
		}
		r.quads = prim.Triangle.TileQuads(&r.cfg, tp.X, tp.Y, r.quads[:0])
		hooks := r.opts.Hooks
		if hooks != nil {
			r.live = r.live[:0]
			for _, q := range r.quads {
				r.live = append(r.live, q.Coverage)
			}
			hooks.Tile(prim, tp.X, tp.Y, r.quads, r.live)
		}
		for i, q := range r.quads {
			r.cnt.Quads++
			r.cnt.CoveredSamples += q.Coverage.Count()
			live := q.Coverage
			if hooks != nil {
				if live = r.live[i]; live.Empty() {
					r.cnt.HiZQuadsCulled++
					continue
				}
			}
			if r.d.EarlyZ {
				var ds pipeline.DepthStats
				tq := q
				tq.Coverage = live
				if hooks != nil {
					hooks.DepthTest(prim, q, live, nil)
				}
				live = pipeline.EarlyDepth(r.d, &r.cfg, &r.prims[p], tq, &ds)
				if obs != nil {
					r.observeDepth(q.X, q.Y, tq.Coverage, live)
				}
				if r.earlyZCulled(&ds, live) {
					continue
				}
			}
			if obs != nil {
				obs.Quad(prim, q.X, q.Y, live)
			}
			r.pending = append(r.pending, pendingQuad{prim: p, quad: q, live: live})
			if len(r.pending) == r.opts.WarpQuads {
				r.flush()
			}
		}
	}
}

// flush shades the pending quads as one warp and merges them in order.
func (r *renderer) flush() {
	if len(r.pending) == 0 {
		return
	}
	if r.opts.Sage != nil {
		r.flushPerSample()
		return
	}
	d, w := r.d, r.pwarp
	w.Reset(d.PS, 4*len(r.pending), d.PSConstants)
	before := w.Stats
	for i, pq := range r.pending {
		pipeline.LoadQuad(d, &r.cfg, &r.prims[pq.prim], pq.quad, pq.live, w, 4*i)
	}
	w.Run(r.pixelSampler())
	r.cnt.PixelWarps++
	r.cnt.PSInstructions += w.Stats.Instructions - before.Instructions
	r.cnt.PSLaneInstructions += w.Stats.LaneInstructions - before.LaneInstructions
	r.cnt.TexRequests += w.Stats.TexRequests - before.TexRequests
	var ws pipeline.WriteStats
	for i, pq := range r.pending {
		if r.dec.dd != nil { // a decoupled draw's 2D path: shading quads are the pixel quads
			dc := &r.cnt.Decoupled
			dc.ShadingQuads++
			dc.MemoMisses++
			dc.CoveredPixels += int64(bits.OnesCount8(pq.live.Pixels()))
			dc.VisibleSamples += int64(pq.live.Count())
		}
		r.cnt.QuadsShaded++
		r.cnt.ShadingQuads++
		r.cnt.PSInvocations += 4
		r.cnt.HelperPixels += bits.OnesCount8(pq.live.HelperPixels())
		r.quadOut = pipeline.ReadQuad(d, w, 4*i)
		o := &r.quadOut
		if r.opts.Hooks != nil && !d.EarlyZ {
			r.opts.Hooks.DepthTest(&r.prims[pq.prim], pq.quad, pq.live, o)
		}
		if r.opts.Observer != nil {
			r.writeQuadObserved(&r.prims[pq.prim], pq.quad, pq.live, o, &ws)
		} else {
			pipeline.WriteQuad(d, &r.cfg, &r.prims[pq.prim], pq.quad, pq.live, o, &ws)
		}
	}
	r.pending = r.pending[:0]
	r.addWriteStats(&ws)
}

// addWriteStats adds the output merger's counts.
func (r *renderer) addWriteStats(ws *pipeline.WriteStats) {
	r.cnt.DepthTestsPassed += ws.Passed
	r.cnt.DepthTestsFailed += ws.Failed
	r.cnt.SamplesKilled += ws.Killed
	r.cnt.SamplesWritten += ws.Written
	r.cnt.SamplesBlended += ws.Blended
	r.cnt.QuadsDiscarded += ws.QuadsDiscarded
	r.cnt.QuadsLateZCulled += ws.QuadsLateZCulled
	r.cnt.QuadsWritten += ws.QuadsWritten
}

// compact drops the primitives no pending quad, shading request or
// visibility record refers to, so that the primitives kept are at most those
// of the pending work (a warp's worth of quads, or the visibility records
// waiting for a shading warp), however many set-up triangles early Z culled
// entirely since. The 2D path's pending quads and the 5D path's records are
// never pending together (a draw switching paths flushes first); each list is
// in primitive order, and every shading request's primitive has a record.
func (r *renderer) compact() {
	ds := &r.dec
	n, last := 0, -1
	for i := range r.pending {
		if p := r.pending[i].prim; p != last {
			r.prims[n] = r.prims[p]
			last = p
			n++
		}
		r.pending[i].prim = n - 1
	}
	j := 0
	for i := range ds.vis {
		p := ds.vis[i].prim
		if p != last {
			r.prims[n] = r.prims[p]
			last = p
			n++
		}
		for ; j < len(ds.shade) && ds.shade[j].prim <= p; j++ {
			ds.shade[j].prim = n - 1
		}
		ds.vis[i].prim = n - 1
	}
	clear(r.prims[n:])
	r.prims = r.prims[:n]
}
