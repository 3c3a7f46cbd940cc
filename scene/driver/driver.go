package driver

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/blend"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/shader/library"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/mesh"
)

// Options are the memory-layout choices of the driver.
type Options struct {
	ColorLayout framebuffer.Layout // default Tiled
	DepthLayout framebuffer.Layout // default Tiled
	// TargetTileW x TargetTileH is the tile of Tiled targets; 0 chooses the tile
	// whose samples fill one 64-byte line at 32 bits per sample (4x4 pixels at 1x,
	// 4x2 at 2x, 2x2 at 4x, 2x1 at 8x, 1x1 at 16x), so that a 2x2 quad touches as
	// few lines as possible (Giesen part 9: "a 4x4 or 8x2 pixel DRAM page is a lot
	// more useful than a 16x1 one (remember - quads)").
	TargetTileW int
	TargetTileH int
	DepthFormat depth.Format // default D24S8
	// ColorFormat is the render targets' format: RGBA8 (the zero value and
	// the default), or RGBA10 for the SAGE sample buffer.
	ColorFormat   framebuffer.ColorFormat
	TextureLayout texture.Layout // default Tiled
	// Multipass holds the machine's per-pass fragment resources: a draw whose
	// pixel shader does not fit them is rendered in several passes (see
	// multipass.go). The zero value splits nothing.
	Multipass MultipassOptions
	// ReorderIndices, when positive, uploads the index buffer of every
	// Reorderable mesh with its triangles reordered for vertex reuse
	// (vertexcache.Tipsify for a FIFO of this many entries; see reorder.go);
	// 0 keeps every mesh's order.
	ReorderIndices int
	// ReorderVertices, with ReorderIndices, also stores the vertices of
	// each reordered mesh in the order the reordered list first uses them
	// (vertexcache.FetchOrder), so that vertex fetch walks the buffer
	// forward.
	ReorderVertices bool
}

// DefaultOptions returns the defaults.
func DefaultOptions() Options {
	return Options{ColorLayout: framebuffer.Tiled, DepthLayout: framebuffer.Tiled,
		DepthFormat: depth.D24S8, TextureLayout: texture.Tiled}
}

// Frame is an encoded frame.
type Frame struct {
	Memory      *command.Image
	Stream      uint64 // address of the command stream
	StreamBytes uint64
	Draws       int // draw commands (a multipass object draws once per pass)
	// DrawEstimates holds each draw command's estimated work, in stream order
	// (see DrawEstimate).
	DrawEstimates []DrawEstimate
	Triangles     int // triangles the draws submit
	Color         command.Target
	Depth         command.Target
	SyncAddr      uint64 // where the end-of-frame sync token is written
	SyncValue     uint32
	// Textures lists the textures in memory, in scene order (for traffic
	// accounting by texture), then the multipass intermediates.
	Textures []TextureInfo
	// Multipass lists the objects drawn in several passes, in draw order.
	Multipass []MultipassDraw
	// StreamBuffers lists the scene's stream-out buffers in memory, in scene order.
	StreamBuffers []StreamBuffer
}

// TextureInfo is where one scene texture lives in the memory image.
type TextureInfo struct {
	Name       string
	Desc       uint64 // descriptor address
	Data, Size uint64 // the texel bytes [Data, Data+Size)
	Descriptor texture.Descriptor
}

const pageAlign = 4096

// Encode builds the memory image and command stream of one frame of s.
func Encode(s *scene.Scene, o Options) (*Frame, error) {
	f, err := encode(s, o)
	if err != nil && s.Source != "" {
		// A scene the parser took may still not fit the machine (its
		// multipass limits): say which scene.
		return nil, fmt.Errorf("%s: %w", s.Source, err)
	}
	return f, err
}

func encode(s *scene.Scene, o Options) (*Frame, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if o.TargetTileW == 0 || o.TargetTileH == 0 {
		o.TargetTileW, o.TargetTileH = LineTile(s.Samples)
	}
	// The image is sized for the frame's estimate up front: growing it by
	// appends would hold two copies at once, a third more than the estimate.
	e := &encoder{s: s, o: o, mem: command.NewImageCap(uint64(max(0, s.FrameBytes()))), programs: map[string]programRef{}, splits: map[string]*split{}}
	if err := e.targets(); err != nil {
		return nil, err
	}
	if err := e.textures(); err != nil {
		return nil, err
	}
	if err := e.meshes(); err != nil {
		return nil, err
	}
	e.streamBuffers()
	if err := e.objects(); err != nil {
		return nil, err
	}
	f := &Frame{Memory: e.mem, Color: e.color, Depth: e.depth, Draws: e.draws, DrawEstimates: e.estimates,
		Triangles: e.triangles, SyncValue: 1, Textures: e.texInfo, Multipass: e.multi}
	for i, b := range e.streamBufs {
		f.StreamBuffers = append(f.StreamBuffers, StreamBuffer{Name: e.s.StreamBuffers[i].Name, Addr: b.addr, FilledAddr: b.filled, Size: b.size})
	}
	f.SyncAddr = e.mem.Alloc(4, 16)
	// The end-of-frame fence follows the present, as a driver signals a
	// frame done once it is presented: a fence before the present would make
	// a binning GPU render its tiles for the fence and reload them to resolve.
	e.cmd.Append(command.Present{Slot: 0})
	e.cmd.Append(command.SyncToken{Value: f.SyncValue, Addr: f.SyncAddr})
	e.cmd.Append(command.End{})
	f.Stream = e.mem.Put(e.cmd.Bytes(), pageAlign)
	f.StreamBytes = uint64(e.cmd.Len())
	return f, nil
}

// LineTile returns the tile (width, height in pixels) whose samples fill one
// 64-byte line at 32 bits per sample.
func LineTile(samples int) (w, h int) {
	switch samples {
	case 1:
		return 4, 4
	case 2:
		return 4, 2
	case 4:
		return 2, 2
	case 8:
		return 2, 1
	}
	return 1, 1
}

type programRef struct {
	addr uint64
	size uint32
	prog *shader.Program
}

type meshBuffers struct {
	vb     command.BindVertexBuffer
	ib     command.BindIndexBuffer
	layout command.SetInputLayout
	count  uint32
}

type encoder struct {
	s        *scene.Scene
	o        Options
	mem      *command.Image
	cmd      command.Encoder
	color    command.Target
	depth    command.Target
	texDesc  []uint64
	texInfo  []TextureInfo
	meshBufs []meshBuffers
	programs map[string]programRef
	// Geometry shaders and stream-out (geometry.go).
	streamBufs []streamBuf
	adjBufs    map[int]command.BindIndexBuffer

	draws, triangles int
	estimates        []DrawEstimate // one per draw
	// Multipass: partitions by pixel shader, intermediate targets, the sync
	// word between passes, the split objects.
	splits   map[string]*split
	inter    []intermediate
	passSync uint64
	syncs    int
	multi    []MultipassDraw
}

// target allocates a render target of size bytes at the scene's size and
// samples, in format and layout, tiled as the options say.
func (e *encoder) target(size uint64, format, layout uint32) command.Target {
	s, o := e.s, e.o
	return command.Target{Addr: e.mem.Alloc(size, pageAlign), Width: uint32(s.Width), Height: uint32(s.Height),
		Samples: uint32(s.Samples), Format: format, Layout: layout,
		TileW: uint32(o.TargetTileW), TileH: uint32(o.TargetTileH)}
}

func (e *encoder) targets() error {
	s, o := e.s, e.o
	g := framebuffer.Geometry{Width: s.Width, Height: s.Height, Samples: s.Samples, Layout: o.ColorLayout,
		TileW: o.TargetTileW, TileH: o.TargetTileH}
	csize, err := framebuffer.ColorTargetSize(g, o.ColorFormat)
	if err != nil {
		return fmt.Errorf("driver: colour target: %w", err)
	}
	e.color = e.target(csize, uint32(o.ColorFormat), uint32(o.ColorLayout))
	g.Layout = o.DepthLayout
	size, err := state.DepthTargetSize(g, o.DepthFormat)
	if err != nil {
		return fmt.Errorf("driver: depth target: %w", err)
	}
	e.depth = e.target(size, uint32(o.DepthFormat), uint32(o.DepthLayout))
	e.cmd.Append(command.SetColorTarget{Slot: 0, Target: e.color})
	e.cmd.Append(command.SetDepthTarget{Target: e.depth})
	e.cmd.Append(command.SetViewport{Viewport: geom.Viewport{Width: float32(s.Width), Height: float32(s.Height), MaxZ: 1}})
	e.cmd.Append(command.SetLens{Lens: LensOf(s)})
	c := s.Clear
	e.cmd.Append(command.Clear{Flags: command.ClearColor | command.ClearDepth | command.ClearStencil,
		Color: c.Color, Depth: c.Depth, Stencil: c.Stencil})
	return nil
}

// textures converts every scene texture to its storage format (block formats
// are compressed here, level by level, with texture.EncodeBlock), builds the
// mip chain in the driver's texture layout and writes the texels and the
// descriptor to memory.
func (e *encoder) textures() error {
	for i := range e.s.Textures {
		t := &e.s.Textures[i]
		d := texture.Descriptor{Format: texture.Format(t.Format), Width: t.Width, Height: t.Height, Levels: 1,
			Layout: e.o.TextureLayout, Type: texture.Type(t.Type), Depth: t.Depth}
		if t.Type == scene.Texture2D || t.Type == scene.TextureCube {
			d.Depth = 0
		}
		if t.Mipmaps {
			d.Levels = 0
		}
		tex, err := texture.FromRGBA8(d, t.Pix)
		if err != nil {
			return fmt.Errorf("driver: texture %q: %w", t.Name, err)
		}
		d = tex.Descriptor()
		data := e.mem.Put(tex.Bytes(), 256)
		desc := command.TextureDescriptor{Format: uint32(d.Format), Width: uint32(d.Width), Height: uint32(d.Height),
			Levels: uint32(d.Levels), Layout: uint32(d.Layout), Data: data, Size: uint32(tex.SizeBytes()),
			Type: uint32(d.Type), Depth: uint32(d.Depth)}
		addr := e.mem.Put(desc.Encode(), 64)
		e.texDesc = append(e.texDesc, addr)
		e.texInfo = append(e.texInfo, TextureInfo{Name: t.Name, Desc: addr, Data: data, Size: tex.SizeBytes(), Descriptor: d})
	}
	return nil
}

func (e *encoder) meshes() error {
	orders, err := MeshOrders(e.s, e.o)
	if err != nil {
		return err
	}
	for i, m := range e.s.Meshes {
		e.meshBufs = append(e.meshBufs, e.uploadMesh(m, orders[i]))
	}
	return nil
}

// uploadMesh puts mesh m's vertex and index buffers in memory, in order ord
// (m's own, or its reordering).
func (e *encoder) uploadMesh(m *mesh.Mesh, ord MeshOrder) meshBuffers {
	indices := ord.Indices
	var attrs []command.Attribute
	stride := uint32(0)
	add := func(sem command.Semantic, comps uint32) {
		attrs = append(attrs, command.Attribute{Semantic: sem, Offset: stride, Components: comps})
		stride += 4 * comps
	}
	add(command.SemPosition, 3)
	hasN, hasT, hasTan, hasC := len(m.Normals) > 0, len(m.TexCoords) > 0, len(m.Tangents) > 0, len(m.Colors) > 0
	if hasN {
		add(command.SemNormal, 3)
	}
	if hasT {
		add(command.SemTexcoord, 2)
	}
	if hasTan {
		add(command.SemTangent, 4)
	}
	if hasC {
		add(command.SemColor, 4)
	}
	n := len(m.Positions)
	vb := make([]byte, 0, n*int(stride))
	put := func(fs ...float32) {
		for _, f := range fs {
			vb = binary.LittleEndian.AppendUint32(vb, math.Float32bits(f))
		}
	}
	for k := 0; k < n; k++ {
		i := k
		if ord.Vertices != nil {
			i = int(ord.Vertices[k])
		}
		p := m.Positions[i]
		put(p[0], p[1], p[2])
		if hasN {
			put(m.Normals[i][0], m.Normals[i][1], m.Normals[i][2])
		}
		if hasT {
			put(m.TexCoords[i][0], m.TexCoords[i][1])
		}
		if hasTan {
			t := m.Tangents[i]
			put(t[0], t[1], t[2], t[3])
		}
		if hasC {
			c := m.Colors[i]
			put(c[0], c[1], c[2], c[3])
		}
	}
	var ib []byte
	format := uint32(32)
	if n <= 1<<16 {
		format = 16
		for _, v := range indices {
			ib = binary.LittleEndian.AppendUint16(ib, uint16(v))
		}
	} else {
		for _, v := range indices {
			ib = binary.LittleEndian.AppendUint32(ib, v)
		}
	}
	return meshBuffers{
		vb:     command.BindVertexBuffer{Addr: e.mem.Put(vb, 256), Size: uint32(len(vb))},
		ib:     command.BindIndexBuffer{Addr: e.mem.Put(ib, 256), Format: format, Size: uint32(len(ib))},
		layout: command.SetInputLayout{Stride: stride, Attributes: attrs},
		count:  uint32(len(indices)),
	}
}

func (e *encoder) program(name string, p *shader.Program) programRef {
	if r, ok := e.programs[name]; ok {
		return r
	}
	code := p.Encode()
	r := programRef{addr: e.mem.Put(code, 256), size: uint32(len(code)), prog: p}
	e.programs[name] = r
	return r
}

// drawState is the state the driver last sent, for redundant-state filtering.
type drawState struct {
	valid      bool
	raster     command.SetRaster
	ds         command.SetDepthStencil
	blend      command.SetBlend
	decoupling command.SetDecoupling
	vs, ps, gs uint64
	mesh       int
	adjacency  bool // the adjacency index buffer of mesh is bound
	topology   command.Topology
	// topologySet: topology was sent (multipass draws send their own)
	topologySet bool
	texture     [2][shader.MaxSamplers]uint64
	target      command.Target // colour target of slot 0
}

func (e *encoder) objects() error {
	s := e.s
	vp, vpEnd := s.ViewProjection(), s.ViewProjectionEnd()
	last := drawState{target: e.color}
	for i := range s.Objects {
		obj := &s.Objects[i]
		mat := &s.Materials[obj.Material]
		lm, err := library.Get(mat.Shader)
		if err != nil {
			return fmt.Errorf("driver: objects[%d]: material %q: %w", i, mat.Name, err)
		}
		vs := e.program(lm.VS.Name, lm.VS)
		rs := command.SetRaster{CullMode: uint32(mat.State.Cull), FrontCCW: frontCCW(obj, mat.State)}
		ds := depthStencil(mat.State)
		bs := blendState(mat.State.Blend)
		model := obj.Transform
		env := constantEnv{mvp: vp.Mul(model), mvpEnd: vpEnd.Mul(s.EndTransform(obj)), model: model,
			normal: model.NormalMatrix(), scene: s}
		sp, err := e.splitFor(lm.PS)
		if err == nil && sp != nil && last.gs != 0 { // multipass draws have no geometry shader
			e.cmd.Append(command.BindShader{Stage: command.GeometryStage})
			last.gs = 0
		}
		if err == nil && sp != nil {
			err = e.multipassObject(i, obj, mat, &lm, vs, sp, rs, ds, bs, &env, &last)
		}
		if err != nil {
			return fmt.Errorf("driver: objects[%d]: material %q: shader %q: %w", i, mat.Name, mat.Shader, err)
		}
		if sp != nil {
			continue
		}
		ps := e.program(lm.PS.Name, lm.PS)
		var gs programRef
		lastStage := vs.prog
		if lm.GS != nil {
			gs = e.program(lm.GS.Name, lm.GS)
			lastStage = gs.prog
		}
		if !last.valid || rs != last.raster {
			e.cmd.Append(rs)
		}
		if !last.valid || ds != last.ds {
			e.cmd.Append(ds)
		}
		if !last.valid || bs != last.blend {
			e.cmd.Append(bs)
		}
		dec := decoupling(mat.Decoupled)
		if !last.valid || dec != last.decoupling {
			e.cmd.Append(dec)
		}
		if !last.valid || vs.addr != last.vs {
			e.cmd.Append(command.BindShader{Stage: command.VertexStage, Addr: vs.addr, Size: vs.size})
		}
		if !last.valid || ps.addr != last.ps {
			e.cmd.Append(command.BindShader{Stage: command.PixelStage, Addr: ps.addr, Size: ps.size})
		}
		if last.valid && gs.addr != last.gs {
			e.cmd.Append(command.BindShader{Stage: command.GeometryStage, Addr: gs.addr, Size: gs.size})
		} else if !last.valid && gs.addr != 0 {
			e.cmd.Append(command.BindShader{Stage: command.GeometryStage, Addr: gs.addr, Size: gs.size})
		}
		for stage, p := range []*shader.Program{vs.prog, ps.prog, gs.prog} {
			if p == nil {
				continue
			}
			consts := env.fill(p, mat)
			if len(consts) == 0 {
				continue
			}
			addr := e.mem.Put(vec4Bytes(consts), 256)
			e.cmd.Append(command.SetConstants{Stage: command.Stage(stage), First: 0, Count: uint32(len(consts)), Addr: addr})
		}
		for _, b := range mat.Textures {
			unit, ok := ps.prog.SamplerUnit(b.Sampler)
			stage := command.PixelStage
			if !ok {
				if unit, ok = vs.prog.SamplerUnit(b.Sampler); !ok {
					return fmt.Errorf("driver: objects[%d]: material %q: shader %q has no sampler %q", i, mat.Name, mat.Shader, b.Sampler)
				}
				stage = command.VertexStage
			}
			desc := e.texDesc[b.Texture]
			if last.valid && last.texture[stage][unit] == desc {
				continue
			}
			t := &s.Textures[b.Texture]
			e.cmd.Append(command.BindTexture{Stage: stage, Slot: uint32(unit), Desc: desc, Filter: uint32(t.Filter),
				AddressU: uint32(t.AddressU), AddressV: uint32(t.AddressV), AddressW: uint32(t.AddressW),
				LODBias: t.LODBias, MinLOD: t.MinLOD, MaxLOD: t.MaxLOD, MaxAnisotropy: uint32(t.MaxAnisotropy),
				Border: t.Border})
			last.texture[stage][unit] = desc
		}
		if obj.StreamOut != nil {
			for _, c := range e.bindStreamOut(obj.StreamOut, lastStage) {
				e.cmd.Append(c)
			}
		}
		e.triangles += e.drawObject(obj, &last)
		if obj.StreamOut != nil {
			e.cmd.Append(command.SetStreamOut{})
		}
		e.draws++
		e.estimates = append(e.estimates, e.drawEstimate(obj, env.mvp, mat.State))
		last.valid, last.raster, last.ds, last.blend, last.vs, last.ps, last.gs = true, rs, ds, bs, vs.addr, ps.addr, gs.addr
		last.decoupling = dec
	}
	return nil
}

// LensOf returns the lens command of scene s (see command.Lens): with P the
// projection, R = s.LensRadius() (the aperture times the blur) and F the
// focus distance, Kx = P00*R/F and Ky = P11*R/F; a pinhole has Kx = Ky = 0.
func LensOf(s *scene.Scene) command.Lens {
	kx, ky := s.LensShear()
	return command.Lens{Kx: kx, Ky: ky, F: s.Camera.FocusDistance}
}

// decoupling converts a material's decoupled-sampling setting to its command.
func decoupling(d scene.Decoupling) command.SetDecoupling {
	return command.SetDecoupling{Decoupling: command.Decoupling{Mode: command.DecouplingMode(d.Mode), Rate: d.Rate,
		Adaptive: d.Adaptive, Bilinear: d.Bilinear}}
}

func depthStencil(st scene.State) command.SetDepthStencil {
	var flags uint32
	if st.DepthTest {
		flags |= command.DepthEnable
	}
	if st.DepthWrite {
		flags |= command.DepthWrite
	}
	keep := command.StencilFace{Func: uint8(depth.Always), Fail: uint8(depth.Keep), DepthFail: uint8(depth.Keep), Pass: uint8(depth.Keep)}
	return command.SetDepthStencil{Flags: flags, DepthFunc: uint32(st.DepthFunc), ReadMask: 0xff, WriteMask: 0xff,
		Front: keep, Back: keep}
}

func blendState(m scene.BlendMode) command.SetBlend {
	var t blend.Target
	switch m {
	case scene.BlendAlpha:
		t = blend.Alpha()
	case scene.BlendAdditive:
		t = blend.Additive()
	case scene.BlendPremultiplied:
		t = blend.Premultiplied()
	default:
		t = blend.Opaque()
	}
	return command.SetBlend{Target: 0, Enable: t.Enable, WriteMask: t.WriteMask,
		SrcRGB: uint8(t.SrcRGB), DstRGB: uint8(t.DstRGB), OpRGB: uint8(t.OpRGB),
		SrcA: uint8(t.SrcAlpha), DstA: uint8(t.DstAlpha), OpA: uint8(t.OpAlpha)}
}

// constantEnv holds the values of the ABI's named constant blocks for one draw.
// frontCCW is whether obj's front faces are counter-clockwise on screen,
// material state st's winding as its transform draws it: a transform that
// mirrors (a negative scale; negative determinant) turns the mesh's
// counter-clockwise faces clockwise, as Direct3D leaves to the application.
// (Mesh files' own mirrored nodes are baked into their vertices with the
// winding reversed: mesh.Transform.)
func frontCCW(obj *scene.Object, st scene.State) bool {
	return st.FrontCCW != (obj.Transform.Det3() < 0)
}

type constantEnv struct {
	mvp, mvpEnd, model, normal geom.Mat4
	scene                      *scene.Scene
}

func (c *constantEnv) block(name string) []geom.Vec4 {
	rows := func(m geom.Mat4, n int) []geom.Vec4 {
		out := make([]geom.Vec4, n)
		for i := range out {
			out[i] = m.Row(i)
		}
		return out
	}
	s := c.scene
	switch name {
	case "mvp":
		return rows(c.mvp, 4)
	case "mvp_end":
		return rows(c.mvpEnd, 4)
	case "model":
		return rows(c.model, 4)
	case "normal_matrix":
		// Row 0's w (which the rows' dp3 ignore) is the model's handedness:
		// -1 when it mirrors, so that a tangent's handedness follows it.
		out := rows(c.normal, 3)
		out[0][3] = 1
		if c.model.Det3() < 0 {
			out[0][3] = -1
		}
		return out
	case "camera_pos":
		return []geom.Vec4{s.Camera.Position.Vec4(1)}
	case "ambient":
		return []geom.Vec4{s.Ambient.Vec4(1)}
	case "light_count":
		n := float32(len(s.Lights))
		return []geom.Vec4{{n, n, n, n}}
	case "inv_target_size":
		return []geom.Vec4{{1 / float32(s.Width), 1 / float32(s.Height), 0, 0}}
	case "lights":
		out := make([]geom.Vec4, 2*scene.MaxLights)
		for i, l := range s.Lights {
			if l.Kind == scene.DirectionalLight {
				out[2*i] = l.Direction.Scale(-1).Normalize().Vec4(0)
			} else {
				out[2*i] = l.Position.Vec4(1)
			}
			out[2*i+1] = l.Color.Vec4(1)
		}
		return out
	}
	return nil
}

// fill returns the constant buffer of program p for material m.
func (c *constantEnv) fill(p *shader.Program, m *scene.Material) []geom.Vec4 {
	buf := p.InitConstants(nil)
	for _, cb := range p.Consts {
		v := c.block(cb.Name)
		copy(buf[cb.Reg:cb.Reg+cb.Count], v)
	}
	for _, par := range m.Params {
		if pd, ok := p.Param(par.Name); ok {
			buf[pd.Reg] = par.Value
		}
	}
	return buf
}

func vec4Bytes(v []geom.Vec4) []byte {
	b := make([]byte, 0, 16*len(v))
	for _, x := range v {
		for _, f := range x {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
	}
	return b
}
