package depthunit_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/depthunit"
	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/timing"
)

func TestEarlyZMatchesEarlyDepth(t *testing.T) {
	specs := map[string]backendtest.TargetSpec{
		"1x linear D24S8": backendtest.DefaultSpec(),
		"4x tiled D32F stencil": {Width: 16, Height: 8, Samples: 4, ColorFormat: framebuffer.RGBA8,
			ColorLayout: framebuffer.Tiled, DepthFormat: depth.D32F, DepthLayout: framebuffer.Tiled,
			TileW: 4, TileH: 4},
	}
	for name, spec := range specs {
		t.Run(name, func(t *testing.T) {
			b := newBench(t, depthunit.DefaultConfig(), spec, 20)
			a := b.TG.Draw(0, true)
			bb := b.TG.Draw(1, true)
			c := b.TG.Draw(2, true)
			if spec.DepthFormat == depth.D32F {
				// Stencil: increment where the depth test passes; the third
				// draw only passes where the stencil is 1 (drawn once).
				for _, d := range []*protocol.Draw{a, bb, c} {
					d.State.Depth.StencilEnable = true
					d.State.Depth.ReadMask, d.State.Depth.WriteMask = 0xff, 0xff
					d.State.Depth.Front = depth.StencilFace{Func: depth.Always, Fail: depth.Keep,
						DepthFail: depth.Keep, Pass: depth.IncrSat}
					d.State.Depth.Back = d.State.Depth.Front
				}
				c.State.Depth.StencilRef = 1
				c.State.Depth.Front.Func = depth.Equal
			}
			draws := []*protocol.Draw{a, bb, c}
			var tiles [][]*protocol.TileQuads
			for _, d := range draws {
				var prims []*pipeline.Primitive
				switch d {
				case a:
					r := backendtest.Rect(d, 0, 0, 16, 8, 0.5)
					prims = r[:]
				case bb:
					r := backendtest.Rect(d, 0, 0, 16, 8, 0.7) // behind: fails everywhere
					prims = r[:]
				case c:
					prims = []*pipeline.Primitive{backendtest.Prim(d, [3][3]float32{{1, 1, 0.2}, {15, 2, 0.6}, {3, 7, 0.3}})}
				}
				var ts []*protocol.TileQuads
				for _, p := range prims {
					ts = append(ts, backendtest.Tiles(d, p, 0, 1)...)
				}
				tiles = append(tiles, ts)
				b.sendDraw(0, d, ts)
			}
			want, ref, st := expectedEarly(b.TG, draws, tiles)
			b.run()

			got, ends, order := packerMsgs(b.packer)
			var wantOrder []string
			var wantTiles [][]protocol.QuadLive
			k := 0
			culledQuads := 0
			for i := range draws {
				for _, tq := range tiles[i] {
					if len(want[k]) > 0 {
						wantOrder = append(wantOrder, "tile")
						wantTiles = append(wantTiles, want[k])
					}
					culledQuads += len(tq.Quads) - len(want[k])
					k++
				}
				wantOrder = append(wantOrder, "end")
			}
			if !reflect.DeepEqual(order, wantOrder) {
				t.Fatalf("packer received %v, want %v", order, wantOrder)
			}
			for i, tq := range got {
				if !reflect.DeepEqual(tq.Quads, wantTiles[i]) {
					t.Errorf("tile %d: quads %+v, want %+v", i, tq.Quads, wantTiles[i])
				}
				if tq.Partition != 0 {
					t.Errorf("tile %d: partition %d", i, tq.Partition)
				}
			}
			for i, e := range ends {
				if e.Draw != draws[i] || e.From != 0 {
					t.Errorf("DrawEnd %d: draw %d from %d", i, e.Draw.Seq, e.From)
				}
			}
			if !bytes.Equal(b.TG.Depth.Bytes(), ref.Depth.Bytes()) {
				t.Error("the depth buffer differs from pipeline.EarlyDepth's")
			}
			if st.Failed == 0 || st.Passed == 0 || culledQuads == 0 {
				t.Fatalf("weak test: %d passed, %d failed, %d quads culled", st.Passed, st.Failed, culledQuads)
			}
			b.CheckStats(b.du, map[string]float64{
				"samples_passed": float64(st.Passed), "samples_failed": float64(st.Failed),
				"samples_tested_early":       float64(st.Passed + st.Failed),
				"quads_culled_early_z":       float64(culledQuads),
				"tiles_out":                  float64(len(wantTiles)),
				"draw_ends_out":              3,
				"cache_line_reads":           b.stat("cache_misses") - b.stat("cache_misses_merged"),
				"memory.reads":               b.stat("cache_line_reads"),
				"cycles_late_z_drain":        0,
				"samples_tested_late":        0,
				"pass_through_quads":         0,
				"cache_write_backs":          0,
				"memory.writes":              0,
				"cache_cleared_fills":        0,
				"cache_misses_merged":        b.stat("cache_misses_merged"),
				"cache_evictions":            0,
				"presents":                   0,
				"late_z_requests":            0,
				"tiles_culled":               float64(k - len(wantTiles)),
				"bytes_read":                 64 * b.stat("cache_line_reads"),
				"cycles_blocked_output":      0,
				"cache_line_writes_uncached": 0,
			})
		})
	}
}

// oneQuad returns a TileQuads with quad (x, y) of primitive p.
func oneQuad(d *protocol.Draw, p *pipeline.Primitive, x, y int32) *protocol.TileQuads {
	full := raster.FullPixels(15, d.Raster.Samples.Count)
	return protocol.NewTileQuads(d, p, int(x)/8, int(y)/8, 0,
		[]protocol.QuadLive{{Quad: raster.Quad{X: x, Y: y, Coverage: full}, Live: full}})
}

func arrival(t *testing.T, p *backendtest.Peer, i int) uint64 {
	t.Helper()
	if i >= len(p.Received) {
		t.Fatalf("%s received %d messages, want at least %d", p.Name(), len(p.Received), i+1)
	}
	return p.Received[i].Cycle
}

// TestTimingOfOneMiss pins the cycles of one quad whose lines miss: sent by the
// rasterizer at 0, accepted at 1, looked up at 2 (read sent), the memory takes it
// at 3 and answers at 3+10, the unit receives it at 14 and tests, the result
// leaves the 4-cycle test pipeline at 18 and reaches the packer at 19.
func TestTimingOfOneMiss(t *testing.T) {
	b := newBench(t, depthunit.DefaultConfig(), backendtest.DefaultSpec(), 10)
	d := b.TG.Draw(0, true)
	p := backendtest.Rect(d, 0, 0, 16, 8, 0.5)[0]
	b.rast.SendAt(0, b.du.FromRasterizers, oneQuad(d, p, 0, 0))
	b.run()
	// The quad's two rows are two lines (16 pixels x 4 bytes per row).
	want := []backendtest.Access{{Cycle: 3, Addr: b.TG.DepthDesc.Addr, Size: 64}, {Cycle: 3, Addr: b.TG.DepthDesc.Addr + 64, Size: 64}}
	if !reflect.DeepEqual(b.Mem.Log, want) {
		t.Fatalf("memory log %+v, want %+v", b.Mem.Log, want)
	}
	if got := arrival(t, b.packer, 0); got != 19 {
		t.Errorf("the tile reached the packer at cycle %d, want 19", got)
	}
	// Cycles 0-1 idle (nothing arrived yet), busy 1-2 (accept, lookup), waiting
	// for memory 3-13, busy 14-18 (test and pipeline), then idle.
	b.CheckStats(b.du, map[string]float64{"cycles_wait_memory": 11, "cycles_busy": 7})
}

// TestLateToEarlySwitch: an early-Z draw after a late-Z draw at the same place
// waits until the late-Z quads are answered, and not longer. The late draw
// writes a nearer depth, so the early draw is culled only if it is tested after.
func TestLateToEarlySwitch(t *testing.T) {
	b := newBench(t, depthunit.DefaultConfig(), backendtest.DefaultSpec(), 10)
	late := b.TG.Draw(0, false)
	early := b.TG.Draw(1, true)
	pl := backendtest.Rect(late, 0, 0, 16, 8, 0.4)[0]
	pe := backendtest.Rect(early, 0, 0, 16, 8, 0.5)[0]
	b.clearDepth(0)
	lt := oneQuad(late, pl, 0, 0)
	b.rast.SendAt(5, b.du.FromRasterizers, lt)
	b.rast.SendAt(5, b.du.FromRasterizers, protocol.NewDrawEnd(late, 0))
	b.rast.SendAt(5, b.du.FromRasterizers, oneQuad(early, pe, 0, 0))
	b.rast.SendAt(5, b.du.FromRasterizers, protocol.NewDrawEnd(early, 0))
	q := lt.Quads[0]
	b.rop.SendAt(40, b.du.ROP, protocol.NewLateZReq(late, []protocol.LateZQuad{{Prim: pl, Quad: q.Quad, Live: q.Live}}))
	b.run()

	_, ends, order := packerMsgs(b.packer)
	if want := []string{"tile", "end", "end"}; !reflect.DeepEqual(order, want) {
		t.Fatalf("packer received %v, want %v (the early quad must fail against the late draw's depth)", order, want)
	}
	if pass := b.packer.Received[0].Msg.(*protocol.TileQuads); !reflect.DeepEqual(pass.Quads, lt.Quads) {
		t.Errorf("the late-Z tile was not passed through untested: %+v", pass.Quads)
	}
	rsp := b.rop.Received[0]
	if m := rsp.Msg.(*protocol.LateZRsp); !reflect.DeepEqual(m.Pass, []raster.SampleMask{q.Live}) {
		t.Errorf("late-Z pass masks %v", m.Pass)
	}
	// Request sent at 40: accepted 41, looked up 42, tested 43, answered 47,
	// received by the ROP at 48. The early quad is looked up at 47 (the cycle the
	// answer leaves), tested at 48, its result leaves the pipeline at 52 and the
	// DrawEnd behind it reaches the packer at 53.
	if rsp.Cycle != 48 {
		t.Errorf("late-Z response at cycle %d, want 48", rsp.Cycle)
	}
	if got := b.packer.Received[2].Cycle; got != 53 || ends[1].Draw != early {
		t.Errorf("the early draw's DrawEnd reached the packer at cycle %d, want 53", got)
	}
	if g := b.stat("cycles_late_z_drain"); g < 30 {
		t.Errorf("cycles_late_z_drain = %v, want the wait for the late request", g)
	}
	// One quad: four samples on two lines (rows 0 and 1).
	b.CheckStats(b.du, map[string]float64{"quads_culled_early_z": 1, "samples_tested_late": 4, "samples_tested_early": 4,
		"pass_through_quads": 1, "late_z_quads": 1, "memory.reads": 0, "cache_cleared_fills": 2, "cache_hits": 2})
}

// TestLateServedWhileEarlyWaitsOnMemory: late requests never wait behind early
// work that waits for memory.
func TestLateServedWhileEarlyWaitsOnMemory(t *testing.T) {
	spec := backendtest.DefaultSpec()
	spec.SecondDepth = true
	b := newBench(t, depthunit.DefaultConfig(), spec, 200)
	early := b.TG.Draw(0, true)
	late := b.TG.Draw(1, false)
	b.TG.UseSecondDepth(late)
	pe := backendtest.Rect(early, 0, 0, 16, 8, 0.5)[0]
	pl := backendtest.Rect(late, 0, 0, 16, 8, 0.5)[0]
	b.cp.SendAt(0, b.du.Control, protocol.NewClearCmd(command.ClearDepth|command.ClearStencil, b.TG.Depth2Desc,
		b.TG.Depth2.SizeBytes()))
	b.rast.SendAt(5, b.du.FromRasterizers, oneQuad(early, pe, 0, 0))
	lq := oneQuad(late, pl, 4, 0).Quads[0]
	b.rop.SendAt(10, b.du.ROP, protocol.NewLateZReq(late, []protocol.LateZQuad{{Prim: pl, Quad: lq.Quad, Live: lq.Live}}))
	b.run()
	if got := arrival(t, b.rop, 0); got != 18 {
		t.Errorf("late-Z response at cycle %d, want 18 (10 + accept, lookup, test, 4-cycle pipeline, link)", got)
	}
	if got := arrival(t, b.packer, 0); got < 200 {
		t.Errorf("the early tile left at cycle %d, before its line arrived", got)
	}
	if m := b.rop.Received[0].Msg.(*protocol.LateZRsp); !reflect.DeepEqual(m.Pass, []raster.SampleMask{lq.Live}) {
		t.Errorf("late-Z pass masks %v", m.Pass)
	}
}

// TestDepthCache: a line is read once and then hit, a dirty victim is written back
// with the image's bytes, a clear drops lines without write-back and a cleared
// line costs no read, and Present writes back every dirty line before Done. (The
// functional clear is not applied: this test is about traffic.)
func TestDepthCache(t *testing.T) {
	b := newBench(t, testpeer.Edit(depthunit.DefaultConfig(), func(c *depthunit.Config) { c.Cache.Size, c.Cache.Ways, c.Cache.LineSize = 256, 2, 64 }), backendtest.DefaultSpec(), 20)
	d := b.TG.Draw(0, true)
	p := backendtest.Rect(d, 0, 0, 16, 8, 0.5)[0]
	row := func(y uint64) uint64 { return b.TG.DepthDesc.Addr + 64*y }
	// 16x8 D24S8 linear: one 64-byte line per row; 2 sets of 2 ways.
	b.rast.SendAt(0, b.du.FromRasterizers, oneQuad(d, p, 0, 0))   // rows 0, 1: two reads
	b.rast.SendAt(100, b.du.FromRasterizers, oneQuad(d, p, 2, 0)) // hits
	b.rast.SendAt(100, b.du.FromRasterizers, oneQuad(d, p, 4, 0)) // hits
	b.rast.SendAt(200, b.du.FromRasterizers, oneQuad(d, p, 0, 2)) // rows 2, 3: the second ways
	b.rast.SendAt(300, b.du.FromRasterizers, oneQuad(d, p, 0, 4)) // rows 4, 5 evict rows 0, 1 (dirty)
	b.rast.SendAt(300, b.du.FromRasterizers, protocol.NewDrawEnd(d, 0))
	clear := b.clearDepth(400)
	d2 := b.TG.Draw(1, true)
	p2 := backendtest.Rect(d2, 0, 0, 16, 8, 0.25)[0]
	b.rast.SendAt(500, b.du.FromRasterizers, oneQuad(d2, p2, 0, 0)) // cleared lines: no read
	present := protocol.NewPresentCmd(b.TG.ColorDesc, b.TG.Display)
	b.cp.SendAt(600, b.du.Control, present)
	b.run()

	if got, want := b.Mem.Reads(), []uint64{row(0), row(1), row(2), row(3), row(4), row(5)}; !reflect.DeepEqual(got, want) {
		t.Errorf("reads %x, want %x", got, want)
	}
	if got, want := b.Mem.Writes(), []uint64{row(0), row(1), row(0), row(1)}; !reflect.DeepEqual(got, want) {
		t.Fatalf("writes %x, want %x (two victims, then the flush at Present)", got, want)
	}
	// The victims carry the image's bytes when they were written: depth 0.5 in
	// pixels 0-5 (three quads), 1.0 elsewhere.
	q5, q1 := depth.Quantize(0.5, depth.D24S8), depth.Quantize(1, depth.D24S8)
	var want [64]byte
	for x := 0; x < 16; x++ {
		v := q1
		if x < 6 {
			v = q5
		}
		want[4*x], want[4*x+1], want[4*x+2], want[4*x+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	var writes []backendtest.Access
	for _, a := range b.Mem.Log {
		if a.Write {
			writes = append(writes, a)
		}
	}
	for i := 0; i < 2; i++ {
		if !bytes.Equal(writes[i].Data, want[:]) {
			t.Errorf("victim %d carried % x, want % x", i, writes[i].Data, want)
		}
		if writes[i].Cycle < 300 || writes[i].Cycle > 400 {
			t.Errorf("victim %d written at cycle %d", i, writes[i].Cycle)
		}
		if writes[2+i].Cycle < 600 {
			t.Errorf("flush write %d at cycle %d, before Present", i, writes[2+i].Cycle)
		}
	}
	if len(b.cp.Received) != 2 {
		t.Fatalf("command processor received %d messages", len(b.cp.Received))
	}
	for i, cmd := range []sim.Msg{clear, present} {
		if dn := b.cp.Received[i].Msg.(*protocol.Done); dn.RspTo != cmd.Meta().ID || dn.From != 0 {
			t.Errorf("Done %d answers %s from %d", i, dn.RspTo, dn.From)
		}
	}
	// The flush's last write is answered 20 cycles after the memory took it;
	// the unit receives that at +1 and sends Done the cycle after, which
	// arrives one cycle later.
	if got, want := b.cp.Received[1].Cycle, writes[3].Cycle+20+3; got != want {
		t.Errorf("Present acknowledged at cycle %d, want %d", got, want)
	}
	b.CheckStats(b.du, map[string]float64{"cache_hits": 4, "cache_misses": 8, "cache_line_reads": 6,
		"cache_cleared_fills": 2, "cache_evictions": 2, "cache_write_backs": 4, "bytes_read": 6 * 64,
		"bytes_written": 4 * 64, "clears": 1, "presents": 1, "cache_cleared_lines": 8, "samples_passed": 6 * 4})
}

// TestDrawEndFromEveryRasterizer: a DrawEnd is forwarded once, after it came
// from all rasterizers.
func TestDrawEndFromEveryRasterizer(t *testing.T) {
	b := newBench(t, testpeer.Edit(depthunit.DefaultConfig(), func(c *depthunit.Config) { c.NumRasterizers = 2; c.Index = 1 }), backendtest.DefaultSpec(), 10)
	d := b.TG.Draw(0, true)
	b.rast.SendAt(0, b.du.FromRasterizers, protocol.NewDrawEnd(d, 0))
	b.rast.SendAt(10, b.du.FromRasterizers, protocol.NewDrawEnd(d, 1))
	b.run()
	if len(b.packer.Received) != 1 {
		t.Fatalf("packer received %d messages, want 1", len(b.packer.Received))
	}
	e := b.packer.Received[0]
	if m := e.Msg.(*protocol.DrawEnd); m.Draw != d || m.From != 1 || e.Cycle != 13 {
		t.Errorf("DrawEnd of draw %d from %d at cycle %d, want draw 0 from partition 1 at 13", m.Draw.Seq, m.From, e.Cycle)
	}
	m := b.stats()
	if m["GPU.DepthUnit[0].draw_ends_in"] != 2 || m["GPU.DepthUnit[0].draw_ends_out"] != 1 {
		t.Errorf("draw ends in %v out %v", m["GPU.DepthUnit[0].draw_ends_in"], m["GPU.DepthUnit[0].draw_ends_out"])
	}
}

// TestBlockedPackerHoldsOutput: the unit keeps a finished tile while the packer
// refuses it and sends it as soon as it can.
func TestBlockedPackerHoldsOutput(t *testing.T) {
	b := newBench(t, depthunit.DefaultConfig(), backendtest.DefaultSpec(), 10)
	d := b.TG.Draw(0, false) // pass through
	p := backendtest.Rect(d, 0, 0, 16, 8, 0.5)[0]
	b.packer.Hold(100)
	for i := 0; i < 16; i++ {
		b.rast.SendAt(0, b.du.FromRasterizers, oneQuad(d, p, int32(2*(i%8)), int32(2*(i/8))))
	}
	b.run()
	// The packer's port and the connection hold 4 messages each. The unit
	// accepts one message per cycle from cycle 1 and passes it on the next, so
	// the ninth send fails at cycle 10; the unit stays busy accepting until its
	// window of 8 is full (message 16, cycle 16), then is blocked from cycle 17
	// until the packer takes messages again at cycle 100 (the unit is woken at
	// 101): 84 cycles.
	if g := b.stat("cycles_blocked_output"); g != 84 {
		t.Errorf("cycles_blocked_output = %v", g)
	}
	if len(b.packer.Received) != 16 || b.packer.Received[0].Cycle != 100 {
		t.Errorf("packer received %d tiles, the first at cycle %d, want 16 from cycle 100",
			len(b.packer.Received), b.packer.Received[0].Cycle)
	}
	for i, r := range b.packer.Received {
		if q := r.Msg.(*protocol.TileQuads).Quads[0].Quad; q.X != int32(2*(i%8)) || q.Y != int32(2*(i/8)) {
			t.Errorf("tile %d is quad (%d, %d): out of order", i, q.X, q.Y)
		}
	}
}

func TestBuilderValidate(t *testing.T) {
	type cfg = depthunit.Config
	testpeer.CheckValidate(t, depthunit.DefaultConfig(), []testpeer.ConfigCase[cfg]{
		{Want: "MaxOutstanding", Edit: func(c *cfg) { c.Cache.MaxOutstanding = 0 }},
		{Want: "Cache.Size", Edit: func(c *cfg) { c.Cache.Size = 3000 }},
		{Want: "Cache.LineSize", Edit: func(c *cfg) { c.Cache.Size, c.Cache.LineSize = 4096, 48 }},
		{Want: "Index", Edit: func(c *cfg) { c.Index = -1 }},
	})
	testpeer.CheckAtLeast(t, depthunit.DefaultConfig(), "depthunit", 1,
		"NumRasterizers", "SamplesPerCycle", "TestLatency", "InputQueue",
		"TileWindow", "LateQueue", "WaitQuads", "FeedbackQueue")
	testpeer.CheckEnv(t, true, func(env timing.Env) { depthunit.MakeBuilder().WithEnv(env).Build("GPU.DepthUnit[0]") })
}

func TestBuffersAndNames(t *testing.T) {
	b := newBench(t, depthunit.DefaultConfig(), backendtest.DefaultSpec(), 10)
	b.CheckIdleBuffers(b.du)
}

// TestBlockedIsNotBusy: the packer takes nothing before cycle 300; its port and
// the connection hold eight messages. Twelve nearer and nearer copies of one
// quad all pass early Z, so from the ninth result on the unit holds a result the
// packer refuses: those cycles are blocked_output, not busy.
func TestBlockedIsNotBusy(t *testing.T) {
	b := newBench(t, depthunit.DefaultConfig(), backendtest.DefaultSpec(), 10)
	b.packer.Hold(300)
	d := b.TG.Draw(0, true)
	for i := 0; i < 12; i++ {
		p := backendtest.Rect(d, 0, 0, 16, 8, 0.9-0.05*float32(i))[0]
		b.rast.SendAt(uint64(i), b.du.FromRasterizers, oneQuad(d, p, 0, 0))
	}
	b.run()
	if len(b.packer.Received) != 12 {
		t.Fatalf("the packer received %d tiles, want 12", len(b.packer.Received))
	}
	// Blocked from the first refusal at cycle 27 to the packer's first retrieval
	// at 300; the rest: the miss, the tests and the sends.
	got := [4]float64{b.stat("cycles_busy"), b.stat("cycles_blocked_output"), b.stat("cycles_wait_memory"), b.stat("cycles_idle")}
	if want := [4]float64{27, 273, 4, 2}; got != want {
		t.Errorf("busy, blocked_output, wait_memory, idle cycles %v, want %v", got, want)
	}
}

// TestBypassPastWaitingEarlyTile: with two rasterizers, an early-Z tile of
// draw 1 (from rasterizer 1) reaches the head of the window while draw 0, a
// late-Z draw, still has a pass-through tile queued behind it (rasterizer 0
// lagged). The early tile waits for draw 0's late Z, which cannot come before
// that pass-through tile reaches the ROP: the pass-through tile and draw 0's
// DrawEnd leave past it, then the early tile once draw 0's late Z is answered.
func TestBypassPastWaitingEarlyTile(t *testing.T) {
	b := newBench(t, testpeer.Edit(depthunit.DefaultConfig(), func(c *depthunit.Config) { c.NumRasterizers = 2 }), backendtest.DefaultSpec(), 10)
	late := b.TG.Draw(0, false)
	early := b.TG.Draw(1, true)
	pl := backendtest.Rect(late, 0, 0, 32, 8, 0.4)[0]
	pe := backendtest.Rect(early, 0, 0, 32, 8, 0.5)[0]
	b.clearDepth(0)
	a, lagging := oneQuad(late, pl, 0, 0), oneQuad(late, pl, 16, 0)
	b.rast.SendAt(5, b.du.FromRasterizers, a)
	b.rast.SendAt(5, b.du.FromRasterizers, oneQuad(early, pe, 8, 0))
	b.rast.SendAt(5, b.du.FromRasterizers, lagging)
	b.rast.SendAt(5, b.du.FromRasterizers, protocol.NewDrawEnd(late, 0))
	b.rast.SendAt(5, b.du.FromRasterizers, protocol.NewDrawEnd(late, 1))
	b.rast.SendAt(5, b.du.FromRasterizers, protocol.NewDrawEnd(early, 0))
	b.rast.SendAt(5, b.du.FromRasterizers, protocol.NewDrawEnd(early, 1))
	for i, q := range []*protocol.TileQuads{a, lagging} {
		b.rop.SendAt(uint64(60+10*i), b.du.ROP, protocol.NewLateZReq(late,
			[]protocol.LateZQuad{{Prim: pl, Quad: q.Quads[0].Quad, Live: q.Quads[0].Live}}))
	}
	b.run()

	tiles, ends, order := packerMsgs(b.packer)
	if want := []string{"tile", "tile", "end", "tile", "end"}; !reflect.DeepEqual(order, want) {
		t.Fatalf("packer received %v, want %v", order, want)
	}
	if tiles[0].Quads[0].Quad.X != 0 || tiles[1].Quads[0].Quad.X != 16 || tiles[2].Draw != early || ends[0].Draw != late {
		t.Errorf("order of the packer's messages: %+v %+v %+v, ends %d %d", tiles[0].Quads[0].Quad, tiles[1].Quads[0].Quad,
			tiles[2].Draw.Seq, ends[0].Draw.Seq, ends[1].Draw.Seq)
	}
	if c := arrival(t, b.packer, 2); c >= 60 {
		t.Errorf("draw 0's DrawEnd reached the packer at cycle %d, after its late Z began (60): it waited behind draw 1's tile", c)
	}
	if c := arrival(t, b.packer, 3); c <= 70 {
		t.Errorf("draw 1's early tile left at cycle %d, before draw 0's late Z was answered", c)
	}
	if g := b.stat("bypassed"); g != 2 {
		t.Errorf("bypassed = %v, want 2 (the lagging tile and the DrawEnd)", g)
	}
}
