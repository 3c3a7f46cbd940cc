package quadpacker

import (
	"fmt"
	"math/bits"
	"reflect"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/raster5d"
	"github.com/gfxsim/gfxsim/timing"
)

// movingPrim sets up a moving triangle over a 32x32 viewport as a 5D primitive
// (ID 7, 4 samples per pixel, pattern seed 1) and returns it with the quads of
// raster tile (0, 0).
func movingPrim(t *testing.T, supersample bool) (*pipeline.Primitive, []protocol.QuadLive) {
	t.Helper()
	pat, err := raster5d.NewPattern([][2]int16{{-96, -32}, {32, -96}, {96, 32}, {-32, 96}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	vp := geom.Viewport{Width: 32, Height: 32, MaxZ: 1}
	cfg := raster5d.Config{Pattern: pat, Bounds: raster.Rect{X1: 32, Y1: 32}}
	p0 := [3]geom.Vec4{{-0.8, -0.7, 0.5, 1}, {0.6, -0.5, 0.5, 1}, {-0.2, 0.8, 0.5, 1}}
	p1 := p0
	for k := range p1 {
		p1[k][0] += 0.25
	}
	b := &pipeline.BlurSetup{Decoupled: &pipeline.Decoupled{Supersample: supersample}}
	if raster5d.Setup(p0, p1, raster5d.Lens{}, vp, &cfg, &b.Tri) == raster5d.Rejected {
		t.Fatal("triangle rejected")
	}
	m, err := decouple.NewMap(7, p0, p1, vp, decouple.Options{Rate: 1})
	if err != nil {
		t.Fatal(err)
	}
	b.Map = m
	var st raster5d.Stats
	var quads []protocol.QuadLive
	for _, q := range b.Tri.TileQuads(0, 0, nil, &st) {
		quads = append(quads, protocol.QuadLive{Quad: raster.Quad{X: q.X, Y: q.Y, Coverage: q.Coverage}, Live: q.Coverage})
	}
	if len(quads) < 20 {
		t.Fatalf("only %d quads", len(quads))
	}
	return &pipeline.Primitive{ID: 7, Blur: b}, quads
}

// referenceTaps maps a quad's live samples as functional/reference does
// (mapDecoupled: Map.Index of the sample's barycentrics; mapSupersampled: one
// tag per sample index, lane = pixel).
func referenceTaps(p *pipeline.Primitive, q *protocol.QuadLive, supersample bool) []decouple.Lookup {
	var out []decouple.Lookup
	b := p.Blur
	for pix := 0; pix < 4; pix++ {
		x, y := int(q.Quad.X)+pix&1, int(q.Quad.Y)+pix>>1
		for m := q.Live[pix]; m != 0; m &= m - 1 {
			s := bits.TrailingZeros64(m)
			if supersample {
				l := decouple.Lookup{N: 1}
				l.Taps[0] = decouple.Tap{Tag: decouple.Tag{Prim: p.ID, QuadX: q.Quad.X, QuadY: q.Quad.Y, Sample: uint8(s)}, Lane: uint8(pix), Weight: 1}
				out = append(out, l)
				continue
			}
			out = append(out, b.Map.Index(b.Tri.Barycentrics(x, y, s)))
		}
	}
	return out
}

// TestDecouplerMapping: the visibility quads carry the reference's taps, and
// the stage takes ceil(samples / SamplesPerCycle) cycles.
func TestDecouplerMapping(t *testing.T) {
	for _, ss := range []bool{false, true} {
		for _, spc := range []int{16, 5} {
			t.Run(fmt.Sprintf("supersample=%v/spc=%d", ss, spc), func(t *testing.T) {
				d := testDraw(0)
				d.Raster.Samples.Count = 4
				prim, quads := movingPrim(t, ss)
				samples, taps := 0, 0
				for i := range quads {
					samples += quads[i].Live.Count()
				}
				msg := protocol.NewTileQuads(d, prim, 0, 0, 1, quads)
				bn := newBench(MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.SamplesPerCycle = spc })), [][]scripted{{{At: 0, Msg: msg}}}, 16, 4)
				bn.run()
				if len(bn.sink.Got) != 1 {
					t.Fatalf("sink got %d messages", len(bn.sink.Got))
				}
				vq, ok := bn.sink.Got[0].Msg.(*protocol.VisibilityQuads)
				if !ok || vq.Prim != prim || vq.Partition != 1 || len(vq.Quads) != len(quads) {
					t.Fatalf("got %T %+v", bn.sink.Got[0].Msg, bn.sink.Got[0].Msg)
				}
				for i := range quads {
					q := &vq.Quads[i]
					if q.X != quads[i].Quad.X || q.Y != quads[i].Quad.Y || q.Live != quads[i].Live {
						t.Fatalf("quad %d at (%d,%d) live %v, want %+v", i, q.X, q.Y, q.Live, quads[i])
					}
					if want := referenceTaps(prim, &quads[i], ss); !reflect.DeepEqual(q.Lookups, want) {
						t.Fatalf("quad %d: look-ups\n%+v\nwant\n%+v", i, q.Lookups, want)
					}
					taps += q.Taps()
				}
				// Reaches the packer at 1; mapping takes cycles 1..C; sent at C+1.
				cycles := (samples + spc - 1) / spc
				if got := bn.sink.Got[0].Arrived; got != uint64(cycles+1) {
					t.Errorf("arrived at %d, want %d (%d samples)", got, cycles+1, samples)
				}
				st := testpeer.StatMap(bn.packer)
				want := map[string]float64{"samples_mapped": float64(samples), "taps": float64(taps),
					"visibility_quads": float64(len(quads)), "visibility_messages": 1, "flushes_visibility": 0,
					"decouple_cycles_busy": float64(cycles), "decouple_cycles_blocked_output": 0}
				for k, v := range want {
					if st["GPU.QuadPacker."+k] != v {
						t.Errorf("%s = %v, want %v", k, st["GPU.QuadPacker."+k], v)
					}
				}
				if wantBytes := 16 + len(quads)*(4+2) + 8*taps; vq.TrafficBytes != wantBytes {
					t.Errorf("%d bytes, want %d", vq.TrafficBytes, wantBytes)
				}
			})
		}
	}
}

// TestDecouplerKeepsOrder: an open warp of 2D quads leaves before the
// visibility quads that follow it; 2D quads after them open a new warp.
func TestDecouplerKeepsOrder(t *testing.T) {
	a := testDraw(0)
	a.Raster.Samples.Count = 4
	prim, quads := movingPrim(t, false)
	samples := 0
	for i := range quads[:4] {
		samples += quads[i].Live.Count()
	}
	five := protocol.NewTileQuads(a, prim, 0, 0, 0, quads[:4])
	bn := newBench(MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.SamplesPerCycle = 64 })), [][]scripted{{{At: 0, Msg: tileQuads(a, 0, 0, 3)}, {At: 0, Msg: five},
		{At: 0, Msg: tileQuads(a, 0, 3, 2)}, {At: 0, Msg: protocol.NewDrawEnd(a, 0)}}}, 16, 4)
	bn.run()
	var got []string
	for _, r := range bn.sink.Got {
		if v, ok := r.Msg.(*protocol.VisibilityQuads); ok {
			got = append(got, fmt.Sprintf("vis %d quads @%d", len(v.Quads), r.Arrived))
			continue
		}
		got = append(got, fmt.Sprintf("%s @%d", describe(r.Msg), r.Arrived))
	}
	// Cycle 1: three 2D quads; the 5D message flushes them and is mapped in
	// the same cycle (at most 64 samples); cycle 2: the two 2D quads and the
	// DrawEnd, which flushes them.
	want := []string{"w0 d0 [0:0 0:1 0:2] @2", "vis 4 quads @2", "w1 d0 [0:3 0:4] @3", "end d0 0 @3"}
	if samples > 64 || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q (%d samples)", got, want, samples)
	}
	if st := testpeer.StatMap(bn.packer); st["GPU.QuadPacker.flushes_visibility"] != 1 || st["GPU.QuadPacker.flushes_draw_end"] != 1 {
		t.Errorf("flushes: %v", st)
	}
}

// TestNoDecouplerRejects5D: a packer built without a decoupling stage reports
// the quads of a 5D primitive as a protocol error and no decoupler counters.
func TestNoDecouplerRejects5D(t *testing.T) {
	prim, quads := movingPrim(t, false)
	halt := &timing.Halt{}
	bn := newBench(MakeBuilder().WithEnv(timing.Env{Halt: halt}), [][]scripted{{{At: 0, Msg: protocol.NewTileQuads(testDraw(0), prim, 0, 0, 0, quads[:1])}}}, 16, 4)
	bn.run()
	if err := halt.Reason(); err == nil || !strings.Contains(err.Error(), "no decoupling stage") {
		t.Fatalf("halt reason %v", err)
	}
	if _, ok := testpeer.StatMap(bn.packer)["GPU.QuadPacker.samples_mapped"]; ok {
		t.Error("decoupler counters without a decoupling stage")
	}
}
