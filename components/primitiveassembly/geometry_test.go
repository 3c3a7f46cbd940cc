package primitiveassembly

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/timing"
)

// passGS re-emits its input triangle as a 3-vertex strip.
const passGS = `.gs
.input_primitive triangle
.output_topology triangle_strip
.max_vertices 3
.input v0 position 0
.input v1 position 1
.input v2 position 2
.output o0 position
mov o0, v0
emit
mov o0, v1
emit
mov o0, v2
emit
`

// gsDraw is testpeer.TestDraw with the pass-through geometry shader reading the
// vertex shader's output 0.
func gsDraw(t *testing.T, w, h int) *protocol.Draw {
	t.Helper()
	gs, err := shader.Assemble("pass.gs.gsa", []byte(passGS))
	if err != nil {
		t.Fatal(err)
	}
	d := testpeer.TestDraw(0, w, h, geom.CullNone)
	d.State.GS, d.State.GSInputs = gs, []int{0, 0, 0}
	return d
}

// shadeGS runs warp k of batch sb's geometry shader functionally (what a
// shader core sends back).
func shadeGS(sb *protocol.ShadedBatch, k int) *protocol.ShadedGeometry {
	np := sb.Batch.NumPrimitives()
	first := k * shader.MaxLanes
	n := min(np-first, shader.MaxLanes)
	gw := protocol.NewGeometryWarp(sb, k, first, n, sb.Batch.FirstTriangle)
	d := sb.Draw.State
	w := shader.NewWarp(shader.MaxLanes)
	pipeline.LoadPrimitives(d, sb.Batch, first, n, gw.PrimitiveID, sb.Outputs, w)
	w.Run(nil)
	out := &pipeline.GeometryOutput{}
	out.Reset(3)
	for lane := 0; lane < n; lane++ {
		pipeline.AssembleEmitted(w, lane, d.GS.Geometry.Output, out)
	}
	return protocol.NewShadedGeometry(gw, out, 1)
}

// TestGeometryWarpsReorderedInAPIOrder: a batch of 130 triangles of a draw
// with a geometry shader is sent as three GS warps (invocations from 0, 64
// and 128: 64, 64 and 2 primitives, the batch's first primitive ID 0 in
// each) to the cores; their outputs come
// back out of order (warp 2 at cycle 40, warp 0 at 60, warp 1 at 300), and
// the primitives still reach the rasterizer in API order, equal to the
// functional geometry stage's (pipeline.ShadeGeometry, then Triangle).
func TestGeometryWarpsReorderedInAPIOrder(t *testing.T) {
	d := gsDraw(t, 512, 64)
	var tris [][3][3]float32
	for i := 0; i < 130; i++ {
		x := float32(i%64) * 8
		y := float32(i/64) * 20
		tris = append(tris, [3][3]float32{{x, y + 1, 0.5}, {x + 6, y + 1, 0.5}, {x, y + 7, 0.5}})
	}
	sb := batchOf(d, 0, 0, tris...)

	// The reference: the functional geometry stage in order.
	var want pipeline.GeometryOutput
	want.Reset(3)
	if _, err := pipeline.ShadeGeometry(d.State, sb.Batch, 0, sb.Outputs, shader.NewWarp(shader.MaxLanes), nil, &want); err != nil {
		t.Fatal(err)
	}
	g := pipeline.NewGeometry(d.State, &d.Raster)
	var wantPrims []pipeline.Primitive
	var wantSt pipeline.GeometryStats
	for i := range want.Prims {
		wantPrims = g.Triangle(i, want.Vertices(i), wantPrims, &wantSt)
	}

	r := newRig(t, MakeBuilder(), 1)
	r.pa.ShaderCores = []sim.Port{r.core.Port}
	r.core.Script = []scripted{
		{At: 0, Msg: sb, Dst: r.pa.FromShaderCores},
		{At: 40, Msg: shadeGS(sb, 2), Dst: r.pa.FromShaderCores},
		{At: 60, Msg: shadeGS(sb, 0), Dst: r.pa.FromShaderCores},
		{At: 300, Msg: shadeGS(sb, 1), Dst: r.pa.FromShaderCores},
	}
	r.ia.Script = []scripted{{At: 0, Msg: protocol.NewBatchInfo(d, 1), Dst: r.pa.InputAssembler}}
	r.run(t)
	r.checkDrained(t)

	// The GS warps the cores were sent.
	var warps [][3]int
	for _, got := range r.core.Got {
		if w, ok := got.Msg.(*protocol.GeometryWarp); ok {
			if w.Batch != sb {
				t.Errorf("GS warp %d names another batch", w.Warp)
			}
			warps = append(warps, [3]int{w.First, w.Lanes, w.PrimitiveID})
		}
	}
	if wantWarps := [][3]int{{0, 64, 0}, {64, 64, 0}, {128, 2, 0}}; !reflect.DeepEqual(warps, wantWarps) {
		t.Errorf("GS warps (first, lanes, primitive ID) %v, want %v", warps, wantWarps)
	}

	// The primitives, in API order, equal to the functional stage's.
	var got []*protocol.PrimitiveMsg
	var cycles []uint64
	for _, m := range r.rasts[0].Got {
		if p, ok := m.Msg.(*protocol.PrimitiveMsg); ok {
			got = append(got, p)
			cycles = append(cycles, m.Cycle)
		}
	}
	if len(got) != len(wantPrims) || len(got) != 130 {
		t.Fatalf("%d primitives sent, want %d (130)", len(got), len(wantPrims))
	}
	for i, p := range got {
		if p.Index != uint64(i) || !reflect.DeepEqual(*p.Prim, wantPrims[i]) {
			t.Fatalf("primitive %d (index %d) differs from the functional geometry stage's", i, p.Index)
		}
	}
	// Warp 0, sent at 60, is received at 61 and read back from 62 (one
	// primitive per cycle, setup latency 20, sent the cycle after): its
	// first primitive leaves at 83, its last at 146. Warp 1 is received at
	// 301: its first primitive leaves at 323, and warp 2's two, held since
	// cycle 41, follow warp 1's 64.
	if first, last, w1, w2 := cycles[0], cycles[63], cycles[64], cycles[128]; first != 83 || last != 146 || w1 != 323 || w2 != 387 {
		t.Errorf("primitives 0, 63, 64, 128 sent at %d, %d, %d, %d; want 83, 146, 323, 387", first, last, w1, w2)
	}
	st := testpeer.StatMap(r.pa)
	for k, v := range map[string]float64{
		"gs_warps_sent": 3, "gs_warps_returned": 3, "gs_warps_reordered": 1, "gs_primitives": 130,
		"triangles": 130, "set_up": 130, "batches": 1, "draws": 1,
		// Waiting for warp 0 from cycle 2 to 61 (60 cycles), and for warp 1
		// from 147 (warp 0's primitives have left the setup pipeline) to
		// 301 (155).
		"cycles_wait_gs_warp": 215,
	} {
		if got := st["GPU.PrimitiveAssembly."+k]; got != v {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
}

// TestSkipStreamOut: an empty chunk of a streaming draw whose BatchInfo says
// SkipStreamOut (another SAGE pipe streams it out) ends without touching the
// stream-out buffers or counters: no memory is needed, nothing is written,
// and its DrawEnd follows. Without the flag the same draw needs the memory
// image (the error names SetMemory).
func TestSkipStreamOut(t *testing.T) {
	for _, skip := range []bool{true, false} {
		d := testpeer.TestDraw(0, 64, 64, geom.CullNone)
		d.State.StreamOut = &state.StreamOut{Rasterize: true,
			Buffers: []state.StreamOutBuffer{{Addr: 0x20000, Size: 256, Stride: 16, FilledAddr: 0x30000}}}
		r := newRig(t, MakeBuilder().WithEnv(timing.Env{Halt: &timing.Halt{}}), 1)
		bi := protocol.NewBatchInfo(d, 0)
		bi.SkipStreamOut = skip
		r.ia.Script = []scripted{{At: 0, Msg: bi, Dst: r.pa.InputAssembler}}
		r.run(t)
		if !skip {
			if err := r.pa.Err(); err == nil || !strings.Contains(err.Error(), "SetMemory") {
				t.Errorf("without SkipStreamOut: error %v, want one naming SetMemory", err)
			}
			continue
		}
		if err := r.pa.Err(); err != nil {
			t.Fatal(err)
		}
		r.checkDrained(t)
		if ends := sends[*protocol.DrawEnd](r.rasts[0]); len(ends) != 1 {
			t.Errorf("%d DrawEnd sent, want 1", len(ends))
		}
		st := testpeer.StatMap(r.pa)
		for _, k := range []string{"so_write_requests", "so_write_bytes", "so_primitives_written", "so_primitives_needed"} {
			if got := st["GPU.PrimitiveAssembly."+k]; got != 0 {
				t.Errorf("%s = %v, want 0", k, got)
			}
		}
	}
}
