package state

import (
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/blend"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/functional/vertex"
)

// Memory is the simulated memory the tracker reads resources from. Slice returns
// the bytes [addr, addr+size) for direct (no copy) access, or false when the range
// is not mapped.
type Memory interface {
	command.Memory
	Slice(addr, size uint64) ([]byte, bool)
}

// TextureBinding is a texture unit's binding: the texture (nil when none is bound:
// samples then return zero; its Type and Format come from the descriptor) and its
// sampler state (filter, address modes per axis, LOD bias and range, maximum
// anisotropy, border colour).
type TextureBinding struct {
	Texture *texture.Texture
	Sampler texture.SamplerState
	Desc    uint64 // descriptor address
}

// Draw is the resolved snapshot of one draw call.
type Draw struct {
	Addr  uint64 // address of the draw command
	Index int    // draws since the tracker started, from 0

	Viewport  geom.Viewport
	GuardBand geom.GuardBand
	Scissor   raster.Rect // applied when ScissorEnable
	ScissorOn bool
	Bounds    raster.Rect // render target, viewport and scissor intersected
	Cull      geom.CullMode
	FrontCCW  bool
	Samples   raster.SamplePattern // raster.PatternFor(the target's samples); a SAGE draw attaches its pattern RAM with WithTable

	Depth depth.State
	Blend blend.State

	VS, PS *shader.Program
	// GS is the geometry shader (nil: none); GSInputs[i] is the vertex
	// shader output register that GS input i (GS.Inputs order) reads, or
	// GSPrimitiveID or GSInstanceID for a system value. With a GS, Link links
	// the pixel shader to its outputs.
	GS          *shader.Program
	GSInputs    []int
	GSConstants []geom.Vec4
	GSTextures  [shader.MaxSamplers]TextureBinding
	// StreamOut is the draw's stream-out (nil: off); see StreamOut.
	StreamOut   *StreamOut
	PSResources shader.Resources
	Link        []shader.LinkedInput
	VSInputs    []command.Semantic // semantic of each VS input, in VS.Inputs order
	VSConstants []geom.Vec4        // snapshot, len VS.NumConstants()
	PSConstants []geom.Vec4
	VSTextures  [shader.MaxSamplers]TextureBinding
	PSTextures  [shader.MaxSamplers]TextureBinding

	Layout vertex.Layout
	VB     vertex.VertexBuffer
	Stream vertex.Stream

	Color      *framebuffer.ColorTarget // render target 0
	ColorDesc  command.Target
	DepthBuf   *framebuffer.DepthTarget // nil when none is bound
	DepthDesc  command.Target
	EarlyZ     bool // the depth/stencil test may run before pixel shading
	DepthBound bool

	// Lens is the thin lens of the 5D rasterizer (SetLens; Lens{} is a
	// pinhole) and Decoupling the decoupled-sampling setting (SetDecoupling;
	// command.DefaultDecoupling until set). The MSAA renderers ignore both.
	Lens       command.Lens
	Decoupling command.Decoupling
}

// ActionKind says what a command asks of the pipeline beyond state changes.
type ActionKind uint8

// Actions.
const (
	ActNone ActionKind = iota
	ActDraw
	ActClear
	ActSync
	ActPresent
	ActEnd
)

// Action is the pipeline work a command asks for.
type Action struct {
	Kind  ActionKind
	Draw  *Draw         // ActDraw
	Clear command.Clear // ActClear
	Sync  command.SyncToken
	// ActClear and ActPresent: the targets concerned.
	Color    *framebuffer.ColorTarget
	DepthBuf *framebuffer.DepthTarget
}

// Tracker holds the state set by the command stream.
type Tracker struct {
	mem command.Memory
	sl  Memory // nil when mem has no direct access

	viewport    geom.Viewport
	viewportSet bool
	scissor     command.SetScissor
	rasterState command.SetRaster
	depthState  depth.State
	blendState  blend.State
	color       [8]*framebuffer.ColorTarget
	colorDesc   [8]command.Target
	depthBuf    *framebuffer.DepthTarget
	depthDesc   command.Target
	shaders     [command.NumStages]*shader.Program
	constants   [command.NumStages][shader.MaxConstants]geom.Vec4
	textures    [command.NumStages][shader.MaxSamplers]TextureBinding
	so          streamOutState
	layout      vertex.Layout
	vb          vertex.VertexBuffer
	ib          vertex.IndexBuffer
	topology    command.Topology
	lens        command.Lens
	decoupling  command.Decoupling
	draws       int

	programs map[[2]uint64]*shader.Program
	texCache map[uint64]*texture.Texture
	colors   map[command.Target]*framebuffer.ColorTarget
	depths   map[command.Target]*framebuffer.DepthTarget
}

// NewTracker returns a tracker in the reset state (D3D defaults: depth test less
// with writes, no stencil, no blending, back-face culling with clockwise front faces;
// a pinhole lens and decoupled sampling off).
func NewTracker(mem command.Memory) *Tracker {
	t := &Tracker{
		mem:         mem,
		depthState:  depth.DefaultState(),
		blendState:  blend.DefaultState(),
		rasterState: command.SetRaster{CullMode: uint32(geom.CullBack)},
		decoupling:  command.DefaultDecoupling(),
		programs:    map[[2]uint64]*shader.Program{},
		texCache:    map[uint64]*texture.Texture{},
		colors:      map[command.Target]*framebuffer.ColorTarget{},
		depths:      map[command.Target]*framebuffer.DepthTarget{},
	}
	if s, ok := mem.(Memory); ok {
		t.sl = s
	}
	return t
}

// Error is a command that cannot be carried out.
type Error struct {
	Addr  uint64
	Op    command.Opcode
	Field string
	Err   error
}

func (e *Error) Error() string {
	return fmt.Sprintf("command stream @0x%x: %v: %s: %v", e.Addr, e.Op, e.Field, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Apply carries out one decoded command and returns the work it asks for.
func (t *Tracker) Apply(lc command.Located) (Action, error) {
	fail := func(field string, format string, args ...any) (Action, error) {
		return Action{}, &Error{Addr: lc.Addr, Op: lc.Opcode(), Field: field, Err: fmt.Errorf(format, args...)}
	}
	wrap := func(field string, err error) (Action, error) {
		return Action{}, &Error{Addr: lc.Addr, Op: lc.Opcode(), Field: field, Err: err}
	}
	switch c := lc.Command.(type) {
	case command.Nop:
	case command.SetViewport:
		t.viewport, t.viewportSet = c.Viewport, true
	case command.SetScissor:
		t.scissor = c
	case command.SetRaster:
		if c.CullMode > uint32(geom.CullBack) {
			return fail("cullMode", "unknown cull mode %d", c.CullMode)
		}
		t.rasterState = c
	case command.SetDepthStencil:
		s, err := depthState(c)
		if err != nil {
			return wrap("state", err)
		}
		t.depthState = s
	case command.SetBlend:
		bt := blend.Target{Enable: c.Enable, SrcRGB: blend.Factor(c.SrcRGB), DstRGB: blend.Factor(c.DstRGB),
			OpRGB: blend.Op(c.OpRGB), SrcAlpha: blend.Factor(c.SrcA), DstAlpha: blend.Factor(c.DstA),
			OpAlpha: blend.Op(c.OpA), WriteMask: c.WriteMask}
		if err := bt.Validate(); err != nil {
			return wrap(fmt.Sprintf("target[%d]", c.Target), err)
		}
		t.blendState.Targets[c.Target] = bt
		t.blendState.Constant = c.Constant
	case command.SetColorTarget:
		ct, err := t.colorTarget(c.Target)
		if err != nil {
			return wrap("target", err)
		}
		t.color[c.Slot], t.colorDesc[c.Slot] = ct, c.Target
	case command.SetDepthTarget:
		dt, err := t.depthTarget(c.Target)
		if err != nil {
			return wrap("target", err)
		}
		t.depthBuf, t.depthDesc = dt, c.Target
	case command.BindShader:
		if c.Stage == command.GeometryStage && c.Addr == 0 {
			t.shaders[c.Stage] = nil
			break
		}
		p, err := t.program(c.Addr, c.Size)
		if err != nil {
			return wrap("code", err)
		}
		want := shader.VertexStage
		switch c.Stage {
		case command.PixelStage:
			want = shader.PixelStage
		case command.GeometryStage:
			want = shader.GeometryStage
		}
		if p.Stage != want {
			return fail("stage", "program %q is a %v shader, bound as %v", p.Name, p.Stage, c.Stage)
		}
		t.shaders[c.Stage] = p
	case command.SetConstants:
		for i := uint32(0); i < c.Count; i++ {
			a := c.Addr + 16*uint64(i)
			t.constants[c.Stage][c.First+i] = geom.Vec4{command.ReadF32(t.mem, a), command.ReadF32(t.mem, a+4),
				command.ReadF32(t.mem, a+8), command.ReadF32(t.mem, a+12)}
		}
	case command.BindTexture:
		b := TextureBinding{Desc: c.Desc, Sampler: texture.SamplerState{Filter: texture.Filter(c.Filter),
			AddressU: texture.AddressMode(c.AddressU), AddressV: texture.AddressMode(c.AddressV),
			LODBias: c.LODBias, MinLOD: c.MinLOD, MaxLOD: c.MaxLOD, AddressW: texture.AddressMode(c.AddressW),
			MaxAnisotropy: int(c.MaxAnisotropy), BorderColor: c.Border}}
		if err := b.Sampler.Validate(); err != nil {
			return wrap("sampler", err)
		}
		if c.Desc != 0 {
			tex, err := t.texture(c.Desc)
			if err != nil {
				return wrap("descriptor", err)
			}
			b.Texture = tex
		}
		t.textures[c.Stage][c.Slot] = b
	case command.SetInputLayout:
		t.layout = vertex.Layout{Stride: c.Stride, Attributes: c.Attributes}
	case command.BindVertexBuffer:
		t.vb = vertex.VertexBuffer{Addr: c.Addr, Size: c.Size}
	case command.BindIndexBuffer:
		t.ib = vertex.IndexBuffer{Addr: c.Addr, Format: c.Format, Size: c.Size}
	case command.SetTopology:
		t.topology = c.Topology
	case command.Draw:
		d, err := t.draw(lc, vertex.Stream{Start: c.StartVertex, Count: c.VertexCount, Topology: t.topology})
		if err != nil {
			return Action{}, err
		}
		return Action{Kind: ActDraw, Draw: d}, nil
	case command.DrawIndexed:
		s := vertex.Stream{Indexed: true, Index: t.ib, Start: c.StartIndex, Count: c.IndexCount,
			BaseVertex: c.BaseVertex, Topology: t.topology}
		s.FindCuts(t.mem) // an indexed strip's strip-cut indices, read as the draw is decoded
		d, err := t.draw(lc, s)
		if err != nil {
			return Action{}, err
		}
		return Action{Kind: ActDraw, Draw: d}, nil
	case command.Clear:
		if c.Flags&command.ClearColor != 0 && t.color[0] == nil {
			return fail("flags", "colour clear with no render target bound")
		}
		if c.Flags&(command.ClearDepth|command.ClearStencil) != 0 && t.depthBuf == nil {
			return fail("flags", "depth/stencil clear with no depth target bound")
		}
		return Action{Kind: ActClear, Clear: c, Color: t.color[0], DepthBuf: t.depthBuf}, nil
	case command.SyncToken:
		return Action{Kind: ActSync, Sync: c}, nil
	case command.Present:
		if t.color[c.Slot] == nil {
			return fail("slot", "no render target bound at slot %d", c.Slot)
		}
		return Action{Kind: ActPresent, Color: t.color[c.Slot]}, nil
	case command.End:
		return Action{Kind: ActEnd}, nil
	case command.SetLens:
		t.lens = c.Lens
	case command.SetDecoupling:
		t.decoupling = c.Decoupling
	case command.BindStreamOut, command.SetStreamOut:
		return t.applyStreamOut(lc)
	case command.DrawAuto:
		return t.drawAuto(lc, c)
	default:
		return fail("opcode", "not supported")
	}
	return Action{}, nil
}

func depthState(c command.SetDepthStencil) (depth.State, error) {
	face := func(f command.StencilFace) depth.StencilFace {
		return depth.StencilFace{Func: depth.CompareFunc(f.Func), Fail: depth.StencilOp(f.Fail),
			DepthFail: depth.StencilOp(f.DepthFail), Pass: depth.StencilOp(f.Pass)}
	}
	s := depth.State{
		DepthEnable:   c.Flags&command.DepthEnable != 0,
		DepthWrite:    c.Flags&command.DepthWrite != 0,
		DepthFunc:     depth.CompareFunc(c.DepthFunc),
		StencilEnable: c.Flags&command.StencilEnable != 0,
		StencilRef:    c.Ref, ReadMask: c.ReadMask, WriteMask: c.WriteMask,
		Front: face(c.Front), Back: face(c.Back),
	}
	return s, s.Validate()
}

func (t *Tracker) bytes(addr, size uint64) ([]byte, error) {
	if t.sl == nil {
		return nil, fmt.Errorf("memory has no direct access for a %d-byte surface at 0x%x", size, addr)
	}
	b, ok := t.sl.Slice(addr, size)
	if !ok {
		return nil, fmt.Errorf("%d bytes at 0x%x are outside simulated memory", size, addr)
	}
	return b, nil
}

func geometry(c command.Target) framebuffer.Geometry {
	return framebuffer.Geometry{Width: int(c.Width), Height: int(c.Height), Samples: int(c.Samples),
		Layout: framebuffer.Layout(c.Layout), TileW: int(c.TileW), TileH: int(c.TileH)}
}

func (t *Tracker) colorTarget(c command.Target) (*framebuffer.ColorTarget, error) {
	if ct, ok := t.colors[c]; ok {
		return ct, nil
	}
	g := geometry(c)
	if f := framebuffer.ColorFormat(c.Format); !f.Valid() {
		return nil, fmt.Errorf("format: unknown colour format %d", c.Format)
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	size, err := colorSize(g, framebuffer.ColorFormat(c.Format))
	if err != nil {
		return nil, err
	}
	b, err := t.bytes(c.Addr, size)
	if err != nil {
		return nil, err
	}
	ct, err := framebuffer.NewColorTargetFromBytes(g, framebuffer.ColorFormat(c.Format), b)
	if err != nil {
		return nil, err
	}
	t.colors[c] = ct
	return ct, nil
}

// ColorTargetView returns colour target t as a view of the memory image mem
// (its bytes, not a copy), for a unit that receives a target's descriptor in a
// message (the ROP's resolve, SAGE's route chips). The errors name the
// descriptor's field.
func ColorTargetView(mem Memory, t command.Target) (*framebuffer.ColorTarget, error) {
	g := geometry(t)
	f := framebuffer.ColorFormat(t.Format)
	if !f.Valid() {
		return nil, fmt.Errorf("Target.Format: unknown colour format %d", t.Format)
	}
	size, err := colorSize(g, f)
	return targetView(mem, t.Addr, size, err, func(b []byte) (*framebuffer.ColorTarget, error) {
		return framebuffer.NewColorTargetFromBytes(g, f, b)
	})
}

// DepthTargetView returns depth target t as a view of the memory image mem,
// as ColorTargetView does for colour (the tiled machine's tile units).
func DepthTargetView(mem Memory, t command.Target) (*framebuffer.DepthTarget, error) {
	g := geometry(t)
	f := depth.Format(t.Format)
	size, err := DepthTargetSize(g, f)
	return targetView(mem, t.Addr, size, err, func(b []byte) (*framebuffer.DepthTarget, error) {
		return framebuffer.NewDepthTargetFromBytes(g, f, b)
	})
}

// targetView makes a target over the size bytes at addr of mem (sizeErr:
// the error of computing size), the errors naming the descriptor's field.
func targetView[T any](mem Memory, addr, size uint64, sizeErr error, view func([]byte) (T, error)) (T, error) {
	var zero T
	if sizeErr != nil {
		return zero, fmt.Errorf("Target: %w", sizeErr)
	}
	b, ok := mem.Slice(addr, size)
	if !ok {
		return zero, fmt.Errorf("Target.Addr: %d bytes at 0x%x are outside the memory image", size, addr)
	}
	v, err := view(b)
	if err != nil {
		return zero, fmt.Errorf("Target: %w", err)
	}
	return v, nil
}

// colorSize returns the bytes a colour target of geometry g and format f occupies.
func colorSize(g framebuffer.Geometry, f framebuffer.ColorFormat) (uint64, error) {
	s, err := framebuffer.NewSurface(g)
	if err != nil {
		return 0, err
	}
	return uint64(s.Elements()) * uint64(f.BytesPerSample()), nil
}

func (t *Tracker) depthTarget(c command.Target) (*framebuffer.DepthTarget, error) {
	if dt, ok := t.depths[c]; ok {
		return dt, nil
	}
	g := geometry(c)
	f := depth.Format(c.Format)
	if !f.Valid() {
		return nil, fmt.Errorf("format: unknown depth format %d", c.Format)
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	size, err := DepthTargetSize(g, f)
	if err != nil {
		return nil, err
	}
	b, err := t.bytes(c.Addr, size)
	if err != nil {
		return nil, err
	}
	dt, err := framebuffer.NewDepthTargetFromBytes(g, f, b)
	if err != nil {
		return nil, err
	}
	t.depths[c] = dt
	return dt, nil
}

// DepthTargetSize returns the bytes a depth target occupies.
func DepthTargetSize(g framebuffer.Geometry, f depth.Format) (uint64, error) {
	if !f.Valid() {
		return 0, fmt.Errorf("unknown depth format %d", f)
	}
	s, err := framebuffer.NewSurface(g)
	if err != nil {
		return 0, err
	}
	n := uint64(s.Elements())
	if f == depth.D24S8 {
		return 4 * n, nil
	}
	plane := (4*n + framebuffer.StencilPlaneAlign - 1) &^ (framebuffer.StencilPlaneAlign - 1)
	return plane + n, nil
}

func (t *Tracker) program(addr uint64, size uint32) (*shader.Program, error) {
	key := [2]uint64{addr, uint64(size)}
	if p, ok := t.programs[key]; ok {
		return p, nil
	}
	b := make([]byte, size)
	t.mem.ReadAt(b, addr)
	p, err := shader.Decode(b)
	if err != nil {
		return nil, err
	}
	t.programs[key] = p
	return p, nil
}

func (t *Tracker) texture(desc uint64) (*texture.Texture, error) {
	if tex, ok := t.texCache[desc]; ok {
		return tex, nil
	}
	d := command.ReadTextureDescriptor(t.mem, desc)
	td := texture.Descriptor{Format: texture.Format(d.Format), Width: int(d.Width), Height: int(d.Height),
		Levels: int(d.Levels), Layout: texture.Layout(d.Layout), Type: texture.Type(d.Type), Depth: int(d.Depth)}
	if err := td.Validate(); err != nil {
		return nil, fmt.Errorf("at 0x%x: %w", desc, err)
	}
	if uint64(d.Size) < td.SizeBytes() {
		return nil, fmt.Errorf("at 0x%x: size %d bytes, the texture needs %d", desc, d.Size, td.SizeBytes())
	}
	b, err := t.bytes(d.Data, td.SizeBytes())
	if err != nil {
		return nil, fmt.Errorf("at 0x%x: %w", desc, err)
	}
	tex, err := texture.NewFromBytes(td, b)
	if err != nil {
		return nil, fmt.Errorf("at 0x%x: %w", desc, err)
	}
	t.texCache[desc] = tex
	return tex, nil
}

func (t *Tracker) draw(lc command.Located, s vertex.Stream) (*Draw, error) {
	fail := func(field string, format string, args ...any) (*Draw, error) {
		return nil, &Error{Addr: lc.Addr, Op: lc.Opcode(), Field: field, Err: fmt.Errorf(format, args...)}
	}
	vs, ps, gs := t.shaders[command.VertexStage], t.shaders[command.PixelStage], t.shaders[command.GeometryStage]
	switch {
	case vs == nil:
		return fail("vertex shader", "none bound")
	case ps == nil:
		return fail("pixel shader", "none bound")
	case t.color[0] == nil:
		return fail("render target", "none bound at slot 0")
	case !t.viewportSet:
		return fail("viewport", "never set")
	}
	last := vs // the stage the pixel shader reads
	if gs != nil {
		last = gs
	}
	link, err := shader.Link(last, ps)
	if err != nil {
		return fail("pixel shader", "%v", err)
	}
	d := &Draw{
		Addr: lc.Addr, Index: t.draws,
		Viewport: t.viewport, GuardBand: geom.NewGuardBand(t.viewport, geom.DefaultGuardBandRange),
		ScissorOn: t.scissor.Enable,
		Scissor:   raster.Rect{X0: int(t.scissor.X0), Y0: int(t.scissor.Y0), X1: int(t.scissor.X1), Y1: int(t.scissor.Y1)},
		Cull:      geom.CullMode(t.rasterState.CullMode), FrontCCW: t.rasterState.FrontCCW,
		Depth: t.depthState, Blend: t.blendState,
		VS: vs, PS: ps, Link: link,
		Layout: t.layout, VB: t.vb, Stream: s,
		Color: t.color[0], ColorDesc: t.colorDesc[0],
		DepthBuf: t.depthBuf, DepthDesc: t.depthDesc, DepthBound: t.depthBuf != nil,
		Lens: t.lens, Decoupling: t.decoupling,
	}
	for _, in := range vs.Inputs {
		sem, ok := command.SemanticByName(in.Semantic)
		if !ok {
			return fail("vertex shader", "input v%d has semantic %q, which no vertex attribute provides", in.Reg, in.Semantic)
		}
		d.VSInputs = append(d.VSInputs, sem)
	}
	ct := t.color[0]
	pattern, err := raster.PatternFor(ct.Samples)
	if err != nil {
		return fail("render target", "%v", err)
	}
	d.Samples = pattern
	if t.depthBuf != nil && (t.depthBuf.Width != ct.Width || t.depthBuf.Height != ct.Height || t.depthBuf.Samples != ct.Samples) {
		return fail("depth target", "%dx%d with %d samples does not match the %dx%d render target with %d samples",
			t.depthBuf.Width, t.depthBuf.Height, t.depthBuf.Samples, ct.Width, ct.Height, ct.Samples)
	}
	if t.depthBuf == nil {
		// No depth buffer: the depth/stencil test is off (D3D with no DSV bound).
		d.Depth.DepthEnable, d.Depth.DepthWrite, d.Depth.StencilEnable = false, false, false
	}
	vp := t.viewport
	b := raster.Rect{X0: 0, Y0: 0, X1: ct.Width, Y1: ct.Height}
	b = b.Intersect(raster.Rect{
		X0: int(math.Floor(float64(vp.X))), Y0: int(math.Floor(float64(vp.Y))),
		X1: int(math.Ceil(float64(vp.X + vp.Width))), Y1: int(math.Ceil(float64(vp.Y + vp.Height)))})
	if d.ScissorOn {
		b = b.Intersect(d.Scissor)
	}
	d.Bounds = b
	res := ps.Resources()
	d.PSResources = res
	d.EarlyZ = depth.EarlyZAllowed(res.Discards, res.WritesDepth, &d.Depth)
	d.VSConstants = append([]geom.Vec4(nil), t.constants[command.VertexStage][:vs.NumConstants()]...)
	d.PSConstants = append([]geom.Vec4(nil), t.constants[command.PixelStage][:ps.NumConstants()]...)
	d.VSTextures = t.textures[command.VertexStage]
	d.PSTextures = t.textures[command.PixelStage]
	if err := t.geometryStage(d, gs); err != nil {
		return nil, &Error{Addr: lc.Addr, Op: lc.Opcode(), Field: "geometry shader", Err: err}
	}
	if field, err := t.streamOutDraw(d); err != nil {
		return nil, &Error{Addr: lc.Addr, Op: lc.Opcode(), Field: field, Err: err}
	}
	for stage, p := range []*shader.Program{vs, ps, gs} {
		if p == nil {
			continue
		}
		for _, s := range p.Samplers {
			if tex := t.textures[stage][s.Unit].Texture; tex != nil && uint8(tex.Type) != uint8(s.Type) {
				return fail("texture", "%v shader sampler s%d (%s) is declared %v, the bound texture is %v",
					p.Stage, s.Unit, s.Name, s.Type, tex.Type)
			}
		}
	}
	t.draws++
	return d, nil
}
