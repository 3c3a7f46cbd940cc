package shader

import (
	"strings"
	"testing"
)

const gsSource = `.gs
.input_primitive triangle_adj
.output_topology line_strip
.max_vertices 4
.input v0 position 0
.input v1 normal 1
.input v2 sv_primitiveid
.output o0 position
.output o1 color
.def c0 1 2 3 4
mov o0, v0
add o1, v1, v2
emit
emitc -v1.x
cut
mov o0, c0
emit
`

func TestGeometryShaderRoundTrip(t *testing.T) {
	p := mustAssemble(t, "gs.gsa", gsSource)
	if p.Geometry != (GeometryDecl{Input: PrimTriangleAdj, Output: TopoLineStrip, MaxVertices: 4}) || p.Inputs[1].Vertex != 1 {
		t.Errorf("declarations %+v, inputs %+v", p.Geometry, p.Inputs)
	}
	q, err := Decode(p.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if q.Disassemble() != p.Disassemble() {
		t.Errorf("round trip:\n%s\nwant\n%s", q.Disassemble(), p.Disassemble())
	}
	r, err := Assemble("gs.gsa", []byte(p.Disassemble()))
	if err != nil || r.Disassemble() != p.Disassemble() {
		t.Errorf("disassembly does not reassemble: %v", err)
	}
	if p.OutputScalars() != 4*4*2 {
		t.Errorf("output scalars %d, want 32", p.OutputScalars())
	}
}

// TestGeometryShaderInstancing: .instances and sv_gsinstanceid assemble,
// survive the binary form (version 4; a shader without .instances keeps
// version 3's bytes) and the disassembly.
func TestGeometryShaderInstancing(t *testing.T) {
	src := strings.Replace(gsSource, ".max_vertices 4\n", ".max_vertices 4\n.instances 5\n", 1) + ".input v3 sv_gsinstanceid\n"
	p := mustAssemble(t, "gs.gsa", src)
	if p.Geometry != (GeometryDecl{Input: PrimTriangleAdj, Output: TopoLineStrip, MaxVertices: 4, Instances: 5}) ||
		p.Geometry.InstanceCount() != 5 || p.Inputs[3].Semantic != SemanticGSInstanceID {
		t.Errorf("declarations %+v, inputs %+v", p.Geometry, p.Inputs)
	}
	b := p.Encode()
	if v := int(b[4]) | int(b[5])<<8; v != 4 {
		t.Errorf("binary version %d, want 4", v)
	}
	q, err := Decode(b)
	if err != nil || q.Disassemble() != p.Disassemble() || q.Geometry != p.Geometry {
		t.Errorf("round trip (%v):\n%s\nwant\n%s", err, q.Disassemble(), p.Disassemble())
	}
	if r, err := Assemble("gs.gsa", []byte(p.Disassemble())); err != nil || r.Geometry != p.Geometry {
		t.Errorf("disassembly does not reassemble: %v", err)
	}
	plain := mustAssemble(t, "gs.gsa", gsSource)
	if v := int(plain.Encode()[4]); v != 3 || plain.Geometry.InstanceCount() != 1 {
		t.Errorf("without .instances: binary version %d, %d instances; want 3 and 1", v, plain.Geometry.InstanceCount())
	}
}

func TestGeometryShaderErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{".vs\n.max_vertices 3\n", "e.gsa:2: .max_vertices is a geometry shader directive (.gs)"},
		{".gs\n.output_topology point\n.max_vertices 1\n.output o0 position\n.def c0 0 0 0 1\nmov o0, c0\n", "e.gsa:1: geometry shader: missing or bad .input_primitive (point, line, triangle, line_adj, triangle_adj)"},
		{".gs\n.input_primitive point\n.max_vertices 1\n.output o1 color\n", "e.gsa:1: geometry shader does not declare o0 position"},
		{".gs\n.input_primitive point\n.output_topology quad\n", `e.gsa:3: unknown output topology "quad" (want point, line_strip or triangle_strip)`},
		{".gs\n.input_primitive line\n.output_topology point\n.max_vertices 1\n.input v0 position 2\n.output o0 position\nmov o0, v0\n", "e.gsa:5: vertex index 2 out of range for input primitive line (0..1)"},
		{".gs\n.input v0 position\n", "e.gsa:2: geometry shader input position needs the vertex it reads: .input v0 position K"},
		{".gs\n.input_primitive point\n.output_topology point\n.max_vertices 2000\n", `e.gsa:4: bad .max_vertices "2000" (1..1024)`},
		{".gs\n.input_primitive point\n.output_topology point\n.max_vertices 1\n.output o0 position\n.def c0 0 0 0 1\nmov o0, c0\nkil c0\n", "e.gsa:8: kil is not allowed in a geometry shader"},
		{".ps\n.output o0 color\n.def c0 0 0 0 1\nmov o0, c0\nemit\n", "e.gsa:5: emit is a geometry shader instruction"},
		{".gs\n.input_primitive point\n.output_topology point\n.max_vertices 300\n.output o0 position\n.output o1 color\n.def c0 0 0 0 1\nmov o0, c0\n", "e.gsa:1: geometry shader: .max_vertices 300 times 2 output registers is 2400 scalars (at most 1024)"},
		{".ps\n.input v0 sv_primitiveid\n.output o0 color\nmov o0, v0\n", "e.gsa:2: system value sv_primitiveid is a geometry shader input"},
		{".ps\n.input v0 sv_gsinstanceid\n.output o0 color\nmov o0, v0\n", "e.gsa:2: system value sv_gsinstanceid is a geometry shader input"},
		{".vs\n.instances 2\n", "e.gsa:2: .instances is a geometry shader directive (.gs)"},
		{".gs\n.input_primitive point\n.output_topology point\n.max_vertices 1\n.instances 33\n", `e.gsa:5: bad .instances "33" (1..32)`},
		{".gs\n.input_primitive point\n.output_topology point\n.max_vertices 1\n.instances 0\n", `e.gsa:5: bad .instances "0" (1..32)`},
		{".gs\n.input_primitive point\n.output_topology point\n.max_vertices 1\n.instances 2\n.instances 2\n", "e.gsa:6: duplicate .instances (declared at line 5)"},
		{".gs\n.input_primitive triangle\n.output_topology point\n.max_vertices 1\n.input v0 sv_gsinstanceid 1\n.output o0 position\nmov o0, v0\n", "e.gsa:5: system value sv_gsinstanceid takes no vertex index"},
		{".gs\n.input_primitive point\n.output_topology point\n.max_vertices 1\n.input v0 sv_gsinstanceid 0 1\n", "e.gsa:5: geometry shader .input expects: .input vN semantic vertex (or .input vN sv_primitiveid, .input vN sv_gsinstanceid)"},
	} {
		_, err := Assemble("e.gsa", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got  %v\n want %s", tc.src, err, tc.want)
		}
	}
}

// The output buffer keeps strips apart and drops emits past the limit.
func TestGeometryWarpEmits(t *testing.T) {
	p := mustAssemble(t, "gs.gsa", gsSource)
	w := NewWarp(2)
	w.Reset(p, 2, p.InitConstants(nil))
	w.SetInput(0, 1, [4]float32{-1, 0, 0, 0}) // lane 0: emitc passes (-v1.x = 1)
	w.SetInput(1, 1, [4]float32{1, 0, 0, 0})  // lane 1: it does not
	w.Run(nil)
	if w.Emitted(0) != 3 || w.Emitted(1) != 2 || w.Stats.Emits != 5 || w.Stats.EmitsDropped != 0 {
		t.Fatalf("emitted %d, %d; stats %+v", w.Emitted(0), w.Emitted(1), w.Stats)
	}
	starts := []bool{}
	for k := 0; k < 3; k++ {
		_, s := w.EmittedVertex(0, k, 0)
		starts = append(starts, s)
	}
	if !starts[0] || starts[1] || !starts[2] {
		t.Errorf("strip starts %v, want [true false true]", starts)
	}
	if v, _ := w.EmittedVertex(0, 2, 0); v != [4]float32{1, 2, 3, 4} {
		t.Errorf("vertex 2 o0 %v", v)
	}
}
