package shader

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

func TestAssembleErrors(t *testing.T) {
	const ps = ".ps\n"
	cases := []struct {
		src  string
		want string
	}{
		{"", "bad.gsa:1: missing .vs, .gs or .ps stage directive"},
		{"; only a comment\n", "bad.gsa:1: missing .vs, .gs or .ps stage directive"},
		{"\n\nmov r0, r1\n", "bad.gsa:3: missing .vs, .gs or .ps before the first instruction"},
		{".input v0 a\n.ps\n", "bad.gsa:1: missing .vs, .gs or .ps before .input"},
		{".ps\n.vs\n", "bad.gsa:2: duplicate stage directive .vs (stage set at line 1)"},
		{".ps 3\n", "bad.gsa:1: .ps takes no operands"},
		{ps + ".frob x\n", "bad.gsa:2: unknown directive .frob"},
		{ps + "\n  foo r0, r1 ; comment\n", `bad.gsa:3: unknown opcode "foo"`},
		{ps + "mov_sat_sat r0, r1\n", `bad.gsa:2: unknown opcode "mov_sat"`},
		{ps + "mov r0, x1\n", `bad.gsa:2: bad register "x1"`},
		{ps + "mov r0, r\n", `bad.gsa:2: bad register "r"`},
		{ps + "mov r0, r1a\n", `bad.gsa:2: bad register "r1a"`},
		{ps + "mov r0, r01\n", `bad.gsa:2: bad register "r01" (leading zero)`},
		{ps + "mov r32, r0\n", "bad.gsa:2: register index out of range: r32 (r0..r31)"},
		{ps + "mov r0, r99999999\n", "bad.gsa:2: register index out of range: r99999999 (r0..r31)"},
		{ps + ".input v16 a\n", "bad.gsa:2: register index out of range: v16 (v0..v15)"},
		{ps + "mov r0, c256\n", "bad.gsa:2: register index out of range: c256 (c0..c255)"},
		{ps + "mov o16, r0\n", "bad.gsa:2: register index out of range: o16 (o0..o15)"},
		{ps + ".output o8 color\n", "bad.gsa:2: pixel shader output o8: render targets are o0..o7"},
		{ps + ".sampler s16 a\n", "bad.gsa:2: register index out of range: s16 (s0..s15)"},
		{ps + "mov r0, r1.xq\n", `bad.gsa:2: bad swizzle ".xq"`},
		{ps + "mov r0, r1.xg\n", `bad.gsa:2: bad swizzle ".xg"`},
		{ps + "mov r0, r1.xyzwx\n", `bad.gsa:2: bad swizzle ".xyzwx"`},
		{ps + "mov r0, r1.\n", `bad.gsa:2: bad swizzle "."`},
		{ps + "mov r0.yx, r1\n", `bad.gsa:2: bad write mask ".yx"`},
		{ps + "mov r0.xx, r1\n", `bad.gsa:2: bad write mask ".xx"`},
		{ps + "mov r0.xa, r1\n", `bad.gsa:2: bad write mask ".xa"`},
		{ps + "mov r0., r1\n", `bad.gsa:2: bad write mask "."`},
		{ps + "add r0, r1\n", "bad.gsa:2: add expects 3 operands (dst, src0, src1), got 2"},
		{ps + "mad r0, r1, r2, r3, r4\n", "bad.gsa:2: mad expects 4 operands (dst, src0, src1, src2), got 5"},
		{ps + "kil\n", "bad.gsa:2: kil expects 1 operands (src0), got 0"},
		{ps + "texd r0, r1, r2, s0\n", "bad.gsa:2: texd expects 5 operands (dst, src0, src1, src2, sampler), got 4"},
		{ps + "add r0, , r1\n", "bad.gsa:2: operand 2 is empty"},
		{ps + ".input v0 a perspective\nmov v0, r0\n", "bad.gsa:3: cannot write to input register v0"},
		{ps + ".def c0 1\nmov c0, r0\n", "bad.gsa:3: cannot write to constant register c0"},
		{ps + ".sampler s0 a\nmov s0, r0\n", "bad.gsa:3: cannot write to sampler s0"},
		{ps + "mov -r0, r1\n", `bad.gsa:2: destination "-r0" takes no modifiers`},
		{ps + ".output o0 color\nmov r0, o0\n", "bad.gsa:3: cannot read output register o0"},
		{ps + ".sampler s0 a\nmov r0, s0\n", "bad.gsa:3: sampler s0 is not a register source"},
		{ps + "mov r0, |r1\n", `bad.gsa:2: unclosed |abs| in source "|r1"`},
		{ps + "mov r0, |-r1|\n", `bad.gsa:2: bad source operand "|-r1|" (modifiers are -src, |src|, -|src|)`},
		{ps + "mov r0, |r1.x|.y\n", `bad.gsa:2: bad source operand "|r1.x|.y"`},
		{ps + ".sampler s0 a\ntex r0, r1, r2\n", "bad.gsa:3: tex expects a sampler sN as last operand, not r2"},
		{ps + "kil_sat r0\n", "bad.gsa:2: kil takes no _sat"},
		{ps + ".output oDepth depth\nmov oDepth.y, r0\n", "bad.gsa:3: oDepth is written with mask .x only"},
		{ps + ".input v0 a smooth\n", `bad.gsa:2: bad interpolation mode "smooth" (want perspective, noperspective or flat, then optionally centroid)`},
		{ps + ".input v0 a flat centroid\n", "bad.gsa:2: centroid needs perspective or noperspective interpolation"},
		{ps + ".input v0 sv_position perspective\n", "bad.gsa:2: system value sv_position takes no interpolation mode"},
		{ps + ".input v0 sv_depth\n", `bad.gsa:2: unknown system value "sv_depth" (want sv_position or sv_isfrontface)`},
		{ps + ".input v0 a\n.input v0 b\n", "bad.gsa:3: duplicate declaration of v0"},
		{ps + ".input v0 a\n\n.input v1 a\n", `bad.gsa:4: duplicate input semantic "a"`},
		{ps + ".output o0 color\n.output o0 color\n", "bad.gsa:3: duplicate declaration of o0"},
		{ps + ".output o0 target\n", `bad.gsa:2: pixel shader o0 has semantic color, not "target"`},
		{ps + ".output oDepth color\n", `bad.gsa:2: pixel shader oDepth has semantic depth, not "color"`},
		{ps + ".const c0 mvp 4\n.param c3 color 1\n", "bad.gsa:3: duplicate declaration of c3"},
		{ps + ".const c0 mvp 4\n.param c4 mvp 1\n", `bad.gsa:3: duplicate declaration of "mvp"`},
		{ps + ".const c254 big 4\n", "bad.gsa:2: bad register count 4 at c254 (c0..c255)"},
		{ps + ".const c0 m x\n", `bad.gsa:2: bad register count "x" (1..256)`},
		{ps + ".const c0 1m 1\n", `bad.gsa:2: bad name "1m"`},
		{ps + ".param c0 color 1 abc\n", `bad.gsa:2: bad number "abc"`},
		{ps + ".param c0 color 1 nan\n", `bad.gsa:2: bad number "nan"`},
		{ps + ".def c0 1e39\n", `bad.gsa:2: bad number "1e39"`},
		{ps + ".def c0 1 2 3 4 5\n", "bad.gsa:2: .def expects: .def cN x [y [z [w]]]"},
		{ps + ".def r0 1\n", "bad.gsa:2: expected a constant register cN, not r0"},
		{ps + ".sampler s0 a\n.sampler s1 a\n", `bad.gsa:3: duplicate declaration of "a"`},
		{ps + ".sampler s0 a\n.sampler s0 b\n", "bad.gsa:3: duplicate declaration of s0"},
		{ps + ".input r0 a\n", ".input declares an input register vN, not r0"},
		{ps + "mov r0, v3\n", "bad.gsa:2: undeclared input v3"},
		{ps + "mov o1, r0\n", "bad.gsa:2: undeclared output o1"},
		{ps + "mov oDepth, r0\n", "bad.gsa:2: undeclared output oDepth"},
		{ps + "mov r0, c7\n", "bad.gsa:2: undeclared constant c7 (declare it with .const, .param or .def)"},
		{ps + "tex r0, r1, s2\n", "bad.gsa:2: undeclared sampler s2"},
		{".vs\n.input v0 position\n.output o1 color\nmov o1, v0\n", "bad.gsa:1: vertex shader does not declare o0 position"},
		{".vs\n.input v0 position\n.output o0 position\nmov r0, v0\n", "bad.gsa:1: vertex shader never writes o0 position"},
		{".vs\n.output o0 clip\n", `bad.gsa:2: vertex shader o0 and only o0 has semantic position (o0 "clip")`},
		{".vs\n.output o0 position_end\n", `bad.gsa:2: vertex shader o0 and only o0 has semantic position (o0 "position_end")`},
		{".vs\n.output o0 position\n.output o1 position_end\n.output o2 position_end\n", `bad.gsa:4: duplicate output semantic "position_end"`},
		{".vs\n.output o0 position\n.output o1 position\n", `bad.gsa:3: vertex shader o0 and only o0 has semantic position (o1 "position")`},
		{".vs\n.input v0 pos\n", `bad.gsa:2: unknown vertex attribute semantic "pos" (want one of [position normal texcoord tangent color])`},
		{".vs\n.input v0 position flat\n", "bad.gsa:2: vertex shader inputs take no interpolation mode"},
		{".vs\n.output oDepth depth\n", "bad.gsa:2: oDepth is a pixel shader output"},
		{".vs\n.output o0 position\n.input v0 position\nkil v0\nmov o0, v0\n", "bad.gsa:4: kil is not allowed in a vertex shader"},
		{".vs\n.output o0 position\n.input v0 position\n.sampler s0 h\ntexb r0, v0, s0\nmov o0, r0\n", "bad.gsa:5: texb is not allowed in a vertex shader (no implicit LOD to bias)"},
	}
	for _, tc := range cases {
		_, err := Assemble("bad.gsa", []byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error, want %q", tc.src, tc.want)
			continue
		}
		if !strings.HasSuffix(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "bad.gsa:") {
			t.Errorf("%q:\n got  %q\n want %q", tc.src, err.Error(), tc.want)
		}
	}
}

// fullProgram uses every declaration kind and operand form.
const fullProgram = `; every feature
.PS
.input v0 texcoord            ; default perspective
.input v1 normal noperspective centroid
.input v2 id flat
.input v3 uv2 centroid
.input v5 sv_position
.input v6 sv_isfrontface
.output o0 color
.output o2 color
.output oDepth depth
.const c0 mvp 4
.param c4 diffuse 0.8 0.7 0.6 1
.param c5 cutoff 0.5
.def c6 0 1 0.5 2
.sampler s0 albedo
.sampler s7 normal

	MAD_SAT r0.xyz, -R1.xxxx, |c2|, r3   # comment
mul r1.rgb, v0.bgr, -|c4.y|
texd r2, v0, v1.xy, v1.zw, s7
tex r3.xy, r2, s0
texb r3.zw, r2.xyzw, s0
texl r4, r3, s7
dp4 r5.w, v5, c0
kil -r0.w
lrp o0, c6.z, r4, r5
mov oDepth, v5.z
cmp o2.xw, v2, c6.y, c6.x
ddx r6, r0
ddy r7, r0
rcp r8.x, r6.y
frc r9, r8
`

func TestRoundTrip(t *testing.T) {
	p := mustAssemble(t, "full.gsa", fullProgram)
	if p.Name != "full.gsa" || p.Stage != PixelStage {
		t.Errorf("name %q stage %v", p.Name, p.Stage)
	}
	// Spot-check the decoding of the first instruction.
	want0 := Instr{Op: OpMad, Sat: true, Line: 19,
		Dst: Dst{File: FileTemp, Index: 0, Mask: MaskXYZ},
		Src: [3]Src{
			{File: FileTemp, Index: 1, Swizzle: [4]uint8{0, 0, 0, 0}, Neg: true},
			{File: FileConst, Index: 2, Swizzle: IdentitySwizzle, Abs: true},
			{File: FileTemp, Index: 3, Swizzle: IdentitySwizzle},
		}}
	if p.Code[0] != want0 {
		t.Errorf("code[0] = %+v, want %+v", p.Code[0], want0)
	}
	if d := p.Inputs[1]; d != (InputDecl{Reg: 1, Semantic: "normal", Interp: InterpNoPerspective, Centroid: true}) {
		t.Errorf("inputs[1] = %+v", d)
	}
	if d := p.Inputs[3]; d != (InputDecl{Reg: 3, Semantic: "uv2", Interp: InterpPerspective, Centroid: true}) {
		t.Errorf("inputs[3] = %+v", d)
	}
	if d := p.Params[1]; d != (ParamDecl{Reg: 5, Name: "cutoff", Default: geom.Vec4{0.5, 0, 0, 0}}) {
		t.Errorf("params[1] = %+v", d)
	}

	bin := p.Encode()
	if want := 4 + 2 + 2 + 2 + len("full.gsa"); len(bin) < want+len(p.Code)*InstrSize {
		t.Errorf("binary too short: %d bytes", len(bin))
	}
	q, err := Decode(bin)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, q) {
		t.Errorf("Decode(Encode(p)) differs:\n%+v\n%+v", p, q)
	}
	if string(q.Encode()) != string(bin) {
		t.Error("re-encoding differs")
	}

	// Disassembling and assembling again gives the same program but for
	// the line numbers.
	text := p.Disassemble()
	r, err := Assemble("full.gsa", []byte(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if !reflect.DeepEqual(stripLines(p), stripLines(r)) {
		t.Errorf("disassembly round trip differs:\n%s", text)
	}
	if got := p.Code[1].String(); got != "mul r1.xyz, v0.zyx, -|c4.y|" {
		t.Errorf("String = %q", got)
	}
}

func stripLines(p *Program) *Program {
	q := *p
	q.Code = append([]Instr(nil), p.Code...)
	for i := range q.Code {
		q.Code[i].Line = 0
	}
	q.exec, q.layout = nil, layout{}
	return &q
}

func TestDecodeErrors(t *testing.T) {
	p := mustAssemble(t, "d.gsa", ".ps\n.output o0 color\n.def c0 1\nmov o0, c0\nmov r0, c0\n")
	good := p.Encode()
	codeStart := len(good) - 2*InstrSize
	mutate := func(f func(b []byte) []byte) []byte {
		return f(append([]byte(nil), good...))
	}
	cases := []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "shader binary: offset 0: header.magic: truncated: need 4 bytes, have 0"},
		{"magic", mutate(func(b []byte) []byte { b[0] = 'X'; return b }), `shader binary: offset 0: header.magic: bad magic "XSHD", want "GSHD"`},
		{"version", mutate(func(b []byte) []byte { b[4] = 5; return b }), "shader binary: offset 4: header.version: unsupported version 5, want 1 to 4"},
		{"reserved", mutate(func(b []byte) []byte { b[7] = 1; return b }), "shader binary: offset 7: header.reserved: reserved byte is 1, want 0"},
		{"stage", mutate(func(b []byte) []byte { b[6] = 9; return b }), "shader binary: offset 0: program: invalid stage 9"},
		{"truncated code", good[:len(good)-1], "shader binary: offset " + itoa(codeStart-4) + ": code.count: 2 instructions need 48 bytes, have 47"},
		{"trailing", append(append([]byte(nil), good...), 0), "shader binary: offset " + itoa(len(good)) + ": end: 1 trailing bytes after the code"},
		{"flags", mutate(func(b []byte) []byte { b[codeStart+InstrSize+1] = 4; return b }), "shader binary: offset " + itoa(codeStart+InstrSize+1) + ": code[1].flags: undefined flag bits 0x4"},
		{"reserved instr", mutate(func(b []byte) []byte { b[codeStart+7] = 1; return b }), "shader binary: offset " + itoa(codeStart+7) + ": code[0].reserved: reserved field is 1, want 0"},
		{"texcoords", mutate(func(b []byte) []byte { b[codeStart+6] = 3; return b }), "shader binary: offset " + itoa(codeStart) + ": code[0]: mov takes no texture coordinates (TexCoords 3)"},
		{"modifiers", mutate(func(b []byte) []byte { b[codeStart+8+3] = 8; return b }), "shader binary: offset " + itoa(codeStart+11) + ": code[0].src[0].modifiers: undefined modifier bits 0x8"},
		{"dst index", mutate(func(b []byte) []byte { b[codeStart+InstrSize+3] = 40; return b }), "shader binary: offset " + itoa(codeStart+InstrSize) + ": code[1]: register index out of range: r40 (r0..r31)"},
		{"opcode", mutate(func(b []byte) []byte { b[codeStart] = 200; return b }), "shader binary: offset " + itoa(codeStart) + ": code[0]: invalid opcode 200"},
		{"unused source", mutate(func(b []byte) []byte { b[codeStart+12] = 1; return b }), "shader binary: offset " + itoa(codeStart) + ": code[0]: mov has 1 sources; source 1 must be empty"},
		{"undeclared", mutate(func(b []byte) []byte { b[codeStart+InstrSize+9] = 3; return b }), "shader binary: offset " + itoa(codeStart+InstrSize) + ": code[1]: undeclared constant c3 (declare it with .const, .param or .def)"},
	}
	for _, tc := range cases {
		_, err := Decode(tc.b)
		if err == nil {
			t.Errorf("%s: no error, want %q", tc.name, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("%s:\n got  %q\n want %q", tc.name, err.Error(), tc.want)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestResources(t *testing.T) {
	p := mustAssemble(t, "res.gsa", `.ps
.input v0 texcoord perspective
.input v1 sv_position
.output o0 color
.output o1 color
.sampler s0 a
.sampler s1 b
.const c0 stuff 2
.def c9 1
tex r0, v0, s0          ; 0: depth 1
add r1, r0, v0          ; 1
tex r2, r1, s1          ; 2: depth 2
tex r3, v0, s1          ; 3: depth 1
mul r4, r2, r3          ; 4
texl r5, r4, s0         ; 5: depth 3
mov r8.x, r5.x          ; 6
mov r8.y, v0.y          ; 7
tex r9, r8.y, s0        ; 8: reads only r8.y: depth 1
rsq r10, r9.x           ; 9
kil r10                 ; 10
add o0, r5, c9          ; 11
mov o1, r10             ; 12
`)
	want := Resources{
		Instructions: 13, ALU: 8, SFU: 1, TexFetches: 5,
		Temps: 11, MaxLiveTemps: 2,
		Inputs: 2, Interpolants: 1, Outputs: 2, Constants: 10, Samplers: 2,
		Discards: true, TexDependencyDepth: 3,
	}
	if got := p.Resources(); got != want {
		t.Errorf("Resources:\n got  %+v\n want %+v", got, want)
	}
	deps := p.Dependencies()
	wantDeps := [][]int{nil, {0}, {1}, nil, {2, 3}, {4}, {5}, nil, {7}, {8}, {9}, {5}, {9}}
	if !reflect.DeepEqual(deps, wantDeps) {
		t.Errorf("Dependencies = %v, want %v", deps, wantDeps)
	}
	reads := p.Code[4].Reads(nil)
	if want := []RegRef{{FileTemp, 2, 15}, {FileTemp, 3, 15}}; !reflect.DeepEqual(reads, want) {
		t.Errorf("Reads = %v, want %v", reads, want)
	}
	// texl reads coord xy and w; tex through .y reads only y.
	if got := p.Code[5].Reads(nil); !reflect.DeepEqual(got, []RegRef{{FileTemp, 4, MaskX | MaskY | MaskW}}) {
		t.Errorf("texl Reads = %v", got)
	}
	if got := p.Code[8].Reads(nil); !reflect.DeepEqual(got, []RegRef{{FileTemp, 8, MaskY}}) {
		t.Errorf("tex .y Reads = %v", got)
	}
	if got, ok := p.Code[10].Writes(); ok {
		t.Errorf("kil Writes = %v", got)
	}
	if got, ok := p.Code[6].Writes(); !ok || got != (RegRef{FileTemp, 8, MaskX}) {
		t.Errorf("mov Writes = %v %v", got, ok)
	}
	classes := []OpClass{ClassTexture, ClassALU, ClassTexture, ClassTexture, ClassALU, ClassTexture, ClassALU, ClassALU, ClassTexture, ClassSFU, ClassKill, ClassALU, ClassALU}
	for i, c := range classes {
		if got := p.Code[i].Op.Class(); got != c {
			t.Errorf("code[%d] %v class %v, want %v", i, p.Code[i].Op, got, c)
		}
	}
	if OpDdx.Class() != ClassDerivative || OpDdy.Class() != ClassDerivative || OpPow.Class() != ClassSFU {
		t.Error("derivative/sfu classes")
	}
}

func TestLink(t *testing.T) {
	vs := mustAssemble(t, "v.gsa", `.vs
.input v0 position
.input v1 normal
.output o0 position
.output o1 normal
.output o3 texcoord
mov o0, v0
mov o1, v1
mov o3, v0
`)
	ps := mustAssemble(t, "p.gsa", `.ps
.input v2 texcoord noperspective
.input v0 sv_position
.input v1 normal flat
.input v4 sv_isfrontface
.output o0 color
mov o0, v1
`)
	links, err := Link(vs, ps)
	if err != nil {
		t.Fatal(err)
	}
	want := []LinkedInput{
		{PSReg: 2, Semantic: "texcoord", Source: LinkVarying, VSReg: 3, Interp: InterpNoPerspective},
		{PSReg: 0, Semantic: SemanticPosition, Source: LinkPosition},
		{PSReg: 1, Semantic: "normal", Source: LinkVarying, VSReg: 1, Interp: InterpFlat},
		{PSReg: 4, Semantic: SemanticFrontFace, Source: LinkFrontFace},
	}
	if !reflect.DeepEqual(links, want) {
		t.Errorf("Link = %+v, want %+v", links, want)
	}
	ps2 := mustAssemble(t, "p2.gsa", ".ps\n.input v0 color perspective\n.output o0 color\nmov o0, v0\n")
	_, err = Link(vs, ps2)
	if want := `shader: link v.gsa -> p2.gsa: pixel shader input v0 semantic "color": no vertex shader output has this semantic`; err == nil || err.Error() != want {
		t.Errorf("Link error = %v, want %q", err, want)
	}
	if _, err := Link(ps, vs); err == nil {
		t.Error("Link with swapped stages succeeded")
	}
}

func TestProgramHelpers(t *testing.T) {
	p := mustAssemble(t, "full.gsa", fullProgram)
	if c, ok := p.ConstBlock("mvp"); !ok || c != (ConstDecl{Reg: 0, Name: "mvp", Count: 4}) {
		t.Errorf("ConstBlock = %+v %v", c, ok)
	}
	if _, ok := p.ConstBlock("nope"); ok {
		t.Error("ConstBlock(nope) found")
	}
	if u, ok := p.SamplerUnit("normal"); !ok || u != 7 {
		t.Errorf("SamplerUnit = %d %v", u, ok)
	}
	if d, ok := p.Input("sv_position"); !ok || d.Reg != 5 {
		t.Errorf("Input = %+v %v", d, ok)
	}
	if d, ok := p.Output("depth"); !ok || d.File != FileDepth {
		t.Errorf("Output = %+v %v", d, ok)
	}
	consts := p.InitConstants(make([]geom.Vec4, 2))
	want := []geom.Vec4{{}, {}, {}, {}, {0.8, 0.7, 0.6, 1}, {0.5, 0, 0, 0}, {0, 1, 0.5, 2}}
	if !reflect.DeepEqual(consts, want) {
		t.Errorf("InitConstants = %v", consts)
	}
}
