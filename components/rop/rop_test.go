package rop_test

import (
	"bytes"
	"math/rand"
	"reflect"
	"sort"
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/blend"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/timing"
)

// TestBlendInArrivalOrder: two overlapping quads of two alpha-blended draws
// give the order-dependent result of pipeline.WriteQuad in arrival order.
func TestBlendInArrivalOrder(t *testing.T) {
	b := newBench(t, rop.DefaultConfig(), backendtest.DefaultSpec(), 10)
	d0, d1 := b.TG.Draw(0, true), b.TG.Draw(1, true)
	for _, d := range []*protocol.Draw{d0, d1} {
		d.State.Blend.Targets[0] = blend.Alpha()
	}
	p0 := backendtest.Rect(d0, 0, 0, 16, 8, 0.5)[0]
	p1 := backendtest.Rect(d1, 0, 0, 16, 8, 0.5)[0]
	m0 := protocol.NewShadedQuads(d0, []protocol.ShadedQuad{shaded(d0, p0, 2, 2, geom.Vec4{1, 0, 0, 0.5}, 0xf)})
	m1 := protocol.NewShadedQuads(d1, []protocol.ShadedQuad{shaded(d1, p1, 2, 2, geom.Vec4{0, 0, 1, 0.75}, 0xf)})
	ref, st := expectWrites(b.TG, []*protocol.ShadedQuads{m0, m1})
	swapped, _ := expectWrites(b.TG, []*protocol.ShadedQuads{m1, m0})
	if bytes.Equal(ref.Color.Bytes(), swapped.Color.Bytes()) {
		t.Fatal("weak test: the blend order does not matter")
	}
	b.rob.SendAt(0, b.rop.FromReorderBuffer, m0)
	b.rob.SendAt(0, b.rop.FromReorderBuffer, protocol.NewDrawEnd(d0, 0))
	b.rob.SendAt(0, b.rop.FromReorderBuffer, m1)
	b.rob.SendAt(0, b.rop.FromReorderBuffer, protocol.NewDrawEnd(d1, 0))
	b.run()
	if !bytes.Equal(b.TG.Color.Bytes(), ref.Color.Bytes()) {
		t.Error("the colour target differs from pipeline.WriteQuad in arrival order")
	}
	if len(b.cp.Received) != 2 {
		t.Fatalf("command processor received %d messages, want 2 DrawDone", len(b.cp.Received))
	}
	for i, d := range []*protocol.Draw{d0, d1} {
		if m := b.cp.Received[i].Msg.(*protocol.DrawDone); m.Draw != d || m.Partition != 0 {
			t.Errorf("DrawDone %d: draw %d partition %d", i, m.Draw.Seq, m.Partition)
		}
	}
	if got := b.rop.WriteStats(); got != st {
		t.Errorf("write stats %+v, want %+v", got, st)
	}
	b.CheckStats(b.rop, map[string]float64{"samples_written": 8, "samples_blended": 8, "quads_written": 2,
		"late_z_requests": 0, "cache_line_reads": 2, "cache_hits": 0, "cache_misses_merged": 2, "draw_dones": 2})
}

// TestDrawDoneAfterLastWrite pins the timing of one quad whose lines miss: sent
// at 0, accepted at 1, looked up at 2 (reads sent), the memory takes them at 3
// and answers at 13, the ROP blends at 14, the write leaves the 4-cycle blend
// pipeline at 18 and the DrawDone sent then reaches the command processor at 19.
func TestDrawDoneAfterLastWrite(t *testing.T) {
	b := newBench(t, rop.DefaultConfig(), backendtest.DefaultSpec(), 10)
	d := b.TG.Draw(0, true)
	p := backendtest.Rect(d, 0, 0, 16, 8, 0.5)[0]
	b.sendDraw(0, d, shaded(d, p, 0, 0, geom.Vec4{1, 1, 1, 1}, 0xf))
	b.run()
	if got := b.Mem.Reads(); len(got) != 2 || b.Mem.Log[0].Cycle != 3 {
		t.Fatalf("memory log %+v, want two line reads at cycle 3", b.Mem.Log)
	}
	if len(b.cp.Received) != 1 || b.cp.Received[0].Cycle != 19 {
		t.Fatalf("DrawDone received %+v, want one at cycle 19", b.cp.Received)
	}
	b.CheckStats(b.rop, map[string]float64{"cycles_busy": 7, "cycles_wait_memory": 11})
}

// TestLateZ: a late-Z draw's message goes to the depth unit as one request with
// every quad (a quad the shader discarded entirely included, with no live
// sample); the ROP waits for the answer before blending, keeps several requests
// in flight, and counts the outcomes as pipeline.WriteQuad does.
func TestLateZ(t *testing.T) {
	b := newBench(t, rop.DefaultConfig(), backendtest.DefaultSpec(), 10)
	b.lateZRspDelay = 30
	d := b.TG.Draw(0, false)
	p := backendtest.Rect(d, 0, 0, 16, 8, 0.5)[0]
	red := geom.Vec4{1, 0, 0, 1}
	m := protocol.NewShadedQuads(d, []protocol.ShadedQuad{
		shaded(d, p, 0, 0, red, 0),   // discarded by the shader
		shaded(d, p, 2, 0, red, 0xf), // culled by late Z
		shaded(d, p, 4, 0, red, 0x5), // pixels 1, 3 killed; pixel 0 fails late Z
	})
	b.lateZPass = func(req *protocol.LateZReq) []raster.SampleMask {
		if len(req.Quads) != 3 {
			return nil // every live sample passes
		}
		return []raster.SampleMask{{}, {}, raster.FullPixels(0x4, 1)} // one sample per pixel
	}
	b.rob.SendAt(0, b.rop.FromReorderBuffer, m)
	m2 := protocol.NewShadedQuads(d, []protocol.ShadedQuad{shaded(d, p, 6, 0, red, 0xf)})
	m3 := protocol.NewShadedQuads(d, []protocol.ShadedQuad{shaded(d, p, 8, 0, red, 0xf)})
	b.rob.SendAt(0, b.rop.FromReorderBuffer, m2)
	b.rob.SendAt(0, b.rop.FromReorderBuffer, m3)
	b.rob.SendAt(0, b.rop.FromReorderBuffer, protocol.NewDrawEnd(d, 0))
	b.run()

	if len(b.du.Received) != 3 {
		t.Fatalf("depth unit received %d requests, want 3", len(b.du.Received))
	}
	req := b.du.Received[0].Msg.(*protocol.LateZReq)
	if got := []raster.SampleMask{req.Quads[0].Live, req.Quads[1].Live, req.Quads[2].Live}; !reflect.DeepEqual(got,
		[]raster.SampleMask{{}, raster.FullPixels(0xf, 1), raster.FullPixels(0x5, 1)}) {
		t.Errorf("late-Z request lives %x, want [0 f 5]", got)
	}
	// All three requests left before the first answer (30 cycles later).
	if at := b.lateZRequestedAt; at[2] >= at[0]+30 {
		t.Errorf("requests taken at cycles %v: not overlapped", at)
	}
	want := b.TG.Clone()
	want.Color.Store(4, 1, 0, red, blend.WriteAll)
	want.Color.Store(6, 0, 0, red, blend.WriteAll)
	want.Color.Store(7, 0, 0, red, blend.WriteAll)
	want.Color.Store(6, 1, 0, red, blend.WriteAll)
	want.Color.Store(7, 1, 0, red, blend.WriteAll)
	want.Color.Store(8, 0, 0, red, blend.WriteAll)
	want.Color.Store(9, 0, 0, red, blend.WriteAll)
	want.Color.Store(8, 1, 0, red, blend.WriteAll)
	want.Color.Store(9, 1, 0, red, blend.WriteAll)
	if !bytes.Equal(b.TG.Color.Bytes(), want.Color.Bytes()) {
		t.Error("colour target differs")
	}
	// The first answer arrives at 30 + the request's arrival; nothing is read
	// before it (the lookups wait for the answer).
	if r := b.Mem.Log[0].Cycle; r <= b.lateZRequestedAt[0]+30 {
		t.Errorf("colour lines read at cycle %d, before the late-Z answer", r)
	}
	b.CheckStats(b.rop, map[string]float64{"quads_discarded": 1, "quads_late_z_culled": 1, "quads_written": 3,
		"samples_killed": 6, "samples_written": 9, "late_z_requests": 3, "late_z_quads": 5, "draw_dones": 1})
	if g := b.stat("cycles_wait_late_z"); g < 25 {
		t.Errorf("cycles_wait_late_z = %v", g)
	}
}

// TestResolve: at Present a ROP reads every sample line of its tiles through
// the colour cache, writes exactly the display lines holding its tiles' pixels
// (whole lines, resolved like framebuffer.Resolve), then writes back the dirty
// colour lines, then answers.
func TestResolve(t *testing.T) {
	spec := backendtest.TargetSpec{Width: 64, Height: 16, Samples: 4, ColorFormat: framebuffer.RGBA8,
		ColorLayout: framebuffer.Tiled, TileW: 4, TileH: 4, DepthFormat: 0, DepthLayout: framebuffer.Linear}
	const part, parts = 1, 4
	b := newBench(t, testpeer.Edit(rop.DefaultConfig(), func(c *rop.Config) { c.Index = part; c.TileSize, c.PartitionStride, c.NumPartitions = 8, 1, parts }), spec, 10)
	rng := rand.New(rand.NewSource(7))
	rng.Read(b.TG.Color.Bytes())
	// One blended quad in tile (1, 0) (owned) makes one colour line dirty.
	d := b.TG.Draw(0, true)
	p := backendtest.Rect(d, 0, 0, 64, 16, 0.5)[0]
	b.sendDraw(0, d, shaded(d, p, 8, 0, geom.Vec4{0.2, 0.4, 0.6, 1}, 0xf))
	present := protocol.NewPresentCmd(b.TG.ColorDesc, b.TG.Display)
	b.cp.SendAt(100, b.rop.Control, present)
	b.run()

	// Expected: the display lines and the colour lines of the owned tiles.
	resolved := b.TG.Color.Resolve()
	wantDisplay := map[uint64]bool{}
	wantSample := map[uint64]bool{}
	for y := 0; y < 16; y++ {
		for x := 0; x < 64; x++ {
			if protocol.TileOwner(x/8, y/8, 1, parts) != part {
				continue
			}
			wantDisplay[(b.TG.Display+uint64(y*64+x)*4)&^63] = true
			for s := 0; s < 4; s++ {
				wantSample[(b.TG.ColorDesc.Addr+b.TG.Color.Address(x, y, s))&^63] = true
			}
		}
	}
	// The blended quad's 16 samples lie on two lines of its 4x4-pixel layout tile.
	dirty := []uint64{(b.TG.ColorDesc.Addr + b.TG.Color.Address(8, 0, 0)) &^ 63,
		(b.TG.ColorDesc.Addr + b.TG.Color.Address(8, 1, 0)) &^ 63}
	var gotDisplay, gotFlush []uint64
	gotReads := map[uint64]int{}
	for _, a := range b.Mem.Log {
		switch {
		case !a.Write:
			gotReads[a.Addr]++
		case a.Addr >= b.TG.Display && a.Addr < b.TG.Display+b.TG.DisplayBytes:
			gotDisplay = append(gotDisplay, a.Addr)
			if a.Size != 64 {
				t.Errorf("display write of %d bytes", a.Size)
			}
			off := a.Addr - b.TG.Display
			if !bytes.Equal(a.Data, resolved.Pix[off:off+64]) {
				t.Errorf("display line 0x%x: % x, want % x", a.Addr, a.Data[:8], resolved.Pix[off:off+8])
			}
			if len(gotFlush) > 0 {
				t.Error("a display line was written after the flush began")
			}
		default:
			gotFlush = append(gotFlush, a.Addr)
		}
	}
	var wantD []uint64
	for a := range wantDisplay {
		wantD = append(wantD, a)
	}
	sort.Slice(wantD, func(i, j int) bool { return wantD[i] < wantD[j] })
	if !reflect.DeepEqual(gotDisplay, wantD) {
		t.Errorf("display lines written %x,\nwant %x", gotDisplay, wantD)
	}
	if !reflect.DeepEqual(gotFlush, dirty) {
		t.Errorf("flushed lines %x, want %x", gotFlush, dirty)
	}
	for a := range wantSample {
		if gotReads[a] != 1 {
			t.Errorf("sample line 0x%x read %d times", a, gotReads[a])
		}
	}
	if len(gotReads) != len(wantSample) {
		t.Errorf("%d lines read, want %d", len(gotReads), len(wantSample))
	}
	// The image's display buffer holds the resolved pixels of the partition's
	// tiles, and nothing else was written there.
	disp, _ := b.TG.Image.Slice(b.TG.Display, b.TG.DisplayBytes)
	for y := 0; y < 16; y++ {
		for x := 0; x < 64; x++ {
			o := (y*64 + x) * 4
			want := []byte{0, 0, 0, 0}
			if protocol.TileOwner(x/8, y/8, 1, parts) == part {
				want = resolved.Pix[o : o+4]
			}
			if !bytes.Equal(disp[o:o+4], want) {
				t.Errorf("display pixel (%d, %d) = % x in the image, want % x", x, y, disp[o:o+4], want)
			}
		}
	}
	done := b.cp.Received[len(b.cp.Received)-1]
	if m, ok := done.Msg.(*protocol.Done); !ok || m.RspTo != present.ID || m.From != part {
		t.Fatalf("last message to the command processor %T", done.Msg)
	}
	last := b.Mem.Log[len(b.Mem.Log)-1].Cycle
	if done.Cycle != last+10+3 {
		t.Errorf("Done at cycle %d, want %d (last write %d + memory 10 + 3)", done.Cycle, last+13, last)
	}
	if g := b.stat("resolve_bytes"); g != float64(64*len(wantD)) {
		t.Errorf("resolve_bytes = %v, want %v", g, 64*len(wantD))
	}
}

// TestResolveRGBA32F checks the resolve arithmetic of float targets against
// framebuffer.Resolve.
func TestResolveRGBA32F(t *testing.T) {
	spec := backendtest.TargetSpec{Width: 8, Height: 8, Samples: 2, ColorFormat: framebuffer.RGBA32F,
		ColorLayout: framebuffer.Linear, DepthLayout: framebuffer.Linear}
	b := newBench(t, rop.DefaultConfig(), spec, 5)
	rng := rand.New(rand.NewSource(3))
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			for s := 0; s < 2; s++ {
				b.TG.Color.Store(x, y, s, geom.Vec4{rng.Float32()*1.2 - 0.1, rng.Float32(), rng.Float32(), rng.Float32()}, blend.WriteAll)
			}
		}
	}
	b.cp.SendAt(0, b.rop.Control, protocol.NewPresentCmd(b.TG.ColorDesc, b.TG.Display))
	b.run()
	disp, _ := b.TG.Image.Slice(b.TG.Display, b.TG.DisplayBytes)
	if want := b.TG.Color.Resolve(); !bytes.Equal(disp, want.Pix) {
		t.Error("the resolved display buffer differs from framebuffer.Resolve")
	}
}

// TestClearColor: a colour clear drops the lines without write-back and marks
// them cleared, so the next blend costs no read.
func TestClearColor(t *testing.T) {
	b := newBench(t, rop.DefaultConfig(), backendtest.DefaultSpec(), 10)
	d := b.TG.Draw(0, true)
	p := backendtest.Rect(d, 0, 0, 16, 8, 0.5)[0]
	white := geom.Vec4{1, 1, 1, 1}
	b.sendDraw(0, d, shaded(d, p, 0, 0, white, 0xf))
	clear := protocol.NewClearCmd(command.ClearColor, b.TG.ColorDesc, b.TG.Color.SizeBytes())
	b.cp.SendAt(100, b.rop.Control, clear)
	d1 := b.TG.Draw(1, true)
	b.rob.SendAt(200, b.rop.FromReorderBuffer, protocol.NewShadedQuads(d1, []protocol.ShadedQuad{shaded(d1, p, 0, 0, white, 0xf)}))
	b.run()
	if got := b.Mem.Reads(); len(got) != 2 {
		t.Errorf("reads %x, want the two lines of the first quad only", got)
	}
	if got := b.Mem.Writes(); len(got) != 0 {
		t.Errorf("writes %x: the clear wrote lines back", got)
	}
	b.CheckStats(b.rop, map[string]float64{"cache_cleared_fills": 2, "cache_cleared_lines": 8, "clears": 1})
	if m := b.cp.Received[1].Msg.(*protocol.Done); m.RspTo != clear.ID {
		t.Errorf("clear not acknowledged: %+v", m)
	}
}

func TestBuilderValidate(t *testing.T) {
	type cfg = rop.Config
	testpeer.CheckValidate(t, rop.DefaultConfig(), []testpeer.ConfigCase[cfg]{
		{Want: "TileSize", Edit: func(c *cfg) { c.TileSize = 6 }},
		{Want: "Index", Edit: func(c *cfg) { c.NumPartitions, c.Index = 2, 2 }},
		{Want: "NumPartitions", Edit: func(c *cfg) { c.NumPartitions = 0 }},
		{Want: "Cache.Size", Edit: func(c *cfg) { c.Cache.Size = 1000 }},
		{Want: "PrefetchDistance", Edit: func(c *cfg) { c.PrefetchDistance = -1 }},
		{Want: "PrefetchReserve", Edit: func(c *cfg) { c.PrefetchDistance, c.PrefetchReserve = 4, 0 }},
		{Want: "PrefetchReserve", Edit: func(c *cfg) { c.PrefetchDistance, c.PrefetchReserve, c.Cache.MaxOutstanding = 4, 8, 8 }},
		{Edit: func(c *cfg) { c.PrefetchDistance, c.PrefetchReserve, c.Cache.MaxOutstanding = 0, 8, 8 }}, // off: the reserve is unused
		{Edit: func(c *cfg) { c.PrefetchDistance, c.PrefetchReserve, c.Cache.MaxOutstanding = 4, 7, 8 }},
	})
	testpeer.CheckAtLeast(t, rop.DefaultConfig(), "rop", 1,
		"QuadsPerCycle", "BlendLatency", "InputQueue",
		"Window", "LateZInFlight", "WaitQuads")
	testpeer.CheckEnv(t, true, func(env timing.Env) { rop.MakeBuilder().WithEnv(env).Build("GPU.ROP[0]") })
}

func TestBuffersAndNames(t *testing.T) {
	b := newBench(t, rop.DefaultConfig(), backendtest.DefaultSpec(), 10)
	b.CheckIdleBuffers(b.rop)
}

// TestLateZAllDiscarded: a late-Z message whose quads the shader discarded
// entirely still goes to the depth unit (so the unit's outstanding count
// balances), and its DrawDone waits for the answer.
func TestLateZAllDiscarded(t *testing.T) {
	b := newBench(t, rop.DefaultConfig(), backendtest.DefaultSpec(), 10)
	b.lateZRspDelay = 20
	d := b.TG.Draw(0, false)
	p := backendtest.Rect(d, 0, 0, 16, 8, 0.5)[0]
	b.sendDraw(0, d, shaded(d, p, 0, 0, geom.Vec4{1, 1, 1, 1}, 0))
	b.run()
	if len(b.du.Received) != 1 {
		t.Fatalf("depth unit received %d requests", len(b.du.Received))
	}
	if q := b.du.Received[0].Msg.(*protocol.LateZReq).Quads; len(q) != 1 || !q[0].Live.Empty() {
		t.Errorf("request quads %+v, want one with no live sample", q)
	}
	// Request sent at 2 (accepted at 1), taken at 3, answered at 23, applied at
	// 24, DrawDone sent at 24 and received at 25.
	if len(b.cp.Received) != 1 || b.cp.Received[0].Cycle != 25 {
		t.Fatalf("DrawDone %+v, want one at cycle 25", b.cp.Received)
	}
	if len(b.Mem.Log) != 0 {
		t.Errorf("memory accessed: %+v", b.Mem.Log)
	}
	if g := b.stat("quads_discarded"); g != 1 {
		t.Errorf("quads_discarded = %v", g)
	}
}
