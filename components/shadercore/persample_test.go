package shadercore_test

import (
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/shadercore"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/shader"
)

// TestPerSampleWarps: sample quads (WarpQuad.Sample >= 0) are loaded with
// pipeline.LoadPerSampleQuad at the warp's PixelRate, and the shaded warp goes
// to the warp's ReturnTo port (SAGE's sample fill), not to the reorder buffer.
// The warps are the wall scene's first pixel warps at 4 samples, turned into
// sample quads of samples 1 and 3; the colours must differ from per-pixel
// shading somewhere, or the test would not see the load.
func TestPerSampleWarps(t *testing.T) {
	rec := record(t, strings.Replace(wallScene, "samples: 1", "samples: 4", 1))
	pws := fullWarps(t, rec, rec.draws[0], 2)
	d := pws[0].Draw
	rate := pipeline.PixelRateLinks(d.State, pipeline.DefaultPixelRate)
	r := newRig(t, sim.NewSerialEngine(), shadercore.DefaultConfig(), 40, 4)
	fill := newSink(r.engine, "SampleFill", 4)
	r.conn.PlugIn(fill.In, 1)
	var jobs []sim.Msg
	var want [][]pipeline.QuadOutput
	differs := false
	for i, pw := range pws {
		quads := make([]protocol.WarpQuad, len(pw.Quads))
		for q, wq := range pw.Quads {
			wq.Sample = int8(1 + 2*(q&1))
			quads[q] = wq
		}
		w := protocol.NewPixelWarp(d, uint64(i), quads)
		w.PixelRate, w.ReturnTo = rate, fill.In
		jobs = append(jobs, w)
		ws := shader.NewWarp(shader.MaxLanes)
		ws.Reset(d.State.PS, 4*len(quads), d.State.PSConstants)
		for q, wq := range quads {
			pipeline.LoadPerSampleQuad(d.State, &d.Raster, wq.Prim, wq.Quad, int(wq.Sample), wq.Live, rate, ws, 4*q)
		}
		ws.Run(&pipeline.TextureUnits{Bindings: &d.State.PSTextures})
		out := make([]pipeline.QuadOutput, len(quads))
		pixel := functionalOutputs(pw)
		for q := range out {
			out[q] = pipeline.ReadQuad(d.State, ws, 4*q)
			differs = differs || !sameQuad(&out[q], &pixel[q])
		}
		want = append(want, out)
	}
	if !differs {
		t.Fatal("per-sample shading equals per-pixel shading on these warps: pick others")
	}
	r.send(t, jobs...)
	if len(r.rob.got) != 0 || len(fill.got) != len(jobs) {
		t.Fatalf("%d outputs to the reorder buffer, %d to the sample fill; want 0, %d", len(r.rob.got), len(fill.got), len(jobs))
	}
	for _, m := range fill.got {
		sw := m.(*protocol.ShadedWarp)
		k := int(sw.Warp.ID)
		for q := range want[k] {
			if !sameQuad(&sw.Outputs[q], &want[k][q]) {
				t.Fatalf("warp %d quad %d: %+v, want %+v", k, q, sw.Outputs[q], want[k][q])
			}
		}
	}
}

// TestSampleOutsideDrawHalts: a sample quad of a sample the draw does not have
// stops the core with an error naming the field.
func TestSampleOutsideDrawHalts(t *testing.T) {
	rec := record(t, wallScene)
	pw := fullWarps(t, rec, rec.draws[0], 1)[0]
	quads := append([]protocol.WarpQuad{}, pw.Quads...)
	quads[3].Sample = 1 // the wall scene has 1 sample per pixel
	r := newRig(t, sim.NewSerialEngine(), shadercore.DefaultConfig(), 40, 4)
	r.disp.Script = append(r.disp.Script, testpeer.Scripted{Msg: protocol.NewPixelWarp(pw.Draw, 0, quads)})
	testpeer.Run(t, r.engine, r.disp)
	if err := r.halt.Reason(); err == nil || !strings.Contains(err.Error(), "Sample 1") {
		t.Errorf("error %v, want one naming Sample 1", err)
	}
}
