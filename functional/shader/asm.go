package shader

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// AsmError is an assembler error at a source line.
type AsmError struct {
	File string
	Line int
	Msg  string
}

func (e *AsmError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// opByName maps lower-case mnemonics to opcodes.
func opByName(name string) (Opcode, bool) {
	for op := OpInvalid + 1; op < numOpcodes; op++ {
		if opTable[op].name == name {
			return op, true
		}
	}
	return OpInvalid, false
}

type assembler struct {
	file      string
	p         *Program
	stageLine int
	declLines map[string][]int
}

// Assemble translates the text form of a program (see the package
// documentation) and validates it. The program's Name is filename. Errors
// are *AsmError values "file:line: message".
func Assemble(filename string, src []byte) (*Program, error) {
	a := &assembler{file: filename, p: &Program{Name: filename}, declLines: map[string][]int{}}
	lines := strings.Split(string(src), "\n")
	for i, line := range lines {
		if err := a.line(i+1, line); err != nil {
			return nil, err
		}
	}
	if a.stageLine == 0 {
		return nil, a.errf(1, "missing .vs, .gs or .ps stage directive")
	}
	// Texture instructions read the coordinates of their sampler's type
	// (declarations may follow the code).
	for i := range a.p.Code {
		in := &a.p.Code[i]
		if !in.Op.UsesSampler() {
			continue
		}
		for _, s := range a.p.Samplers {
			if s.Unit == in.Sampler {
				in.TexCoords = s.Type.Coords()
			}
		}
	}
	if perr := a.p.check(); perr != nil {
		line := a.stageLine
		switch {
		case perr.Instr >= 0:
			line = a.p.Code[perr.Instr].Line
		case perr.Decl != "":
			line = a.declLines[perr.Decl][perr.Index]
		}
		return nil, a.errf(line, "%s", perr.Msg)
	}
	a.p.build()
	return a.p, nil
}

func (a *assembler) errf(line int, format string, args ...any) *AsmError {
	return &AsmError{File: a.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (a *assembler) line(n int, line string) error {
	if i := strings.IndexAny(line, ";#"); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(line)
	if line == "" {
		return nil
	}
	if line[0] == '.' {
		return a.directive(n, strings.Fields(line))
	}
	if a.stageLine == 0 {
		return a.errf(n, "missing .vs, .gs or .ps before the first instruction")
	}
	return a.instruction(n, line)
}

func (a *assembler) directive(n int, f []string) error {
	name := strings.ToLower(f[0])
	args := f[1:]
	if name == ".vs" || name == ".ps" || name == ".gs" {
		if a.stageLine != 0 {
			return a.errf(n, "duplicate stage directive %s (stage set at line %d)", name, a.stageLine)
		}
		if len(args) != 0 {
			return a.errf(n, "%s takes no operands", name)
		}
		a.stageLine = n
		a.p.Stage = VertexStage
		switch name {
		case ".ps":
			a.p.Stage = PixelStage
		case ".gs":
			a.p.Stage = GeometryStage
		}
		return nil
	}
	if a.stageLine == 0 {
		return a.errf(n, "missing .vs, .gs or .ps before %s", name)
	}
	p := a.p
	switch name {
	case ".input":
		if len(args) < 2 || len(args) > 4 {
			return a.errf(n, ".input expects: .input vN semantic [perspective|noperspective|flat] [centroid]")
		}
		f, idx, err := parseRegister(args[0])
		if err != "" {
			return a.errf(n, "%s", err)
		}
		if f != FileInput {
			return a.errf(n, ".input declares an input register vN, not %s", args[0])
		}
		d := InputDecl{Reg: idx, Semantic: strings.ToLower(args[1])}
		rest := args[2:]
		if p.Stage == GeometryStage {
			if len(rest) > 1 {
				return a.errf(n, "geometry shader .input expects: .input vN semantic vertex (or .input vN %s, .input vN %s)",
					SemanticPrimitiveID, SemanticGSInstanceID)
			}
			if len(rest) == 1 {
				k, err := strconv.Atoi(rest[0])
				if err != nil || k < 0 || k >= MaxPrimitiveVertices {
					return a.errf(n, "bad vertex index %q (0..%d)", rest[0], MaxPrimitiveVertices-1)
				}
				d.Vertex = k
			} else if d.Semantic != SemanticPrimitiveID && d.Semantic != SemanticGSInstanceID {
				return a.errf(n, "geometry shader input %s needs the vertex it reads: .input %s %s K", d.Semantic, args[0], args[1])
			}
			rest = nil
		}
		if len(rest) > 0 {
			if p.Stage == VertexStage {
				return a.errf(n, "vertex shader inputs take no interpolation mode")
			}
			if d.IsSystemValue() {
				return a.errf(n, "system value %s takes no interpolation mode", d.Semantic)
			}
			switch strings.ToLower(rest[0]) {
			case "perspective":
				d.Interp = InterpPerspective
				rest = rest[1:]
			case "noperspective":
				d.Interp = InterpNoPerspective
				rest = rest[1:]
			case "flat":
				d.Interp = InterpFlat
				rest = rest[1:]
			}
			if len(rest) > 0 && strings.ToLower(rest[0]) == "centroid" {
				d.Centroid = true
				rest = rest[1:]
			}
			if len(rest) > 0 {
				return a.errf(n, "bad interpolation mode %q (want perspective, noperspective or flat, then optionally centroid)", rest[0])
			}
		}
		p.Inputs = append(p.Inputs, d)
		a.declLines["inputs"] = append(a.declLines["inputs"], n)
	case ".output":
		if len(args) != 2 {
			return a.errf(n, ".output expects: .output oN semantic (or .output oDepth depth)")
		}
		f, idx, err := parseRegister(args[0])
		if err != "" {
			return a.errf(n, "%s", err)
		}
		if f != FileOutput && f != FileDepth {
			return a.errf(n, ".output declares an output register oN or oDepth, not %s", args[0])
		}
		p.Outputs = append(p.Outputs, OutputDecl{File: f, Index: idx, Semantic: strings.ToLower(args[1])})
		a.declLines["outputs"] = append(a.declLines["outputs"], n)
	case ".input_primitive", ".output_topology", ".max_vertices", ".instances":
		return a.geometryDirective(n, name, args)
	case ".const":
		if len(args) != 3 {
			return a.errf(n, ".const expects: .const cN name count")
		}
		idx, err := a.constReg(n, args[0])
		if err != nil {
			return err
		}
		count, cerr := strconv.Atoi(args[2])
		if cerr != nil || count < 1 || count > MaxConstants {
			return a.errf(n, "bad register count %q (1..%d)", args[2], MaxConstants)
		}
		p.Consts = append(p.Consts, ConstDecl{Reg: idx, Name: args[1], Count: count})
		a.declLines["consts"] = append(a.declLines["consts"], n)
	case ".param":
		if len(args) < 3 || len(args) > 6 {
			return a.errf(n, ".param expects: .param cN name x [y [z [w]]]")
		}
		idx, v, err := a.constValue(n, args[0], args[2:])
		if err != nil {
			return err
		}
		p.Params = append(p.Params, ParamDecl{Reg: idx, Name: args[1], Default: v})
		a.declLines["params"] = append(a.declLines["params"], n)
	case ".def":
		if len(args) < 2 || len(args) > 5 {
			return a.errf(n, ".def expects: .def cN x [y [z [w]]]")
		}
		idx, v, err := a.constValue(n, args[0], args[1:])
		if err != nil {
			return err
		}
		p.Defs = append(p.Defs, DefDecl{Reg: idx, Value: v})
		a.declLines["defs"] = append(a.declLines["defs"], n)
	case ".sampler":
		if len(args) != 2 && len(args) != 3 {
			return a.errf(n, ".sampler expects: .sampler sN name [2d|2darray|cube|3d]")
		}
		typ := Sampler2D
		if len(args) == 3 {
			t, ok := parseSamplerType(args[2])
			if !ok {
				return a.errf(n, "unknown sampler type %q (want 2d, 2darray, cube or 3d)", args[2])
			}
			typ = t
		}
		f, idx, err := parseRegister(args[0])
		if err != "" {
			return a.errf(n, "%s", err)
		}
		if f != fileSampler {
			return a.errf(n, ".sampler declares a sampler sN, not %s", args[0])
		}
		p.Samplers = append(p.Samplers, SamplerDecl{Unit: idx, Name: args[1], Type: typ})
		a.declLines["samplers"] = append(a.declLines["samplers"], n)
	default:
		return a.errf(n, "unknown directive %s", f[0])
	}
	return nil
}

// constValue reads the constant register reg and the value of .param and
// .def (1 to 4 numbers) on line n.
func (a *assembler) constValue(n int, reg string, value []string) (int, geom.Vec4, error) {
	idx, err := a.constReg(n, reg)
	if err != nil {
		return 0, geom.Vec4{}, err
	}
	v, err := a.vector(n, value)
	return idx, v, err
}

func (a *assembler) constReg(n int, tok string) (int, error) {
	f, idx, err := parseRegister(tok)
	if err != "" {
		return 0, a.errf(n, "%s", err)
	}
	if f != FileConst {
		return 0, a.errf(n, "expected a constant register cN, not %s", tok)
	}
	return idx, nil
}

// vector parses 1 to 4 numbers; missing components are 0.
func (a *assembler) vector(n int, toks []string) (geom.Vec4, error) {
	var v geom.Vec4
	for i, t := range toks {
		x, err := strconv.ParseFloat(t, 32)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return v, a.errf(n, "bad number %q", t)
		}
		v[i] = float32(x)
	}
	return v, nil
}

// fileSampler is the assembler's name for sN tokens; samplers are not a
// register file of operands.
const fileSampler RegFile = 255

// parseRegister parses a register name (case-insensitive): r, v, c, o, s
// followed by a decimal index, or oDepth. The error is "" on success.
func parseRegister(tok string) (RegFile, int, string) {
	t := strings.ToLower(tok)
	if t == "odepth" {
		return FileDepth, 0, ""
	}
	if len(t) < 2 {
		return FileNone, 0, fmt.Sprintf("bad register %q", tok)
	}
	var f RegFile
	var limit int
	switch t[0] {
	case 'r':
		f, limit = FileTemp, MaxTemps
	case 'v':
		f, limit = FileInput, MaxInputs
	case 'c':
		f, limit = FileConst, MaxConstants
	case 'o':
		f, limit = FileOutput, MaxOutputs
	case 's':
		f, limit = fileSampler, MaxSamplers
	default:
		return FileNone, 0, fmt.Sprintf("bad register %q", tok)
	}
	digits := t[1:]
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return FileNone, 0, fmt.Sprintf("bad register %q", tok)
		}
	}
	if len(digits) > 1 && digits[0] == '0' {
		return FileNone, 0, fmt.Sprintf("bad register %q (leading zero)", tok)
	}
	idx := limit
	if len(digits) <= 4 {
		idx, _ = strconv.Atoi(digits)
	}
	if idx >= limit {
		return FileNone, 0, fmt.Sprintf("register index out of range: %s (%c0..%c%d)", tok, t[0], t[0], limit-1)
	}
	return f, idx, ""
}

// componentIndex maps a swizzle or mask letter to its component and letter set
// (0: xyzw, 1: rgba).
func componentIndex(c byte) (comp, set int, ok bool) {
	switch c {
	case 'x', 'y', 'z', 'w':
		if c == 'w' {
			return 3, 0, true
		}
		return int(c - 'x'), 0, true
	case 'r':
		return 0, 1, true
	case 'g':
		return 1, 1, true
	case 'b':
		return 2, 1, true
	case 'a':
		return 3, 1, true
	}
	return 0, 0, false
}

// parseSwizzle parses 1 to 4 letters of one set; a shorter swizzle repeats
// its last letter.
func parseSwizzle(s string) ([4]uint8, bool) {
	var sw [4]uint8
	if len(s) < 1 || len(s) > 4 {
		return sw, false
	}
	set := -1
	for i := 0; i < 4; i++ {
		j := min(i, len(s)-1)
		comp, st, ok := componentIndex(s[j])
		if !ok || (set >= 0 && st != set) {
			return sw, false
		}
		set = st
		sw[i] = uint8(comp)
	}
	return sw, true
}

// parseMask parses a write mask: 1 to 4 distinct letters of one set in
// x, y, z, w order.
func parseMask(s string) (uint8, bool) {
	if len(s) < 1 || len(s) > 4 {
		return 0, false
	}
	var m uint8
	set, last := -1, -1
	for i := 0; i < len(s); i++ {
		comp, st, ok := componentIndex(s[i])
		if !ok || (set >= 0 && st != set) || comp <= last {
			return 0, false
		}
		set, last = st, comp
		m |= 1 << comp
	}
	return m, true
}

// splitOperands splits on commas; the operands are trimmed.
func splitOperands(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func (a *assembler) instruction(n int, line string) error {
	mn, rest := line, ""
	if i := strings.IndexAny(line, " \t"); i >= 0 {
		mn, rest = line[:i], line[i+1:]
	}
	mn = strings.ToLower(mn)
	sat := false
	if base, ok := strings.CutSuffix(mn, "_sat"); ok {
		mn, sat = base, true
	}
	op, ok := opByName(mn)
	if !ok {
		return a.errf(n, "unknown opcode %q", mn)
	}
	in := Instr{Op: op, Sat: sat, Line: n}
	ops := splitOperands(rest)
	want := op.NumSources()
	if op.HasDest() {
		want++
	}
	if op.UsesSampler() {
		want++
	}
	if len(ops) != want {
		return a.errf(n, "%s expects %d operands (%s), got %d", op, want, operandSyntax(op), len(ops))
	}
	for i, t := range ops {
		if t == "" {
			return a.errf(n, "operand %d is empty", i+1)
		}
	}
	if op == OpKil && sat {
		return a.errf(n, "kil takes no _sat")
	}
	if op.HasDest() {
		d, err := parseDst(ops[0])
		if err != "" {
			return a.errf(n, "%s", err)
		}
		in.Dst = d
		ops = ops[1:]
	}
	for s := 0; s < op.NumSources(); s++ {
		src, err := parseSrc(ops[s])
		if err != "" {
			return a.errf(n, "%s", err)
		}
		in.Src[s] = src
	}
	if op.UsesSampler() {
		t := ops[len(ops)-1]
		f, idx, err := parseRegister(t)
		if err != "" {
			return a.errf(n, "%s", err)
		}
		if f != fileSampler {
			return a.errf(n, "%s expects a sampler sN as last operand, not %s", op, t)
		}
		in.Sampler = idx
	}
	a.p.Code = append(a.p.Code, in)
	return nil
}

func operandSyntax(op Opcode) string {
	var parts []string
	if op.HasDest() {
		parts = append(parts, "dst")
	}
	for s := 0; s < op.NumSources(); s++ {
		parts = append(parts, fmt.Sprintf("src%d", s))
	}
	if op.UsesSampler() {
		parts = append(parts, "sampler")
	}
	return strings.Join(parts, ", ")
}

func parseDst(t string) (Dst, string) {
	if strings.ContainsAny(t, "-|") {
		return Dst{}, fmt.Sprintf("destination %q takes no modifiers", t)
	}
	reg, mask, hasMask := strings.Cut(t, ".")
	f, idx, err := parseRegister(reg)
	if err != "" {
		return Dst{}, err
	}
	switch f {
	case FileInput:
		return Dst{}, fmt.Sprintf("cannot write to input register %s", reg)
	case FileConst:
		return Dst{}, fmt.Sprintf("cannot write to constant register %s", reg)
	case fileSampler:
		return Dst{}, fmt.Sprintf("cannot write to sampler %s", reg)
	}
	d := Dst{File: f, Index: idx, Mask: MaskXYZW}
	if f == FileDepth {
		d.Mask = MaskX
	}
	if hasMask {
		m, ok := parseMask(strings.ToLower(mask))
		if !ok {
			return Dst{}, fmt.Sprintf("bad write mask %q", "."+mask)
		}
		if f == FileDepth && m != MaskX {
			return Dst{}, "oDepth is written with mask .x only"
		}
		d.Mask = m
	}
	return d, ""
}

func parseSrc(t string) (Src, string) {
	orig := t
	var s Src
	if strings.HasPrefix(t, "-") {
		s.Neg = true
		t = strings.TrimSpace(t[1:])
	}
	swz := ""
	if strings.HasPrefix(t, "|") {
		end := strings.LastIndexByte(t, '|')
		if end == 0 {
			return Src{}, fmt.Sprintf("unclosed |abs| in source %q", orig)
		}
		s.Abs = true
		tail := t[end+1:]
		t = strings.TrimSpace(t[1:end])
		if tail != "" {
			if tail[0] != '.' || strings.Contains(t, ".") {
				return Src{}, fmt.Sprintf("bad source operand %q", orig)
			}
			swz = tail[1:]
		}
	}
	if strings.ContainsAny(t, "-|") {
		return Src{}, fmt.Sprintf("bad source operand %q (modifiers are -src, |src|, -|src|)", orig)
	}
	reg, sw, hasSwz := strings.Cut(t, ".")
	if hasSwz {
		swz = sw
		if swz == "" {
			return Src{}, fmt.Sprintf("bad swizzle %q", ".")
		}
	}
	f, idx, err := parseRegister(reg)
	if err != "" {
		return Src{}, err
	}
	switch f {
	case FileOutput, FileDepth:
		return Src{}, fmt.Sprintf("cannot read output register %s", reg)
	case fileSampler:
		return Src{}, fmt.Sprintf("sampler %s is not a register source", reg)
	}
	s.File, s.Index, s.Swizzle = f, idx, IdentitySwizzle
	if swz != "" {
		v, ok := parseSwizzle(strings.ToLower(swz))
		if !ok {
			return Src{}, fmt.Sprintf("bad swizzle %q", "."+swz)
		}
		s.Swizzle = v
	}
	return s, ""
}

// parseSamplerType parses a sampler type name, case-insensitively.
func parseSamplerType(s string) (SamplerType, bool) { return samplerTypeNames.Lookup(s) }

// geometryDirective parses .input_primitive, .output_topology, .max_vertices
// and .instances, which only a geometry shader has.
func (a *assembler) geometryDirective(n int, name string, args []string) error {
	if a.p.Stage != GeometryStage {
		return a.errf(n, "%s is a geometry shader directive (.gs)", name)
	}
	if len(args) != 1 {
		return a.errf(n, "%s expects one operand", name)
	}
	if prev, ok := a.declLines[name]; ok {
		return a.errf(n, "duplicate %s (declared at line %d)", name, prev[0])
	}
	a.declLines[name] = []int{n}
	g := &a.p.Geometry
	switch name {
	case ".input_primitive":
		p, ok := ParseInputPrimitive(args[0])
		if !ok {
			return a.errf(n, "unknown input primitive %q (want point, line, triangle, line_adj or triangle_adj)", args[0])
		}
		g.Input = p
	case ".output_topology":
		t, ok := ParseOutputTopology(args[0])
		if !ok {
			return a.errf(n, "unknown output topology %q (want point, line_strip or triangle_strip)", args[0])
		}
		g.Output = t
	case ".max_vertices":
		k, err := strconv.Atoi(args[0])
		if err != nil || k < 1 || k > MaxGSVertices {
			return a.errf(n, "bad .max_vertices %q (1..%d)", args[0], MaxGSVertices)
		}
		g.MaxVertices = k
	case ".instances":
		k, err := strconv.Atoi(args[0])
		if err != nil || k < 1 || k > MaxGSInstances {
			return a.errf(n, "bad .instances %q (1..%d)", args[0], MaxGSInstances)
		}
		g.Instances = k
	}
	return nil
}
