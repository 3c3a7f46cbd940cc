package rop_test

import (
	"bytes"
	"math/bits"
	"reflect"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/blend"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	fstate "github.com/gfxsim/gfxsim/functional/state"
)

func blurSpec() backendtest.TargetSpec {
	return backendtest.TargetSpec{Width: 16, Height: 8, Samples: 4, ColorFormat: framebuffer.RGBA8,
		ColorLayout: framebuffer.Tiled, DepthFormat: depth.D24S8, DepthLayout: framebuffer.Tiled, TileW: 4, TileH: 4}
}

// visQuads turns a 5D tile into visibility quads: quad i keeps the samples of
// keep(i, live), each with its own colour; depths when withDepth.
func visQuads(tq *protocol.TileQuads, keep func(i int, live raster.SampleMask) raster.SampleMask, withDepth bool) []protocol.ShadedVisibilityQuad {
	var out []protocol.ShadedVisibilityQuad
	for i, q := range tq.Quads {
		v := protocol.ShadedVisibilityQuad{Prim: tq.Prim, X: q.Quad.X, Y: q.Quad.Y, Live: q.Live, Kept: keep(i, q.Live)}
		k := 0
		for pix := 0; pix < 4; pix++ {
			for m := v.Kept[pix]; m != 0; m &= m - 1 {
				s := bits.TrailingZeros64(m)
				v.Colors = append(v.Colors, geom.Vec4{float32(k%8) / 8, float32(pix) / 4, float32(s) / 4, 0.5})
				if withDepth {
					v.Depths = append(v.Depths, float32(k)/64)
				}
				k++
			}
		}
		out = append(out, v)
	}
	return out
}

// writeVisibility is the reference renderer's output merger for one
// visibility quad (functional/reference/decoupled.go), with the late-Z
// outcome of each kept sample given by pass (nil: early Z, no test).
func writeVisibility(d *fstate.Draw, v *protocol.ShadedVisibilityQuad, pass *raster.SampleMask, ws *pipeline.WriteStats) {
	killed, written := true, false
	k := 0
	for pix := 0; pix < 4; pix++ {
		x, y := int(v.X)+pix&1, int(v.Y)+pix>>1
		for m := v.Live[pix]; m != 0; m &= m - 1 {
			s := bits.TrailingZeros64(m)
			if !v.Kept.Has(pix, s) {
				ws.Killed++
				continue
			}
			c := v.Colors[k]
			k++
			killed = false
			if pass != nil && !pass.Has(pix, s) {
				continue
			}
			written = true
			pipeline.BlendSample(d, x, y, s, c, ws)
		}
	}
	ws.EndQuad(!killed, written)
}

// TestBlurWriteMatchesWriteVisibility: a ShadedSamples of an early-Z and one
// of a late-Z decoupled draw (alpha blended, so the order of the writes
// shows), with quads fully kept, discarded, partly killed and culled by late
// Z: the ROP drops the killed samples, sends the kept ones of the late-Z draw
// to the depth unit (with the shader's depths when it writes depth), blends
// each surviving sample with its own colour, and counts the quad account
// exactly as the reference's writeVisibility.
func TestBlurWriteMatchesWriteVisibility(t *testing.T) {
	b := newBench(t, rop.DefaultConfig(), blurSpec(), 10)
	early, late := b.TG.Draw(0, true), b.TG.Draw(1, false)
	late.State.PSResources.WritesDepth = true
	for _, d := range []*protocol.Draw{early, late} {
		d.State.Blend.Targets[0] = blend.Alpha()
	}
	tri := [3][3]float32{{0, 0, 0.2}, {16, 0, 0.8}, {0, 8, 0.4}}
	pe := backendtest.Blur(early, backendtest.Decouple(early), 0, 0, tri)
	pl := backendtest.Blur(late, backendtest.Decouple(late), 0, 1, tri)
	keep := func(i int, live raster.SampleMask) raster.SampleMask {
		switch i % 4 {
		case 1:
			return raster.SampleMask{} // discarded
		case 2:
			return live.And(raster.FullPixels(0x5, 4)) // pixels 1 and 3 killed
		}
		return live
	}
	ve := visQuads(backendtest.BlurTile(early, pe, 0, 0), keep, false)
	vl := visQuads(backendtest.BlurTile(late, pl, 0, 0), keep, true)
	// Late Z: quads 3 mod 4 fail everywhere, quads 0 mod 4 keep sample 0 only.
	passOf := func(i int, kept raster.SampleMask) raster.SampleMask {
		switch i % 4 {
		case 3:
			return raster.SampleMask{}
		case 0:
			return kept.And(raster.SampleMask{1, 1, 1, 1})
		}
		return kept
	}
	var gotReq *protocol.LateZReq
	b.lateZPass = func(req *protocol.LateZReq) []raster.SampleMask {
		gotReq = req
		pass := make([]raster.SampleMask, len(req.Quads))
		for i, q := range req.Quads {
			pass[i] = passOf(i, q.Live)
		}
		return pass
	}
	me, ml := protocol.NewShadedSamples(early, ve), protocol.NewShadedSamples(late, vl)
	b.rob.SendAt(0, b.rop.FromReorderBuffer, me)
	b.rob.SendAt(0, b.rop.FromReorderBuffer, protocol.NewDrawEnd(early, 0))
	b.rob.SendAt(0, b.rop.FromReorderBuffer, ml)
	b.rob.SendAt(0, b.rop.FromReorderBuffer, protocol.NewDrawEnd(late, 0))

	ref := b.TG.Clone()
	var ws pipeline.WriteStats
	for _, m := range []*protocol.ShadedSamples{me, ml} {
		sd := *m.Draw.State
		sd.Color, sd.DepthBuf = ref.Color, ref.Depth
		for i := range m.Quads {
			v := &m.Quads[i]
			var pass *raster.SampleMask
			if !sd.EarlyZ {
				p := passOf(i, v.Kept)
				pass = &p
			}
			writeVisibility(&sd, v, pass, &ws)
		}
	}
	if ws.QuadsDiscarded == 0 || ws.QuadsLateZCulled == 0 || ws.QuadsWritten == 0 || ws.Killed == 0 {
		t.Fatalf("weak test: %+v", ws)
	}
	b.run()

	if !bytes.Equal(b.TG.Color.Bytes(), ref.Color.Bytes()) {
		t.Error("the colour target differs from writeVisibility's")
	}
	if got := b.rop.WriteStats(); got != ws {
		t.Errorf("write stats %+v, want %+v", got, ws)
	}
	if len(b.du.Received) != 1 || gotReq == nil || gotReq.Draw != late {
		t.Fatalf("depth unit received %d requests, want one of the late-Z draw", len(b.du.Received))
	}
	for i, q := range gotReq.Quads {
		v := &vl[i]
		if q.Prim != pl || q.Quad.X != v.X || q.Quad.Y != v.Y || q.Live != v.Kept || !reflect.DeepEqual(q.Depths, v.Depths) {
			t.Errorf("late-Z quad %d: %+v, want the kept samples %v with depths %v", i, q, v.Kept, v.Depths)
		}
	}
	n := len(ve) + len(vl)
	b.CheckStats(b.rop, map[string]float64{"quads_in": float64(n), "visibility_quads_in": float64(n),
		"quads_written": float64(ws.QuadsWritten), "quads_discarded": float64(ws.QuadsDiscarded),
		"quads_late_z_culled": float64(ws.QuadsLateZCulled), "samples_killed": float64(ws.Killed),
		"samples_written": float64(ws.Written), "late_z_requests": 1, "late_z_quads": float64(len(vl)), "draw_dones": 2})
}

// TestBlurSampleRate: with SamplesPerCycle set, a visibility quad blends in
// ceil(samples / rate) cycles; by default it costs one quad.
func TestBlurSampleRate(t *testing.T) {
	last := func(bl rop.Config) uint64 {
		b := newBench(t, bl, blurSpec(), 10)
		d := b.TG.Draw(0, true)
		p := backendtest.Blur(d, backendtest.Decouple(d), 0, 0, [3][3]float32{{-8, -8, 0.5}, {40, -8, 0.5}, {-8, 40, 0.5}})
		v := visQuads(backendtest.BlurTile(d, p, 0, 0), func(_ int, l raster.SampleMask) raster.SampleMask { return l }, false)
		b.rob.SendAt(0, b.rop.FromReorderBuffer, protocol.NewShadedSamples(d, v))
		b.rob.SendAt(0, b.rop.FromReorderBuffer, protocol.NewDrawEnd(d, 0))
		b.run()
		if len(v) != 32 || v[0].Kept.Count() != 16 {
			t.Fatalf("the triangle does not cover the 32 quads of the target: %d", len(v))
		}
		return b.cp.Received[0].Cycle
	}
	one := last(rop.DefaultConfig())
	half := last(testpeer.Edit(rop.DefaultConfig(), func(c *rop.Config) { c.SamplesPerCycle = 8 })) // a 16-sample quad in two cycles
	if half <= one+16 {
		t.Errorf("DrawDone at %d with 8 samples per cycle, %d at one quad per cycle: want at least 32 cycles more", half, one)
	}
}

// TestBlurBadInput: malformed visibility quads halt the ROP with an error
// naming the problem.
func TestBlurBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		edit       func(v *protocol.ShadedVisibilityQuad)
	}{
		{"colours", "colours for", func(v *protocol.ShadedVisibilityQuad) { v.Colors = v.Colors[1:] }},
		{"kept", "keeps samples that are not live", func(v *protocol.ShadedVisibilityQuad) { v.Live = raster.SampleMask{} }},
		{"2D", "not of a 5D primitive", func(v *protocol.ShadedVisibilityQuad) { v.Prim = &pipeline.Primitive{} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, rop.DefaultConfig(), blurSpec(), 10)
			d := b.TG.Draw(0, true)
			p := backendtest.Blur(d, backendtest.Decouple(d), 0, 0, [3][3]float32{{0, 0, 0.5}, {16, 0, 0.5}, {0, 8, 0.5}})
			v := visQuads(backendtest.BlurTile(d, p, 0, 0), func(_ int, l raster.SampleMask) raster.SampleMask { return l }, false)
			tc.edit(&v[0])
			b.rob.SendAt(0, b.rop.FromReorderBuffer, protocol.NewShadedSamples(d, v))
			if err := b.E.Run(); err != nil {
				t.Fatal(err)
			}
			if !b.Halt.Stopped() || !strings.Contains(b.Halt.Reason().Error(), tc.want) {
				t.Errorf("halt %v, want an error with %q", b.Halt.Reason(), tc.want)
			}
		})
	}
}
