package shadercore_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/shadercore"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/functional/vertex"
)

// fanGS emits its input triangle's first vertex and a copy moved by c0 as a
// 2-vertex line strip: .max_vertices 2 of one output register, 32 bytes of
// output buffer per lane.
const fanGS = `.gs
.input_primitive triangle
.output_topology line_strip
.max_vertices 2
.input v0 position 0
.output o0 position
.def c0 0.5 0 0 0
mov o0, v0
emit
add o0, v0, c0
emit
`

// gsBatch is a shaded batch of n triangles (vertex 3i+k at x = i, y = k)
// of a draw with fanGS.
func gsBatch(t *testing.T, n int) *protocol.ShadedBatch {
	t.Helper()
	gs, err := shader.Assemble("fan.gs.gsa", []byte(fanGS))
	if err != nil {
		t.Fatal(err)
	}
	d := &protocol.Draw{State: &state.Draw{VS: &shader.Program{}, PS: &shader.Program{}, GS: gs, GSInputs: []int{0}}}
	b := &vertex.Batch{}
	var out []pipeline.VertexOut
	for i := 0; i < n; i++ {
		var tri [3]uint8
		for k := range tri {
			tri[k] = uint8(len(out) % 256)
			var v pipeline.VertexOut
			v[0] = geom.Vec4{float32(i), float32(k), 0, 1}
			out = append(out, v)
			b.Vertices = append(b.Vertices, uint32(len(b.Vertices)))
		}
		b.Triangles = append(b.Triangles, tri)
	}
	return protocol.NewShadedBatch(d, 0, b, out)
}

// TestGeometryWarpsShareTheOutputBuffer: two GS warps of 64 primitives
// (2048 bytes of output buffer each) on a core with a 3 KiB buffer run one
// after the other: the second waits at admission for the first's output to
// leave (counted), and both outputs are the functional geometry stage's.
func TestGeometryWarpsShareTheOutputBuffer(t *testing.T) {
	e := sim.NewSerialEngine()
	r, pa := newGSRig(t, e, 3072)
	sb := gsBatch(t, 128)
	for k := 0; k < 2; k++ {
		pa.Script = append(pa.Script, testpeer.Scripted{Msg: protocol.NewGeometryWarp(sb, k, 64*k, 64, 0)})
	}
	testpeer.Run(t, e, pa)
	if err := r.halt.Reason(); err != nil {
		t.Fatal(err)
	}
	var want pipeline.GeometryOutput
	want.Reset(2)
	if _, err := pipeline.ShadeGeometry(sb.Draw.State, sb.Batch, 0, sb.Outputs, shader.NewWarp(shader.MaxLanes), nil, &want); err != nil {
		t.Fatal(err)
	}
	if len(r.pa.got) != 2 {
		t.Fatalf("%d outputs, want 2", len(r.pa.got))
	}
	var got pipeline.GeometryOutput
	for k, m := range r.pa.got {
		sg := m.(*protocol.ShadedGeometry)
		if sg.Warp.Warp != k {
			t.Errorf("output %d is warp %d's", k, sg.Warp.Warp)
		}
		base := int32(len(got.Verts))
		got.Verts = append(got.Verts, sg.Out.Verts...)
		for _, p := range sg.Out.Prims {
			got.Prims = append(got.Prims, [3]int32{p[0] + base, p[1] + base})
		}
	}
	if !reflect.DeepEqual(got.Verts, want.Verts) || !reflect.DeepEqual(got.Prims, want.Prims) || len(want.Prims) != 128 {
		t.Errorf("GS output differs from pipeline.ShadeGeometry's (%d and %d primitives)", len(got.Prims), len(want.Prims))
	}
	st := testpeer.StatMap(r.core)
	for k, v := range map[string]float64{
		"gs_warps": 2, "gs_invocations": 128, "gs_emits": 256, "gs_max_output_buffer_bytes": 2048,
		"gs_instructions": 8, "gs_lane_instructions": 512, "vertex_warps": 0,
	} {
		if got := st["GPU.ShaderCore[0]."+k]; got != v {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	// The second warp, sent at cycle 1, is seen by the core at 2 and waits
	// until the first warp's output is sent at 29 (taken by the sink at
	// 30), which frees its bytes: it is admitted in that same tick.
	if b := st["GPU.ShaderCore[0].gs_admit_blocked_output_buffer_cycles"]; b != 27 || pa.Sent[1] != 1 || r.pa.at[0] != 30 {
		t.Errorf("gs_admit_blocked_output_buffer_cycles = %v, second warp sent at %d, first output taken at %d; want 27, 1, 30",
			b, pa.Sent[1], r.pa.at[0])
	}
}

// TestGeometryWarpTooLargeForTheBuffer: a GS warp that needs more than the
// whole output buffer stops the run with an error naming the field.
func TestGeometryWarpTooLargeForTheBuffer(t *testing.T) {
	e := sim.NewSerialEngine()
	r, pa := newGSRig(t, e, 1024)
	sb := gsBatch(t, 64)
	pa.Script = []testpeer.Scripted{{Msg: protocol.NewGeometryWarp(sb, 0, 0, 64, 0)}}
	testpeer.Run(t, e, pa)
	err := r.halt.Reason()
	if err == nil || !strings.Contains(err.Error(), "needs 2048 bytes of output buffer") || !strings.Contains(err.Error(), "shader_core.gs_output_buffer_kb") {
		t.Errorf("got %v, want an error naming the 2048 bytes and shader_core.gs_output_buffer_kb", err)
	}
}

// newGSRig is the rig of a core with a GS output buffer of bufBytes, and a
// dispatcher playing primitive assembly that sends GS warps to the core.
func newGSRig(t *testing.T, e sim.Engine, bufBytes int) (*rig, *dispatcher) {
	t.Helper()
	r := newRig(t, e, testpeer.Edit(shadercore.DefaultConfig(), func(c *shadercore.Config) { c.GSOutputBuffer = bufBytes }), 1, 4)
	pa := newDispatcher(e, "PAFake")
	r.conn.PlugIn(pa.Out, 1)
	pa.Dst = r.core.ToPrimitiveAssembly
	return r, pa
}
