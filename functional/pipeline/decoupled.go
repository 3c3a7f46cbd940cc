package pipeline

import (
	"fmt"
	"math/bits"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/raster5d"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
)

// DefaultPatternSeed seeds the lens and time pattern of stochastic
// rasterization when a draw gives none.
const DefaultPatternSeed = 1

// Decoupled is the per-draw setup of decoupled sampling (Ragan-Kelley et al.
// 2011): the 5D rasterizer's configuration, the decoupling options and which
// triangles take which path. A draw is decoupled when its Decoupling.Mode is not
// off (NewDecoupled returns nil otherwise).
//
// A triangle takes the 2D path (the integer rasterizer of functional/raster,
// clipping and snapping as in MSAA, shading quads = pixel quads) when the draw
// is in mode on at rate 1 without adaptive spacing or bilinear reconstruction,
// the lens is a pinhole and none of its vertices moves: there the decoupling map
// is MSAA's, so the image and every counter equal MSAA's. Every other triangle
// of the draw takes the 5D path (functional/raster5d and functional/decouple).
// A mesh whose triangles are split between the two paths may crack where a
// still triangle meets a moving one (the 2D path snaps its vertices); rigid
// objects move all their vertices or none.
type Decoupled struct {
	Mode     command.DecouplingMode
	Config   raster5d.Config
	Lens     raster5d.Lens
	Options  decouple.Options
	Force5D  bool // every triangle takes the 5D path
	EndReg   int  // the vertex-shader output register of position_end (-1: none, the draw is still)
	Discards bool
	// Supersample: one shading point per visible sample on the 5D path (mode
	// supersample, or a pixel shader that writes depth: a shaded depth belongs
	// to one sample, so such a shader is not decoupled from visibility; on the
	// 2D path it shades per pixel as in MSAA).
	Supersample bool
}

// NewDecoupled returns the decoupled-sampling setup of draw d with raster
// configuration cfg (nil when the draw is not decoupled). patterns caches the
// 5D sample patterns by count and seed; seed 0 means DefaultPatternSeed.
func NewDecoupled(d *state.Draw, cfg *raster.Config, patterns *PatternCache, seed uint64) (*Decoupled, error) {
	dc := d.Decoupling
	if dc.Mode == command.DecoupleOff {
		return nil, nil
	}
	if seed == 0 {
		seed = DefaultPatternSeed
	}
	pat, err := patterns.Get(cfg.Samples, seed)
	if err != nil {
		return nil, err
	}
	dd := &Decoupled{
		Mode:     dc.Mode,
		Config:   raster5d.Config{Pattern: pat, Bounds: cfg.Bounds, Cull: d.Cull, FrontCCW: d.FrontCCW},
		Lens:     raster5d.Lens{Kx: d.Lens.Kx, Ky: d.Lens.Ky, F: d.Lens.F},
		EndReg:   -1,
		Discards: d.PSResources.Discards,
	}
	if dd.Lens.Pinhole() {
		dd.Lens = raster5d.Lens{}
	} else if err := dd.Lens.Validate(); err != nil {
		return nil, err
	}
	if o, ok := d.VS.Output(shader.SemanticPositionEnd); ok && o.File == shader.FileOutput {
		dd.EndReg = o.Index
	}
	dd.Supersample = dc.Mode == command.DecoupleSupersample || d.PSResources.WritesDepth
	dd.Options = decouple.Options{Rate: shadingSpacing(dc.Rate), Adaptive: dc.Adaptive, Bilinear: dc.Bilinear,
		Lens: decouple.Lens(d.Lens), Discards: dd.Discards}
	if err := dd.Options.Validate(); err != nil {
		return nil, err
	}
	dd.Force5D = dc.Mode == command.DecoupleSupersample || dc.Adaptive || dc.Bilinear || dd.Options.Rate != 1
	return dd, nil
}

// shadingSpacing converts the command stream's shading rate (density: shading
// points per pixel along each axis, 1 as MSAA, 2 four per pixel, 0.5 one per 2x2
// pixels) to the decoupling map's grid spacing in pixels.
func shadingSpacing(rate float32) float32 {
	if rate == 0 {
		return 1
	}
	return 1 / rate
}

// PatternCache holds the 5D sample patterns of a renderer, by sample count and
// seed, so a draw does not rebuild its 32x32-pixel pattern.
type PatternCache struct {
	p map[patternKey]*raster5d.Pattern
}

type patternKey struct {
	xy   [raster5d.MaxSamples][2]int16
	n    int
	seed uint64
}

// Get returns the pattern of the x,y positions of sp with the lens and time
// pattern of seed.
func (c *PatternCache) Get(sp raster.SamplePattern, seed uint64) (*raster5d.Pattern, error) {
	k := patternKey{n: sp.Count, seed: seed}
	if sp.Count < 1 || sp.Count > raster5d.MaxSamples {
		return nil, fmt.Errorf("pipeline: %d samples per pixel: stochastic rasterization takes 1 to %d", sp.Count, raster5d.MaxSamples)
	}
	if sp.Table != nil {
		return nil, fmt.Errorf("pipeline: stochastic rasterization takes one sample pattern for every pixel, not a per-pixel pattern table")
	}
	for s := 0; s < sp.Count; s++ {
		k.xy[s] = sp.Offsets[s]
	}
	if p, ok := c.p[k]; ok {
		return p, nil
	}
	p, err := raster5d.NewPattern(k.xy[:sp.Count], seed)
	if err != nil {
		return nil, err
	}
	if c.p == nil {
		c.p = make(map[patternKey]*raster5d.Pattern)
	}
	c.p[k] = p
	return p, nil
}

// BlurSetup is the 5D setup of one API triangle of a decoupled draw: its
// stochastic rasterization, its decoupling map, and the reference view the
// shading points lie on.
type BlurSetup struct {
	Tri raster5d.Triangle
	Map decouple.Map
	// RefW are the reference view's clip w (for screen-linear interpolation),
	// RefZ its clip z; Back is the reference view's facing.
	RefW, RefZ [3]float32
	Back       bool
	// Decoupled is the draw's decoupled-sampling setup (shared by the draw's
	// primitives): the timed units that map and shade a primitive's samples
	// read its mode (Supersample) and sample pattern from here.
	Decoupled *Decoupled
}

// Still reports whether the three vertices do not move (p0 == p1).
func still(p0, p1 *[3]geom.Vec4) bool { return *p0 == *p1 }

// Takes5D reports whether the API triangle with clip positions p0 (open) and p1
// (close) takes the 5D path.
func (dd *Decoupled) Takes5D(p0, p1 *[3]geom.Vec4) bool {
	return dd.Force5D || !dd.Lens.Pinhole() || !still(p0, p1)
}

// Positions returns the clip positions of a triangle's vertices at shutter open
// and close (close = open when the vertex shader writes no position_end).
func (dd *Decoupled) Positions(v [3]*VertexOut) (p0, p1 [3]geom.Vec4) {
	for k := range v {
		p0[k] = v[k][0]
		p1[k] = p0[k]
		if dd.EndReg >= 0 {
			p1[k] = v[k][dd.EndReg]
		}
	}
	return p0, p1
}

// Triangle5D sets up API triangle source of the draw for the 5D path with
// primitive number id (the Prim of its shading tags, unique in the frame) and
// appends it to out unless no sample can be covered. It counts the triangle in
// st as Geometry.Triangle does (every triangle is assembled; a 5D triangle is
// never clipped: it is rejected or set up whole).
func (g *Geometry) Triangle5D(dd *Decoupled, source int, id uint32, v [3]*VertexOut, out []Primitive,
	st *GeometryStats, ms *decouple.MapStats) []Primitive {
	st.Triangles++
	p0, p1 := dd.Positions(v)
	b := &BlurSetup{Decoupled: dd}
	if raster5d.Setup(p0, p1, dd.Lens, g.d.Viewport, &dd.Config, &b.Tri) == raster5d.Rejected {
		st.Rejected++
		return out
	}
	m, err := decouple.NewMap(id, p0, p1, g.d.Viewport, dd.Options)
	if err != nil { // the options were validated by NewDecoupled
		st.Rejected++
		return out
	}
	b.Map = m
	ref := &p0
	if m.View() == decouple.ViewClose {
		ref = &p1
	}
	for k := range ref {
		b.RefW[k], b.RefZ[k] = ref[k][3], ref[k][2]
	}
	var sv [3]geom.ScreenVertex
	for k := range sv {
		sv[k] = g.d.Viewport.ToScreen(ref[k])
	}
	_, b.Back = geom.Cull(geom.SignedArea(sv[0], sv[1], sv[2]), geom.CullNone, g.d.FrontCCW)
	ms.Count(&b.Map)
	st.SetUp++
	var attr [shader.MaxOutputs][3]geom.Vec4
	for r := 0; r < shader.MaxOutputs; r++ {
		attr[r] = [3]geom.Vec4{v[0][r], v[1][r], v[2][r]}
	}
	return append(out, Primitive{Source: source, ID: id, Attr: attr, Blur: b})
}

// EarlyDepthSamples runs the depth/stencil test of the samples in mask of the
// 5D primitive p's quad at (qx, qy), with each sample's own depth and facing,
// and returns those that passed (all of mask when the draw tests nothing).
func EarlyDepthSamples(d *state.Draw, p *Primitive, qx, qy int32, mask raster.SampleMask, st *DepthStats) raster.SampleMask {
	if d.DepthBuf == nil || (!d.Depth.DepthEnable && !d.Depth.StencilEnable) {
		return mask
	}
	var pass raster.SampleMask
	t := &p.Blur.Tri
	for pix := 0; pix < 4; pix++ {
		x, y := int(qx)+pix&1, int(qy)+pix>>1
		for m := mask[pix]; m != 0; m &= m - 1 {
			s := bits.TrailingZeros64(m)
			si := t.SampleInfo(x, y, s)
			z := depth.Quantize(si.Depth, d.DepthBuf.Format)
			if d.DepthBuf.Test(&d.Depth, x, y, s, z, !si.Front).Pass {
				pass[pix] |= 1 << uint(s)
				st.Passed++
			} else {
				st.Failed++
			}
		}
	}
	return pass
}

// LoadShadingQuad writes the pixel shader inputs of shading quad tag of the 5D
// primitive p into lanes lane0..lane0+3 of warp w: each lane's attributes on the
// reference view at its shading point (decouple.Map.Quad: snapped into the
// triangle where a sample can reach it from outside), sv_position the shading
// point with the reference view's depth and 1/w, and the reference view's
// facing. Lanes no sample can reach are helpers. In supersample mode use
// LoadSampleQuad instead.
func LoadShadingQuad(d *state.Draw, p *Primitive, tag decouple.Tag, w *shader.Warp, lane0 int) {
	b := p.Blur
	q := b.Map.Quad(tag)
	w.Helper |= uint64(q.Helper) << lane0
	for lane := 0; lane < 4; lane++ {
		loadLane(d, p, q.Bary[lane], q.X[lane], q.Y[lane], b.Back, w, lane0+lane)
	}
}

// LoadSampleQuad writes the inputs of a supersampled shading quad: lane k is
// sample s of pixel k of the visibility quad at (qx, qy), shaded at the point of
// the triangle that sample sees (its own barycentrics on the warped triangle),
// with its facing; pixels whose sample s is not live are helpers (extrapolated
// to their sample's ray, for derivatives).
func LoadSampleQuad(d *state.Draw, dd *Decoupled, p *Primitive, qx, qy int32, s int, live raster.SampleMask, w *shader.Warp, lane0 int) {
	t := &p.Blur.Tri
	for pix := 0; pix < 4; pix++ {
		x, y := int(qx)+pix&1, int(qy)+pix>>1
		if !live.Has(pix, s) {
			w.Helper |= 1 << uint(lane0+pix)
		}
		sx, sy := dd.Config.Pattern.SamplePosition(x, y, s)
		si := t.SampleInfo(x, y, s)
		loadLane(d, p, si.Bary, float32(sx)/256, float32(sy)/256, !si.Front, w, lane0+pix)
	}
}

// loadLane interpolates one lane's inputs at clip-space barycentrics bary on
// the reference triangle, shown at screen point (x, y).
func loadLane(d *state.Draw, p *Primitive, bary [3]float32, x, y float32, back bool, w *shader.Warp, lane int) {
	b := p.Blur
	// Screen-linear weights l_k = b_k*w_k / sum b_j*w_j for noperspective
	// inputs, depth and 1/w.
	var lin [3]float32
	sw := float32(bary[0]*b.RefW[0]) + float32(bary[1]*b.RefW[1]) + float32(bary[2]*b.RefW[2])
	if sw != 0 {
		for k := range lin {
			lin[k] = float32(bary[k]*b.RefW[k]) / sw
		}
	} else {
		lin = bary
	}
	front := geom.Vec4{1, 1, 1, 1}
	if back {
		front = geom.Vec4{}
	}
	for _, l := range d.Link {
		var v geom.Vec4
		switch l.Source {
		case shader.LinkVarying:
			switch raster.InterpMode(l.Interp).Base() {
			case raster.Flat:
				v = p.Attr[l.VSReg][0]
			case raster.NoPerspective:
				v = raster.Interpolate(raster.NoPerspective, &p.Attr[l.VSReg], lin)
			default:
				v = raster.Interpolate(raster.Perspective, &p.Attr[l.VSReg], bary)
			}
		case shader.LinkPosition:
			z := float32(0)
			if sw != 0 {
				zc := float32(bary[0]*b.RefZ[0]) + float32(bary[1]*b.RefZ[1]) + float32(bary[2]*b.RefZ[2])
				z = d.Viewport.MinZ + float32(zc/sw)*float32(d.Viewport.MaxZ-d.Viewport.MinZ)
				z = ClampDepth(z, min(d.Viewport.MinZ, d.Viewport.MaxZ), max(d.Viewport.MinZ, d.Viewport.MaxZ))
			}
			invW := float32(0)
			if sw != 0 {
				invW = 1 / sw
			}
			v = geom.Vec4{x, y, z, invW}
		case shader.LinkFrontFace:
			v = front
		}
		w.SetInput(lane, l.PSReg, v)
	}
}

// ShadingLanes are the memoized outputs of one shading quad: every lane's
// colour and whether it stores (not discarded), taken together as the paper
// requires (colour, alpha, discard and every render-target output).
type ShadingLanes struct {
	Color [4]geom.Vec4
	Depth [4]float32 // the shader's depth output (supersample mode)
	Store uint8      // bit k: lane k was not discarded
}

// ReadShadingQuad extracts a shading quad's outputs from lanes lane0..lane0+3
// of a finished warp. Helper lanes (never read) report what they computed.
func ReadShadingQuad(d *state.Draw, w *shader.Warp, lane0 int) ShadingLanes {
	var o ShadingLanes
	killed := w.Killed >> uint(lane0)
	for k := 0; k < 4; k++ {
		o.Color[k] = w.Output(lane0+k, 0)
		if d.PSResources.WritesDepth {
			o.Depth[k] = w.Depth(lane0 + k)
		}
		if killed&(1<<uint(k)) == 0 {
			o.Store |= 1 << uint(k)
		}
	}
	return o
}

// Reconstruct returns a visibility sample's colour from its taps (weights sum
// to 1) and whether it survives the shader: the colour is the weighted sum of
// the taps' colours in tap order; the sample is discarded when the tap of the
// largest weight (the first of equal ones) was discarded. lanes[i] holds the
// memoized outputs of tap i's shading quad.
func Reconstruct(l *decouple.Lookup, lanes *[4]*ShadingLanes) (geom.Vec4, bool) {
	if l.N == 1 {
		ln := l.Taps[0].Lane
		return lanes[0].Color[ln], lanes[0].Store>>ln&1 != 0
	}
	var c geom.Vec4
	best := 0
	for i := 0; i < l.N; i++ {
		t := &l.Taps[i]
		for k := range c {
			c[k] += float32(t.Weight * lanes[i].Color[t.Lane][k])
		}
		if t.Weight > l.Taps[best].Weight {
			best = i
		}
	}
	return c, lanes[best].Store>>l.Taps[best].Lane&1 != 0
}

// SampleDepthTest runs the late depth/stencil test of one sample (x, y, s) of
// the 5D primitive p, at depth z (the sample's own depth, or the shader's output
// clamped to the depth range), and reports whether it passed.
func SampleDepthTest(d *state.Draw, p *Primitive, x, y, s int, z float32, st *DepthStats) bool {
	if d.DepthBuf == nil || (!d.Depth.DepthEnable && !d.Depth.StencilEnable) {
		return true
	}
	if d.DepthBuf.Test(&d.Depth, x, y, s, depth.Quantize(z, d.DepthBuf.Format), !p.Blur.Tri.FrontFacing(x, y, s)).Pass {
		st.Passed++
		return true
	}
	st.Failed++
	return false
}

// ShaderDepth clamps a shader's depth output to the draw's depth range.
func ShaderDepth(d *state.Draw, z float32) float32 {
	return ClampDepth(z, min(d.Viewport.MinZ, d.Viewport.MaxZ), max(d.Viewport.MinZ, d.Viewport.MaxZ))
}

// BlendSample blends colour c into the render target at sample (x, y, s).
func BlendSample(d *state.Draw, x, y, s int, c geom.Vec4, st *WriteStats) {
	bt := &d.Blend.Targets[0]
	d.Color.BlendStore(x, y, s, c, bt, d.Blend.Constant)
	st.Written++
	if bt.Enable {
		st.Blended++
	}
}

// MapSamples appends to out the decoupling map's look-up of every sample of
// live in the visibility quad at (qx, qy) of the 5D primitive p, pixel 0..3 and
// then sample order: Map.Index of the sample's barycentrics, or in supersample
// mode one tap of weight 1 on the shading quad {p.ID, qx, qy, s} at the lane of
// the sample's pixel (every visible sample shaded at its own point).
func MapSamples(p *Primitive, qx, qy int32, live raster.SampleMask, out []decouple.Lookup) []decouple.Lookup {
	b := p.Blur
	ss := b.Decoupled != nil && b.Decoupled.Supersample
	for pix := 0; pix < 4; pix++ {
		x, y := int(qx)+pix&1, int(qy)+pix>>1
		for m := live[pix]; m != 0; m &= m - 1 {
			s := bits.TrailingZeros64(m)
			if ss {
				var l decouple.Lookup
				l.N = 1
				l.Taps[0] = decouple.Tap{Tag: decouple.Tag{Prim: p.ID, QuadX: qx, QuadY: qy, Sample: uint8(s)},
					Lane: uint8(pix), Weight: 1}
				out = append(out, l)
				continue
			}
			out = append(out, b.Map.Index(b.Tri.Barycentrics(x, y, s)))
		}
	}
	return out
}
