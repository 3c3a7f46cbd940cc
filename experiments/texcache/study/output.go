package study

import (
	"fmt"
	"github.com/gfxsim/gfxsim/internal/outputs"
	"io"
	"path/filepath"
	"strconv"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/plot"
)

var csvHeader = []string{"sweep", "scene", "setting", "x", "timed", "requests", "lanes", "footprints", "texels",
	"texel_hit_rate", "line_hit_rate", "misses_per_bilinear_request", "texel_cache_misses_per_bilinear_request",
	"l2_bytes", "l2_bytes_per_lane", "fill_lines", "fill_decodes", "l2_hit_rate", "dram_bytes",
	"sampler_stall_miss_queue_cycles", "shader_texture_stall_cycles", "cycles"}

func f6(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

func writeCSV(path string, rows []Row) error {
	out := make([][]string, 0, len(rows))
	for _, r := range rows {
		m := r.M
		out = append(out, []string{r.Sweep, r.Scene, r.Setting, f6(r.X), strconv.FormatBool(r.Timed),
			f6(m.Requests), f6(m.Lanes), f6(m.Footprints), f6(m.Texels), f6(m.TexelHitRate()), f6(m.LineHitRate()),
			f6(m.MissesPerFootprint()), f6(r.TexelCache), f6(m.L2Bytes), f6(ratio(m.L2Bytes, m.Lanes)),
			f6(m.FillLines), f6(m.FillDecodes), f6(m.L2HitRate()), f6(m.DRAMBytes), f6(m.StallMissQueue),
			f6(m.ShaderTextureStall), f6(m.Cycles)})
	}
	return outputs.WriteCSV(path, csvHeader, out)
}

// pick returns the rows of a sweep (and scene, when not empty), in order.
func pick(rows []Row, sweep, scene string) []Row {
	var out []Row
	for _, r := range rows {
		if r.Sweep == sweep && (scene == "" || r.Scene == scene) {
			out = append(out, r)
		}
	}
	return out
}

func series(name string, rows []Row, y func(Metrics) float64) plot.Series {
	s := plot.Series{Name: name}
	for _, r := range rows {
		s.X = append(s.X, r.X)
		s.Y = append(s.Y, y(r.M))
	}
	return s
}

func pct(f func(Metrics) float64) func(Metrics) float64 {
	return func(m Metrics) float64 { return 100 * f(m) }
}

// categories builds one series per metric over labelled rows.
func bars(rows []Row, names []string, ys ...func(Metrics) float64) ([]string, []plot.Series) {
	var cats []string
	for _, r := range rows {
		cats = append(cats, r.Setting)
	}
	var ss []plot.Series
	for i, y := range ys {
		s := plot.Series{Name: names[i]}
		for _, r := range rows {
			s.Y = append(s.Y, y(r.M))
		}
		ss = append(ss, s)
	}
	return cats, ss
}

// orderRows are the traversal-order rows, the baseline (row-major tiles and
// quads) first.
func orderRows(rows []Row) []Row {
	return withBaseline(rows, "order", "tiles rowmajor, quads rowmajor")
}

// formatRows are the storage-format rows, the RGBA8 baseline first.
func formatRows(rows []Row) []Row { return withBaseline(rows, "format", "rgba8") }

// withBaseline returns the rows of sweep after the baseline rows, named by
// the sweep's setting they have (setting).
func withBaseline(rows []Row, sweep, setting string) []Row {
	out := []Row{}
	for _, r := range pick(rows, "baseline", "texstudy") {
		r.Setting = setting
		out = append(out, r)
	}
	return append(out, pick(rows, sweep, "")...)
}

// figures writes the study's plots; banks is the L2's bank count (one per
// memory channel), named on the L2-size axes.
func figures(dir string, rows []Row, banks int) error {
	var figs []struct {
		file string
		f    plot.Figure
	}
	add := func(file string, f plot.Figure) {
		figs = append(figs, struct {
			file string
			f    plot.Figure
		}{file, f})
	}
	var mpr, tmpr, hit []plot.Series
	for _, sc := range Scenes {
		rs := pick(rows, "l1_size", sc)
		if len(rs) == 0 {
			continue
		}
		mpr = append(mpr, series(sc, rs, Metrics.MissesPerFootprint))
		t := plot.Series{Name: sc}
		for _, r := range rs {
			t.X, t.Y = append(t.X, r.X), append(t.Y, r.TexelCache)
		}
		tmpr = append(tmpr, t)
		hit = append(hit, series(sc, rs, pct(Metrics.TexelHitRate)))
	}
	add("misses_per_request_l1.png", plot.Figure{Title: "L1 line misses per bilinear request (64-byte decoded lines)",
		XLabel: "L1 size per sampler (KB)", YLabel: "line misses per bilinear request", LogX: true, Series: mpr})
	add("texel_misses_per_request_l1.png", plot.Figure{Title: "Texel misses per bilinear request (texel-granular LRU)",
		XLabel: "L1 size per sampler (KB)", YLabel: "texel misses per bilinear request", LogX: true, Series: tmpr})
	add("hit_rate_l1.png", plot.Figure{Title: "L1 per-texel hit rate (bilinear filtering)", XLabel: "L1 size per sampler (KB)",
		YLabel: "hit rate (%)", LogX: true, Series: hit})
	if rs := pick(rows, "associativity", "texstudy"); len(rs) > 0 {
		add("associativity.png", plot.Figure{Title: "L1 associativity (texstudy, default size and line)", XLabel: "ways",
			YLabel: "per-texel hit rate (%)", LogX: true, Series: []plot.Series{series("texstudy", rs, pct(Metrics.TexelHitRate))}})
	}
	if rs := pick(rows, "line_size", "texstudy"); len(rs) > 0 {
		add("line_size_hit_rate.png", plot.Figure{Title: "L1 line size (texstudy): hit rate", XLabel: "line size (bytes)",
			YLabel: "per-texel hit rate (%)", LogX: true, Series: []plot.Series{series("texstudy", rs, pct(Metrics.TexelHitRate))}})
		add("line_size_l2_bytes.png", plot.Figure{Title: "L1 line size (texstudy): L2 traffic", XLabel: "line size (bytes)",
			YLabel: "bytes read from the L2 per lane", LogX: true,
			Series: []plot.Series{series("texstudy", rs, func(m Metrics) float64 { return ratio(m.L2Bytes, m.Lanes) })}})
	}
	if rs := pick(rows, "l2_size", "texstudy"); len(rs) > 0 {
		l2Axis := fmt.Sprintf("L2 bank size (KB, %d banks)", banks)
		add("l2_size_hit_rate.png", plot.Figure{Title: "L2 size (texstudy): L2 hit rate", XLabel: l2Axis,
			YLabel: "L2 read hit rate (%)", LogX: true, Series: []plot.Series{series("texstudy", rs, pct(Metrics.L2HitRate))}})
		add("l2_size_dram.png", plot.Figure{Title: "L2 size (texstudy): texture bytes from DRAM", XLabel: l2Axis,
			YLabel: "KB from DRAM", LogX: true,
			Series: []plot.Series{series("texstudy", rs, func(m Metrics) float64 { return m.DRAMBytes / 1024 })}})
	}
	if rs := pick(rows, "filter", "texstudy"); len(rs) > 0 {
		cats, ss := bars(rs, []string{"texels read per lane", "L1 line misses per lane"},
			func(m Metrics) float64 { return ratio(m.Texels, m.Lanes) }, func(m Metrics) float64 { return ratio(m.L1Misses, m.Lanes) })
		add("filter_per_lane.png", plot.Figure{Title: "Filter mode (texstudy)", YLabel: "per lane", Categories: cats, Series: ss})
		cats, ss = bars(rs, []string{"per-texel hit rate"}, pct(Metrics.TexelHitRate))
		add("filter_hit_rate.png", plot.Figure{Title: "Filter mode (texstudy): L1 hit rate", YLabel: "hit rate (%)", Categories: cats, Series: ss})
	}
	if rs := formatRows(rows); len(rs) > 1 {
		cats, ss := bars(rs, []string{"KB from the L2", "KB from DRAM"},
			func(m Metrics) float64 { return m.L2Bytes / 1024 }, func(m Metrics) float64 { return m.DRAMBytes / 1024 })
		add("format_traffic.png", plot.Figure{Title: "Compressed and fat texels (texstudy): texture traffic", YLabel: "KB",
			Categories: cats, Series: ss})
		cats, ss = bars(rs, []string{"per-texel hit rate"}, pct(Metrics.TexelHitRate))
		add("format_hit_rate.png", plot.Figure{Title: "Compressed and fat texels (texstudy): L1 hit rate", YLabel: "hit rate (%)",
			Categories: cats, Series: ss})
	}
	if rs := orderRows(rows); len(rs) > 1 {
		cats, ss := bars(rs, []string{"per-texel hit rate"}, pct(Metrics.TexelHitRate))
		add("order_hit_rate.png", plot.Figure{Title: "Traversal order (texstudy): L1 hit rate", YLabel: "hit rate (%)",
			Categories: cats, Series: ss})
	}
	for _, f := range figs {
		if err := f.f.Save(filepath.Join(dir, f.file)); err != nil {
			return err
		}
	}
	return nil
}

func pc(v float64) string { return fmt.Sprintf("%.2f%%", 100*v) }
func f3(v float64) string { return fmt.Sprintf("%.3f", v) }
func kb(v float64) string { return fmt.Sprintf("%.0f", v/1024) }

// report prints the study's headline numbers and the table of every row.
func report(w io.Writer, rows []Row, base *configs.Config) {
	fmt.Fprintf(w, "texture-cache study on %s: %d samplers, default L1 %d KB %d-way %d-byte lines, L2 %d KB x %d banks\n\n",
		base.Name, base.ShaderCore.Count/base.TextureSampler.CoresPerSampler, base.TextureSampler.L1.SizeKB,
		base.TextureSampler.L1.Ways, base.TextureSampler.L1.LineBytes, base.L2.BankSizeKB, base.Memory.Channels)
	fmt.Fprintln(w, "misses per bilinear request over L1 size (bilinear filtering): line misses of the sampler's L1, and")
	fmt.Fprintln(w, "texel misses of a texel-granular LRU cache of the same size and ways on the same request stream:")
	var hdr []string
	var table [][]string
	for _, sc := range Scenes {
		rs := pick(rows, "l1_size", sc)
		if hdr == nil {
			hdr = []string{"scene"}
			for _, r := range rs {
				hdr = append(hdr, r.Setting)
			}
		}
		line := []string{sc + " (64 B lines)"}
		tline := []string{sc + " (texels)"}
		for _, r := range rs {
			line = append(line, f3(r.M.MissesPerFootprint()))
			tline = append(tline, f3(r.TexelCache))
		}
		table = append(table, line, tline)
	}
	expt.Table(w, hdr, table)
	if p := plateau(pick(rows, "l1_size", "texstudy")); p.n > 0 {
		fmt.Fprintf(w, "\nplateau (texstudy, %s): %.3f texel misses per bilinear request, %.3f line misses with 64-byte lines (Giesen: about %.2f misses/request)\n",
			p.sizes(), p.texels, p.lines, GiesenMissesPerRequest)
	}
	if rs := pick(rows, "msaa", ""); len(rs) == 2 {
		fmt.Fprintf(w, "texstudy at 8x MSAA, L1 32 KB 16-way 64-byte lines: per-texel hit rate %s (decoupled sampling, 5.3.2: about %s); default L1: %s\n",
			pc(rs[1].M.TexelHitRate()), pc(DecoupledHitRate), pc(rs[0].M.TexelHitRate()))
	}
	fmt.Fprintln(w)
	hdr = []string{"sweep", "scene", "setting", "kind", "texel hit", "misses/bilinear", "L2 B/lane", "fill decodes", "L2 hit", "DRAM KB",
		"stall mq", "shader tex stall", "cycles"}
	table = nil
	for _, r := range rows {
		kind := "replay"
		if r.Timed {
			kind = "timed"
		}
		m := r.M
		table = append(table, []string{r.Sweep, r.Scene, r.Setting, kind, pc(m.TexelHitRate()), f3(m.MissesPerFootprint()),
			fmt.Sprintf("%.1f", ratio(m.L2Bytes, m.Lanes)), fmt.Sprintf("%.0f", m.FillDecodes), pc(m.L2HitRate()), kb(m.DRAMBytes),
			fmt.Sprintf("%.0f", m.StallMissQueue), fmt.Sprintf("%.0f", m.ShaderTextureStall), fmt.Sprintf("%.0f", m.Cycles)})
	}
	expt.Table(w, hdr, table)
}

type plat struct {
	lines, texels float64
	n             int
	kb            []float64 // the L1 sizes averaged
}

// sizes names the L1 sizes averaged: "4-16 KB", or "8 KB" for one.
func (p plat) sizes() string {
	switch len(p.kb) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("%g KB", p.kb[0])
	}
	return fmt.Sprintf("%g-%g KB", p.kb[0], p.kb[len(p.kb)-1])
}

// plateau averages the misses per bilinear request at the L1 sizes of 4-16
// KB the sweep has.
func plateau(rs []Row) plat {
	var p plat
	for _, r := range rs {
		if r.X >= 4 && r.X <= 16 {
			p.lines += r.M.MissesPerFootprint()
			p.texels += r.TexelCache
			p.kb = append(p.kb, r.X)
			p.n++
		}
	}
	if p.n > 0 {
		p.lines /= float64(p.n)
		p.texels /= float64(p.n)
	}
	return p
}
