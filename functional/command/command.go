package command

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/geom"
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
	numOpcodes
)

var opcodeNames = [...]string{
	"Nop", "SetViewport", "SetScissor", "SetRaster", "SetDepthStencil", "SetBlend",
	"SetColorTarget", "SetDepthTarget", "BindShader", "SetConstants", "BindTexture",
	"SetInputLayout", "BindVertexBuffer", "BindIndexBuffer", "SetTopology", "Draw",
	"DrawIndexed", "Clear", "SyncToken", "Present", "End",
}

func (o Opcode) String() string {
	if int(o) < len(opcodeNames) {
		return opcodeNames[o]
	}
	return fmt.Sprintf("Opcode(%d)", uint8(o))
}

// Stage selects the shader stage a binding applies to.
type Stage uint32

// Shader stages.
const (
	VertexStage Stage = 0
	PixelStage  Stage = 1
)

func (s Stage) String() string {
	switch s {
	case VertexStage:
		return "vertex"
	case PixelStage:
		return "pixel"
	}
	return fmt.Sprintf("Stage(%d)", uint32(s))
}

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

// Topologies.
const (
	TriangleList Topology = iota
	TriangleStrip
)

func (t Topology) String() string {
	switch t {
	case TriangleList:
		return "trianglelist"
	case TriangleStrip:
		return "trianglestrip"
	}
	return fmt.Sprintf("Topology(%d)", uint32(t))
}

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

// IsDraw reports whether c starts pipeline work (a draw).
func IsDraw(c Command) bool {
	switch c.(type) {
	case Draw, DrawIndexed:
		return true
	}
	return false
}
