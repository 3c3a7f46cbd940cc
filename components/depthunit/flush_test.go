package depthunit_test

import (
	"testing"

	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/depthunit"
	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// TestFlush: a FlushCmd after some quads writes every dirty depth line back
// exactly once (whole 64-byte lines), and the Done (From = the partition)
// comes back once the last write is acknowledged. With Invalidate every line
// leaves the cache, so a later quad on a flushed line misses and reads it
// again; without, the lines stay (clean) and it hits. A second flush writes
// back only what the later quad dirtied.
func TestFlush(t *testing.T) {
	for _, tc := range backendtest.FlushCases {
		t.Run(tc.Name, func(t *testing.T) {
			const part = 3
			b := newBench(t, testpeer.Edit(depthunit.DefaultConfig(), func(c *depthunit.Config) { c.Index = part; c.Cache.Size, c.Cache.Ways, c.Cache.LineSize = 1024, 2, 64 }), backendtest.DefaultSpec(), 20)
			d := b.TG.Draw(0, true)
			p := backendtest.Rect(d, 0, 0, 16, 8, 0.5)[0]
			row := func(y uint64) uint64 { return b.TG.DepthDesc.Addr + 64*y }
			// 16x8 D24S8 linear: one 64-byte line per row. Quads (0, 0) and
			// (4, 0) touch rows 0 and 1, quad (0, 2) rows 2 and 3.
			b.sendDraw(0, d, []*protocol.TileQuads{oneQuad(d, p, 0, 0), oneQuad(d, p, 4, 0), oneQuad(d, p, 0, 2)})
			flush := protocol.NewFlushCmd(tc.Invalidate)
			b.cp.SendAt(200, b.du.Control, flush)
			d2 := b.TG.Draw(1, true)
			p2 := backendtest.Rect(d2, 0, 0, 16, 8, 0.25)[0]
			b.sendDraw(400, d2, []*protocol.TileQuads{oneQuad(d2, p2, 0, 0)})
			again := protocol.NewFlushCmd(tc.Invalidate)
			b.cp.SendAt(600, b.du.Control, again)
			b.run()

			lastFirst := b.Mem.CheckFlush(t, backendtest.FlushWant{Flush: 200, Later: 400, LineBytes: 64,
				FirstWrites: []uint64{row(0), row(1), row(2), row(3)}, LaterWrites: []uint64{row(0), row(1)},
				ReadsBefore: 4, ReadsAfter: tc.ReadsAfter})
			if len(b.cp.Received) != 2 {
				t.Fatalf("command processor received %d messages, want 2", len(b.cp.Received))
			}
			for i, want := range []*protocol.FlushCmd{flush, again} {
				if m, ok := b.cp.Received[i].Msg.(*protocol.Done); !ok || m.RspTo != want.ID || m.From != part {
					t.Errorf("message %d to the command processor: %+v, want the Done of flush %d from %d", i, b.cp.Received[i].Msg, i, part)
				}
			}
			// As a present's: the last write is answered 20 cycles after the
			// memory took it, the unit receives that at +1, sends Done the cycle
			// after, and it arrives one cycle later.
			if got, want := b.cp.Received[0].Cycle, lastFirst+20+3; got != want {
				t.Errorf("first Done at cycle %d, want %d", got, want)
			}
			testpeer.CheckStats(t, testpeer.StatMap(b.du), b.du.Name(), map[string]float64{"flushes": 2, "presents": 0,
				"cache_write_backs": 6, "bytes_written": 6 * 64, "cache_invalidated_lines": tc.Dropped})
		})
	}
}

// TestFlushTraced: with a tracer attached, a FlushCmd is a "flush" task
// "flush<msg ID>" below the sender's req_out task of the message, ended with
// the Done, and its write-backs hang below it.
func TestFlushTraced(t *testing.T) {
	b := newBench(t, depthunit.DefaultConfig(), backendtest.DefaultSpec(), 10)
	d := b.TG.Draw(0, true)
	p := backendtest.Rect(d, 0, 0, 16, 8, 0.5)[0]
	b.sendDraw(0, d, []*protocol.TileQuads{oneQuad(d, p, 0, 0)})
	backendtest.CheckFlushTraced(t, b.du, b.du.Control, b.cp, b.run, &testpeer.TaskLog{})
}

// TestFlushRefusedWithHiZ: a depth unit with a HiZ unit refuses an
// invalidating FlushCmd with an error naming the unit and the command (the
// tiled machine's tile units have no HiZ; see the package documentation).
func TestFlushRefusedWithHiZ(t *testing.T) {
	b := newBench(t, testpeer.Edit(depthunit.DefaultConfig(), func(c *depthunit.Config) { c.HiZ = fhiz.Config{Mode: fhiz.ZMask} }), backendtest.DefaultSpec(), 10)
	withHiZ(b, 5)
	flush := protocol.NewFlushCmd(true)
	b.cp.SendAt(0, b.du.Control, flush)
	if err := b.E.Run(); err != nil {
		t.Fatal(err)
	}
	testpeer.CheckHalted(t, b.Halt.Reason(), "GPU.DepthUnit[0]", "GPU.DepthUnit[0]: Control: FlushCmd "+flush.ID+" invalidates with a HiZ unit attached")
	if len(b.cp.Received) != 0 {
		t.Errorf("the command processor received %+v", b.cp.Received)
	}
}

// TestWindowPassesThrough: the tiled machine's TileQuads carry their screen
// tile (Window) through the depth unit, tested (early Z) or passed (late Z),
// and its tile tasks are named by the window, below the rasterizer's tile
// task in that window: one raster tile in two windows is two tasks.
func TestWindowPassesThrough(t *testing.T) {
	for _, early := range []bool{true, false} {
		b := newBench(t, depthunit.DefaultConfig(), backendtest.DefaultSpec(), 10)
		var log testpeer.TaskLog
		tracing.CollectTrace(b.du, &log)
		d := b.TG.Draw(0, early)
		p := backendtest.Rect(d, 0, 0, 16, 8, 0.5)[0]
		wins := []raster.Rect{{X0: 0, Y0: 0, X1: 4, Y1: 8}, {X0: 4, Y0: 0, X1: 8, Y1: 8}}
		var tiles []*protocol.TileQuads
		for i, w := range wins {
			tq := oneQuad(d, p, int32(4*i), 0) // raster tile (0, 0) in both windows
			tq.Window = w
			tiles = append(tiles, tq)
		}
		b.sendDraw(0, d, tiles)
		b.run()
		got, _, _ := packerMsgs(b.packer)
		if len(got) != len(wins) {
			t.Fatalf("early %v: %d TileQuads at the packer, want %d", early, len(got), len(wins))
		}
		for i, tq := range got {
			if tq.Window != wins[i] {
				t.Errorf("early %v: TileQuads %d has window %+v, want %+v", early, i, tq.Window, wins[i])
			}
		}
		tasks := log.OfKind(protocol.KindTile)
		if len(tasks) != len(wins) {
			t.Fatalf("early %v: %d tile tasks %+v, want %d", early, len(tasks), tasks, len(wins))
		}
		for i, task := range tasks {
			id := protocol.TileTaskID(d.Seq, wins[i], p, 0, 0, protocol.AtDU)
			parent := protocol.TileTaskID(d.Seq, wins[i], p, 0, 0, "")
			if task.ID != id || task.ParentID != parent || !log.Ended[id] {
				t.Errorf("early %v: task %s below %s (ended %v), want %s below %s", early, task.ID, task.ParentID,
					log.Ended[id], id, parent)
			}
		}
	}
}
