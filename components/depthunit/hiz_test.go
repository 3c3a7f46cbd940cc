package depthunit_test

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/depthunit"
	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/state"
)

// withHiZ adds a scripted HiZ unit on its own connection: it records what the
// depth unit sends it and acknowledges every HiZControl after ackDelay cycles
// on the depth unit's input (through the rasterizer peer, which stands for the
// HiZ unit's data path).
func withHiZ(b *bench, ackDelay uint64) *backendtest.Peer {
	h := backendtest.NewPeer("HiZ", b.E, 1*sim.GHz, 64)
	c := sim.NewDirectConnection("HiZConn", b.E, 1*sim.GHz)
	c.PlugIn(b.du.ToHiZ, 4)
	c.PlugIn(h.Port, 4)
	b.du.HiZ = h.Port
	h.OnRecv = func(p *backendtest.Peer, cycle uint64, msg sim.Msg) {
		if m, ok := msg.(*protocol.HiZControl); ok {
			b.rast.SendAt(cycle+ackDelay, b.du.FromRasterizers, protocol.NewDone(m.ID, 0))
		}
	}
	return h
}

// TestHiZRelay: a depth clear and a present are relayed to the HiZ unit, and
// the command processor gets its Done only after the HiZ unit's. Clear sent at
// 0: taken at 1, relayed at 2, seen by the HiZ unit at 3, acknowledged at 8,
// taken at 9, Done sent at 10 and seen at 11; the present likewise 100 cycles
// later.
func TestHiZRelay(t *testing.T) {
	b := newBench(t, testpeer.Edit(depthunit.DefaultConfig(), func(c *depthunit.Config) { c.HiZ = fhiz.Config{Mode: fhiz.ZMask} }), backendtest.DefaultSpec(), 10)
	h := withHiZ(b, 5)
	size, _ := state.DepthTargetSize(b.TG.Depth.Geometry, depth.D24S8)
	clr := protocol.NewClearCmd(command.ClearDepth|command.ClearStencil, b.TG.DepthDesc, size)
	b.cp.SendAt(0, b.du.Control, clr)
	b.cp.SendAt(100, b.du.Control, protocol.NewPresentCmd(b.TG.ColorDesc, b.TG.Display))
	b.run()
	var got []string
	var cycles []uint64
	for _, r := range h.Received {
		m := r.Msg.(*protocol.HiZControl)
		switch {
		case m.Clear:
			got = append(got, "clear")
			if m.Key != depth.MaxD24 || m.Target != b.TG.DepthDesc {
				t.Errorf("clear of %+v to %d", m.Target, m.Key)
			}
		case m.Flush:
			got = append(got, "flush")
		}
		cycles = append(cycles, r.Cycle)
	}
	if !reflect.DeepEqual(got, []string{"clear", "flush"}) || !reflect.DeepEqual(cycles, []uint64{3, 103}) {
		t.Errorf("the HiZ unit got %v at %v", got, cycles)
	}
	var dones []uint64
	for _, r := range b.cp.Received {
		dones = append(dones, r.Cycle)
	}
	if !reflect.DeepEqual(dones, []uint64{11, 111}) {
		t.Errorf("the command processor got Done at %v, want [11 111]", dones)
	}
}

// rectTiles returns the tiles of a rectangle at depth z over [0,x1) x [0,8).
func rectTiles(d *protocol.Draw, x1, z float32) []*protocol.TileQuads {
	r := backendtest.Rect(d, 0, 0, x1, 8, z)
	r[1].Source = 1
	return append(backendtest.Tiles(d, r[0], 0, 1), backendtest.Tiles(d, r[1], 0, 1)...)
}

// TestUpdateFeedback: after each message's last quad is tested the unit sends
// the bounds of the HiZ tiles (4x4 pixels) the message touched, stamped with
// its primitive; the last feedback of each tile is the tile's final bounds.
func TestUpdateFeedback(t *testing.T) {
	b := newBench(t, testpeer.Edit(depthunit.DefaultConfig(), func(c *depthunit.Config) { c.HiZ = fhiz.Config{Mode: fhiz.Forward, Feedback: fhiz.UpdateFeedback} }),
		backendtest.DefaultSpec(), 10)
	h := withHiZ(b, 1)
	d := b.TG.Draw(0, true)
	tiles := rectTiles(d, 12, 0.5)
	b.sendDraw(0, d, tiles)
	b.run()
	last := map[int]protocol.HiZTileBounds{}
	for i, r := range h.Received {
		m := r.Msg.(*protocol.HiZFeedback)
		if m.Target != b.TG.DepthDesc.Addr || m.Draw != 0 || m.Prim != fhiz.PrimOrder(tiles[i].Prim.Source, 0) {
			t.Errorf("feedback %d: target 0x%x, position (%d, %d)", i, m.Target, m.Draw, m.Prim)
		}
		for _, tb := range m.Tiles {
			last[tb.Tile] = tb
		}
	}
	if len(h.Received) != len(tiles) {
		t.Fatalf("%d feedback messages for %d tiles", len(h.Received), len(tiles))
	}
	k5 := depth.Quantize(0.5, depth.D24S8)
	want := map[int]protocol.HiZTileBounds{}
	for _, ti := range []int{0, 1, 2, 4, 5, 6} { // x < 12: covered
		want[ti] = protocol.HiZTileBounds{Tile: ti, Lo: k5, Hi: k5}
	}
	if !reflect.DeepEqual(last, want) {
		t.Errorf("last feedback %v,\nwant %v", last, want)
	}
	if b.stat("feedback_messages") != float64(len(tiles)) || b.stat("feedback_dropped") != 0 {
		t.Errorf("feedback_messages %v dropped %v", b.stat("feedback_messages"), b.stat("feedback_dropped"))
	}
}

// TestEvictFeedback: with a four-line depth cache, dirty lines leave it while
// the rectangle is drawn; each eviction reports the HiZ tiles whose every line
// was in the cache, with bounds that are states the tile went through.
func TestEvictFeedback(t *testing.T) {
	b := newBench(t, testpeer.Edit(depthunit.DefaultConfig(), func(c *depthunit.Config) {
		c.Cache.Size, c.Cache.Ways, c.Cache.LineSize = 256, 4, 64
		c.HiZ = fhiz.Config{Mode: fhiz.Forward, Feedback: fhiz.EvictFeedback}
	}), backendtest.DefaultSpec(), 10)
	h := withHiZ(b, 1)
	d := b.TG.Draw(0, true)
	d2 := b.TG.Draw(1, true)
	b.sendDraw(0, d, rectTiles(d, 16, 0.5))
	b.sendDraw(0, d2, rectTiles(d2, 16, 0.25))
	b.run()
	k5, k25 := depth.Quantize(0.5, depth.D24S8), depth.Quantize(0.25, depth.D24S8)
	n := 0
	for _, r := range h.Received {
		for _, tb := range r.Msg.(*protocol.HiZFeedback).Tiles {
			n++
			ok := false
			for _, v := range [][2]uint32{{k5, k5}, {k5, depth.MaxD24}, {k25, k25}, {k25, k5}, {depth.MaxD24, depth.MaxD24}} {
				ok = ok || (tb.Lo == v[0] && tb.Hi == v[1])
			}
			if !ok {
				t.Errorf("tile %d: bounds [%d, %d]", tb.Tile, tb.Lo, tb.Hi)
			}
		}
	}
	if n == 0 || b.stat("cache_evictions") == 0 {
		t.Fatalf("weak test: %d tiles fed back, %v evictions", n, b.stat("cache_evictions"))
	}
}

// TestZCompression: 256-byte depth lines of a 4x target drawn at one depth
// compress to one 64-byte access unit: the flush at Present writes eight
// 64-byte blocks; after the lines left the cache (a draw on a second target),
// drawing on the first target again reads eight 64-byte blocks and evicts the
// second target's eight dirty lines, written back compressed too.
func TestZCompression(t *testing.T) {
	spec := backendtest.TargetSpec{Width: 16, Height: 8, Samples: 4, ColorFormat: framebuffer.RGBA8,
		ColorLayout: framebuffer.Tiled, DepthFormat: depth.D24S8, DepthLayout: framebuffer.Tiled, TileW: 4, TileH: 4,
		SecondDepth: true}
	b := newBench(t, testpeer.Edit(depthunit.DefaultConfig(), func(c *depthunit.Config) {
		c.Cache.Size, c.Cache.Ways, c.Cache.LineSize = 2048, 8, 256
		c.Cache.Compression, c.Cache.MinBlock = true, 64
	}), spec, 10)
	d := b.TG.Draw(0, true)
	b.sendDraw(0, d, rectTiles(d, 16, 0.5))
	b.cp.SendAt(200, b.du.Control, protocol.NewPresentCmd(b.TG.ColorDesc, b.TG.Display))
	d2 := b.TG.Draw(1, true)
	b.TG.UseSecondDepth(d2)
	b.sendDraw(300, d2, rectTiles(d2, 16, 0.5))
	d3 := b.TG.Draw(2, true)
	b.sendDraw(600, d3, rectTiles(d3, 16, 0.25))
	b.run()
	type x struct {
		size  uint64
		write bool
	}
	count := map[x]int{}
	for _, a := range b.Mem.Log {
		count[x{a.Size, a.Write}]++
	}
	// First target: 8 uncompressed reads, 8 compressed write-backs at the
	// flush, 8 compressed reads when drawn again. Second target: 8
	// uncompressed reads and 8 compressed write-backs.
	want := map[x]int{{256, false}: 16, {64, true}: 16, {64, false}: 8}
	if !reflect.DeepEqual(count, want) {
		t.Errorf("memory requests %v, want %v", count, want)
	}
	if b.stat("cache_write_backs_compressed") != 16 || b.stat("cache_line_reads_compressed") != 8 ||
		b.stat("cache_compression_bytes_saved") != 24*192 {
		t.Errorf("compressed write-backs %v reads %v saved %v", b.stat("cache_write_backs_compressed"),
			b.stat("cache_line_reads_compressed"), b.stat("cache_compression_bytes_saved"))
	}
}

// TestHiZRelaySyncFlush: a write-back FlushCmd (a sync token's, on the
// sort-last machine) is relayed to the HiZ unit as a flush, like a present,
// and the command processor gets its Done after the HiZ unit's: sent at 0,
// taken at 1, relayed at 2, seen by the HiZ unit at 3, acknowledged at 8,
// Done seen at 11.
func TestHiZRelaySyncFlush(t *testing.T) {
	b := newBench(t, testpeer.Edit(depthunit.DefaultConfig(), func(c *depthunit.Config) { c.HiZ = fhiz.Config{Mode: fhiz.ZMask} }), backendtest.DefaultSpec(), 10)
	h := withHiZ(b, 5)
	flush := protocol.NewFlushCmd(false)
	b.cp.SendAt(0, b.du.Control, flush)
	b.run()
	if len(h.Received) != 1 || !h.Received[0].Msg.(*protocol.HiZControl).Flush || h.Received[0].Cycle != 3 {
		t.Fatalf("the HiZ unit got %+v, want one flush at 3", h.Received)
	}
	if len(b.cp.Received) != 1 || b.cp.Received[0].Cycle != 11 || b.cp.Received[0].Msg.(*protocol.Done).RspTo != flush.ID {
		t.Errorf("the command processor got %+v, want the flush's Done at 11", b.cp.Received)
	}
}
