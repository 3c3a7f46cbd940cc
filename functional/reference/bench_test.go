package reference_test

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// BenchmarkFunctionalDefaultScene renders the default scene at 1280x720 with 4x
// MSAA with the reference renderer. The frame is encoded once; each iteration
// executes the whole command stream (which starts with a clear).
func BenchmarkFunctionalDefaultScene(b *testing.B) {
	s := builtin(b, scene.DefaultName, 1280, 720, 4)
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
	b.ReportMetric(float64(c.Quads)/sec, "quads/s")
	b.ReportMetric(float64(c.PSLaneInstructions+c.VSLaneInstructions)/sec, "lane-instr/s")
}
