package tileunit

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/binning"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/timing"
)

// The memory layout of the tests: the targets and the display buffer in a
// slow memory, the parameter buffer (from paramBase) and the bin chunks (from
// chunkBase) in a fast one, so that a tile's loads arrive well after its bins
// and records.
const (
	targetLatency = 40
	binLatency    = 4
	paramBase     = 1 << 30
	chunkBase     = paramBase + 1<<20
	chunkBytes    = 32 // three entries and the link
	drawLatency   = 30 // the fake ROP's DrawDone after the DrawEnd
	flushLatency  = 10 // the fake back end's Done after a FlushCmd
)

// grid is the 32x16 frame in two 16x16 tiles.
var grid = binning.Grid{Width: 32, Height: 16, TileW: 16, TileH: 16}

type rig struct {
	e         *sim.SerialEngine
	halt      *timing.Halt
	tu        *TileUnit
	sched     *testpeer.Peer
	be        *backEnd
	targetMem *testpeer.Memory
	binMem    *testpeer.Memory
	tg        *backendtest.Targets
}

// newTargets returns a 32x16 RGBA8 colour target and D24S8 depth target at
// 4 samples, linear, and a display buffer, in a fresh image.
func newTargets(t *testing.T) *backendtest.Targets {
	t.Helper()
	tg, err := backendtest.NewTargets(backendtest.TargetSpec{Width: 32, Height: 16, Samples: 4,
		ColorFormat: framebuffer.RGBA8, ColorLayout: framebuffer.Linear, DepthFormat: depth.D24S8, DepthLayout: framebuffer.Linear})
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// newRig wires a tile unit of cfg between a fake scheduler, a fake back end
// and the two fake memories; the tests script the peers, then call run.
func newRig(t *testing.T, cfg Config, tg *backendtest.Targets) *rig {
	t.Helper()
	e := sim.NewSerialEngine()
	r := &rig{e: e, halt: &timing.Halt{}, tg: tg}
	r.tu = MakeBuilder().WithEnv(timing.Env{Engine: e, Freq: testpeer.Freq, Halt: r.halt, Progress: &timing.Progress{}}).
		WithConfig(cfg).Build("TileUnit")
	r.sched = testpeer.NewPeer("Scheduler", e, 4)
	r.be = newBackEnd(e, drawLatency, flushLatency)
	r.be.Unit = r.tu.Control
	r.targetMem = testpeer.NewMemory(e, tg.Image, targetLatency)
	r.binMem = testpeer.NewMemory(e, tg.Image, binLatency)
	r.binMem.ReadOnly = true
	conn := sim.NewDirectConnection("Conn", e, testpeer.Freq)
	for _, p := range []sim.Port{r.tu.FromScheduler, r.tu.ToRasterizer, r.tu.Control, r.tu.ToMemory, r.tu.TileMemory,
		r.sched.Port, r.targetMem.Top, r.binMem.Top} {
		conn.PlugIn(p, 16)
	}
	for _, p := range r.be.ports() {
		conn.PlugIn(p, 16)
	}
	r.tu.Scheduler, r.tu.Rasterizer = r.sched.Port, r.be.Rasterizer
	r.tu.ROP, r.tu.DepthUnit, r.tu.ReorderBuffer = r.be.ROP, r.be.DepthUnit, r.be.ReorderBuffer
	r.tu.Memory = splitFinder{split: paramBase, low: r.targetMem.Top, high: r.binMem.Top}
	r.tu.Image = tg.Image
	return r
}

// job scripts the scheduler to hand out tile of p at cycle at.
func (r *rig) job(at uint64, p *protocol.BinnedPass, tile int) *protocol.TileJob {
	j := protocol.NewTileJob(p, tile)
	r.sched.Script = append(r.sched.Script, testpeer.Scripted{At: at, Msg: j, Dst: r.tu.FromScheduler})
	return j
}

func (r *rig) run(t *testing.T) {
	t.Helper()
	r.sched.TickLater(0)
	r.be.TickLater(0)
	testpeer.Run(t, r.e)
}

// runOK is run that fails the test when the tile unit stopped with an error.
func (r *rig) runOK(t *testing.T) {
	t.Helper()
	r.run(t)
	if err := r.tu.Err(); err != nil {
		t.Fatal(err)
	}
}

// targetLines returns the 64-byte lines of rect in tg's colour and depth
// targets.
func targetLines(tg *backendtest.Targets, rect raster.Rect) (colour, depth []uint64) {
	return binning.ColorLines(nil, tg.Color, tg.ColorDesc.Addr, rect, 64),
		binning.DepthLines(nil, tg.Depth, tg.DepthDesc.Addr, rect, 64)
}

// pass is the hand-built pass of the tests: draw 0 (records of 64 bytes)
// and draw 1 (one interpolant: 112 bytes), five primitives, P0 and P1 of
// draw 0, P2 to P4 of draw 1, their records one after the other from
// paramBase. Tile 0's bin holds P0 and P1 in one chunk; tile 1's bin holds
// P0, P2, P3 and P4 in two chunks of three entries (the first full, linked
// to the second, which is not the next chunk in memory).
func pass(tg *backendtest.Targets) *protocol.BinnedPass {
	d0, d1 := tg.Draw(0, true), tg.Draw(1, true)
	d1.State.Link = make([]shader.LinkedInput, 1)
	p := protocol.NewBinnedPass()
	p.Grid, p.ParamBase, p.ChunkBytes = grid, paramBase, chunkBytes
	addr := uint64(paramBase)
	for i, d := range []*protocol.Draw{d0, d0, d1, d1, d1} {
		n := binning.RecordBytes(len(d.State.Link))
		box := raster.Rect{X0: i, Y0: i, X1: 20 + i, Y1: 10 + i}
		p.Prims = append(p.Prims, protocol.BinnedPrim{Draw: d, Prim: &pipeline.Primitive{Triangle: raster.Triangle{BBox: box}},
			Index: uint64([]int{0, 1, 0, 1, 2}[i]), Addr: addr, Bytes: n})
		addr += uint64(n)
	}
	p.Bins = []protocol.Bin{
		{Entries: []uint32{0, 1}, Chunks: []uint64{chunkBase + 64}},
		{Entries: []uint32{0, 2, 3, 4}, Chunks: []uint64{chunkBase, chunkBase + 96}},
	}
	p.HasColor, p.HasDepth = true, true
	p.Color, p.Depth = tg.ColorDesc, tg.DepthDesc
	return p
}

// paint plays the ROP's functional effect: when a draw ends, every sample of
// the window gets a colour of its position, its sample and the draw.
func paint(tg *backendtest.Targets) func(d *protocol.Draw, w raster.Rect) {
	return func(d *protocol.Draw, w raster.Rect) {
		for y := w.Y0; y < w.Y1; y++ {
			for x := w.X0; x < w.X1; x++ {
				for s := 0; s < tg.Spec.Samples; s++ {
					c := geom.Vec4{float32(x) / 31, float32(y) / 15, float32(s) / 3, float32(d.Seq+1) / 2}
					tg.Color.Store(x, y, s, c, 0xf)
				}
			}
		}
	}
}

type access struct {
	Addr, Size uint64
}

// reads and writes list a memory's requests, in the order it took them.
func reads(m *testpeer.Memory) []access  { return accesses(m, false) }
func writes(m *testpeer.Memory) []access { return accesses(m, true) }

func accesses(m *testpeer.Memory, write bool) []access {
	out := []access{}
	for _, q := range m.Log {
		if q.Write == write {
			out = append(out, access{q.Addr, q.Size})
		}
	}
	return out
}

// lines returns one 64-byte access per line.
func lines(ls ...[]uint64) []access {
	out := []access{}
	for _, l := range ls {
		for _, a := range l {
			out = append(out, access{a, 64})
		}
	}
	return out
}

// lastCycle returns the last cycle m took a request of kind write, and
// whether there was one.
func lastCycle(m *testpeer.Memory, write bool) (uint64, bool) {
	var c uint64
	found := false
	for _, q := range m.Log {
		if q.Write == write {
			c, found = max(c, q.Cycle), true
		}
	}
	return c, found
}

func sendCycle(m sim.Msg) uint64 { return testpeer.Freq.Cycle(m.Meta().SendTime) }

// tile1Reads are tile 1's bin and record reads: the first chunk's three
// entries with its link (the address of the second chunk), the second
// chunk's entry; then the records of P0, P2, P3 and P4 in line-aligned
// pieces.
var tile1Reads = []access{
	{chunkBase, 3*binning.EntryBytes + binning.LinkBytes}, {chunkBase + 96, binning.EntryBytes},
	{paramBase, 64},
	{paramBase + 128, 64}, {paramBase + 192, 48},
	{paramBase + 240, 16}, {paramBase + 256, 64}, {paramBase + 320, 32},
	{paramBase + 352, 32}, {paramBase + 384, 64}, {paramBase + 448, 16},
}

// TestTile renders tile 1 of the hand-built pass: what reaches the
// rasterizer, what is read and written and when, the flushes, the Done and
// the statistics, for a pass that loads and stores samples, one whose
// targets were cleared, one that presents, and one that presents with
// StoreResolved.
func TestTile(t *testing.T) {
	for _, tc := range []struct {
		name                          string
		load, storeAll, present, only bool // only: StoreResolved
		wantStores, wantDisplay       bool
	}{
		{name: "samples", load: true, wantStores: true},
		{name: "cleared", storeAll: true, wantStores: true},
		{name: "present", load: true, present: true, wantStores: true, wantDisplay: true},
		{name: "present resolved", load: true, present: true, only: true, wantDisplay: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tg := newTargets(t)
			cfg := DefaultConfig()
			cfg.Index, cfg.StoreResolved = 3, tc.only
			// Every read in flight at once: the loads would arrive after the
			// bins and records but for the unit's wait.
			cfg.MaxOutstandingMemory = 256
			r := newRig(t, cfg, tg)
			r.be.Render = paint(tg)
			p := pass(tg)
			p.LoadColor, p.LoadDepth, p.StoreAll = tc.load, tc.load, tc.storeAll
			p.Present, p.Display = tc.present, tg.Display
			job := r.job(1, p, 1)
			r.runOK(t)
			rect := grid.Rect(1)
			colour, depthLines := targetLines(tg, rect)
			if len(colour) != 64 || len(depthLines) != 64 {
				t.Fatalf("%d colour and %d depth lines in a tile, want 64 and 64", len(colour), len(depthLines))
			}
			var display []uint64 // 16 pixels of 4 bytes, the right half of each 128-byte row
			for y := 0; y < 16; y++ {
				display = append(display, tg.Display+uint64(y)*128+64)
			}

			// The rasterizer: the primitives in bin order, windowed to the
			// tile, a DrawEnd after each draw's last.
			var got []string
			for _, g := range r.be.received(r.be.Rasterizer) {
				switch m := g.Msg.(type) {
				case *protocol.PrimitiveMsg:
					if m.Window != rect {
						t.Errorf("primitive %d of draw %d with window %v, want %v", m.Index, m.Draw.Seq, m.Window, rect)
					}
					got = append(got, primName(p, m))
				case *protocol.DrawEnd:
					got = append(got, drawEndName(m))
				}
			}
			if want := []string{"P0", "end 0", "P2", "P3", "P4", "end 1"}; !reflect.DeepEqual(got, want) {
				t.Errorf("the rasterizer got %v, want %v", got, want)
			}

			// Memory: the loads, the bins and records; the stores.
			var wantLoads, wantStores []access
			if tc.load {
				wantLoads = lines(colour, depthLines)
			}
			if tc.wantStores {
				wantStores = lines(colour, depthLines)
			}
			if tc.wantDisplay {
				wantStores = append(wantStores, lines(display)...)
			}
			if g := reads(r.targetMem); !reflect.DeepEqual(g, orEmpty(wantLoads)) {
				t.Errorf("tile reads %v,\nwant %v", g, wantLoads)
			}
			if g := writes(r.targetMem); !reflect.DeepEqual(g, orEmpty(wantStores)) {
				t.Errorf("tile writes %v,\nwant %v", g, wantStores)
			}
			if g := reads(r.binMem); !reflect.DeepEqual(g, tile1Reads) {
				t.Errorf("bin and record reads %v,\nwant %v", g, tile1Reads)
			}
			// The second chunk is read once the first's link arrived.
			if l := r.binMem.Log; l[1].Cycle < l[0].Cycle+binLatency {
				t.Errorf("second chunk read at cycle %d, before the link read at cycle %d arrived", l[1].Cycle, l[0].Cycle)
			}

			// Nothing reaches the rasterizer before the loads arrived; without
			// loads the primitives do not wait for the slow memory.
			first := r.be.received(r.be.Rasterizer)[0].Cycle
			if last, ok := lastCycle(r.targetMem, false); ok && first < last+targetLatency {
				t.Errorf("first primitive taken at cycle %d, before the last load (taken at %d) arrived", first, last)
			}
			if !tc.load && first >= targetLatency {
				t.Errorf("first primitive taken at cycle %d without loads", first)
			}

			// The flushes after every DrawDone, the stores after every flush's
			// Done, the Done after every store.
			var lastDrawDone, lastFlushDone uint64
			for _, m := range r.be.Sent {
				switch m.(type) {
				case *protocol.DrawDone:
					lastDrawDone = max(lastDrawDone, sendCycle(m))
				case *protocol.Done:
					lastFlushDone = max(lastFlushDone, sendCycle(m))
				}
			}
			for _, port := range []sim.Port{r.be.ROP, r.be.DepthUnit, r.be.ReorderBuffer} {
				g := r.be.received(port)
				if len(g) != 1 {
					t.Errorf("%s took %d messages, want one FlushCmd", port.Name(), len(g))
					continue
				}
				if f, ok := g[0].Msg.(*protocol.FlushCmd); !ok || !f.Invalidate {
					t.Errorf("%s took %T %+v, want a FlushCmd with Invalidate", port.Name(), g[0].Msg, g[0].Msg)
				}
				if sent := sendCycle(g[0].Msg); sent <= lastDrawDone {
					t.Errorf("FlushCmd to %s sent at cycle %d, not after the last DrawDone (cycle %d)", port.Name(), sent, lastDrawDone)
				}
			}
			for _, q := range r.targetMem.Log {
				if q.Write && q.Cycle <= lastFlushDone {
					t.Errorf("store of 0x%x taken at cycle %d, not after the last flush's Done (cycle %d)", q.Addr, q.Cycle, lastFlushDone)
				}
			}
			if len(r.sched.Got) != 1 {
				t.Fatalf("the scheduler got %d messages, want one Done", len(r.sched.Got))
			}
			done, ok := r.sched.Got[0].Msg.(*protocol.Done)
			if !ok || done.RspTo != job.ID || done.From != 3 {
				t.Errorf("the scheduler got %+v, want Done for %s from 3", r.sched.Got[0].Msg, job.ID)
			}
			if last, _ := lastCycle(r.targetMem, true); r.sched.Got[0].Cycle < last+targetLatency {
				t.Errorf("Done at cycle %d, before the last store (taken at %d) was answered", r.sched.Got[0].Cycle, last)
			}

			checkDisplay(t, tg, rect, tc.present)

			n := func(a []access) float64 { return float64(len(a) * 64) }
			displayBytes := 0.0
			if tc.wantDisplay {
				displayBytes = 16 * 64
			}
			testpeer.CheckStats(t, testpeer.StatMap(r.tu), "TileUnit", map[string]float64{
				"tiles": 1, "empty_tiles": 0, "load_bytes": n(wantLoads), "store_bytes": n(wantStores) - displayBytes,
				"display_bytes": displayBytes, "bin_bytes_read": 4*binning.EntryBytes + binning.LinkBytes,
				"parameter_bytes_read": 64 + 3*112, "primitives": 4, "draw_ends": 2,
				"tile_memory_peak_bytes": 128 * 64, "tile_memory_over_budget": 0,
				"tile_memory_reads": 0, "tile_memory_writes": 0, "tile_memory_bytes_read": 0, "tile_memory_bytes_written": 0,
			})
		})
	}
}

func orEmpty(a []access) []access {
	if a == nil {
		return []access{}
	}
	return a
}

// primName names m by its record in p ("P<k>").
func primName(p *protocol.BinnedPass, m *protocol.PrimitiveMsg) string {
	for k := range p.Prims {
		if p.Prims[k].Prim == m.Prim && p.Prims[k].Draw == m.Draw && p.Prims[k].Index == m.Index {
			return fmt.Sprintf("P%d", k)
		}
	}
	return "unknown primitive"
}

func drawEndName(m *protocol.DrawEnd) string { return fmt.Sprintf("end %d", m.Draw.Seq) }

// checkDisplay: on a presenting pass, the display pixels of the tile equal
// the resolve of its samples as they are after the tile's draws, and the
// other pixels are untouched (zero); without a present, nothing is written.
func checkDisplay(t *testing.T, tg *backendtest.Targets, rect raster.Rect, present bool) {
	t.Helper()
	img, _ := tg.Image.Slice(tg.Display, tg.DisplayBytes)
	bad := 0
	for y := 0; y < tg.Spec.Height; y++ {
		for x := 0; x < tg.Spec.Width; x++ {
			var want [4]byte
			if present && x >= rect.X0 && x < rect.X1 && y >= rect.Y0 && y < rect.Y1 {
				want = tg.Color.ResolvePixel(x, y)
				if want == [4]byte{} {
					t.Fatalf("pixel (%d, %d) resolves to zero: the fake ROP did not paint it", x, y)
				}
			}
			if got := img[(y*tg.Spec.Width+x)*4:][:4]; !bytes.Equal(got, want[:]) {
				if bad++; bad <= 4 {
					t.Errorf("display pixel (%d, %d) = %v, want %v", x, y, got, want)
				}
			}
		}
	}
	if bad > 4 {
		t.Errorf("%d display pixels wrong in all", bad)
	}
}

// TestEmptyTile: a tile without entries is stored (StoreAll) or resolved
// (Present) without reading a bin, sending a primitive or flushing the back
// end; a presenting pass still loads its colour to resolve it.
func TestEmptyTile(t *testing.T) {
	for _, tc := range []struct {
		name              string
		storeAll, present bool
	}{
		{"store all", true, false},
		{"present", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tg := newTargets(t)
			r := newRig(t, DefaultConfig(), tg)
			p := pass(tg)
			p.Bins[0] = protocol.Bin{}
			p.LoadColor, p.LoadDepth, p.StoreAll = true, true, tc.storeAll
			p.Present, p.Display = tc.present, tg.Display
			// Paint tile 0 so that its resolve is not zero.
			paint(tg)(p.Prims[0].Draw, grid.Rect(0))
			job := r.job(1, p, 0)
			r.runOK(t)
			rect := grid.Rect(0)
			colour, depthLines := targetLines(tg, rect)
			var wantLoads, wantStores []access
			if tc.present {
				wantLoads = lines(colour)
				for y := 0; y < 16; y++ {
					wantStores = append(wantStores, access{tg.Display + uint64(y)*128, 64})
				}
			} else {
				wantStores = lines(colour, depthLines)
			}
			if g := reads(r.targetMem); !reflect.DeepEqual(g, orEmpty(wantLoads)) {
				t.Errorf("tile reads %v,\nwant %v", g, wantLoads)
			}
			if g := writes(r.targetMem); !reflect.DeepEqual(g, wantStores) {
				t.Errorf("tile writes %v,\nwant %v", g, wantStores)
			}
			if len(r.binMem.Log) != 0 || len(r.be.Got) != 0 {
				t.Errorf("%d bin reads, %d messages to the back end; want none", len(r.binMem.Log), len(r.be.Got))
			}
			if len(r.sched.Got) != 1 || r.sched.Got[0].Msg.(*protocol.Done).RspTo != job.ID {
				t.Errorf("the scheduler got %d messages, want the job's Done", len(r.sched.Got))
			}
			checkDisplay(t, tg, rect, tc.present)
			var display, store float64
			if tc.present {
				display = 16 * 64
			} else {
				store = 128 * 64
			}
			testpeer.CheckStats(t, testpeer.StatMap(r.tu), "TileUnit", map[string]float64{
				"tiles": 1, "empty_tiles": 1, "load_bytes": float64(len(wantLoads) * 64), "store_bytes": store,
				"display_bytes": display, "bin_bytes_read": 0, "parameter_bytes_read": 0, "primitives": 0, "draw_ends": 0,
			})
		})
	}
}

// TestTileMemory: the tile memory answers a ROP-like read with the image's
// bytes and a write with WriteDone, MemoryLatency cycles after taking each,
// taking at most MemoryBytesPerCycle bytes a cycle (but at least one request).
// The requests leave the fake at cycle 5 and are taken from cycle 6.
func TestTileMemory(t *testing.T) {
	for _, tc := range []struct {
		name           string
		latency, bytes int
		want           [3]uint64 // the cycles the answers leave
	}{
		{"64 bytes per cycle", 2, 64, [3]uint64{8, 9, 10}},
		{"128 bytes per cycle", 2, 128, [3]uint64{8, 8, 9}},
		{"32 bytes per cycle", 5, 32, [3]uint64{11, 12, 13}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tg := newTargets(t)
			paint(tg)(tg.Draw(0, true), grid.Rect(0))
			cfg := DefaultConfig()
			cfg.MemoryLatency, cfg.MemoryBytesPerCycle = tc.latency, tc.bytes
			r := newRig(t, cfg, tg)
			addr := tg.ColorDesc.Addr
			src := r.be.TileMemory
			reqs := []sim.Msg{
				mem.ReadReqBuilder{}.WithSrc(src).WithDst(r.tu.TileMemory).WithAddress(addr).WithByteSize(64).Build(),
				mem.ReadReqBuilder{}.WithSrc(src).WithDst(r.tu.TileMemory).WithAddress(addr + 64).WithByteSize(64).Build(),
				mem.WriteReqBuilder{}.WithSrc(src).WithDst(r.tu.TileMemory).WithAddress(addr + 128).WithData(make([]byte, 64)).Build(),
			}
			for _, q := range reqs {
				r.be.SendAt(5, src, q)
			}
			r.runOK(t)
			got := r.be.received(src)
			if len(got) != 3 {
				t.Fatalf("%d answers, want 3", len(got))
			}
			for i, g := range got {
				if c := sendCycle(g.Msg); c != tc.want[i] {
					t.Errorf("answer %d left at cycle %d, want %d", i, c, tc.want[i])
				}
			}
			for i := 0; i < 2; i++ {
				rsp, ok := got[i].Msg.(*mem.DataReadyRsp)
				want, _ := tg.Image.Slice(addr+uint64(64*i), 64)
				if !ok || rsp.RespondTo != reqs[i].Meta().ID || !bytes.Equal(rsp.Data, want) {
					t.Errorf("answer %d: %T, want the DataReady of read %d with the image's bytes", i, got[i].Msg, i)
				}
			}
			if w, ok := got[2].Msg.(*mem.WriteDoneRsp); !ok || w.RespondTo != reqs[2].Meta().ID {
				t.Errorf("answer 2: %T, want the write's WriteDone", got[2].Msg)
			}
			testpeer.CheckStats(t, testpeer.StatMap(r.tu), "TileUnit", map[string]float64{
				"tile_memory_reads": 2, "tile_memory_writes": 1, "tile_memory_bytes_read": 128, "tile_memory_bytes_written": 64,
				"tiles": 0, "load_bytes": 0, "store_bytes": 0,
			})
			if len(r.targetMem.Log) != 0 {
				t.Errorf("%d requests reached memory", len(r.targetMem.Log))
			}
		})
	}
}

// TestBadDrawDone: a DrawDone for a draw the tile unit did not send stops
// the run with an error naming the unit, the draw and the tile.
func TestBadDrawDone(t *testing.T) {
	for _, tc := range []struct {
		name string
		job  bool
		want string
	}{
		{"no tile", false, "TileUnit: DrawDone for draw 7 with no tile in progress"},
		{"another draw", true, "TileUnit: DrawDone for draw 7: tile 1 waits for draw 0 first"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tg := newTargets(t)
			r := newRig(t, DefaultConfig(), tg)
			p := pass(tg)
			if tc.job {
				r.job(1, p, 1)
				r.be.DrawLatency = 1000 // the right DrawDone comes too late
			}
			bad := protocol.NewDrawDone(tg.Draw(7, true), 0)
			bad.Dst = r.tu.Control
			r.be.SendAt(600, r.be.ROP, bad) // after the tile's first DrawEnd
			r.run(t)
			err := r.tu.Err()
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if r.halt.Reason() != err {
				t.Errorf("the run was not halted with the error: %v", r.halt.Reason())
			}
			if len(r.sched.Got) != 0 {
				t.Errorf("the scheduler got %d messages", len(r.sched.Got))
			}
		})
	}
}

// TestBinReads: a bin of two chunks is read chunk by chunk, the first
// chunk's link (the second chunk's address) with its last entries when they
// share a line, on its own when not; the second chunk is read only once the
// link arrived. Lines smaller than an entry (4 bytes, the smallest memory
// access unit) read one whole entry at a time (the tile unit listed reads of
// no entry without end).
func TestBinReads(t *testing.T) {
	for _, tc := range []struct {
		line int
		want []access
	}{
		{64, []access{{chunkBase, 32}, {chunkBase + 96, 8}}},
		{8, []access{{chunkBase, 8}, {chunkBase + 8, 8}, {chunkBase + 16, 8}, {chunkBase + 24, 8}, {chunkBase + 96, 8}}},
		{4, []access{{chunkBase, 8}, {chunkBase + 8, 8}, {chunkBase + 16, 8}, {chunkBase + 24, 8}, {chunkBase + 96, 8}}},
	} {
		t.Run(fmt.Sprintf("%d-byte lines", tc.line), func(t *testing.T) {
			tg := newTargets(t)
			cfg := DefaultConfig()
			cfg.LineBytes = tc.line
			r := newRig(t, cfg, tg)
			r.job(1, pass(tg), 1)
			r.runOK(t)
			var got []access
			var link, second uint64
			for _, q := range r.binMem.Log {
				if q.Addr < chunkBase {
					continue
				}
				got = append(got, access{q.Addr, q.Size})
				switch q.Addr {
				case tc.want[len(tc.want)-2].Addr:
					link = q.Cycle
				case chunkBase + 96:
					second = q.Cycle
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("bin reads %v, want %v", got, tc.want)
			}
			if second < link+binLatency {
				t.Errorf("second chunk read at cycle %d, before the link read at cycle %d arrived", second, link)
			}
			testpeer.CheckStats(t, testpeer.StatMap(r.tu), "TileUnit", map[string]float64{
				"bin_bytes_read": 4*binning.EntryBytes + binning.LinkBytes, "primitives": 4,
			})
		})
	}
}

func TestConfigValidate(t *testing.T) {
	testpeer.CheckInvalid(t, DefaultConfig(),
		testpeer.Reject(func(c *Config) { c.LineBytes = 2 }, "tile unit: LineBytes 2 must be a power of two of at least 4"),
		testpeer.Reject(func(c *Config) { c.TileBuffers = 9 }, "tile unit: TileBuffers 9 must be at most 8"))
	testpeer.CheckAtLeast(t, DefaultConfig(), "tile unit", 1, "PrimitivesPerCycle", "MaxOutstandingMemory",
		"MemoryLatency", "MemoryBytesPerCycle", "MemoryBytes", "InputQueue", "TileBuffers")
	testpeer.CheckEnv(t, true, func(e timing.Env) { MakeBuilder().WithEnv(e).Build("TileUnit") })
}

// TestDoubleBuffer renders tiles 0 and 1 of the hand-built pass, both handed
// out at once, with one tile buffer and with two. With one, tile 1 begins
// when tile 0's last store was answered; with two, tile 0's stores drain
// behind tile 1, whose primitives reach the rasterizer before tile 0's Done,
// and both tiles are held at once (the peak). Either way every store is
// written once, after its tile's flush, and the Dones come in job order.
func TestDoubleBuffer(t *testing.T) {
	for _, tc := range []struct {
		buffers, inFlight int
		overlaps          bool
		peak              float64
	}{
		{1, 16, false, 128 * 64},
		{2, 16, true, 2 * 128 * 64},
		// One request in flight: tile 1 renders before tile 0's stores
		// drain, and stores in place until tile 0 frees its buffer.
		{2, 1, true, 2 * 128 * 64},
	} {
		t.Run(fmt.Sprintf("%d buffers, %d in flight", tc.buffers, tc.inFlight), func(t *testing.T) {
			tg := newTargets(t)
			cfg := DefaultConfig()
			cfg.TileBuffers, cfg.MaxOutstandingMemory = tc.buffers, tc.inFlight
			r := newRig(t, cfg, tg)
			r.be.Render = paint(tg)
			p := pass(tg)
			p.StoreAll = true
			j0, j1 := r.job(1, p, 0), r.job(1, p, 1)
			r.runOK(t)

			if len(r.sched.Got) != 2 {
				t.Fatalf("the scheduler got %d messages, want two Dones", len(r.sched.Got))
			}
			for k, j := range []*protocol.TileJob{j0, j1} {
				if d, ok := r.sched.Got[k].Msg.(*protocol.Done); !ok || d.RspTo != j.ID {
					t.Errorf("message %d to the scheduler: %+v, want the Done of tile %d", k, r.sched.Got[k].Msg, k)
				}
			}
			done0 := r.sched.Got[0].Cycle
			// Tile 1's first primitive: the first after tile 0's last DrawEnd.
			var tile1 uint64
			ends := 0
			for _, g := range r.be.received(r.be.Rasterizer) {
				if _, ok := g.Msg.(*protocol.DrawEnd); ok {
					ends++
				} else if ends == 1 { // tile 0 draws one draw (P0, P1)
					tile1 = g.Cycle
					break
				}
			}
			if tile1 == 0 {
				t.Fatal("no primitive of tile 1 reached the rasterizer")
			}
			if overlaps := tile1 < done0; overlaps != tc.overlaps {
				t.Errorf("tile 1's first primitive at cycle %d, tile 0's Done at %d: overlap %v, want %v", tile1, done0, overlaps, tc.overlaps)
			}

			c0, d0 := targetLines(tg, grid.Rect(0))
			c1, d1 := targetLines(tg, grid.Rect(1))
			want := map[access]int{}
			for _, a := range lines(c0, d0, c1, d1) {
				want[a]++
			}
			got := map[access]int{}
			for _, a := range writes(r.targetMem) {
				got[a]++
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%d stores, want each of the two tiles' %d lines once", len(writes(r.targetMem)), len(want))
			}
			testpeer.CheckStats(t, testpeer.StatMap(r.tu), "TileUnit", map[string]float64{
				"tiles": 2, "tile_memory_peak_bytes": tc.peak, "store_bytes": float64(len(want) * 64),
			})
		})
	}
}
