package primitiveassembly

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/timing"
)

// geoYAML: testpeer.GeoScene on a 96x64 target.
var geoYAML = testpeer.GeoScene(96, 64)

// sends returns the cycles at which messages of type T were sent to f.
func sends[T sim.Msg](f *fake) []uint64 {
	var out []uint64
	for _, g := range f.Got {
		if _, ok := g.Msg.(T); ok {
			out = append(out, g.Cycle)
		}
	}
	return out
}

// TestTimingPinned pins the cycle of every message for a 3-triangle batch,
// computed by hand from the documented timing (package doc, "Timing").
func TestTimingPinned(t *testing.T) {
	d := testpeer.TestDraw(0, 64, 32, geom.CullNone)
	small := func(x float32) [3][3]float32 { return [3][3]float32{{x, 1, 0.5}, {x + 4, 1, 0.5}, {x, 5, 0.5}} }
	nearCut := [3][3]float32{{20, 1, -0.5}, {24, 1, 0.5}, {20, 5, 0.5}} // vertex 0 behind the near plane
	tests := []struct {
		name       string
		tris       [][3][3]float32
		prims      []uint64 // PrimitiveMsg send cycles
		end        uint64   // DrawEnd send cycle
		credit     uint64
		clipped    int
		clipOutput int
		ticks      []uint64 // the unit sleeps while setup is in flight
	}{
		// Received at cycle 1; triangles assembled at cycles 2, 3, 4; setup
		// latency 20: distributed at 22, 23, 24 and sent one cycle later. The
		// batch is done at cycle 4 (credit sent at 5); the end marker enters
		// setup at 5, is distributed at 25 and sent at 26.
		{"plain", [][3][3]float32{small(1), small(9), small(17)}, []uint64{23, 24, 25}, 26, 5, 0, 0,
			[]uint64{1, 2, 3, 4, 5, 6, 22, 23, 24, 25, 26, 27}},
		// Triangle 1 is clipped at cycle 3 into two primitives; it leaves the
		// clipper at 3+8 = 11 into setup (distributed at 31 and 32, one
		// primitive per cycle). Triangle 2 is assembled at 12 (ready at 32,
		// distributed at 33). The credit goes at 13, the end marker enters setup
		// at 13 (ready at 33) and is distributed at 34.
		{"clipped", [][3][3]float32{small(1), nearCut, small(33)}, []uint64{23, 32, 33, 34}, 35, 13, 1, 2,
			[]uint64{1, 2, 3, 4, 11, 12, 13, 14, 22, 23, 24, 31, 32, 33, 34, 35, 36}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, MakeBuilder(), 1)
			r.core.Script = []scripted{{At: 0, Msg: batchOf(d, 0, 0, tc.tris...), Dst: r.pa.FromShaderCores}}
			r.ia.Script = []scripted{{At: 0, Msg: protocol.NewBatchInfo(d, 1), Dst: r.pa.InputAssembler}}
			ticks := &testpeer.TickLog{Comp: r.pa.TickingComponent}
			r.e.AcceptHook(ticks)
			r.run(t)
			r.checkDrained(t)
			if !reflect.DeepEqual(ticks.Cycles, tc.ticks) {
				t.Errorf("ticked at %v, want %v", ticks.Cycles, tc.ticks)
			}
			if got := sends[*protocol.PrimitiveMsg](r.rasts[0]); !reflect.DeepEqual(got, tc.prims) {
				t.Errorf("primitives sent at %v, want %v", got, tc.prims)
			}
			if got := sends[*protocol.DrawEnd](r.rasts[0]); !reflect.DeepEqual(got, []uint64{tc.end}) {
				t.Errorf("DrawEnd sent at %v, want [%d]", got, tc.end)
			}
			if got := sends[*protocol.BatchCredit](r.ia); !reflect.DeepEqual(got, []uint64{tc.credit}) {
				t.Errorf("credits sent at %v, want [%d]", got, tc.credit)
			}
			g := r.pa.GeometryStats()
			if g.Clipped != tc.clipped || g.ClipOutput != tc.clipOutput || g.SetUp != len(tc.prims) {
				t.Errorf("geometry stats %+v, want %d clipped into %d, %d set up", g, tc.clipped, tc.clipOutput, len(tc.prims))
			}
			// Busy from the first triangle (cycle 2) to the last send, the slept
			// cycles of the setup pipeline included; idle before and after.
			act := r.pa.Activity
			if busy := act.Cycles(stateBusy); busy != tc.end-1 {
				t.Errorf("%d busy cycles, want %d", busy, tc.end-1)
			}
			if act.Cycles(stateBlockedOutput) != 0 || act.Cycles(stateWaitBatch) != 0 {
				t.Errorf("stall cycles: blocked %d, wait_batch %d", act.Cycles(stateBlockedOutput), act.Cycles(stateWaitBatch))
			}
		})
	}
}

// TestOutOfOrderBatchesAreConsumedInOrder sends the batches of two draws in a
// scrambled order (later draw first, batches reversed, the second BatchInfo
// last)
// and checks that the primitives come out in API order, equal to the
// functional geometry stage's, and that one credit comes back per batch.
func TestOutOfOrderBatchesAreConsumedInOrder(t *testing.T) {
	fr := testpeer.LoadFrame(t, geoYAML)
	if len(fr.Draws) != 2 {
		t.Fatalf("%d draws, want 2", len(fr.Draws))
	}
	var want [2][]pipeline.Primitive
	var batches [2][]*protocol.ShadedBatch
	var st pipeline.GeometryStats
	for i, d := range fr.Draws {
		batches[i] = fr.Shade(t, d)
		want[i] = testpeer.Primitives(d, batches[i], &st)
	}
	total := len(batches[0]) + len(batches[1])
	if len(batches[1]) < 3 {
		t.Fatalf("draw 1 has %d batches; the test needs several", len(batches[1]))
	}
	r := newRig(t, MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.BatchSlots = total })), 1)
	var script []scripted
	for i := 1; i >= 0; i-- {
		for j := len(batches[i]) - 1; j >= 0; j-- {
			script = append(script, scripted{At: uint64(len(script)), Msg: batches[i][j], Dst: r.pa.FromShaderCores})
		}
	}
	r.core.Script = script
	// The input assembler sends a draw's BatchInfo before it dispatches any
	// batch of the next draw, so draw 0 is known first; draw 1's count comes last.
	r.ia.Script = []scripted{
		{At: 0, Msg: protocol.NewBatchInfo(fr.Draws[0], len(batches[0])), Dst: r.pa.InputAssembler},
		{At: uint64(len(script)), Msg: protocol.NewBatchInfo(fr.Draws[1], len(batches[1])), Dst: r.pa.InputAssembler},
	}
	r.run(t)
	r.checkDrained(t)

	var got [2][]*protocol.PrimitiveMsg
	draw := 0
	for _, g := range r.rasts[0].Got {
		switch m := g.Msg.(type) {
		case *protocol.PrimitiveMsg:
			if m.Draw != fr.Draws[draw] {
				t.Fatalf("primitive of draw %d while draw %d is current", m.Draw.Seq, draw)
			}
			got[draw] = append(got[draw], m)
		case *protocol.DrawEnd:
			if m.Draw != fr.Draws[draw] || m.From != 0 {
				t.Fatalf("DrawEnd{%d, %d} while draw %d is current", m.Draw.Seq, m.From, draw)
			}
			draw++
		}
	}
	if draw != 2 {
		t.Fatalf("%d DrawEnds, want 2", draw)
	}
	for i := range got {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("draw %d: %d primitives, want %d", i, len(got[i]), len(want[i]))
		}
		for k, m := range got[i] {
			if m.Index != uint64(k) || !reflect.DeepEqual(*m.Prim, want[i][k]) {
				t.Fatalf("draw %d primitive %d: index %d, source %d part %d; want source %d part %d",
					i, k, m.Index, m.Prim.Source, m.Prim.Part, want[i][k].Source, want[i][k].Part)
			}
		}
	}
	credits := 0
	for _, g := range r.ia.Got {
		c, ok := g.Msg.(*protocol.BatchCredit)
		if !ok || c.Slots != 1 {
			t.Fatalf("IA got %T %+v, want BatchCredit of 1 slot", g.Msg, g.Msg)
		}
		credits++
	}
	if credits != total {
		t.Errorf("%d credits returned, want one per batch (%d)", credits, total)
	}
	if r.pa.GeometryStats() != st {
		t.Errorf("geometry stats %+v, want %+v", r.pa.GeometryStats(), st)
	}
	if r.pa.Activity.Cycles(stateWaitBatch) == 0 {
		t.Error("no wait_batch cycles although batch 0 arrived last")
	}
}

// TestGeometryMatchesReference runs every draw of a scene with geometry
// crossing the near plane and back faces through primitive assembly and
// compares the clip/cull/setup counters with the reference renderer's.
func TestGeometryMatchesReference(t *testing.T) {
	fr := testpeer.LoadFrame(t, geoYAML)
	ref := testpeer.Reference(t, fr.Frame)
	want := ref.Counters.GeometryStats
	if want.Clipped == 0 || want.Culled == 0 || want.Rejected == 0 {
		t.Fatalf("scene does not exercise clipping, culling and rejection: %+v", want)
	}
	r := newRig(t, MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.BatchSlots = 4 })), 2)
	// The fake core plays the input assembler's credit discipline: at most
	// BatchSlots batches ahead, paced one per cycle; BatchInfo after the last.
	var script []scripted
	for _, d := range fr.Draws {
		for _, sb := range fr.Shade(t, d) {
			script = append(script, scripted{At: 0, Msg: sb, Dst: r.pa.FromShaderCores})
		}
		r.ia.Script = append(r.ia.Script, scripted{At: 0, Msg: protocol.NewBatchInfo(d, 0), Dst: r.pa.InputAssembler})
	}
	n := 0
	for i, d := range fr.Draws {
		cnt := 0
		for _, s := range script {
			if s.Msg.(*protocol.ShadedBatch).Draw == d {
				cnt++
			}
		}
		r.ia.Script[i].Msg = protocol.NewBatchInfo(d, cnt)
		n += cnt
	}
	r.core.Script = script
	r.run(t)
	r.checkDrained(t)
	if got := r.pa.GeometryStats(); got != want {
		t.Errorf("geometry stats %+v, want the reference's %+v", got, want)
	}
	var stats = map[string]float64{}
	r.pa.Stats(func(k string, v float64) { stats[k] = v })
	for k, v := range map[string]float64{
		"GPU.PrimitiveAssembly.triangles":        float64(want.Triangles),
		"GPU.PrimitiveAssembly.clipped":          float64(want.Clipped),
		"GPU.PrimitiveAssembly.culled":           float64(want.Culled),
		"GPU.PrimitiveAssembly.set_up":           float64(want.SetUp),
		"GPU.PrimitiveAssembly.primitives":       float64(want.SetUp),
		"GPU.PrimitiveAssembly.batches":          float64(n),
		"GPU.PrimitiveAssembly.credits_returned": float64(n),
		"GPU.PrimitiveAssembly.draws":            2,
		"GPU.PrimitiveAssembly.draw_ends":        4,
	} {
		if stats[k] != v {
			t.Errorf("%s = %v, want %v", k, stats[k], v)
		}
	}
	if stats["GPU.PrimitiveAssembly.primitives_sent_r0"] == 0 || stats["GPU.PrimitiveAssembly.primitives_sent_r1"] == 0 {
		t.Errorf("a rasterizer got no primitive: %v", stats)
	}
}

// TestPrimitivesReachOwners checks the distribution by tile ownership with 2
// and 4 rasterizers on a 64x32 target (8x4 tiles of 8x8 pixels).
func TestPrimitivesReachOwners(t *testing.T) {
	inTile := [3][3]float32{{25, 9, 0.5}, {30, 9, 0.5}, {25, 14, 0.5}}             // tile (3,1)
	twoTiles := [3][3]float32{{4, 2, 0.5}, {12, 2, 0.5}, {4, 6, 0.5}}              // tiles (0,0), (1,0)
	column := [3][3]float32{{2, 1, 0.5}, {5, 1, 0.5}, {2, 30, 0.5}}                // tiles (0,0)..(0,3)
	screen := [3][3]float32{{-100, -100, 0.5}, {300, -100, 0.5}, {-100, 300, 0.5}} // every tile
	tests := []struct {
		name   string
		n      int
		stride int
		tri    [3][3]float32
		want   []int // rasterizers that get the primitive
	}{
		{"tile/2", 2, 1, inTile, []int{0}},         // (3 + 1) mod 2
		{"tile/4", 4, 1, inTile, []int{0}},         // (3 + 1) mod 4
		{"tile/4/stride2", 4, 2, inTile, []int{1}}, // (3 + 2) mod 4
		{"two/4", 4, 1, twoTiles, []int{0, 1}},
		{"column/4/stride1", 4, 1, column, []int{0, 1, 2, 3}},
		{"column/4/stride0", 4, 0, column, []int{0}},
		{"column/2/stride2", 2, 2, column, []int{0}},
		{"screen/2", 2, 1, screen, []int{0, 1}},
		{"screen/4", 4, 1, screen, []int{0, 1, 2, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := testpeer.TestDraw(0, 64, 32, geom.CullNone)
			r := newRig(t, MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.RasterStride = tc.stride })), tc.n)
			r.core.Script = []scripted{{At: 0, Msg: batchOf(d, 0, 0, tc.tri), Dst: r.pa.FromShaderCores}}
			r.ia.Script = []scripted{{At: 0, Msg: protocol.NewBatchInfo(d, 1), Dst: r.pa.InputAssembler}}
			r.run(t)
			r.checkDrained(t)
			var got []int
			for i, f := range r.rasts {
				if n := len(sends[*protocol.PrimitiveMsg](f)); n > 0 {
					if n != 1 {
						t.Errorf("rasterizer %d got %d primitives", i, n)
					}
					got = append(got, i)
				}
				if r.pa.PrimitivesSent(i) != uint64(len(sends[*protocol.PrimitiveMsg](f))) {
					t.Errorf("rasterizer %d: counter %d", i, r.pa.PrimitivesSent(i))
				}
				// Every rasterizer gets the DrawEnd, last.
				if last, ok := f.Got[len(f.Got)-1].Msg.(*protocol.DrawEnd); !ok || last.Draw != d || last.From != 0 {
					t.Errorf("rasterizer %d: last message %T, want DrawEnd", i, f.Got[len(f.Got)-1].Msg)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("primitive sent to rasterizers %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDrawEndFollowsLastPrimitive: with 4 rasterizers and three draws, every
// rasterizer sees each draw's DrawEnd exactly once, after all of that draw's
// primitives and before any of the next draw's.
func TestDrawEndFollowsLastPrimitive(t *testing.T) {
	r := newRig(t, MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.TrianglesPerCycle = 2; c.SetupLatency = 3 })), 4)
	var draws []*protocol.Draw
	for i := 0; i < 3; i++ {
		d := testpeer.TestDraw(uint64(i), 64, 32, geom.CullNone)
		draws = append(draws, d)
		var tris [][3][3]float32
		for k := 0; k < 5+i; k++ {
			x := float32(3 + 8*((k+i)%8))
			tris = append(tris, [3][3]float32{{x, 2, 0.5}, {x + 3, 2, 0.5}, {x, 20, 0.5}})
		}
		r.core.Script = append(r.core.Script, scripted{At: 0, Msg: batchOf(d, 0, 0, tris[:3]...), Dst: r.pa.FromShaderCores},
			scripted{At: 0, Msg: batchOf(d, 1, 3, tris[3:]...), Dst: r.pa.FromShaderCores})
		r.ia.Script = append(r.ia.Script, scripted{At: 0, Msg: protocol.NewBatchInfo(d, 2), Dst: r.pa.InputAssembler})
	}
	r.run(t)
	r.checkDrained(t)
	for i, f := range r.rasts {
		cur, prims := 0, 0
		for _, g := range f.Got {
			switch m := g.Msg.(type) {
			case *protocol.PrimitiveMsg:
				if m.Draw != draws[cur] {
					t.Fatalf("rasterizer %d: primitive of draw %d after %d DrawEnds", i, m.Draw.Seq, cur)
				}
				prims++
			case *protocol.DrawEnd:
				if m.Draw != draws[cur] {
					t.Fatalf("rasterizer %d: DrawEnd of draw %d, want %d", i, m.Draw.Seq, cur)
				}
				cur++
			}
		}
		if cur != 3 {
			t.Errorf("rasterizer %d: %d DrawEnds, want 3", i, cur)
		}
		if prims == 0 {
			t.Errorf("rasterizer %d got no primitive", i)
		}
	}
}

// TestBackPressure: a rasterizer that does not drain blocks distribution
// (blocked_output) without losing or reordering anything.
func TestBackPressure(t *testing.T) {
	d := testpeer.TestDraw(0, 64, 32, geom.CullNone)
	var tris [][3][3]float32
	for k := 0; k < 24; k++ {
		tris = append(tris, [3][3]float32{{1, 1, 0.5}, {5, 1, 0.5}, {1, 5, 0.5}})
	}
	r := newHeldRig(2)
	e, pa, core, ia, rast := r.e, r.pa, r.core, r.ia, r.rasts[0]
	core.Script = []scripted{{At: 0, Msg: batchOf(d, 0, 0, tris...), Dst: pa.FromShaderCores}}
	ia.Script = []scripted{{At: 0, Msg: protocol.NewBatchInfo(d, 1), Dst: pa.InputAssembler}}
	testpeer.Run(t, e, core, ia)
	if len(rast.Got) != 0 {
		t.Fatalf("held rasterizer received %d messages", len(rast.Got))
	}
	pa.Finish(e.CurrentTime())
	if pa.Activity.Cycles(stateBlockedOutput) == 0 {
		t.Error("no blocked_output cycles while the rasterizer was full")
	}
	stuck := false
	for _, b := range pa.Buffers() {
		if strings.HasSuffix(b.Name, ".Output[0]") && b.Len == b.Cap {
			stuck = true
		}
	}
	if !stuck {
		t.Errorf("output queue not reported full: %+v", pa.Buffers())
	}
	rast.Hold = false
	testpeer.Run(t, e, rast)
	if len(rast.Got) != 25 {
		t.Fatalf("%d messages after release, want 24 primitives and a DrawEnd", len(rast.Got))
	}
	for k, g := range rast.Got[:24] {
		if m := g.Msg.(*protocol.PrimitiveMsg); m.Index != uint64(k) || m.Prim.Source != k {
			t.Fatalf("message %d: primitive %d of triangle %d", k, m.Index, m.Prim.Source)
		}
	}
}

// TestBadInputHalts: malformed messages stop the simulation with an error that
// names the unit instead of panicking.
func TestBadInputHalts(t *testing.T) {
	d := testpeer.TestDraw(0, 64, 32, geom.CullNone)
	bad := batchOf(d, 0, 0, [3][3]float32{{1, 1, 0.5}, {5, 1, 0.5}, {1, 5, 0.5}})
	bad.Batch.Triangles[0][2] = 9
	tests := []struct {
		name string
		msg  sim.Msg
		ia   bool
		want string
	}{
		{"slot", bad, false, "slot 9 beyond 3 outputs"},
		{"type", protocol.NewBatchCredit(1), false, "unexpected *protocol.BatchCredit on FromShaderCores"},
		{"info type", protocol.NewDrawEnd(d, 0), true, "unexpected *protocol.DrawEnd on InputAssembler"},
		{"negative", protocol.NewBatchInfo(d, -1), true, "batch count -1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := &timing.Halt{}
			r := newRig(t, MakeBuilder().WithEnv(timing.Env{Halt: h}), 1)
			if tc.ia {
				r.ia.Script = []scripted{{At: 0, Msg: tc.msg, Dst: r.pa.InputAssembler}}
			} else {
				r.core.Script = []scripted{{At: 0, Msg: tc.msg, Dst: r.pa.FromShaderCores}}
			}
			r.run(t)
			err := h.Reason()
			testpeer.CheckHalted(t, err, "GPU.PrimitiveAssembly", tc.want)
			if r.pa.Err() != err {
				t.Errorf("Err() = %v, want the halt reason", r.pa.Err())
			}
		})
	}
	// Without a halt flag (a unit alone) there is nobody to report to: the
	// error panics (timing.Fault).
	r := newRig(t, MakeBuilder(), 1)
	r.core.Script = []scripted{{At: 0, Msg: protocol.NewBatchCredit(1), Dst: r.pa.FromShaderCores}}
	testpeer.Panics(t, "GPU.PrimitiveAssembly: unexpected *protocol.BatchCredit on FromShaderCores", func() { r.run(t) })
}

func TestConfigValidation(t *testing.T) {
	testpeer.CheckValidate(t, DefaultConfig(), []testpeer.ConfigCase[Config]{
		{Want: "BatchSlots", Edit: func(c *Config) { c.BatchSlots = 0 }},
		{Want: "TrianglesPerCycle", Edit: func(c *Config) { c.TrianglesPerCycle = 0 }},
		{Want: "ClipCycles", Edit: func(c *Config) { c.ClipCycles = -1 }},
		{Want: "SetupLatency", Edit: func(c *Config) { c.SetupLatency = -1 }},
		{Want: "OutputQueue", Edit: func(c *Config) { c.OutputQueue = 0 }},
		{Want: "NumRasterizers", Edit: func(c *Config) { c.NumRasterizers = 65 }},
		{Want: "RasterStride", Edit: func(c *Config) { c.RasterStride = -1 }},
		{Want: "", Edit: func(c *Config) {}},
	})
	e := sim.NewSerialEngine()
	testpeer.CheckEnv(t, true, func(env timing.Env) { MakeBuilder().WithEnv(env).Build("GPU.PrimitiveAssembly") })
	testpeer.Panics(t, "BatchSlots", func() {
		MakeBuilder().WithEnv(testpeer.Env(e)).WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.BatchSlots = 0 })).
			Build("GPU.PrimitiveAssembly")
	})
}

// TestBatchTaskEndsWhenSent: a batch's primitive_assembly task ends when its
// last primitive leaves the output queue, not when it enters it (the unit is
// busy sending it): with the rasterizer holding its input, the three
// primitives are queued and the task stays open until they are sent.
func TestBatchTaskEndsWhenSent(t *testing.T) {
	d := testpeer.TestDraw(0, 64, 32, geom.CullNone)
	small := func(x float32) [3][3]float32 { return [3][3]float32{{x, 1, 0.5}, {x + 4, 1, 0.5}, {x, 5, 0.5}} }
	r := newHeldRig(8)
	e, pa, core, ia, rast := r.e, r.pa, r.core, r.ia, r.rasts[0]
	var log testpeer.TaskLog
	tracing.CollectTrace(pa, &log)
	core.Script = []scripted{{At: 0, Msg: batchOf(d, 0, 0, small(1), small(9), small(17)), Dst: pa.FromShaderCores}}
	ia.Script = []scripted{{At: 0, Msg: protocol.NewBatchInfo(d, 1), Dst: pa.InputAssembler}}
	testpeer.Run(t, e, core, ia)
	tasks := log.OfKind(protocol.KindPrimitiveAssembly)
	if len(tasks) != 1 {
		t.Fatalf("%d primitive_assembly tasks, want 1", len(tasks))
	}
	id := tasks[0].ID
	queued := 0
	for _, b := range pa.Buffers() {
		if strings.HasSuffix(b.Name, ".Output[0]") {
			queued = b.Len
		}
	}
	if queued < 2 {
		t.Fatalf("%d messages queued for the held rasterizer, want its primitives and the DrawEnd", queued)
	}
	if log.Ended[id] {
		t.Errorf("task %s ended with its primitives still queued", id)
	}
	rast.Hold = false
	testpeer.Run(t, e, rast)
	if len(rast.Got) != 4 {
		t.Fatalf("%d messages after release, want 3 primitives and a DrawEnd", len(rast.Got))
	}
	if !log.Ended[id] {
		t.Errorf("task %s open after its primitives were sent", id)
	}
}
