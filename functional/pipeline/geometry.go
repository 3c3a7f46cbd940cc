package pipeline

import (
	"encoding/binary"
	"math"

	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/vertex"
)

// GeometryOutput is what leaves the geometry stage for one vertex batch, in
// API order: vertices and the primitives over them (Corners indices each:
// 1 points, 2 lines, 3 triangles). Its slices are reused by Reset.
type GeometryOutput struct {
	Verts   []VertexOut
	Prims   [][3]int32
	Corners int
}

// Reset empties o for primitives of corners vertices.
func (o *GeometryOutput) Reset(corners int) {
	o.Verts, o.Prims, o.Corners = o.Verts[:0], o.Prims[:0], corners
}

// Vertices returns the vertices of primitive i.
func (o *GeometryOutput) Vertices(i int) [3]*VertexOut {
	var v [3]*VertexOut
	for k := 0; k < o.Corners; k++ {
		v[k] = &o.Verts[o.Prims[i][k]]
	}
	return v
}

// GSStats counts the geometry shader work of one batch.
type GSStats struct {
	Invocations      int // input primitives shaded, times the shader's instances
	Warps            int
	Instructions     uint64
	LaneInstructions uint64
	TexRequests      uint64
	Emits            uint64 // lane emits executed
	EmitsDropped     uint64 // beyond .max_vertices: dropped
	Primitives       int    // primitives assembled from the output strips
}

// Add accumulates o.
func (s *GSStats) Add(o GSStats) {
	s.Invocations += o.Invocations
	s.Warps += o.Warps
	s.Instructions += o.Instructions
	s.LaneInstructions += o.LaneInstructions
	s.TexRequests += o.TexRequests
	s.Emits += o.Emits
	s.EmitsDropped += o.EmitsDropped
	s.Primitives += o.Primitives
}

// GSInvocations returns the geometry shader invocations of a batch of np
// primitives under draw d: np times the shader's instances. Invocation k is
// instance k mod instances of primitive k / instances, so that the instances
// of a primitive are consecutive (D3D11's output order).
func GSInvocations(d *state.Draw, np int) int { return np * d.GS.Geometry.InstanceCount() }

// LoadPrimitives resets warp w for the draw's geometry shader over n lanes:
// lane i runs invocation first+i of batch b (GSInvocations: primitive
// (first+i) / instances, whose ID in the draw is id0 plus that, and instance
// (first+i) mod instances), reading the shaded vertices vout.
func LoadPrimitives(d *state.Draw, b *vertex.Batch, first, n, id0 int, vout []VertexOut, w *shader.Warp) {
	w.Reset(d.GS, n, d.GSConstants)
	instances := d.GS.Geometry.InstanceCount()
	for lane := 0; lane < n; lane++ {
		prim, inst := (first+lane)/instances, (first+lane)%instances
		slots, _ := b.Primitive(prim)
		for i, in := range d.GS.Inputs {
			var v float32
			switch reg := d.GSInputs[i]; reg {
			case state.GSPrimitiveID:
				v = float32(id0 + prim)
			case state.GSInstanceID:
				v = float32(inst)
			default:
				w.SetInput(lane, in.Reg, vout[slots[in.Vertex]][reg])
				continue
			}
			w.SetInput(lane, in.Reg, [4]float32{v, v, v, v})
		}
	}
}

// AssembleEmitted is the second primitive assembly: it reads the vertices
// lane emitted, in order, and cuts its strips into primitives of the GS's
// output topology, appending them to out. Triangle strips are cut as
// vertex.Stream cuts them: the strip's triangle i is its vertices (i, i+1,
// i+2) when i is even and (i, i+2, i+1) when odd, so that every triangle keeps
// the strip's winding and leads with vertex i; a strip too short for one
// primitive gives none, and each strip (after a cut) starts even.
func AssembleEmitted(w *shader.Warp, lane int, topo shader.OutputTopology, out *GeometryOutput) int {
	n := w.Emitted(lane)
	outputs := min(w.Program().NumOutputRegisters(), shader.MaxOutputs)
	made, strip := 0, 0
	for k := 0; k < n; k++ {
		var v VertexOut
		var start bool
		for r := 0; r < outputs; r++ {
			v[r], start = w.EmittedVertex(lane, k, r)
		}
		if start {
			strip = 0
		}
		out.Verts = append(out.Verts, v)
		strip++
		last := int32(len(out.Verts) - 1)
		switch {
		case topo == shader.TopoPoint:
			out.Prims = append(out.Prims, [3]int32{last})
		case topo == shader.TopoLineStrip && strip >= 2:
			out.Prims = append(out.Prims, [3]int32{last - 1, last})
		case topo == shader.TopoTriangleStrip && strip >= 3:
			if strip&1 == 0 { // the strip's triangle strip-3 is odd
				out.Prims = append(out.Prims, [3]int32{last - 2, last, last - 1})
			} else {
				out.Prims = append(out.Prims, [3]int32{last - 2, last - 1, last})
			}
		default:
			continue
		}
		made++
	}
	return made
}

// ShadeGeometry runs the draw's geometry shader over the invocations of
// batch b (GSInvocations; shaded vertices vout; id0 the draw-wide index of
// its first primitive), in warps of up to shader.MaxLanes invocations, and
// appends the assembled output primitives to out in API order: all of
// invocation 0's, then invocation 1's, and so on.
func ShadeGeometry(d *state.Draw, b *vertex.Batch, id0 int, vout []VertexOut, w *shader.Warp,
	tex shader.TextureSampler, out *GeometryOutput) (GSStats, error) {
	var st GSStats
	np := GSInvocations(d, b.NumPrimitives())
	for base := 0; base < np; base += shader.MaxLanes {
		n := min(np-base, shader.MaxLanes)
		before := w.Stats
		LoadPrimitives(d, b, base, n, id0, vout, w)
		w.Run(tex)
		if err := w.Err(); err != nil {
			return st, err
		}
		for lane := 0; lane < n; lane++ {
			st.Primitives += AssembleEmitted(w, lane, d.GS.Geometry.Output, out)
		}
		st.Invocations += n
		st.Warps++
		st.Instructions += w.Stats.Instructions - before.Instructions
		st.LaneInstructions += w.Stats.LaneInstructions - before.LaneInstructions
		st.TexRequests += w.Stats.TexRequests - before.TexRequests
		st.Emits += w.Stats.Emits - before.Emits
		st.EmitsDropped += w.Stats.EmitsDropped - before.EmitsDropped
	}
	return st, nil
}

// PassThrough appends the primitives of batch b as they leave primitive
// assembly without a geometry shader (for stream-out): adjacency vertices
// are dropped (a triangle with adjacency is its vertices 0, 2, 4, a line
// its 1, 2).
func PassThrough(d *state.Draw, b *vertex.Batch, vout []VertexOut, out *GeometryOutput) {
	for i := 0; i < b.NumPrimitives(); i++ {
		slots, n := b.Primitive(i)
		var pick []int
		switch n {
		case 6:
			pick = []int{0, 2, 4}
		case 4:
			pick = []int{1, 2}
		default:
			pick = []int{0, 1, 2}[:n]
		}
		var p [3]int32
		for k, s := range pick {
			out.Verts = append(out.Verts, vout[slots[s]])
			p[k] = int32(len(out.Verts) - 1)
		}
		out.Prims = append(out.Prims, p)
	}
}

// StreamOutStats counts a draw's stream-out: the D3D statistics (primitives
// written, and needed had the buffers been large enough) and the bytes.
type StreamOutStats struct {
	PrimitivesWritten int
	PrimitivesNeeded  int
	BytesWritten      uint64
}

// Add accumulates o.
func (s *StreamOutStats) Add(o StreamOutStats) {
	s.PrimitivesWritten += o.PrimitivesWritten
	s.PrimitivesNeeded += o.PrimitivesNeeded
	s.BytesWritten += o.BytesWritten
}

// StreamOutWriter writes one draw's primitives to its stream-out buffers in
// API order. D3D11's overflow rule: a primitive is written only when every
// buffer has room for all its vertices; once one does not fit, nothing more
// is written (every later primitive is as large) but PrimitivesNeeded keeps
// counting.
type StreamOutWriter struct {
	so     *state.StreamOut
	mem    state.Memory
	filled [4]uint32
	Stats  StreamOutStats
	buf    []byte
}

// BeginStreamOut starts the stream-out of draw d: each buffer's write
// position is its bind offset when it was just bound with one, else its
// filled-size counter in memory. It returns nil when the draw does not
// stream out.
func BeginStreamOut(d *state.Draw, mem state.Memory) *StreamOutWriter {
	if d.StreamOut == nil {
		return nil
	}
	s := &StreamOutWriter{so: d.StreamOut, mem: mem}
	for i, b := range s.so.Buffers {
		if b.Reset {
			s.filled[i] = b.Offset
		} else {
			s.filled[i] = readU32(mem, b.FilledAddr)
		}
	}
	return s
}

// Filled returns the write position of the i-th bound buffer (bytes from its start).
func (s *StreamOutWriter) Filled(i int) uint32 { return s.filled[i] }

// Fits reports whether a primitive of corners vertices fits every buffer.
func (s *StreamOutWriter) Fits(corners int) bool {
	for i, b := range s.so.Buffers {
		if uint64(s.filled[i])+uint64(corners)*uint64(b.Stride) > uint64(b.Size) {
			return false
		}
	}
	return true
}

// Primitive streams out one primitive (corners vertices v).
func (s *StreamOutWriter) Primitive(v [3]*VertexOut, corners int) {
	s.Stats.PrimitivesNeeded++
	if !s.Fits(corners) {
		return
	}
	s.Stats.PrimitivesWritten++
	for i, b := range s.so.Buffers {
		for k := 0; k < corners; k++ {
			addr := b.Addr + uint64(s.filled[i])
			for _, e := range b.Elements {
				s.buf = s.buf[:0]
				for c := uint32(0); c < e.Components; c++ {
					s.buf = binary.LittleEndian.AppendUint32(s.buf, math.Float32bits(v[k][e.Register][c]))
				}
				writeBytes(s.mem, addr+uint64(e.Offset), s.buf)
				s.Stats.BytesWritten += uint64(len(s.buf))
			}
			s.filled[i] += b.Stride
		}
	}
}

// End stores the filled-size counters and adds the draw's statistics to the
// two counters at StatsAddr (primitives written, needed).
func (s *StreamOutWriter) End() {
	for i, b := range s.so.Buffers {
		writeU32(s.mem, b.FilledAddr, s.filled[i])
	}
	if a := s.so.StatsAddr; a != 0 {
		writeU32(s.mem, a, readU32(s.mem, a)+uint32(s.Stats.PrimitivesWritten))
		writeU32(s.mem, a+4, readU32(s.mem, a+4)+uint32(s.Stats.PrimitivesNeeded))
	}
}

func readU32(mem state.Memory, addr uint64) uint32 {
	var b [4]byte
	mem.ReadAt(b[:], addr)
	return binary.LittleEndian.Uint32(b[:])
}

func writeU32(mem state.Memory, addr uint64, v uint32) {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], v)
	writeBytes(mem, addr, b[:])
}

// writeBytes copies b to memory at addr when the range is mapped.
func writeBytes(mem state.Memory, addr uint64, b []byte) {
	if dst, ok := mem.Slice(addr, uint64(len(b))); ok {
		copy(dst, b)
	}
}
