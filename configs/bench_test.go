package configs

import (
	"testing"
	"time"

	"github.com/gfxsim/gfxsim/scene"
)

// BenchmarkTimedDefaultScene renders the default scene at 1280x720 with 4x MSAA
// on the default machine and reports the wall time, the simulated cycles, the
// simulated cycles per wall second and the Akita events per second. Compare with
// BenchmarkFunctionalDefaultScene in functional/reference. Run it with
// -benchtime 1x: one frame takes minutes.
func BenchmarkTimedDefaultScene(b *testing.B) {
	benchTimed(b, Default(), 1280, 720, 4)
}

// BenchmarkTimedDefaultSceneIdealMemory is the same frame with the ideal memory,
// to separate the cost of the DRAM model from the rest of the simulator.
func BenchmarkTimedDefaultSceneIdealMemory(b *testing.B) {
	c := Default()
	c.Memory.Type = "ideal"
	c.Memory.IdealLatency = 100
	c.Memory.IdealWidth = 4
	benchTimed(b, c, 1280, 720, 4)
}

func benchTimed(b *testing.B, c *Config, w, h, samples int) {
	var wall time.Duration
	var res *Result
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		_, f := frame(b, scene.DefaultName, w, h, samples)
		p, err := Build(c)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		res, err = p.Run(f)
		if err != nil {
			b.Fatal(err)
		}
		wall += time.Since(start)
	}
	sec := wall.Seconds() / float64(b.N)
	b.ReportMetric(sec, "wall-s/frame")
	b.ReportMetric(float64(res.Cycles), "cycles/frame")
	b.ReportMetric(float64(res.Cycles)/sec, "cycles/wall-s")
	b.ReportMetric(float64(res.Events)/sec, "events/wall-s")
}

// BenchmarkTimedDefaultSceneQuarter is the default scene at 640x360 (a quarter
// of the pixels): a quicker frame to profile with -cpuprofile.
func BenchmarkTimedDefaultSceneQuarter(b *testing.B) {
	benchTimed(b, Default(), 640, 360, 4)
}
