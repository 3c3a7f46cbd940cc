package shader

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

const cubeProgram = `.ps
.input v0 texcoord perspective
.input v1 color perspective
.output o0 color
.sampler s0 albedo
.sampler s1 env CUBE
.sampler s2 layers 2darray
.sampler s3 volume 3d
tex r0, v0, s1
texb r1, v0, s2
texl r2, v0, s3
texd r3, v0, v1, v1.zyxw, s1
tex r4, v0, s0
add o0, r0, r1
`

func TestSamplerTypes(t *testing.T) {
	p := mustAssemble(t, "cube.gsa", cubeProgram)
	wantTypes := []SamplerType{Sampler2D, SamplerCube, Sampler2DArray, Sampler3D}
	for i, s := range p.Samplers {
		if s.Type != wantTypes[i] {
			t.Errorf("sampler %d type %v, want %v", i, s.Type, wantTypes[i])
		}
	}
	// Coordinate components read: xyz for the 3-coordinate types (+w for
	// texb/texl), xy for 2D; texd reads the same components of its gradients.
	masks := []struct {
		instr, src int
		coords     int
		mask       uint8
	}{
		{0, 0, 3, MaskXYZ}, {1, 0, 3, MaskXYZ | MaskW}, {2, 0, 3, MaskXYZ | MaskW},
		{3, 0, 3, MaskXYZ}, {3, 1, 3, MaskXYZ}, {3, 2, 3, MaskXYZ}, {4, 0, 2, MaskX | MaskY}, {5, 0, 0, MaskXYZW},
	}
	for _, m := range masks {
		in := &p.Code[m.instr]
		if in.TexCoords != m.coords || in.SourceMask(m.src) != m.mask {
			t.Errorf("instr %d src %d: TexCoords %d mask %04b, want %d %04b", m.instr, m.src, in.TexCoords, in.SourceMask(m.src), m.coords, m.mask)
		}
	}
	// texd's third source .zyxw reads register components z, y, x.
	if r := p.Code[3].Reads(nil); r[2].Mask != MaskXYZ {
		t.Errorf("texd gradient reads %04b", r[2].Mask)
	}
	// The text form and the binary form keep the types.
	dis := p.Disassemble()
	for _, line := range []string{".sampler s0 albedo\n", ".sampler s1 env cube\n", ".sampler s2 layers 2darray\n", ".sampler s3 volume 3d\n"} {
		if !strings.Contains(dis, line) {
			t.Errorf("disassembly lacks %q:\n%s", line, dis)
		}
	}
	q := mustAssemble(t, "cube.gsa", dis)
	if !equalPrograms(stripLines(p), stripLines(q)) {
		t.Error("disassembly does not reassemble to the same program")
	}
	d, err := Decode(p.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if !equalPrograms(stripLines(p), stripLines(d)) {
		t.Errorf("binary round trip differs")
	}
}

func equalPrograms(a, b *Program) bool {
	if len(a.Code) != len(b.Code) || len(a.Samplers) != len(b.Samplers) {
		return false
	}
	for i := range a.Code {
		if a.Code[i] != b.Code[i] {
			return false
		}
	}
	for i := range a.Samplers {
		if a.Samplers[i] != b.Samplers[i] {
			return false
		}
	}
	return true
}

func TestSamplerTypeErrors(t *testing.T) {
	if _, err := Assemble("e.gsa", []byte(".ps\n.output o0 color\n.sampler s0 env sphere\n")); err == nil ||
		err.Error() != `e.gsa:3: unknown sampler type "sphere" (want 2d, 2darray, cube or 3d)` {
		t.Errorf("unknown type: %v", err)
	}
	p := mustAssemble(t, "e.gsa", ".ps\n.input v0 texcoord\n.output o0 color\n.sampler s0 env cube\ntex o0, v0, s0\n")
	// A program built in code must read the coordinates of its sampler's type.
	bad := stripLines(p)
	bad.Code[0].TexCoords = 2
	if err := bad.Validate(); err == nil || err.Error() != "code[0]: tex reads 2 coordinate components, sampler s0 (cube) takes 3" {
		t.Errorf("mismatch: %v", err)
	}
	bad.Code[0].TexCoords = 0 // 0 means 2
	if err := bad.Validate(); err == nil {
		t.Error("TexCoords 0 accepted for a cube sampler")
	}
	bad.Samplers[0].Type = 7
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "unknown sampler type 7") {
		t.Errorf("bad type: %v", err)
	}
}

// TestDecodeVersion1 reads a binary of the first version: samplers without a
// type byte, a zero reserved u16 in place of the texcoords byte.
func TestDecodeVersion1(t *testing.T) {
	p := mustAssemble(t, "v1.gsa", ".ps\n.input v0 texcoord\n.output o0 color\n.sampler s2 albedo\ntex o0, v0, s2\n")
	b := p.Encode() // version 2
	codeStart := len(b) - InstrSize
	// The sampler declaration ends with its type byte, just before code.count.
	typeAt := codeStart - 4 - 1
	if b[typeAt] != 0 || b[codeStart+6] != 2 {
		t.Fatalf("unexpected v2 layout: type %d texcoords %d", b[typeAt], b[codeStart+6])
	}
	v1 := append([]byte(nil), b[:typeAt]...)
	v1 = append(v1, b[typeAt+1:]...)
	binary.LittleEndian.PutUint16(v1[4:], 1)
	v1[codeStart-1+6] = 0
	q, err := Decode(v1)
	if err != nil {
		t.Fatal(err)
	}
	if q.Samplers[0] != (SamplerDecl{Unit: 2, Name: "albedo"}) || q.Code[0].TexCoords != 0 || q.Code[0].SourceMask(0) != MaskX|MaskY {
		t.Errorf("decoded %+v %+v", q.Samplers, q.Code[0])
	}
}

// TestVertexAndPixelProgramsEncodeVersion2: a vertex or pixel program is
// written in version 2, byte for byte what it was before geometry shaders
// (so a frame's memory image and timing do not move), and read back; a
// geometry program is written in version 3.
func TestVertexAndPixelProgramsEncodeVersion2(t *testing.T) {
	for _, tc := range []struct {
		src     string
		version uint16
	}{
		{".ps\n.input v0 texcoord\n.input v1 normal flat\n.output o0 color\nadd o0, v0, v1\n", 2},
		{".vs\n.input v0 position\n.output o0 position\nmov o0, v0\n", 2},
		{".gs\n.input_primitive triangle\n.output_topology triangle_strip\n.max_vertices 3\n.input v0 position 1\n.output o0 position\nmov o0, v0\nemit\n", 3},
	} {
		p := mustAssemble(t, "p.gsa", tc.src)
		b := p.Encode()
		if v := binary.LittleEndian.Uint16(b[4:]); v != tc.version {
			t.Errorf("%s: version %d, want %d", p.Stage, v, tc.version)
		}
		q, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if q.Disassemble() != p.Disassemble() {
			t.Errorf("decoded\n%s\nwant\n%s", q.Disassemble(), p.Disassemble())
		}
	}
}

func TestThreeCoordinateRequests(t *testing.T) {
	p := mustAssemble(t, "cube.gsa", cubeProgram)
	f := &fakeSampler{}
	warp := func() *Warp {
		w := NewWarp(4)
		w.Reset(p, 4, nil)
		for i := 0; i < 4; i++ {
			x, y := float32(i&1), float32(i>>1)
			w.SetInput(i, 0, geom.Vec4{x, y, 0.5*x + 2*y + 1, 0.25})
			w.SetInput(i, 1, geom.Vec4{1, 2, 3 + x, 4})
		}
		return w
	}
	warp().Run(f)
	// Lane 3: coord (1, 1, 3.5); quad differences dx = (1, 0, 0.5), dy = (0, 1, 2).
	want := []texCheck{
		{3, TexRequest{Unit: 1, Mode: TexImplicit, Coord: geom.Vec4{1, 1, 3.5, 0}, DDX: geom.Vec4{1, 0, 0.5, 0}, DDY: geom.Vec4{0, 1, 2, 0}}},
		{4 + 3, TexRequest{Unit: 2, Mode: TexBias, Coord: geom.Vec4{1, 1, 3.5, 0.25}, DDX: geom.Vec4{1, 0, 0.5, 0}, DDY: geom.Vec4{0, 1, 2, 0}, LODOrBias: 0.25}},
		{8 + 3, TexRequest{Unit: 3, Mode: TexLOD, Coord: geom.Vec4{1, 1, 3.5, 0.25}, LODOrBias: 0.25}},
		// texd: ddx = v1 = (1, 2, 4, -) at lane 3, ddy = v1.zyx = (4, 2, 1).
		{12 + 3, TexRequest{Unit: 1, Mode: TexGrad, Coord: geom.Vec4{1, 1, 3.5, 0}, DDX: geom.Vec4{1, 2, 4, 0}, DDY: geom.Vec4{4, 2, 1, 0}}},
		// A 2D sampler leaves z alone.
		{16 + 3, TexRequest{Unit: 0, Mode: TexImplicit, Coord: geom.Vec4{1, 1, 0, 0}, DDX: geom.Vec4{1, 0, 0, 0}, DDY: geom.Vec4{0, 1, 0, 0}}},
	}
	f.check(t, 20, want)
	// TexRequests gives the same requests.
	if r := warp().TexRequests(nil); r[3] != want[0].want {
		t.Errorf("TexRequests lane 3 = %+v", r[3])
	}
}
