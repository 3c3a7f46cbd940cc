package configs

import (
	"fmt"
	"testing"
	"time"

	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// BenchmarkTimedDefaultScene renders the default scene at 1280x720 with 4x MSAA
// on the default machine and reports the wall time, the simulated cycles, the
// simulated cycles per wall second and the Akita events per second; then the
// reference renderer's wall time on the same frame, measured in the same run,
// and the ratio of the two (the issue 15 targets: under 30 s, within 12x).
// Run it with -benchtime 1x.
func BenchmarkTimedDefaultScene(b *testing.B) {
	c := Default()
	_, sec := benchTimed(b, c, 1280, 720, 4)
	var fwall time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		_, f := frame(b, scene.DefaultName, 1280, 720, 4)
		o := referenceOptions(b, c)
		start := time.Now()
		if _, err := reference.Render(f.Memory, f.Stream, f.StreamBytes, o); err != nil {
			b.Fatal(err)
		}
		fwall += time.Since(start)
	}
	fsec := fwall.Seconds() / float64(b.N)
	b.ReportMetric(fsec, "functional-s/frame")
	b.ReportMetric(sec/fsec, "timed/functional")
}

// BenchmarkTimedDefaultSceneAkitaDRAM is the default frame on Akita's
// mem/dram (configs/akita-dram.yaml), the memory the default machine had
// before gfxsim's DRAM controller.
func BenchmarkTimedDefaultSceneAkitaDRAM(b *testing.B) {
	c, err := Load("akita-dram.yaml")
	if err != nil {
		b.Fatal(err)
	}
	benchTimed(b, c, 1280, 720, 4)
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

func benchTimed(b *testing.B, c *Config, w, h, samples int) (*Result, float64) {
	return benchTimedScene(b, c, scene.DefaultName, w, h, samples)
}

func benchTimedScene(b *testing.B, c *Config, name string, w, h, samples int) (*Result, float64) {
	var wall time.Duration
	var res *Result
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		var f *driver.Frame
		if c.Machine == "sage" {
			f = sageFrame(b, c, name, w, h, samples) // an RGBA10 sample buffer
		} else {
			_, f = frame(b, name, w, h, samples)
		}
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
	return res, sec
}

// BenchmarkTimedDecoupled27 renders the blurred defocus scene (decoupled
// sampling, 27 samples per pixel) at 1280x720 on the default machine and
// reports visible samples (samples that reached the decoupling stage) per
// wall second beside the frame's figures. BenchmarkFunctionalDecoupled in
// functional/reference is the reference renderer's counterpart.
func BenchmarkTimedDecoupled27(b *testing.B) {
	res, sec := benchTimedScene(b, Default(), "defocus", 1280, 720, 27)
	b.ReportMetric(res.Stats["GPU.QuadPacker.samples_mapped"]/sec, "visible-samples/wall-s")
}

// BenchmarkTimedDefaultSceneQuarter is the default scene at 640x360 (a quarter
// of the pixels): a quicker frame to profile with -cpuprofile.
func BenchmarkTimedDefaultSceneQuarter(b *testing.B) {
	benchTimed(b, Default(), 640, 360, 4)
}

// BenchmarkTimedDefaultSceneParallel and BenchmarkTimedDefaultSceneQuarterParallel
// are the default frame and its quarter on the parallel engine
// (timing.ParallelEngine, its default workers: GOMAXPROCS, at most 4):
// against the serial engine's benchmarks, its speed-up.
func BenchmarkTimedDefaultSceneParallel(b *testing.B) {
	c := Default()
	c.Engine = "parallel"
	benchTimed(b, c, 1280, 720, 4)
}

func BenchmarkTimedDefaultSceneQuarterParallel(b *testing.B) {
	c := Default()
	c.Engine = "parallel"
	benchTimed(b, c, 640, 360, 4)
}

// BenchmarkTimedDefaultSceneQuarterDRAM is BenchmarkTimedDefaultSceneQuarter
// reporting the bandwidth the default memory's channels (gfxsim's DRAM
// controller, 16 GDDR6 channels) achieved, their row-hit rate and read latency.
func BenchmarkTimedDefaultSceneQuarterDRAM(b *testing.B) {
	c := Default()
	res, _ := benchTimedScene(b, c, scene.DefaultName, 640, 360, 4)
	bw, hits, accesses, lat, reads := 0.0, 0.0, 0.0, 0.0, 0.0
	for i := 0; i < c.Memory.Channels; i++ {
		n := fmt.Sprintf("GPU.Memory.Channel[%d].", i)
		bw += res.Stats[n+"achieved_bandwidth"]
		hits += res.Stats[n+"row_hits"]
		accesses += res.Stats[n+"row_hits"] + res.Stats[n+"row_misses"] + res.Stats[n+"row_conflicts"]
		lat += res.Stats[n+"read_latency_avg"] * res.Stats[n+"reads"]
		reads += res.Stats[n+"reads"]
	}
	b.ReportMetric(bw, "dram-GB/s")
	b.ReportMetric(hits/max(accesses, 1), "row-hit-rate")
	b.ReportMetric(lat/max(reads, 1), "read-latency-cycles")
}

// BenchmarkSageDefaultScene renders the default scene at 1280x1024 with 8
// samples per pixel on the SAGE board (four pipes; the paper's design point)
// and reports the wall time and the simulated cycles at the pipes' clock (the
// frame's commands; video-end-cycles adds the scan-out of the 76 Hz video
// frame). BenchmarkTimedDefaultSceneSageSize is the sort-last machine on the
// same frame, the yardstick: SAGE should simulate within 2x of it.
func BenchmarkSageDefaultScene(b *testing.B) {
	res, _ := benchTimedScene(b, SageMachine(), scene.DefaultName, 1280, 1024, 8)
	b.ReportMetric(res.Stats["GPU.video_end_cycles"], "video-end-cycles")
}

// BenchmarkTimedDefaultSceneSageSize is the default scene at SAGE's design
// point (1280x1024, 8 samples per pixel) on the sort-last machine.
func BenchmarkTimedDefaultSceneSageSize(b *testing.B) {
	benchTimed(b, Default(), 1280, 1024, 8)
}

// BenchmarkSortMiddleDefaultScene renders the default scene at 1280x720 with
// 4 samples per pixel (BenchmarkTimedDefaultScene's frame) on the tiled
// sort-middle machine and reports the wall time and the simulated cycles next
// to the sort-last machine's: the tiled machine should be no slower to
// simulate per frame.
func BenchmarkSortMiddleDefaultScene(b *testing.B) {
	res, _ := benchTimedScene(b, SortMiddleMachine(), scene.DefaultName, 1280, 720, 4)
	b.ReportMetric(res.Stats["GPU.Binner.bin_spread"], "bin-spread")
}
