package main

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memory"
	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/connections"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/names"
)

// timedSummary prints what a timed frame did: time, per-unit utilization and
// every stall cause, traffic per link and per memory client, cache hit rates and shader work.
func timedSummary(w io.Writer, p *configs.Platform, res *configs.Result, wall time.Duration) {
	st := res.Stats
	fmt.Fprintf(w, "simulated %d core cycles = %.3f ms at %.0f MHz (%.1f frames/s); wall %.1f s, %d Akita events (%.2f M events/s, %.0f k cycles/s)\n",
		res.Cycles, res.Seconds*1e3, p.Config.Clocks.CoreMHz, 1/res.Seconds, wall.Seconds(), res.Events,
		float64(res.Events)/wall.Seconds()/1e6, float64(res.Cycles)/wall.Seconds()/1e3)

	fmt.Fprintln(w, "\nunits:")
	unitTable(w, p, st)

	fmt.Fprintln(w, "\nlinks:")
	var rows [][]string
	for _, l := range p.Links {
		n := l.(interface{ Name() string }).Name()
		if st[n+".bytes"] == 0 {
			continue
		}
		rows = append(rows, []string{n, mb(st[n+".bytes"]), fmt.Sprint(int64(st[n+".messages"])),
			fmt.Sprintf("%.1f%%", 100*busiestLink(st, n)/linkCycles(l, res))})
	}
	expt.Table(w, []string{"link", "MB", "messages", "busiest link busy"}, rows)

	memorySummary(w, st, res.Seconds, p.Config.MemoryConfig())
	pipeMemorySummary(w, st, res.Seconds)

	fmt.Fprintln(w, "\nmemory clients:")
	rows = nil
	clients := map[string][2]float64{}
	for _, k := range names.Keys(st) {
		for _, suffix := range []string{".memory.bytes_read", ".dma.bytes_read", ".l2.bytes_read"} {
			if strings.HasSuffix(k, suffix) {
				n := strings.TrimSuffix(k, suffix)
				base := strings.TrimSuffix(suffix, "bytes_read")
				clients[n] = [2]float64{st[k], st[n+base+"bytes_written"]}
			}
		}
	}
	for _, n := range names.Keys(clients) {
		c := clients[n]
		rows = append(rows, []string{n, mb(c[0]), mb(c[1])})
	}
	expt.Table(w, []string{"client", "MB read", "MB written"}, rows)
	fmt.Fprintln(w, "(each client's bytes at its own port, from the level below it: the L2 for the samplers, the tile memory for a tile unit's "+
		"depth unit and ROP, the memory for the rest; what reached the DRAM is the memory table's)")

	fmt.Fprintln(w, "\ncaches:")
	rows = nil
	for _, k := range names.Keys(st) {
		if strings.HasSuffix(k, "hit_rate") || strings.HasSuffix(k, "hit_rate_line") {
			rows = append(rows, []string{k, fmt.Sprintf("%.1f%%", 100*st[k])})
		}
	}
	expt.Table(w, []string{"cache", "hit rate"}, rows)

	// GPU.ShaderCore[c] on the sort-last and tiled machines, GPU.Pipe[p].ShaderCore[c] on SAGE.
	sc := totals(st, func(k string) bool {
		rest, ok := strings.CutPrefix(k, "GPU.")
		return ok && (strings.HasPrefix(rest, "ShaderCore[") || strings.HasPrefix(rest, "Pipe[") && strings.Contains(rest, "].ShaderCore["))
	})
	ps := sc["ps_invocations"]
	fmt.Fprintf(w, "\nshading: %.0f vertex warps, %.0f pixel warps, %.0f warp instructions (%.0f per lane), helper pixels %.1f%% of %.0f pixel shader invocations\n",
		sc["vertex_warps"], sc["pixel_warps"], sc["instructions"], sc["lane_instructions"], 100*sc["helper_pixels"]/max(1, ps), ps)
	geometrySummary(w, st)
	ropSummary(w, st, res.Cycles)
	decoupledSummary(w, st)
	tiledSummary(w, st)
	videoSummary(w, st)
}

// pipeTextureChannel matches a SAGE pipe's texture memory channel counter:
// GPU.Pipe[p].TextureMemory.Channel[k].<counter>.
var pipeTextureChannel = regexp.MustCompile(`^(GPU\.Pipe\[[0-9]+\]\.TextureMemory)\.Channel\[[0-9]+\]\.([a-z_]+)$`)

// pipeMemorySummary prints, on SAGE, each pipe's own texture memory (which
// carries all its texture traffic and none of the memory table's): its
// channels' bytes, their bandwidth over the frame, read latency (the mean
// over the channels' reads) and row hits (over their bursts).
func pipeMemorySummary(w io.Writer, st map[string]float64, seconds float64) {
	type pipe struct{ channels, read, written, reads, latency, hits, bursts float64 }
	pipes := map[string]*pipe{}
	for _, k := range names.Keys(st) {
		m := pipeTextureChannel.FindStringSubmatch(k)
		if m == nil {
			continue
		}
		pp := pipes[m[1]]
		if pp == nil {
			pp = &pipe{}
			pipes[m[1]] = pp
		}
		v := st[k]
		switch m[2] {
		case "bytes_read":
			pp.channels++
			pp.read += v
		case "bytes_written":
			pp.written += v
		case "reads":
			pp.reads += v
			pp.latency += v * st[strings.TrimSuffix(k, "reads")+"read_latency_avg"]
		case "row_hits":
			pp.hits += v
			pp.bursts += v
		case "row_misses", "row_conflicts":
			pp.bursts += v
		}
	}
	if len(pipes) == 0 {
		return
	}
	fmt.Fprintln(w, "\npipe texture memory:")
	var rows [][]string
	for _, n := range names.Keys(pipes) {
		pp := pipes[n]
		gbs, hits := "-", "-"
		if seconds > 0 {
			gbs = fmt.Sprintf("%.1f", (pp.read+pp.written)/seconds/1e9)
		}
		if pp.bursts > 0 {
			hits = fmt.Sprintf("%.1f%%", 100*pp.hits/pp.bursts)
		}
		rows = append(rows, []string{n, fmt.Sprint(pp.channels), mb(pp.read), mb(pp.written), gbs, hits,
			fmt.Sprintf("%.0f", pp.latency/max(1, pp.reads))})
	}
	expt.Table(w, []string{"memory", "channels", "MB read", "MB written", "GB/s", "row hits", "avg read latency (cycles)"}, rows)
	fmt.Fprintln(w, "(each SAGE pipe's own texture memory, which its samplers read through its L2: GB/s over the frame; latency cycles of the channels' clock)")
}

// videoName matches a SAGE video output's counter: GPU.Video.<counter>, or
// GPU.Video[c].<counter> with two channels.
var videoName = regexp.MustCompile(`^(GPU\.Video(\[[0-9]+\])?)\.([a-z_]+)$`)

// videoSummary prints, on SAGE, what each video output scanned out and how
// far the convolve chips kept up: the pixels, the pixel rate the refresh
// needs against the rate delivered, and the underruns (strict mode: a pixel
// not ready when the clock needed it) or stall cycles (elastic mode: the
// pixel clock waited).
func videoSummary(w io.Writer, st map[string]float64) {
	outs := map[string]bool{}
	for k := range st {
		if m := videoName.FindStringSubmatch(k); m != nil && m[3] == "pixels" {
			outs[m[1]] = true
		}
	}
	for _, n := range names.Keys(outs) {
		c := func(counter string) float64 { return st[n+"."+counter] }
		fmt.Fprintf(w, "\n%s: %.0f pixels scanned out; %.1f Mpixel/s needed, %.1f delivered; %.0f underruns, %.0f stall cycles, %.0f late spans of %.0f\n",
			n, c("pixels"), c("required_pixel_rate")/1e6, c("delivered_pixel_rate")/1e6,
			c("underruns"), c("stall_cycles"), c("late_spans"), c("spans"))
	}
}

// totals sums the counters of the statistics keep accepts by counter name
// (what follows the last dot), adding in key order.
func totals(st map[string]float64, keep func(key string) bool) map[string]float64 {
	sum := map[string]float64{}
	for _, k := range names.Keys(st) {
		if keep(k) {
			sum[k[strings.LastIndex(k, ".")+1:]] += st[k]
		}
	}
	return sum
}

// geometrySummary prints the geometry stage of a frame with geometry shaders
// or stream-out: the GS work on the cores and what it cost them, the GS
// warps primitive assembly reordered and waited for, and the stream-out.
func geometrySummary(w io.Writer, st map[string]float64) {
	pa := func(counter string) float64 { return st["GPU.PrimitiveAssembly."+counter] }
	sc := totals(st, func(k string) bool { return strings.HasPrefix(k, "GPU.ShaderCore[") })
	warps := sc["gs_warps"]
	so := pa("so_primitives_needed")
	if warps == 0 && so == 0 {
		return
	}
	if warps > 0 {
		fmt.Fprintf(w, "\ngeometry shading: %.0f GS warps (%.0f primitives in, %.0f out), %.0f warp instructions; cores' GS admission blocked %.0f cycles on the output buffer, %.0f on the GS warp limit; primitive assembly waited %.0f cycles for a GS warp (%.0f of %.0f warps came back before their turn)\n",
			warps, sc["gs_invocations"], pa("gs_primitives"), sc["gs_instructions"], sc["gs_admit_blocked_output_buffer_cycles"],
			sc["gs_admit_blocked_warps_cycles"], pa("cycles_wait_gs_warp"), pa("gs_warps_reordered"), pa("gs_warps_returned"))
	}
	if so > 0 {
		fmt.Fprintf(w, "stream-out: %.0f of %.0f primitives written (%s MB in %.0f write requests); primitive assembly waited %.0f cycles for it; %.0f DrawAuto counter reads\n",
			pa("so_primitives_written"), so, mb(pa("so_bytes_written")), pa("so_write_requests"), pa("cycles_wait_stream_out"),
			st["GPU.CommandProcessor.draw_auto_reads"])
	}
}

// ropName matches a ROP's counter: GPU.ROP[p].<counter> on the sort-last
// machine, GPU.TileUnit[k].ROP.<counter> on the tiled one.
var ropName = regexp.MustCompile(`^GPU\.(TileUnit\[[0-9]+\]\.)?ROP(\[[0-9]+\])?\.([a-z_]+)$`)

// ropSummary prints the ROPs' quads, their memory and late-Z stalls as a share
// of the ROPs' cycles (every ROP over the frame's cycles), and what became of
// their framebuffer prefetches.
func ropSummary(w io.Writer, st map[string]float64, cycles uint64) {
	sum := map[string]float64{}
	units := 0.0
	for k, v := range st {
		if m := ropName.FindStringSubmatch(k); m != nil {
			sum[m[3]] += v
			if m[3] == "quads_in" {
				units++
			}
		}
	}
	if units == 0 {
		return
	}
	share := func(c float64) float64 { return 100 * c / max(1, units*float64(cycles)) }
	fmt.Fprintf(w, "\nROPs: %.0f quads written; waiting for memory %.1f%% and for late Z %.1f%% of their cycles; colour lines read %.0f (%s MB)\n",
		sum["quads_written"], share(sum["cycles_wait_memory"]), share(sum["cycles_wait_late_z"]),
		sum["cache_line_reads"], mb(sum["bytes_read"]))
	if n := sum["prefetch_issued"]; n > 0 {
		fmt.Fprintf(w, "framebuffer prefetch: %.0f lines issued: %.0f useful, %.0f late, %.0f useless (%.1f%% useful or late)\n",
			n, sum["prefetch_useful"], sum["prefetch_late"], sum["prefetch_useless"],
			100*(sum["prefetch_useful"]+sum["prefetch_late"])/n)
	}
}

// memorySummary prints the "memory:" table of a frame of seconds on memory
// mc: per channel the bytes read and written, the achieved bandwidth (the
// channel's achieved_bandwidth when it reports one, as dramctl channels do:
// bytes over the time to its last response; else its bytes over the frame),
// the theoretical peak (peak_bandwidth, else mc's peak per channel), the
// row-hit rate (row_hit_rate; '-' for channels that report none, as Akita's
// DRAM and the ideal memory), and the average read latency in cycles of the
// channel's clock and in ns; then the totals over the frame.
func memorySummary(w io.Writer, st map[string]float64, seconds float64, mc memory.Config) {
	fmt.Fprintln(w, "\nmemory:")
	var rows [][]string
	var tr, tw float64
	freq := float64(mc.Freq)
	chanPeak := mc.PeakBytesPerNs() / float64(max(1, mc.NumChannels))
	gbs := func(v float64) string { return fmt.Sprintf("%.1f", v) }
	for _, k := range names.Keys(st) {
		if !strings.HasSuffix(k, ".bytes_read") || !strings.HasPrefix(k, "GPU.Memory.Channel") {
			continue
		}
		n := strings.TrimSuffix(k, ".bytes_read")
		r, wr := st[n+".bytes_read"], st[n+".bytes_written"]
		tr += r
		tw += wr
		bw, ok := st[n+".achieved_bandwidth"]
		if !ok && seconds > 0 {
			bw = (r + wr) / seconds / 1e9
		}
		peak, ok := st[n+".peak_bandwidth"]
		if !ok {
			peak = chanPeak
		}
		peakCell, hits := "-", "-"
		if peak > 0 {
			peakCell = gbs(peak)
		}
		if h, ok := st[n+".row_hit_rate"]; ok {
			hits = fmt.Sprintf("%.1f%%", 100*h)
		}
		perACT := "-"
		if b, ok := st[n+".bursts_per_activate"]; ok {
			perACT = fmt.Sprintf("%.2f", b)
		}
		lat := st[n+".read_latency_avg"]
		latNs := "-"
		if freq > 0 {
			latNs = fmt.Sprintf("%.0f", lat/freq*1e9)
		}
		refresh := "-"
		if rc, ok := st[n+".refresh_cycles"]; ok && seconds > 0 && freq > 0 {
			refresh = fmt.Sprintf("%.1f%%", 100*rc/(seconds*freq))
		}
		rows = append(rows, []string{n, mb(r), mb(wr), gbs(bw), peakCell, hits, perACT, refresh, fmt.Sprintf("%.0f", lat), latNs})
	}
	total, peak := "-", "-"
	if seconds > 0 {
		total = gbs((tr + tw) / seconds / 1e9)
	}
	if p := mc.PeakBytesPerNs(); p > 0 {
		peak = gbs(p)
	}
	rows = append(rows, []string{"total", mb(tr), mb(tw), total, peak, "", "", "", "", ""})
	expt.Table(w, []string{"channel", "MB read", "MB written", "GB/s", "peak GB/s", "row hits", "bursts/ACT", "refresh", "avg read latency (cycles)", "(ns)"}, rows)
	fmt.Fprintln(w, "(GB/s: a dramctl channel's bytes over the time to its last response, other channels' and the total's over the frame; "+
		"latency cycles of the channel's clock; row hits (bursts whose row was open when they arrived), bursts/ACT (bursts per activate, "+
		"those that queued together for one activate counted alike), refresh (refresh_cycles over the frame's cycles of the channel's clock): dramctl channels only)")
}

// decoupledSummary prints the decoupled-sampling figures of a timed frame
// whose draws reached the reorder buffer's shading cache: the 5D work, the
// cache's hits, misses, evictions and stall cycles, and the shading savings.
func decoupledSummary(w io.Writer, st map[string]float64) {
	rb := func(counter string) float64 { return sumUnits(st, "ReorderBuffer", counter) }
	hits, misses := rb("cache_hits"), rb("cache_misses")
	if hits+misses == 0 {
		return
	}
	var tests float64
	for k, v := range st {
		if strings.Contains(k, "Rasterizer") && strings.HasSuffix(k, ".sample_tests") {
			tests += v
		}
	}
	mapped := sumUnits(st, "QuadPacker", "samples_mapped")
	sq := rb("shading_quads")
	fmt.Fprintf(w, "\ndecoupled sampling: %.0f 5D sample tests, %.0f visible samples mapped, %.0f visibility quads\n",
		tests, mapped, rb("visibility_quads"))
	fmt.Fprintf(w, "shading cache: %.0f hits (%.0f on entries still shading), %.0f misses, %.0f evictions, hit rate %.1f%%; %.0f cycles stalled with every entry referenced, %.0f on reference counts\n",
		hits, rb("cache_hits_in_flight"), misses, rb("cache_evictions"), 100*hits/(hits+misses),
		rb("cache_all_referenced_cycles"), rb("ref_overflow_cycles"))
	if sq > 0 {
		fmt.Fprintf(w, "shading quads: %.0f (%.0f invocations); savings against supersampling %.2fx (visible samples per invocation)\n",
			sq, 4*sq, mapped/(4*sq))
	}
}

// sumUnits sums counter over the unit named unit: GPU.<unit> on the sort-last
// machine, GPU.TileUnit[k].<unit> over the tile units of the tiled machine.
func sumUnits(st map[string]float64, unit, counter string) float64 {
	t := st["GPU."+unit+"."+counter]
	for k := 0; ; k++ {
		v, ok := st[fmt.Sprintf("GPU.TileUnit[%d].%s.%s", k, unit, counter)]
		if !ok {
			return t
		}
		t += v
	}
}

// eachTileUnit calls f with the statistics prefix of every tile unit
// ("GPU.TileUnit[k].") that counted tiles.
func eachTileUnit(st map[string]float64, f func(prefix string)) {
	for k := 0; ; k++ {
		n := fmt.Sprintf("GPU.TileUnit[%d].", k)
		if _, ok := st[n+"tiles"]; !ok {
			return
		}
		f(n)
	}
}

// tiledSummary prints the tiled machine's binning and tile figures.
func tiledSummary(w io.Writer, st map[string]float64) {
	const b = "GPU.Binner."
	if _, ok := st[b+"primitives"]; !ok {
		return
	}
	var tiles, cycles, peak, maxCycles float64
	eachTileUnit(st, func(n string) {
		tiles += st[n+"tiles"]
		cycles += st[n+"tile_cycles"]
		peak = max(peak, st[n+"tile_memory_peak_bytes"])
		maxCycles = max(maxCycles, st[n+"tile_cycles_max"])
	})
	fmt.Fprintf(w, "\ntiled: %.0f primitives binned into %.0f entries (bin spread %.2f, at most %.0f tiles), %s; bins %.2f MB and parameter buffer %.2f MB written\n",
		st[b+"primitives"], st[b+"bin_entries"], st[b+"bin_spread"], st[b+"bin_spread_max"], expt.Count(int(st["GPU.TileScheduler.passes"]), "pass", "passes"),
		st[b+"bin_bytes_written"]/1e6, st[b+"parameter_bytes_written"]/1e6)
	var binRead, paramRead, load, store, display float64
	eachTileUnit(st, func(n string) {
		binRead += st[n+"bin_bytes_read"]
		paramRead += st[n+"parameter_bytes_read"]
		load += st[n+"load_bytes"]
		store += st[n+"store_bytes"]
		display += st[n+"display_bytes"]
	})
	avg := 0.0
	if tiles > 0 {
		avg = cycles / tiles
	}
	fmt.Fprintf(w, "tiles: %.0f rendered, %.0f cycles each on average (at most %.0f), tile memory peak %.1f KB; read %.2f MB of bins and %.2f MB of primitives, loaded %.2f MB, stored %.2f MB and %.2f MB of displayed pixels\n",
		tiles, avg, maxCycles, peak/1024, binRead/1e6, paramRead/1e6, load/1e6, store/1e6, display/1e6)
	hits, misses := sumUnits(st, "ReorderBuffer", "cache_hits"), sumUnits(st, "ReorderBuffer", "cache_misses")
	if hits+misses > 0 && tiles > 0 {
		fmt.Fprintf(w, "per-tile shading cache: %.1f hits and %.1f misses per tile on average (flushed %.0f times)\n",
			hits/tiles, misses/tiles, sumUnits(st, "ReorderBuffer", "flushes"))
	}
}

// linkCycles returns the cycles of link l's own clock over the frame (a link
// runs on its own clock: SAGE's sample buses and write crossbars at the
// sched's and sample buffer's 100 MHz, the host bus at clocks.host_bus_mhz),
// or the frame's core cycles for a link of another type.
func linkCycles(l any, res *configs.Result) float64 {
	f, ok := linkFreq(l)
	if !ok {
		return float64(res.Cycles)
	}
	return res.Seconds * float64(f)
}

// linkFreq returns the clock of link l, a bus or a crossbar (ok false for a
// link of another type).
func linkFreq(l any) (sim.Freq, bool) {
	switch l := l.(type) {
	case *connections.Bus:
		return l.Freq, true
	case *connections.Crossbar:
		return l.Freq, true
	}
	return 0, false
}

// busiestLink returns the busy cycles of a bus, or of the busiest destination
// link of a crossbar (its links report <name>.To<Dest>.busy_cycles, where
// <Dest> may hold a dot: components whose names end alike take more of their
// names, as SAGE's GPU.MemoryXbar.ToPipe[p].InputAssembler, and a component
// with two ports on the link adds the port's name, as GPU.VideoXbar's
// ToConvolve[c] and ToConvolve[c].FromRoute).
func busiestLink(st map[string]float64, name string) float64 {
	best := -1.0
	for k, v := range st {
		if strings.HasPrefix(k, name+".To") && strings.HasSuffix(k, ".busy_cycles") {
			best = max(best, v)
		}
	}
	if best < 0 {
		return st[name+".busy_cycles"]
	}
	return best
}

// unitTable prints each unit's shares of its cycles: busy, idle/starved,
// stalled, and every stall cause (stats.json has them as
// <unit>.cycles_<state>). A unit counts one state a cycle of its own clock,
// from the frame's start until the frame ends (the SAGE video path: until
// the last video line), so its states sum to its cycles: the core cycles
// for most units, a fifth of them for SAGE's 100 MHz sched and interleave
// chips. A unit that counts no states prints "-".
func unitTable(w io.Writer, p *configs.Platform, st map[string]float64) {
	var rows [][]string
	for _, u := range p.Units {
		n := u.Name()
		a := activityOf(st, n)
		cycles := a.busy + a.idle + a.stalled
		if cycles == 0 {
			rows = append(rows, []string{n, "-", "-", "-", "-"})
			continue
		}
		rows = append(rows, []string{n, share(a.busy, cycles), share(a.idle, cycles), share(a.stalled, cycles), a.stallCauses(cycles)})
	}
	expt.TextTable(w, []string{"unit", "busy", "idle/starved", "stalled", "stalled by cause"}, rows)
	until := "until the frame ends"
	if p.Config.Machine == "sage" {
		until += ", or for the route and convolve chips until the last video line"
	}
	fmt.Fprintf(w, "(shares of each unit's own clock cycles %s: busy + idle/starved + stalled = 100%%, and stalled is the sum of its causes; idle: no work; starved: waiting for input)\n", until)
}

// activity is a unit's frame cycles by state: busy, stalled (every stall
// cause summed; causes lists the non-zero ones, largest first), and idle or
// starved (no work, or waiting for input).
type activity struct {
	busy, stalled, idle float64
	causes              []stallCause
}

// stallCause is one named stall state and its cycles.
type stallCause struct {
	name   string
	cycles float64
}

// activityOf sums a unit's <unit>.cycles_<state> statistics.
func activityOf(st map[string]float64, unit string) activity {
	var a activity
	prefix := unit + ".cycles_"
	for k, v := range st {
		if !strings.HasPrefix(k, prefix) || strings.Contains(k[len(prefix):], ".") {
			continue
		}
		switch s := k[len(prefix):]; s {
		case "busy":
			a.busy += v
		case "idle", "starved":
			a.idle += v
		default:
			a.stalled += v
			if v > 0 {
				a.causes = append(a.causes, stallCause{s, v})
			}
		}
	}
	sort.Slice(a.causes, func(i, j int) bool {
		ci, cj := a.causes[i], a.causes[j]
		return ci.cycles > cj.cycles || ci.cycles == cj.cycles && ci.name < cj.name
	})
	return a
}

// stallCauses is the summary's cell of a's stall causes: each cause and its
// share of the unit's cycles, largest first ("-": the unit never stalled).
func (a activity) stallCauses(cycles float64) string {
	if len(a.causes) == 0 {
		return "-"
	}
	parts := make([]string, len(a.causes))
	for i, c := range a.causes {
		parts[i] = c.name + " " + share(c.cycles, cycles)
	}
	return strings.Join(parts, ", ")
}

// share is v as a percentage of cycles with one decimal; a share that is
// not zero but rounds to 0.0% is "<0.1%".
func share(v, cycles float64) string {
	if v > 0 && 1000*v < 0.5*cycles {
		return "<0.1%"
	}
	return fmt.Sprintf("%.1f%%", 100*v/cycles)
}

func mb(b float64) string { return fmt.Sprintf("%.2f", b/1e6) }
