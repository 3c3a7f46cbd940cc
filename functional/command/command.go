package command

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// Opcode identifies a command.
type Opcode uint8

// The opcodes. Values are part of the binary format; append, never renumber.
const (
	OpNop Opcode = iota
	OpSetViewport
	OpSetScissor
	OpSetRaster
	OpSetDepthStencil
	OpSetBlend
	OpSetColorTarget
	OpSetDepthTarget
	OpBindShader
	OpSetConstants
	OpBindTexture
	OpSetInputLayout
	OpBindVertexBuffer
	OpBindIndexBuffer
	OpSetTopology
	OpDraw
	OpDrawIndexed
	OpClear
	OpSyncToken
	OpPresent
	OpEnd
	OpSetLens
	OpSetDecoupling
	OpBindStreamOut // stream-out (streamout.go)
	OpSetStreamOut
	OpDrawAuto
	numOpcodes
)

// NumOpcodes is the number of opcodes: tables indexed by Opcode have this
// length (it grows when opcodes are appended).
const NumOpcodes = int(numOpcodes)

var opcodeNames = enum.Names[Opcode]{Type: "Opcode", What: "opcode", Names: []string{
	"Nop", "SetViewport", "SetScissor", "SetRaster", "SetDepthStencil", "SetBlend",
	"SetColorTarget", "SetDepthTarget", "BindShader", "SetConstants", "BindTexture",
	"SetInputLayout", "BindVertexBuffer", "BindIndexBuffer", "SetTopology", "Draw",
	"DrawIndexed", "Clear", "SyncToken", "Present", "End", "SetLens", "SetDecoupling",
	"BindStreamOut", "SetStreamOut", "DrawAuto",
}}

func (o Opcode) String() string { return opcodeNames.String(o) }

// Stage selects the shader stage a binding applies to.
type Stage uint32

// Shader stages.
const (
	VertexStage   Stage = 0
	PixelStage    Stage = 1
	GeometryStage Stage = 2 // BindShader with address 0 unbinds it
	NumStages           = 3
)

var stageNames = enum.Names[Stage]{Type: "Stage", Names: []string{"vertex", "pixel", "geometry"}}

func (s Stage) String() string { return stageNames.String(s) }

// Semantic names a vertex attribute.
type Semantic uint32

// Vertex attribute semantics. The shader assembler's `.input vN <name>` names map to
// these by SemanticName.
const (
	SemPosition Semantic = iota
	SemNormal
	SemTexcoord
	SemTangent
	SemColor
	NumSemantics // the number of semantics
)

var semanticNames = [...]string{"position", "normal", "texcoord", "tangent", "color"}

// SemanticName returns the shader-side name of s ("position", "normal", ...).
func SemanticName(s Semantic) string {
	if int(s) < len(semanticNames) {
		return semanticNames[s]
	}
	return fmt.Sprintf("semantic%d", uint32(s))
}

// SemanticByName returns the semantic with the given shader-side name.
func SemanticByName(name string) (Semantic, bool) {
	for i, n := range semanticNames {
		if n == name {
			return Semantic(i), true
		}
	}
	return 0, false
}

// Topology is the primitive topology of draws.
type Topology uint32

// Topologies. Points, lines and the lists with adjacency need a geometry
// shader or stream-out without rasterization (the rasterizer draws
// triangles); with adjacency a line is 4 vertices and a triangle 6 (see
// shader.InputPrimitive).
const (
	TriangleList Topology = iota
	TriangleStrip
	PointList
	LineList
	LineListAdj
	TriangleListAdj
	numTopologies
)

var topologyNames = enum.Names[Topology]{Type: "Topology", What: "topology", Names: []string{"trianglelist", "trianglestrip", "pointlist", "linelist", "linelistadj", "trianglelistadj"}}

// Vertices returns the vertices of one primitive of the topology (a strip's
// triangle has 3).
func (t Topology) Vertices() int {
	switch t {
	case PointList:
		return 1
	case LineList:
		return 2
	case LineListAdj:
		return 4
	case TriangleListAdj:
		return 6
	}
	return 3
}

func (t Topology) String() string { return topologyNames.String(t) }

// Clear flags.
const (
	ClearColor   = 1
	ClearDepth   = 2
	ClearStencil = 4
)

// Depth-stencil flags.
const (
	DepthEnable   = 1
	DepthWrite    = 2
	StencilEnable = 4
)

// Command is one decoded command. Each command type knows its opcode and how to
// write its payload.
type Command interface {
	Opcode() Opcode
	encode(w *wordWriter)
}

// StencilFace is the wire form of one face's stencil operations.
type StencilFace struct{ Func, Fail, DepthFail, Pass uint8 }

// Attribute is one vertex attribute of an input layout: Components float32 values
// (1 to 4) at byte Offset inside each vertex.
type Attribute struct {
	Semantic   Semantic
	Offset     uint32
	Components uint32
}

// Target describes a render target surface in memory.
type Target struct {
	Addr          uint64
	Width, Height uint32
	Samples       uint32
	Format        uint32
	Layout        uint32
	TileW, TileH  uint32
}

// Lens is the thin lens of the 5D (defocus) rasterizer as a clip-space shear.
// A lens sample (u, v) on the unit disk (u, v in [-1, 1], u along the view's
// +x, v along its +y) moves a clip-space position (x, y, z, w) to
//
//	x' = x + u*Kx*(w - F)
//	y' = y + v*Ky*(w - F)
//
// (z and w unchanged). With the camera's projection P (w = the distance along
// the view direction), lens radius R and focus distance F:
//
//	Kx = P00*R/F    Ky = P11*R/F
//
// Derivation: seen from the lens point L = (u*R, v*R, 0) in view space with
// the image plane sheared so that the plane at distance F stays in place, a
// view-space point (xv, yv, -d) lands at x_ndc = P00*((xv - u*R)/d + u*R/F);
// times w = d this is x + u*P00*R*(d - F)/F. Points on the focus plane (w = F)
// do not move; points behind it (w > F) move with the lens sample (+u moves
// them towards +x), points in front of it against it. A pinhole camera
// (R = 0) has Kx = Ky = 0 and F has no effect.
//
// The shutter is not part of the lens: the time t in [0, 1] of a sample runs
// from the vertex shader's position (shutter open, constant block mvp) to its
// position_end (shutter close, mvp_end); the driver folds the shutter
// interval into those two matrices.
type Lens struct {
	Kx, Ky float32 // clip-space shear per unit of (w - F) at u = 1 or v = 1
	F      float32 // focus distance (clip w of the plane in focus), > 0
}

// DecouplingMode selects how a draw's shading is tied to its visibility
// samples under decoupled sampling (Ragan-Kelley et al. 2011).
type DecouplingMode uint32

// Decoupling modes; the values are part of the binary format.
const (
	// DecoupleOff: today's MSAA shading, one shade per pixel and primitive.
	DecoupleOff DecouplingMode = iota
	// DecoupleOn: shading memoized per (primitive, shading quad) through the
	// decoupling map.
	DecoupleOn
	// DecoupleSupersample: per-sample shading, each sample index of a pixel
	// quad shaded as a 2x2 quad, helper lanes included (the baseline the
	// decoupled study measures against; the paper's idealized supersampler
	// shades exactly once per visible sample, which is fewer).
	DecoupleSupersample
	numDecouplingModes
)

var decouplingModeNames = enum.Names[DecouplingMode]{Type: "DecouplingMode", What: "decoupling mode", Names: []string{"off", "on", "supersample"}}

func (m DecouplingMode) String() string { return decouplingModeNames.String(m) }

// MinDecouplingRate and MaxDecouplingRate bound Decoupling.Rate. The
// coarsest grid, one shading point per 65536 pixels along each axis, is the
// widest spacing the decoupling map holds (functional/decouple's MaxRate
// pixels).
const (
	MinDecouplingRate = 1.0 / 65536
	MaxDecouplingRate = 64
)

// Decoupling is a draw's decoupled-sampling setting. Rate (in
// [MinDecouplingRate, MaxDecouplingRate]) is the density of the shading grid in shading points per
// pixel along each axis (1: one per pixel, as MSAA; 2: four per pixel; 0.5:
// one per 2x2 pixels); Adaptive spaces the grid by the primitive's circle of
// confusion; Bilinear reconstructs from four shading points. Rate, Adaptive
// and Bilinear only matter when Mode is not DecoupleOff.
type Decoupling struct {
	Mode     DecouplingMode
	Rate     float32
	Adaptive bool
	Bilinear bool
}

// DefaultDecoupling is the state before any SetDecoupling: off, rate 1.
func DefaultDecoupling() Decoupling { return Decoupling{Mode: DecoupleOff, Rate: 1} }

// The command types, one per opcode.
type (
	Nop         struct{ Words uint32 }
	SetViewport struct{ Viewport geom.Viewport }
	SetScissor  struct {
		Enable         bool
		X0, Y0, X1, Y1 int32
	}
	SetRaster struct {
		CullMode uint32
		FrontCCW bool
	}
	SetDepthStencil struct {
		Flags                    uint32
		DepthFunc                uint32
		Ref, ReadMask, WriteMask uint8
		Front, Back              StencilFace
	}
	SetBlend struct {
		Target                uint32
		Enable                bool
		WriteMask             uint8
		SrcRGB, DstRGB, OpRGB uint8
		SrcA, DstA, OpA       uint8
		Constant              geom.Vec4
	}
	SetColorTarget struct {
		Slot uint32
		Target
	}
	SetDepthTarget struct{ Target }
	BindShader     struct {
		Stage Stage
		Addr  uint64
		Size  uint32
	}
	SetConstants struct {
		Stage        Stage
		First, Count uint32
		Addr         uint64
	}
	BindTexture struct {
		Stage                      Stage
		Slot                       uint32
		Desc                       uint64
		Filter, AddressU, AddressV uint32
		LODBias, MinLOD, MaxLOD    float32
		// AddressW is the third axis's address mode (3D textures),
		// MaxAnisotropy the anisotropic filter's limit (1..16; 0 means 1),
		// Border the border colour. A 10-word payload (the first version)
		// leaves them 0.
		AddressW      uint32
		MaxAnisotropy uint32
		Border        geom.Vec4
	}
	SetInputLayout struct {
		Stride     uint32
		Attributes []Attribute
	}
	BindVertexBuffer struct {
		Addr uint64
		Size uint32
	}
	BindIndexBuffer struct {
		Addr   uint64
		Format uint32 // 16 or 32 bits per index
		Size   uint32
	}
	SetTopology struct{ Topology Topology }
	Draw        struct{ VertexCount, StartVertex uint32 }
	DrawIndexed struct {
		IndexCount, StartIndex uint32
		BaseVertex             int32
	}
	Clear struct {
		Flags   uint32
		Color   geom.Vec4
		Depth   float32
		Stencil uint8
	}
	SyncToken struct {
		Value uint32
		Addr  uint64
	}
	Present struct{ Slot uint32 }
	End     struct{}
	// SetLens sets the lens of the 5D rasterizer (once per frame and when it
	// changes).
	SetLens struct{ Lens }
	// SetDecoupling sets the decoupled-sampling mode of the following draws.
	SetDecoupling struct{ Decoupling }
)

func (Nop) Opcode() Opcode              { return OpNop }
func (SetViewport) Opcode() Opcode      { return OpSetViewport }
func (SetScissor) Opcode() Opcode       { return OpSetScissor }
func (SetRaster) Opcode() Opcode        { return OpSetRaster }
func (SetDepthStencil) Opcode() Opcode  { return OpSetDepthStencil }
func (SetBlend) Opcode() Opcode         { return OpSetBlend }
func (SetColorTarget) Opcode() Opcode   { return OpSetColorTarget }
func (SetDepthTarget) Opcode() Opcode   { return OpSetDepthTarget }
func (BindShader) Opcode() Opcode       { return OpBindShader }
func (SetConstants) Opcode() Opcode     { return OpSetConstants }
func (BindTexture) Opcode() Opcode      { return OpBindTexture }
func (SetInputLayout) Opcode() Opcode   { return OpSetInputLayout }
func (BindVertexBuffer) Opcode() Opcode { return OpBindVertexBuffer }
func (BindIndexBuffer) Opcode() Opcode  { return OpBindIndexBuffer }
func (SetTopology) Opcode() Opcode      { return OpSetTopology }
func (Draw) Opcode() Opcode             { return OpDraw }
func (DrawIndexed) Opcode() Opcode      { return OpDrawIndexed }
func (Clear) Opcode() Opcode            { return OpClear }
func (SyncToken) Opcode() Opcode        { return OpSyncToken }
func (Present) Opcode() Opcode          { return OpPresent }
func (End) Opcode() Opcode              { return OpEnd }
func (SetLens) Opcode() Opcode          { return OpSetLens }
func (SetDecoupling) Opcode() Opcode    { return OpSetDecoupling }

// IsDraw reports whether c starts pipeline work (a draw).
func IsDraw(c Command) bool {
	switch c.(type) {
	case Draw, DrawIndexed, DrawAuto:
		return true
	}
	return false
}
