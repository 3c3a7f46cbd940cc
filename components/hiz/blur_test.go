package hiz_test

import (
	"reflect"
	"testing"

	"github.com/gfxsim/gfxsim/components/hiz"
	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/depth"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// TestBlurStaysConservative: a wall at 0.5 fills the HiZ tiles; a 5D primitive
// at 0.2 (a decoupled draw) passes untested and writes depths HiZ never sees;
// then a decal at 0.2 with the Equal test follows. Where the 5D primitive
// covers a HiZ tile, the tile's stale bounds [0.5, 0.5] would cull decal
// samples that pass the exact test (checked on the functional buffer without
// Forget); the unit forgets those tiles, so it culls decal samples only in
// tiles the 5D primitive did not touch, and exactly what the functional
// buffer with Forget culls.
func TestBlurStaysConservative(t *testing.T) {
	for _, cfg := range []fhiz.Config{{Mode: fhiz.ZMask}, {Mode: fhiz.Forward}, {Mode: fhiz.Oracle}} {
		t.Run(cfg.Mode.String(), func(t *testing.T) {
			b := newBench(t, testpeer.Edit(hiz.DefaultConfig(), func(c *hiz.Config) { c.HiZ = cfg }), 10)
			b.clearAt(0)
			wall := b.tg.Draw(0, true)
			blurDraw := b.tg.Draw(1, true)
			dd := backendtest.Decouple(blurDraw)
			blur := backendtest.Blur(blurDraw, dd, 0, 0, [3][3]float32{{1, 1, 0.2}, {7, 1, 0.2}, {1, 7, 0.2}})
			decal := b.tg.Draw(2, true)
			decal.State.Depth.DepthFunc = depth.Equal
			var msgs []*protocol.TileQuads
			r := backendtest.Rect(wall, 0, 0, 16, 8, 0.5)
			msgs = append(msgs, backendtest.Tiles(wall, r[0], 0, 1)...)
			msgs = append(msgs, backendtest.Tiles(wall, r[1], 0, 1)...)
			bm := backendtest.BlurTile(blurDraw, blur, 0, 0)
			msgs = append(msgs, bm)
			r = backendtest.Rect(decal, 0, 0, 16, 8, 0.2)
			r[1].Source = 1
			decalMsgs := append(backendtest.Tiles(decal, r[0], 0, 1), backendtest.Tiles(decal, r[1], 0, 1)...)
			msgs = append(msgs, decalMsgs...)
			for _, m := range msgs {
				b.raster.SendAt(5, b.u.FromRasterizers, m)
			}

			// The functional buffer, with and without Forget.
			run := func(forget bool) ([][]protocol.QuadLive, fhiz.Stats) {
				buf := newFunctional(t, cfg)
				var out [][]protocol.QuadLive
				for _, m := range msgs {
					pos := msgPos(m)
					if m.Prim.Blur != nil {
						if forget {
							dc := fhiz.NewDrawContext(m.Draw.State)
							for _, q := range m.Quads {
								buf.Forget(&dc, q.Quad.X, q.Quad.Y, q.Live, pos)
							}
						}
						out = append(out, m.Quads)
						continue
					}
					out = append(out, process(buf, m, pos))
				}
				return out, buf.Stats()
			}
			// covered5D: the samples the 5D primitive covers (and writes: 0.2
			// is in front of the wall).
			covered5D := map[[3]int]bool{}
			for _, q := range bm.Quads {
				for m := q.Live; !m.Empty(); {
					pix, s := m.Pop()
					covered5D[[3]int{int(q.Quad.X) + pix&1, int(q.Quad.Y) + pix>>1, s}] = true
				}
			}
			culledCovered := func(out [][]protocol.QuadLive) (covered, other int) {
				for i, m := range msgs {
					if m.Draw != decal {
						continue
					}
					for _, q := range m.Quads {
						var kept raster.SampleMask
						for _, k := range out[i] {
							if k.Quad.X == q.Quad.X && k.Quad.Y == q.Quad.Y {
								kept = k.Live
							}
						}
						for c := q.Live.AndNot(kept); !c.Empty(); {
							pix, s := c.Pop()
							if covered5D[[3]int{int(q.Quad.X) + pix&1, int(q.Quad.Y) + pix>>1, s}] {
								covered++
							} else {
								other++
							}
						}
					}
				}
				return
			}
			stale, _ := run(false)
			if c, _ := culledCovered(stale); c == 0 {
				t.Fatal("weak test: without Forget no decal sample on the 5D primitive is culled")
			}
			want, st := run(true)
			c, other := culledCovered(want)
			if c != 0 || other == 0 {
				t.Fatalf("functional buffer with Forget: %d decal samples culled on the 5D primitive, %d elsewhere", c, other)
			}
			b.run()
			tiles, _, _ := b.received()
			var wantTiles [][]protocol.QuadLive
			for _, w := range want {
				if w != nil {
					wantTiles = append(wantTiles, w)
				}
			}
			if len(tiles) != len(wantTiles) {
				t.Fatalf("%d messages forwarded, want %d", len(tiles), len(wantTiles))
			}
			for i := range tiles {
				if !reflect.DeepEqual(tiles[i].Quads, wantTiles[i]) {
					t.Errorf("message %d: %+v, want %+v", i, tiles[i].Quads, wantTiles[i])
				}
			}
			if b.stat("tiles_5d_passed") != 1 || b.stat("tiles_forgotten") != float64(st.Forgotten) || st.Forgotten == 0 ||
				b.stat("quads_culled") != float64(st.QuadsCulled) {
				t.Errorf("tiles_5d_passed %v, tiles_forgotten %v (want %d), quads_culled %v (want %d)",
					b.stat("tiles_5d_passed"), b.stat("tiles_forgotten"), st.Forgotten, b.stat("quads_culled"), st.QuadsCulled)
			}
		})
	}
}
