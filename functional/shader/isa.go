package shader

import (
	"fmt"
	"slices"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// Register file limits of the ISA.
const (
	MaxTemps     = 32  // r0..r31
	MaxInputs    = 16  // v0..v15
	MaxConstants = 256 // c0..c255
	MaxOutputs   = 16  // o0..o15 (plus oDepth); D3D10's vertex shader outputs
	// MaxRenderTargets bounds a pixel shader's colour outputs: o0..o7.
	MaxRenderTargets = 8
	MaxSamplers      = 16 // s0..s15
	MaxSources       = 3  // register sources of one instruction (TEXD, MAD, LRP, CMP)
	MaxLanes         = 64 // lanes of one warp
)

// Stage is the pipeline stage a program runs in.
type Stage uint8

// The stages.
const (
	VertexStage Stage = iota
	PixelStage
	GeometryStage // runs once per input primitive; see geometry.go
)

var stageNames = enum.Names[Stage]{Type: "Stage", Names: []string{"vs", "ps", "gs"}}

func (s Stage) String() string { return stageNames.String(s) }

// RegFile names a register file.
type RegFile uint8

// The register files. FileNone marks an unused operand slot.
const (
	FileNone   RegFile = iota
	FileTemp           // r0..r31: read/write temporaries, per lane
	FileInput          // v0..v15: read-only inputs, per lane
	FileConst          // c0..c255: read-only constants, uniform over the warp
	FileOutput         // o0..o15: write-only outputs, per lane (pixel shaders: o0..o7)
	FileDepth          // oDepth: write-only pixel depth output, per lane (x only)
)

var regFileNames = enum.Names[RegFile]{Type: "RegFile", Names: []string{"none", "r", "v", "c", "o", "oDepth"}}

func (f RegFile) String() string { return regFileNames.String(f) }

// size returns the number of registers of a file (0 for FileNone and unknown files).
func (f RegFile) size() int {
	switch f {
	case FileTemp:
		return MaxTemps
	case FileInput:
		return MaxInputs
	case FileConst:
		return MaxConstants
	case FileOutput:
		return MaxOutputs
	case FileDepth:
		return 1
	}
	return 0
}

// Opcode is an instruction mnemonic.
type Opcode uint8

// The instructions. OpInvalid (0) is never a valid instruction.
const (
	OpInvalid Opcode = iota
	OpMov
	OpAdd
	OpMul
	OpMad
	OpDp3
	OpDp4
	OpRcp
	OpRsq
	OpMin
	OpMax
	OpSlt
	OpSge
	OpFrc
	OpFlr
	OpEx2
	OpLg2
	OpPow
	OpSin
	OpCos
	OpLrp
	OpCmp
	OpDdx
	OpDdy
	OpKil
	OpTex
	OpTexb
	OpTexl
	OpTexd
	OpEmit  // geometry shader: append the lane's outputs to its output strip
	OpEmitc // geometry shader: emit in the lanes where no component of the operand is < 0
	OpCut   // geometry shader: end the lane's current strip
	numOpcodes
)

// OpClass is the functional unit an instruction occupies, for the timing model.
type OpClass uint8

// The classes.
const (
	ClassALU        OpClass = iota // simple arithmetic on the FMA pipeline
	ClassSFU                       // transcendental: RCP RSQ EX2 LG2 POW SIN COS
	ClassDerivative                // DDX DDY: cross-lane within a quad
	ClassTexture                   // TEX TEXB TEXL TEXD: a request to a texture sampler
	ClassKill                      // KIL: sets the killed mask
	ClassEmit                      // EMIT EMITC CUT: a write to the geometry shader's output buffer
)

var opClassNames = enum.Names[OpClass]{Type: "OpClass", Names: []string{"alu", "sfu", "derivative", "texture", "kill", "emit"}}

func (c OpClass) String() string { return opClassNames.String(c) }

// opShape says which components of each swizzled source an instruction reads.
type opShape uint8

const (
	shapeComponent opShape = iota // component c of every source for each written component c
	shapeScalar                   // component 0 of every source
	shapeDot3                     // components 0..2
	shapeDot4                     // components 0..3
	shapeKill                     // components 0..3 of the single source
	shapeTex                      // per TexMode, see texSourceMask
)

type opInfo struct {
	name    string
	nsrc    int // register sources (the sampler of TEX* is not counted)
	class   OpClass
	shape   opShape
	noDst   bool
	sampler bool
}

var opTable = [numOpcodes]opInfo{
	OpInvalid: {name: "invalid"},
	OpMov:     {"mov", 1, ClassALU, shapeComponent, false, false},
	OpAdd:     {"add", 2, ClassALU, shapeComponent, false, false},
	OpMul:     {"mul", 2, ClassALU, shapeComponent, false, false},
	OpMad:     {"mad", 3, ClassALU, shapeComponent, false, false},
	OpDp3:     {"dp3", 2, ClassALU, shapeDot3, false, false},
	OpDp4:     {"dp4", 2, ClassALU, shapeDot4, false, false},
	OpRcp:     {"rcp", 1, ClassSFU, shapeScalar, false, false},
	OpRsq:     {"rsq", 1, ClassSFU, shapeScalar, false, false},
	OpMin:     {"min", 2, ClassALU, shapeComponent, false, false},
	OpMax:     {"max", 2, ClassALU, shapeComponent, false, false},
	OpSlt:     {"slt", 2, ClassALU, shapeComponent, false, false},
	OpSge:     {"sge", 2, ClassALU, shapeComponent, false, false},
	OpFrc:     {"frc", 1, ClassALU, shapeComponent, false, false},
	OpFlr:     {"flr", 1, ClassALU, shapeComponent, false, false},
	OpEx2:     {"ex2", 1, ClassSFU, shapeScalar, false, false},
	OpLg2:     {"lg2", 1, ClassSFU, shapeScalar, false, false},
	OpPow:     {"pow", 2, ClassSFU, shapeScalar, false, false},
	OpSin:     {"sin", 1, ClassSFU, shapeScalar, false, false},
	OpCos:     {"cos", 1, ClassSFU, shapeScalar, false, false},
	OpLrp:     {"lrp", 3, ClassALU, shapeComponent, false, false},
	OpCmp:     {"cmp", 3, ClassALU, shapeComponent, false, false},
	OpDdx:     {"ddx", 1, ClassDerivative, shapeComponent, false, false},
	OpDdy:     {"ddy", 1, ClassDerivative, shapeComponent, false, false},
	OpKil:     {"kil", 1, ClassKill, shapeKill, true, false},
	OpTex:     {"tex", 1, ClassTexture, shapeTex, false, true},
	OpTexb:    {"texb", 1, ClassTexture, shapeTex, false, true},
	OpTexl:    {"texl", 1, ClassTexture, shapeTex, false, true},
	OpTexd:    {"texd", 3, ClassTexture, shapeTex, false, true},
	OpEmit:    {"emit", 0, ClassEmit, shapeComponent, true, false},
	OpEmitc:   {"emitc", 1, ClassEmit, shapeKill, true, false},
	OpCut:     {"cut", 0, ClassEmit, shapeComponent, true, false},
}

// Valid reports whether op is a defined instruction.
func (op Opcode) Valid() bool { return op > OpInvalid && op < numOpcodes }

func (op Opcode) info() *opInfo {
	if op >= numOpcodes {
		return &opTable[OpInvalid]
	}
	return &opTable[op]
}

// String returns the lower-case mnemonic.
func (op Opcode) String() string {
	if !op.Valid() {
		return fmt.Sprintf("Opcode(%d)", uint8(op))
	}
	return opTable[op].name
}

// Class returns the functional-unit class of op.
func (op Opcode) Class() OpClass { return op.info().class }

// NumSources returns the number of register source operands (the sampler of
// texture instructions is not counted).
func (op Opcode) NumSources() int { return op.info().nsrc }

// HasDest reports whether op writes a destination register (all but KIL).
func (op Opcode) HasDest() bool { return op.Valid() && !op.info().noDst }

// UsesSampler reports whether op names a sampler (TEX, TEXB, TEXL, TEXD).
func (op Opcode) UsesSampler() bool { return op.info().sampler }

// TexMode returns the LOD mode of a texture instruction (TexImplicit for others).
func (op Opcode) TexMode() TexMode {
	switch op {
	case OpTexb:
		return TexBias
	case OpTexl:
		return TexLOD
	case OpTexd:
		return TexGrad
	}
	return TexImplicit
}

// Component masks.
const (
	MaskX    uint8 = 1
	MaskY    uint8 = 2
	MaskZ    uint8 = 4
	MaskW    uint8 = 8
	MaskXYZ  uint8 = 7
	MaskXYZW uint8 = 15
)

// Dst is a destination operand: a temp, an output or oDepth, with a write mask
// (bit c set: component c is written; oDepth has mask MaskX).
type Dst struct {
	File  RegFile
	Index int
	Mask  uint8
}

// Src is a source operand: register, swizzle (Swizzle[c] is the register
// component read for component c of the operand), and the modifiers. The
// value is -|x| when both are set: abs applies first.
type Src struct {
	File    RegFile
	Index   int
	Swizzle [4]uint8
	Neg     bool
	Abs     bool
}

// IdentitySwizzle is .xyzw.
var IdentitySwizzle = [4]uint8{0, 1, 2, 3}

// Instr is one decoded instruction. Src[i] for i >= Op.NumSources() is zero.
// Sampler is the texture unit of TEX* (0 otherwise). TexCoords is the number
// of coordinate components TEX* reads, 2 (xy) or 3 (xyz), as the sampler's
// declared type says (SamplerType.Coords; the assembler sets it); 0 means 2,
// and it is 0 for other instructions. Line is the source line (0 when
// unknown); it is kept in the binary form as debug information.
type Instr struct {
	Op        Opcode
	Sat       bool
	Dst       Dst
	Src       [MaxSources]Src
	Sampler   int
	Line      int
	TexCoords int
}

// texCoordMask is the coordinate components of a texture instruction.
func (in *Instr) texCoordMask() uint8 {
	if in.TexCoords == 3 {
		return MaskXYZ
	}
	return MaskX | MaskY
}

// Interpolation is the interpolation mode of a pixel-shader input. The values
// match functional/raster's InterpMode (Perspective, NoPerspective, Flat).
type Interpolation uint8

// The modes.
const (
	InterpPerspective Interpolation = iota
	InterpNoPerspective
	InterpFlat
)

var interpolationNames = enum.Names[Interpolation]{Type: "Interpolation", Names: []string{"perspective", "noperspective", "flat"}}

func (m Interpolation) String() string { return interpolationNames.String(m) }

// System-value semantics of pixel-shader inputs.
const (
	SemanticPosition  = "sv_position"    // (X+0.5, Y+0.5, Z, 1/w) of the pixel
	SemanticFrontFace = "sv_isfrontface" // (1,1,1,1) front facing, (0,0,0,0) back facing
)

// Vertex-shader output semantics with a fixed meaning: o0 is the clip-space
// position at shutter open (SemanticClipPosition, constant block mvp); the
// output with SemanticPositionEnd, when declared, is the clip-space position
// at shutter close (mvp_end) that the 5D rasterizer interpolates towards for
// motion blur. Neither is interpolated for the pixel shader.
const (
	SemanticClipPosition = "position"
	SemanticPositionEnd  = "position_end"
)

// Vertex attribute semantics of vertex-shader inputs. A mesh that lacks an
// attribute provides (0,0,0,1) for it; missing trailing components of a
// present attribute read as 0 for y and z and 1 for w (the input assembler's
// job).
var VertexSemantics = []string{"position", "normal", "texcoord", "tangent", "color"}

// InputDecl declares an input register. For pixel shaders Interp and
// Centroid say how the varying is interpolated (system values ignore them).
//
// In a geometry shader Vertex says which vertex of the input primitive the
// input reads (0 .. InputPrimitive.Vertices()-1); the semantic names the
// vertex shader's output (position is its clip position o0). The system values
// sv_primitiveid (the input primitive's index in its draw, as a float in every
// component) and sv_gsinstanceid (the invocation's instance) have Vertex 0.
type InputDecl struct {
	Reg      int
	Semantic string
	Interp   Interpolation
	Centroid bool
	Vertex   int
}

// IsSystemValue reports whether the input is a pixel-shader system value
// (or one of the geometry shader's, sv_primitiveid and sv_gsinstanceid).
func (d InputDecl) IsSystemValue() bool {
	return d.Semantic == SemanticPosition || d.Semantic == SemanticFrontFace || d.Semantic == SemanticPrimitiveID ||
		d.Semantic == SemanticGSInstanceID
}

// OutputDecl declares an output: File is FileOutput (Index = render target
// for pixel shaders, varying slot for vertex shaders) or FileDepth (oDepth,
// semantic "depth").
type OutputDecl struct {
	File     RegFile
	Index    int
	Semantic string
}

// ConstDecl is a named block of Count constant registers starting at Reg,
// filled by the driver (the ABI names: mvp, mvp_end, model, normal_matrix,
// camera_pos, ambient, light_count, lights).
type ConstDecl struct {
	Reg   int
	Name  string
	Count int
}

// ParamDecl is a named material parameter in one constant register, with the
// value used when the material does not set it.
type ParamDecl struct {
	Reg     int
	Name    string
	Default geom.Vec4
}

// DefDecl is a literal constant register (`.def`): always Value.
type DefDecl struct {
	Reg   int
	Value geom.Vec4
}

// SamplerType is the type of texture a sampler is declared for; it fixes the
// coordinate components its texture instructions read. The values match
// functional/texture's Type.
type SamplerType uint8

// Sampler types.
const (
	Sampler2D      SamplerType = iota // coord.xy
	Sampler2DArray                    // coord.xy, the layer in coord.z
	SamplerCube                       // the direction coord.xyz
	Sampler3D                         // coord.xyz
	numSamplerTypes
)

var samplerTypeNames = enum.Names[SamplerType]{Type: "SamplerType", What: "sampler type", CaseOnly: true, Names: []string{"2d", "2darray", "cube", "3d"}}

// String returns the type's name in the text form.
func (t SamplerType) String() string { return samplerTypeNames.String(t) }

// Valid reports whether t is a known type.
func (t SamplerType) Valid() bool { return samplerTypeNames.Valid(t) }

// Coords returns the coordinate components of the type: 2 or 3.
func (t SamplerType) Coords() int {
	if t == Sampler2D {
		return 2
	}
	return 3
}

// SamplerDecl names a texture unit and the type of texture it samples.
type SamplerDecl struct {
	Unit int
	Name string
	Type SamplerType
}

// Program is an assembled (or decoded) shader. Treat it as immutable once
// validated: warps share it.
type Program struct {
	Stage    Stage
	Name     string
	Code     []Instr
	Inputs   []InputDecl
	Outputs  []OutputDecl
	Consts   []ConstDecl
	Params   []ParamDecl
	Defs     []DefDecl
	Samplers []SamplerDecl

	// Geometry shaders only (zero otherwise): the input primitive, the output
	// topology and the most vertices one invocation may emit.
	Geometry GeometryDecl

	// Built by Validate: the execution form and the register layout.
	exec   []execInstr
	layout layout
}

// layout is the per-lane register layout of a program in a warp: slots
// [0,temps) temps, then inputs, outputs and one slot for oDepth.
type layout struct {
	temps, inputs, outputs int
	consts                 int
	valid                  bool
}

func (l layout) slots() int      { return l.temps + l.inputs + l.outputs + 1 }
func (l layout) inputBase() int  { return l.temps }
func (l layout) outputBase() int { return l.temps + l.inputs }
func (l layout) depthSlot() int  { return l.temps + l.inputs + l.outputs }

// ConstBlock returns the named constant block.
func (p *Program) ConstBlock(name string) (ConstDecl, bool) {
	return find(p.Consts, func(c ConstDecl) bool { return c.Name == name })
}

// Param returns the named material parameter.
func (p *Program) Param(name string) (ParamDecl, bool) {
	return find(p.Params, func(c ParamDecl) bool { return c.Name == name })
}

// SamplerUnit returns the texture unit of the named sampler.
func (p *Program) SamplerUnit(name string) (int, bool) {
	s, ok := find(p.Samplers, func(s SamplerDecl) bool { return s.Name == name })
	return s.Unit, ok
}

// Input returns the input declared with the semantic.
func (p *Program) Input(semantic string) (InputDecl, bool) {
	return find(p.Inputs, func(d InputDecl) bool { return d.Semantic == semantic })
}

// Output returns the output declared with the semantic.
func (p *Program) Output(semantic string) (OutputDecl, bool) {
	return find(p.Outputs, func(d OutputDecl) bool { return d.Semantic == semantic })
}

// find returns the first declaration that matches (the zero value and false
// when none does).
func find[T any](decls []T, match func(T) bool) (T, bool) {
	if i := slices.IndexFunc(decls, match); i >= 0 {
		return decls[i], true
	}
	var zero T
	return zero, false
}

// NumConstants returns the size of the constant buffer the program needs:
// one past the highest constant register declared or referenced.
func (p *Program) NumConstants() int {
	n := 0
	for _, c := range p.Consts {
		n = max(n, c.Reg+c.Count)
	}
	for _, c := range p.Params {
		n = max(n, c.Reg+1)
	}
	for _, c := range p.Defs {
		n = max(n, c.Reg+1)
	}
	for i := range p.Code {
		in := &p.Code[i]
		for s := 0; s < in.Op.NumSources(); s++ {
			if in.Src[s].File == FileConst {
				n = max(n, in.Src[s].Index+1)
			}
		}
	}
	return n
}

// InitConstants returns buf resized to NumConstants registers, zeroed, with
// every .param at its default and every .def at its value. The driver then
// writes the named blocks and the material's parameters over it.
func (p *Program) InitConstants(buf []geom.Vec4) []geom.Vec4 {
	n := p.NumConstants()
	if cap(buf) < n {
		buf = make([]geom.Vec4, n)
	}
	buf = buf[:n]
	clear(buf)
	for _, c := range p.Params {
		if c.Reg >= 0 && c.Reg < n {
			buf[c.Reg] = c.Default
		}
	}
	for _, c := range p.Defs {
		if c.Reg >= 0 && c.Reg < n {
			buf[c.Reg] = c.Value
		}
	}
	return buf
}
