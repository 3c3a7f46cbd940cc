package reorderbuffer

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/timing"
)

// TestPinnedTiming follows one warp and its marker cycle by cycle: the packer
// sends both at 0; dispatch at 1 (warp) and 2 (marker); the core takes the warp
// at 2 and returns it at 12; fill at 13; the 8 quads retire at 14 (the whole
// budget) and the marker at 15.
func TestPinnedTiming(t *testing.T) {
	a := testDraw(0)
	bn := newBench(MakeBuilder(), benchConfig{cores: 1, rops: 1},
		[]scripted{{At: 0, Msg: warp(a, 0, 0, 0, 0, 0, 0, 0, 0, 0)}, {At: 0, Msg: protocol.NewDrawEnd(a, 0)}})
	bn.run(t)
	bn.rob.Finish(20e-9)
	if got := bn.cores[0].got; len(got) != 1 || got[0].Cycle != 1 || got[0].Warp.Entry != 0 || got[0].Warp.ID != 0 {
		t.Fatalf("core received %+v", got)
	}
	want := []ropRecord{{"d0 0.0 0.1 0.2 0.3 0.4 0.5 0.6 0.7", 14}, {"end d0", 15}}
	if got := records(bn.rops[0]); !reflect.DeepEqual(got, want) {
		t.Fatalf("ROP received %v, want %v", got, want)
	}
	wantStats := map[string]float64{
		"GPU.ReorderBuffer.warps":           1,
		"GPU.ReorderBuffer.quads":           8,
		"GPU.ReorderBuffer.markers":         1,
		"GPU.ReorderBuffer.shaded_warps":    1,
		"GPU.ReorderBuffer.retired_quads":   8,
		"GPU.ReorderBuffer.retired_markers": 1,
		"GPU.ReorderBuffer.rop_messages":    2,
		"GPU.ReorderBuffer.flushes":         0,
		// 8 entries over cycles 1-2, 9 over 2-14, 1 over 14-15: 117 entry-cycles in 20.
		"GPU.ReorderBuffer.occupancy_average": 117.0 / 20,
		"GPU.ReorderBuffer.occupancy_max":     9,
		// busy 1, 2, 13, 14, 15; waiting for the core 3-12; idle 0 and 16-19.
		"GPU.ReorderBuffer.cycles_busy":             5,
		"GPU.ReorderBuffer.cycles_full":             0,
		"GPU.ReorderBuffer.cycles_blocked_output":   0,
		"GPU.ReorderBuffer.cycles_blocked_dispatch": 0,
		"GPU.ReorderBuffer.cycles_head_not_ready":   10,
		"GPU.ReorderBuffer.cycles_idle":             5,
		"GPU.ReorderBuffer.utilization":             0.25,
	}
	testpeer.CheckExact(t, bn.rob, wantStats, []timing.BufferState{
		{Name: "GPU.ReorderBuffer.FromQuadPacker", Len: 0, Cap: 4},
		{Name: "GPU.ReorderBuffer.FromShaderCores", Len: 0, Cap: 4},
		{Name: "GPU.ReorderBuffer.Entries", Len: 0, Cap: 1024},
		{Name: "GPU.ReorderBuffer.ToROPs", Len: 0, Cap: 1},
	})
}

// TestOutOfOrderCompletion: four warps finish in the order 1, 3, 2, 0; nothing
// retires before warp 0, then everything retires in allocation order.
func TestOutOfOrderCompletion(t *testing.T) {
	a := testDraw(0)
	lat := map[uint64]uint64{0: 40, 1: 5, 2: 25, 3: 10}
	script := []scripted{
		{At: 0, Msg: warp(a, 0, 0, 0)}, {At: 0, Msg: warp(a, 1, 0, 0)}, {At: 0, Msg: warp(a, 2, 0, 0)}, {At: 0, Msg: warp(a, 3, 0, 0)},
		{At: 0, Msg: protocol.NewDrawEnd(a, 0)},
	}
	bn := newBench(MakeBuilder(), benchConfig{cores: 2, rops: 1,
		latency: func(w *protocol.PixelWarp) uint64 { return lat[w.ID] }}, script)
	bn.run(t)
	// Dispatch at 1-4 alternating cores; a core takes a warp the cycle after it
	// arrives, so warp 0 (at core 0 from cycle 2) is back at 42, filled at 43.
	type disp struct{ ID, Entry, Cycle uint64 }
	var got [2][]disp
	for i, c := range bn.cores {
		for _, d := range c.got {
			got[i] = append(got[i], disp{d.Warp.ID, d.Warp.Entry, d.Cycle})
		}
	}
	wantDisp := [2][]disp{{{0, 0, 1}, {2, 4, 3}}, {{1, 2, 2}, {3, 6, 4}}}
	if !reflect.DeepEqual(got, wantDisp) {
		t.Fatalf("dispatch %v, want %v", got, wantDisp)
	}
	want := []ropRecord{{"d0 0.0 0.1 1.0 1.1 2.0 2.1 3.0 3.1", 44}, {"end d0", 45}}
	if got := records(bn.rops[0]); !reflect.DeepEqual(got, want) {
		t.Fatalf("ROP received %v, want %v", got, want)
	}
}

// TestFullStallsPacker: 8 entries hold two 4-quad warps; the third waits in the
// port (the packer's queue) until warp 0 retires at 24, then takes entries 0-3
// (wrapping around) in the same cycle.
func TestFullStallsPacker(t *testing.T) {
	a := testDraw(0)
	script := []scripted{{At: 0, Msg: warp(a, 0, 0, 0, 0, 0)}, {At: 0, Msg: warp(a, 1, 0, 0, 0, 0)}, {At: 0, Msg: warp(a, 2, 0, 0, 0, 0)}}
	bn := newBench(MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.Entries = 8 })), benchConfig{cores: 1, rops: 1,
		latency: func(*protocol.PixelWarp) uint64 { return 20 }}, script)
	var mid []timing.BufferState
	bn.at(10, func() { mid = bn.rob.Buffers() })
	bn.run(t)
	bn.rob.Finish(50e-9)
	if mid[0].Len != 1 || mid[2].Len != 8 {
		t.Fatalf("at cycle 10: %v, want the third warp in the port and 8 entries in use", mid)
	}
	var entries, cycles []uint64
	for _, d := range bn.cores[0].got {
		entries = append(entries, d.Warp.Entry)
		cycles = append(cycles, d.Cycle)
	}
	if !reflect.DeepEqual(entries, []uint64{0, 4, 0}) || !reflect.DeepEqual(cycles, []uint64{1, 2, 24}) {
		t.Fatalf("warps at entries %v, dispatched at %v", entries, cycles)
	}
	want := []ropRecord{{"d0 0.0 0.1 0.2 0.3", 24}, {"d0 1.0 1.1 1.2 1.3", 25}, {"d0 2.0 2.1 2.2 2.3", 47}}
	if got := records(bn.rops[0]); !reflect.DeepEqual(got, want) {
		t.Fatalf("ROP received %v, want %v", got, want)
	}
	st := testpeer.StatMap(bn.rob)
	// Full from 3 (the third warp found no room) to 22; head_not_ready 26-45.
	for s, n := range map[string]float64{"full": 20, "head_not_ready": 20, "busy": 7, "idle": 3} {
		if got := st["GPU.ReorderBuffer.cycles_"+s]; got != n {
			t.Errorf("cycles_%s = %v, want %v", s, got, n)
		}
	}
	if st["GPU.ReorderBuffer.occupancy_max"] != 8 {
		t.Errorf("occupancy_max %v", st["GPU.ReorderBuffer.occupancy_max"])
	}
}

// TestPartitions: one warp with quads of two partitions and the markers of both;
// runs of the same partition go together, each to its ROP, in order.
func TestPartitions(t *testing.T) {
	a := testDraw(0)
	script := []scripted{{At: 0, Msg: warp(a, 0, 0, 0, 1, 1, 0)}, {At: 0, Msg: protocol.NewDrawEnd(a, 0)}, {At: 0, Msg: protocol.NewDrawEnd(a, 1)}}
	tests := []struct {
		retire     int
		rop0, rop1 []ropRecord
	}{
		// Filled at 13: all 7 entries retire at 14.
		{8, []ropRecord{{"d0 0.0 0.1", 14}, {"d0 0.4", 14}, {"end d0", 14}},
			[]ropRecord{{"d0 0.2 0.3", 14}, {"end d0", 14}}},
		// Two entries per cycle: [q0 q1], [q2 q3], [q4, end0], [end1].
		{2, []ropRecord{{"d0 0.0 0.1", 14}, {"d0 0.4", 16}, {"end d0", 16}},
			[]ropRecord{{"d0 0.2 0.3", 15}, {"end d0", 17}}},
	}
	for _, tc := range tests {
		bn := newBench(MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.RetirePerCycle = tc.retire })), benchConfig{cores: 1, rops: 2}, script)
		bn.run(t)
		if got := records(bn.rops[0]); !reflect.DeepEqual(got, tc.rop0) {
			t.Errorf("retire %d: ROP 0 received %v, want %v", tc.retire, got, tc.rop0)
		}
		if got := records(bn.rops[1]); !reflect.DeepEqual(got, tc.rop1) {
			t.Errorf("retire %d: ROP 1 received %v, want %v", tc.retire, got, tc.rop1)
		}
	}
}

// TestMarkersBetweenDraws: markers retire between the draws' quads, so each ROP
// sees DrawEnd after the draw's last quad and before the next draw's first.
func TestMarkersBetweenDraws(t *testing.T) {
	a, b := testDraw(0), testDraw(1)
	script := []scripted{
		{At: 0, Msg: warp(a, 0, 0, 1)}, {At: 0, Msg: protocol.NewDrawEnd(a, 1)}, {At: 0, Msg: warp(b, 1, 1, 0)},
		{At: 0, Msg: protocol.NewDrawEnd(a, 0)}, {At: 0, Msg: protocol.NewDrawEnd(b, 0)}, {At: 0, Msg: protocol.NewDrawEnd(b, 1)},
	}
	// Warp 1 finishes long before warp 0.
	bn := newBench(MakeBuilder(), benchConfig{cores: 2, rops: 2,
		latency: func(w *protocol.PixelWarp) uint64 { return 30 - 25*w.ID }}, script)
	bn.run(t)
	// Warp 0 is back at 32, filled at 33; all 8 entries retire at 34.
	want0 := []ropRecord{{"d0 0.0", 34}, {"d1 1.1", 34}, {"end d0", 34}, {"end d1", 34}}
	want1 := []ropRecord{{"d0 0.1", 34}, {"end d0", 34}, {"d1 1.0", 34}, {"end d1", 34}}
	if got := records(bn.rops[0]); !reflect.DeepEqual(got, want0) {
		t.Errorf("ROP 0 received %v, want %v", got, want0)
	}
	if got := records(bn.rops[1]); !reflect.DeepEqual(got, want1) {
		t.Errorf("ROP 1 received %v, want %v", got, want1)
	}
}

// TestBlockedROP: ROP 0 takes nothing before cycle 60. Retirement continues
// while the connection can hold messages, then stops in order: ROP 1's second
// message waits for ROP 0 although ROP 1 is free.
func TestBlockedROP(t *testing.T) {
	a := testDraw(0)
	script := []scripted{{At: 0, Msg: warp(a, 0, 0, 0)}, {At: 0, Msg: warp(a, 1, 1, 1)}, {At: 0, Msg: warp(a, 2, 0, 0)}, {At: 0, Msg: warp(a, 3, 1, 1)}}
	bn := newBench(MakeBuilder(), benchConfig{cores: 1, rops: 2, ropCap: 1, ropBuf: 1,
		latency: func(*protocol.PixelWarp) uint64 { return 5 }}, script)
	bn.rops[0].AcceptFrom = 60
	var mid []timing.BufferState
	bn.at(30, func() { mid = bn.rob.Buffers() })
	bn.run(t)
	bn.rob.Finish(bn.engine.CurrentTime())
	// Warps are back at 7, 8, 9, 10 and retire at 9, 10, 11, 12: warp 0's quads
	// enter ROP 0's port at 9, warp 1's reach ROP 1 at 10, warp 2's wait in the
	// connection (ROP 0's port is full) and warp 3's Send fails at 12.
	want0 := []ropRecord{{"d0 0.0 0.1", 9}, {"d0 2.0 2.1", 60}}
	want1 := []ropRecord{{"d0 1.0 1.1", 10}, {"d0 3.0 3.1", 61}}
	if got := records(bn.rops[0]); !reflect.DeepEqual(got, want0) {
		t.Errorf("ROP 0 received %v, want %v", got, want0)
	}
	if got := records(bn.rops[1]); !reflect.DeepEqual(got, want1) {
		t.Errorf("ROP 1 received %v, want %v", got, want1)
	}
	if mid[3].Len != 1 || mid[2].Len != 2 {
		t.Errorf("at cycle 30: %v, want warp 3's message in the output register and its 2 entries in use", mid)
	}
	if got := testpeer.StatMap(bn.rob)["GPU.ReorderBuffer.cycles_blocked_output"]; got != 49 {
		t.Errorf("cycles_blocked_output %v, want 49 (12-60)", got)
	}
}

// refusingConn is a direct connection that refuses sends to some destinations
// (like a crossbar whose queue to that destination is full).
type refusingConn struct {
	*sim.DirectConnection
	refuse  map[sim.Port]bool
	refused []sim.Port
}

func (c *refusingConn) PlugIn(p sim.Port, n int) {
	c.DirectConnection.PlugIn(p, n)
	p.SetConnection(c)
}

func (c *refusingConn) Send(m sim.Msg) *sim.SendError {
	if c.refuse[m.Meta().Dst] {
		c.refused = append(c.refused, m.Meta().Src)
		return sim.NewSendError()
	}
	return c.DirectConnection.Send(m)
}

func (c *refusingConn) lift(now sim.VTimeInSec) {
	c.refuse = nil
	for _, p := range c.refused {
		p.NotifyAvailable(now)
	}
	c.refused = nil
}

// TestDispatchRoundRobin: warps go to the cores in turn; a core whose Send fails
// is skipped in the same cycle, and when every core refuses the warp waits
// (blocked_dispatch) until the connection reports room.
func TestDispatchRoundRobin(t *testing.T) {
	a := testDraw(0)
	script := []scripted{{At: 0, Msg: warp(a, 0, 0)}, {At: 0, Msg: warp(a, 1, 0)}, {At: 0, Msg: warp(a, 2, 0)}, {At: 0, Msg: warp(a, 3, 0)}}
	tests := []struct {
		name    string
		cores   int
		refuse  []int
		liftAt  uint64 // 0: never
		want    [][]uint64
		cycles  [][]uint64
		blocked float64
	}{
		{"core 1 refuses", 3, []int{1}, 0, [][]uint64{{0, 2}, {}, {1, 3}}, [][]uint64{{1, 3}, {}, {2, 4}}, 0},
		{"all refuse until 20", 2, []int{0, 1}, 20, [][]uint64{{0, 2}, {1, 3}}, [][]uint64{{21, 23}, {22, 24}}, 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			conn := &refusingConn{refuse: map[sim.Port]bool{}}
			bn := newBench(MakeBuilder(), benchConfig{cores: tc.cores, rops: 1, dispatch: func(e sim.Engine) sim.Connection {
				conn.DirectConnection = sim.NewDirectConnection("ROBToCores", e, 1*sim.GHz)
				return conn
			}}, script)
			for _, i := range tc.refuse {
				conn.refuse[bn.cores[i].In] = true
			}
			if tc.liftAt > 0 {
				bn.at(tc.liftAt, func() { conn.lift(sim.VTimeInSec(float64(tc.liftAt) * 1e-9)) })
			}
			bn.run(t)
			for i, c := range bn.cores {
				ids, cycles := []uint64{}, []uint64{}
				for _, d := range c.got {
					ids = append(ids, d.Warp.ID)
					cycles = append(cycles, d.Cycle)
				}
				if !reflect.DeepEqual(ids, tc.want[i]) || !reflect.DeepEqual(cycles, tc.cycles[i]) {
					t.Errorf("core %d got warps %v at %v, want %v at %v", i, ids, cycles, tc.want[i], tc.cycles[i])
				}
			}
			if got := testpeer.StatMap(bn.rob)["GPU.ReorderBuffer.cycles_blocked_dispatch"]; got != tc.blocked {
				t.Errorf("cycles_blocked_dispatch %v, want %v", got, tc.blocked)
			}
			if n := len(records(bn.rops[0])); n != 4 {
				t.Errorf("%d messages retired, want 4", n)
			}
		})
	}
}

func TestProtocolErrors(t *testing.T) {
	a := testDraw(0)
	bad := warp(a, 7, 0, 0)
	bad.Entry = 3
	tests := []struct {
		name   string
		script []scripted
		shaded []scripted // sent into FromShaderCores
		want   string
	}{
		{"unexpected message", []scripted{{At: 0, Msg: protocol.NewBatchCredit(1)}}, nil, "unexpected *protocol.BatchCredit on FromQuadPacker"},
		{"marker partition", []scripted{{At: 0, Msg: protocol.NewDrawEnd(a, 2)}}, nil, "DrawEnd from partition 2 of 1"},
		{"quad partition", []scripted{{At: 0, Msg: warp(a, 0, 0, 1)}}, nil, "warp 0 quad 1: partition 1 of 1"},
		{"warp too large", []scripted{{At: 0, Msg: warp(a, 0, 0, 0, 0, 0, 0)}}, nil, "warp 0 has 5 quads; it needs 1 to Entries (4)"},
		{"empty warp", []scripted{{At: 0, Msg: protocol.NewPixelWarp(a, 0, nil)}}, nil, "warp 0 has 0 quads"},
		{"shaded warp not allocated", nil, []scripted{{At: 0, Msg: protocol.NewShadedWarp(bad, make([]pipeline.QuadOutput, 2))}},
			"shaded warp 7: entry 3 (free) is not allocated to it"},
		{"shaded outputs", nil, []scripted{{At: 0, Msg: protocol.NewShadedWarp(bad, nil)}}, "shaded warp 7 has 0 outputs for 2 quads"},
		{"unexpected shaded", nil, []scripted{{At: 0, Msg: protocol.NewBatchCredit(1)}}, "unexpected *protocol.BatchCredit on FromShaderCores"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			halt := &timing.Halt{}
			bn := newBench(MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.Entries = 4 })).WithEnv(timing.Env{Halt: halt}), benchConfig{cores: 1, rops: 1}, tc.script)
			if tc.shaded != nil {
				s := testpeer.NewSource("FakeCore", bn.engine, tc.shaded)
				s.Dst = bn.rob.FromShaderCores
				bn.fromCores.PlugIn(s.Out, 1)
				s.TickNow(0)
			}
			bn.run(t)
			testpeer.CheckHalted(t, halt.Reason(), "GPU.ReorderBuffer", "GPU.ReorderBuffer: "+tc.want)
		})
	}
}

func TestBuilderValidation(t *testing.T) {
	testpeer.CheckEnv(t, true, func(env timing.Env) { MakeBuilder().WithEnv(env).Build("GPU.ReorderBuffer") })
	testpeer.Panics(t, "Entries", func() {
		MakeBuilder().WithEnv(timing.Env{Engine: sim.NewSerialEngine(), Freq: testpeer.Freq}).
			WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.Entries = 0 })).Build("GPU.ReorderBuffer")
	})
	testpeer.CheckAtLeast(t, DefaultConfig(), "reorderbuffer", 1,
		"Entries", "DispatchPerCycle", "FillPerCycle", "RetirePerCycle",
		"NumPartitions", "InputQueue", "ShadedQueue")
}
