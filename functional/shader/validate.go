package shader

import (
	"fmt"
	"math"
	"slices"
)

// ProgramError is a semantic error in a program: the instruction (Instr >= 0,
// an index into Code) or the declaration (Decl names the list: "inputs",
// "outputs", "consts", "params", "defs", "samplers"; Index into it) it is
// about, or the program as a whole (Instr < 0 and Decl == "").
type ProgramError struct {
	Instr int
	Decl  string
	Index int
	Msg   string
}

func (e *ProgramError) Error() string {
	switch {
	case e.Instr >= 0:
		return fmt.Sprintf("code[%d]: %s", e.Instr, e.Msg)
	case e.Decl != "":
		return fmt.Sprintf("%s[%d]: %s", e.Decl, e.Index, e.Msg)
	}
	return e.Msg
}

func instrErr(i int, format string, args ...any) *ProgramError {
	return &ProgramError{Instr: i, Msg: fmt.Sprintf(format, args...)}
}

func declErr(decl string, i int, format string, args ...any) *ProgramError {
	return &ProgramError{Instr: -1, Decl: decl, Index: i, Msg: fmt.Sprintf(format, args...)}
}

// isIdent reports whether s is a name: a letter or '_' followed by letters,
// digits and '_'.
func isIdent(s string) bool {
	if s == "" || len(s) > maxName {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// isSemantic reports whether s is a valid semantic: a lower-case name.
func isSemantic(s string) bool {
	if !isIdent(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			return false
		}
	}
	return true
}

// Validate checks every rule of the ISA (register ranges, declarations,
// operand files, stage rules) and builds the execution form the interpreter
// runs. Assemble and Decode call it; a Program built in code must be
// validated before a Warp runs it. The error is a *ProgramError.
func (p *Program) Validate() error {
	if err := p.check(); err != nil {
		p.exec, p.layout = nil, layout{}
		return err
	}
	p.build()
	return nil
}

func (p *Program) check() *ProgramError {
	if p.Stage != VertexStage && p.Stage != PixelStage && p.Stage != GeometryStage {
		return &ProgramError{Instr: -1, Msg: fmt.Sprintf("invalid stage %d", p.Stage)}
	}
	if len(p.Name) > math.MaxUint16 {
		return &ProgramError{Instr: -1, Msg: fmt.Sprintf("name is %d bytes long (at most %d)", len(p.Name), math.MaxUint16)}
	}
	vs := p.Stage == VertexStage
	gs := p.Stage == GeometryStage
	// vertexLike: the output rules of a vertex shader (o0 is the clip position).
	vertexLike := vs || gs
	var inputDeclared [MaxInputs]bool
	for i, d := range p.Inputs {
		if d.Reg < 0 || d.Reg >= MaxInputs {
			return declErr("inputs", i, "register index out of range: v%d (v0..v%d)", d.Reg, MaxInputs-1)
		}
		if inputDeclared[d.Reg] {
			return declErr("inputs", i, "duplicate declaration of v%d", d.Reg)
		}
		inputDeclared[d.Reg] = true
		if !isSemantic(d.Semantic) {
			return declErr("inputs", i, "bad semantic %q", d.Semantic)
		}
		if gs {
			if err := p.checkGeometryInput(i, d); err != nil {
				return err
			}
			continue
		}
		if d.Vertex != 0 {
			return declErr("inputs", i, "only geometry shader inputs have a vertex index")
		}
		for j := 0; j < i; j++ {
			if p.Inputs[j].Semantic == d.Semantic {
				return declErr("inputs", i, "duplicate input semantic %q", d.Semantic)
			}
		}
		if d.Interp > InterpFlat {
			return declErr("inputs", i, "invalid interpolation mode %d", d.Interp)
		}
		if vs {
			if !slices.Contains(VertexSemantics, d.Semantic) {
				return declErr("inputs", i, "unknown vertex attribute semantic %q (want one of %v)", d.Semantic, VertexSemantics)
			}
			if d.Interp != InterpPerspective || d.Centroid {
				return declErr("inputs", i, "vertex shader inputs take no interpolation mode")
			}
			continue
		}
		if d.Semantic == SemanticPrimitiveID || d.Semantic == SemanticGSInstanceID {
			return declErr("inputs", i, "system value %s is a geometry shader input", d.Semantic)
		}
		if d.IsSystemValue() {
			if d.Interp != InterpPerspective || d.Centroid {
				return declErr("inputs", i, "system value %s takes no interpolation mode", d.Semantic)
			}
		} else if len(d.Semantic) >= 3 && d.Semantic[:3] == "sv_" {
			return declErr("inputs", i, "unknown system value %q (want %s or %s)", d.Semantic, SemanticPosition, SemanticFrontFace)
		}
		if d.Centroid && d.Interp == InterpFlat {
			return declErr("inputs", i, "centroid needs perspective or noperspective interpolation")
		}
	}

	var outputDeclared [MaxOutputs + 1]bool // index MaxOutputs: oDepth
	for i, d := range p.Outputs {
		slot := d.Index
		switch d.File {
		case FileOutput:
			if d.Index < 0 || d.Index >= MaxOutputs {
				return declErr("outputs", i, "register index out of range: o%d (o0..o%d)", d.Index, MaxOutputs-1)
			}
			if !vertexLike && d.Index >= MaxRenderTargets {
				return declErr("outputs", i, "pixel shader output o%d: render targets are o0..o%d", d.Index, MaxRenderTargets-1)
			}
		case FileDepth:
			if vertexLike {
				return declErr("outputs", i, "oDepth is a pixel shader output")
			}
			if d.Index != 0 {
				return declErr("outputs", i, "oDepth has index 0, not %d", d.Index)
			}
			slot = MaxOutputs
		default:
			return declErr("outputs", i, "bad output register file %s", d.File)
		}
		if outputDeclared[slot] {
			return declErr("outputs", i, "duplicate declaration of %s", regName(d.File, d.Index))
		}
		outputDeclared[slot] = true
		if !isSemantic(d.Semantic) {
			return declErr("outputs", i, "bad semantic %q", d.Semantic)
		}
		if vertexLike {
			if (d.Index == 0) != (d.Semantic == SemanticClipPosition) {
				return declErr("outputs", i, "vertex shader o0 and only o0 has semantic position (o%d %q)", d.Index, d.Semantic)
			}
			if len(d.Semantic) >= 3 && d.Semantic[:3] == "sv_" {
				return declErr("outputs", i, "system value %q is not a vertex shader output", d.Semantic)
			}
			for j := 0; j < i; j++ {
				if p.Outputs[j].Semantic == d.Semantic {
					return declErr("outputs", i, "duplicate output semantic %q", d.Semantic)
				}
			}
		} else {
			want := "color"
			if d.File == FileDepth {
				want = "depth"
			}
			if d.Semantic != want {
				return declErr("outputs", i, "pixel shader %s has semantic %s, not %q", regName(d.File, d.Index), want, d.Semantic)
			}
		}
	}
	if vertexLike && !outputDeclared[0] {
		return &ProgramError{Instr: -1, Msg: fmt.Sprintf("%s does not declare o0 position", stageNoun(p.Stage))}
	}

	// Constant registers: owner of each register, for overlap checks.
	var constOwner [MaxConstants]bool
	claim := func(decl string, i, reg, count int) *ProgramError {
		if reg < 0 || reg >= MaxConstants {
			return declErr(decl, i, "register index out of range: c%d (c0..c%d)", reg, MaxConstants-1)
		}
		if count < 1 || reg+count > MaxConstants {
			return declErr(decl, i, "bad register count %d at c%d (c0..c%d)", count, reg, MaxConstants-1)
		}
		for r := reg; r < reg+count; r++ {
			if constOwner[r] {
				return declErr(decl, i, "duplicate declaration of c%d", r)
			}
			constOwner[r] = true
		}
		return nil
	}
	nameUsed := func(name string, consts, params int) bool {
		for j := 0; j < consts; j++ {
			if p.Consts[j].Name == name {
				return true
			}
		}
		for j := 0; j < params; j++ {
			if p.Params[j].Name == name {
				return true
			}
		}
		return false
	}
	for i, c := range p.Consts {
		if err := claim("consts", i, c.Reg, c.Count); err != nil {
			return err
		}
		if !isIdent(c.Name) {
			return declErr("consts", i, "bad name %q", c.Name)
		}
		if nameUsed(c.Name, i, 0) {
			return declErr("consts", i, "duplicate declaration of %q", c.Name)
		}
	}
	for i, c := range p.Params {
		if err := claim("params", i, c.Reg, 1); err != nil {
			return err
		}
		if !isIdent(c.Name) {
			return declErr("params", i, "bad name %q", c.Name)
		}
		if nameUsed(c.Name, len(p.Consts), i) {
			return declErr("params", i, "duplicate declaration of %q", c.Name)
		}
	}
	for i, c := range p.Defs {
		if err := claim("defs", i, c.Reg, 1); err != nil {
			return err
		}
	}
	var samplerDeclared [MaxSamplers]bool
	var samplerTypes [MaxSamplers]SamplerType
	for i, s := range p.Samplers {
		if s.Unit < 0 || s.Unit >= MaxSamplers {
			return declErr("samplers", i, "register index out of range: s%d (s0..s%d)", s.Unit, MaxSamplers-1)
		}
		if !s.Type.Valid() {
			return declErr("samplers", i, "unknown sampler type %d", uint8(s.Type))
		}
		samplerTypes[s.Unit] = s.Type
		if samplerDeclared[s.Unit] {
			return declErr("samplers", i, "duplicate declaration of s%d", s.Unit)
		}
		samplerDeclared[s.Unit] = true
		if !isIdent(s.Name) {
			return declErr("samplers", i, "bad name %q", s.Name)
		}
		for j := 0; j < i; j++ {
			if p.Samplers[j].Name == s.Name {
				return declErr("samplers", i, "duplicate declaration of %q", s.Name)
			}
		}
	}

	// operand checks a register an instruction i names: in range and, for
	// inputs, outputs and constants, declared.
	operand := func(i int, f RegFile, index int) *ProgramError {
		if n := f.size(); index < 0 || index >= n {
			return instrErr(i, "register index out of range: %s%d (%s0..%s%d)", f, index, f, f, n-1)
		}
		switch {
		case f == FileInput && !inputDeclared[index]:
			return instrErr(i, "undeclared input v%d", index)
		case f == FileOutput && !outputDeclared[index]:
			return instrErr(i, "undeclared output o%d", index)
		case f == FileConst && !constOwner[index]:
			return instrErr(i, "undeclared constant c%d (declare it with .const, .param or .def)", index)
		}
		return nil
	}
	writesPosition := false
	for i := range p.Code {
		in := &p.Code[i]
		if !in.Op.Valid() {
			return instrErr(i, "invalid opcode %d", in.Op)
		}
		if in.Line < 0 || in.Line > math.MaxInt32 {
			return instrErr(i, "line %d out of range", in.Line)
		}
		if vertexLike && in.Op == OpKil {
			return instrErr(i, "kil is not allowed in a %s", stageNoun(p.Stage))
		}
		if vertexLike && in.Op == OpTexb {
			return instrErr(i, "texb is not allowed in a %s (no implicit LOD to bias)", stageNoun(p.Stage))
		}
		if in.Op.HasDest() {
			d := in.Dst
			switch d.File {
			case FileTemp, FileOutput:
				if err := operand(i, d.File, d.Index); err != nil {
					return err
				}
				if d.File == FileOutput && vertexLike && d.Index == 0 {
					writesPosition = true
				}
			case FileDepth:
				if d.Index != 0 {
					return instrErr(i, "oDepth has index 0, not %d", d.Index)
				}
				if !outputDeclared[MaxOutputs] {
					return instrErr(i, "undeclared output oDepth")
				}
				if d.Mask != MaskX {
					return instrErr(i, "oDepth is written with mask .x only")
				}
			case FileInput:
				return instrErr(i, "cannot write to input register v%d", d.Index)
			case FileConst:
				return instrErr(i, "cannot write to constant register c%d", d.Index)
			default:
				return instrErr(i, "bad destination register file %s", d.File)
			}
			if d.Mask == 0 || d.Mask > MaskXYZW {
				return instrErr(i, "bad write mask %#x", d.Mask)
			}
		} else if in.Dst != (Dst{}) || in.Sat {
			return instrErr(i, "%s takes no destination or saturate", in.Op)
		}
		n := in.Op.NumSources()
		for s := 0; s < MaxSources; s++ {
			src := &in.Src[s]
			if s >= n {
				if *src != (Src{}) {
					return instrErr(i, "%s has %d sources; source %d must be empty", in.Op, n, s)
				}
				continue
			}
			for _, c := range src.Swizzle {
				if c > 3 {
					return instrErr(i, "source %d: bad swizzle component %d", s, c)
				}
			}
			switch src.File {
			case FileTemp, FileInput, FileConst:
				if err := operand(i, src.File, src.Index); err != nil {
					return err
				}
			case FileOutput, FileDepth:
				return instrErr(i, "cannot read output register %s", regName(src.File, src.Index))
			default:
				return instrErr(i, "source %d: bad register file %s", s, src.File)
			}
		}
		if in.Op.UsesSampler() {
			if in.Sampler < 0 || in.Sampler >= MaxSamplers {
				return instrErr(i, "register index out of range: s%d (s0..s%d)", in.Sampler, MaxSamplers-1)
			}
			if !samplerDeclared[in.Sampler] {
				return instrErr(i, "undeclared sampler s%d", in.Sampler)
			}
			want := samplerTypes[in.Sampler].Coords()
			if got := max(in.TexCoords, 2); (in.TexCoords != 0 && in.TexCoords != 2 && in.TexCoords != 3) || got != want {
				return instrErr(i, "%s reads %d coordinate components, sampler s%d (%v) takes %d",
					in.Op, in.TexCoords, in.Sampler, samplerTypes[in.Sampler], want)
			}
		} else if in.Sampler != 0 {
			return instrErr(i, "%s takes no sampler", in.Op)
		} else if in.TexCoords != 0 {
			return instrErr(i, "%s takes no texture coordinates (TexCoords %d)", in.Op, in.TexCoords)
		}
	}
	if vertexLike && !writesPosition {
		return &ProgramError{Instr: -1, Msg: fmt.Sprintf("%s never writes o0 position", stageNoun(p.Stage))}
	}
	return p.checkGeometry()
}

// stageNoun names a stage in messages: "vertex shader", "geometry shader".
func stageNoun(s Stage) string {
	switch s {
	case VertexStage:
		return "vertex shader"
	case GeometryStage:
		return "geometry shader"
	}
	return "pixel shader"
}

// regName formats a register.
func regName(f RegFile, index int) string {
	switch f {
	case FileDepth:
		return "oDepth"
	case FileNone:
		return "none"
	}
	return fmt.Sprintf("%s%d", f, index)
}

// execSrc is a pre-decoded source operand.
type execSrc struct {
	konst  bool  // constant register: index into the constant buffer
	slot   int32 // per-lane register slot, or constant index
	swz    [4]uint8
	neg    bool
	abs    bool
	need   uint8 // operand components the instruction reads
	direct bool  // read in place from the register file (no modifiers, no hazard)
}

// execInstr is a pre-decoded instruction.
type execInstr struct {
	op      Opcode
	sat     bool
	mask    uint8
	nsrc    uint8
	sampler uint8
	coords3 bool  // TEX* reads coord.z (and its derivatives)
	dst     int32 // per-lane register slot
	src     [MaxSources]execSrc
}

// build computes the layout and the execution form of a checked program.
func (p *Program) build() {
	var l layout
	for _, d := range p.Inputs {
		l.inputs = max(l.inputs, d.Reg+1)
	}
	for _, d := range p.Outputs {
		if d.File == FileOutput {
			l.outputs = max(l.outputs, d.Index+1)
		}
	}
	for i := range p.Code {
		in := &p.Code[i]
		if in.Op.HasDest() && in.Dst.File == FileTemp {
			l.temps = max(l.temps, in.Dst.Index+1)
		}
		for s := 0; s < in.Op.NumSources(); s++ {
			if in.Src[s].File == FileTemp {
				l.temps = max(l.temps, in.Src[s].Index+1)
			}
		}
	}
	l.consts = p.NumConstants()
	l.valid = true
	slot := func(f RegFile, index int) int32 {
		switch f {
		case FileTemp:
			return int32(index)
		case FileInput:
			return int32(l.inputBase() + index)
		case FileOutput:
			return int32(l.outputBase() + index)
		case FileDepth:
			return int32(l.depthSlot())
		case FileConst:
			return int32(index)
		}
		return 0
	}
	exec := make([]execInstr, len(p.Code))
	for i := range p.Code {
		in := &p.Code[i]
		e := &exec[i]
		e.op = in.Op
		e.sat = in.Sat
		e.mask = in.Dst.Mask
		e.nsrc = uint8(in.Op.NumSources())
		e.sampler = uint8(in.Sampler)
		e.coords3 = in.TexCoords == 3
		hasDst := in.Op.HasDest()
		if hasDst {
			e.dst = slot(in.Dst.File, in.Dst.Index)
		}
		for s := 0; s < int(e.nsrc); s++ {
			src := &in.Src[s]
			es := &e.src[s]
			es.konst = src.File == FileConst
			es.slot = slot(src.File, src.Index)
			es.swz = src.Swizzle
			es.neg = src.Neg
			es.abs = src.Abs
			es.need = in.SourceMask(s)
			es.direct = !es.konst && !src.Neg && !src.Abs
			if es.direct && hasDst && in.Op.info().shape == shapeComponent &&
				src.File == in.Dst.File && src.Index == in.Dst.Index {
				// Components are computed in order x..w, each over all
				// lanes; reading a component written at an earlier step
				// needs a copy.
				for c := 0; c < 4; c++ {
					r := src.Swizzle[c]
					if es.need&(1<<c) != 0 && in.Dst.Mask&(1<<r) != 0 && int(r) < c {
						es.direct = false
					}
				}
			}
		}
	}
	p.exec, p.layout = exec, l
}
