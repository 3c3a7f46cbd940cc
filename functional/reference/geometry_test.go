package reference_test

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/functional/shader"
)

// gsRig builds small command streams around a geometry shader: points (or
// other primitives) whose positions are the vertex buffer, a pass-through
// vertex shader, a stream-out buffer that captures o0 of every output vertex.
type gsRig struct {
	t   *testing.T
	mem *command.Image
	enc command.Encoder
}

func newGSRig(t *testing.T) *gsRig {
	r := &gsRig{t: t, mem: command.NewImage()}
	rt := r.mem.Alloc(16*16*4, 256)
	r.enc.Append(command.SetColorTarget{Slot: 0, Target: command.Target{Addr: rt, Width: 16, Height: 16, Samples: 1, TileW: 8, TileH: 8}})
	r.enc.Append(command.SetViewport{Viewport: geom.Viewport{Width: 16, Height: 16, MaxZ: 1}})
	r.enc.Append(command.SetRaster{CullMode: uint32(geom.CullNone)})
	r.bind(command.VertexStage, ".vs\n.input v0 position\n.output o0 position\nmov o0, v0\n")
	r.bind(command.PixelStage, ".ps\n.output o0 color\n.def c0 1 1 1 1\nmov o0, c0\n")
	return r
}

func (r *gsRig) bind(stage command.Stage, src string) {
	r.t.Helper()
	p, err := shader.Assemble("t.gsa", []byte(src))
	if err != nil {
		r.t.Fatal(err)
	}
	b := p.Encode()
	r.enc.Append(command.BindShader{Stage: stage, Addr: r.mem.Put(b, 16), Size: uint32(len(b))})
	if consts := p.InitConstants(nil); len(consts) > 0 {
		var cb []byte
		for _, v := range consts {
			for _, x := range v {
				cb = binary.LittleEndian.AppendUint32(cb, math.Float32bits(x))
			}
		}
		r.enc.Append(command.SetConstants{Stage: stage, Count: uint32(len(consts)), Addr: r.mem.Put(cb, 16)})
	}
}

// vertices uploads positions (x, y, z, w) as a vertex buffer of 16-byte vertices.
func (r *gsRig) vertices(pos ...[4]float32) {
	var b []byte
	for _, p := range pos {
		for _, x := range p {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	r.enc.Append(command.SetInputLayout{Stride: 16, Attributes: []command.Attribute{{Semantic: command.SemPosition, Components: 4}}})
	r.enc.Append(command.BindVertexBuffer{Addr: r.mem.Put(b, 16), Size: uint32(len(b))})
}

// indices16 binds a 16-bit index buffer of idx and returns their number.
func (r *gsRig) indices16(idx ...uint16) uint32 {
	var ib []byte
	for _, i := range idx {
		ib = binary.LittleEndian.AppendUint16(ib, i)
	}
	r.enc.Append(command.BindIndexBuffer{Addr: r.mem.Put(ib, 16), Format: 16, Size: uint32(len(ib))})
	return uint32(len(idx))
}

// row binds n vertices (i, y, 0, 1), i = 0..n-1, and returns them.
func (r *gsRig) row(n int, y float32) [][4]float32 {
	pos := make([][4]float32, n)
	for i := range pos {
		pos[i] = [4]float32{float32(i), y, 0, 1}
	}
	r.vertices(pos...)
	return pos
}

// streamOut binds a buffer of size bytes capturing o0 (16-byte vertices) and
// returns its address and its counter's.
func (r *gsRig) streamOut(slot, size uint32, rasterize bool) (addr, filled uint64) {
	addr, filled = r.mem.Alloc(uint64(size), 16), r.mem.Alloc(4, 4)
	r.enc.Append(command.BindStreamOut{Slot: slot, Addr: addr, Size: size, Stride: 16, FilledAddr: filled,
		Elements: []command.StreamOutElement{{Register: 0, Components: 4}}})
	flags := uint32(command.StreamOutEnable)
	if !rasterize {
		flags |= command.StreamOutNoRasterizer
	}
	r.enc.Append(command.SetStreamOut{Flags: flags})
	return addr, filled
}

func (r *gsRig) render() (*reference.Result, error) {
	r.enc.Append(command.End{})
	stream := r.mem.Put(r.enc.Bytes(), 4)
	return reference.Render(r.mem, stream, uint64(r.enc.Len()), reference.DefaultOptions())
}

// vec4s reads n vec4s at addr.
func (r *gsRig) vec4s(addr uint64, n int) [][4]float32 {
	out := make([][4]float32, n)
	for i := range out {
		for c := range out[i] {
			out[i][c] = command.ReadF32(r.mem, addr+uint64(16*i+4*c))
		}
	}
	return out
}

// draw draws with topology and the draw command d and renders the frame (an
// error ends the test).
func (r *gsRig) draw(t *testing.T, topology command.Topology, d command.Command) *reference.Result {
	t.Helper()
	r.enc.Append(command.SetTopology{Topology: topology})
	r.enc.Append(d)
	res, err := r.render()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A point's GS emits a strip of 2 vertices (too short for a triangle), cuts,
// then a strip of 4 (two triangles: D3D's order (v0, v1, v2), (v1, v3, v2),
// the odd one leading with v1): 2 triangles per point, streamed out in API
// order.
func TestGeometryShaderStripCutting(t *testing.T) {
	r := newGSRig(t)
	r.vertices([4]float32{10, 0, 0, 1}, [4]float32{20, 0, 0, 1})
	r.bind(command.GeometryStage, `.gs
.input_primitive point
.output_topology triangle_strip
.max_vertices 6
.input v0 position 0
.output o0 position
.def c0 1 0 0 0
mov o0, v0
emit
add r0, v0, c0
mov o0, r0
emit
cut
`+strings.Repeat("add r0, r0, c0\nmov o0, r0\nemit\n", 4))
	buf, filled := r.streamOut(0, 1024, false)
	res := r.draw(t, command.PointList, command.Draw{VertexCount: 2})
	c := res.Counters
	if c.GSInvocations != 2 || c.GSEmits != 12 || c.GSPrimitives != 4 || c.SOPrimitivesWritten != 4 || c.SOPrimitivesNeeded != 4 {
		t.Errorf("counters: %d invocations, %d emits, %d primitives, SO %d/%d", c.GSInvocations, c.GSEmits, c.GSPrimitives,
			c.SOPrimitivesWritten, c.SOPrimitivesNeeded)
	}
	if got := command.ReadU32(r.mem, filled); got != 4*3*16 {
		t.Errorf("filled size %d, want %d", got, 4*3*16)
	}
	v := func(x float32) [4]float32 { return [4]float32{x, 0, 0, 1} }
	want := [][4]float32{v(12), v(13), v(14), v(13), v(15), v(14), v(22), v(23), v(24), v(23), v(25), v(24)}
	if got := r.vec4s(buf, 12); !slices.Equal(got, want) {
		t.Errorf("streamed\n%v\nwant\n%v", got, want)
	}
}

// emitc culls: only points with x >= 15 emit (their primitive ID in y),
// and the emits past .max_vertices are dropped and counted.
func TestGeometryShaderCullingAndOverflow(t *testing.T) {
	r := newGSRig(t)
	r.vertices([4]float32{10, 0, 0, 1}, [4]float32{20, 0, 0, 1}, [4]float32{5, 0, 0, 1}, [4]float32{30, 0, 0, 1})
	r.bind(command.GeometryStage, `.gs
.input_primitive point
.output_topology point
.max_vertices 2
.input v0 position 0
.input v1 sv_primitiveid
.output o0 position
.def c0 -15 0 0 0
add r0, v0.x, c0
mov o0, v0
mov o0.y, v1
emitc r0.x
emitc r0.x
emitc r0.x
`)
	buf, _ := r.streamOut(0, 1024, false)
	res := r.draw(t, command.PointList, command.Draw{VertexCount: 4})
	c := res.Counters
	if c.GSEmits != 6 || c.GSEmitsDropped != 2 || c.GSPrimitives != 4 {
		t.Errorf("%d emits, %d dropped, %d primitives; want 6, 2, 4", c.GSEmits, c.GSEmitsDropped, c.GSPrimitives)
	}
	want := [][4]float32{{20, 1, 0, 1}, {20, 1, 0, 1}, {30, 3, 0, 1}, {30, 3, 0, 1}}
	if got := r.vec4s(buf, 4); !slices.Equal(got, want) {
		t.Errorf("streamed %v, want %v", got, want)
	}
}

// A shader whose unconditional emits exceed .max_vertices does not assemble.
func TestGeometryShaderMaxVerticesAtCompileTime(t *testing.T) {
	_, err := shader.Assemble("over.gsa", []byte(".gs\n.input_primitive point\n.output_topology point\n.max_vertices 1\n"+
		".input v0 position 0\n.output o0 position\nmov o0, v0\nemit\nemit\n"))
	want := "over.gsa:9: emit beyond .max_vertices 1: every invocation reaches this emit (vertex 2)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// Triangles with adjacency: the GS sees all six vertices in D3D's order and
// emits the three adjacent ones (1, 3, 5) as a triangle.
func TestGeometryShaderAdjacency(t *testing.T) {
	r := newGSRig(t)
	r.row(6, 0)
	r.indices16(0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0)
	r.bind(command.GeometryStage, `.gs
.input_primitive triangle_adj
.output_topology triangle_strip
.max_vertices 3
.input v0 position 1
.input v1 position 3
.input v2 position 5
.output o0 position
mov o0, v0
emit
mov o0, v1
emit
mov o0, v2
emit
`)
	buf, _ := r.streamOut(0, 1024, false)
	res := r.draw(t, command.TriangleListAdj, command.DrawIndexed{IndexCount: 12})
	v := func(x float32) [4]float32 { return [4]float32{x, 0, 0, 1} }
	want := [][4]float32{v(1), v(3), v(5), v(4), v(2), v(0)}
	if got := r.vec4s(buf, 6); !slices.Equal(got, want) || res.Counters.GSInvocations != 2 {
		t.Errorf("streamed %v (%d invocations), want %v", got, res.Counters.GSInvocations, want)
	}
}

// Stream-out overflow (D3D11): a buffer with room for 2 of 3 triangles gets
// 2, primitives needed counts 3, the filled size stops at 2 triangles and
// the statistics in memory say so. DrawAuto then draws the 6 vertices the
// counter says, as points streamed into a second buffer.
func TestStreamOutOverflowAndDrawAuto(t *testing.T) {
	r := newGSRig(t)
	pos := r.row(9, 1)
	stats := r.mem.Alloc(8, 4)
	buf, filled := r.streamOut(0, 2*3*16+8, false)
	r.enc.Append(command.SetStreamOut{Flags: command.StreamOutEnable | command.StreamOutNoRasterizer, StatsAddr: stats})
	r.enc.Append(command.SetTopology{Topology: command.TriangleList})
	r.enc.Append(command.Draw{VertexCount: 9})
	// Second pass: DrawAuto over buf as points, streamed into buf2.
	r.enc.Append(command.BindVertexBuffer{Addr: buf, Size: 2*3*16 + 8})
	r.enc.Append(command.SetTopology{Topology: command.PointList})
	buf2, filled2 := r.streamOut(0, 1024, false)
	r.enc.Append(command.DrawAuto{FilledAddr: filled})
	res, err := r.render()
	if err != nil {
		t.Fatal(err)
	}
	c := res.Counters
	if c.SOPrimitivesWritten != 2+6 || c.SOPrimitivesNeeded != 3+6 {
		t.Errorf("SO written %d needed %d, want 8 and 9", c.SOPrimitivesWritten, c.SOPrimitivesNeeded)
	}
	if w, n := command.ReadU32(r.mem, stats), command.ReadU32(r.mem, stats+4); w != 2 || n != 3 {
		t.Errorf("statistics in memory: written %d, needed %d; want 2, 3", w, n)
	}
	if got := command.ReadU32(r.mem, filled); got != 96 {
		t.Errorf("filled %d, want 96", got)
	}
	if got := command.ReadU32(r.mem, filled2); got != 96 {
		t.Errorf("DrawAuto's stream-out filled %d, want 96 (6 vertices)", got)
	}
	if got, want := r.vec4s(buf2, 6), pos[:6]; !slices.Equal(got, want) {
		t.Errorf("DrawAuto streamed %v, want %v", got, want)
	}
}

func TestDrawAutoWithoutStreamOut(t *testing.T) {
	r := newGSRig(t)
	r.vertices([4]float32{0, 0, 0, 1})
	r.enc.Append(command.Draw{VertexCount: 3})
	r.enc.Append(command.DrawAuto{FilledAddr: r.mem.Alloc(4, 4)})
	_, err := r.render()
	if err == nil || !strings.Contains(err.Error(), "DrawAuto (draw 1) without a preceding stream-out") {
		t.Errorf("got %v", err)
	}
}

// Points cannot be rasterized: a point draw needs stream-out with the
// rasterizer off.
func TestPointsNeedStreamOut(t *testing.T) {
	r := newGSRig(t)
	r.vertices([4]float32{0, 0, 0, 1})
	r.enc.Append(command.SetTopology{Topology: command.PointList})
	r.enc.Append(command.Draw{VertexCount: 1})
	_, err := r.render()
	if err == nil || !strings.Contains(err.Error(), "draw 0 sends point primitives to the rasterizer") {
		t.Errorf("got %v", err)
	}
}

// The geometry-stage built-ins, with the counts their geometry shaders
// must give: grass amplifies each of its 1152 terrain triangles into itself
// and a blade; the particle system's three sources each spawn a particle per
// step, and at frame 0 nine steps (the seed pass and 2*4 ping-pong passes)
// leave 3 + 3*9 particles, all younger than their lifetime, of which the
// sprite pass draws the 27 spawned ones as 2 triangles each.
func TestGeometryBuiltins(t *testing.T) {
	g := render(t, builtin(t, "grass", 64, 36, 1), reference.DefaultOptions()).Counters
	if g.GSInvocations != 1152 || g.GSEmits != 6*1152 || g.GSPrimitives != 2*1152 || g.GSEmitsDropped != 0 {
		t.Errorf("grass: %d invocations, %d emits, %d primitives", g.GSInvocations, g.GSEmits, g.GSPrimitives)
	}
	p := render(t, builtin(t, "particles", 64, 36, 1), reference.DefaultOptions()).Counters
	// Steps: 3 sources -> 6 vertices, then 6, 9, ..., 27 in: SO written 6 + 9 + ... + 30.
	written := 0
	for k := 1; k <= 9; k++ {
		written += 3 + 3*k
	}
	if p.SOPrimitivesWritten != written || p.SOPrimitivesNeeded != written {
		t.Errorf("particles: SO written %d needed %d, want %d", p.SOPrimitivesWritten, p.SOPrimitivesNeeded, written)
	}
	// The sprite pass: 30 points in, the 27 spawned particles out as quads.
	if p.GSPrimitives-written != 2*27 {
		t.Errorf("particles: %d sprite triangles, want %d", p.GSPrimitives-written, 2*27)
	}
}

// An indexed triangle strip with cut indices: the geometry shader sees D3D's
// triangles, (0,1,2), (1,3,2), then each strip after a cut starting even
// again, and SV_PrimitiveID counts the primitives made (a strip too short
// for a triangle, and the cuts, take no number). Each triangle streams out
// one point (its primitive ID, then its vertices' x).
func TestStripCutPrimitiveIDs(t *testing.T) {
	r := newGSRig(t)
	r.row(13, 0)
	n := r.indices16(0, 1, 2, 3, 0xFFFF, 4, 5, 0xFFFF, 6, 7, 8, 0xFFFF, 0xFFFF, 9, 10, 11, 12)
	r.bind(command.GeometryStage, `.gs
.input_primitive triangle
.output_topology point
.max_vertices 1
.input v0 position 0
.input v1 position 1
.input v2 position 2
.input v3 sv_primitiveid
.output o0 position
mov o0.x, v3.x
mov o0.y, v0.x
mov o0.z, v1.x
mov o0.w, v2.x
emit
`)
	buf, _ := r.streamOut(0, 1024, false)
	res := r.draw(t, command.TriangleStrip, command.DrawIndexed{IndexCount: n})
	want := [][4]float32{{0, 0, 1, 2}, {1, 1, 3, 2}, {2, 6, 7, 8}, {3, 9, 10, 11}, {4, 10, 12, 11}}
	if c := res.Counters; c.GSInvocations != len(want) || c.SOPrimitivesWritten != len(want) || c.VSInvocations != 11 {
		t.Errorf("%d GS invocations, %d points streamed out, %d vertices shaded; want %d, %d, 11 (not 4 and 5: their strip is too short)",
			c.GSInvocations, c.SOPrimitivesWritten, c.VSInvocations, len(want), len(want))
	}
	if got := r.vec4s(buf, len(want)); !slices.Equal(got, want) {
		t.Errorf("streamed\n%v\nwant\n%v", got, want)
	}
}
