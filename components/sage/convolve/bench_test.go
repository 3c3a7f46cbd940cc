package convolve_test

import (
	"testing"
	"time"
)

// BenchmarkChain1280x1024x8 runs the video path (route, 4 convolve chips,
// video output) over a 1280x1024 frame at 8 samples per pixel and reports the
// wall seconds and the simulated frame time.
func BenchmarkChain1280x1024x8(b *testing.B) {
	for i := 0; i < b.N; i++ {
		c := newChain(b, chainConfig{srcW: 1280, srcH: 1024, outW: 1280, outH: 1024, n: 8, seed: 1})
		start := time.Now()
		c.run(b)
		b.ReportMetric(time.Since(start).Seconds(), "wall_s")
		b.ReportMetric(float64(c.video.FinishTime())*1e3, "sim_ms")
		s := c.stats()
		b.ReportMetric(s["Video.stall_cycles"], "stall_cycles")
		b.ReportMetric(s["Convolve[0].utilization"], "convolve0_util")
		b.ReportMetric(s["Route.utilization"], "route_util")
	}
}
