package study

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/functional/filter"
)

// Timed is what one simulation of the SAGE machine measured (sums or means
// over the units named), with the clocks it ran at.
type Timed struct {
	Width, Height, Samples int
	Pipes                  int
	CoreMHz                float64 // clocks.core_mhz: GPU.cycles count these
	SchedMHz               float64
	SampleBufferMHz        float64
	ConvolveMHz            float64
	VideoReadMHz           float64
	SamplesPerCycle        float64 // sage.sched.samples_per_cycle: samples per interleave per cycle
	ClearRate              float64 // sage.sample_buffer.clear_samples_per_cycle

	Cycles        float64 // GPU.cycles: core cycles until the frame's commands finished
	Seconds       float64 // GPU.frame_seconds
	Triangles     float64 // triangles the distributor sent to the pipes
	VSInvocations float64 // vertex shader invocations of every pipe's shader cores
	PipeUtil      []float64

	InterleaveSamples []float64 // samples_in per interleave (every sample write, z passed or failed)
	SamplesWritten    float64
	ZFailed           float64
	CacheHits         float64
	CacheMisses       float64
	Prefetches        float64
	PrefetchHits      float64
	InterleaveUtil    float64 // mean over the interleaves
	InterleaveBusy    float64 // mean cycles_busy
	ClearCycles       float64 // the largest clear_cycles of an interleave

	Barriers        float64 // GPU.Distributor.barriers
	BarrierWait     float64 // the scheds' barrier_wait_cycles
	Switches        float64
	HysteresisHolds float64

	// The video path.
	VideoWidth, VideoHeight int
	RefreshHz               float64
	RouteSamples            float64 // GPU.Route.samples_read
	RouteBytes              float64
	RouteBusy               float64 // GPU.Route.cycles_busy: video-read clocks the chips' pins spent reading
	ConvolvePixels          float64
	ConvolveSamples         float64 // samples_read of every convolve chip
	MACs                    float64
	MaxSamplesPerPixel      float64 // Convolver.SamplesPerPixel(samples)
	ConvolveUtil            float64 // mean over the chips
	FilterCycles            float64 // the busiest chip's filter_cycles (its filter processors' cycles)
	Underruns               float64
	StallCycles             float64
	RequiredPixelRate       float64
	DeliveredPixelRate      float64
}

// runTimed simulates point pt at w x h on its machine.
func runTimed(pt point, w, h int, in *expt.Inputs) (Timed, error) {
	t := Timed{Width: w, Height: h, Samples: pt.samples}
	cfg, err := configs.Parse("sage-study-"+pt.name+".yaml", []byte(pt.machineYAML()))
	if err != nil {
		return t, err
	}
	b := in.Budget()
	s, err := in.Load(pt.scene, w, h, pt.samples, b)
	if err != nil {
		return t, err
	}
	if err := expt.Reserve(b, cfg, s); err != nil {
		return t, err
	}
	p, res, err := configs.RunScene(cfg, s)
	if p != nil && err != nil { // the run failed (not the encoding or the build)
		err = fmt.Errorf("%s at %dx%d, %d samples: %w", pt.scene, w, h, pt.samples, err)
	}
	if err != nil {
		return t, err
	}
	sg := &cfg.Sage
	t.Pipes = sg.Pipes
	t.CoreMHz, t.SchedMHz, t.SampleBufferMHz = cfg.Clocks.CoreMHz, sg.Clocks.SchedMHz, sg.Clocks.SampleBufferMHz
	t.ConvolveMHz, t.VideoReadMHz = sg.Clocks.ConvolveMHz, sg.Clocks.VideoReadMHz
	t.SamplesPerCycle, t.ClearRate = float64(sg.Sched.SamplesPerCycle), float64(sg.SampleBuffer.ClearSamplesPerCycle)
	st := res.Stats
	t.Cycles, t.Seconds = st["GPU.cycles"], st["GPU.frame_seconds"]
	t.Triangles = sum(st, `^GPU\.Distributor\.triangles_p\d+$`)
	t.VSInvocations = sum(st, `^GPU\.Pipe\[\d+\]\.ShaderCore\[\d+\]\.vs_invocations$`)
	t.PipeUtil = each(st, `^GPU\.Pipe\[\d+\]\.ShaderCore\[0\]\.utilization$`)
	t.InterleaveSamples = each(st, `^GPU\.Interleave\[\d+\]\.samples_in$`)
	t.SamplesWritten = sum(st, `^GPU\.Interleave\[\d+\]\.samples_written$`)
	t.ZFailed = sum(st, `^GPU\.Interleave\[\d+\]\.z_failed$`)
	t.CacheHits = sum(st, `^GPU\.Interleave\[\d+\]\.cache_hits$`)
	t.CacheMisses = sum(st, `^GPU\.Interleave\[\d+\]\.cache_misses$`)
	t.Prefetches = sum(st, `^GPU\.Interleave\[\d+\]\.prefetches$`)
	t.PrefetchHits = sum(st, `^GPU\.Interleave\[\d+\]\.prefetch_hits$`)
	t.InterleaveUtil = mean(each(st, `^GPU\.Interleave\[\d+\]\.utilization$`))
	t.InterleaveBusy = mean(each(st, `^GPU\.Interleave\[\d+\]\.cycles_busy$`))
	t.ClearCycles = maxOf(each(st, `^GPU\.Interleave\[\d+\]\.clear_cycles$`))
	t.Barriers = st["GPU.Distributor.barriers"]
	t.BarrierWait = sum(st, `^GPU\.Sched\[\d+\]\.barrier_wait_cycles$`)
	t.Switches = sum(st, `^GPU\.Sched\[\d+\]\.switches$`)
	t.HysteresisHolds = sum(st, `^GPU\.Sched\[\d+\]\.hysteresis_holds$`)

	t.VideoWidth, t.VideoHeight, _, err = cfg.VideoSize(w, h)
	if err != nil {
		return t, err
	}
	t.RefreshHz = sg.Video.RefreshHz
	t.RouteSamples, t.RouteBytes = st["GPU.Route.samples_read"], st["GPU.Route.bytes_out"]
	t.RouteBusy = st["GPU.Route.cycles_busy"]
	t.ConvolvePixels = sum(st, `^GPU\.Convolve\[\d+\]\.pixels$`)
	t.ConvolveSamples = sum(st, `^GPU\.Convolve\[\d+\]\.samples_read$`)
	t.MACs = sum(st, `^GPU\.Convolve\[\d+\]\.macs$`)
	t.ConvolveUtil = mean(each(st, `^GPU\.Convolve\[\d+\]\.utilization$`))
	t.FilterCycles = maxOf(each(st, `^GPU\.Convolve\[\d+\]\.filter_cycles$`))
	t.Underruns, t.StallCycles = st["GPU.Video.underruns"], st["GPU.Video.stall_cycles"]
	t.RequiredPixelRate, t.DeliveredPixelRate = st["GPU.Video.required_pixel_rate"], st["GPU.Video.delivered_pixel_rate"]
	table, err := cfg.SageFilter()
	if err != nil {
		return t, err
	}
	t.MaxSamplesPerPixel = float64(filter.NewConvolver(table).SamplesPerPixel(pt.samples))
	return t, nil
}

// matching returns the counters whose names match pattern, in the order of
// their indices (names sorted by the numbers in them).
func matching(st map[string]float64, pattern string) []string {
	re := regexp.MustCompile(pattern)
	var names []string
	for k := range st {
		if re.MatchString(k) {
			names = append(names, k)
		}
	}
	num := regexp.MustCompile(`\d+`)
	key := func(s string) []int {
		var k []int
		for _, m := range num.FindAllString(s, -1) {
			v, _ := strconv.Atoi(m)
			k = append(k, v)
		}
		return k
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := key(names[i]), key(names[j])
		for x := 0; x < len(a) && x < len(b); x++ {
			if a[x] != b[x] {
				return a[x] < b[x]
			}
		}
		return names[i] < names[j]
	})
	return names
}

func each(st map[string]float64, pattern string) []float64 {
	var v []float64
	for _, n := range matching(st, pattern) {
		v = append(v, st[n])
	}
	return v
}

func sum(st map[string]float64, pattern string) float64 {
	t := 0.0
	for _, v := range each(st, pattern) {
		t += v
	}
	return t
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	t := 0.0
	for _, x := range v {
		t += x
	}
	return t / float64(len(v))
}

func maxOf(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
