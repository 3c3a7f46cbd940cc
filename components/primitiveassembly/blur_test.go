package primitiveassembly

import (
	"reflect"
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// blurDraw is testpeer.TestDraw in decoupled supersample mode (every triangle takes the
// 5D path) with raster tiles of tileSize pixels.
func blurDraw(w, h, tileSize int) *protocol.Draw {
	d := testpeer.TestDraw(0, w, h, geom.CullNone)
	d.State.Decoupling = command.Decoupling{Mode: command.DecoupleSupersample, Rate: 1}
	d.Raster = pipeline.RasterConfig(d.State, pipeline.RasterOptions{TileSize: tileSize})
	return d
}

// TestBlurPrimitiveOwners sends one 5D primitive inside the 32x32 tile (1, 0)
// of a 128x64 target: with 32-pixel raster tiles it goes to TileOwner(1, 0);
// with 8-pixel raster tiles to the owners of the 16 raster tiles (4..7, 0..3)
// the 32x32 tile overlaps. It leaves 5D setup Setup5DCycles after assembly.
func TestBlurPrimitiveOwners(t *testing.T) {
	tri := [3][3]float32{{40, 4, 0.5}, {50, 4, 0.5}, {40, 14, 0.5}}
	tests := []struct {
		name       string
		tile, n, s int
		want       []int
	}{
		{"tile32/2", 32, 2, 1, []int{1}},
		{"tile32/4/stride2", 32, 4, 2, []int{1}},
		{"tile64/4", 64, 4, 1, []int{0}},
		{"tile8/2", 8, 2, 1, []int{0, 1}},
		{"tile8/4/stride0", 8, 4, 0, []int{0, 1, 2, 3}},
		{"tile16/4/stride4", 16, 4, 4, []int{2, 3}}, // raster tiles (2..3, 0..1): (x + 4y) mod 4
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := blurDraw(128, 64, tc.tile)
			r := newRig(t, MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.RasterStride = tc.s })), tc.n)
			r.core.Script = []scripted{{At: 0, Msg: batchOf(d, 0, 0, tri), Dst: r.pa.FromShaderCores}}
			r.ia.Script = []scripted{{At: 0, Msg: protocol.NewBatchInfo(d, 1), Dst: r.pa.InputAssembler}}
			r.run(t)
			r.checkDrained(t)
			var got []int
			for i, f := range r.rasts {
				sent := sends[*protocol.PrimitiveMsg](f)
				if len(sent) == 0 {
					continue
				}
				got = append(got, i)
				// Assembled at cycle 2, in 5D setup until 2+16 = 18, in the
				// setup pipeline until 38, sent at 39.
				if !reflect.DeepEqual(sent, []uint64{39}) {
					t.Errorf("rasterizer %d: primitive sent at %v, want [39]", i, sent)
				}
				m := f.Got[0].Msg.(*protocol.PrimitiveMsg)
				if m.Prim.Blur == nil || m.Prim.ID != 0 {
					t.Errorf("rasterizer %d: not the 5D primitive 0: %+v", i, m.Prim)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("5D primitive sent to rasterizers %v, want %v", got, tc.want)
			}
			if got := sends[*protocol.DrawEnd](r.rasts[0]); !reflect.DeepEqual(got, []uint64{40}) {
				t.Errorf("DrawEnd sent at %v, want [40]", got)
			}
			var st = map[string]float64{}
			r.pa.Stats(func(k string, v float64) { st[k] = v })
			if st["GPU.PrimitiveAssembly.triangles_5d"] != 1 || st["GPU.PrimitiveAssembly.maps"] != 1 ||
				st["GPU.PrimitiveAssembly.set_up"] != 1 {
				t.Errorf("statistics %v", st)
			}
		})
	}
}

// TestBlurOwnersFormula checks protocol.BlurOwners against a brute-force walk
// of every pixel of the 5D tile range.
func TestBlurOwnersFormula(t *testing.T) {
	for _, tile := range []int{2, 4, 8, 16, 32, 64, 128} {
		for _, n := range []int{1, 2, 3, 4, 7} {
			for stride := 0; stride < 3; stride++ {
				for _, rg := range [][4]int{{0, 0, 1, 1}, {1, 0, 2, 1}, {0, 1, 3, 4}, {2, 2, 5, 3}} {
					var want uint64
					for y := rg[1] * 32; y < rg[3]*32; y++ {
						for x := rg[0] * 32; x < rg[2]*32; x++ {
							want |= 1 << protocol.TileOwner(x/tile, y/tile, stride, n)
						}
					}
					if got := protocol.BlurOwners(rg[0], rg[1], rg[2], rg[3], tile, stride, n); got != want {
						t.Errorf("tile %d, %d rasterizers, stride %d, range %v: owners %b, want %b", tile, n, stride, rg, got, want)
					}
				}
			}
		}
	}
}

// TestBlurGeometryMatchesReference runs every draw of the decoupled study
// scene "defocus" (every triangle of its decoupled draws takes the 5D path)
// through primitive assembly: the geometry counters and the decoupling maps'
// counters equal the reference renderer's, the 5D primitives are numbered in
// API order, and each reaches exactly the rasterizers of its owner set.
func TestBlurGeometryMatchesReference(t *testing.T) {
	s := testpeer.Builtin(t, "defocus")
	if err := s.SetResolution(96, 54, 4); err != nil {
		t.Fatal(err)
	}
	f := testpeer.EncodeBuilt(t, s)
	fr := testpeer.NewFrame(t, f)
	ref := testpeer.Reference(t, f)
	if ref.Counters.Decoupled.Map.Triangles == 0 {
		t.Fatal("the scene has no 5D primitive")
	}
	const n = 3
	r := newRig(t, MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.BatchSlots = 4 })), n)
	for _, d := range fr.Draws {
		batches := fr.Shade(t, d)
		for _, sb := range batches {
			r.core.Script = append(r.core.Script, scripted{At: 0, Msg: sb, Dst: r.pa.FromShaderCores})
		}
		r.ia.Script = append(r.ia.Script, scripted{At: 0, Msg: protocol.NewBatchInfo(d, len(batches)), Dst: r.pa.InputAssembler})
	}
	r.run(t)
	r.checkDrained(t)
	if got, want := r.pa.GeometryStats(), ref.Counters.GeometryStats; got != want {
		t.Errorf("geometry stats %+v, want the reference's %+v", got, want)
	}
	if got, want := r.pa.MapStats(), ref.Counters.Decoupled.Map; got != want {
		t.Errorf("map stats %+v, want the reference's %+v", got, want)
	}
	// Every 5D primitive reaches exactly its owners; each rasterizer gets them
	// in increasing number, below the number of 5D-path triangles.
	recv := map[*pipeline.Primitive]uint64{}
	var st = map[string]float64{}
	r.pa.Stats(func(k string, v float64) { st[k] = v })
	for i, rf := range r.rasts {
		last := int64(-1)
		for _, g := range rf.Got {
			m, ok := g.Msg.(*protocol.PrimitiveMsg)
			if !ok || m.Prim.Blur == nil {
				continue
			}
			recv[m.Prim] |= 1 << i
			if int64(m.Prim.ID) <= last || float64(m.Prim.ID) >= st["GPU.PrimitiveAssembly.triangles_5d"] {
				t.Errorf("rasterizer %d: primitive number %d after %d (of %v)", i, m.Prim.ID, last, st["GPU.PrimitiveAssembly.triangles_5d"])
			}
			last = int64(m.Prim.ID)
		}
	}
	if len(recv) != int(ref.Counters.Decoupled.Map.Triangles) {
		t.Errorf("%d 5D primitives reached the rasterizers, the reference set up %d", len(recv), ref.Counters.Decoupled.Map.Triangles)
	}
	for p, got := range recv {
		tx0, ty0, tx1, ty1 := p.Blur.Tri.TileRange()
		if want := protocol.BlurOwners(tx0, ty0, tx1, ty1, raster.DefaultTileSize, 1, n); got != want {
			t.Errorf("primitive %d reached rasterizers %b, its owners are %b", p.ID, got, want)
		}
	}
}
