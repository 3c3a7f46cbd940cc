package samplefill_test

import (
	"fmt"
	"math/bits"
	"reflect"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/components/sage/samplefill"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/samplebuffer"
	"github.com/gfxsim/gfxsim/functional/shader/library"
	"github.com/gfxsim/gfxsim/timing"
)

const freq = 1 * sim.GHz

var geometry = samplebuffer.Geometry{Width: 16, Height: 16, Samples: 4, Interleaves: 8, ChipsPerInterleave: 4}

// scene is a small gouraud draw at 4 samples: a 16x16 rectangle (two
// triangles) and a triangle over it, with a colour per vertex, and the
// TileQuads a rasterizer sends for them (8x8 tiles, one partition).
func scene(t *testing.T) (*protocol.Draw, []*protocol.TileQuads) {
	t.Helper()
	tg, err := backendtest.NewTargets(backendtest.TargetSpec{Width: 16, Height: 16, Samples: 4,
		ColorFormat: framebuffer.RGBA8, DepthFormat: depth.D24S8})
	if err != nil {
		t.Fatal(err)
	}
	d := tg.Draw(0, false)
	mat, err := library.Get("gouraud")
	if err != nil {
		t.Fatal(err)
	}
	d.State.PS, d.State.Link, d.State.PSResources = mat.PS, mat.Links, mat.PS.Resources()
	r := backendtest.Rect(d, 0, 0, 16, 16, 0.5)
	prims := []*pipeline.Primitive{r[0], r[1], backendtest.Prim(d, [3][3]float32{{1.3, 2.1, 0.2}, {14.7, 5.6, 0.7}, {4.2, 15.1, 0.4}})}
	var tiles []*protocol.TileQuads
	for i, p := range prims {
		for k := range d.State.Link {
			reg := d.State.Link[k].VSReg
			for v := 0; v < 3; v++ {
				p.Attr[reg][v] = geom.Vec4{float32(i+v) / 4, float32(v) / 2, float32(2-v) / 3, 1}
			}
		}
		tiles = append(tiles, backendtest.Tiles(d, p, 0, 1)...)
	}
	return d, tiles
}

// expected is what the reference's per-sample path writes, in order, per
// interleave: for each quad, each sample s live in some pixel (ascending), the
// sample quad shaded alone, its surviving pixels in order.
func expected(d *protocol.Draw, tiles []*protocol.TileQuads) (map[int][]protocol.SageSample, int, int) {
	out := map[int][]protocol.SageSample{}
	n, sq := 0, 0
	rate := pipeline.PixelRateLinks(d.State, pipeline.DefaultPixelRate)
	var ws pipeline.WriteStats
	for _, tq := range tiles {
		for _, q := range tq.Quads {
			for m := q.Live[0] | q.Live[1] | q.Live[2] | q.Live[3]; m != 0; m &= m - 1 {
				s := bits.TrailingZeros64(m)
				sq++
				w := &protocol.PixelWarp{Draw: d, PixelRate: rate,
					Quads: []protocol.WarpQuad{{Prim: tq.Prim, Quad: q.Quad, Live: q.Live, Sample: int8(s)}}}
				o := shadeWarp(w)[0]
				for ls := pipeline.Survivors(q.Live.And(pipeline.SampleBits(s)), &o, &ws); !ls.Empty(); {
					pix, _ := ls.Pop()
					x, y := int(q.Quad.X)+pix&1, int(q.Quad.Y)+pix>>1
					i := geometry.Interleave(x, y, s)
					out[i] = append(out[i], protocol.SageSample{X: int32(x), Y: int32(y), S: uint8(s),
						BackFacing: tq.Prim.Triangle.BackFacing, Z: pipeline.SampleZ(d.State, &d.Raster, tq.Prim, x, y, s, pix, &o),
						Color: o.Color[pix]})
					n++
				}
			}
		}
	}
	return out, n, sq
}

type bench struct {
	engine sim.Engine
	fill   *samplefill.SampleFill
	raster *backendtest.Peer
	dist   *backendtest.Peer
	core   *fakeCore
	scheds [samplefill.Scheds]*backendtest.Peer
}

// newBench builds pipe 2's sample fill from DefaultConfig changed by set (nil:
// none) over geometry.
func newBench(t *testing.T, set func(*samplefill.Config), schedCap int) *bench {
	t.Helper()
	bn := &bench{engine: sim.NewSerialEngine()}
	cfg := samplefill.DefaultConfig()
	if set != nil {
		set(&cfg)
	}
	cfg.Pipe, cfg.Geometry = 2, geometry
	bn.fill = samplefill.MakeBuilder().WithEnv(timing.Env{Engine: bn.engine, Freq: freq, Halt: &timing.Halt{}}).
		WithConfig(cfg).Build("GPU.Pipe[2].SampleFill")
	bn.raster = backendtest.NewPeer("Rasterizer", bn.engine, freq, 4)
	bn.dist = backendtest.NewPeer("Distributor", bn.engine, freq, 4)
	// Warps 0, 2, 4, ... take 30 cycles, the others 3: answers overtake.
	bn.core = newFakeCore(bn.engine, freq, func(id uint64) uint64 { return 3 + 27*(1-id%2) })
	conn := sim.NewDirectConnection("Conn", bn.engine, freq)
	for _, p := range []sim.Port{bn.fill.FromRasterizer, bn.fill.FromDistributor, bn.fill.ToShaderCore, bn.fill.FromShaderCore,
		bn.fill.ToDistributor, bn.raster.Port, bn.dist.Port, bn.core.Port} {
		conn.PlugIn(p, 4)
	}
	for k := range bn.scheds {
		bn.scheds[k] = backendtest.NewPeer(fmt.Sprintf("Sched[%d]", k), bn.engine, freq, schedCap)
		conn.PlugIn(bn.scheds[k].Port, 1)
		conn.PlugIn(bn.fill.ToScheds[k], 1)
		bn.fill.Scheds[k] = bn.scheds[k].Port
	}
	bn.fill.ShaderCore, bn.fill.Distributor = bn.core.Port, bn.dist.Port
	return bn
}

func (bn *bench) run(t *testing.T) {
	t.Helper()
	testpeer.RunAndFinish(t, bn.engine, bn.fill)
	if err := bn.fill.Err(); err != nil {
		t.Fatal(err)
	}
}

// streams checks each sched's stream for draw d (a barrier seq first when
// barrier, bursts of d for the sched's interleaves, a MarkDrawEnd last) and
// returns the samples per interleave in arrival order.
func (bn *bench) streams(t *testing.T, d *protocol.Draw, barrier bool) map[int][]protocol.SageSample {
	t.Helper()
	got := map[int][]protocol.SageSample{}
	for k, sp := range bn.scheds {
		rs := sp.Received
		if barrier {
			if m, ok := rs[0].Msg.(*protocol.OrderMarker); !ok || m.Kind != protocol.MarkBarrier || m.Seq != 5 || m.Pipe != 2 || m.Interleave != -1 {
				t.Fatalf("sched %d: first message %+v, want the barrier 5 of pipe 2", k, rs[0].Msg)
			}
			rs = rs[1:]
		}
		last := len(rs) - 1
		if m, ok := rs[last].Msg.(*protocol.OrderMarker); !ok || m.Kind != protocol.MarkDrawEnd || m.Draw != d || m.Pipe != 2 || m.Interleave != -1 {
			t.Fatalf("sched %d: last message %+v, want the draw's MarkDrawEnd of pipe 2", k, rs[last].Msg)
		}
		for _, r := range rs[:last] {
			b, ok := r.Msg.(*protocol.SampleBurst)
			if !ok || b.Draw != d || b.Pipe != 2 || b.Interleave/4 != k || len(b.Samples) == 0 || len(b.Samples) > 16 {
				t.Fatalf("sched %d: %+v is not a burst of draw 0 from pipe 2 for one of its interleaves", k, r.Msg)
			}
			if b.TrafficBytes != 8+16*len(b.Samples) {
				t.Errorf("burst of %d samples charged %d bytes", len(b.Samples), b.TrafficBytes)
			}
			for _, s := range b.Samples {
				if geometry.Interleave(int(s.X), int(s.Y), int(s.S)) != b.Interleave {
					t.Fatalf("sample %+v in the burst of interleave %d", s, b.Interleave)
				}
			}
			got[b.Interleave] = append(got[b.Interleave], b.Samples...)
		}
	}
	return got
}

func stats(fill *samplefill.SampleFill) map[string]float64 {
	m := map[string]float64{}
	fill.Stats(func(n string, v float64) { m[strings.TrimPrefix(n, "GPU.Pipe[2].SampleFill.")] = v })
	return m
}

// TestSamplesEqualReference: the samples of a draw, answered out of order by
// the shader core, leave in the reference's order per interleave, behind the
// barrier and before the MarkDrawEnd; the distributor gets its report.
func TestSamplesEqualReference(t *testing.T) {
	for _, c := range []struct {
		name     string
		set      func(*samplefill.Config)
		schedCap int
		hold     uint64
	}{
		{"defaults", nil, 4, 0},
		{"narrow", func(c *samplefill.Config) {
			c.QuadsPerWarp, c.WarpsInFlight, c.SamplesPerCycle, c.BurstSamples, c.OutputQueue = 3, 2, 1, 3, 1
		}, 4, 0},
		{"sched 1 blocked until 400", func(c *samplefill.Config) { c.OutputQueue = 2 }, 1, 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, tiles := scene(t)
			want, n, sq := expected(d, tiles)
			if len(want) != geometry.Interleaves || n < 16*16*4 {
				t.Fatalf("weak scene: %d samples over %d interleaves", n, len(want))
			}
			bn := newBench(t, c.set, c.schedCap)
			if c.hold > 0 {
				bn.scheds[1].Hold(c.hold)
			}
			bn.dist.SendAt(0, bn.fill.FromDistributor, protocol.NewDrawPlan(d, true, 5))
			for _, tq := range tiles {
				bn.raster.SendAt(0, bn.fill.FromRasterizer, tq)
			}
			bn.raster.SendAt(0, bn.fill.FromRasterizer, protocol.NewDrawEnd(d, 0))
			bn.run(t)
			got := bn.streams(t, d, true)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("samples per interleave differ from the reference's per-sample path")
			}
			if len(bn.dist.Received) != 1 {
				t.Fatalf("distributor got %d messages", len(bn.dist.Received))
			}
			if r := bn.dist.Received[0].Msg.(*protocol.DrawEnd); r.Draw != d || r.From != 2 {
				t.Errorf("report %+v", r)
			}
			st := stats(bn.fill)
			qpw := map[string]int{"narrow": 3}[c.name]
			if qpw == 0 {
				qpw = 8
			}
			for k, v := range map[string]float64{"samples_out": float64(n), "sample_quads": float64(sq),
				"warps": float64((sq + qpw - 1) / qpw), "markers": 4, "draws": 1, "killed_samples": 0,
				"texture_requests_merged": 0} {
				if st[k] != v {
					t.Errorf("%s = %v, want %v", k, st[k], v)
				}
			}
			if c.hold > 0 && st["cycles_blocked_sched"] == 0 {
				t.Errorf("no cycle blocked on the scheds: %v", st)
			}
		})
	}
}

// TestPlanWaits: the draw's first work waits for its DrawPlan (no barrier:
// no barrier marker).
func TestPlanWaits(t *testing.T) {
	d, tiles := scene(t)
	bn := newBench(t, nil, 4)
	bn.raster.SendAt(0, bn.fill.FromRasterizer, tiles[0])
	bn.raster.SendAt(0, bn.fill.FromRasterizer, protocol.NewDrawEnd(d, 0))
	bn.dist.SendAt(50, bn.fill.FromDistributor, protocol.NewDrawPlan(d, false, 0))
	bn.run(t)
	bn.streams(t, d, false)
	if bn.core.got == 0 || stats(bn.fill)["cycles_wait_plan"] < 45 {
		t.Errorf("warps %d, wait_plan cycles %v", bn.core.got, stats(bn.fill)["cycles_wait_plan"])
	}
}

// TestProtocolErrors: a plan for another draw, and a draw of another sample
// count, stop the run with an error.
func TestProtocolErrors(t *testing.T) {
	d, tiles := scene(t)
	other := *d
	bn := newBench(t, nil, 4)
	bn.dist.SendAt(0, bn.fill.FromDistributor, protocol.NewDrawPlan(&other, false, 0))
	bn.raster.SendAt(0, bn.fill.FromRasterizer, tiles[0])
	testpeer.Run(t, bn.engine)
	if err := bn.fill.Err(); err == nil || !strings.Contains(err.Error(), "DrawPlan") {
		t.Errorf("error %v", err)
	}
}

func TestConfigValidate(t *testing.T) {
	set := testpeer.Reject[samplefill.Config]
	testpeer.CheckInvalid(t, samplefill.DefaultConfig(),
		set(func(c *samplefill.Config) { c.QuadsPerWarp = 17 }, "samplefill: QuadsPerWarp 17 must be in [1, 16]"),
		set(func(c *samplefill.Config) { c.Pipe = -1 }, "samplefill: Pipe -1 must not be negative"),
		set(func(c *samplefill.Config) { c.InterleavesPerSched = 3 },
			"samplefill: InterleavesPerSched 3 does not cover 8 interleaves with 2 scheds"),
		set(func(c *samplefill.Config) {
			c.Geometry = samplebuffer.Geometry{Width: 4, Height: 4, Samples: 17, Interleaves: 8, ChipsPerInterleave: 4}
		}, "samplefill: Geometry: samples: 17 samples per pixel outside [1, 16] (the pattern RAM holds 16)"),
	)
	testpeer.CheckAtLeast(t, samplefill.DefaultConfig(), "samplefill", 1,
		"WarpsInFlight", "SamplesPerCycle", "PacketBytes", "BurstSamples", "OutputQueue", "InputQueue")
	testpeer.CheckEnv(t, true, func(e timing.Env) { samplefill.MakeBuilder().WithEnv(e).Build("SampleFill") })
}
