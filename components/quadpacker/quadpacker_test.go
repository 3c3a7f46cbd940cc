package quadpacker

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/timing"
)

// arrival is what the sink saw: a described message and the cycle it entered the
// sink's port (a direct connection delivers in the cycle of the send).
type arrival struct {
	What string
	At   uint64
}

func arrivals(s *fakeSink) []arrival {
	var out []arrival
	for _, r := range s.Got {
		out = append(out, arrival{describe(r.Msg), r.Arrived})
	}
	return out
}

func TestPacking(t *testing.T) {
	a, b := testDraw(0), testDraw(1)
	tests := []struct {
		name    string
		scripts [][]scripted
		want    []arrival
		flushes [numFlushReasons]float64 // full, draw_change, draw_end, timeout
	}{
		{
			// 16 quads at cycle 0 reach the packer at 1; 4 per cycle fill warp 0 at
			// cycle 2 (sent at 3) and warp 1 at 4 (sent at 5); the DrawEnd, taken at
			// 5 with no open warp, leaves at 6.
			name:    "full warps",
			scripts: [][]scripted{{{At: 0, Msg: tileQuads(a, 0, 0, 16)}, {At: 0, Msg: protocol.NewDrawEnd(a, 0)}}},
			want: []arrival{
				{"w0 d0 [0:0 0:1 0:2 0:3 0:4 0:5 0:6 0:7]", 3},
				{"w1 d0 [0:8 0:9 0:10 0:11 0:12 0:13 0:14 0:15]", 5},
				{"end d0 0", 6},
			},
			flushes: [numFlushReasons]float64{2, 0, 0, 0},
		},
		{
			// Cycle 1: A0-A2, then B0 flushes A (draw change). Cycle 2: B1, then the
			// DrawEnd of B flushes [B0 B1] and queues behind it.
			name:    "draw change and draw end",
			scripts: [][]scripted{{{At: 0, Msg: tileQuads(a, 0, 0, 3)}, {At: 0, Msg: tileQuads(b, 0, 10, 2)}, {At: 0, Msg: protocol.NewDrawEnd(b, 0)}}},
			want: []arrival{
				{"w0 d0 [0:0 0:1 0:2]", 2},
				{"w1 d1 [0:10 0:11]", 3},
				{"end d1 0", 3},
			},
			flushes: [numFlushReasons]float64{0, 1, 1, 0},
		},
		{
			// Two depth units feed one warp; each DrawEnd comes after its unit's quads.
			// DE(A,1) reaches the packer at 2 (after its tick), so it flushes the
			// mixed warp at 3; DE(A,0) arrives at 3 and finds no open warp.
			name: "partitions share a warp",
			scripts: [][]scripted{
				{{At: 0, Msg: tileQuads(a, 0, 0, 3)}, {At: 3, Msg: protocol.NewDrawEnd(a, 0)}},
				{{At: 0, Msg: tileQuads(a, 1, 0, 3)}, {At: 2, Msg: protocol.NewDrawEnd(a, 1)}},
			},
			want: []arrival{
				{"w0 d0 [0:0 0:1 0:2 1:0 1:1 1:2]", 4},
				{"end d0 1", 4},
				{"end d0 0", 5},
			},
			flushes: [numFlushReasons]float64{0, 0, 1, 0},
		},
		{
			// DE(A,0) arrives while the open warp holds B quads: no flush; the B
			// warp leaves at its timeout (last quad at cycle 2, flushed at 66).
			name: "draw end of another draw",
			scripts: [][]scripted{
				{{At: 5, Msg: protocol.NewDrawEnd(a, 0)}},
				{{At: 0, Msg: tileQuads(a, 1, 0, 2)}, {At: 0, Msg: protocol.NewDrawEnd(a, 1)}, {At: 0, Msg: tileQuads(b, 1, 4, 2)}},
			},
			want: []arrival{
				{"w0 d0 [1:0 1:1]", 2},
				{"end d0 1", 2},
				{"end d0 0", 7},
				{"w1 d1 [1:4 1:5]", 67},
			},
			flushes: [numFlushReasons]float64{0, 0, 1, 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bn := newBench(MakeBuilder(), tc.scripts, 16, 4)
			bn.run()
			if got := arrivals(bn.sink); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("received\n%v\nwant\n%v", got, tc.want)
			}
			st := testpeer.StatMap(bn.packer)
			for r := FlushReason(0); r < numFlushReasons; r++ {
				if got := st["GPU.QuadPacker.flushes_"+r.String()]; got != tc.flushes[r] {
					t.Errorf("flushes_%s = %v, want %v", r, got, tc.flushes[r])
				}
			}
		})
	}
}

func TestStatsAndActivity(t *testing.T) {
	a := testDraw(0)
	bn := newBench(MakeBuilder(), [][]scripted{{{At: 0, Msg: tileQuads(a, 0, 0, 16)}, {At: 0, Msg: protocol.NewDrawEnd(a, 0)}}}, 16, 4)
	bn.run()
	bn.packer.Finish(sim.VTimeInSec(10e-9))
	want := map[string]float64{
		"GPU.QuadPacker.quads":               16,
		"GPU.QuadPacker.warps":               2,
		"GPU.QuadPacker.draw_ends":           1,
		"GPU.QuadPacker.quads_per_warp":      8,
		"GPU.QuadPacker.flushes_full":        2,
		"GPU.QuadPacker.flushes_draw_change": 0,
		"GPU.QuadPacker.flushes_draw_end":    0,
		"GPU.QuadPacker.flushes_timeout":     0,
		// busy at cycles 1-6; idle at 0 and 7-9.
		"GPU.QuadPacker.cycles_busy":           6,
		"GPU.QuadPacker.cycles_blocked_output": 0,
		"GPU.QuadPacker.cycles_idle":           4,
		"GPU.QuadPacker.utilization":           0.6,
	}
	testpeer.CheckExact(t, bn.packer, want, []timing.BufferState{
		{Name: "GPU.QuadPacker.FromDepthUnits", Len: 0, Cap: 16},
		{Name: "GPU.QuadPacker.OpenWarp", Len: 0, Cap: 8},
		{Name: "GPU.QuadPacker.Outbox", Len: 0, Cap: 2},
	})
}

// TestTimeout pins the time-out flush and checks that the packer sleeps while it
// waits for it.
func TestTimeout(t *testing.T) {
	a := testDraw(0)
	bn := newBench(MakeBuilder(), [][]scripted{{
		{At: 0, Msg: tileQuads(a, 0, 0, 3)},   // packed at 1: flushed at 65, sent at 66
		{At: 100, Msg: tileQuads(a, 0, 3, 1)}, // packed at 101: flushed at 165, sent at 166
		{At: 200, Msg: protocol.NewDrawEnd(a, 0)},
	}}, 16, 4)
	bn.run()
	want := []arrival{
		{"w0 d0 [0:0 0:1 0:2]", 66},
		{"w1 d0 [0:3]", 166},
		{"end d0 0", 202},
	}
	if got := arrivals(bn.sink); !reflect.DeepEqual(got, want) {
		t.Fatalf("received %v, want %v", got, want)
	}
	wantTicks := []uint64{1, 2, 65, 66, 67, 101, 102, 165, 166, 167, 201, 202, 203}
	if !reflect.DeepEqual(bn.ticks.Cycles, wantTicks) {
		t.Fatalf("packer ticked at %v, want %v", bn.ticks.Cycles, wantTicks)
	}
	if got := testpeer.StatMap(bn.packer)["GPU.QuadPacker.flushes_timeout"]; got != 2 {
		t.Fatalf("%v time-out flushes, want 2", got)
	}
}

// TestFlushCyclesParameter checks a shorter time-out and a smaller warp.
func TestFlushCyclesParameter(t *testing.T) {
	a := testDraw(0)
	bn := newBench(MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.FlushCycles, c.QuadsPerWarp, c.QuadsPerCycle = 5, 2, 1 })),
		[][]scripted{{{At: 0, Msg: tileQuads(a, 0, 0, 3)}}}, 16, 4)
	bn.run()
	// One quad per cycle: q0 at 1, q1 at 2 (full, sent at 3), q2 at 3, flushed at 8.
	want := []arrival{{"w0 d0 [0:0 0:1]", 3}, {"w1 d0 [0:2]", 9}}
	if got := arrivals(bn.sink); !reflect.DeepEqual(got, want) {
		t.Fatalf("received %v, want %v", got, want)
	}
}

// TestBlockedOutput: the reorder buffer takes nothing before cycle 50; the
// packer fills its output register, stalls, and resumes in order.
func TestBlockedOutput(t *testing.T) {
	a := testDraw(0)
	script := []scripted{}
	for i := 0; i < 4; i++ {
		script = append(script, scripted{At: 0, Msg: tileQuads(a, 0, 8*i, 8)})
	}
	script = append(script, scripted{At: 0, Msg: protocol.NewDrawEnd(a, 0)})
	bn := newBench(MakeBuilder(), [][]scripted{script}, 1, 1)
	bn.sink.AcceptFrom = 50
	bn.run()
	bn.packer.Finish(bn.engine.CurrentTime() + 1e-9)
	var got []string
	var retrieved []uint64
	for _, r := range bn.sink.Got {
		got = append(got, describe(r.Msg))
		retrieved = append(retrieved, r.Retrieved)
	}
	wantMsgs := []string{
		"w0 d0 [0:0 0:1 0:2 0:3 0:4 0:5 0:6 0:7]",
		"w1 d0 [0:8 0:9 0:10 0:11 0:12 0:13 0:14 0:15]",
		"w2 d0 [0:16 0:17 0:18 0:19 0:20 0:21 0:22 0:23]",
		"w3 d0 [0:24 0:25 0:26 0:27 0:28 0:29 0:30 0:31]",
		"end d0 0",
	}
	if !reflect.DeepEqual(got, wantMsgs) {
		t.Fatalf("received %v", got)
	}
	// w0 waits in the sink's port, w1 in the connection; w2 fails at 7 and w3
	// joins it in the output register at 8; from cycle 9 the packer is blocked.
	// The sink takes w0 at 50, then one message per cycle.
	if want := []uint64{50, 51, 52, 53, 54}; !reflect.DeepEqual(retrieved, want) {
		t.Fatalf("retrieved at %v, want %v", retrieved, want)
	}
	st := testpeer.StatMap(bn.packer)
	// Busy 1-8 (packing) and 51-53 (sending w2, w3 and the DrawEnd, one per
	// cycle through the 1-message connection buffer); blocked 9-50; idle at 0 and
	// 54-55 (the run ends at 55).
	want := map[string]float64{"busy": 11, "blocked_output": 42, "idle": 3}
	for s, n := range want {
		if got := st["GPU.QuadPacker.cycles_"+s]; got != n {
			t.Errorf("cycles_%s = %v, want %v", s, got, n)
		}
	}
	if !reflect.DeepEqual(bn.ticks.Cycles, []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 51, 52, 53, 54}) {
		t.Errorf("packer ticked at %v: it must sleep while blocked", bn.ticks.Cycles)
	}
}

func TestBuilderValidation(t *testing.T) {
	testpeer.CheckValidate(t, DefaultConfig(), []testpeer.ConfigCase[Config]{
		{Want: "QuadsPerWarp", Edit: func(c *Config) { c.QuadsPerWarp = 0 }},
		{Want: "QuadsPerWarp", Edit: func(c *Config) { c.QuadsPerWarp = 17 }},
		{Want: "SamplesPerCycle", Edit: func(c *Config) { c.SamplesPerCycle = -1 }},
	})
	testpeer.CheckAtLeast(t, DefaultConfig(), "quadpacker", 1, "FlushCycles", "QuadsPerCycle", "InputQueue")
	testpeer.CheckEnv(t, true, func(env timing.Env) { MakeBuilder().WithEnv(env).Build("GPU.QuadPacker") })
	bad := DefaultConfig()
	bad.QuadsPerWarp = 0
	testpeer.Panics(t, "QuadsPerWarp", func() {
		MakeBuilder().WithEnv(timing.Env{Engine: sim.NewSerialEngine(), Freq: testpeer.Freq}).WithConfig(bad).Build("GPU.QuadPacker")
	})
}

// TestProtocolError: an unexpected message halts the simulation with an error.
func TestProtocolError(t *testing.T) {
	halt := &timing.Halt{}
	bn := newBench(MakeBuilder().WithEnv(timing.Env{Halt: halt}), [][]scripted{{{At: 0, Msg: protocol.NewBatchCredit(1)}}}, 16, 4)
	bn.run()
	if err := halt.Reason(); err == nil || !strings.Contains(err.Error(), "GPU.QuadPacker: unexpected *protocol.BatchCredit") {
		t.Fatalf("halt reason %v", err)
	}
}

// TestWarpContent checks every field a warp carries from the TileQuads.
func TestWarpContent(t *testing.T) {
	a := testDraw(3)
	tq := tileQuads(a, 2, 0, 2)
	prim := &pipeline.Primitive{}
	tq.Prim = prim
	bn := newBench(MakeBuilder(), [][]scripted{{{At: 0, Msg: tq}, {At: 0, Msg: protocol.NewDrawEnd(a, 2)}}}, 16, 4)
	bn.run()
	if len(bn.sink.Got) != 2 {
		t.Fatalf("%d messages", len(bn.sink.Got))
	}
	w, ok := bn.sink.Got[0].Msg.(*protocol.PixelWarp)
	if !ok {
		t.Fatalf("first message %T", bn.sink.Got[0].Msg)
	}
	want := []protocol.WarpQuad{
		{Prim: prim, Quad: raster.Quad{X: 0, Y: 4, Coverage: raster.SampleMask{1}}, Live: raster.SampleMask{1}, Partition: 2, Sample: protocol.PerPixel},
		{Prim: prim, Quad: raster.Quad{X: 2, Y: 4, Coverage: raster.SampleMask{2}}, Live: raster.SampleMask{2}, Partition: 2, Sample: protocol.PerPixel},
	}
	if w.Draw != a || w.ID != 0 || !reflect.DeepEqual(w.Quads, want) {
		t.Fatalf("warp draw %p id %d quads %+v", w.Draw, w.ID, w.Quads)
	}
	if w.Src != bn.packer.ToReorderBuffer || w.Dst != bn.sink.Port {
		t.Fatal("warp not addressed from ToReorderBuffer to ReorderBufferPort")
	}
	e, ok := bn.sink.Got[1].Msg.(*protocol.DrawEnd)
	if !ok || e.Draw != a || e.From != 2 {
		t.Fatalf("second message %+v", bn.sink.Got[1].Msg)
	}
}

// TestWarpIDsAndTasks: warps are numbered from WarpIDBase, and their
// pixel_warp tasks are named after the ID (a tile unit's "tu<k>.warp<n>")
// below the draw, or below the draw in the quads' window (the tiled
// machine's tile_draw task).
func TestWarpIDsAndTasks(t *testing.T) {
	win := raster.Rect{X0: 16, Y0: 32, X1: 32, Y1: 48}
	for _, tc := range []struct {
		name   string
		base   uint64
		window raster.Rect
		ids    []uint64
		tasks  []string
		parent string
	}{
		{"sort-last", 0, raster.Rect{}, []uint64{0, 1}, []string{"warp0", "warp1"}, "draw3"},
		{"tile unit 1", protocol.TileUnitWarpBase(1), win,
			[]uint64{protocol.TileUnitWarpBase(1), protocol.TileUnitWarpBase(1) + 1},
			[]string{"tu1.warp0", "tu1.warp1"}, "draw3.win16.32"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := testDraw(3)
			tq := tileQuads(a, 0, 0, 10) // a full warp of 8 and one of 2
			tq.Window = tc.window
			bn := newBench(MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.WarpIDBase = tc.base })),
				[][]scripted{{{At: 0, Msg: tq}, {At: 0, Msg: protocol.NewDrawEnd(a, 0)}}}, 16, 4)
			log := &testpeer.TaskLog{}
			tracing.CollectTrace(bn.packer, log)
			bn.run()
			var ids []uint64
			for _, g := range bn.sink.Got {
				if w, ok := g.Msg.(*protocol.PixelWarp); ok {
					ids = append(ids, w.ID)
				}
			}
			if !reflect.DeepEqual(ids, tc.ids) {
				t.Errorf("warp IDs %v, want %v", ids, tc.ids)
			}
			got := log.OfKind(protocol.KindPixelWarp)
			if len(got) != len(tc.tasks) {
				t.Fatalf("%d tasks, want %d", len(got), len(tc.tasks))
			}
			for i, task := range got {
				if task.ID != tc.tasks[i] || task.ParentID != tc.parent || !log.Ended[task.ID] {
					t.Errorf("task %d: %s below %s (ended %v), want %s below %s", i, task.ID, task.ParentID,
						log.Ended[task.ID], tc.tasks[i], tc.parent)
				}
			}
		})
	}
}
