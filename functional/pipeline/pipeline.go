package pipeline

import (
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/samplepattern"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/functional/vertex"
)

// VertexOut is one shaded vertex: the vertex shader's outputs o0..o15 (o0 is the
// clip-space position).
type VertexOut [shader.MaxOutputs]geom.Vec4

// TextureUnits samples the textures bound to one stage of a draw; it implements
// shader.TextureSampler. An unbound unit samples as zero.
type TextureUnits struct {
	Bindings *[shader.MaxSamplers]state.TextureBinding
	// Taps, when non-nil, receives the taps of every sample (for cache studies).
	Taps []texture.Tap
}

// SampleTexture implements shader.TextureSampler.
func (u *TextureUnits) SampleTexture(req *shader.TexRequest) geom.Vec4 {
	b := &u.Bindings[req.Unit]
	if b.Texture == nil {
		return geom.Vec4{}
	}
	return SampleBinding(b, req, nil)
}

// SampleBinding filters one lane's request with binding b, appending the taps to
// taps when it is non-nil (the returned slice). The request's coordinates and
// derivatives are used as the texture's type needs them: xy for 2D, xy and the
// layer z for arrays, the direction xyz for cube maps, uvw for 3D.
func SampleBinding(b *state.TextureBinding, req *shader.TexRequest, taps *[]texture.Tap) geom.Vec4 {
	c := texture.Coords{
		P:   geom.Vec3{req.Coord[0], req.Coord[1], req.Coord[2]},
		DDX: geom.Vec3{req.DDX[0], req.DDX[1], req.DDX[2]},
		DDY: geom.Vec3{req.DDY[0], req.DDY[1], req.DDY[2]},
	}
	mode, value := texture.LODGradient, float32(0)
	switch req.Mode {
	case shader.TexBias:
		value = req.LODOrBias
	case shader.TexLOD:
		mode, value = texture.LODExplicit, req.LODOrBias
	}
	if taps != nil {
		var v geom.Vec4
		v, *taps = texture.SampleCoords(b.Texture, &b.Sampler, &c, mode, value, *taps, true)
		return v
	}
	v, _ := texture.SampleCoords(b.Texture, &b.Sampler, &c, mode, value, nil, false)
	return v
}

// BatchStats counts the work of one vertex batch.
type BatchStats struct {
	Vertices         int // vertex shader invocations
	Instructions     uint64
	LaneInstructions uint64
	TexRequests      uint64
}

// FetchBatch reads the attributes of every vertex of batch b into attrs[i] (the
// input assembler's vertex fetch); attrs must have room for len(b.Vertices).
func FetchBatch(d *state.Draw, mem command.Memory, b *vertex.Batch, f *vertex.Fetcher, attrs []vertex.Attributes) {
	for i, v := range b.Vertices {
		f.Fetch(mem, d.VB, &d.Layout, v, &attrs[i])
	}
}

// LoadVertices resets warp w for the draw's vertex shader over n lanes and loads
// lane i's inputs from attrs[i].
func LoadVertices(d *state.Draw, attrs []vertex.Attributes, n int, w *shader.Warp) {
	w.Reset(d.VS, n, d.VSConstants)
	for lane := 0; lane < n; lane++ {
		for i, in := range d.VS.Inputs {
			w.SetInput(lane, in.Reg, attrs[lane][d.VSInputs[i]])
		}
	}
}

// StoreVertices copies the outputs of lanes 0..n-1 of w to out.
func StoreVertices(w *shader.Warp, n int, out []VertexOut) {
	for lane := 0; lane < n; lane++ {
		o := &out[lane]
		for r := 0; r < shader.MaxOutputs; r++ {
			o[r] = w.Output(lane, r)
		}
	}
}

// ShadeBatch fetches the vertices of batch b and runs the draw's vertex shader over
// them in warp w, writing the outputs of slot i to out[i]. Batches larger than
// shader.MaxLanes run as several warps. attrs is scratch space of at least
// len(b.Vertices) entries.
func ShadeBatch(d *state.Draw, mem command.Memory, b *vertex.Batch, w *shader.Warp, f *vertex.Fetcher,
	tex shader.TextureSampler, attrs []vertex.Attributes, out []VertexOut) (BatchStats, error) {
	var st BatchStats
	FetchBatch(d, mem, b, f, attrs)
	for base := 0; base < len(b.Vertices); base += shader.MaxLanes {
		n := min(len(b.Vertices)-base, shader.MaxLanes)
		before := w.Stats
		LoadVertices(d, attrs[base:], n, w)
		w.Run(tex)
		if err := w.Err(); err != nil {
			return st, err
		}
		StoreVertices(w, n, out[base:])
		st.Vertices += n
		st.Instructions += w.Stats.Instructions - before.Instructions
		st.LaneInstructions += w.Stats.LaneInstructions - before.LaneInstructions
		st.TexRequests += w.Stats.TexRequests - before.TexRequests
	}
	return st, nil
}

// Primitive is a set-up triangle ready for rasterization: the raster setup and the
// vertex shader outputs at its three vertices (after clipping).
type Primitive struct {
	Triangle raster.Triangle
	Attr     [shader.MaxOutputs][3]geom.Vec4
	// Source is the index of the API triangle in its draw; Part numbers the
	// triangles a clipped polygon was fanned into.
	Source, Part int
	// ID numbers the primitives of a decoupled draw in the frame (the Prim of
	// its shading tags); Blur is the 5D setup of a primitive on the 5D path
	// (nil on the 2D path, where Triangle is the set-up triangle).
	ID   uint32
	Blur *BlurSetup
}

// GeometryStats counts what happened to triangles between primitive assembly and
// rasterization.
type GeometryStats struct {
	Triangles  int // assembled API triangles
	Rejected   int // entirely outside one frustum plane (or non-finite)
	Clipped    int // needed clipping (near, far or guard band)
	ClipOutput int // triangles the clipper fanned out
	Culled     int // back-facing, zero-area or empty after snapping
	SetUp      int // primitives sent to rasterization
}

// Add accumulates o.
func (s *GeometryStats) Add(o GeometryStats) {
	s.Triangles += o.Triangles
	s.Rejected += o.Rejected
	s.Clipped += o.Clipped
	s.ClipOutput += o.ClipOutput
	s.Culled += o.Culled
	s.SetUp += o.SetUp
}

// RasterOptions are the rasterizer's hardware parameters.
type RasterOptions struct {
	TileSize  int
	TileOrder raster.TraversalOrder
	QuadOrder raster.TraversalOrder
	// PatternTable, when non-nil, gives every draw per-pixel sample positions
	// (SAGE's pattern RAM): the draw's sample count must be 1 to 16
	// (raster.Config.Validate says so otherwise).
	PatternTable *samplepattern.Table
}

// RasterConfig returns the rasterizer configuration of draw d.
func RasterConfig(d *state.Draw, o RasterOptions) raster.Config {
	cfg := raster.Config{Samples: d.Samples, TileSize: o.TileSize, Bounds: d.Bounds,
		TileOrder: o.TileOrder, QuadOrder: o.QuadOrder, MinZ: d.Viewport.MinZ, MaxZ: d.Viewport.MaxZ}
	if o.PatternTable != nil {
		if sp, err := d.Samples.WithTable(o.PatternTable); err == nil {
			cfg.Samples = sp
		} else {
			cfg.Samples.Table = o.PatternTable // Validate reports the count
		}
	}
	return cfg
}

// Geometry does the fixed-function work between primitive assembly and
// rasterization for one draw; it keeps scratch buffers.
type Geometry struct {
	d        *state.Draw
	cfg      *raster.Config
	noPersp  [shader.MaxOutputs]bool // the output is read by a noperspective input
	poly     geom.ClipPolygon
	clipAttr [geom.MaxClipVertices][shader.MaxOutputs]geom.Vec4
}

// NewGeometry prepares the geometry stage for draw d.
func NewGeometry(d *state.Draw, cfg *raster.Config) *Geometry {
	g := &Geometry{d: d, cfg: cfg}
	for _, l := range d.Link {
		if l.Source == shader.LinkVarying && l.Interp == shader.InterpNoPerspective {
			g.noPersp[l.VSReg] = true
		}
	}
	return g
}

// Triangle processes API triangle source with vertices v, appending the
// primitives to set up (zero or more) to out.
func (g *Geometry) Triangle(source int, v [3]*VertexOut, out []Primitive, st *GeometryStats) []Primitive {
	st.Triangles++
	d := g.d
	pos := [3]geom.Vec4{v[0][0], v[1][0], v[2][0]}
	c0 := geom.ClipCode(pos[0], d.GuardBand)
	c1 := geom.ClipCode(pos[1], d.GuardBand)
	c2 := geom.ClipCode(pos[2], d.GuardBand)
	reject, clipMask := geom.ClassifyTriangle(c0, c1, c2)
	if reject {
		st.Rejected++
		return out
	}
	if clipMask == 0 {
		var sv [3]geom.ScreenVertex
		for i := range sv {
			sv[i] = d.Viewport.ToScreen(pos[i])
		}
		var attr [shader.MaxOutputs][3]geom.Vec4
		for r := 0; r < shader.MaxOutputs; r++ {
			attr[r] = [3]geom.Vec4{v[0][r], v[1][r], v[2][r]}
		}
		return g.setup(source, 0, sv, &attr, out, st)
	}
	st.Clipped++
	geom.ClipTriangle(pos, clipMask, d.GuardBand, &g.poly)
	if g.poly.N < 3 {
		st.Rejected++
		return out
	}
	w := [3]float32{pos[0][3], pos[1][3], pos[2][3]}
	for i := 0; i < g.poly.N; i++ {
		b := g.poly.V[i].B
		nb := geom.NoPerspectiveWeights(b, w)
		for r := 0; r < shader.MaxOutputs; r++ {
			wt := b
			if g.noPersp[r] {
				wt = nb
			}
			var a geom.Vec4
			for c := 0; c < 4; c++ {
				a[c] = float32(wt[0]*v[0][r][c]) + float32(wt[1]*v[1][r][c]) + float32(wt[2]*v[2][r][c])
			}
			g.clipAttr[i][r] = a
		}
	}
	for k := 1; k+1 < g.poly.N; k++ {
		st.ClipOutput++
		idx := [3]int{0, k, k + 1}
		var sv [3]geom.ScreenVertex
		var attr [shader.MaxOutputs][3]geom.Vec4
		for j, i := range idx {
			sv[j] = d.Viewport.ToScreen(g.poly.V[i].Pos)
			for r := 0; r < shader.MaxOutputs; r++ {
				attr[r][j] = g.clipAttr[i][r]
			}
		}
		out = g.setup(source, k-1, sv, &attr, out, st)
	}
	return out
}

func (g *Geometry) setup(source, part int, sv [3]geom.ScreenVertex, attr *[shader.MaxOutputs][3]geom.Vec4,
	out []Primitive, st *GeometryStats) []Primitive {
	area := geom.SignedArea(sv[0], sv[1], sv[2])
	culled, back := geom.Cull(area, g.d.Cull, g.d.FrontCCW)
	if culled {
		st.Culled++
		return out
	}
	out = append(out, Primitive{Source: source, Part: part, Attr: *attr})
	p := &out[len(out)-1]
	if !raster.Setup(sv, back, g.cfg, &p.Triangle) {
		st.Culled++
		return out[:len(out)-1]
	}
	st.SetUp++
	return out
}

// DepthStats counts per-sample depth/stencil tests.
type DepthStats struct {
	Passed, Failed int
}

// EarlyDepth runs the depth/stencil test for the covered samples of quad q of
// primitive p before shading and returns the samples that passed. With no depth
// target, or with the test disabled, every covered sample passes untested.
func EarlyDepth(d *state.Draw, cfg *raster.Config, p *Primitive, q raster.Quad, st *DepthStats) raster.SampleMask {
	return depthTest(d, cfg, p, q, q.Coverage, nil, st)
}

// depthTest tests the samples in mask; pixelDepth, when non-nil, replaces the
// interpolated depth of every sample of a pixel (shader depth output).
func depthTest(d *state.Draw, cfg *raster.Config, p *Primitive, q raster.Quad, mask raster.SampleMask,
	pixelDepth *[4]float32, st *DepthStats) raster.SampleMask {
	if d.DepthBuf == nil || (!d.Depth.DepthEnable && !d.Depth.StencilEnable) || mask.Empty() {
		return mask
	}
	var pass raster.SampleMask
	for m := mask; !m.Empty(); {
		pix, s := m.Pop()
		x, y := int(q.X)+pix&1, int(q.Y)+pix>>1
		var zv float32
		if pixelDepth != nil {
			zv = pixelDepth[pix]
		} else {
			zv = p.Triangle.SampleDepth(cfg, x, y, s)
		}
		r := d.DepthBuf.Test(&d.Depth, x, y, s, depth.Quantize(zv, d.DepthBuf.Format), p.Triangle.BackFacing)
		if r.Pass {
			pass.Set(pix, s)
			st.Passed++
		} else {
			st.Failed++
		}
	}
	return pass
}

// LoadQuad writes the pixel shader inputs of quad q of primitive p into lanes
// lane0..lane0+3 of warp w and marks as helpers the pixels with no sample in live.
func LoadQuad(d *state.Draw, cfg *raster.Config, p *Primitive, q raster.Quad, live raster.SampleMask, w *shader.Warp, lane0 int) {
	t := &p.Triangle
	front := geom.Vec4{1, 1, 1, 1}
	if t.BackFacing {
		front = geom.Vec4{}
	}
	w.Helper |= uint64(live.HelperPixels()) << lane0
	for pix := 0; pix < 4; pix++ {
		lane := lane0 + pix
		for _, l := range d.Link {
			var v geom.Vec4
			switch l.Source {
			case shader.LinkVarying:
				mode := raster.InterpMode(l.Interp)
				if l.Centroid {
					mode |= raster.CentroidFlag
				}
				v = t.InterpolateQuad(cfg, q, pix, mode, &p.Attr[l.VSReg]) // centroid follows the raster coverage
			case shader.LinkPosition:
				v = t.PixelPosition(int(q.X)+pix&1, int(q.Y)+pix>>1)
			case shader.LinkFrontFace:
				v = front
			}
			w.SetInput(lane, l.PSReg, v)
		}
	}
}

// QuadOutput is what the pixel shader produced for one quad: the colour (o0) and
// depth (oDepth, when written) of each pixel, and which pixels store (not helpers,
// not killed).
type QuadOutput struct {
	Color [4]geom.Vec4
	Depth [4]float32
	Store uint8 // bit p: pixel p stores its results
}

// ReadQuad extracts the outputs of the quad in lanes lane0..lane0+3 of a finished warp.
func ReadQuad(d *state.Draw, w *shader.Warp, lane0 int) QuadOutput {
	var o QuadOutput
	store := w.StoreMask() >> lane0
	for pix := 0; pix < 4; pix++ {
		o.Color[pix] = w.Output(lane0+pix, 0)
		if d.PSResources.WritesDepth {
			o.Depth[pix] = w.Depth(lane0 + pix)
		}
		if store&(1<<pix) != 0 {
			o.Store |= 1 << pix
		}
	}
	return o
}

// WriteStats counts the output merger's work for quads.
type WriteStats struct {
	DepthStats
	Killed  int // samples discarded by the shader (KIL)
	Written int // samples whose colour was written
	Blended int // of which blended with the destination

	QuadsDiscarded   int // shaded quads whose every live sample was discarded
	QuadsLateZCulled int // shaded quads whose every remaining sample failed late Z
	QuadsWritten     int // shaded quads that wrote at least one sample
}

// EndQuad counts how a shaded quad ended: discarded by the shader when no
// sample was shaded, culled by late Z when none was written, else written.
func (s *WriteStats) EndQuad(shaded, written bool) {
	switch {
	case !shaded:
		s.QuadsDiscarded++
	case !written:
		s.QuadsLateZCulled++
	default:
		s.QuadsWritten++
	}
}

// Add accumulates o.
func (s *WriteStats) Add(o WriteStats) {
	s.Passed += o.Passed
	s.Failed += o.Failed
	s.Killed += o.Killed
	s.Written += o.Written
	s.Blended += o.Blended
	s.QuadsDiscarded += o.QuadsDiscarded
	s.QuadsLateZCulled += o.QuadsLateZCulled
	s.QuadsWritten += o.QuadsWritten
}

// Survivors removes from live the samples of pixels that do not store (killed by
// the shader), counting them; it returns the remaining samples.
func Survivors(live raster.SampleMask, o *QuadOutput, st *WriteStats) raster.SampleMask {
	killed := live.And(raster.FullPixels(^o.Store&15, raster.MaxSamples))
	st.Killed += killed.Count()
	return live.AndNot(killed)
}

// LateDepth runs the depth/stencil test after shading for the samples in live (the
// survivors of the shader), with the shader's depth output when it writes one
// (clamped to the viewport depth range), and returns the samples that passed.
func LateDepth(d *state.Draw, cfg *raster.Config, p *Primitive, q raster.Quad, live raster.SampleMask, o *QuadOutput, st *DepthStats) raster.SampleMask {
	var pd *[4]float32
	var depths [4]float32
	if d.PSResources.WritesDepth {
		for pix := 0; pix < 4; pix++ {
			depths[pix] = ClampDepth(o.Depth[pix], d.Viewport.MinZ, d.Viewport.MaxZ)
		}
		pd = &depths
	}
	return depthTest(d, cfg, p, q, live, pd, st)
}

// BlendQuad blends the colours of o into the render target at the samples in
// live (the output merger's colour path).
func BlendQuad(d *state.Draw, q raster.Quad, live raster.SampleMask, o *QuadOutput, st *WriteStats) {
	bt := &d.Blend.Targets[0]
	for m := live; !m.Empty(); {
		pix, s := m.Pop()
		x, y := int(q.X)+pix&1, int(q.Y)+pix>>1
		d.Color.BlendStore(x, y, s, o.Color[pix], bt, d.Blend.Constant)
		st.Written++
		if bt.Enable {
			st.Blended++
		}
	}
}

// WriteQuad runs the output merger for quad q of primitive p, whose shader outputs
// are o and whose samples in live survived rasterization (and early Z): it drops
// the killed pixels, runs late Z unless the draw used early Z, and blends.
func WriteQuad(d *state.Draw, cfg *raster.Config, p *Primitive, q raster.Quad, live raster.SampleMask, o *QuadOutput, st *WriteStats) {
	live = Survivors(live, o, st)
	if live.Empty() {
		st.QuadsDiscarded++
		return
	}
	if !d.EarlyZ {
		live = LateDepth(d, cfg, p, q, live, o, &st.DepthStats)
		if live.Empty() {
			st.QuadsLateZCulled++
			return
		}
	}
	BlendQuad(d, q, live, o, st)
	st.QuadsWritten++
}

// ClampDepth clamps a depth to [lo, hi] as the output merger clamps a
// shader's depth to the viewport range: NaN becomes lo.
func ClampDepth(z, lo, hi float32) float32 {
	if !(z >= lo) { // NaN too
		return lo
	}
	if z > hi {
		return hi
	}
	return z
}
