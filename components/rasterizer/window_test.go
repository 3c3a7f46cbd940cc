package rasterizer

import (
	"fmt"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/timing"
)

// windowPrim is a primitive of a test with the draw it belongs to.
type windowPrim struct {
	d *protocol.Draw
	p *pipeline.Primitive
}

// quadKey names a quad of the i-th primitive of a test.
type quadKey struct {
	prim int
	x, y int32
}

// windowRun is what R rasterizers sent for a list of primitives, all with
// the same window: every quad with its coverage and the counters summed over
// the rasterizers.
type windowRun struct {
	quads                  map[quadKey]raster.SampleMask
	sent                   int // quads sent, duplicates included
	quadCnt, covered, s5Cv uint64
}

// rasterizeIn runs R rasterizers (one partition each) over prims, each sent
// with window w, and checks that every TileQuads holds quads and only quads
// inside w.
func rasterizeIn(t *testing.T, prims []windowPrim, w raster.Rect, R int) windowRun {
	t.Helper()
	run := windowRun{quads: map[quadKey]raster.SampleMask{}}
	for r := 0; r < R; r++ {
		g := newRig(t, sim.NewSerialEngine(), MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.Index = r; c.NumRasterizers = R })), fmt.Sprintf("GPU.Rasterizer[%d]", r), 1)
		index := map[*pipeline.Primitive]int{}
		for i, wp := range prims {
			m := protocol.NewPrimitiveMsg(wp.d, wp.p, 0)
			m.Window = w
			g.pa.Script = append(g.pa.Script, scripted{At: 0, Msg: m, Dst: g.r.FromPrimitiveAssembly})
			index[wp.p] = i
		}
		g.run(t)
		for _, got := range g.depths[0].Got {
			tq := got.Msg.(*protocol.TileQuads)
			if len(tq.Quads) == 0 {
				t.Errorf("window %+v: rasterizer %d sent an empty TileQuads", w, r)
			}
			for _, q := range tq.Quads {
				if !w.Empty() && !w.Contains(int(q.Quad.X), int(q.Quad.Y)) {
					t.Errorf("window %+v: quad (%d, %d) sent", w, q.Quad.X, q.Quad.Y)
				}
				k := quadKey{index[tq.Prim], q.Quad.X, q.Quad.Y}
				if _, dup := run.quads[k]; dup {
					t.Errorf("window %+v: quad %+v sent twice", w, k)
				}
				run.quads[k] = q.Quad.Coverage
				run.sent++
			}
		}
		k := g.r.Counters()
		run.quadCnt += k.Quads
		run.covered += k.CoveredSamples
		run.s5Cv += k.SamplesCovered
	}
	return run
}

// windowDraw is a w x h 4x draw with raster tiles of tileSize pixels.
func windowDraw(t *testing.T, w, h, tileSize int) *protocol.Draw {
	t.Helper()
	d := testpeer.TestDraw(0, w, h, geom.CullNone)
	pat, err := raster.PatternFor(4)
	if err != nil {
		t.Fatal(err)
	}
	d.State.Samples = pat
	d.Raster = pipeline.RasterConfig(d.State, pipeline.RasterOptions{TileSize: tileSize})
	return d
}

// TestWindowUnion: for 2D and 5D primitives, raster tiles of 8 and 32 pixels
// and windows of 16x16, 32x16 and 64x64 pixels, the union over a grid of
// windows covering the target of the quads sent equals, quad for quad and mask
// for mask, what is sent without a window, no quad twice; the quad and
// covered-sample counters (and the 5D samples_covered) summed over the windows
// equal those of the run without a window.
func TestWindowUnion(t *testing.T) {
	const W, H = 96, 80
	tris2D := [][3][3]float32{
		{{3, 5, 0.5}, {90, 12, 0.5}, {20, 77, 0.5}},
		{{1, 40, 0.2}, {95, 44, 0.2}, {2, 42.5, 0.2}}, // a sliver across the target
		{{50, 50, 0.7}, {57, 51, 0.7}, {51, 58, 0.7}}, // a small one
	}
	tris5D := [][3][3]float32{
		{{2, 3, 0.5}, {61, 9, 0.5}, {11, 40, 0.5}},
		{{30, 20, 0.4}, {94, 70, 0.4}, {40, 79, 0.4}},
	}
	for _, kind := range []string{"2D", "5D"} {
		for _, ts := range []int{8, 32} {
			var prims []windowPrim
			if kind == "2D" {
				d := windowDraw(t, W, H, ts)
				for _, tri := range tris2D {
					prims = append(prims, windowPrim{d, primOf(t, d, tri)})
				}
			} else {
				for _, tri := range tris5D {
					d, p := blurPrim(t, W, H, ts, tri)
					prims = append(prims, windowPrim{d, p})
				}
			}
			for _, R := range []int{1, 2} {
				whole := rasterizeIn(t, prims, raster.Rect{}, R)
				if len(whole.quads) == 0 {
					t.Fatalf("%s tile %d: no quads without a window", kind, ts)
				}
				for _, win := range [][2]int{{16, 16}, {32, 16}, {64, 64}} {
					t.Run(fmt.Sprintf("%s/tile%d/R%d/%dx%d", kind, ts, R, win[0], win[1]), func(t *testing.T) {
						union := windowRun{quads: map[quadKey]raster.SampleMask{}}
						windows := 0
						for y := 0; y < H; y += win[1] {
							for x := 0; x < W; x += win[0] {
								w := raster.Rect{X0: x, Y0: y, X1: x + win[0], Y1: y + win[1]}
								got := rasterizeIn(t, prims, w, R)
								if len(got.quads) > 0 {
									windows++
								}
								for k, m := range got.quads {
									if _, dup := union.quads[k]; dup {
										t.Errorf("quad %+v sent in two windows", k)
									}
									union.quads[k] = m
								}
								union.sent += got.sent
								union.quadCnt += got.quadCnt
								union.covered += got.covered
								union.s5Cv += got.s5Cv
							}
						}
						if windows < 2 {
							t.Fatalf("the primitives meet %d windows", windows)
						}
						if union.sent != whole.sent || len(union.quads) != len(whole.quads) {
							t.Errorf("%d quads sent (%d distinct) over the windows, %d without a window", union.sent, len(union.quads), whole.sent)
						}
						for k, m := range whole.quads {
							if u, ok := union.quads[k]; !ok || u != m {
								t.Errorf("quad %+v: coverage %v over the windows (sent %v), %v without a window", k, u, ok, m)
							}
						}
						if union.quadCnt != whole.quadCnt || union.covered != whole.covered || union.s5Cv != whole.s5Cv {
							t.Errorf("counters over the windows: quads %d, covered_samples %d, samples_covered %d; without a window %d, %d, %d",
								union.quadCnt, union.covered, union.s5Cv, whole.quadCnt, whole.covered, whole.s5Cv)
						}
					})
				}
			}
		}
	}
}

// TestWindowClampsTheWalk: a primitive covering the whole target, sent with a
// window, costs the coarse tests of the raster tiles that meet the window
// only.
func TestWindowClampsTheWalk(t *testing.T) {
	d := windowDraw(t, 64, 64, 8)
	p := primOf(t, d, [3][3]float32{{-1, -1, 0.5}, {200, -1, 0.5}, {-1, 200, 0.5}})
	for _, tc := range []struct {
		w             raster.Rect
		tested, quads uint64
	}{
		{raster.Rect{}, 64, 1024},
		{raster.Rect{X0: 16, Y0: 16, X1: 32, Y1: 32}, 4, 64},
		{raster.Rect{X0: 20, Y0: 4, X1: 30, Y1: 10}, 4, 15},   // not tile aligned: 2x2 tiles, 5x3 quads
		{raster.Rect{X0: 60, Y0: 60, X1: 100, Y1: 100}, 1, 4}, // past the target
		{raster.Rect{X0: 64, Y0: 0, X1: 80, Y1: 16}, 0, 0},    // outside the primitive's range
	} {
		g := newRig(t, sim.NewSerialEngine(), MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.NumRasterizers = 1 })), "GPU.Rasterizer[0]", 1)
		m := protocol.NewPrimitiveMsg(d, p, 0)
		m.Window = tc.w
		g.pa.Script = []scripted{{At: 0, Msg: m, Dst: g.r.FromPrimitiveAssembly}}
		g.run(t)
		k := g.r.Counters()
		if k.Primitives != 1 || k.TilesTested != tc.tested || k.Quads != tc.quads {
			t.Errorf("window %+v: %d primitives, %d tiles tested, %d quads; want 1, %d, %d", tc.w, k.Primitives, k.TilesTested, k.Quads, tc.tested, tc.quads)
		}
	}
}

// TestWindowSkipsBlurTiles: a 5D primitive covering a 64x64 target (four
// 32x32 tiles), sent with a window, is fine-rasterized in the 32x32 tiles
// that meet the window only.
func TestWindowSkipsBlurTiles(t *testing.T) {
	d, p := blurPrim(t, 64, 64, 32, [3][3]float32{{-1, -1, 0.5}, {200, -1, 0.5}, {-1, 200, 0.5}})
	for _, tc := range []struct {
		w     raster.Rect
		tiles uint64
		quads uint64
	}{
		{raster.Rect{}, 4, 1024},
		{raster.Rect{X0: 32, Y0: 32, X1: 48, Y1: 48}, 1, 64},
		{raster.Rect{X0: 16, Y0: 16, X1: 48, Y1: 48}, 4, 256},
		{raster.Rect{X0: 0, Y0: 32, X1: 64, Y1: 48}, 2, 256},
		{raster.Rect{X0: 64, Y0: 0, X1: 80, Y1: 16}, 0, 0},
	} {
		g := newRig(t, sim.NewSerialEngine(), MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.NumRasterizers = 1 })), "GPU.Rasterizer[0]", 1)
		m := protocol.NewPrimitiveMsg(d, p, 0)
		m.Window = tc.w
		g.pa.Script = []scripted{{At: 0, Msg: m, Dst: g.r.FromPrimitiveAssembly}}
		g.run(t)
		if k := g.r.Counters(); k.Tiles5D != tc.tiles || k.Quads != tc.quads {
			t.Errorf("window %+v: %d 32x32 tiles, %d quads; want %d, %d", tc.w, k.Tiles5D, k.Quads, tc.tiles, tc.quads)
		}
	}
}

// TestOddWindowHalts: a window with an odd corner is malformed input.
func TestOddWindowHalts(t *testing.T) {
	d := windowDraw(t, 16, 16, 8)
	p := primOf(t, d, [3][3]float32{{0, 0, 0.5}, {16, 0, 0.5}, {0, 16, 0.5}})
	h := &timing.Halt{}
	g := newRig(t, sim.NewSerialEngine(), MakeBuilder().WithEnv(timing.Env{Halt: h}).WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.NumRasterizers = 1 })), "GPU.Rasterizer[0]", 1)
	m := protocol.NewPrimitiveMsg(d, p, 0)
	m.Window = raster.Rect{X0: 0, Y0: 0, X1: 7, Y1: 8}
	g.pa.Script = []scripted{{At: 0, Msg: m, Dst: g.r.FromPrimitiveAssembly}}
	testpeer.Run(t, g.e, g.pa)
	testpeer.CheckHalted(t, h.Reason(), "GPU.Rasterizer[0]", "PrimitiveMsg.Window")
}

// TestWindowTasks: a primitive sent for two screen tiles inside one 32x32
// raster tile (2D and 5D) is two rasterize tasks below the draw's task in
// each window, each with its tile task, all named by the window (the raster
// tile's coordinates are the same), each started once and ended; the
// TileQuads carry the window.
func TestWindowTasks(t *testing.T) {
	tri := [3][3]float32{{-1, -1, 0.5}, {200, -1, 0.5}, {-1, 200, 0.5}}
	for _, kind := range []string{"2D", "5D"} {
		t.Run(kind, func(t *testing.T) {
			var d *protocol.Draw
			var p *pipeline.Primitive
			if kind == "2D" {
				d = windowDraw(t, 64, 64, 32)
				p = primOf(t, d, tri)
			} else {
				d, p = blurPrim(t, 64, 64, 32, tri)
			}
			wins := []raster.Rect{{X0: 0, Y0: 0, X1: 16, Y1: 16}, {X0: 16, Y0: 0, X1: 32, Y1: 16}}
			g := newRig(t, sim.NewSerialEngine(), MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.NumRasterizers = 1 })), "GPU.Rasterizer[0]", 1)
			for _, w := range wins {
				m := protocol.NewPrimitiveMsg(d, p, 0)
				m.Window = w
				g.pa.Script = append(g.pa.Script, scripted{At: 0, Msg: m, Dst: g.r.FromPrimitiveAssembly})
			}
			log := &testpeer.TaskLog{}
			tracing.CollectTrace(g.r, log)
			g.run(t)

			var want []tracing.Task
			for _, w := range wins {
				r := protocol.RasterizeTaskID(d.Seq, w, p, 0)
				want = append(want, tracing.Task{ID: r, ParentID: protocol.WindowDrawTaskID(d.Seq, w), Kind: protocol.KindRasterize},
					tracing.Task{ID: protocol.TileTaskID(d.Seq, w, p, 0, 0, ""), ParentID: r, Kind: protocol.KindTile})
			}
			if len(log.Started) != len(want) {
				t.Fatalf("%d tasks started, want %d: %+v", len(log.Started), len(want), log.Started)
			}
			for i, task := range log.Started {
				if task.ID != want[i].ID || task.ParentID != want[i].ParentID || task.Kind != want[i].Kind || !log.Ended[task.ID] {
					t.Errorf("task %d: %s %s below %s (ended %v), want %s %s below %s", i, task.Kind, task.ID, task.ParentID,
						log.Ended[task.ID], want[i].Kind, want[i].ID, want[i].ParentID)
				}
			}
			if len(g.depths[0].Got) != len(wins) {
				t.Fatalf("%d TileQuads, want %d", len(g.depths[0].Got), len(wins))
			}
			for i, got := range g.depths[0].Got {
				if tq := got.Msg.(*protocol.TileQuads); tq.Window != wins[i] || tq.TileX != 0 || tq.TileY != 0 {
					t.Errorf("TileQuads %d: window %+v, tile (%d, %d); want %+v, (0, 0)", i, tq.Window, tq.TileX, tq.TileY, wins[i])
				}
			}
		})
	}
}
