package configs

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memory"
	"github.com/gfxsim/gfxsim/internal/teststats"
)

// TestStatisticsIdentities runs small frames on every machine (sort-last on
// gfxsim's DRAM controller, on Akita's DRAM and on the ideal memory with
// framebuffer prefetch, decoupled sampling, the tiled machine, SAGE) and
// checks the conservation laws their statistics must obey: what a client sent
// to memory is what the memory counted for it, every cache's hits and misses
// add up to its look-ups and its misses to their outcomes, what one pipeline
// stage passed on is what the next took (on SAGE: samples, bursts, spans and
// pixels from the sample fill through the scheds and interleaves, and from the
// route through the convolve chips to the video output, with the bytes each
// message carries; on the tiled machine: primitives and bytes from the binner
// through the bins to the tile units, and each tile unit's stages), every
// link's messages and bytes are the sums over its message kinds and a
// crossbar's over its destination links, the command processor's commands
// are the sum by opcode and its DMA what the host interface served, every rate
// is its counters' ratio, and every unit's activity states add up to the frame
// on its own clock.
// Each identity is exact and is checked on every unit it finds; a machine
// where it finds none of its units is an error of the test.
func TestStatisticsIdentities(t *testing.T) {
	words, patterns := statDocCorpus(t)
	for _, tc := range []struct {
		name, yaml, scene string
		samples           int
		want              []string // identities that must find units on this machine
	}{
		{"sortlast", "memory: {coherence_check: true}\n", "room", 4, []string{"rtcache", "l2", "sampler", "channel clients", "dram", "sort-last flow", "shader", "links", "crossbars", "command processor", "activity cycles"}},
		{"akita-dram", overlay("akita-dram.yaml"), "room", 4, []string{"rtcache", "l2", "sampler", "sort-last flow"}},
		{"ideal, prefetch", "memory: {type: ideal}\nrop: {prefetch_distance: 8}\n", "room", 4, []string{"rtcache", "prefetch", "l2", "sort-last flow"}},
		{"decoupled", "", "motion", 0, []string{"rtcache", "channel clients", "dram", "sort-last flow", "shading cache", "shader", "command processor", "activity cycles"}},
		{"sortmiddle", "machine: sortmiddle\n", "room", 4, []string{"rtcache", "l2", "sampler", "channel clients", "dram", "shader", "tiled flow", "command processor", "activity cycles"}},
		{"sage", "machine: sage\n", "room", 4, []string{"l2", "sampler", "channel clients", "dram", "shader", "sage flow", "links", "crossbars", "command processor", "activity cycles"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := machine(t, tc.name, tc.yaml)
			_, f := frameWith(t, tc.scene, 160, 90, tc.samples, c.DriverOptions())
			p, res := timedOn(t, c, f)
			found := checkIdentities(t, c, res)
			found["activity cycles"] = checkActivityCycles(t, p, res)
			for _, w := range tc.want {
				if found[w] == 0 {
					t.Errorf("identity %q found no unit to check", w)
				}
			}
			checkDocumented(t, res.Stats, words, patterns)
		})
	}
}

// checkActivityCycles checks that every unit's activity states add up to the
// frame on its own clock: its cycles up to the frame's end (the scan-out's
// end for SAGE's video path), none counted twice or left out. It returns the
// number of units checked.
func checkActivityCycles(t *testing.T, p *Platform, res *Result) int {
	t.Helper()
	end := sim.VTimeInSec(res.Seconds)
	videoEnd := end
	if p.Sage != nil {
		videoEnd = max(end, p.Sage.videoFinishTime())
	}
	n := 0
	for _, u := range p.Units {
		clocked, ok := u.(interface{ Frequency() sim.Freq })
		if !ok {
			continue
		}
		sum, states := 0.0, 0
		for k, v := range res.Stats {
			if st, ok := strings.CutPrefix(k, u.Name()+".cycles_"); ok && !strings.Contains(st, ".") {
				sum += v
				states++
			}
		}
		if states == 0 {
			continue
		}
		e := end
		if p.Sage != nil && p.Sage.isVideo(u) {
			e = videoEnd
		}
		n++
		if want := float64(clocked.Frequency().Cycle(e)); sum != want {
			t.Errorf("activity cycles: %s's %d states add up to %v cycles, want the frame's %v (off by %v)",
				u.Name(), states, sum, want, sum-want)
		}
	}
	return n
}

// checkIdentities checks every identity on the statistics of res (machine c)
// and returns how many units each identity checked, by its name.
func checkIdentities(t *testing.T, c *Config, res *Result) map[string]int {
	t.Helper()
	s := teststats.Stats(res.Stats)
	found := map[string]int{}
	eq := func(id, what string, got, want float64) {
		t.Helper()
		found[id]++
		if got != want {
			t.Errorf("%s: %s: %v, want %v (off by %v)", id, what, got, want, got-want)
		}
	}
	ratio := func(id, what string, got, num, den float64) {
		t.Helper()
		found[id]++
		want := 0.0
		if den > 0 {
			want = num / den
		}
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: %s: %v, want %v / %v = %v", id, what, got, num, den, want)
		}
	}

	// Render-target caches (ROP colour, depth unit, HiZ; components/rop/rtcache).
	for _, u := range s.Units(".cache_line_reads") {
		g := func(c string) float64 { return s[u+"."+c] }
		if _, ok := s[u+".cache_hits"]; !ok {
			continue
		}
		ratio("rtcache", u+" cache_hit_rate", g("cache_hit_rate"), g("cache_hits"), g("cache_hits")+g("cache_misses"))
		// A miss is merged into a read in flight, filled from a fast clear,
		// allocated for a whole-line overwrite, or read; a prefetch read is
		// counted in cache_line_reads but is no miss (a demand miss finding
		// it in flight is a merged miss).
		eq("rtcache", u+" cache_misses + prefetch_issued = merged + cleared fills + overwrite fills + line reads",
			g("cache_misses")+g("prefetch_issued"),
			g("cache_misses_merged")+g("cache_cleared_fills")+g("cache_overwrite_fills")+g("cache_line_reads"))
		eq("rtcache", u+" memory.reads = cache_line_reads", g("memory.reads"), g("cache_line_reads"))
		eq("rtcache", u+" memory.writes = write-backs + uncached line writes", g("memory.writes"), g("cache_write_backs")+g("cache_line_writes_uncached"))
		eq("rtcache", u+" bytes_read = memory.bytes_read", g("bytes_read"), g("memory.bytes_read"))
		eq("rtcache", u+" bytes_written = memory.bytes_written", g("bytes_written"), g("memory.bytes_written"))
		if _, ok := s[u+".cache_line_reads_compressed"]; ok {
			eq("rtcache", u+" line reads + write-backs = compressed + uncompressed + unusable",
				g("cache_line_reads")+g("cache_write_backs"),
				g("cache_line_reads_compressed")+g("cache_line_reads_uncompressed")+g("cache_write_backs_compressed")+
					g("cache_write_backs_uncompressed")+g("cache_compression_unusable"))
		}
		if g("prefetch_issued") > 0 {
			// At the frame's end (the present flushes every line) each
			// prefetch was useful, late or useless.
			eq("prefetch", u+" prefetch_issued = useful + late + useless", g("prefetch_issued"),
				g("prefetch_useful")+g("prefetch_late")+g("prefetch_useless"))
		}
	}

	// L2 banks: every read and write is counted once in one outcome.
	for _, b := range s.Units(".read_mshr_hits") {
		g := func(c string) float64 { return s[b+"."+c] }
		eq("l2", b+" reads = read hits + misses + MSHR hits", g("reads"), g("read_hits")+g("read_misses")+g("read_mshr_hits"))
		eq("l2", b+" writes = write hits + misses + MSHR hits", g("writes"), g("write_hits")+g("write_misses")+g("write_mshr_hits"))
		ratio("l2", b+" read_hit_rate", g("read_hit_rate"), g("read_hits"), g("reads"))
	}

	// Texture samplers, and their L2 (GPU.L2 on the sort-last and tiled
	// machines, GPU.Pipe[p].TextureL2 of each SAGE pipe).
	for _, u := range s.Units(".l1_lookups") {
		g := func(c string) float64 { return s[u+"."+c] }
		eq("sampler", u+" l1_lookups = l1_hits + l1_misses", g("l1_lookups"), g("l1_hits")+g("l1_misses"))
		eq("sampler", u+" fill_lines = l1_misses - merged_misses", g("fill_lines"), g("l1_misses")-g("merged_misses"))
		eq("sampler", u+" l2_reads = l2.reads", g("l2_reads"), g("l2.reads"))
		eq("sampler", u+" bytes_read_l2 = l2.bytes_read", g("bytes_read_l2"), g("l2.bytes_read"))
		eq("sampler", u+" requests = responses", g("requests"), g("responses"))
		ratio("sampler", u+" hit_rate_line", g("hit_rate_line"), g("l1_hits"), g("l1_lookups"))
		ratio("sampler", u+" hit_rate_texel", g("hit_rate_texel"), g("texel_hits"), g("texels"))
	}
	// The samplers, their L2 banks and the shader cores they serve: all of
	// them on the sort-last and tiled machines; on SAGE pipe p's core and
	// TextureL2 with GPU.TextureSampler[p] (named outside its pipe).
	groups := [][3]string{{`GPU\.TextureSampler\[\d+\]\.`, `GPU\.L2\.Bank\[\d+\]\.`, `GPU\.ShaderCore\[\d+\]\.`}}
	if c.Machine == "sage" {
		groups = nil
		for p := 0; p < c.Sage.Pipes; p++ {
			groups = append(groups, [3]string{fmt.Sprintf(`GPU\.TextureSampler\[%d\]\.`, p),
				fmt.Sprintf(`GPU\.Pipe\[%d\]\.TextureL2\.Bank\[\d+\]\.`, p), fmt.Sprintf(`GPU\.Pipe\[%d\]\.ShaderCore\[\d+\]\.`, p)})
		}
	}
	for _, gr := range groups {
		smp, banks, cores := gr[0], gr[1], gr[2]
		eq("sampler", smp+": samplers' L2 reads = their L2 banks' reads", s.Sum(smp+`l2\.reads`), s.Sum(banks+"reads"))
		eq("sampler", smp+": samplers' L2 bytes = their L2 banks' bytes_read", s.Sum(smp+`l2\.bytes_read`), s.Sum(banks+"bytes_read"))
		eq("sampler", smp+": shader cores' texture requests = the samplers'", s.Sum(cores+"texture_requests"), s.Sum(smp+"requests"))
		eq("sampler", smp+": shader cores' texture lane requests = the samplers' lanes", s.Sum(cores+"texture_lane_requests"), s.Sum(smp+"lanes"))
	}
	if _, ok := s["GPU.TextureTraffic.other.l2_bytes"]; ok {
		eq("sampler", "texture traffic by texture: L2 bytes = the L2 banks' bytes_read", s.Sum(`GPU\.TextureTraffic\.[^.]+\.l2_bytes`), s.Sum(`GPU\.L2\.Bank\[\d+\]\.bytes_read`))
		if c.MemoryConfig().Type == memory.TypeDRAMCtl {
			eq("sampler", "texture traffic by texture: DRAM bytes = the L2 banks' bytes at the channels",
				s.Sum(`GPU\.TextureTraffic\.[^.]+\.dram_bytes`), s.Sum(`GPU\.Memory\.Channel\[\d+\]\.client_bytes\[GPU\.L2\.Bank\[\d+\]\.BottomPort\]`))
		}
	}

	// Memory channels: the clients' bytes add up to each channel's, and each
	// client's bytes over the channels are what the client counted.
	clients := map[string]float64{}
	for _, ch := range s.Units(".bytes_read") {
		if !regexp.MustCompile(`^GPU\.Memory\.Channel\[\d+\]$`).MatchString(ch) {
			continue
		}
		g := func(c string) float64 { return s[ch+"."+c] }
		per := 0.0
		for k, v := range s {
			if n, ok := strings.CutPrefix(k, ch+".client_bytes["); ok {
				per += v
				clients[strings.TrimSuffix(n, "]")] += v
			}
		}
		if _, ok := s[ch+".row_hits"]; !ok {
			continue
		}
		eq("channel clients", ch+" client_bytes sum = bytes_read + bytes_written", per, g("bytes_read")+g("bytes_written"))
		bursts := g("row_hits") + g("row_misses") + g("row_conflicts")
		ratio("dram", ch+" row_hit_rate", g("row_hit_rate"), g("row_hits"), bursts)
		// A bank closes each row it opens (a precharge) or leaves it open at
		// the end. (Activates are not bounded by row misses + conflicts: a
		// refresh may close a row opened for a burst before its column
		// command, which then opens it again.)
		found["dram"]++
		if act, pre := g("activates"), g("precharges"); pre > act || act-pre > float64(c.MemoryConfig().DRAMCtl.WithDefaults().Geometry.TotalBanks()) {
			t.Errorf("dram: %s: %v activates, %v precharges", ch, act, pre)
		}
		if tm := c.MemoryConfig().DRAMCtl.WithDefaults(); tm.Refresh {
			// One all-bank refresh per tREFI of the frame (in the channel's
			// clock), at most the JEDEC postponement behind.
			due := math.Floor(res.Seconds * 1e12 / float64(tm.Timing.TCKps) / float64(tm.Timing.TREFI))
			found["dram"]++
			if r := g("refreshes"); r > due || r < due-8 {
				t.Errorf("dram: %s: %v refreshes in %v s, %v tREFI periods", ch, r, res.Seconds, due)
			}
			eq("dram", ch+" refresh_cycles = refreshes x tRFC", g("refresh_cycles"), g("refreshes")*float64(tm.Timing.TRFC))
		}
	}
	for cl, v := range clients {
		u, ok := strings.CutSuffix(cl, ".ToMemory")
		var want float64
		switch {
		case !ok:
			// An L2 bank's misses: a line read each (the L2 only reads here).
			b := strings.TrimSuffix(cl, ".BottomPort")
			if s[b+".writes"] != 0 {
				continue
			}
			want = s[b+".read_misses"] * float64(c.L2.LineBytes)
		case u == "GPU.HostInterface":
			want = s[u+".bytes_read"] + s[u+".bytes_written"]
		default:
			want = s[u+".memory.bytes_read"] + s[u+".memory.bytes_written"]
		}
		eq("channel clients", cl+" bytes at the channels = the client's own count", v, want)
	}

	// Pipeline flow of the sort-last machine: quads and samples out of one
	// stage are those into the next.
	if _, ok := s["GPU.QuadPacker.quads"]; ok {
		sumU := func(unit, counter string) float64 { return s.Sum(`GPU\.` + unit + `(\[\d+\])?\.` + counter) }
		rast := sumU("Rasterizer", "quads")
		du := rast
		if _, ok := s["GPU.HiZ[0].quads_in"]; ok {
			eq("sort-last flow", "rasterizers' quads = HiZ quads_in", sumU("HiZ", "quads_in"), rast)
			eq("sort-last flow", "HiZ quads_out = quads_in - quads_culled", sumU("HiZ", "quads_out"), rast-sumU("HiZ", "quads_culled"))
			eq("sort-last flow", "rasterizers' tiles = HiZ tiles_in", sumU("HiZ", "tiles_in"), sumU("Rasterizer", "tiles_emitted"))
			eq("sort-last flow", "HiZ tiles_out = depth units' tiles_in", sumU("HiZ", "tiles_out"), sumU("DepthUnit", "tiles_in"))
			du = sumU("HiZ", "quads_out")
		}
		eq("sort-last flow", "depth units' quads_in", sumU("DepthUnit", "quads_in"), du)
		eq("sort-last flow", "depth units' quads_out = quads_in - culled by early Z", sumU("DepthUnit", "quads_out"), du-sumU("DepthUnit", "quads_culled_early_z"))
		eq("sort-last flow", "depth units' tiles_out = tiles_in - tiles_culled", sumU("DepthUnit", "tiles_out"), sumU("DepthUnit", "tiles_in")-sumU("DepthUnit", "tiles_culled"))
		eq("sort-last flow", "depth units' samples tested = passed + failed",
			sumU("DepthUnit", "samples_tested_early")+sumU("DepthUnit", "samples_tested_late"), sumU("DepthUnit", "samples_passed")+sumU("DepthUnit", "samples_failed"))
		out := sumU("DepthUnit", "quads_out")
		eq("sort-last flow", "depth units' quads_out = the packer's quads + visibility quads", s["GPU.QuadPacker.quads"]+s["GPU.QuadPacker.visibility_quads"], out)
		eq("sort-last flow", "packer quads = reorder buffer quads", s["GPU.ReorderBuffer.quads"], s["GPU.QuadPacker.quads"])
		eq("sort-last flow", "packer warps = reorder buffer warps", s["GPU.ReorderBuffer.warps"], s["GPU.QuadPacker.warps"])
		eq("sort-last flow", "reorder buffer quads retired", s["GPU.ReorderBuffer.retired_quads"], s["GPU.ReorderBuffer.quads"])
		eq("sort-last flow", "packer visibility quads = reorder buffer's", s["GPU.ReorderBuffer.visibility_quads"], s["GPU.QuadPacker.visibility_quads"])
		eq("sort-last flow", "ROPs' quads_in = reorder buffer's retired quads + visibility quads", sumU("ROP", "quads_in"), s["GPU.ReorderBuffer.retired_quads"]+s["GPU.ReorderBuffer.visibility_quads"])
		eq("sort-last flow", "ROPs' quads_in = discarded + culled by late Z + written", sumU("ROP", "quads_in"),
			sumU("ROP", "quads_discarded")+sumU("ROP", "quads_late_z_culled")+sumU("ROP", "quads_written"))
		eq("sort-last flow", "primitive assembly's primitives sent = rasterizers' primitives", s.Sum(`GPU\.PrimitiveAssembly\.primitives_sent_r\d+`), sumU("Rasterizer", "primitives"))
		eq("sort-last flow", "pixel warps = packer warps + shading warps", s.Sum(`GPU\.ShaderCore\[\d+\]\.pixel_warps`), s["GPU.QuadPacker.warps"]+s["GPU.ReorderBuffer.shading_warps"])
		eq("sort-last flow", "pixel shader invocations = 4 x (packer quads + shading quads)", s.Sum(`GPU\.ShaderCore\[\d+\]\.ps_invocations`), 4*(s["GPU.QuadPacker.quads"]+s["GPU.ReorderBuffer.shading_quads"]))
		eq("sort-last flow", "vertex shader invocations = input assembler vertices", s.Sum(`GPU\.ShaderCore\[\d+\]\.vs_invocations`), s["GPU.InputAssembler.vertices"])
		eq("sort-last flow", "vertex warps = input assembler batches", s.Sum(`GPU\.ShaderCore\[\d+\]\.vertex_warps`), s["GPU.InputAssembler.batches"])
	}

	// Flow of the tiled machine: what the binner wrote is what the tile units
	// read, tile by tile, and each tile unit's stages pass on what they take.
	if _, ok := s["GPU.Binner.bin_entries"]; ok {
		sumT := func(counter string) float64 { return s.Sum(`GPU\.TileUnit\[\d+\]\.` + counter) }
		eq("tiled flow", "primitive assembly's primitives sent = the binner's primitives", s["GPU.PrimitiveAssembly.primitives_sent_r0"], s["GPU.Binner.primitives"])
		eq("tiled flow", "the binner's bin entries = the tile units' primitives", sumT("primitives"), s["GPU.Binner.bin_entries"])
		eq("tiled flow", "bin bytes written = bin bytes read", sumT("bin_bytes_read"), s["GPU.Binner.bin_bytes_written"])
		eq("tiled flow", "the binner's memory writes = bin + parameter bytes", s["GPU.Binner.memory.bytes_written"],
			s["GPU.Binner.bin_bytes_written"]+s["GPU.Binner.parameter_bytes_written"])
		eq("tiled flow", "tiles handed out = the tile units' tiles", sumT("tiles"), s["GPU.TileScheduler.tiles"])
		eq("tiled flow", "pixel warps = the tile units' packer warps", s.Sum(`GPU\.ShaderCore\[\d+\]\.pixel_warps`), sumT(`QuadPacker\.warps`))
		eq("tiled flow", "vertex shader invocations = input assembler vertices", s.Sum(`GPU\.ShaderCore\[\d+\]\.vs_invocations`), s["GPU.InputAssembler.vertices"])
		for k := 0; ; k++ {
			u := fmt.Sprintf("GPU.TileUnit[%d]", k)
			if _, ok := s[u+".tiles"]; !ok {
				break
			}
			g := func(c string) float64 { return s[u+"."+c] }
			eq("tiled flow", u+" tiles = the scheduler's to it", g("tiles"), s[fmt.Sprintf("GPU.TileScheduler.tiles_u%d", k)])
			eq("tiled flow", u+" memory reads = load + bin + parameter bytes", g("memory.bytes_read"), g("load_bytes")+g("bin_bytes_read")+g("parameter_bytes_read"))
			eq("tiled flow", u+" memory writes = store + display bytes", g("memory.bytes_written"), g("store_bytes")+g("display_bytes"))
			eq("tiled flow", u+" primitives = its rasterizer's", g("Rasterizer.primitives"), g("primitives"))
			eq("tiled flow", u+" rasterizer quads = depth unit quads_in", g("DepthUnit.quads_in"), g("Rasterizer.quads"))
			eq("tiled flow", u+" rasterizer tiles = depth unit tiles_in", g("DepthUnit.tiles_in"), g("Rasterizer.tiles_emitted"))
			eq("tiled flow", u+" depth unit quads_out = packer quads + visibility quads", g("DepthUnit.quads_out"), g("QuadPacker.quads")+g("QuadPacker.visibility_quads"))
			eq("tiled flow", u+" packer quads = reorder buffer quads", g("ReorderBuffer.quads"), g("QuadPacker.quads"))
			eq("tiled flow", u+" ROP quads_in = reorder buffer retired + visibility quads", g("ROP.quads_in"), g("ReorderBuffer.retired_quads")+g("ReorderBuffer.visibility_quads"))
		}
	}

	// The shading cache of decoupled sampling (each reorder buffer).
	for _, rb := range s.Units(".shading_quads") {
		g := func(c string) float64 { return s[rb+"."+c] }
		if g("visibility_quads") == 0 {
			continue
		}
		eq("shading cache", rb+" cache_misses = shading_quads", g("cache_misses"), g("shading_quads"))
		eq("shading cache", rb+" visibility_records = visibility_quads + record_splits", g("visibility_records"), g("visibility_quads")+g("record_splits"))
		eq("shading cache", rb+" retired_records = visibility_records", g("retired_records"), g("visibility_records"))
		eq("shading cache", rb+" shaded_shading_warps = shading_warps", g("shaded_shading_warps"), g("shading_warps"))
		found["shading cache"]++
		if g("cache_hits_in_flight") > g("cache_hits") || g("cache_evictions")+g("cache_entries_flushed") > g("cache_misses") ||
			g("cache_misses")-g("cache_evictions")-g("cache_entries_flushed") > float64(c.ReorderBuffer.ShadingCacheEntries) {
			t.Errorf("shading cache: %s: %v hits (%v in flight), %v misses, %v evictions, %v flushed, %d entries", rb,
				g("cache_hits"), g("cache_hits_in_flight"), g("cache_misses"), g("cache_evictions"), g("cache_entries_flushed"), c.ReorderBuffer.ShadingCacheEntries)
		}
	}

	// Shader cores, primitive assembly, input assembler, rasterizers (every machine).
	for _, u := range s.Units(".ps_lane_instructions") {
		g := func(c string) float64 { return s[u+"."+c] }
		eq("shader", u+" instructions = vs + ps + gs", g("instructions"), g("vs_instructions")+g("ps_instructions")+g("gs_instructions"))
		eq("shader", u+" lane_instructions = vs + ps + gs", g("lane_instructions"), g("vs_lane_instructions")+g("ps_lane_instructions")+g("gs_lane_instructions"))
		eq("shader", u+" instructions by kind", g("instructions"),
			g("instructions_alu")+g("instructions_sfu")+g("instructions_texture")+g("instructions_derivative")+g("instructions_kill"))
	}
	// The command processor: its commands by opcode, and its DMA as the host
	// interface served it.
	for _, u := range s.Units(".sync_tokens") {
		g := func(c string) float64 { return s[u+"."+c] }
		eq("command processor", u+" commands = the sum by opcode", g("commands"), s.Sum(regexp.QuoteMeta(u)+`\.commands_[a-z_0-9]+`))
		eq("command processor", u+" draws = its draw commands", g("draws"), s.Sum(regexp.QuoteMeta(u)+`\.commands_draw[a-z_]*`))
		eq("command processor", u+" clears = clear commands", g("clears"), g("commands_clear"))
		eq("command processor", u+" presents = present commands", g("presents"), g("commands_present"))
		for _, rw := range []string{"read", "written"} {
			eq("command processor", u+" dma_bytes_"+rw+" = its DMA client's", g("dma_bytes_"+rw), g("dma.bytes_"+rw))
			eq("command processor", u+" dma_bytes_"+rw+" = the host interface's", g("dma_bytes_"+rw), s["GPU.HostInterface.bytes_"+rw])
		}
		eq("command processor", u+" DMA reads = the host interface's", g("dma.reads"), s["GPU.HostInterface.reads"])
	}
	for _, u := range s.Units(".triangles_5d") {
		g := func(c string) float64 { return s[u+"."+c] }
		eq("shader", u+" triangles = primitives + culled + rejected", g("triangles"), g("primitives")+g("culled")+g("rejected"))
		eq("shader", u+" set_up = primitives", g("set_up"), g("primitives"))
	}
	for _, u := range s.Units(".index_reads") {
		g := func(c string) float64 { return s[u+"."+c] }
		eq("shader", u+" index_reads = batch tag hits + misses", g("index_reads"), g("batch_tag_hits")+g("batch_tag_misses"))
		eq("shader", u+" index_reads = index cache hits + misses", g("index_reads"), g("index_cache_hits")+g("index_cache_misses"))
		eq("shader", u+" vertices = batch tag misses", g("vertices"), g("batch_tag_misses"))
		ratio("shader", u+" batch_tag_hit_rate", g("batch_tag_hit_rate"), g("batch_tag_hits"), g("index_reads"))
	}
	for _, u := range s.Units(".tiles_tested") {
		g := func(c string) float64 { return s[u+"."+c] }
		eq("shader", u+" tiles_tested = inside + outside + partial", g("tiles_tested"), g("tiles_inside")+g("tiles_outside")+g("tiles_partial"))
	}

	// SAGE's sample and video flow: samples, bursts, spans and pixels out of
	// one hop are those into the next (pipes' sample fill -> sample buses ->
	// scheds -> write crossbars -> 3DRAM interleaves; interleaves -> route ->
	// video crossbar -> convolve chips -> video chain -> video output), and
	// each message's bytes are its header and payload (components/protocol:
	// an 8-byte header; packet_bytes a sample in a SampleBurst, 5 bytes a
	// sample in a SampleSpan, 4 a pixel in a VideoSpan).
	if c.Machine == "sage" {
		const header = 8
		packet := float64(c.Sage.Fill.PacketBytes)
		id := "sage flow"
		for p := 0; p < c.Sage.Pipes; p++ {
			f := fmt.Sprintf(`GPU\.Pipe\[%d\]\.`, p)
			bus := f + `SampleBus\[\d+\]\.`
			eq(id, fmt.Sprintf("pipe %d: sample fill bursts = its sample buses' SampleBursts", p), s.Sum(f+`SampleFill\.bursts`), s.Sum(bus+`SampleBurst\.messages`))
			eq(id, fmt.Sprintf("pipe %d: sample fill markers = its sample buses' OrderMarkers", p), s.Sum(f+`SampleFill\.markers`), s.Sum(bus+`OrderMarker\.messages`))
			eq(id, fmt.Sprintf("pipe %d: sample buses' SampleBurst bytes = header x bursts + packet_bytes x samples_out", p),
				s.Sum(bus+`SampleBurst\.bytes`), header*s.Sum(bus+`SampleBurst\.messages`)+packet*s.Sum(f+`SampleFill\.samples_out`))
		}
		scheds := len(s.Units(".hysteresis_holds")) // the board's two
		perInterleave := c.Sage.SampleBuffer.Interleaves / scheds
		for k := 0; k < scheds; k++ {
			sc := fmt.Sprintf("GPU.Sched[%d]", k)
			g := func(n string) float64 { return s[sc+"."+n] }
			bus := fmt.Sprintf(`GPU\.Pipe\[\d+\]\.SampleBus\[%d\]\.`, k)
			wx := fmt.Sprintf("GPU.WriteXbar[%d].", k)
			// The sample buses' bytes over the pipes: their bursts' samples.
			eq(id, sc+" samples_in = the samples of the pipes' bursts on its sample buses", g("samples_in"),
				(s.Sum(bus+`SampleBurst\.bytes`)-header*s.Sum(bus+`SampleBurst\.messages`))/packet)
			eq(id, sc+" samples_out = samples_in", g("samples_out"), g("samples_in"))
			eq(id, sc+" bursts_out = its write crossbar's SampleBursts", g("bursts_out"), s[wx+"SampleBurst.messages"])
			eq(id, sc+" prefetches = its write crossbar's Prefetches", g("prefetches"), s[wx+"Prefetch.messages"])
			eq(id, sc+" write crossbar's SampleBurst bytes = header x bursts + packet_bytes x samples_out",
				s[wx+"SampleBurst.bytes"], header*g("bursts_out")+packet*g("samples_out"))
			var out, bursts, prefetches float64
			for i := k * perInterleave; i < (k+1)*perInterleave; i++ {
				il := fmt.Sprintf("GPU.Interleave[%d]", i)
				eq(id, fmt.Sprintf("%s interleave%d_samples = %s samples_in", sc, i, il), g(fmt.Sprintf("interleave%d_samples", i)), s[il+".samples_in"])
				out += g(fmt.Sprintf("interleave%d_samples", i))
				bursts += s[il+".bursts"]
				prefetches += s[il+".prefetches"]
			}
			eq(id, sc+" samples_out = its interleaves' samples", g("samples_out"), out)
			eq(id, sc+" bursts_out = its interleaves' bursts", g("bursts_out"), bursts)
			eq(id, sc+" prefetches = its interleaves' prefetches", g("prefetches"), prefetches)
		}
		eq(id, "sample fills' samples_out = scheds' samples_in", s.Sum(`GPU\.Pipe\[\d+\]\.SampleFill\.samples_out`), s.Sum(`GPU\.Sched\[\d+\]\.samples_in`))
		capacity := float64(c.Sage.SampleBuffer.ChipsPerInterleave * c.Sage.SampleBuffer.CacheBlocks)
		for _, il := range s.Units(".flush_write_backs") {
			g := func(n string) float64 { return s[il+"."+n] }
			// Every sample looks its block up once; a miss loads the block, so
			// does a prefetch of an absent one; a block written back (evicted
			// dirty, or dirty at the Present's flush) was loaded first; a
			// flush writes back at most the pixel buffers' blocks.
			eq(id, il+" samples_in = cache_hits + cache_misses", g("samples_in"), g("cache_hits")+g("cache_misses"))
			eq(id, il+" samples_in = z_passed + z_failed", g("samples_in"), g("z_passed")+g("z_failed"))
			eq(id, il+" fills = cache_misses + prefetches - prefetches_redundant", g("fills"), g("cache_misses")+g("prefetches")-g("prefetches_redundant"))
			ratio(id, il+" cache_hit_rate", g("cache_hit_rate"), g("cache_hits"), g("samples_in"))
			found[id]++
			if g("prefetch_hits") > g("prefetches")-g("prefetches_redundant") || g("write_backs")+g("flush_write_backs") > g("fills") ||
				g("flush_write_backs") > capacity*g("presents") {
				t.Errorf("%s: %s: %v prefetch hits of %v prefetches (%v redundant); %v write-backs and %v at the flush of %v fills (%v blocks, %v presents)",
					id, il, g("prefetch_hits"), g("prefetches"), g("prefetches_redundant"), g("write_backs"), g("flush_write_backs"), g("fills"), capacity, g("presents"))
			}
		}
		// Route and convolve chips, through GPU.VideoXbar.
		cv := func(n string) float64 { return s.Sum(`GPU\.Convolve\[\d+\]\.` + n) }
		eq(id, "route line_requests = the convolve chips' = the video crossbar's LineRequests", s["GPU.Route.line_requests"], cv("line_requests"))
		eq(id, "route line_requests = the video crossbar's LineRequests", s["GPU.Route.line_requests"], s["GPU.VideoXbar.LineRequest.messages"])
		eq(id, "route spans = the convolve chips' spans_in", s["GPU.Route.spans"], cv("spans_in"))
		eq(id, "route spans = the video crossbar's SampleSpans", s["GPU.Route.spans"], s["GPU.VideoXbar.SampleSpan.messages"])
		eq(id, "route samples_read = the convolve chips' samples_in", s["GPU.Route.samples_read"], cv("samples_in"))
		eq(id, "route bytes_out = the video crossbar's SampleSpan bytes", s["GPU.Route.bytes_out"], s["GPU.VideoXbar.SampleSpan.bytes"])
		eq(id, "video crossbar's SampleSpan bytes = header x spans + 5 x samples", s["GPU.VideoXbar.SampleSpan.bytes"], header*s["GPU.Route.spans"]+5*s["GPU.Route.samples_read"])
		// The video chain: chip k passes on the previous chips' spans and
		// its own; the last chip's link feeds the video output.
		pixels, spans := 0.0, 0.0
		chips := len(s.Units(".spans_forwarded"))
		for k := 0; k < chips; k++ {
			ch := fmt.Sprintf("GPU.Convolve[%d].", k)
			link := fmt.Sprintf("GPU.VideoChain[%d].", k)
			eq(id, ch+"spans_forwarded = the previous chips' spans", s[ch+"spans_forwarded"], spans)
			pixels += s[ch+"pixels"]
			spans += s[ch+"spans_out"]
			eq(id, link+"VideoSpan messages = the chain's spans so far", s[link+"VideoSpan.messages"], s[ch+"spans_out"]+s[ch+"spans_forwarded"])
			eq(id, link+"VideoSpan bytes = header x spans + 4 x the chain's pixels so far", s[link+"VideoSpan.bytes"], header*s[link+"VideoSpan.messages"]+4*pixels)
		}
		if c.Sage.Video.Channels == 1 {
			eq(id, "video spans = the last chip's link's", s["GPU.Video.spans"], s[fmt.Sprintf("GPU.VideoChain[%d].VideoSpan.messages", chips-1)])
			eq(id, "video pixels = the convolve chips' pixels", s["GPU.Video.pixels"], pixels)
			eq(id, "video pixels = the frame's pixels x presents", s["GPU.Video.pixels"],
				float64(res.Image.Rect.Dx()*res.Image.Rect.Dy())*s["GPU.Video.presents"])
		}
	}

	// Links: a link's messages and bytes are the sums over its message
	// kinds; a crossbar's counters are the sums over its destination links
	// (busy and refused cycles: link-cycles), also per kind.
	links := map[string]bool{}
	for _, l := range s.Units(".busy_cycles") {
		links[l] = true
	}
	for l := range links {
		kinds := map[string]bool{}
		var dests []string
		for k := range s {
			rest, ok := strings.CutPrefix(k, l+".")
			if !ok {
				continue
			}
			if kind, ok := strings.CutSuffix(rest, ".messages"); ok && !strings.Contains(kind, ".") && !links[l+"."+kind] {
				kinds[kind] = true
			}
			if d, ok := strings.CutSuffix(rest, ".busy_cycles"); ok && strings.HasPrefix(d, "To") {
				dests = append(dests, l+"."+d)
			}
		}
		for _, n := range []string{"messages", "bytes"} {
			v := 0.0
			for kind := range kinds {
				v += s[l+"."+kind+"."+n]
			}
			eq("links", l+" "+n+" = the sum over its message kinds", s[l+"."+n], v)
		}
		dest := false // a crossbar's destination link (its name may hold a dot)
		for m := range links {
			dest = dest || strings.HasPrefix(l, m+".To")
		}
		if len(dests) == 0 || dest {
			continue
		}
		for _, n := range []string{"messages", "bytes", "busy_cycles", "refused_cycles"} {
			v := 0.0
			for _, d := range dests {
				v += s[d+"."+n]
			}
			eq("crossbars", l+" "+n+" = the sum over its destination links", s[l+"."+n], v)
		}
		for kind := range kinds {
			v := 0.0
			for _, d := range dests {
				v += s[d+"."+kind+".messages"]
			}
			eq("crossbars", l+" "+kind+" messages = the sum over its destination links", s[l+"."+kind+".messages"], v)
		}
	}

	// Activity: utilization is the busy share of the unit's states.
	for _, u := range s.Units(".utilization") {
		busy, all := 0.0, 0.0
		for k, v := range s {
			if st, ok := strings.CutPrefix(k, u+".cycles_"); ok && !strings.Contains(st, ".") {
				all += v
				if st == "busy" {
					busy = v
				}
			}
		}
		if all > 0 {
			ratio("activity", u+" utilization = cycles_busy / its cycles", s[u+".utilization"], busy, all)
		}
	}
	if testing.Verbose() {
		t.Log(fmt.Sprint(found))
	}
	return found
}
