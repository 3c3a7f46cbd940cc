package rasterizer

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/raster5d"
)

// blurPrim sets up a 5D primitive (a decoupled draw in supersample mode: every
// triangle takes the 5D path) of a w x h 4x target with raster tiles of
// tileSize pixels, from screen vertices.
func blurPrim(t *testing.T, w, h, tileSize int, tri [3][3]float32) (*protocol.Draw, *pipeline.Primitive) {
	t.Helper()
	d := windowDraw(t, w, h, tileSize)
	d.State.Decoupling = command.Decoupling{Mode: command.DecoupleSupersample, Rate: 1}
	d.Raster = pipeline.RasterConfig(d.State, pipeline.RasterOptions{TileSize: tileSize})
	var pc pipeline.PatternCache
	dd, err := pipeline.NewDecoupled(d.State, &d.Raster, &pc, 0)
	if err != nil || dd == nil {
		t.Fatalf("NewDecoupled: %v", err)
	}
	var v [3]pipeline.VertexOut
	for k, p := range tri {
		v[k][0] = testpeer.ClipPos(d, p[0], p[1], p[2])
	}
	var st pipeline.GeometryStats
	var ms decouple.MapStats
	prims := pipeline.NewGeometry(d.State, &d.Raster).Triangle5D(dd, 0, 7, [3]*pipeline.VertexOut{&v[0], &v[1], &v[2]}, nil, &st, &ms)
	if len(prims) != 1 {
		t.Fatalf("triangle %v: %d primitives", tri, len(prims))
	}
	return d, &prims[0]
}

type blurMsg struct {
	cycle uint64
	part  int
	quads []protocol.QuadLive
}

// expectBlur computes, from the documented rules, what rasterizer r of n
// (stride 1) sends for primitive p taken at cycle 1: its shared 32x32 tiles in
// Morton order, one per cycle through coarse raster, fine raster in
// max(1, ceil(tests/rate)) cycles, the quads of its raster tiles split by
// partition (P partitions, stride 1, partition tiles of ratio raster tiles).
func expectBlur(d *protocol.Draw, p *pipeline.Primitive, r, n, parts, ratio, rate int) (msgs []blurMsg, tests, covered uint64) {
	ts := d.Raster.TileSize
	var owned []raster.TilePos
	for _, tp := range p.Blur.Tri.Tiles(nil) {
		if protocol.BlurTileOwned(tp.X, tp.Y, ts, 1, n, r) {
			owned = append(owned, tp)
		}
	}
	prevStart, prevCost := uint64(0), uint64(0)
	for i, tp := range owned {
		var st raster5d.Stats
		quads := p.Blur.Tri.TileQuads(tp.X, tp.Y, nil, &st)
		cost := max(1, (st.Tests()+uint64(rate)-1)/uint64(rate))
		start := max(uint64(1+i+1), prevStart+prevCost)
		prevStart, prevCost = start, cost
		if protocol.BlurTilePrimary(tp.X, tp.Y, ts, 1, n) == r {
			tests += st.Tests()
			covered += st.SamplesCovered
		}
		byPart := make([][]protocol.QuadLive, parts)
		for _, q := range quads {
			rx, ry := int(q.X)/ts, int(q.Y)/ts
			if protocol.TileOwner(rx, ry, 1, n) != r {
				continue
			}
			pp := protocol.TileOwner(rx/ratio, ry/ratio, 1, parts)
			byPart[pp] = append(byPart[pp], protocol.QuadLive{Quad: raster.Quad{X: q.X, Y: q.Y, Coverage: q.Coverage}, Live: q.Coverage})
		}
		for pp, qs := range byPart {
			if len(qs) > 0 {
				msgs = append(msgs, blurMsg{cycle: start + cost, part: pp, quads: qs})
			}
		}
	}
	return msgs, tests, covered
}

// TestBlurTileSplitByPartition rasterizes one 5D primitive spanning two 32x32
// tiles on two rasterizers (8-pixel raster tiles: they share both tiles) with
// four partitions of 16-pixel tiles: each rasterizer sends, per tile, the
// quads of its own raster tiles in Z order, one TileQuads per partition, when
// ceil(sample tests / 16) fine cycles are over; together they send every quad
// of raster5d.TileQuads once, and the 5D counters are counted once.
func TestBlurTileSplitByPartition(t *testing.T) {
	d, p := blurPrim(t, 64, 64, 8, [3][3]float32{{2, 3, 0.5}, {61, 9, 0.5}, {11, 40, 0.5}})
	const n, parts, ratio, rate = 2, 4, 2, 16
	var all []raster.Quad
	for _, tp := range p.Blur.Tri.Tiles(nil) {
		for _, q := range p.Blur.Tri.TileQuads(tp.X, tp.Y, nil, nil) {
			all = append(all, raster.Quad{X: q.X, Y: q.Y, Coverage: q.Coverage})
		}
	}
	if len(p.Blur.Tri.Tiles(nil)) < 2 {
		t.Fatal("the primitive covers one 32x32 tile")
	}
	var sumTests, sumCovered, tri uint64
	seen := map[[2]int32]int{}
	for r := 0; r < n; r++ {
		e := sim.NewSerialEngine()
		g := newRig(t, e, MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) {
			c.Index = r
			c.NumRasterizers = n
			c.PartitionTileRatio = ratio
			c.SampleTestsPerCycle = rate
		})), "GPU.Rasterizer", parts)
		g.pa.Script = []scripted{{At: 0, Msg: protocol.NewPrimitiveMsg(d, p, 0), Dst: g.r.FromPrimitiveAssembly}}
		g.run(t)
		want, tests, covered := expectBlur(d, p, r, n, parts, ratio, rate)
		var got []blurMsg
		// The fakes record per partition; merge them back in send order.
		for pp, f := range g.depths {
			for _, m := range f.Got {
				tq := m.Msg.(*protocol.TileQuads)
				if tq.Partition != pp || tq.Prim != p {
					t.Errorf("rasterizer %d: message for partition %d reached depth unit %d", r, tq.Partition, pp)
				}
				got = append(got, blurMsg{cycle: m.Cycle, part: pp, quads: tq.Quads})
				for _, q := range tq.Quads {
					seen[[2]int32{q.Quad.X, q.Quad.Y}]++
				}
			}
		}
		sortMsgs(got)
		sortMsgs(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("rasterizer %d sent\n %+v\nwant\n %+v", r, got, want)
		}
		k := g.r.Counters()
		if k.SampleTests != tests || k.SamplesCovered != covered {
			t.Errorf("rasterizer %d: %d tests, %d covered; want %d, %d", r, k.SampleTests, k.SamplesCovered, tests, covered)
		}
		sumTests += k.SampleTests
		sumCovered += k.SamplesCovered
		tri += k.Triangles5D[raster5d.Static]
	}
	var st raster5d.Stats
	for _, tp := range p.Blur.Tri.Tiles(nil) {
		p.Blur.Tri.TileQuads(tp.X, tp.Y, nil, &st)
	}
	if sumTests != st.Tests() || sumCovered != st.SamplesCovered || tri != 1 {
		t.Errorf("summed over the rasterizers: %d tests, %d covered, %d triangles; want %d, %d, 1", sumTests, sumCovered, tri, st.Tests(), st.SamplesCovered)
	}
	if len(seen) != len(all) {
		t.Errorf("%d distinct quads sent, raster5d has %d", len(seen), len(all))
	}
	for q, c := range seen {
		if c != 1 {
			t.Errorf("quad %v sent %d times", q, c)
		}
	}
}

// sortMsgs orders messages by cycle, then partition (a tile's messages leave
// in partition order in one cycle).
func sortMsgs(m []blurMsg) {
	for i := 1; i < len(m); i++ {
		for j := i; j > 0 && (m[j].cycle < m[j-1].cycle || m[j].cycle == m[j-1].cycle && m[j].part < m[j-1].part); j-- {
			m[j], m[j-1] = m[j-1], m[j]
		}
	}
}

// TestBlurTileOwnedWhole: with 32-pixel raster tiles each 32x32 tile has one
// owner, which sends all its quads (one partition per tile).
func TestBlurTileOwnedWhole(t *testing.T) {
	d, p := blurPrim(t, 64, 64, 32, [3][3]float32{{2, 3, 0.5}, {61, 9, 0.5}, {11, 60, 0.5}})
	const n, parts = 2, 2
	for r := 0; r < n; r++ {
		e := sim.NewSerialEngine()
		g := newRig(t, e, MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.Index = r; c.NumRasterizers = n })), "GPU.Rasterizer", parts)
		g.pa.Script = []scripted{{At: 0, Msg: protocol.NewPrimitiveMsg(d, p, 0), Dst: g.r.FromPrimitiveAssembly}}
		g.run(t)
		want, _, _ := expectBlur(d, p, r, n, parts, 1, DefaultSampleTestsPerCycle)
		var got []blurMsg
		for pp, f := range g.depths {
			for _, m := range f.Got {
				tq := m.Msg.(*protocol.TileQuads)
				got = append(got, blurMsg{cycle: m.Cycle, part: pp, quads: tq.Quads})
				if tx, ty := int(tq.Quads[0].Quad.X)/32, int(tq.Quads[0].Quad.Y)/32; tq.TileX != tx || tq.TileY != ty ||
					protocol.TileOwner(tx, ty, 1, n) != r {
					t.Errorf("rasterizer %d sent tile (%d, %d) named (%d, %d)", r, tx, ty, tq.TileX, tq.TileY)
				}
			}
		}
		sortMsgs(got)
		sortMsgs(want)
		if len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("rasterizer %d sent\n %+v\nwant\n %+v", r, got, want)
		}
	}
}
