package driver

// Geometry shaders, stream-out and DrawAuto (scene.Object's Topology,
// StreamOut and DrawAuto): the buffers, the adjacency index buffers and the
// commands of one object.

import (
	"encoding/binary"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/mesh"
)

// streamBuf is a scene stream-out buffer in memory: its bytes, its
// filled-size counter, and the input layout that reads back what the last
// object streaming to it wrote.
type streamBuf struct {
	addr, filled uint64
	size         uint32
	layout       command.SetInputLayout
}

// StreamBuffer says where a scene's stream-out buffer lives (Frame.StreamBuffers).
type StreamBuffer struct {
	Name             string
	Addr, FilledAddr uint64
	Size             uint32
}

func (e *encoder) streamBuffers() {
	for _, b := range e.s.StreamBuffers {
		sb := streamBuf{addr: e.mem.Alloc(uint64(b.Size), 256), size: b.Size}
		sb.filled = e.mem.Alloc(4, 16)
		e.streamBufs = append(e.streamBufs, sb)
	}
}

// streamLayout is the input layout that reads back the vertices a stage
// with outputs p.Outputs wrote with stride: each output whose semantic is a
// vertex attribute, 4 floats at 16 bytes per register.
func streamLayout(p *shader.Program, stride uint32) command.SetInputLayout {
	l := command.SetInputLayout{Stride: stride}
	for _, o := range p.Outputs {
		if sem, ok := command.SemanticByName(o.Semantic); ok && o.File == shader.FileOutput {
			l.Attributes = append(l.Attributes, command.Attribute{Semantic: sem, Offset: uint32(16 * o.Index), Components: 4})
		}
	}
	return l
}

// bindStreamOut returns the commands that stream the object out, and
// records the layout its buffer now holds.
func (e *encoder) bindStreamOut(so *scene.StreamOut, last *shader.Program) []command.Command {
	sb := &e.streamBufs[so.Buffer]
	n := last.NumOutputRegisters()
	b := command.BindStreamOut{Slot: 0, Addr: sb.addr, Size: sb.size, Stride: so.Stride, Offset: so.Offset, FilledAddr: sb.filled}
	if so.Append {
		b.Offset = command.StreamOutAppend
	}
	for r := 0; r < n; r++ {
		b.Elements = append(b.Elements, command.StreamOutElement{Register: uint32(r), Components: 4, Offset: uint32(16 * r)})
	}
	sb.layout = streamLayout(last, so.Stride)
	flags := uint32(command.StreamOutEnable)
	if !so.Rasterize {
		flags |= command.StreamOutNoRasterizer
	}
	return []command.Command{b, command.SetStreamOut{Flags: flags}}
}

// topologyOf returns the command topology of an object.
func topologyOf(obj *scene.Object) command.Topology {
	switch obj.Topology {
	case scene.TopologyPoints:
		return command.PointList
	case scene.TopologyTrianglesAdj:
		return command.TriangleListAdj
	}
	return command.TriangleList
}

// adjacencyIndices returns the mesh's triangles with adjacency (six indices
// each, 32-bit): the vertex across each edge from the triangle that shares
// it, matched by vertex position (so that texture seams do not split
// neighbours), or the triangle's own opposite vertex on a boundary.
func adjacencyIndices(m *mesh.Mesh) []byte {
	type edge [2][3]float32
	pos := func(i uint32) [3]float32 { p := m.Positions[i]; return [3]float32{p[0], p[1], p[2]} }
	third := map[edge]uint32{}
	tris := len(m.Indices) / 3
	for t := 0; t < tris; t++ {
		v := m.Indices[3*t : 3*t+3]
		for k := 0; k < 3; k++ {
			e := edge{pos(v[k]), pos(v[(k+1)%3])}
			if _, dup := third[e]; !dup {
				third[e] = v[(k+2)%3]
			}
		}
	}
	var b []byte
	for t := 0; t < tris; t++ {
		v := m.Indices[3*t : 3*t+3]
		for k := 0; k < 3; k++ {
			adj, ok := third[edge{pos(v[(k+1)%3]), pos(v[k])}]
			if !ok {
				adj = v[(k+2)%3]
			}
			b = binary.LittleEndian.AppendUint32(b, v[k])
			b = binary.LittleEndian.AppendUint32(b, adj)
		}
	}
	return b
}

// adjacencyBuffer uploads (once per mesh) the adjacency index buffer of mesh i.
func (e *encoder) adjacencyBuffer(i int) (command.BindIndexBuffer, uint32) {
	if e.adjBufs == nil {
		e.adjBufs = map[int]command.BindIndexBuffer{}
	}
	b, ok := e.adjBufs[i]
	if !ok {
		ib := adjacencyIndices(e.s.Meshes[i])
		b = command.BindIndexBuffer{Addr: e.mem.Put(ib, 256), Format: 32, Size: uint32(len(ib))}
		e.adjBufs[i] = b
	}
	return b, b.Size / 4
}

// drawObject emits the vertex input and the draw of an object: its mesh
// (indexed triangles or triangles with adjacency, or its vertices as
// points), or with DrawAuto what its buffer's last stream-out wrote. It
// returns the triangles it counts (0 unless the mesh's triangles are drawn).
func (e *encoder) drawObject(obj *scene.Object, last *drawState) int {
	topo := topologyOf(obj)
	if obj.DrawAuto > 0 {
		sb := &e.streamBufs[obj.DrawAuto-1]
		e.cmd.Append(sb.layout)
		e.cmd.Append(command.BindVertexBuffer{Addr: sb.addr, Size: sb.size})
		last.mesh = -1
		e.setTopology(topo, last)
		e.cmd.Append(command.DrawAuto{FilledAddr: sb.filled})
		return 0
	}
	mb := &e.meshBufs[obj.Mesh]
	if !last.valid || obj.Mesh != last.mesh || last.adjacency {
		e.cmd.Append(mb.layout)
		e.cmd.Append(mb.vb)
		e.cmd.Append(mb.ib)
		last.adjacency = false
	}
	last.mesh = obj.Mesh
	e.setTopology(topo, last)
	switch obj.Topology {
	case scene.TopologyPoints:
		e.cmd.Append(command.Draw{VertexCount: uint32(len(e.s.Meshes[obj.Mesh].Positions))})
		return 0
	case scene.TopologyTrianglesAdj:
		ib, n := e.adjacencyBuffer(obj.Mesh)
		e.cmd.Append(ib)
		last.adjacency = true
		e.cmd.Append(command.DrawIndexed{IndexCount: n})
		return 0
	}
	e.cmd.Append(command.DrawIndexed{IndexCount: mb.count})
	return int(mb.count / 3)
}

func (e *encoder) setTopology(t command.Topology, last *drawState) {
	if !last.valid || !last.topologySet || t != last.topology {
		e.cmd.Append(command.SetTopology{Topology: t})
		last.topology, last.topologySet = t, true
	}
}
