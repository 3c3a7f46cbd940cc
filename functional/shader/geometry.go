package shader

import (
	"fmt"
	"strings"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// InputPrimitive is the primitive a geometry shader reads per invocation.
type InputPrimitive uint8

// The input primitives. With adjacency (D3D10's ordering) a line is vertices
// 1-2 with its neighbours 0 and 3; a triangle is vertices 0, 2, 4 with the
// vertex across edge 0-2 at 1, across 2-4 at 3 and across 4-0 at 5.
const (
	PrimNone InputPrimitive = iota
	PrimPoint
	PrimLine
	PrimTriangle
	PrimLineAdj
	PrimTriangleAdj
	numInputPrimitives
)

var inputPrimitiveNames = enum.Names[InputPrimitive]{Type: "InputPrimitive", What: "input primitive", CaseOnly: true, Names: []string{"none", "point", "line", "triangle", "line_adj", "triangle_adj"}}

func (p InputPrimitive) String() string { return inputPrimitiveNames.String(p) }

// Vertices returns the vertices of one primitive: 1, 2, 3, 4 or 6 (0 for PrimNone).
func (p InputPrimitive) Vertices() int {
	switch p {
	case PrimPoint:
		return 1
	case PrimLine:
		return 2
	case PrimTriangle:
		return 3
	case PrimLineAdj:
		return 4
	case PrimTriangleAdj:
		return 6
	}
	return 0
}

// MaxPrimitiveVertices is the most vertices of an input primitive (triangle_adj).
const MaxPrimitiveVertices = 6

// ParseInputPrimitive parses an input primitive name (case-insensitive).
func ParseInputPrimitive(s string) (InputPrimitive, bool) {
	p, ok := inputPrimitiveNames.Lookup(s)
	return p, ok && p != PrimNone
}

// OutputTopology is the topology of a geometry shader's emitted vertices.
type OutputTopology uint8

// The output topologies: every vertex a point, line strips, triangle strips.
// CUT ends the current strip.
const (
	TopoNone OutputTopology = iota
	TopoPoint
	TopoLineStrip
	TopoTriangleStrip
	numOutputTopologies
)

var outputTopologyNames = enum.Names[OutputTopology]{Type: "OutputTopology", What: "output topology", CaseOnly: true, Names: []string{"none", "point", "line_strip", "triangle_strip"}}

func (t OutputTopology) String() string { return outputTopologyNames.String(t) }

// Vertices returns the vertices of one assembled output primitive: 1, 2 or 3.
func (t OutputTopology) Vertices() int {
	switch t {
	case TopoPoint:
		return 1
	case TopoLineStrip:
		return 2
	case TopoTriangleStrip:
		return 3
	}
	return 0
}

// ParseOutputTopology parses an output topology name (case-insensitive).
func ParseOutputTopology(s string) (OutputTopology, bool) {
	t, ok := outputTopologyNames.Lookup(s)
	return t, ok && t != TopoNone
}

// Limits of a geometry shader's output (D3D10: 1024 vertices and 1024 scalar
// outputs per invocation) and of its instancing (D3D11: 32 instances).
const (
	MaxGSVertices      = 1024
	MaxGSOutputScalars = 1024
	MaxGSInstances     = 32
)

// The geometry shader's system values, each a float in all four components:
// SemanticPrimitiveID is the index of the input primitive in its draw,
// SemanticGSInstanceID the invocation's instance of it (0 to .instances-1).
const (
	SemanticPrimitiveID  = "sv_primitiveid"
	SemanticGSInstanceID = "sv_gsinstanceid"
)

// GeometryDecl is what a geometry shader declares about its primitives:
// .input_primitive, .output_topology, .max_vertices and .instances (D3D11's
// [instance(n)]: the shader runs n times per input primitive, instance i
// reading i as sv_gsinstanceid; 0 when undeclared, which is one instance).
type GeometryDecl struct {
	Input       InputPrimitive
	Output      OutputTopology
	MaxVertices int
	Instances   int
}

// InstanceCount returns the invocations per input primitive: .instances, or
// 1 when it is not declared.
func (g GeometryDecl) InstanceCount() int { return max(1, g.Instances) }

// OutputScalars returns the scalar outputs one invocation may write, what
// its output buffer must hold: MaxVertices times 4 per output register.
func (p *Program) OutputScalars() int {
	return p.Geometry.MaxVertices * 4 * p.layout.outputs
}

// checkGeometry checks the geometry declarations and emit rules; it runs
// after the instructions were checked.
func (p *Program) checkGeometry() *ProgramError {
	gs := p.Stage == GeometryStage
	if !gs {
		if p.Geometry != (GeometryDecl{}) {
			return &ProgramError{Instr: -1, Msg: fmt.Sprintf("%v shader declares geometry shader primitives", p.Stage)}
		}
		for i := range p.Code {
			if p.Code[i].Op.Class() == ClassEmit {
				return instrErr(i, "%s is a geometry shader instruction", p.Code[i].Op)
			}
		}
		return nil
	}
	g := p.Geometry
	switch {
	case g.Input == PrimNone || g.Input >= numInputPrimitives:
		return &ProgramError{Instr: -1, Msg: "geometry shader: missing or bad .input_primitive (point, line, triangle, line_adj, triangle_adj)"}
	case g.Output == TopoNone || g.Output >= numOutputTopologies:
		return &ProgramError{Instr: -1, Msg: "geometry shader: missing or bad .output_topology (point, line_strip, triangle_strip)"}
	case g.MaxVertices < 1 || g.MaxVertices > MaxGSVertices:
		return &ProgramError{Instr: -1, Msg: fmt.Sprintf("geometry shader: .max_vertices %d out of range [1, %d]", g.MaxVertices, MaxGSVertices)}
	case g.Instances < 0 || g.Instances > MaxGSInstances:
		return &ProgramError{Instr: -1, Msg: fmt.Sprintf("geometry shader: .instances %d out of range [1, %d]", g.Instances, MaxGSInstances)}
	}
	outputs := 0
	for _, d := range p.Outputs {
		if d.File == FileOutput {
			outputs = max(outputs, d.Index+1)
		}
	}
	if g.MaxVertices*4*outputs > MaxGSOutputScalars {
		return &ProgramError{Instr: -1, Msg: fmt.Sprintf("geometry shader: .max_vertices %d times %d output registers is %d scalars (at most %d)",
			g.MaxVertices, outputs, g.MaxVertices*4*outputs, MaxGSOutputScalars)}
	}
	always := 0
	for i := range p.Code {
		if p.Code[i].Op != OpEmit {
			continue
		}
		always++
		if always > g.MaxVertices {
			return instrErr(i, "emit beyond .max_vertices %d: every invocation reaches this emit (vertex %d)", g.MaxVertices, always)
		}
	}
	return nil
}

// checkGeometryInput checks input declaration i of a geometry shader.
func (p *Program) checkGeometryInput(i int, d InputDecl) *ProgramError {
	if d.Interp != InterpPerspective || d.Centroid {
		return declErr("inputs", i, "geometry shader inputs take no interpolation mode")
	}
	if d.Semantic == SemanticPrimitiveID || d.Semantic == SemanticGSInstanceID {
		if d.Vertex != 0 {
			return declErr("inputs", i, "system value %s takes no vertex index", d.Semantic)
		}
		return nil
	}
	if d.IsSystemValue() || strings.HasPrefix(d.Semantic, "sv_") {
		return declErr("inputs", i, "unknown geometry shader system value %q (want %s or %s)", d.Semantic, SemanticPrimitiveID,
			SemanticGSInstanceID)
	}
	if n := p.Geometry.Input.Vertices(); d.Vertex < 0 || d.Vertex >= n {
		return declErr("inputs", i, "vertex index %d out of range for input primitive %v (0..%d)", d.Vertex, p.Geometry.Input, n-1)
	}
	for j := 0; j < i; j++ {
		if o := p.Inputs[j]; o.Semantic == d.Semantic && o.Vertex == d.Vertex {
			return declErr("inputs", i, "duplicate input %s of vertex %d", d.Semantic, d.Vertex)
		}
	}
	return nil
}

// gsBuffer is the output buffer of a geometry shader warp: per lane, the
// vertices emitted so far (each outputs registers), the strip cuts and the
// count.
type gsBuffer struct {
	verts   []geom.Vec4 // lane*maxVerts*outputs + vertex*outputs + reg
	start   []bool      // lane*maxVerts + vertex: the vertex starts a new strip
	count   [MaxLanes]int
	cut     [MaxLanes]bool // a CUT since the lane's last emit
	maxVert int
	outputs int
}

func (b *gsBuffer) reset(lanes, maxVerts, outputs int) {
	b.maxVert, b.outputs = maxVerts, outputs
	if n := lanes * maxVerts * outputs; cap(b.verts) < n {
		b.verts = make([]geom.Vec4, n)
	}
	if n := lanes * maxVerts; cap(b.start) < n {
		b.start = make([]bool, n)
	}
	b.verts = b.verts[:lanes*maxVerts*outputs]
	b.start = b.start[:lanes*maxVerts]
	for i := 0; i < lanes; i++ {
		b.count[i], b.cut[i] = 0, true
	}
}

// emit appends the output registers of the lanes in mask to their buffers.
func (w *Warp) emit(mask uint64) {
	b := &w.gs
	base := w.prog.layout.outputBase()
	for lane := 0; lane < w.Lanes; lane++ {
		if mask&(1<<uint(lane)) == 0 {
			continue
		}
		w.Stats.Emits++
		k := b.count[lane]
		if k >= b.maxVert {
			w.Stats.EmitsDropped++
			continue
		}
		v := b.verts[(lane*b.maxVert+k)*b.outputs:]
		for r := 0; r < b.outputs; r++ {
			v[r] = w.lane(base+r, lane)
		}
		b.start[lane*b.maxVert+k] = b.cut[lane]
		b.cut[lane] = false
		b.count[lane] = k + 1
	}
}

// emitMask returns the lanes whose fetched operand 0 has no component < 0.
func (w *Warp) emitMask(n int) uint64 {
	x, y, z, ww := w.view[0][0][:n], w.view[0][1][:n], w.view[0][2][:n], w.view[0][3][:n]
	var m uint64
	for i := range x {
		if !(x[i] < 0 || y[i] < 0 || z[i] < 0 || ww[i] < 0) {
			m |= 1 << uint(i)
		}
	}
	return m
}

// Emitted returns the number of vertices lane emitted (at most MaxVertices;
// the emits beyond it were dropped and counted in Stats.EmitsDropped).
func (w *Warp) Emitted(lane int) int {
	if w.prog == nil || w.prog.Stage != GeometryStage || lane < 0 || lane >= w.Lanes {
		return 0
	}
	return w.gs.count[lane]
}

// EmittedVertex returns output register reg of vertex k emitted by lane, and
// whether that vertex starts a new strip (the first one does, and the first
// after a CUT).
func (w *Warp) EmittedVertex(lane, k, reg int) (v geom.Vec4, stripStart bool) {
	if lane < 0 || lane >= w.Lanes || k < 0 || k >= w.Emitted(lane) || reg < 0 || reg >= w.gs.outputs {
		return geom.Vec4{}, false
	}
	b := &w.gs
	return b.verts[(lane*b.maxVert+k)*b.outputs+reg], b.start[lane*b.maxVert+k]
}

// NumOutputRegisters returns one past the highest output register oN the
// program declares (what a vertex or geometry shader's output holds).
func (p *Program) NumOutputRegisters() int { return p.layout.outputs }
