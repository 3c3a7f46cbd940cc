package depthunit_test

import (
	"bytes"
	"math/bits"
	"reflect"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/components/depthunit"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// TestBlurEarlyAndLateZ: a wall at 0.5 (2D), then three decoupled draws of
// tilted 5D primitives: one with early Z (per-sample depth and facing,
// pipeline.EarlyDepthSamples), one with late Z at the samples' own depths and
// one with late Z at the shader's depths (clamped). The survivors, the late-Z
// pass masks and the depth buffer equal the reference renderer's per-sample
// loops (SampleDepthTest on the sample's depth or ShaderDepth), and every
// tested sample is counted.
func TestBlurEarlyAndLateZ(t *testing.T) {
	spec := backendtest.TargetSpec{Width: 16, Height: 8, Samples: 4, ColorFormat: framebuffer.RGBA8,
		ColorLayout: framebuffer.Tiled, DepthFormat: depth.D24S8, DepthLayout: framebuffer.Tiled, TileW: 4, TileH: 4}
	b := newBench(t, depthunit.DefaultConfig(), spec, 20)
	wall := b.TG.Draw(0, true)
	early := b.TG.Draw(1, true)
	late := b.TG.Draw(2, false)
	shaded := b.TG.Draw(3, false)
	shaded.State.PSResources.WritesDepth = true
	tilt := [3][3]float32{{0, 0, 0.2}, {16, 0, 0.8}, {0, 8, 0.4}}
	pe := backendtest.Blur(early, backendtest.Decouple(early), 0, 0, tilt)
	pl := backendtest.Blur(late, backendtest.Decouple(late), 0, 1, [3][3]float32{{16, 8, 0.1}, {0, 8, 0.9}, {16, 0, 0.3}})
	ps := backendtest.Blur(shaded, backendtest.Decouple(shaded), 0, 2, tilt)
	r := backendtest.Rect(wall, 0, 0, 16, 8, 0.5)
	wallTiles := append(backendtest.Tiles(wall, r[0], 0, 1), backendtest.Tiles(wall, r[1], 0, 1)...)
	te, tl, tsh := backendtest.BlurTile(early, pe, 0, 0), backendtest.BlurTile(late, pl, 0, 0), backendtest.BlurTile(shaded, ps, 0, 0)
	b.sendDraw(0, wall, wallTiles)
	b.sendDraw(0, early, []*protocol.TileQuads{te})
	b.sendDraw(0, late, []*protocol.TileQuads{tl})
	b.sendDraw(0, shaded, []*protocol.TileQuads{tsh})
	// The ROP's late-Z requests: every covered sample; the shader's depths
	// alternate in front (0.05) and beyond the far plane (1.5, clamped to 1:
	// fails against anything nearer).
	lateReq := func(d *protocol.Draw, tq *protocol.TileQuads, shaderDepth bool) *protocol.LateZReq {
		var qs []protocol.LateZQuad
		for _, q := range tq.Quads {
			lq := protocol.LateZQuad{Prim: tq.Prim, Quad: raster.Quad{X: q.Quad.X, Y: q.Quad.Y}, Live: q.Live}
			if shaderDepth {
				for k := 0; k < q.Live.Count(); k++ {
					lq.Depths = append(lq.Depths, []float32{0.05, 1.5}[k&1])
				}
			}
			qs = append(qs, lq)
		}
		return protocol.NewLateZReq(d, qs)
	}
	reqL, reqS := lateReq(late, tl, false), lateReq(shaded, tsh, true)
	b.rop.SendAt(200, b.du.ROP, reqL)
	b.rop.SendAt(300, b.du.ROP, reqS)

	// The reference: the wall by EarlyDepth, the 5D samples one by one.
	ref := b.TG.Clone()
	var st pipeline.DepthStats
	for _, tq := range wallTiles {
		sd := *wall.State
		sd.DepthBuf = ref.Depth
		for _, q := range tq.Quads {
			pipeline.EarlyDepth(&sd, &wall.Raster, tq.Prim, q.Quad, &st)
		}
	}
	perSample := func(d *protocol.Draw, p *pipeline.Primitive, req *protocol.LateZReq, tq *protocol.TileQuads) []raster.SampleMask {
		sd := *d.State
		sd.DepthBuf = ref.Depth
		var out []raster.SampleMask
		for i, q := range tq.Quads {
			var pass raster.SampleMask
			k := 0
			for pix := 0; pix < 4; pix++ {
				x, y := int(q.Quad.X)+pix&1, int(q.Quad.Y)+pix>>1
				for m := q.Live[pix]; m != 0; m &= m - 1 {
					s := bits.TrailingZeros64(m)
					z := p.Blur.Tri.SampleDepth(x, y, s)
					if req != nil && req.Quads[i].Depths != nil {
						z = pipeline.ShaderDepth(&sd, req.Quads[i].Depths[k])
					}
					k++
					if pipeline.SampleDepthTest(&sd, p, x, y, s, z, &st) {
						pass[pix] |= 1 << uint(s)
					}
				}
			}
			out = append(out, pass)
		}
		return out
	}
	earlyPass := perSample(early, pe, nil, te)
	var wantSurv []protocol.QuadLive
	for i, q := range te.Quads {
		if !earlyPass[i].Empty() {
			wantSurv = append(wantSurv, protocol.QuadLive{Quad: q.Quad, Live: earlyPass[i]})
		}
	}
	wantL, wantS := perSample(late, pl, reqL, tl), perSample(shaded, ps, reqS, tsh)
	b.run()

	tiles, _, order := packerMsgs(b.packer)
	var want []string
	for range wallTiles {
		want = append(want, "tile")
	}
	want = append(want, "end", "tile", "end", "tile", "end", "tile", "end")
	if !reflect.DeepEqual(order, want) {
		t.Fatalf("packer received %v, want %v", order, want)
	}
	n := len(wallTiles)
	if !reflect.DeepEqual(tiles[n].Quads, wantSurv) || tiles[n].Prim != pe {
		t.Errorf("early 5D survivors %+v, want %+v", tiles[n].Quads, wantSurv)
	}
	if !reflect.DeepEqual(tiles[n+1].Quads, tl.Quads) || !reflect.DeepEqual(tiles[n+2].Quads, tsh.Quads) {
		t.Error("late-Z 5D tiles were not passed through untested")
	}
	var gotL, gotS []raster.SampleMask
	for _, rc := range b.rop.Received {
		m := rc.Msg.(*protocol.LateZRsp)
		switch m.RspTo {
		case reqL.ID:
			gotL = m.Pass
		case reqS.ID:
			gotS = m.Pass
		}
	}
	if !reflect.DeepEqual(gotL, wantL) || !reflect.DeepEqual(gotS, wantS) {
		t.Errorf("late-Z pass masks\n %v\n %v\nwant\n %v\n %v", gotL, gotS, wantL, wantS)
	}
	if !bytes.Equal(b.TG.Depth.Bytes(), ref.Depth.Bytes()) {
		t.Error("the depth buffer differs from the reference's per-sample tests")
	}
	culled := 0
	for _, p := range earlyPass {
		if p.Empty() {
			culled++
		}
	}
	failedLate := 0
	for i, q := range tsh.Quads {
		failedLate += q.Live.Count() - wantS[i].Count()
	}
	if st.Failed == 0 || st.Passed == 0 || culled == 0 || len(wantSurv) == 0 || failedLate == 0 {
		t.Fatalf("weak test: %d passed, %d failed, %d early quads culled, %d survived, %d shaded samples failed",
			st.Passed, st.Failed, culled, len(wantSurv), failedLate)
	}
	count := func(tq *protocol.TileQuads) (n int) {
		for _, q := range tq.Quads {
			n += q.Live.Count()
		}
		return
	}
	var wallSamples int
	for _, tq := range wallTiles {
		wallSamples += count(tq)
	}
	b.CheckStats(b.du, map[string]float64{
		"samples_passed": float64(st.Passed), "samples_failed": float64(st.Failed),
		"samples_tested_early": float64(wallSamples + count(te)),
		"samples_tested_late":  float64(count(tl) + count(tsh)),
		"quads_culled_early_z": float64(culled),
		"late_z_quads":         float64(len(tl.Quads) + len(tsh.Quads)),
	})
}

// TestBlurLateZDepthsChecked: a visibility quad's depth list must hold one
// depth per live sample.
func TestBlurLateZDepthsChecked(t *testing.T) {
	spec := backendtest.DefaultSpec()
	b := newBench(t, depthunit.DefaultConfig(), spec, 20)
	d := b.TG.Draw(0, false)
	p := backendtest.Blur(d, backendtest.Decouple(d), 0, 0, [3][3]float32{{0, 0, 0.2}, {16, 0, 0.8}, {0, 8, 0.4}})
	tq := backendtest.BlurTile(d, p, 0, 0)
	q := tq.Quads[0]
	b.rop.SendAt(0, b.du.ROP, protocol.NewLateZReq(d, []protocol.LateZQuad{{Prim: p, Quad: q.Quad, Live: q.Live,
		Depths: make([]float32, q.Live.Count()+1)}}))
	if err := b.E.Run(); err != nil {
		t.Fatal(err)
	}
	if err := b.Halt.Reason(); !b.Halt.Stopped() || !strings.Contains(err.Error(), "5 depths for 4 samples") {
		t.Fatalf("a depth list longer than the live samples: %v", err)
	}
}
