package rasterizer

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/timing"
)

func morton(x, y int) uint64 {
	var m uint64
	for b := 0; b < 32; b++ {
		m |= uint64(x>>b&1) << (2 * b)
		m |= uint64(y>>b&1) << (2*b + 1)
	}
	return m
}

// TestTileWalk compares the owned-tile walk with a brute-force enumeration of
// the rectangle in the traversal order, filtered by protocol.TileOwner.
func TestTileWalk(t *testing.T) {
	rects := [][4]int{{0, 0, 1, 1}, {3, 5, 4, 9}, {2, 1, 9, 2}, {0, 0, 8, 8}, {5, 3, 12, 10}, {1, 7, 30, 11}, {4, 4, 4, 9}}
	for _, order := range []raster.TraversalOrder{raster.RowMajor, raster.ZOrder} {
		for _, rc := range rects {
			for _, n := range []int{1, 2, 3, 4} {
				for _, stride := range []int{0, 1, 2, 5} {
					var all [][2]int
					for ty := rc[1]; ty < rc[3]; ty++ {
						for tx := rc[0]; tx < rc[2]; tx++ {
							all = append(all, [2]int{tx, ty})
						}
					}
					if order == raster.ZOrder {
						sort.SliceStable(all, func(i, j int) bool {
							return morton(all[i][0]-rc[0], all[i][1]-rc[1]) < morton(all[j][0]-rc[0], all[j][1]-rc[1])
						})
					}
					for r := 0; r < n; r++ {
						var want, got [][2]int
						for _, p := range all {
							if protocol.TileOwner(p[0], p[1], stride, n) == r {
								want = append(want, p)
							}
						}
						var w tileWalk
						w.init(order, rc[0], rc[1], rc[2], rc[3], r, n, stride)
						for !w.done() {
							tx, ty := w.take()
							got = append(got, [2]int{tx, ty})
						}
						if !reflect.DeepEqual(got, want) {
							t.Fatalf("order %v rect %v n %d stride %d r %d: walk %v, want %v", order, rc, n, stride, r, got, want)
						}
					}
				}
			}
		}
	}
}

// TestTimingPinned pins, by hand, the cycles at which the tiles and the
// DrawEnd of one primitive leave the rasterizer (package doc, "Timing"). The
// primitive covers the whole target, so every tile is inside with 16 quads.
// The fake primitive assembly sends the primitive and the DrawEnd in cycle 0;
// the rasterizer takes the primitive in cycle c = 1.
func TestTimingPinned(t *testing.T) {
	tests := []struct {
		name       string
		w          int // target width (8 pixels high): w/8 tiles in a row
		rasts      int
		tpc, qpc   int
		tiles      []uint64 // TileQuads send cycles
		tileX      []int
		end        uint64 // DrawEnd send cycle (to every depth unit)
		fineCycles uint64
	}{
		// 2 tiles, f = ceil(16/8) = 2: tested in 1, 2; fine in [2,4) and [4,6);
		// sent at 4 and 6. The DrawEnd passes coarse in 3 and fine in 6: sent at 7.
		{"f2", 16, 1, 1, 8, []uint64{4, 6}, []int{0, 1}, 7, 4},
		// f = 4: fine in [2,6) and [6,10); DrawEnd fine in 10, sent at 11.
		{"f4", 16, 1, 1, 4, []uint64{6, 10}, []int{0, 1}, 11, 8},
		// 4 tiles, rasterizer 0 of 2 owns tiles 0 and 2 (tested in 1 and 2);
		// f = 1: fine in 2 and 3, sent at 3 and 4; DrawEnd coarse 3, fine 4, sent 5.
		{"owned", 32, 2, 1, 16, []uint64{3, 4}, []int{0, 2}, 5, 2},
		// 4 tiles, 2 tested per cycle (1: tiles 0, 1; 2: tiles 2, 3); f = 1:
		// fine in 2, 3, 4, 5, sent at 3, 4, 5, 6; DrawEnd coarse 3, fine 6, sent 7.
		{"tpc2", 32, 1, 2, 16, []uint64{3, 4, 5, 6}, []int{0, 1, 2, 3}, 7, 4},
		// 4 tiles, one test per cycle, f = 4 with a 1-entry tile queue: coarse
		// stalls behind fine but fine is never starved: fine in [2,6), [6,10),
		// [10,14), [14,18); the DrawEnd waits for room and leaves at 19.
		{"queue", 32, 1, 1, 4, []uint64{6, 10, 14, 18}, []int{0, 1, 2, 3}, 19, 16},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := testpeer.TestDraw(0, tc.w, 8, geom.CullNone)
			p := primOf(t, d, [3][3]float32{{-100, -100, 0.5}, {300, -100, 0.5}, {-100, 300, 0.5}})
			b := MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.NumRasterizers = tc.rasts; c.TilesPerCycle = tc.tpc; c.QuadsPerCycle = tc.qpc }))
			if tc.name == "queue" {
				b = b.WithConfig(testpeer.Edit(b.Config(), func(c *Config) { c.TileQueue = 1 }))
			}
			g := newRig(t, sim.NewSerialEngine(), b, "GPU.Rasterizer[0]", 2)
			g.pa.Script = []scripted{
				{At: 0, Msg: protocol.NewPrimitiveMsg(d, p, 0), Dst: g.r.FromPrimitiveAssembly},
				{At: 0, Msg: protocol.NewDrawEnd(d, 0), Dst: g.r.FromPrimitiveAssembly},
			}
			g.run(t)
			var got []uint64
			var xs []int
			for pi, f := range g.depths {
				for _, m := range f.Got {
					switch m := m.Msg.(type) {
					case *protocol.TileQuads:
						if m.Partition != pi || protocol.TileOwner(m.TileX, m.TileY, 1, 2) != pi {
							t.Errorf("tile (%d,%d) of partition %d at depth unit %d", m.TileX, m.TileY, m.Partition, pi)
						}
						if len(m.Quads) != 16 {
							t.Errorf("tile (%d,%d): %d quads", m.TileX, m.TileY, len(m.Quads))
						}
					case *protocol.DrawEnd:
						if m.Draw != d || m.From != 0 {
							t.Errorf("DrawEnd{%d, %d}", m.Draw.Seq, m.From)
						}
					}
				}
				if n := len(f.Got); n == 0 {
					t.Fatalf("depth unit %d got nothing", pi)
				}
				last := f.Got[len(f.Got)-1]
				if _, ok := last.Msg.(*protocol.DrawEnd); !ok || last.Cycle != tc.end {
					t.Errorf("depth unit %d: last message %T at %d, want DrawEnd at %d", pi, last.Msg, last.Cycle, tc.end)
				}
			}
			// Interleave the two depth units' tiles by send cycle.
			type sent struct {
				cyc uint64
				x   int
			}
			var all []sent
			for _, f := range g.depths {
				for _, m := range f.Got {
					if tq, ok := m.Msg.(*protocol.TileQuads); ok {
						all = append(all, sent{m.Cycle, tq.TileX})
					}
				}
			}
			sort.Slice(all, func(i, j int) bool { return all[i].cyc < all[j].cyc })
			for _, s := range all {
				got = append(got, s.cyc)
				xs = append(xs, s.x)
			}
			if !reflect.DeepEqual(got, tc.tiles) || !reflect.DeepEqual(xs, tc.tileX) {
				t.Errorf("tiles %v sent at %v, want %v at %v", xs, got, tc.tileX, tc.tiles)
			}
			k := g.r.Counters()
			if k.FineCycles != tc.fineCycles || k.TilesInside != uint64(len(tc.tiles)) || k.TilesTested != uint64(len(tc.tiles)) {
				t.Errorf("counters %+v", k)
			}
			// Busy from cycle 1 to the DrawEnd send, then idle.
			if busy := g.r.Activity.Cycles(stateBusy); busy != tc.end {
				t.Errorf("%d busy cycles, want %d", busy, tc.end)
			}
		})
	}
}

// TestSleepsWhileFineRasterizing: with a slow fine rasterizer the unit does
// not tick while it only waits for the fine stage.
func TestSleepsWhileFineRasterizing(t *testing.T) {
	d := testpeer.TestDraw(0, 16, 8, geom.CullNone)
	p := primOf(t, d, [3][3]float32{{-100, -100, 0.5}, {300, -100, 0.5}, {-100, 300, 0.5}})
	e := sim.NewSerialEngine()
	g := newRig(t, e, MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.NumRasterizers = 1; c.QuadsPerCycle = 1 })), "GPU.Rasterizer[0]", 1)
	g.pa.Script = []scripted{{At: 0, Msg: protocol.NewPrimitiveMsg(d, p, 0), Dst: g.r.FromPrimitiveAssembly}}
	ticks := &testpeer.TickLog{Comp: g.r.TickingComponent}
	e.AcceptHook(ticks)
	g.run(t)
	// Coarse in 1 and 2 (tile 1 tested, primitive done), fine [2,18) and
	// [18,34): 3 finds nothing new and sleeps until 18; 34 sends the last tile,
	// 35 finds the unit idle.
	want := []uint64{1, 2, 3, 18, 19, 34, 35}
	if !reflect.DeepEqual(ticks.Cycles, want) {
		t.Errorf("ticked at %v, want %v", ticks.Cycles, want)
	}
}

// geoYAML: testpeer.GeoScene on a small 4x MSAA target whose size is not a
// multiple of the tile size.
var geoYAML = testpeer.GeoScene(90, 60)

type tileKey struct {
	draw, prim uint64
	tx, ty     int
}

// frameRun sends every primitive of every draw of the scene to R rasterizers
// (all of them, in API order, then a DrawEnd) and collects what P fake depth
// units receive.
type frameRun struct {
	rasts  []*Comp
	depths []*fake
	draws  []*protocol.Draw
	prims  [][]pipeline.Primitive
}

func runFrame(t *testing.T, e sim.Engine, order raster.TraversalOrder, R, P int) *frameRun {
	t.Helper()
	fr := testpeer.LoadFrame(t, geoYAML)
	run := &frameRun{}
	conn := sim.NewDirectConnection("Conn", e, 1*sim.GHz)
	pa := newFake("PA", e, 4)
	conn.PlugIn(pa.Port, 16)
	for p := 0; p < P; p++ {
		f := newFake("Depth["+strconv.Itoa(p)+"]", e, 4096)
		conn.PlugIn(f.Port, 4)
		run.depths = append(run.depths, f)
	}
	for r := 0; r < R; r++ {
		c := MakeBuilder().WithEnv(testpeer.Env(e)).WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) {
			c.Index = r
			c.NumRasterizers = R
			c.RasterStride = 3
			c.NumPartitions = P
			c.PartitionStride = 1
			c.QuadsPerCycle = 4
		})).Build(fmt.Sprintf("GPU.Rasterizer[%d]", r))
		conn.PlugIn(c.FromPrimitiveAssembly, 4)
		conn.PlugIn(c.ToDepthUnits, 4)
		for _, f := range run.depths {
			c.DepthUnits = append(c.DepthUnits, f.Port)
		}
		run.rasts = append(run.rasts, c)
	}
	for _, d := range fr.Draws {
		d.Raster.TileOrder, d.Raster.QuadOrder = order, order
		prims := testpeer.Primitives(d, fr.Shade(t, d), &pipeline.GeometryStats{})
		run.draws = append(run.draws, d)
		run.prims = append(run.prims, prims)
		for i := range prims {
			for _, c := range run.rasts {
				pa.Script = append(pa.Script, scripted{At: 0, Msg: protocol.NewPrimitiveMsg(d, &prims[i], uint64(i)), Dst: c.FromPrimitiveAssembly})
			}
		}
		for _, c := range run.rasts {
			pa.Script = append(pa.Script, scripted{At: 0, Msg: protocol.NewDrawEnd(d, 0), Dst: c.FromPrimitiveAssembly})
		}
	}
	testpeer.Run(t, e, pa)
	for _, c := range run.rasts {
		c.Finish(e.CurrentTime())
	}
	return run
}

// TestQuadsMatchReferenceSplitByOwner: over a real frame, the union of the
// TileQuads of all rasterizers equals, primitive by primitive and tile by tile,
// what the reference renderer's rasterization (Triangle.Tiles + TileQuads)
// produces; each tile comes from its owning rasterizer, goes to its owning
// depth unit, and every (rasterizer, depth unit) stream is in API order with
// the DrawEnd last. The counters add up to the reference renderer's.
func TestQuadsMatchReferenceSplitByOwner(t *testing.T) {
	ref := testpeer.LoadFrame(t, geoYAML)
	res := testpeer.Reference(t, ref.Frame)
	for _, tc := range []struct {
		order raster.TraversalOrder
		R, P  int
	}{{raster.RowMajor, 1, 1}, {raster.RowMajor, 2, 4}, {raster.ZOrder, 3, 2}, {raster.ZOrder, 4, 4}} {
		t.Run(fmt.Sprintf("%v/R%d/P%d", tc.order, tc.R, tc.P), func(t *testing.T) {
			run := runFrame(t, sim.NewSerialEngine(), tc.order, tc.R, tc.P)
			got := map[tileKey][]protocol.QuadLive{}
			for p, f := range run.depths {
				type pos struct{ draw, prim, seq uint64 }
				last := make([]pos, tc.R)
				ends := make([]int, tc.R)
				for _, g := range f.Got {
					switch m := g.Msg.(type) {
					case *protocol.TileQuads:
						r := protocol.TileOwner(m.TileX, m.TileY, 3, tc.R)
						if m.Partition != p || protocol.TileOwner(m.TileX, m.TileY, 1, tc.P) != p {
							t.Fatalf("tile (%d,%d) partition %d at depth unit %d", m.TileX, m.TileY, m.Partition, p)
						}
						if m.Src != run.rasts[r].ToDepthUnits {
							t.Fatalf("tile (%d,%d) owned by rasterizer %d sent by %s", m.TileX, m.TileY, r, m.Src.Name())
						}
						idx := primIndex(run, m)
						cur := pos{m.Draw.Seq, idx, tilePos(m)}
						if int(m.Draw.Seq) != ends[r] || cur.prim < last[r].prim && cur.draw == last[r].draw ||
							cur.prim == last[r].prim && cur.draw == last[r].draw && cur.seq <= last[r].seq && last[r] != (pos{}) {
							t.Fatalf("depth unit %d from rasterizer %d: tile %+v after %+v (%d DrawEnds)", p, r, cur, last[r], ends[r])
						}
						last[r] = cur
						k := tileKey{m.Draw.Seq, idx, m.TileX, m.TileY}
						if _, dup := got[k]; dup {
							t.Fatalf("tile %+v sent twice", k)
						}
						for _, q := range m.Quads {
							if q.Live != q.Quad.Coverage {
								t.Fatalf("tile %+v: live %x != coverage %x", k, q.Live, q.Quad.Coverage)
							}
						}
						got[k] = m.Quads
					case *protocol.DrawEnd:
						if int(m.Draw.Seq) != ends[m.From] {
							t.Fatalf("depth unit %d: DrawEnd of draw %d from %d after %d", p, m.Draw.Seq, m.From, ends[m.From])
						}
						ends[m.From]++
						last[m.From] = pos{}
					}
				}
				for r, n := range ends {
					if n != len(run.draws) {
						t.Errorf("depth unit %d got %d DrawEnds from rasterizer %d", p, n, r)
					}
				}
			}
			want := 0
			var tiles []raster.TilePos
			var quads []raster.Quad
			for di, d := range run.draws {
				for pi := range run.prims[di] {
					pr := &run.prims[di][pi]
					tiles = pr.Triangle.Tiles(&d.Raster, tiles[:0])
					for _, tp := range tiles {
						quads = pr.Triangle.TileQuads(&d.Raster, tp.X, tp.Y, quads[:0])
						if len(quads) == 0 {
							continue
						}
						want++
						k := tileKey{d.Seq, uint64(pi), tp.X, tp.Y}
						g, ok := got[k]
						if !ok || len(g) != len(quads) {
							t.Fatalf("tile %+v: got %d quads, want %d", k, len(g), len(quads))
						}
						for i := range quads {
							if g[i].Quad != quads[i] {
								t.Fatalf("tile %+v quad %d: %+v, want %+v", k, i, g[i].Quad, quads[i])
							}
						}
					}
				}
			}
			if len(got) != want {
				t.Errorf("%d tiles received, want %d", len(got), want)
			}
			checkSums(t, run.rasts, res.Counters)
			var emitted uint64
			for _, c := range run.rasts {
				emitted += c.Counters().TilesEmitted
			}
			if emitted != uint64(want) {
				t.Errorf("%d TileQuads messages counted, %d received", emitted, want)
			}
		})
	}
}

func primIndex(run *frameRun, m *protocol.TileQuads) uint64 {
	prims := run.prims[m.Draw.Seq]
	for i := range prims {
		if &prims[i] == m.Prim {
			return uint64(i)
		}
	}
	panic("unknown primitive")
}

// tilePos is the position of a tile in its draw's traversal order within the
// primitive's tile range (row-major index or Morton code, plus one).
func tilePos(m *protocol.TileQuads) uint64 {
	tx0, ty0, tx1, _ := m.Prim.Triangle.TileRange(&m.Draw.Raster)
	if m.Draw.Raster.TileOrder == raster.ZOrder {
		return morton(m.TileX-tx0, m.TileY-ty0) + 1
	}
	return uint64((m.TileY-ty0)*(tx1-tx0)+m.TileX-tx0) + 1
}

// TestDeterministicUnderParallelEngine: the same frame gives the same streams
// (message by message, with send cycles) under the serial and parallel engines.
func TestDeterministicUnderParallelEngine(t *testing.T) {
	a := runFrame(t, sim.NewSerialEngine(), raster.ZOrder, 2, 2)
	b := runFrame(t, sim.NewParallelEngine(), raster.ZOrder, 2, 2)
	for p := range a.depths {
		ga, gb := a.depths[p].Got, b.depths[p].Got
		if len(ga) != len(gb) {
			t.Fatalf("depth unit %d: %d vs %d messages", p, len(ga), len(gb))
		}
		for i := range ga {
			x, y := ga[i], gb[i]
			if x.Cycle != y.Cycle || reflect.TypeOf(x.Msg) != reflect.TypeOf(y.Msg) {
				t.Fatalf("depth unit %d message %d: %T at %d vs %T at %d", p, i, x.Msg, x.Cycle, y.Msg, y.Cycle)
			}
			if tx, ok := x.Msg.(*protocol.TileQuads); ok {
				ty := y.Msg.(*protocol.TileQuads)
				if tx.TileX != ty.TileX || tx.TileY != ty.TileY || !reflect.DeepEqual(tx.Quads, ty.Quads) || tx.Prim.Source != ty.Prim.Source {
					t.Fatalf("depth unit %d message %d differs", p, i)
				}
			}
		}
	}
	for r := range a.rasts {
		if a.rasts[r].Counters() != b.rasts[r].Counters() {
			t.Errorf("rasterizer %d counters differ: %+v vs %+v", r, a.rasts[r].Counters(), b.rasts[r].Counters())
		}
	}
}

// checkerFilter drops the tiles with odd tx+ty and records its calls.
type checkerFilter struct{ calls []string }

func (f *checkerFilter) KeepTile(d *protocol.Draw, p *pipeline.Primitive, tx, ty int, class raster.TileClass) bool {
	f.calls = append(f.calls, fmt.Sprintf("%d:%d,%d:%v", p.Source, tx, ty, class))
	return (tx+ty)%2 == 0
}

func TestTileFilter(t *testing.T) {
	d := testpeer.TestDraw(0, 32, 16, geom.CullNone) // 4x2 tiles
	p := primOf(t, d, [3][3]float32{{-100, -100, 0.5}, {300, -100, 0.5}, {-100, 300, 0.5}})
	f := &checkerFilter{}
	g := newRig(t, sim.NewSerialEngine(), MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.NumRasterizers = 1 })), "GPU.Rasterizer[0]", 1)
	g.r.TileFilter = f
	g.pa.Script = []scripted{{At: 0, Msg: protocol.NewPrimitiveMsg(d, p, 0), Dst: g.r.FromPrimitiveAssembly}}
	g.run(t)
	wantCalls := []string{"0:0,0:inside", "0:1,0:inside", "0:2,0:inside", "0:3,0:inside",
		"0:0,1:inside", "0:1,1:inside", "0:2,1:inside", "0:3,1:inside"}
	if !reflect.DeepEqual(f.calls, wantCalls) {
		t.Errorf("filter calls %v, want %v", f.calls, wantCalls)
	}
	var tiles []string
	for _, m := range g.depths[0].Got {
		tq := m.Msg.(*protocol.TileQuads)
		tiles = append(tiles, fmt.Sprintf("%d,%d", tq.TileX, tq.TileY))
	}
	if want := []string{"0,0", "2,0", "1,1", "3,1"}; !reflect.DeepEqual(tiles, want) {
		t.Errorf("tiles sent %v, want %v", tiles, want)
	}
	if k := g.r.Counters(); k.TilesFiltered != 4 || k.TilesTested != 8 || k.TilesEmitted != 4 || k.Quads != 64 {
		t.Errorf("counters %+v", k)
	}
}

// TestBackPressure: a depth unit that does not drain blocks the rasterizer
// (blocked_output) without losing or reordering tiles; the input FIFO fills.
func TestBackPressure(t *testing.T) {
	d := testpeer.TestDraw(0, 64, 32, geom.CullNone) // 8x4 tiles
	e := sim.NewSerialEngine()
	r := MakeBuilder().WithEnv(testpeer.Env(e)).WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) {
		c.NumRasterizers = 1
		c.NumPartitions = 1
		c.InputQueue = 2
		c.TileQueue = 1
		c.OutputQueue = 2
	})).Build("GPU.Rasterizer[0]")
	pa, du := newFake("PA", e, 4), newFake("Depth", e, 1)
	du.Hold = true
	conn := sim.NewDirectConnection("Conn", e, 1*sim.GHz)
	for _, p := range []sim.Port{r.FromPrimitiveAssembly, r.ToDepthUnits, pa.Port, du.Port} {
		conn.PlugIn(p, 1)
	}
	r.DepthUnits = []sim.Port{du.Port}
	var prims []*pipeline.Primitive
	for k := 0; k < 8; k++ {
		x := float32(8*k + 1)
		p := primOf(t, d, [3][3]float32{{x, 1, 0.5}, {x + 6, 1, 0.5}, {x, 20, 0.5}}) // tiles (k,0)..(k,2)
		prims = append(prims, p)
		pa.Script = append(pa.Script, scripted{At: 0, Msg: protocol.NewPrimitiveMsg(d, p, uint64(k)), Dst: r.FromPrimitiveAssembly})
	}
	pa.Script = append(pa.Script, scripted{At: 0, Msg: protocol.NewDrawEnd(d, 0), Dst: r.FromPrimitiveAssembly})
	testpeer.Run(t, e, pa)
	if len(pa.Script) == 0 {
		t.Error("the primitive assembly fake sent everything although the rasterizer was blocked")
	}
	r.Finish(e.CurrentTime())
	if r.Activity.Cycles(stateBlockedOutput) == 0 {
		t.Error("no blocked_output cycles")
	}
	du.Hold = false
	testpeer.Run(t, e, du)
	var got []string
	for _, m := range du.Got {
		switch m := m.Msg.(type) {
		case *protocol.TileQuads:
			got = append(got, fmt.Sprintf("%d:%d,%d", m.Prim.Source+int(indexOf(prims, m.Prim)), m.TileX, m.TileY))
		case *protocol.DrawEnd:
			got = append(got, "end")
		}
	}
	var want []string
	for k := 0; k < 8; k++ {
		for ty := 0; ty < 3; ty++ {
			want = append(want, fmt.Sprintf("%d:%d,%d", k, k, ty))
		}
	}
	want = append(want, "end")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("received %v, want %v", got, want)
	}
}

func indexOf(ps []*pipeline.Primitive, p *pipeline.Primitive) int {
	for i, q := range ps {
		if q == p {
			return i
		}
	}
	return -1
}

func TestBadInputHalts(t *testing.T) {
	d := testpeer.TestDraw(0, 16, 8, geom.CullNone)
	for _, tc := range []struct {
		msg  sim.Msg
		want string
	}{
		{protocol.NewBatchCredit(1), "unexpected *protocol.BatchCredit on FromPrimitiveAssembly"},
		{&protocol.PrimitiveMsg{Draw: d}, "PrimitiveMsg without draw or primitive"},
		{&protocol.DrawEnd{}, "DrawEnd without draw"},
	} {
		h := &timing.Halt{}
		g := newRig(t, sim.NewSerialEngine(), MakeBuilder().WithEnv(timing.Env{Halt: h}).WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.NumRasterizers = 1 })), "GPU.Rasterizer[0]", 1)
		tc.msg.Meta().ID = "bad"
		g.pa.Script = []scripted{{At: 0, Msg: tc.msg, Dst: g.r.FromPrimitiveAssembly}}
		testpeer.Run(t, g.e, g.pa)
		testpeer.CheckHalted(t, h.Reason(), "GPU.Rasterizer[0]", tc.want)
		if g.r.Err() != h.Reason() {
			t.Errorf("Err() = %v, want the halt reason", g.r.Err())
		}
	}
	// Without a halt flag (a rasterizer alone) there is nobody to report to:
	// the error panics (timing.Fault).
	g := newRig(t, sim.NewSerialEngine(), MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.NumRasterizers = 1 })), "GPU.Rasterizer[0]", 1)
	g.pa.Script = []scripted{{At: 0, Msg: protocol.NewBatchCredit(1), Dst: g.r.FromPrimitiveAssembly}}
	g.pa.TickNow(0)
	testpeer.Panics(t, "GPU.Rasterizer[0]: unexpected *protocol.BatchCredit on FromPrimitiveAssembly", func() { _ = g.e.Run() })
}

func TestConfigValidation(t *testing.T) {
	testpeer.CheckValidate(t, DefaultConfig(), []testpeer.ConfigCase[Config]{
		{Want: "Index", Edit: func(c *Config) { c.Index = 2 }},
		{Want: "Index", Edit: func(c *Config) { c.Index = -1 }},
		{Want: "NumRasterizers", Edit: func(c *Config) { c.NumRasterizers = 0 }},
		{Want: "RasterStride", Edit: func(c *Config) { c.RasterStride = -1 }},
		{Want: "NumPartitions", Edit: func(c *Config) { c.NumPartitions = 0 }},
		{Want: "PartitionStride", Edit: func(c *Config) { c.PartitionStride = -2 }},
		{Want: "TilesPerCycle", Edit: func(c *Config) { c.TilesPerCycle = 0 }},
		{Want: "QuadsPerCycle", Edit: func(c *Config) { c.QuadsPerCycle = 0 }},
		{Want: "InputQueue", Edit: func(c *Config) { c.InputQueue = 0 }},
		{Want: "TileQueue", Edit: func(c *Config) { c.TileQueue = 0 }},
		{Want: "OutputQueue", Edit: func(c *Config) { c.OutputQueue = 0 }},
		{Want: "", Edit: func(c *Config) { c.Index = 1 }},
	})
}

func TestBuildRefusesABadEnv(t *testing.T) {
	testpeer.CheckEnv(t, true, func(env timing.Env) { MakeBuilder().WithEnv(env).Build("GPU.Rasterizer[0]") })
}
