package reference_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// benchFrame encodes built-in scene name once and renders it b.N times with
// the reference renderer (each command stream starts with a clear); it returns
// the last frame's counters and the wall seconds per frame, reported as
// s/frame.
func benchFrame(b *testing.B, name string, w, h, samples int) (*reference.Counters, float64) {
	s := builtin(b, name, w, h, samples)
	f, err := driver.Encode(s, driver.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var c reference.Counters
	for i := 0; i < b.N; i++ {
		res, err := reference.Render(f.Memory, f.Stream, f.StreamBytes, reference.DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		c = res.Counters
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(sec, "s/frame")
	return &c, sec
}

// BenchmarkFunctionalDefaultScene renders the default scene at 1280x720 with 4x
// MSAA with the reference renderer.
func BenchmarkFunctionalDefaultScene(b *testing.B) {
	c, sec := benchFrame(b, scene.DefaultName, 1280, 720, 4)
	b.ReportMetric(float64(c.Quads)/sec, "quads/s")
	b.ReportMetric(float64(c.PSLaneInstructions+c.VSLaneInstructions)/sec, "lane-instr/s")
}

// BenchmarkFunctionalDecoupled renders blurred study scenes with decoupled
// sampling at 1280x720 at 27 and 64 samples per pixel with the reference
// renderer and reports the frame's wall time, sample tests and visible
// samples per wall second, the shading rate and the heap the process holds.
func BenchmarkFunctionalDecoupled(b *testing.B) {
	for _, tc := range []struct {
		name    string
		samples int
	}{{"defocus", 27}, {"defocus", 64}, {"egomotion", 27}, {"bats", 27}} {
		b.Run(fmt.Sprintf("%s/%dspp", tc.name, tc.samples), func(b *testing.B) {
			c, sec := benchFrame(b, tc.name, 1280, 720, tc.samples)
			b.ReportMetric(float64(c.Decoupled.Raster.Tests())/sec, "tests/s")
			b.ReportMetric(float64(c.Decoupled.VisibleSamples)/sec, "visible/s")
			b.ReportMetric(c.Decoupled.ShadingRate(), "shading-rate")
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heap-MiB")
		})
	}
}
