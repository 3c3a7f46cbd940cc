package study

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/outputs"
)

// Bytes of one sample in the sample buffer: 40-bit RGBA10 colour and a 32-bit
// z; a read-modify-write moves them twice (the paper's "equivalent" DRAM
// bandwidth of a 3DRAM write).
const (
	colourBytes = 5
	depthBytes  = 4
)

// The paper's numbers (Deering and Naegle 2002; ../shared/docs/sage.md section 1).
const (
	paperTrianglesPerPipe = 20e6   // section 3.3: 20 M per pipe
	paperTriangles        = 80e6   // abstract, conclusions: 80 M with four pipes
	paperVerticesPerTri   = 0.5    // section 3.3: asymptotically 1/2 vertex per triangle
	paperFillGBs          = 80     // section 3.3: > 80 GB/s equivalent
	paperFillRatio        = 8      // section 3.3: sample fill 8x a non-supersampled machine's
	paperClearSeconds     = 200e-6 // section 3.5: 1280x1024x8 cleared in < 200 us
	paperVideoSamples     = 1.6e9  // section 7, 10.3: 1.6 G samples/s peak
	paperVideoGBs         = 8      // ~8 GB/s
	paperSamplesPerPixel  = 400    // abstract: 400 samples per output pixel
	paperOps              = 0.4e12 // section 10.3: > 0.4 TFLOPS at 250 MHz, 4 samples
	paperOneSample        = 0.01   // section 10.2: < 1% of pixels off by more than one sample
)

func f0(v float64) string   { return strconv.FormatFloat(v, 'f', 0, 64) }
func f1(v float64) string   { return strconv.FormatFloat(v, 'f', 1, 64) }
func f2(v float64) string   { return strconv.FormatFloat(v, 'f', 2, 64) }
func f3(v float64) string   { return strconv.FormatFloat(v, 'f', 3, 64) }
func pct(v float64) string  { return strconv.FormatFloat(100*v, 'f', 2, 64) + "%" }
func mega(v float64) string { return strconv.FormatFloat(v/1e6, 'f', 1, 64) }
func giga(v float64) string { return strconv.FormatFloat(v/1e9, 'f', 2, 64) }

// writeTables prints the seven tables with their findings and writes one CSV
// file per table.
func writeTables(out string, w io.Writer, p plan, pts []point, rs []Result) error {
	by := map[string]*Result{}
	for i := range pts {
		by[pts[i].name] = &rs[i]
	}
	fmt.Fprintf(w, "sage: %d points; machine configs/sage.yaml; rendering points at %dx%d\n", len(pts), p.w, p.h)
	if t := firstTimed(rs); t != nil {
		fmt.Fprintf(w, "clocks: core (pipes) %g MHz, sched %g MHz, sample buffer (3DRAM) %g MHz, video read (route) %g MHz, convolve %g MHz\n",
			t.CoreMHz, t.SchedMHz, t.SampleBufferMHz, t.VideoReadMHz, t.ConvolveMHz)
	}
	steps := []func(string, io.Writer, plan, map[string]*Result) error{
		tablePipes, tableFill, tableVideo, tableFilters, tableOrder, tableHysteresis, tableBalance,
	}
	for _, s := range steps {
		if err := s(out, w, p, by); err != nil {
			return err
		}
	}
	return nil
}

func firstTimed(rs []Result) *Timed {
	for i := range rs {
		if rs[i].Timed != nil {
			return rs[i].Timed
		}
	}
	return nil
}

func finding(w io.Writer, format string, a ...any) {
	fmt.Fprintf(w, "  finding: "+format+"\n", a...)
}

// frameSeconds is the frame's time at the core clock.
func (t *Timed) frameSeconds() float64 { return t.Cycles / (t.CoreMHz * 1e6) }

// Table 1: triangles per second and vertex reuse.
func tablePipes(out string, w io.Writer, p plan, by map[string]*Result) error {
	fmt.Fprintf(w, "\n1. Triangles per second, 1 to %d pipes (%dx%d, %d samples per pixel; frame = GPU.cycles at the core clock, clear and present included)\n",
		p.pipes[len(p.pipes)-1], p.w, p.h, p.triSamples)
	header := []string{"scene", "pipes", "triangles", "cycles", "frame ms", "M tri/s", "paper M tri/s", "speedup", "vertices/tri", "paper",
		"shader util mean", "max", "min"}
	var rows [][]string
	var best4, best1, speedup4, busiest1 float64
	var worstVerts float64
	var imbalance string
	for _, s := range p.triScenes {
		var one float64
		for _, n := range p.pipes {
			t := by[fmt.Sprintf("pipes-%s-%d", s, n)].Timed
			rate := ratio(t.Triangles, t.frameSeconds())
			if n == p.pipes[0] {
				one = rate
			}
			lo := math.Inf(1)
			for _, u := range t.PipeUtil {
				lo = min(lo, u)
			}
			if n == 1 {
				best1, busiest1 = max(best1, rate), max(busiest1, maxOf(t.PipeUtil))
			}
			if n == 4 && rate > best4 {
				best4, speedup4 = rate, ratio(rate, one)
				imbalance = fmt.Sprintf("%s: the busiest pipe's shader core %s busy, the least %s", s, pct(maxOf(t.PipeUtil)), pct(lo))
			}
			v := ratio(t.VSInvocations, t.Triangles)
			worstVerts = max(worstVerts, v)
			rows = append(rows, []string{s, strconv.Itoa(n), f0(t.Triangles), f0(t.Cycles), f3(1e3 * t.frameSeconds()), mega(rate),
				mega(float64(n) * paperTrianglesPerPipe), f2(ratio(rate, one)), f3(v), f1(paperVerticesPerTri), f2(mean(t.PipeUtil)),
				f2(maxOf(t.PipeUtil)), f2(lo)})
		}
	}
	if err := table(w, out, "pipes.csv", header, rows); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n1b. Vertices shaded per triangle by vertex batch size (reference renderer: the MAJC sees the batch's unique vertices)\n")
	header = []string{"scene", "batch vertices", "triangles", "vertex invocations", "vertices/tri", "paper"}
	rows = nil
	bestReuse := math.Inf(1)
	for _, s := range p.triScenes {
		r := by["reuse-"+s].Reuse
		for i, b := range r.Batches {
			v := ratio(r.VSInvocations[i], r.Triangles)
			bestReuse = min(bestReuse, v)
			rows = append(rows, []string{s, strconv.Itoa(b), f0(r.Triangles), f0(r.VSInvocations[i]), f3(v), "0.5 (asymptotic)"})
		}
	}
	if err := table(w, out, "vertex_reuse.csv", header, rows); err != nil {
		return err
	}
	if best1 > 0 && best1 < paperTrianglesPerPipe {
		finding(w, "one pipe reaches at most %s M triangles/s against the paper's 20 M, its shader core %s busy: the pipe's "+
			"one shader core (the sort-last machine's, at the assumed 500 MHz) runs the vertex work and the pixel shader once "+
			"per covered sample (per-sample shading at %d spp), where the paper's rasterize chip interpolates samples in "+
			"fixed-function hardware and textures once per pixel", mega(best1), pct(busiest1), p.triSamples)
	}
	if best4 > 0 && best4 < paperTriangles {
		finding(w, "four pipes reach at most %s M triangles/s (%sx one pipe) against the paper's 80 M: besides the pipe's "+
			"rate, the distributor balances outstanding triangles, not samples, and gives each pipe a contiguous range of a "+
			"draw, so the pixel work is uneven (%s)", mega(best4), f2(speedup4), imbalance)
	}
	if bestReuse > paperVerticesPerTri {
		finding(w, "at best %s vertices shaded per triangle (timed runs: up to %s at 32-vertex batches) against the paper's "+
			"asymptotic 1/2: the batcher shares vertices only within a batch (at most %d vertices, %d triangles), so every "+
			"batch boundary of a mesh re-shades the vertices on it; 1/2 is the limit of an infinite regular mesh",
			f3(bestReuse), f3(worstVerts), p.batches[len(p.batches)-1], 256)
	}
	return nil
}

// Table 2: sample buffer fill rate and the fast clear.
func tableFill(out string, w io.Writer, p plan, by map[string]*Result) error {
	fmt.Fprintf(w, "\n2. Sample buffer: samples written into the 3DRAMs per second (every sample write: z passed or failed), "+
		"%dx%d; equivalent read-modify-write bandwidth = samples x (%d B colour + %d B z) x 2\n", p.w, p.h, colourBytes, depthBytes)
	header := []string{"scene", "spp", "samples", "frame ms", "G samples/s", "equiv GB/s", "peak G samples/s", "peak equiv GB/s",
		"paper GB/s", "vs 1 spp", "paper", "interleave util", "pipe util"}
	var rows [][]string
	var peakGBs, maxIl float64
	for _, s := range p.fillScenes {
		var one float64
		for _, n := range p.fillSamples {
			t := by[fmt.Sprintf("fill-%s-%d", s, n)].Timed
			samples := sumOf(t.InterleaveSamples)
			rate := ratio(samples, t.frameSeconds())
			if n == p.fillSamples[0] {
				one = rate
			}
			peak := float64(len(t.InterleaveSamples)) * t.SampleBufferMHz * 1e6 * t.SamplesPerCycle
			peakGBs = peak * 2 * (colourBytes + depthBytes) / 1e9
			paperRatio := "-"
			if n == 8 {
				paperRatio = strconv.Itoa(paperFillRatio)
			}
			rows = append(rows, []string{s, strconv.Itoa(n), f0(samples), f3(1e3 * t.frameSeconds()), giga(rate),
				f2(rate * 2 * (colourBytes + depthBytes) / 1e9), giga(peak), f1(peakGBs), "> " + strconv.Itoa(paperFillGBs),
				f2(ratio(rate, one)), paperRatio, f3(t.InterleaveUtil), f3(mean(t.PipeUtil))})
			maxIl = max(maxIl, t.InterleaveUtil)
		}
	}
	if err := table(w, out, "fill.csv", header, rows); err != nil {
		return err
	}
	if peakGBs < paperFillGBs {
		sb := board()
		finding(w, "the sample buffer's peak is %s GB/s equivalent (%d interleaves x %s per cycle at the assumed "+
			"sample_buffer_mhz), below the paper's > 80 GB/s: the paper counts the 3DRAMs' internal bandwidth (%d chips, "+
			"each comparing and blending inside) as commodity DRAM would need it; our interleave writes %s per bus "+
			"cycle (sage.sched.samples_per_cycle %d), a choice, not the paper's figure", f1(peakGBs),
			sb.SampleBuffer.Interleaves, samples(sb.Sched.SamplesPerCycle), sb.SampleBuffer.Interleaves*sb.SampleBuffer.ChipsPerInterleave,
			samples(sb.Sched.SamplesPerCycle), sb.Sched.SamplesPerCycle)
	}
	if maxIl < 0.5 {
		finding(w, "the frames write far below the peak (interleave utilization at most %s): they are not fill-bound. Scenes "+
			"of order-independent draws (room) are bound by per-sample shading in the pipes (pipe util column); scenes of "+
			"blended, order-dependent draws (overdraw) send each draw whole to one pipe with barriers between pipes, so one "+
			"pipe works at a time. The samples/s therefore stay nearly flat with density instead of the paper's 8x sample "+
			"fill at 8 spp", f3(maxIl))
	} else {
		finding(w, "the interleaves are busy up to %s of their cycles: the densest frames come near the sample buffer's "+
			"fill rate", f3(maxIl))
	}

	// The fast clear, from the video point at the clear size.
	var clear *Timed
	for _, v := range p.video {
		if v.W == p.clearW && v.H == p.clearH && v.Samples == p.clearSamples && v.FromW == 0 && v.Map == "" {
			clear = by[videoPointName(v)].Timed
			break
		}
	}
	if clear == nil {
		return fmt.Errorf("no video point at %dx%d, %d samples for the clear", p.clearW, p.clearH, p.clearSamples)
	}
	perInterleave := float64(clear.Width*clear.Height*clear.Samples) / float64(len(clear.InterleaveSamples))
	us := clear.ClearCycles / clear.SampleBufferMHz
	need := math.Ceil(perInterleave / (paperClearSeconds * clear.SampleBufferMHz * 1e6))
	fmt.Fprintf(w, "\n2b. Fast clear of %dx%d at %d samples (simulated: the largest Interleave clear_cycles at %g MHz)\n",
		clear.Width, clear.Height, clear.Samples, clear.SampleBufferMHz)
	header = []string{"raster", "samples/interleave", "clear samples/cycle", "clear cycles", "clear us", "paper us",
		"% of 76 Hz frame", "samples/cycle for 200 us"}
	rows = [][]string{{fmt.Sprintf("%dx%dx%d", clear.Width, clear.Height, clear.Samples), f0(perInterleave), f0(clear.ClearRate),
		f0(clear.ClearCycles), f1(us), "< 200", pct(us * 1e-6 * 76), f0(need)}}
	if err := table(w, out, "clear.csv", header, rows); err != nil {
		return err
	}
	if us*1e-6 >= paperClearSeconds {
		finding(w, "the clear takes %s us, not under 200 us: the 3DRAM clear rate (sage.sample_buffer.clear_samples_per_cycle %s) "+
			"is a choice (the paper gives no rate); %s samples per cycle per interleave at %g MHz would meet it",
			f1(us), f0(clear.ClearRate), f0(need), clear.SampleBufferMHz)
	} else {
		finding(w, "the clear takes %s us at the configured %s samples per cycle: within the paper's < 200 us (at least %s "+
			"samples per cycle per interleave at %g MHz meet it; the rate is a choice, the paper gives none)",
			f1(us), f0(clear.ClearRate), f0(need), clear.SampleBufferMHz)
	}
	return nil
}

func sumOf(v []float64) float64 {
	t := 0.0
	for _, x := range v {
		t += x
	}
	return t
}

func videoPointName(v videoCase) string {
	return point{kind: kindVideo, video: v}.videoName()
}

// Table 3: video reconstruction.
func tableVideo(out string, w io.Writer, p plan, by map[string]*Result) error {
	t0 := by[videoPointName(p.video[0])].Timed
	cv := board().Convolve
	fmt.Fprintf(w, "\n3. Video reconstruction (scene triangle; %d convolve chips at %g MHz, %d filter processors of %s per "+
		"cycle each; route %g MHz): needed = the route's sample reads per frame (each sample once plus the swaths' overlap "+
		"columns) x refresh; delivered = needed x the elastic run's delivered/required pixel rate; MAC = a colour "+
		"multiply-add (4 per sample read); paper-style ops = MACs x 2 (multiply and add) x 2 (coefficient generation, as many "+
		"again, as the paper counts)\n", cv.Chips, t0.ConvolveMHz, cv.Processors, samples(cv.SamplesPerCycle), t0.VideoReadMHz)
	header := []string{"video", "spp", "pixel clock MHz", "needed G samples/s", "GB/s", "delivered G samples/s", "paper G samples/s",
		"paper GB/s", "route samples/clock", "route load", "convolve load", "samples/pixel max", "measured", "paper", "G MAC/s", "T ops/s",
		"T ops/s at 250 M px/s", "paper T ops/s", "underruns (strict)", "stall cycles (elastic)", "keeps up"}
	var rows [][]string
	var behind []string
	var peakOps, peakSamples float64
	for i := 0; i+1 < len(p.video); i += 2 {
		vs, ve := p.video[i], p.video[i+1]
		s, e := by[videoPointName(vs)].Timed, by[videoPointName(ve)].Timed
		needed := e.RouteSamples * e.RefreshHz
		scale := ratio(e.DeliveredPixelRate, e.RequiredPixelRate)
		macs := e.MACs * e.RefreshHz * scale
		ops := 4 * macs
		peakOps, peakSamples = max(peakOps, ops), max(peakSamples, needed)
		keeps := "yes"
		if s.Underruns > 0 {
			keeps = "no"
			if convolveLoad(s) > 1 {
				behind = append(behind, fmt.Sprintf("%s at %d spp", vs.label(), vs.Samples))
			}
		}
		label := vs.label()
		if vs.Capacity > 0 {
			label += " (capacity raised)"
		}
		rows = append(rows, []string{label, strconv.Itoa(vs.Samples), f2(e.RequiredPixelRate / 1e6), giga(needed),
			f2(needed * colourBytes / 1e9), giga(needed * scale), "1.6 (peak)", "8", f1(ratio(e.RouteSamples, e.RouteBusy)),
			f3(routeLoad(s)), f3(convolveLoad(s)), f0(e.MaxSamplesPerPixel),
			f1(ratio(e.ConvolveSamples, e.ConvolvePixels)), strconv.Itoa(paperSamplesPerPixel), f1(macs / 1e9), f3(ops / 1e12),
			f3(4 * ratio(e.MACs, e.ConvolvePixels) * 250e6 / 1e12), "0.4 (4 spp, 250 MHz)",
			f0(s.Underruns), f0(e.StallCycles), keeps})
	}
	if err := table(w, out, "video.csv", header, rows); err != nil {
		return err
	}
	if len(behind) > 0 {
		finding(w, "the convolve chips fall behind the video rate at %v: with %d processors weighing %s per cycle each, "+
			"a pixel costs its samples per pixel in cycles, so a chip at %g MHz filters %g/n M pixels/s at n spp; the paper's "+
			"design point (1.6 G samples/s = 1280x1024 at 76 Hz at 16 spp) needs more samples per processor per cycle "+
			"(sage.convolve.samples_per_cycle, a choice) or a faster clock", behind, cv.Processors, samples(cv.SamplesPerCycle),
			t0.ConvolveMHz, t0.ConvolveMHz*float64(cv.SamplesPerCycle))
	}
	for _, v := range p.video {
		if t := by[videoPointName(v)].Timed; v.Map == "" && v.Mode == "strict" && routeLoad(t) > 1 {
			finding(w, "at %s, %d spp the route chips too need %s of a frame: the route reads %s G samples/s (the raster "+
				"and the swaths' overlap columns at %g Hz) against the chips' %s G at %g MHz, the paper's 1.6 G peak",
				v.label(), v.Samples, pct(routeLoad(t)), giga(t.RouteSamples*t.RefreshHz), t.RefreshHz,
				giga(float64(configs.Default().RouteSamplesPerClock())*t.VideoReadMHz*1e6), t.VideoReadMHz)
		}
		if v.Map == "" || v.Mode != "strict" {
			continue
		}
		base := v
		base.Map = ""
		a, b := by[videoPointName(base)], by[videoPointName(v)]
		if a == nil || b == nil {
			continue
		}
		ta, tb := a.Timed, b.Timed
		verdict := "and the scan-out keeps up"
		if tb.Underruns > 0 {
			verdict = fmt.Sprintf("so the scan-out falls behind (%s underruns, none under the sample map)", f0(tb.Underruns))
			if ta.Underruns > 0 {
				verdict = fmt.Sprintf("so the scan-out falls behind (%s underruns; %s under the sample map)", f0(tb.Underruns),
					f0(ta.Underruns))
			}
		}
		rb, ra := ratio(tb.RouteSamples, tb.RouteBusy), ratio(ta.RouteSamples, ta.RouteBusy)
		why := ""
		if rb < 0.9*ra {
			why = ". The paper's per-sample interleave over packages (section 3.5) is what lets every chip serve every burst"
		}
		finding(w, "at %s, %d spp the route chips read %s samples a clock under the %s map against %s under the "+
			"sample map: the 3DRAMs read their own samples in lock step, so a burst takes its busiest chip's samples in "+
			"clocks, and the %s map puts a scan line's pixels in %s and a pixel's list in chip s mod %d of its interleave; "+
			"the pins are busy %s of a frame (sample map: %s) %s%s", base.label(), v.Samples, f1(rb), v.Map, f1(ra), v.Map,
			mapLines[v.Map], board().SampleBuffer.ChipsPerInterleave, pct(routeLoad(tb)), pct(routeLoad(ta)), verdict, why)
	}
	if peakOps < paperOps {
		finding(w, "at most %s T ops/s delivered against the paper's 0.4: the paper multiplies 400 MACs per pixel (4 spp) "+
			"by its 250 MHz peak pixel rate; our rasters scan out fewer active pixels per second (1280x1024 at 76 Hz: ~100 M), "+
			"the measured samples per pixel are below the window's maximum (border pixels, pruned window corners), and where "+
			"the chips fall behind the delivered rate drops; the column at 250 M px/s puts the measured work per pixel at the "+
			"paper's rate", f3(peakOps/1e12))
	}
	if peakSamples < paperVideoSamples {
		finding(w, "at most %s G samples/s needed, below the paper's 1.6 G peak, which it sized for video overheads and "+
			"fragmentation beyond the active raster", giga(peakSamples))
	}
	return nil
}

// routeLoad is the share of a video frame's video-read clocks the route
// chips spent reading samples (above 1: the scan-out needs more than a frame).
func routeLoad(t *Timed) float64 {
	return ratio(t.RouteBusy*t.RefreshHz, t.VideoReadMHz*1e6)
}

// convolveLoad is the same for the busiest convolve chip's filter processors:
// its filter cycles over a video frame's convolve clocks.
func convolveLoad(t *Timed) float64 {
	return ratio(t.FilterCycles*t.RefreshHz, t.ConvolveMHz*1e6)
}

// mapLines says where a tiled sample buffer map puts a scan line's pixels.
var mapLines = map[string]string{"pixel": "the 4 interleaves of its row of the 4x2 tile",
	"line": "all 8 interleaves (x mod 8)"}

// Table 4: the table-driven filter against the exact one, and section 10.2.
func tableFilters(out string, w io.Writer, p plan, by map[string]*Result) error {
	fmt.Fprintf(w, "\n4. Filters: the convolve chips' table-driven filter against the exact float64 filter (filter.DisplayExact, "+
		"same 5x5 window) on each scene's sample buffer (%dx%d, %d spp); 8-bit output LSBs per channel R G B A\n",
		p.fw, p.fh, p.filterSamples)
	header := []string{"scene", "filter", "mean R", "mean G", "mean B", "mean A", "worst R", "worst G", "worst B", "worst A",
		"> 1 LSB", "negative clamps", "paper"}
	var rows [][]string
	worst := 0
	for _, s := range p.filterScenes {
		r := by["filters-"+s].Filters
		for _, e := range r.Errors {
			for _, x := range e.Worst {
				worst = max(worst, x)
			}
			rows = append(rows, []string{s, e.Filter, f3(e.Mean[0]), f3(e.Mean[1]), f3(e.Mean[2]), f3(e.Mean[3]),
				strconv.Itoa(e.Worst[0]), strconv.Itoa(e.Worst[1]), strconv.Itoa(e.Worst[2]), strconv.Itoa(e.Worst[3]),
				pct(e.Over1), f0(e.NegativeClamps), "barely visible (Fig. 4)"})
		}
	}
	if err := table(w, out, "filters.csv", header, rows); err != nil {
		return err
	}
	if worst > 1 {
		finding(w, "worst difference %d LSBs: the 8-bit float squared distance quantizes the coefficient (0.6-0.7%% of the "+
			"peak for Mitchell, Gaussian, Laplacian; functional/filter doc), which matters most where few coefficients "+
			"carry the sum (strong negative lobes, sharp edges)", worst)
	}
	fmt.Fprintf(w, "\n4b. Section 10.2: the board's 16-sample image (table-driven Mitchell, %dx%d) against a 256-sample exact-filter "+
		"render (%dx%d at 16 spp, Mitchell scaled %dx, centres every %d pixels); one sample's contribution = 255/16 LSBs; RGB\n",
		p.cw, p.ch, checkFactor*p.cw, checkFactor*p.ch, checkFactor, checkFactor)
	header = []string{"scene", "> one sample", "paper", "> 1 LSB", "mean LSB", "worst LSB"}
	rows = nil
	var over []string
	for _, s := range p.checkScenes {
		c := by["check-"+s].Check
		rows = append(rows, []string{s, pct(c.OverOneSample), "< 1%", pct(c.Over1), f3(c.Mean), strconv.Itoa(c.Worst)})
		if c.OverOneSample >= paperOneSample {
			over = append(over, s)
		}
	}
	if err := table(w, out, "check.csv", header, rows); err != nil {
		return err
	}
	if len(over) > 0 {
		finding(w, "%v: 1%% or more of the pixels differ by more than one sample's contribution. The filter arithmetic is "+
			"not the cause (table 4: within 1 LSB of exact). The two renders texture differently: texture coordinates are "+
			"interpolated once per pixel (sage.fill.pixel_rate) and the mip level follows each render's own pixel "+
			"footprint, so the 4x control samples textures two mip levels finer and keeps detail the 16-sample image's mip "+
			"filter removed (the untextured triangle differs far less). PRMan and SAGE in the paper shaded alike; our "+
			"two renders do not", over)
	}
	return nil
}

// Table 5: ordered against unordered rendering.
func tableOrder(out string, w io.Writer, p plan, by map[string]*Result) error {
	fmt.Fprintf(w, "\n5. Ordered against unordered rendering (%dx%d, %d spp; sage.distribution.mode): frame cycles, barriers "+
		"(sync tokens), the scheds' barrier_wait_cycles, mean shader-core utilization of the pipes\n", p.w, p.h, p.orderSamples)
	header := []string{"scene", "mode", "cycles", "vs document", "barriers", "barrier wait cycles", "pipe util", "paper"}
	var rows [][]string
	for _, s := range p.orderScenes {
		base := by[fmt.Sprintf("order-%s-%s", s, p.modes[0])].Timed
		for _, m := range p.modes {
			t := by[fmt.Sprintf("order-%s-%s", s, m)].Timed
			rows = append(rows, []string{s, m, f0(t.Cycles), f3(ratio(t.Cycles, base.Cycles)), f0(t.Barriers), f0(t.BarrierWait),
				f3(mean(t.PipeUtil)), "no figure"})
		}
	}
	expt.Table(w, header, rows)
	same := ""
	if slices.Contains(p.orderScenes, "overdraw") {
		var cycles []float64
		for _, m := range p.modes {
			cycles = append(cycles, by[fmt.Sprintf("order-overdraw-%s", m)].Timed.Cycles)
		}
		if lo, hi := slices.Min(cycles), slices.Max(cycles); hi-lo <= lo/1000 {
			same = fmt.Sprintf(". A scene of blended draws (overdraw) is already ordered in mode document, so the modes cost "+
				"the same there within %s cycles of %s", f0(hi-lo), f0(lo))
		}
	}
	finding(w, "the paper gives no cost for its sync tokens. Mode document sends order-independent draws in chunks over "+
		"every pipe and order-dependent (blended) draws whole to one pipe, with a barrier at each change; ordered sends "+
		"every draw whole to one pipe (a scene of independent draws runs on one pipe at a time); barrier_per_draw keeps the "+
		"chunking but drains the scheds before each draw%s", same)
	return outputs.WriteCSV(filepath.Join(out, "order.csv"), header, rows)
}

// Table 6: the switch hysteresis sweep.
func tableHysteresis(out string, w io.Writer, p plan, by map[string]*Result) error {
	fmt.Fprintf(w, "\n6. Switch hysteresis (sage.sched.hysteresis, samples) on %s (%dx%d, %d spp)\n", p.hystScene, p.w, p.h, p.hystSamples)
	header := []string{"hysteresis", "3DRAM hit rate", "prefetches", "prefetch hits", "switches", "interleave util", "cycles", "paper"}
	var rows [][]string
	for _, h := range p.hysteresis {
		t := by[fmt.Sprintf("hysteresis-%s-%d", p.hystScene, h)].Timed
		rows = append(rows, []string{strconv.Itoa(h), f3(ratio(t.CacheHits, t.CacheHits+t.CacheMisses)), f0(t.Prefetches),
			f0(t.PrefetchHits), f0(t.Switches), f3(t.InterleaveUtil), f0(t.Cycles), "\"good cache locality\" (no figure)"})
	}
	expt.Table(w, header, rows)
	hLast := p.hysteresis[len(p.hysteresis)-1]
	first, last := by[fmt.Sprintf("hysteresis-%s-%d", p.hystScene, p.hysteresis[0])].Timed,
		by[fmt.Sprintf("hysteresis-%s-%d", p.hystScene, hLast)].Timed
	switch r := ratio(last.Cycles, first.Cycles); {
	case r < 1:
		finding(w, "the frame takes %s of its cycles at hysteresis %d against %d: a sched sends one message per interleave "+
			"per cycle, and a grant that changes source after few samples sends short bursts, each followed by a snoop "+
			"prefetch", pct(r), hLast, p.hysteresis[0])
	case r == 1:
		finding(w, "the frame takes the same cycles at hysteresis %d as at %d: the scheds' grants do not bound this frame",
			hLast, p.hysteresis[0])
	default:
		finding(w, "the frame takes %s of its cycles at hysteresis %d against %d: long grants keep the other sources waiting",
			pct(r), hLast, p.hysteresis[0])
	}
	var rates []float64
	for _, h := range p.hysteresis {
		t := by[fmt.Sprintf("hysteresis-%s-%d", p.hystScene, h)].Timed
		rates = append(rates, ratio(t.CacheHits, t.CacheHits+t.CacheMisses))
	}
	up, down := slices.IsSorted(rates), slices.IsSortedFunc(rates, func(a, b float64) int { return cmp.Compare(b, a) })
	switch {
	case up && down:
		finding(w, "the 3DRAM hit rate is %s at every hysteresis", f3(rates[0]))
	case down:
		finding(w, "the 3DRAM hit rate falls from %s to %s as the hysteresis grows, and the snoop prefetches from %s to %s: "+
			"short grants issue many prefetches, whose hits count as cache hits", f3(rates[0]), f3(rates[len(rates)-1]),
			f0(first.Prefetches), f0(last.Prefetches))
	case up:
		finding(w, "the 3DRAM hit rate rises from %s to %s as the hysteresis grows: longer grants keep a source's samples "+
			"together", f3(rates[0]), f3(rates[len(rates)-1]))
	default:
		finding(w, "the 3DRAM hit rate is not monotonic (%s at hysteresis %d, %s at %d): short grants issue many "+
			"prefetches whose hits count as cache hits, long grants keep a source's samples together",
			f3(rates[0]), p.hysteresis[0], f3(rates[len(rates)-1]), hLast)
	}
	return outputs.WriteCSV(filepath.Join(out, "hysteresis.csv"), header, rows)
}

// Table 7: interleave balance, under the configuration's sample map and each
// of p.fillMaps.
func tableBalance(out string, w io.Writer, p plan, by map[string]*Result) error {
	fmt.Fprintf(w, "\n7. Interleave balance: samples written per interleave, max/mean and min/mean (the fill points of table 2), "+
		"under each sample buffer map (sage.sample_buffer.map; sample: the configuration's); 3DRAM hit rate and frame cycles\n")
	header := []string{"map", "scene", "spp", "interleaves", "mean samples", "max/mean", "min/mean", "3DRAM hit rate", "cycles"}
	var rows [][]string
	worst := map[string]float64{}
	var worstAt = map[string]string{}
	maps := append([]string{"sample"}, p.fillMaps...)
	for _, sm := range maps {
		for _, s := range p.fillScenes {
			for _, n := range p.fillSamples {
				t := by[fillName(s, n, sm)].Timed
				m := mean(t.InterleaveSamples)
				lo := math.Inf(1)
				for _, x := range t.InterleaveSamples {
					lo = min(lo, x)
				}
				hi := ratio(maxOf(t.InterleaveSamples), m)
				if hi > worst[sm] {
					worst[sm], worstAt[sm] = hi, fmt.Sprintf("%s at %d spp", s, n)
				}
				rows = append(rows, []string{sm, s, strconv.Itoa(n), strconv.Itoa(len(t.InterleaveSamples)), f0(m),
					f3(hi), f3(ratio(lo, m)), f3(ratio(t.CacheHits, t.CacheHits+t.CacheMisses)), f0(t.Cycles)})
			}
		}
	}
	if err := table(w, out, "balance.csv", header, rows); err != nil {
		return err
	}
	where := map[string]string{"pixel": "the interleave of its place in a 4x2 tile", "line": "interleave x mod 8"}
	for _, sm := range maps[1:] {
		finding(w, "the busiest interleave takes %s times the mean under the sample map (%s) and %s under the %s map (%s): "+
			"the sample map puts sample s of every pixel in interleave s mod 8, so at 8 and 16 spp every covered pixel loads "+
			"all interleaves alike and only partial coverage unbalances them; the %s map puts a pixel's samples in "+
			"%s, so the balance follows how evenly the scene covers those places",
			f3(worst["sample"]), worstAt["sample"], f3(worst[sm]), sm, worstAt[sm], sm, where[sm])
		var cmpRows []string
		for _, s := range p.fillScenes {
			a, b := by[fillName(s, p.hystSamples, "sample")], by[fillName(s, p.hystSamples, sm)]
			if a == nil || b == nil {
				continue
			}
			ta, tb := a.Timed, b.Timed
			cmpRows = append(cmpRows, fmt.Sprintf("%s: hit rate %s against %s, %s of the cycles", s,
				f3(ratio(tb.CacheHits, tb.CacheHits+tb.CacheMisses)), f3(ratio(ta.CacheHits, ta.CacheHits+ta.CacheMisses)),
				pct(ratio(tb.Cycles, ta.Cycles))))
		}
		if len(cmpRows) > 0 {
			finding(w, "at %d spp the %s map against the sample map: %s (under the %s map a pixel's samples sit in "+
				"consecutive rows of its interleave's chips, so its 8 samples fall in 4 cache blocks, 2 in each; under the sample map in "+
				"8, one in each of 8 chips)", p.hystSamples, sm,
				strings.Join(cmpRows, "; "), sm)
		}
	}
	return nil
}

// table prints rows under header and writes them to out/name as CSV.
func table(w io.Writer, out, name string, header []string, rows [][]string) error {
	expt.Table(w, header, rows)
	return outputs.WriteCSV(filepath.Join(out, name), header, rows)
}

// board is the SAGE board the study simulates (configs/sage.yaml, embedded),
// whose sizes the findings' text names.
func board() configs.Sage { return configs.Default().Sage }

// samples is "one sample" or "n samples".
func samples(n int) string {
	if n == 1 {
		return "one sample"
	}
	return fmt.Sprintf("%d samples", n)
}
