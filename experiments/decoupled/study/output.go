package study

import (
	"fmt"
	"github.com/gfxsim/gfxsim/internal/outputs"
	"image"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/plot"
)

func g4(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
func f2(v float64) string { return fmt.Sprintf("%.2f", v) }
func mb(b int64) float64  { return float64(b) / 1e6 }
func pc(v float64) string { return fmt.Sprintf("%.2f%%", 100*v) }

func kindOf(scene string) string {
	for _, sk := range SweepScenes {
		if sk.Scene == scene {
			return sk.Kind
		}
	}
	return "both"
}

// save writes a CSV and a figure.
func (s *study) save(name string, header []string, rows [][]string, figs ...*plot.Figure) error {
	if err := outputs.WriteCSV(filepath.Join(s.o.Out, name+".csv"), header, rows); err != nil {
		return err
	}
	for i, f := range figs {
		n := name
		if i > 0 || len(figs) > 1 {
			n = name + "_" + figSuffix(f)
		}
		if err := f.Save(filepath.Join(s.o.Out, n+".png")); err != nil {
			return err
		}
	}
	return nil
}

// figSuffix names one of several figures of a CSV by its Y label.
func figSuffix(f *plot.Figure) string {
	b := []byte{}
	for _, c := range f.YLabel {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, byte(c))
		case c >= 'A' && c <= 'Z':
			b = append(b, byte(c-'A'+'a'))
		case c == ' ' && len(b) > 0 && b[len(b)-1] != '_':
			b = append(b, '_')
		case c == '(':
			return string(trim(b))
		}
	}
	return string(trim(b))
}

func trim(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == '_' {
		b = b[:len(b)-1]
	}
	return b
}

// seriesBy groups points into series keyed by name, x and y from the point.
func seriesBy(ps []*Point, name func(*Point) string, x, y func(*Point) (float64, bool)) []plot.Series {
	var out []plot.Series
	idx := map[string]int{}
	for _, p := range ps {
		xv, ok1 := x(p)
		yv, ok2 := y(p)
		if !ok1 || !ok2 {
			continue
		}
		n := name(p)
		i, ok := idx[n]
		if !ok {
			i = len(out)
			idx[n] = i
			out = append(out, plot.Series{Name: n})
		}
		out[i].X = append(out[i].X, xv)
		out[i].Y = append(out[i].Y, yv)
	}
	return out
}

func area(p *Point) (float64, bool) { return p.BlurArea(), true }

// byScene names a point's series by its scene (not its kind of blur: a
// built-in scene is called motion) and samples per pixel.
func byScene(p *Point) string { return fmt.Sprintf("%s %d spp", p.Scene, p.Samples) }

// paperCol puts a paper value on the first row of each group.
func paperCol(first bool, v string) string {
	if first {
		return v
	}
	return ""
}

func (s *study) fig10(w io.Writer) error {
	ps := s.pts["sweep"]
	sortPoints(ps)
	header := []string{"scene", "blur_kind", "samples", "blur_scale", "blur_area", "covered_pixels", "visible_samples",
		"shading_quads_global", "rate_global", "savings_global", "shading_quads_tiled", "rate_tiled", "savings_tiled",
		"rate_global_unbounded", "savings_global_unbounded", "rate_tiled_unbounded", "savings_tiled_unbounded",
		"rate_supersampling", "tile_w", "tile_h", "width", "height"}
	var rows, table [][]string
	last := ""
	for _, p := range ps {
		g, _ := p.global(DefaultEntries)
		t, _ := p.tiled(DefaultEntries)
		gu, _ := p.global(Unbounded)
		tu, _ := p.tiled(Unbounded)
		rows = append(rows, []string{p.Scene, kindOf(p.Scene), strconv.Itoa(p.Samples), g4(p.Blur), g4(p.BlurArea()),
			strconv.FormatInt(p.CoveredPixels, 10), strconv.FormatInt(p.VisibleSamples, 10),
			strconv.FormatInt(g, 10), g4(p.Rate(g)), g4(p.Savings(g)), strconv.FormatInt(t, 10), g4(p.Rate(t)), g4(p.Savings(t)),
			g4(p.Rate(gu)), g4(p.Savings(gu)), g4(p.Rate(tu)), g4(p.Savings(tu)),
			g4(float64(p.VisibleSamples) / math.Max(1, float64(p.CoveredPixels))), strconv.Itoa(p.TileW), strconv.Itoa(p.TileH),
			strconv.Itoa(p.Width), strconv.Itoa(p.Height)})
		key := p.Scene
		paper := ""
		if key != last {
			paper = PaperFig10Global + "; " + PaperFig10Tiled
		}
		last = key
		table = append(table, []string{p.Scene, strconv.Itoa(p.Samples), g4(p.Blur), f2(p.BlurArea()), f2(p.Rate(g)), f2(p.Savings(g)),
			f2(p.Rate(t)), f2(p.Savings(t)), f2(p.Rate(gu)), paper})
	}
	name := func(tag string) func(*Point) string { return func(p *Point) string { return byScene(p) + " " + tag } }
	q := func(tiled bool, sav bool) func(*Point) (float64, bool) {
		return func(p *Point) (float64, bool) {
			n, ok := p.global(DefaultEntries)
			if tiled {
				n, ok = p.tiled(DefaultEntries)
			}
			if sav {
				return p.Savings(n), ok
			}
			return p.Rate(n), ok
		}
	}
	rate := &plot.Figure{Title: "Fig. 10: shading rate, 1024-quad (4k-sample) caches", XLabel: "blur area (pixels)",
		YLabel: "shading rate (shades per covered pixel)",
		Series: append(seriesBy(ps, name("SL"), area, q(false, false)), seriesBy(ps, name("T"), area, q(true, false))...)}
	sav := &plot.Figure{Title: "Fig. 10: savings over idealized supersampling", XLabel: "blur area (pixels)",
		YLabel: "savings (visible samples per shade)", LogY: true,
		Series: append(seriesBy(ps, name("SL"), area, q(false, true)), seriesBy(ps, name("T"), area, q(true, true))...)}
	if err := s.save("fig10_shading", header, rows, rate, sav); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nFig. 10: shading rate and savings against blur (SL: global sort-last LRU, T: per-tile LRUs; 1024 shading quads each)")
	expt.Table(w, []string{"scene", "spp", "blur", "blur area", "SL rate", "SL savings", "T rate", "T savings", "unbounded rate", "paper (HL2/TF2/bats)"}, table)
	return nil
}

func (s *study) fig10Cache(w io.Writer) error {
	var ps []*Point
	for _, p := range s.pts["sweep"] {
		if p.Blur == Moderate {
			ps = append(ps, p)
		}
	}
	sortPoints(ps)
	header := []string{"scene", "blur_kind", "samples", "blur_area", "model", "entries", "shading_quads", "rate", "savings"}
	cols := cacheColumns(s.sweep().gsizes)
	var rows, table [][]string
	var series []plot.Series
	for i, p := range ps {
		for _, m := range []struct {
			name string
			cs   []CacheCount
		}{{"global", p.Global}, {"tiled", p.Tiled}} {
			var sr, inf plot.Series
			sr.Name = byScene(p) + " " + map[string]string{"global": "SL", "tiled": "T"}[m.name]
			inf.Name = sr.Name + " unbounded"
			var unb float64
			for _, c := range m.cs {
				e := strconv.Itoa(c.Entries)
				if c.Entries == Unbounded {
					e = "unbounded"
					unb = p.Savings(c.ShadingQuads)
				} else {
					sr.X, sr.Y = append(sr.X, float64(c.Entries)), append(sr.Y, p.Savings(c.ShadingQuads))
				}
				rows = append(rows, []string{p.Scene, kindOf(p.Scene), strconv.Itoa(p.Samples), g4(p.BlurArea()), m.name, e,
					strconv.FormatInt(c.ShadingQuads, 10), g4(p.Rate(c.ShadingQuads)), g4(p.Savings(c.ShadingQuads))})
			}
			if len(sr.X) > 0 {
				inf.X = []float64{sr.X[0], sr.X[len(sr.X)-1]}
				inf.Y = []float64{unb, unb}
				series = append(series, sr)
				if m.name == "global" {
					series = append(series, inf)
				}
			}
		}
		cell := func(cs []CacheCount, n int) string {
			if q, ok := find(cs, n); ok {
				return f2(p.Savings(q))
			}
			return "-"
		}
		row := []string{p.Scene, strconv.Itoa(p.Samples), f2(p.BlurArea())}
		for _, n := range cols {
			row = append(row, cell(p.Global, n))
		}
		table = append(table, append(row, cell(p.Global, Unbounded), cell(p.Tiled, 1024), cell(p.Tiled, Unbounded),
			paperCol(i == 0, PaperFig10Cache)))
	}
	f := &plot.Figure{Title: fmt.Sprintf("Fig. 10: savings against cache size at blur %g", Moderate), XLabel: "cache size (shading quads)",
		YLabel: "savings (visible samples per shade)", LogX: true, LogY: true, Series: series}
	if err := s.save("fig10_cache_size", header, rows, f); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nFig. 10 (row 3): savings over idealized supersampling against cache size (shading quads) at blur %g\n", Moderate)
	head := []string{"scene", "spp", "blur area"}
	for _, n := range cols {
		head = append(head, "SL "+strconv.Itoa(n))
	}
	expt.Table(w, append(head, "SL unbounded", "T 1024", "T unbounded", "paper (HL2/TF2)"), table)
	return nil
}

// cacheColumns returns the global cache sizes the Fig. 10 cache table shows:
// every bounded size swept, or five of them when the sweep has more.
func cacheColumns(sizes []int) []int {
	var cols []int
	for _, n := range sizes {
		if n != Unbounded {
			cols = append(cols, n)
		}
	}
	if len(cols) > 5 {
		return []int{32, 128, 1024, 4096, 65536}
	}
	return cols
}

func (s *study) fig11(w io.Writer) error {
	ps := s.pts["sweep"]
	header := []string{"scene", "blur_kind", "samples", "blur_scale", "blur_area", "tile_w", "tile_h", "primitives", "bin_entries", "bin_spread"}
	var rows, table [][]string
	for i, p := range ps {
		rows = append(rows, []string{p.Scene, kindOf(p.Scene), strconv.Itoa(p.Samples), g4(p.Blur), g4(p.BlurArea()), strconv.Itoa(p.TileW),
			strconv.Itoa(p.TileH), strconv.FormatInt(p.Primitives, 10), strconv.FormatInt(p.BinEntries, 10), g4(p.BinSpread())})
		table = append(table, []string{p.Scene, strconv.Itoa(p.Samples), g4(p.Blur), f2(p.BlurArea()), fmt.Sprintf("%dx%d", p.TileW, p.TileH),
			f2(p.BinSpread()), paperCol(i == 0, PaperFig11)})
	}
	f := &plot.Figure{Title: "Fig. 11: bin spread, tiles <= 128 KB", XLabel: "blur area (pixels)", YLabel: "bin spread (tiles per primitive)",
		Series: seriesBy(ps, byScene, area, func(p *Point) (float64, bool) { return p.BinSpread(), true })}
	if err := s.save("fig11_binspread", header, rows, f); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nFig. 11: bin spread against blur (sort-middle tiles of at most 128 KB)")
	expt.Table(w, []string{"scene", "spp", "blur", "blur area", "tile", "bin spread", "paper (HL2/TF2)"}, table)
	return nil
}

// baseline returns the blur-0 point of p's scene and sample count.
func baseline(ps []*Point, p *Point) *Point {
	for _, b := range ps {
		if b.Scene == p.Scene && b.Samples == p.Samples && b.Blur == 0 {
			return b
		}
	}
	return nil
}

func (s *study) fig12(w io.Writer) error {
	ps := s.pts["sweep"]
	header := []string{"scene", "blur_kind", "samples", "blur_scale", "blur_area", "color_kb", "depth_kb", "line_bytes", "framebuffer_mb", "over_no_blur"}
	var rows, table [][]string
	over := func(p *Point, r ROPCache) (float64, float64, bool) {
		v, ok := p.rop(r)
		b := baseline(ps, p)
		if !ok || b == nil {
			return 0, 0, false
		}
		bv, ok := b.rop(r)
		return mb(v), float64(v)/math.Max(1, float64(bv)) - 1, ok
	}
	for _, p := range ps {
		for _, r := range p.ROP {
			m, o, _ := over(p, r.ROPCache)
			rows = append(rows, []string{p.Scene, kindOf(p.Scene), strconv.Itoa(p.Samples), g4(p.Blur), g4(p.BlurArea()),
				strconv.Itoa(r.ColorBytes >> 10), strconv.Itoa(r.DepthBytes >> 10), strconv.Itoa(r.LineBytes), g4(m), g4(o)})
		}
	}
	first := true
	for _, p := range ps {
		m, o, ok := over(p, DefaultROP)
		if !ok {
			continue
		}
		t32, t4 := "-", "-"
		if _, o32, ok := over(p, ROPCache{64 << 10, 64 << 10, 32}); ok && p.Blur == Moderate {
			t32 = "+" + pc(o32)
		}
		if _, o4, ok := over(p, ROPCache{64 << 10, 64 << 10, 4}); ok && p.Blur == Moderate {
			t4 = "+" + pc(o4)
		}
		table = append(table, []string{p.Scene, strconv.Itoa(p.Samples), g4(p.Blur), f2(p.BlurArea()), f2(m), "+" + pc(o), t32, t4,
			paperCol(first, PaperFig12Blur+"; "+PaperFig12Line)})
		first = false
	}
	mbOf := func(r ROPCache) func(*Point) (float64, bool) {
		return func(p *Point) (float64, bool) { v, ok := p.rop(r); return mb(v), ok }
	}
	fb := &plot.Figure{Title: "Fig. 12: framebuffer traffic against blur (64+64 KB, 32 B lines)", XLabel: "blur area (pixels)",
		YLabel: "framebuffer traffic (MB per frame)", Series: seriesBy(ps, byScene, area, mbOf(DefaultROP))}
	var mod []*Point
	for _, p := range ps {
		if p.Blur == Moderate || p.Blur == 0 {
			mod = append(mod, p)
		}
	}
	label := func(p *Point) string {
		if p.Blur == 0 {
			return byScene(p) + " no blur"
		}
		return byScene(p)
	}
	var sizeSeries, lineSeries []plot.Series
	for _, p := range mod {
		var a, b plot.Series
		a.Name, b.Name = label(p), label(p)
		for _, r := range p.ROP {
			if r.LineBytes == 32 && r.ColorBytes == r.DepthBytes {
				a.X, a.Y = append(a.X, float64(r.ColorBytes+r.DepthBytes)/1024), append(a.Y, mb(r.Bytes))
			}
			if r.ColorBytes == 64<<10 && r.DepthBytes == 64<<10 {
				b.X, b.Y = append(b.X, float64(r.LineBytes)), append(b.Y, mb(r.Bytes))
			}
		}
		sortXY(&a)
		sortXY(&b)
		sizeSeries, lineSeries = append(sizeSeries, a), append(lineSeries, b)
	}
	size := &plot.Figure{Title: fmt.Sprintf("Fig. 12: framebuffer traffic against ROP cache size (32 B lines), blur %g", Moderate),
		XLabel: "colour + depth cache (KB)", YLabel: "framebuffer traffic vs cache (MB per frame)", LogX: true, Series: sizeSeries}
	line := &plot.Figure{Title: fmt.Sprintf("Fig. 12: framebuffer traffic against line size (128 KB), blur %g", Moderate),
		XLabel: "line size (bytes)", YLabel: "framebuffer traffic vs line (MB per frame)", LogX: true, Series: lineSeries}
	if err := s.save("fig12_framebuffer", header, rows, fb, size, line); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nFig. 12: framebuffer traffic (64 KB colour + 64 KB depth ROP caches, 16-way, write-back, allocate on write; MB per frame at this frame size)")
	expt.Table(w, []string{"scene", "spp", "blur", "blur area", "MB (32 B lines)", "over no blur", "at blur 1: 32 B", "4 B lines", "paper (HL2/TF2)"}, table)
	return nil
}

func sortXY(s *plot.Series) {
	for i := 1; i < len(s.X); i++ {
		for j := i; j > 0 && s.X[j] < s.X[j-1]; j-- {
			s.X[j], s.X[j-1] = s.X[j-1], s.X[j]
			s.Y[j], s.Y[j-1] = s.Y[j-1], s.Y[j]
		}
	}
}

func (s *study) fig09(w io.Writer) error {
	ps := s.pts["fig09"]
	header := []string{"frame", "samples", "blur_area", "rate_global", "rate_tiled", "rate_unbounded", "rate_supersampling",
		"framebuffer_mb", "bin_spread", "tile_w", "tile_h"}
	var rows [][]string
	type agg struct{ lo, hi [6]float64 }
	stats := map[int]*agg{}
	var spps []int
	for _, p := range ps {
		g, _ := p.global(DefaultEntries)
		t, _ := p.tiled(DefaultEntries)
		u, _ := p.global(Unbounded)
		fb, _ := p.rop(DefaultROP)
		ss := float64(p.VisibleSamples) / math.Max(1, float64(p.CoveredPixels))
		v := [6]float64{p.Rate(g), p.Rate(t), p.Rate(u), mb(fb), p.BinSpread(), p.BlurArea()}
		rows = append(rows, []string{strconv.Itoa(p.Index), strconv.Itoa(p.Samples), g4(v[5]), g4(v[0]), g4(v[1]), g4(v[2]), g4(ss),
			g4(v[3]), g4(v[4]), strconv.Itoa(p.TileW), strconv.Itoa(p.TileH)})
		a, ok := stats[p.Samples]
		if !ok {
			a = &agg{lo: v, hi: v}
			stats[p.Samples] = a
			spps = append(spps, p.Samples)
		}
		for i := range v {
			a.lo[i], a.hi[i] = math.Min(a.lo[i], v[i]), math.Max(a.hi[i], v[i])
		}
	}
	frame := func(p *Point) (float64, bool) { return float64(p.Index), true }
	spp := func(tag string) func(*Point) string {
		return func(p *Point) string { return fmt.Sprintf("%d spp%s", p.Samples, tag) }
	}
	rate := func(tiled bool) func(*Point) (float64, bool) {
		return func(p *Point) (float64, bool) {
			if tiled {
				n, ok := p.tiled(DefaultEntries)
				return p.Rate(n), ok
			}
			n, ok := p.global(DefaultEntries)
			return p.Rate(n), ok
		}
	}
	figs := []*plot.Figure{
		{Title: "Fig. 9: shading rate over the bats animation", XLabel: "frame", YLabel: "shading rate (shades per covered pixel)",
			Series: append(seriesBy(ps, spp(" SL"), frame, rate(false)), seriesBy(ps, spp(" T"), frame, rate(true))...)},
		{Title: "Fig. 9: framebuffer traffic", XLabel: "frame", YLabel: "framebuffer traffic (MB per frame)",
			Series: seriesBy(ps, spp(""), frame, func(p *Point) (float64, bool) { v, ok := p.rop(DefaultROP); return mb(v), ok })},
		{Title: "Fig. 9: bin spread", XLabel: "frame", YLabel: "bin spread (tiles per primitive)",
			Series: seriesBy(ps, spp(""), frame, func(p *Point) (float64, bool) { return p.BinSpread(), true })},
		{Title: "Fig. 9: blur area", XLabel: "frame", YLabel: "blur area (pixels)", Series: seriesBy(ps, spp(""), frame, area)},
	}
	if err := s.save("fig09_animation", header, rows, figs...); err != nil {
		return err
	}
	var table [][]string
	rng := func(a *agg, i int) string { return f2(a.lo[i]) + " - " + f2(a.hi[i]) }
	for i, n := range spps {
		a := stats[n]
		table = append(table, []string{strconv.Itoa(n), rng(a, 0), pc(a.hi[0]/math.Max(a.lo[0], 1e-9) - 1), rng(a, 1), rng(a, 2), rng(a, 3),
			pc(a.hi[3]/math.Max(a.lo[3], 1e-9) - 1), rng(a, 4), rng(a, 5), paperCol(i == 0, PaperFig9)})
	}
	fmt.Fprintf(w, "\nFig. 9: %s animation, ranges over %d frames\n", Animation, len(ps)/max(1, len(spps)))
	expt.Table(w, []string{"spp", "SL rate", "SL variation", "T rate", "unbounded rate", "FB MB", "FB range", "bin spread", "blur area",
		"paper (bats)"}, table)
	return nil
}

// imageError returns the mean and max absolute error per channel (RGBA, in
// 1/255 units) between two images of the same size.
func imageError(a, b *image.RGBA) (mean, maxe [4]float64) {
	if a == nil || b == nil || a.Rect != b.Rect {
		return mean, maxe
	}
	n := 0
	for i := 0; i+3 < len(a.Pix); i += 4 {
		for c := 0; c < 4; c++ {
			d := math.Abs(float64(a.Pix[i+c]) - float64(b.Pix[i+c]))
			mean[c] += d
			maxe[c] = math.Max(maxe[c], d)
		}
		n++
	}
	for c := range mean {
		mean[c] /= float64(max(n, 1))
	}
	return mean, maxe
}

func (s *study) texture(w io.Writer) error {
	ps := s.pts["texture"]
	header := []string{"scene", "variant", "samples", "blur_scale", "blur_area", "shading_quads_256", "rate_256", "shading_quads_1024",
		"rate_1024", "rate_unbounded", "savings_1024", "extra_shading_vs_nearest", "texels", "texel_hit_rate",
		"err_mean_r", "err_mean_g", "err_mean_b", "err_mean_a", "err_max_r", "err_max_g", "err_max_b", "err_max_a"}
	nearest := func(p *Point) *Point {
		for _, q := range ps {
			if q.Scene == p.Scene && q.Samples == p.Samples && q.Blur == p.Blur && variantName(q.Frame) == "decoupled" {
				return q
			}
		}
		return nil
	}
	var rows, table [][]string
	var cats []string
	hit := map[string][]float64{}
	for _, p := range ps {
		q256, _ := p.global(256)
		q1k, _ := p.global(DefaultEntries)
		qu, _ := p.global(Unbounded)
		extra := 0.0
		var mean, maxe [4]float64
		paper := ""
		n := nearest(p)
		if n != nil && p.Decoupling.Mode != 0 {
			nq, _ := n.global(DefaultEntries)
			extra = float64(q1k)/math.Max(1, float64(nq)) - 1
			mean, maxe = imageError(p.Image, n.Image)
		}
		switch variantName(p.Frame) {
		case "MSAA, no blur":
			paper = "hit " + pc(PaperTexMSAA)
		case "decoupled":
			paper = "hit > " + pc(PaperTexDecoupled)
		case "bilinear":
			paper = fmt.Sprintf("hit %s, extra <= %s", pc(PaperTexBilinear), pc(PaperBilinearExtra))
		case "adaptive+bilinear":
			paper = fmt.Sprintf("%.2f vs %.2f shades/px (256-quad cache)", PaperFig6Adaptive, PaperFig6Plain)
		}
		row := []string{p.Scene, variantName(p.Frame), strconv.Itoa(p.Samples), g4(p.Blur), g4(p.BlurArea()), strconv.FormatInt(q256, 10),
			g4(p.Rate(q256)), strconv.FormatInt(q1k, 10), g4(p.Rate(q1k)), g4(p.Rate(qu)), g4(p.Savings(q1k)), g4(extra),
			strconv.FormatInt(p.Texels, 10), g4(p.TexelHitRate())}
		for _, v := range append(mean[:], maxe[:]...) {
			row = append(row, g4(v))
		}
		rows = append(rows, row)
		table = append(table, []string{p.Scene, variantName(p.Frame), strconv.Itoa(p.Samples), f2(p.BlurArea()), f2(p.Rate(q256)),
			f2(p.Rate(q1k)), fmt.Sprintf("%+.2f%%", 100*extra), pc(p.TexelHitRate()), fmt.Sprintf("%.2f/%.0f", (mean[0]+mean[1]+mean[2])/3, math.Max(maxe[0], math.Max(maxe[1], maxe[2]))), paper})
		cat := fmt.Sprintf("%s %d", variantName(p.Frame), p.Samples)
		if len(hit[p.Scene]) == 0 || len(cats) < len(hit[p.Scene])+1 {
			if !slices.Contains(cats, cat) {
				cats = append(cats, cat)
			}
		}
		hit[p.Scene] = append(hit[p.Scene], 100*p.TexelHitRate())
	}
	series := sceneSeries(hit, len(cats))
	f := &plot.Figure{Title: "5.3.2/5.3.5: texture L1 per-texel hit rate (32 KB, 16-way, 64 B lines)", XLabel: "variant, samples per pixel",
		YLabel: "texel hit rate (%)", Categories: cats, Series: series, Width: 28 * 28.3465}
	if err := s.save("texture_bilinear", header, rows, f); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nTexture coherence (5.3.2), bilinear reconstruction (5.3.5), adaptive rate (Fig. 6); blur %g; errors against nearest 1:1 (mean RGB / max, 1/255)\n", Moderate)
	expt.Table(w, []string{"scene", "variant", "spp", "blur area", "rate (256)", "rate (1024)", "extra shading", "texel hit", "image error", "paper (HL2/TF2)"}, table)
	return nil
}

// sceneSeries returns a plot series for each sweep scene, in SweepScenes
// order, that has a value in each of the n categories.
func sceneSeries(byScene map[string][]float64, n int) []plot.Series {
	var series []plot.Series
	for _, sk := range SweepScenes {
		if len(byScene[sk.Scene]) == n {
			series = append(series, plot.Series{Name: sk.Scene, Y: byScene[sk.Scene]})
		}
	}
	return series
}
