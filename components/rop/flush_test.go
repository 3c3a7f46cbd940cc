package rop_test

import (
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/geom"
)

// TestFlush: a FlushCmd after some quads writes every dirty colour line back
// exactly once (whole 64-byte lines), and the Done comes back once the last
// write is acknowledged. With Invalidate every line leaves the cache, so a
// later quad on a flushed line misses and reads it again; without, the lines
// stay (clean) and it hits. A second flush finds nothing dirty.
func TestFlush(t *testing.T) {
	for _, tc := range backendtest.FlushCases {
		t.Run(tc.Name, func(t *testing.T) {
			const part = 2
			b := newBench(t, testpeer.Edit(rop.DefaultConfig(), func(c *rop.Config) { c.Index = part; c.TileSize, c.PartitionStride, c.NumPartitions = 8, 1, 4 }), backendtest.DefaultSpec(), 10)
			d := b.TG.Draw(0, true)
			p := backendtest.Rect(d, 0, 0, 16, 8, 0.5)[0]
			red := geom.Vec4{1, 0, 0, 1}
			// 16x8 RGBA8 at 1x, linear: one 64-byte line per row. Quads (0, 0)
			// and (4, 0) touch rows 0 and 1, quad (0, 2) rows 2 and 3.
			b.sendDraw(0, d, shaded(d, p, 0, 0, red, 0xf), shaded(d, p, 4, 0, red, 0xf), shaded(d, p, 0, 2, red, 0xf))
			flush := protocol.NewFlushCmd(tc.Invalidate)
			b.cp.SendAt(100, b.rop.Control, flush)
			d1 := b.TG.Draw(1, true)
			b.sendDraw(300, d1, shaded(d1, p, 0, 0, red, 0xf))
			again := protocol.NewFlushCmd(tc.Invalidate)
			b.cp.SendAt(400, b.rop.Control, again)
			b.run()

			addr := b.TG.ColorDesc.Addr
			lines := []uint64{addr, addr + 64, addr + 128, addr + 192}
			lastFirst := b.Mem.CheckFlush(t, backendtest.FlushWant{Flush: 100, Later: 300, LineBytes: 64,
				FirstWrites: lines, LaterWrites: lines[:2], ReadsBefore: 4, ReadsAfter: tc.ReadsAfter})
			// DrawDone, Done, DrawDone, Done.
			if len(b.cp.Received) != 4 {
				t.Fatalf("command processor received %d messages, want 4", len(b.cp.Received))
			}
			for i, want := range []*protocol.FlushCmd{flush, again} {
				got := b.cp.Received[1+2*i]
				if m, ok := got.Msg.(*protocol.Done); !ok || m.RspTo != want.ID || m.From != part {
					t.Errorf("message %d to the command processor: %+v, want the Done of flush %d from %d", 1+2*i, got.Msg, i, part)
				}
			}
			// The last write-back is taken at lastFirst and answered 10 cycles
			// later; the ROP receives the answer a cycle after and prepares the
			// Done, sends it the next cycle, and it is taken a cycle later (as
			// TestResolve's).
			if got, want := b.cp.Received[1].Cycle, lastFirst+10+3; got != want {
				t.Errorf("first Done at cycle %d, want %d", got, want)
			}
			testpeer.CheckStats(t, testpeer.StatMap(b.rop), b.name, map[string]float64{"flushes": 2, "cache_write_backs": 6,
				"bytes_written": 6 * 64, "cache_invalidated_lines": tc.Dropped, "presents": 0, "resolve_quads": 0})
		})
	}
}

// TestFlushTraced: with a tracer attached, a FlushCmd is a "flush" task
// "flush<msg ID>" below the sender's req_out task of the message, ended with
// the Done, and the write-backs it causes hang below it.
func TestFlushTraced(t *testing.T) {
	b := newBench(t, rop.DefaultConfig(), backendtest.DefaultSpec(), 10)
	d := b.TG.Draw(0, true)
	p := backendtest.Rect(d, 0, 0, 16, 8, 0.5)[0]
	b.sendDraw(0, d, shaded(d, p, 0, 0, geom.Vec4{1, 1, 1, 1}, 0xf))
	backendtest.CheckFlushTraced(t, b.rop, b.rop.Control, b.cp, b.run, &testpeer.TaskLog{})
}
