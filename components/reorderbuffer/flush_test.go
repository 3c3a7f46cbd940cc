package reorderbuffer

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/timing"
)

// withControl plugs a scripted peer standing for the tile unit into the
// buffer's Control port and makes it the CommandProcessor.
func withControl(bn *bench, script []scripted) *testpeer.Peer {
	cp := testpeer.NewPeer("TileUnit", bn.engine, 4)
	for i := range script {
		script[i].Dst = bn.rob.Control
	}
	cp.Script = script
	conn := sim.NewDirectConnection("ControlConn", bn.engine, 1*sim.GHz)
	conn.PlugIn(cp.Port, 4)
	conn.PlugIn(bn.rob.Control, 4)
	bn.rob.CommandProcessor = cp.Port
	cp.TickNow(0)
	return cp
}

// lastROPCycle returns the cycle the last message reached ROP r.
func lastROPCycle(r *fakeROP) uint64 { return r.Got[len(r.Got)-1].Arrived }

// TestFlushWaitsForEmpty (no shading cache): a FlushCmd is answered with
// Done{From: 0} once the buffer is empty: at once when it is, else in the
// cycle its last entries retire (control runs after retire). The Control port
// is in Buffers only when it is connected.
func TestFlushWaitsForEmpty(t *testing.T) {
	a := testDraw(0)
	for _, tc := range []struct {
		name   string
		at     uint64 // cycle the FlushCmd is sent
		answer func(bn *bench) uint64
	}{
		// Sent at 0, taken at 1 before the warp is dispatched (the buffer is
		// still empty), answered at 1.
		{"empty", 0, func(*bench) uint64 { return 1 }},
		// Sent at 5 while the warp is shaded: answered when the marker, the
		// last entry, retires.
		{"busy", 5, func(bn *bench) uint64 { return lastROPCycle(bn.rops[0]) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bn := newBench(MakeBuilder(), benchConfig{cores: 1, rops: 1},
				[]scripted{{At: 0, Msg: warp(a, 0, 0, 0, 0)}, {At: 0, Msg: protocol.NewDrawEnd(a, 0)}})
			if n := len(bn.rob.Buffers()); n != 4 {
				t.Errorf("%d buffers with Control unconnected, want 4", n)
			}
			flush := protocol.NewFlushCmd(true)
			cp := withControl(bn, []scripted{{At: tc.at, Msg: flush}})
			bn.run(t)
			if len(cp.Got) != 1 {
				t.Fatalf("the tile unit received %d messages, want one Done", len(cp.Got))
			}
			if m, ok := cp.Got[0].Msg.(*protocol.Done); !ok || m.RspTo != flush.ID || m.From != 0 {
				t.Errorf("the tile unit received %+v, want the Done of the flush from 0", cp.Got[0].Msg)
			}
			if got, want := cp.Got[0].Cycle, tc.answer(bn); got != want {
				t.Errorf("Done sent at cycle %d, want %d", got, want)
			}
			if got := records(bn.rops[0]); len(got) != 2 {
				t.Errorf("ROP received %v, want the warp's quads and the marker", got)
			}
			testpeer.CheckStats(t, testpeer.StatMap(bn.rob), "GPU.ReorderBuffer", map[string]float64{"flushes": 1, "retired_quads": 3})
			b := bn.rob.Buffers()
			if len(b) != 5 || b[4] != (timing.BufferState{Name: "GPU.ReorderBuffer.Control", Len: 0, Cap: 2}) {
				t.Errorf("buffers %+v, want the Control port last", b)
			}
		})
	}
}

// TestFlushDropsShadingCache: in shading-cache mode a FlushCmd with
// Invalidate, taken once the first tile's records retired, drops every cache
// entry (two shaded entries flushed), so the next tile's look-up of tag 10,
// a hit without the flush, misses and is shaded again. Without Invalidate the
// flush is only acknowledged.
func TestFlushDropsShadingCache(t *testing.T) {
	a, b := testDraw4(0), testDraw4(1)
	for _, tc := range []struct {
		name       string
		invalidate bool
		warps      []string
		stats      map[string]float64
	}{
		{"invalidate", true, []string{"2:[10 11]", "102:[10]"},
			map[string]float64{"cache_hits": 0, "cache_misses": 3, "cache_evictions": 0, "cache_entries_flushed": 2, "flushes": 1}},
		{"keep", false, []string{"2:[10 11]"},
			map[string]float64{"cache_hits": 1, "cache_misses": 2, "cache_evictions": 0, "cache_entries_flushed": 0, "flushes": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bn := newBench(MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.ShadingCacheEntries, c.RefBits = 8, 8 })), benchConfig{cores: 1, rops: 1}, []scripted{
				{At: 0, Msg: vis(a, 0, vquad(0, 10, 11))}, {At: 0, Msg: protocol.NewDrawEnd(a, 0)},
				{At: 100, Msg: vis(b, 0, vquad(0, 10))}, {At: 100, Msg: protocol.NewDrawEnd(b, 0)}})
			flush := protocol.NewFlushCmd(tc.invalidate)
			cp := withControl(bn, []scripted{{At: 50, Msg: flush}})
			bn.run(t)
			if got := shadingWarps(bn.cores[0]); !reflect.DeepEqual(got, tc.warps) {
				t.Errorf("shading warps %q, want %q", got, tc.warps)
			}
			// Both tiles' samples read tag 10's colour, shaded or not again.
			want := []string{"v d0 (0,0) 3/3 [10 0 0 0] [11 0 0 0]", "end d0", "v d1 (0,0) 1/1 [10 0 0 0]", "end d1"}
			var got []string
			for _, r := range records(bn.rops[0]) {
				got = append(got, r.What)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("ROP received %q, want %q", got, want)
			}
			if len(cp.Got) != 1 || cp.Got[0].Msg.(*protocol.Done).RspTo != flush.ID || cp.Got[0].Cycle != 51 {
				t.Errorf("the tile unit received %+v, want the flush's Done sent at 51", cp.Got)
			}
			testpeer.CheckStats(t, testpeer.StatMap(bn.rob), "GPU.ReorderBuffer", tc.stats)
		})
	}
}

// TestFlushErrors: malformed control traffic halts the run with an error
// naming the buffer.
func TestFlushErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		msg   sim.Msg
		setup func(bn *bench)
		want  string
	}{
		{"unexpected message", protocol.NewDone("x", 0), nil, "unexpected *protocol.Done on Control"},
		{"no command processor", protocol.NewFlushCmd(true), func(bn *bench) { bn.rob.CommandProcessor = nil },
			"but CommandProcessor (the port to answer) is not set"},
		// A reference left with the buffer empty (none can be, by the
		// protocol): the flush refuses to drop the entry.
		{"referenced entry", protocol.NewFlushCmd(true), func(bn *bench) { bn.rob.cache.tags.Lookup(decouple.Tag{Prim: 1}) },
			"shading cache: invalidate with 1 referenced entries"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			halt := &timing.Halt{}
			bn := newBench(MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.ShadingCacheEntries, c.RefBits = 4, 8 })).WithEnv(timing.Env{Halt: halt}), benchConfig{cores: 1, rops: 1}, nil)
			withControl(bn, []scripted{{At: 0, Msg: tc.msg}})
			if tc.setup != nil {
				tc.setup(bn)
			}
			bn.run(t)
			testpeer.CheckHalted(t, halt.Reason(), "GPU.ReorderBuffer", tc.want)
		})
	}
}

// TestFlushTraced: with a tracer attached, a FlushCmd is a "flush" task
// "flush<msg ID>" below the sender's req_out task, ended when the Done leaves.
func TestFlushTraced(t *testing.T) {
	bn := newBench(MakeBuilder(), benchConfig{cores: 1, rops: 1}, nil)
	var log testpeer.TaskLog
	tracing.CollectTrace(bn.rob, &log)
	flush := protocol.NewFlushCmd(true)
	withControl(bn, []scripted{{At: 0, Msg: flush}})
	bn.run(t)
	log.CheckCommandTask(t, protocol.KindFlush, flush.ID)
}
