package shadercore_test

import (
	"math/bits"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/shadercore"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/shader"
)

// shadingWarps turns the quads of the recording's first full pixel warp into
// shading warps of a decoupled copy of its draw (mode supersample when ss):
// each quad's primitive is set up again as a still 5D primitive, and the
// shading quad is the one its first live sample maps to.
func shadingWarps(t *testing.T, rec *recording, ss bool) []*protocol.ShadingWarp {
	t.Helper()
	pw := fullWarps(t, rec, rec.draws[0], 1)[0]
	st := *pw.Draw.State
	st.Decoupling.Mode = command.DecoupleOn
	if ss {
		st.Decoupling.Mode = command.DecoupleSupersample
	}
	d := &protocol.Draw{Seq: 0, State: &st, Raster: pw.Draw.Raster}
	var pc pipeline.PatternCache
	dd, err := pipeline.NewDecoupled(&st, &d.Raster, &pc, 1)
	if err != nil || dd == nil {
		t.Fatalf("decoupled setup: %v", err)
	}
	geo := pipeline.NewGeometry(&st, &d.Raster)
	var gs pipeline.GeometryStats
	var ms decouple.MapStats
	var quads []protocol.ShadingQuad
	for i, q := range pw.Quads {
		var v [3]pipeline.VertexOut
		for k := range v {
			for r := range v[k] {
				v[k][r] = q.Prim.Attr[r][k]
			}
		}
		prims := geo.Triangle5D(dd, 0, uint32(i), [3]*pipeline.VertexOut{&v[0], &v[1], &v[2]}, nil, &gs, &ms)
		if len(prims) != 1 {
			t.Fatalf("quad %d: the 5D set-up rejected its primitive", i)
		}
		p := &prims[0]
		lk := pipeline.MapSamples(p, q.Quad.X, q.Quad.Y, q.Live, nil)
		if len(lk) == 0 {
			t.Fatalf("quad %d has no live sample", i)
		}
		quads = append(quads, protocol.ShadingQuad{Entry: i, Prim: p, Tag: lk[0].Taps[0].Tag, Live: q.Live})
	}
	return []*protocol.ShadingWarp{protocol.NewShadingWarp(d, 0, ss, quads[:5]), protocol.NewShadingWarp(d, 1, ss, quads[5:])}
}

// shadeFunctionally shades a shading warp as functional/reference's flush5D.
func shadeFunctionally(sw *protocol.ShadingWarp) ([]pipeline.ShadingLanes, int) {
	d := sw.Draw.State
	w := shader.NewWarp(shader.MaxLanes)
	w.Reset(d.PS, 4*len(sw.Quads), d.PSConstants)
	for i := range sw.Quads {
		q := &sw.Quads[i]
		if sw.Supersample {
			pipeline.LoadSampleQuad(d, q.Prim.Blur.Decoupled, q.Prim, q.Tag.QuadX, q.Tag.QuadY, int(q.Tag.Sample), q.Live, w, 4*i)
		} else {
			pipeline.LoadShadingQuad(d, q.Prim, q.Tag, w, 4*i)
		}
	}
	helpers := bits.OnesCount64(w.Helper)
	w.Run(&pipeline.TextureUnits{Bindings: &d.PSTextures})
	out := make([]pipeline.ShadingLanes, len(sw.Quads))
	for i := range out {
		out[i] = pipeline.ReadShadingQuad(d, w, 4*i)
	}
	return out, helpers
}

// TestShadingWarps: a shading warp runs as a pixel warp (texturing included)
// and returns exactly the functional pipeline's lanes.
func TestShadingWarps(t *testing.T) {
	rec := record(t, wallScene)
	for _, ss := range []bool{false, true} {
		warps := shadingWarps(t, rec, ss)
		r := newRig(t, sim.NewSerialEngine(), shadercore.DefaultConfig(), 40, 4)
		var jobs []sim.Msg
		helpers := 0
		var want [][]pipeline.ShadingLanes
		for _, w := range warps {
			jobs = append(jobs, w)
			out, h := shadeFunctionally(w)
			want = append(want, out)
			helpers += h
		}
		r.run(t, jobs...)
		for i, m := range r.rob.got {
			sl, ok := m.(*protocol.ShadedLanes)
			if !ok {
				t.Fatalf("supersample=%v: output %d is %T", ss, i, m)
			}
			k := int(sl.Warp.ID)
			if len(sl.Lanes) != len(want[k]) {
				t.Fatalf("warp %d: %d lanes", k, len(sl.Lanes))
			}
			for q := range sl.Lanes {
				g, w := &sl.Lanes[q], &want[k][q]
				for l := 0; l < 4; l++ {
					if !sameVec(g.Color[l], w.Color[l]) || g.Store != w.Store {
						t.Fatalf("supersample=%v warp %d quad %d lane %d: %v %x, want %v %x", ss, k, q, l, g.Color[l], g.Store, w.Color[l], w.Store)
					}
				}
			}
			if wantBytes := 16 + len(sl.Lanes)*65; sl.TrafficBytes != wantBytes {
				t.Errorf("ShadedLanes of %d bytes, want %d", sl.TrafficBytes, wantBytes)
			}
		}
		r.core.Finish(r.engine.CurrentTime())
		testpeer.CheckStats(t, testpeer.StatMap(r.core), "GPU.ShaderCore[0]", map[string]float64{
			"pixel_warps":    2,
			"ps_invocations": 32,
			"helper_pixels":  float64(helpers),
		})
	}
}
