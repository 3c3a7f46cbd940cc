package hiz_test

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/hiz"
	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/depth"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/timing"
)

// bench is a HiZ unit (partition 0 of 1) with a scripted rasterizer, a
// scripted depth unit and a fixed-latency memory.
type bench struct {
	t      *testing.T
	e      sim.Engine
	u      *hiz.Comp
	raster *backendtest.Peer
	depth  *backendtest.Peer
	mem    *backendtest.Memory
	tg     *backendtest.Targets
	stats  map[string]float64
}

func spec() backendtest.TargetSpec {
	return backendtest.TargetSpec{Width: 16, Height: 8, Samples: 4, ColorFormat: framebuffer.RGBA8,
		ColorLayout: framebuffer.Tiled, DepthFormat: depth.D24S8, DepthLayout: framebuffer.Tiled, TileW: 4, TileH: 4}
}

func newBench(t *testing.T, cfg hiz.Config, latency int) *bench {
	t.Helper()
	return newBenchDepthCap(t, cfg, latency, 64)
}

// newBenchDepthCap is newBench with the depth unit's port holding depthCap
// messages.
func newBenchDepthCap(t *testing.T, cfg hiz.Config, latency, depthCap int) *bench {
	t.Helper()
	e := sim.NewSerialEngine()
	f := 1 * sim.GHz
	tg, err := backendtest.NewTargets(spec())
	if err != nil {
		t.Fatal(err)
	}
	cfg.NumPartitions, cfg.PartitionStride, cfg.PartitionTile = 1, 1, 16
	u := hiz.MakeBuilder().WithEnv(timing.Env{Engine: e, Freq: f}).WithConfig(cfg).Build("HiZ")
	bn := &bench{t: t, e: e, u: u, tg: tg,
		raster: backendtest.NewPeer("Raster", e, f, 4), depth: backendtest.NewPeer("Depth", e, f, depthCap),
		mem: backendtest.NewMemory("Memory", e, f, latency)}
	c1 := sim.NewDirectConnection("C1", e, f)
	c1.PlugIn(bn.raster.Port, 4)
	c1.PlugIn(u.FromRasterizers, 4)
	c2 := sim.NewDirectConnection("C2", e, f)
	c2.PlugIn(bn.depth.Port, 4)
	c2.PlugIn(u.FromDepthUnit, 4)
	c2.PlugIn(u.ToDepthUnit, 4)
	c3 := sim.NewDirectConnection("C3", e, f)
	c3.PlugIn(u.ToMemory, 4)
	c3.PlugIn(bn.mem.Top, 4)
	u.DepthUnit, u.Memory = bn.depth.Port, bn.mem
	return bn
}

func (b *bench) run() {
	b.t.Helper()
	if err := b.e.Run(); err != nil {
		b.t.Fatal(err)
	}
	b.u.Finish(b.e.CurrentTime())
	b.stats = map[string]float64{}
	b.u.Stats(func(n string, v float64) { b.stats[n] = v })
}

func (b *bench) stat(name string) float64 { return b.stats["HiZ."+name] }

// clearAt makes the depth unit relay a clear of the depth target to 1.0.
func (b *bench) clearAt(cycle uint64) {
	b.depth.SendAt(cycle, b.u.FromDepthUnit, protocol.NewHiZClear(b.tg.DepthDesc, depth.MaxD24))
}

// received splits what the depth unit got.
func (b *bench) received() (tiles []*protocol.TileQuads, ends []*protocol.DrawEnd, dones []uint64) {
	for _, r := range b.depth.Received {
		switch m := r.Msg.(type) {
		case *protocol.TileQuads:
			tiles = append(tiles, m)
		case *protocol.DrawEnd:
			ends = append(ends, m)
		case *protocol.Done:
			dones = append(dones, r.Cycle)
		}
	}
	return
}

// expected runs the functional coarse buffer over the messages in order and
// returns the surviving quads of each (nil when none survives) and its stats.
func expected(t *testing.T, cfg fhiz.Config, tg *backendtest.Targets, msgs []*protocol.TileQuads) ([][]protocol.QuadLive, fhiz.Stats) {
	t.Helper()
	buf := newFunctional(t, cfg)
	var out [][]protocol.QuadLive
	for _, m := range msgs {
		out = append(out, process(buf, m, msgPos(m)))
	}
	return out, buf.Stats()
}

// newFunctional returns the functional coarse buffer of cfg over the bench's
// 16x8 4x depth target, cleared to the far plane.
func newFunctional(t *testing.T, cfg fhiz.Config) *fhiz.Buffer {
	t.Helper()
	buf, err := fhiz.NewBuffer(cfg, fhiz.Target{Width: 16, Height: 8, Samples: 4, Format: depth.D24S8})
	if err != nil {
		t.Fatal(err)
	}
	buf.Clear(depth.MaxD24, fhiz.Pos{})
	return buf
}

// msgPos is the functional buffer's position of message m: its draw and
// primitive.
func msgPos(m *protocol.TileQuads) fhiz.Pos {
	return fhiz.Pos{Draw: m.Draw.Seq, Prim: fhiz.PrimOrder(m.Prim.Source, m.Prim.Part)}
}

// process runs the quads of m through buf at pos and returns those with
// samples left (nil when none).
func process(buf *fhiz.Buffer, m *protocol.TileQuads, pos fhiz.Pos) []protocol.QuadLive {
	dc := fhiz.NewDrawContext(m.Draw.State)
	quads := make([]raster.Quad, len(m.Quads))
	live := make([]raster.SampleMask, len(m.Quads))
	for i, q := range m.Quads {
		quads[i], live[i] = q.Quad, q.Live
	}
	buf.ProcessQuads(&dc, &m.Draw.Raster, m.Prim, quads, live, pos)
	var kept []protocol.QuadLive
	for i, q := range m.Quads {
		if !live[i].Empty() {
			kept = append(kept, protocol.QuadLive{Quad: q.Quad, Live: live[i]})
		}
	}
	return kept
}

// scene returns three draws: a wall at 0.5 over the left 12 pixels, a
// rectangle behind it at 0.7 over the whole target, and a triangle in front.
func scene(tg *backendtest.Targets) ([]*protocol.Draw, [][]*protocol.TileQuads) {
	var draws []*protocol.Draw
	var msgs [][]*protocol.TileQuads
	add := func(d *protocol.Draw, prims ...*pipeline.Primitive) {
		var ms []*protocol.TileQuads
		for i, p := range prims {
			p.Source = i
			ms = append(ms, backendtest.Tiles(d, p, 0, 1)...)
		}
		draws, msgs = append(draws, d), append(msgs, ms)
	}
	a := tg.Draw(0, true)
	r := backendtest.Rect(a, 0, 0, 12, 8, 0.5)
	add(a, r[0], r[1])
	b := tg.Draw(1, true)
	r = backendtest.Rect(b, 0, 0, 16, 8, 0.7)
	add(b, r[0], r[1])
	c := tg.Draw(2, true)
	add(c, backendtest.Prim(c, [3][3]float32{{1, 1, 0.2}, {15, 2, 0.6}, {3, 7, 0.3}}))
	return draws, msgs
}

// TestCullingMatchesBuffer: the unit culls exactly what the functional coarse
// buffer culls, forwards the survivors and the DrawEnd markers in order, and
// acknowledges the clear.
func TestCullingMatchesBuffer(t *testing.T) {
	for _, cfg := range []fhiz.Config{{Mode: fhiz.ZMask}, {Mode: fhiz.Forward}, {Mode: fhiz.Oracle},
		{Mode: fhiz.ZMask, Layers: 3, Placement: fhiz.IntervalOnly}, {Mode: fhiz.Forward, Feedback: fhiz.IdealFeedback}} {
		t.Run(cfg.Mode.String(), func(t *testing.T) {
			b := newBench(t, testpeer.Edit(hiz.DefaultConfig(), func(c *hiz.Config) { c.HiZ = cfg }), 10)
			b.clearAt(0)
			draws, msgs := scene(b.tg)
			var all []*protocol.TileQuads
			for i, d := range draws {
				for _, m := range msgs[i] {
					b.raster.SendAt(5, b.u.FromRasterizers, m)
					all = append(all, m)
				}
				b.raster.SendAt(5, b.u.FromRasterizers, protocol.NewDrawEnd(d, 0))
			}
			want, st := expected(t, cfg, b.tg, all)
			b.run()
			tiles, ends, dones := b.received()
			var wantTiles [][]protocol.QuadLive
			culled := 0
			for _, w := range want {
				if w != nil {
					wantTiles = append(wantTiles, w)
				} else {
					culled++
				}
			}
			if st.QuadsCulled == 0 {
				t.Fatalf("weak test: nothing culled")
			}
			if len(tiles) != len(wantTiles) {
				t.Fatalf("%d tiles forwarded, want %d", len(tiles), len(wantTiles))
			}
			for i := range tiles {
				if !reflect.DeepEqual(tiles[i].Quads, wantTiles[i]) {
					t.Errorf("tile %d: %+v, want %+v", i, tiles[i].Quads, wantTiles[i])
				}
			}
			if len(ends) != 3 || len(dones) != 1 {
				t.Errorf("%d DrawEnd, %d Done", len(ends), len(dones))
			}
			testpeer.CheckStats(t, b.stats, "HiZ", map[string]float64{
				"tiles_in": float64(len(all)), "tiles_out": float64(len(wantTiles)), "messages_culled": float64(culled),
				"coarse_tests": float64(st.Tiles), "tiles_culled": float64(st.TilesCulled),
				"units_culled": float64(st.UnitsCulled), "quads_culled": float64(st.QuadsCulled),
				"draw_ends": 3, "clears": 1,
			})
		})
	}
}

// TestTimingPinned pins the cycles of one message: after the clear (accepted
// at 1, acknowledged at 2, seen by the depth unit at 3), a TileQuads sent at
// cycle 10 is accepted at 11; its two lines (eight 4x2-pixel HiZ tiles of an
// 8x8 raster tile at 4x, four per line) are fast-cleared, so they are looked up
// at 12 with no read and the message is tested at 13; with a 2-cycle latency
// it leaves at 15 and arrives at 16.
func TestTimingPinned(t *testing.T) {
	b := newBench(t, testpeer.Edit(hiz.DefaultConfig(), func(c *hiz.Config) { c.Latency = 2 }), 10)
	b.clearAt(0)
	d := b.tg.Draw(0, true)
	r := backendtest.Rect(d, 0, 0, 16, 8, 0.5)
	m := backendtest.Tile(d, r[0], 0, 0, 0)
	b.raster.SendAt(10, b.u.FromRasterizers, m)
	b.run()
	var got []uint64
	for _, r := range b.depth.Received {
		got = append(got, r.Cycle)
	}
	if want := []uint64{3, 16}; !reflect.DeepEqual(got, want) {
		t.Errorf("the depth unit received at %v, want %v", got, want)
	}
	if b.stat("cache_cleared_fills") != 2 || b.stat("cache_line_reads") != 0 {
		t.Errorf("cleared fills %v, reads %v", b.stat("cache_cleared_fills"), b.stat("cache_line_reads"))
	}
}

// TestBlockedIsNotBusy: the depth unit takes nothing before cycle 300; its port
// and the connection hold five messages (the clear's Done and four tiles). Eight
// nearer and nearer copies of one tile all pass, so the fifth result onwards is
// refused and waits in the unit's output pipeline: those cycles are
// blocked_output, not busy.
func TestBlockedIsNotBusy(t *testing.T) {
	b := newBenchDepthCap(t, testpeer.Edit(hiz.DefaultConfig(), func(c *hiz.Config) { c.Latency = 2 }), 10, 1)
	b.depth.Hold(300)
	b.clearAt(0)
	d := b.tg.Draw(0, true)
	for i := 0; i < 8; i++ {
		r := backendtest.Rect(d, 0, 0, 16, 8, 0.9-0.1*float32(i))
		b.raster.SendAt(uint64(10+i), b.u.FromRasterizers, backendtest.Tile(d, r[0], 0, 0, 0))
	}
	b.run()
	if len(b.depth.Received) != 9 {
		t.Fatalf("the depth unit received %d messages, want the Done and 8 tiles", len(b.depth.Received))
	}
	// Busy: the clear and the eight tiles' accept, test and send (17 cycles);
	// blocked: from the first refusal at cycle 21 to the depth unit's first
	// retrieval at 300 (279); idle: before the tiles and after the last send.
	got := [3]float64{b.stat("cycles_busy"), b.stat("cycles_blocked_output"), b.stat("cycles_idle")}
	if want := [3]float64{17, 279, 13}; got != want {
		t.Errorf("busy, blocked_output, idle cycles %v, want %v", got, want)
	}
}

// TestMissTiming: with a one-line cache, the left raster tile's two lines
// (fast-cleared: no read) and the right tile's two evict one another and are
// written back dirty; the left tile again, sent at 80, is accepted at 81, reads
// both its lines at 82 (the memory takes them at 83 and answers at 93), is
// tested when they arrive at 94 and reaches the depth unit at 97.
func TestMissTiming(t *testing.T) {
	b := newBench(t, testpeer.Edit(hiz.DefaultConfig(), func(c *hiz.Config) { c.CacheSize, c.CacheWays, c.LineBytes = 64, 1, 64; c.Latency = 2 }), 10)
	b.clearAt(0)
	d := b.tg.Draw(0, true)
	r := backendtest.Rect(d, 0, 0, 16, 8, 0.5)
	b.raster.SendAt(10, b.u.FromRasterizers, backendtest.Tile(d, r[0], 0, 0, 0))
	b.raster.SendAt(40, b.u.FromRasterizers, backendtest.Tile(d, r[1], 1, 0, 0))
	b.raster.SendAt(80, b.u.FromRasterizers, backendtest.Tile(d, r[0], 0, 0, 0))
	b.run()
	var got []uint64
	for _, r := range b.depth.Received {
		got = append(got, r.Cycle)
	}
	if want := []uint64{3, 16, 46, 97}; !reflect.DeepEqual(got, want) {
		t.Errorf("arrivals %v, want %v", got, want)
	}
	var reads []uint64
	for _, a := range b.mem.Log {
		if !a.Write {
			reads = append(reads, a.Cycle)
		}
		if a.Size != 64 {
			t.Errorf("a request of %d bytes", a.Size)
		}
	}
	if want := []uint64{83, 83}; !reflect.DeepEqual(reads, want) {
		t.Errorf("reads taken at %v, want %v", reads, want)
	}
	writes := len(b.mem.Log) - len(reads)
	if b.stat("cache_write_backs") != float64(writes) || b.stat("bytes_written") != 64*float64(writes) ||
		b.stat("bytes_read") != 128 || b.stat("cache_line_reads") != 2 {
		t.Errorf("write-backs %v (%d in the log), bytes %v written %v read", b.stat("cache_write_backs"), writes,
			b.stat("bytes_written"), b.stat("bytes_read"))
	}
}

func rect(tg *backendtest.Targets, seq uint64, z float32) (*protocol.Draw, []*protocol.TileQuads) {
	d := tg.Draw(seq, true)
	r := backendtest.Rect(d, 0, 0, 16, 8, z)
	r[1].Source = 1
	return d, append(backendtest.Tiles(d, r[0], 0, 1), backendtest.Tiles(d, r[1], 0, 1)...)
}

func cycleTime(c uint64) sim.VTimeInSec { return sim.VTimeInSec(float64(c) * 1e-9) }

// allTiles returns feedback saying every HiZ tile (2x2 pixels, 32 of them)
// holds exactly key k.
func allTiles(k uint32) []protocol.HiZTileBounds {
	var ts []protocol.HiZTileBounds
	for i := 0; i < 32; i++ {
		ts = append(ts, protocol.HiZTileBounds{Tile: i, Lo: k, Hi: k})
	}
	return ts
}

// TestFeedbackDelay: FORWARD cannot lower z-max on the tiles the rectangle's
// diagonal splits; feedback from the depth unit (every tile at 0.3) lets the
// next rectangle, at 0.5, be culled everywhere — once its delay is over. With
// delay 0 it is applied in the cycle after it arrives (age 2 cycles); with a
// delay longer than the frame, never.
func TestFeedbackDelay(t *testing.T) {
	k := depth.Quantize(0.3, depth.D24S8)
	for _, tc := range []struct {
		delay   int
		applied float64
		culled  bool
	}{{0, 32, true}, {1 << 20, 0, false}} {
		b := newBench(t, testpeer.Edit(hiz.DefaultConfig(), func(c *hiz.Config) {
			c.HiZ = fhiz.Config{Mode: fhiz.Forward, Feedback: fhiz.UpdateFeedback,
				FeedbackDelay: tc.delay}
		}), 10)
		b.clearAt(0)
		_, first := rect(b.tg, 0, 0.3)
		_, second := rect(b.tg, 1, 0.5)
		for _, m := range first {
			b.raster.SendAt(5, b.u.FromRasterizers, m)
		}
		b.depth.SendAt(30, b.u.FromDepthUnit, protocol.NewHiZFeedback(b.tg.DepthDesc.Addr, 0, fhiz.PrimOrder(1, 0),
			cycleTime(30), allTiles(k)))
		for _, m := range second {
			b.raster.SendAt(50, b.u.FromRasterizers, m)
		}
		b.run()
		tiles, _, _ := b.received()
		if got := len(tiles) == len(first); got != tc.culled {
			t.Errorf("delay %d: %d of %d messages forwarded", tc.delay, len(tiles), len(first)+len(second))
		}
		if b.stat("feedback_applied") != tc.applied || b.stat("feedback_tiles") != 32 || b.stat("feedback_messages") != 1 {
			t.Errorf("delay %d: feedback applied %v of %v tiles in %v messages", tc.delay, b.stat("feedback_applied"),
				b.stat("feedback_tiles"), b.stat("feedback_messages"))
		}
		if tc.applied > 0 && (b.stat("feedback_age_cycles") != 2 || b.stat("feedback_delay_tests") != 0) {
			t.Errorf("age %v cycles, %v tests", b.stat("feedback_age_cycles"), b.stat("feedback_delay_tests"))
		}
	}
}

// TestFeedbackStaleAfterClear: feedback measured before a clear is dropped
// (its lines, fast-cleared, are allocated with no read and the entries found
// stale).
func TestFeedbackStaleAfterClear(t *testing.T) {
	b := newBench(t, testpeer.Edit(hiz.DefaultConfig(), func(c *hiz.Config) {
		c.HiZ, c.FeedbackRefetch = fhiz.Config{Mode: fhiz.Forward, Feedback: fhiz.UpdateFeedback}, true
	}), 10)
	b.clearAt(0)
	d, first := rect(b.tg, 0, 0.3)
	for _, m := range first {
		b.raster.SendAt(5, b.u.FromRasterizers, m)
	}
	b.raster.SendAt(5, b.u.FromRasterizers, protocol.NewDrawEnd(d, 0))
	b.clearAt(30)
	b.depth.SendAt(40, b.u.FromDepthUnit, protocol.NewHiZFeedback(b.tg.DepthDesc.Addr, 0, fhiz.PrimOrder(1, 0),
		cycleTime(40), allTiles(0)))
	b.run()
	if b.stat("feedback_stale") != 32 || b.stat("feedback_applied") != 0 || b.stat("clears") != 2 {
		t.Errorf("stale %v applied %v clears %v", b.stat("feedback_stale"), b.stat("feedback_applied"), b.stat("clears"))
	}
}

// TestFeedbackMiss: feedback for a tile whose line left the one-line cache is
// dropped, or read back (one 64-byte read) and applied.
func TestFeedbackMiss(t *testing.T) {
	for _, refetch := range []bool{false, true} {
		b := newBench(t, testpeer.Edit(hiz.DefaultConfig(), func(c *hiz.Config) {
			c.HiZ, c.FeedbackRefetch = fhiz.Config{Mode: fhiz.Forward, Feedback: fhiz.UpdateFeedback}, refetch
			c.CacheSize, c.CacheWays, c.LineBytes = 64, 1, 64
		}), 10)
		b.clearAt(0)
		_, first := rect(b.tg, 0, 0.3)
		for _, m := range first {
			b.raster.SendAt(5, b.u.FromRasterizers, m)
		}
		// Tile 0 (pixels 0-1 x 0-1) is in the first line, long evicted.
		b.depth.SendAt(60, b.u.FromDepthUnit, protocol.NewHiZFeedback(b.tg.DepthDesc.Addr, 0, fhiz.PrimOrder(1, 0),
			cycleTime(60), []protocol.HiZTileBounds{{Tile: 0, Lo: 5, Hi: 7}}))
		b.run()
		reads := 0
		for _, a := range b.mem.Log {
			if !a.Write && a.Cycle > 60 {
				reads++
			}
		}
		if !refetch && (b.stat("feedback_dropped_absent") != 1 || b.stat("feedback_applied") != 0 || reads != 0) {
			t.Errorf("drop: dropped %v applied %v, %d reads", b.stat("feedback_dropped_absent"), b.stat("feedback_applied"), reads)
		}
		if refetch && (b.stat("feedback_refetched") != 1 || b.stat("feedback_applied") != 1 || reads != 1) {
			t.Errorf("refetch: refetched %v applied %v, %d reads", b.stat("feedback_refetched"), b.stat("feedback_applied"), reads)
		}
	}
}

// TestPackedFlush: a flush writes the dirty line back in PACKED ZMASK's memory
// form (four 16-byte tiles in one 64-byte line, which decode to the packed
// tiles) and the unit acknowledges after the write completed.
func TestPackedFlush(t *testing.T) {
	cfg := fhiz.Config{Mode: fhiz.ZMask, Packed: true}
	b := newBench(t, testpeer.Edit(hiz.DefaultConfig(), func(c *hiz.Config) { c.HiZ = cfg; c.CacheSize, c.CacheWays, c.LineBytes = 112, 1, 64 }), 10)
	b.clearAt(0)
	d := b.tg.Draw(0, true)
	p := backendtest.Prim(d, [3][3]float32{{1, 1, 0.2}, {15, 2, 0.6}, {3, 7, 0.3}})
	msgs := backendtest.Tiles(d, p, 0, 1)
	for _, m := range msgs {
		b.raster.SendAt(5, b.u.FromRasterizers, m)
	}
	b.depth.SendAt(40, b.u.FromDepthUnit, protocol.NewHiZFlush())
	b.run()
	_, _, dones := b.received()
	if len(b.mem.Log) != 1 || !b.mem.Log[0].Write || b.mem.Log[0].Size != 64 {
		t.Fatalf("memory log %+v", b.mem.Log)
	}
	if len(dones) != 2 || dones[1] <= b.mem.Log[0].Cycle+10 {
		t.Errorf("acknowledgements at %v, the write was answered at %d", dones, b.mem.Log[0].Cycle+10)
	}
	// The functional buffer, packed, encodes to the same bytes.
	buf := newFunctional(t, cfg)
	for _, m := range msgs {
		process(buf, m, fhiz.Pos{})
	}
	var want []byte
	for _, ti := range []int{0, 1, 2, 3} { // Morton order of the 2x2 tiles: (0,0) (1,0) (0,1) (1,1)
		buf.Pack(ti)
		want = buf.Encode(ti, want)
	}
	if !reflect.DeepEqual(b.mem.Log[0].Data, want) {
		t.Errorf("written % x\nwant    % x", b.mem.Log[0].Data, want)
	}
	if b.stat("packs") != 4 || b.stat("flushes") != 1 || b.stat("cache_write_backs") != 1 {
		t.Errorf("packs %v flushes %v write-backs %v", b.stat("packs"), b.stat("flushes"), b.stat("cache_write_backs"))
	}
}

func TestBuilderValidate(t *testing.T) {
	type cfg = hiz.Config
	testpeer.CheckValidate(t, hiz.DefaultConfig(), []testpeer.ConfigCase[cfg]{
		{Want: "HiZ.Mode is off", Edit: func(c *cfg) { c.HiZ = fhiz.Config{} }},
		{Want: "Layers 5", Edit: func(c *cfg) { c.HiZ = fhiz.Config{Mode: fhiz.ZMask, Layers: 5} }},
		{Want: "Index 4 is not a partition of 4", Edit: func(c *cfg) { c.Index = 4 }},
		{Want: "Cache size 100", Edit: func(c *cfg) { c.CacheSize = 100 }},
		{Edit: func(c *cfg) { c.HiZ = fhiz.Config{Mode: fhiz.ZMask, Packed: true}; c.CacheSize = 16384 }},
		{Want: "line size 8", Edit: func(c *cfg) { c.HiZ = fhiz.Config{Mode: fhiz.ZMask, Packed: true}; c.LineBytes = 8 }},
	})
	testpeer.CheckEnv(t, true, func(env timing.Env) { hiz.MakeBuilder().WithEnv(env).Build("HiZ") })
}
