package study

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/internal/progress/progresstest"
)

// readCSV returns a CSV's rows as maps from column to cell, checking that
// every wanted column is present.
func readCSV(t *testing.T, path string, want ...string) []map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("%s: %v, %d records", path, err, len(recs))
	}
	cols := map[string]bool{}
	for _, h := range recs[0] {
		cols[h] = true
	}
	for _, w := range want {
		if !cols[w] {
			t.Errorf("%s: no column %q", path, w)
		}
	}
	var rows []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		rows = append(rows, m)
	}
	return rows
}

func num(t *testing.T, row map[string]string, col string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(row[col], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		t.Fatalf("column %s: %q is not a finite number (%v)", col, row[col], err)
	}
	return v
}

// TestQuickStudy runs the -quick study and checks every output and the
// relations the models must satisfy.
func TestQuickStudy(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	dir := t.TempDir()
	var out bytes.Buffer
	if err := Run(Options{Common: expt.Common{Out: dir, Quick: true}, Timed: true}, &out); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"fig10_shading_shading_rate.png", "fig10_shading_savings.png", "fig10_cache_size.png",
		"fig11_binspread.png", "fig12_framebuffer_framebuffer_traffic.png", "fig12_framebuffer_framebuffer_traffic_vs_cache.png",
		"fig12_framebuffer_framebuffer_traffic_vs_line.png", "fig09_animation_shading_rate.png", "fig09_animation_framebuffer_traffic.png",
		"fig09_animation_bin_spread.png", "fig09_animation_blur_area.png", "texture_bilinear.png", "fig13_cost.png", "fig13_cost.csv"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, want := range []string{"seed 1", "paper (HL2/TF2/bats)", "Fig. 9:", "Fig. 11:", "Fig. 12:", "Fig. 13:", "texel hit"} {
		if !bytes.Contains(out.Bytes(), []byte(want)) {
			t.Errorf("the report lacks %q", want)
		}
	}

	// Fig. 10: 2 scenes x 2 counts x 3 blurs; blur 0 has blur area 1.
	shading := readCSV(t, filepath.Join(dir, "fig10_shading.csv"), "scene", "samples", "blur_area", "rate_global", "savings_global",
		"rate_tiled", "savings_tiled", "rate_global_unbounded", "rate_tiled_unbounded", "shading_quads_global")
	if len(shading) != 12 {
		t.Errorf("fig10_shading.csv: %d rows, want 12", len(shading))
	}
	for _, r := range shading {
		for _, c := range []string{"blur_area", "rate_global", "savings_global", "rate_tiled", "savings_tiled", "rate_global_unbounded"} {
			num(t, r, c)
		}
		g, tl, gu, tu := num(t, r, "rate_global"), num(t, r, "rate_tiled"), num(t, r, "rate_global_unbounded"), num(t, r, "rate_tiled_unbounded")
		if gu > g || tu > tl || g > tl+1e-12 && num(t, r, "blur_scale") == 0 || gu > tu {
			t.Errorf("%v: rates global %v tiled %v, unbounded %v %v", r, g, tl, gu, tu)
		}
		if num(t, r, "blur_scale") == 0 && (num(t, r, "blur_area") != 1 || g != tl || g != gu) {
			t.Errorf("blur 0: %v", r)
		}
	}
	// Blur 0 shades as MSAA: the same shading quads as the MSAA frame of
	// the texture table (same scene, size and count).
	tex := readCSV(t, filepath.Join(dir, "texture_bilinear.csv"), "variant", "texel_hit_rate", "rate_1024", "err_mean_r", "err_max_b")
	for _, r := range shading {
		if num(t, r, "blur_scale") != 0 || r["samples"] != "8" {
			continue
		}
		found := false
		for _, x := range tex {
			if x["scene"] == r["scene"] && x["variant"] == "MSAA, no blur" {
				found = true
				if x["shading_quads_1024"] != r["shading_quads_global"] || x["rate_1024"] != r["rate_global"] {
					t.Errorf("%s blur 0: %s shading quads (rate %s), MSAA %s (%s)", r["scene"], r["shading_quads_global"], r["rate_global"],
						x["shading_quads_1024"], x["rate_1024"])
				}
			}
		}
		if !found {
			t.Errorf("no MSAA row for %s", r["scene"])
		}
	}
	for _, x := range tex {
		if h := num(t, x, "texel_hit_rate"); h <= 0.5 || h > 1 {
			t.Errorf("texel hit rate %v: %v", h, x)
		}
	}

	// Cache sizes: a larger LRU never shades more than a smaller one, the
	// unbounded cache never more than any bounded one.
	cache := readCSV(t, filepath.Join(dir, "fig10_cache_size.csv"), "scene", "samples", "model", "entries", "shading_quads", "savings")
	type key struct{ scene, spp, model string }
	prev := map[key]float64{}
	unb := map[key]float64{}
	for _, r := range cache {
		k := key{r["scene"], r["samples"], r["model"]}
		q := num(t, r, "shading_quads")
		if r["entries"] == "unbounded" {
			unb[k] = q
			continue
		}
		if p, ok := prev[k]; ok && q > p {
			t.Errorf("%v: %v entries shade %v quads, more than the smaller cache's %v", k, r["entries"], q, p)
		}
		prev[k] = q
	}
	if len(unb) != 8 {
		t.Errorf("%d unbounded rows, want 8", len(unb))
	}
	for k, u := range unb {
		if u > prev[k] {
			t.Errorf("%v: unbounded shades %v, more than the largest bounded cache's %v", k, u, prev[k])
		}
	}

	// Fig. 11 and Fig. 12.
	for _, r := range readCSV(t, filepath.Join(dir, "fig11_binspread.csv"), "bin_spread", "tile_w", "tile_h") {
		if num(t, r, "bin_spread") < 1 {
			t.Errorf("bin spread below 1: %v", r)
		}
	}
	fb := readCSV(t, filepath.Join(dir, "fig12_framebuffer.csv"), "scene", "samples", "blur_scale", "line_bytes", "framebuffer_mb", "over_no_blur")
	lines := 0
	for _, r := range fb {
		o := num(t, r, "over_no_blur")
		if num(t, r, "framebuffer_mb") <= 0 {
			t.Errorf("no traffic: %v", r)
		}
		if r["line_bytes"] == "4" && num(t, r, "blur_scale") > 0 {
			lines++
			// One-sample lines: blur spreads the accesses but does not
			// change the traffic (the paper's note to Fig. 12).
			if math.Abs(o) > 0.03 {
				t.Errorf("4-byte lines: blurred traffic %+.2f%% over no blur: %v", 100*o, r)
			}
		}
	}
	if lines != 4 {
		t.Errorf("%d blurred 4-byte-line rows, want 4", lines)
	}
	if n := len(readCSV(t, filepath.Join(dir, "fig09_animation.csv"), "frame", "samples", "rate_global", "rate_tiled", "framebuffer_mb",
		"bin_spread", "blur_area")); n != 4 {
		t.Errorf("fig09: %d rows, want 2 frames x 2 counts", n)
	}
	checkQuickFig13(t, dir)
}

// checkQuickFig13 checks the timed frames of the -quick study: every variant
// of both machines valid, the tiled figures on the tiled frames only, the
// tile unit's stages, and the timed tiled rows beside Fig. 10.
func checkQuickFig13(t *testing.T, dir string) {
	t.Helper()
	for _, f := range []string{"fig13_stages_defocus.png", "fig13_stages_egomotion.png", "fig10_timed_tiled.png"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	tiledCols := []string{"cache_hits", "cache_misses", "shading_quads", "bin_spread", "tile_w", "tile_h", "Binner", "TileScheduler", "TileUnit"}
	rows := map[string]map[string]string{} // scene/variant -> row
	var names []string
	for _, r := range readCSV(t, filepath.Join(dir, "fig13_cost.csv"), append([]string{"scene", "variant", "machine", "cycles",
		"over_4x_msaa", "ShaderCore", "Rasterizer", "ROP"}, tiledCols...)...) {
		if num(t, r, "cycles") <= 0 || num(t, r, "dram_bytes") <= 0 || r["error"] != "" {
			t.Errorf("timed frame: %v", r)
		}
		tiled := r["machine"] == SortMiddle
		if !tiled && r["machine"] != SortLast {
			t.Errorf("machine %q: %v", r["machine"], r)
		}
		for _, c := range tiledCols {
			if (r[c] != "") != tiled {
				t.Errorf("%s %s on %s: column %s = %q", r["scene"], r["variant"], r["machine"], c, r[c])
			}
		}
		if r["Rasterizer"] == "" || r["ROP"] == "" || num(t, r, "Rasterizer") <= 0 || num(t, r, "ROP") <= 0 {
			t.Errorf("%s %s: no rasterizer or ROP busy cycles: %v", r["scene"], r["variant"], r)
		}
		rows[r["scene"]+"/"+r["variant"]] = r
		if r["scene"] == "defocus" {
			names = append(names, r["variant"])
		}
	}
	if got, want := strings.Join(names, ","), "1x,4x MSAA,T 4x MSAA,SL 8,T 8,SS 8"; got != want {
		t.Errorf("fig13 variants %s, want %s", got, want)
	}
	for _, sc := range []string{"defocus", "egomotion"} {
		sl, tl, ss := rows[sc+"/SL 8"], rows[sc+"/T 8"], rows[sc+"/SS 8"]
		if sl == nil || tl == nil || ss == nil {
			t.Fatalf("%s: SL, T or SS 8 missing", sc)
		}
		if slBusy, tBusy, ssBusy := num(t, sl, "ShaderCore"), num(t, tl, "ShaderCore"), num(t, ss, "ShaderCore"); slBusy <= 0 || tBusy <= 0 ||
			ssBusy <= slBusy || ssBusy <= tBusy {
			t.Errorf("%s: timed shading busy cycles SL 8 = %v, T 8 = %v, SS 8 = %v: supersampling must shade more", sc, slBusy, tBusy, ssBusy)
		}
		// Supersampling shades whole quads of each sample index, helpers
		// included: at least once per visible sample, the paper's idealized
		// supersampler's count. The frames without blur count no visible
		// samples (they are neither decoupled nor supersampled).
		for _, r := range []map[string]string{sl, tl, ss} {
			if num(t, r, "visible_samples") <= 0 || num(t, r, "shades") <= 0 {
				t.Errorf("%s %s: %v shades, %v visible samples", sc, r["variant"], r["shades"], r["visible_samples"])
			}
		}
		if num(t, ss, "shades") < num(t, ss, "visible_samples") {
			t.Errorf("%s SS 8: %v shades for %v visible samples: supersampling shades every visible sample", sc, ss["shades"], ss["visible_samples"])
		}
		if m := rows[sc+"/4x MSAA"]; m == nil || num(t, m, "visible_samples") != 0 || num(t, m, "shades") <= 0 {
			t.Errorf("%s 4x MSAA: %v", sc, m)
		}
		// Every miss of the shading cache shades one shading quad; MSAA
		// frames take the 2D path and never look the cache up.
		if q := num(t, tl, "shading_quads"); q <= 0 || q != num(t, tl, "cache_misses") {
			t.Errorf("%s T 8: %v shading quads, %v misses", sc, q, num(t, tl, "cache_misses"))
		}
		if m := rows[sc+"/T 4x MSAA"]; m == nil || num(t, m, "over_4x_msaa") != 1 || num(t, m, "shading_quads") != 0 || num(t, m, "cache_hits") != 0 {
			t.Errorf("%s: T 4x MSAA, the tiled machine's own baseline: %v", sc, m)
		}
	}
	timed := readCSV(t, filepath.Join(dir, "fig10_timed_tiled.csv"), "scene", "samples", "tile_w", "tile_h", "model_tile_w", "model_tile_h",
		"covered_pixels", "shading_quads_timed", "rate_timed", "shading_quads_model", "shading_quads_model_unbounded", "bin_spread_timed",
		"bin_spread_model")
	if len(timed) != 2 {
		t.Errorf("fig10_timed_tiled.csv: %d rows, want 2 scenes x 1 count", len(timed))
	}
	for _, r := range timed {
		q, m, u := num(t, r, "shading_quads_timed"), num(t, r, "shading_quads_model"), num(t, r, "shading_quads_model_unbounded")
		if c := num(t, r, "covered_pixels"); c <= 0 || u <= 0 || q < u || m < u {
			t.Errorf("%s: %v covered pixels; shading quads timed %v, model %v, unbounded %v: no per-tile cache shades less than the per-tile memo",
				r["scene"], c, q, m, u)
		}
		if r["tile_w"] != r["model_tile_w"] || r["tile_h"] != r["model_tile_h"] || r["bin_spread_timed"] != r["bin_spread_model"] {
			t.Errorf("%s: the machine's tiles or bins differ from the model's: %v", r["scene"], r)
		}
	}
}

// TestFigures: -figures selects figures in FigureNames order; Fig. 13 needs
// Timed; bad names and an empty selection are refused, naming -figures.
func TestFigures(t *testing.T) {
	for _, tc := range []struct {
		figures []string
		timed   bool
		want    string
	}{
		{nil, true, "9,10,11,12,texture,13"},
		{nil, false, "9,10,11,12,texture"},
		{[]string{"13", "10"}, true, "10,13"},
		{[]string{"13", "10"}, false, "10"},
		{[]string{"13", "x"}, true, `error: -figures 13,x: "x" is not one of 9, 10, 11, 12, texture, 13`},
		{[]string{"13"}, false, "error: -figures 13 with -timed=false: no figure to run"},
	} {
		o := Options{Figures: tc.figures, Timed: tc.timed}
		sel, got, err := o.figures()
		if err != nil {
			got = "error: " + err.Error()
		} else if n := len(strings.Split(got, ",")); n != len(sel) {
			t.Errorf("%v: %d selected for %q", tc.figures, len(sel), got)
		}
		if got != tc.want {
			t.Errorf("figures %v, timed %v: %q, want %q", tc.figures, tc.timed, got, tc.want)
		}
	}
}

// The unbounded global cache shades exactly what the reference renderer's
// memo shades, and the 1:1 image error of a frame against itself is 0.
func TestUnboundedIsReferenceMemo(t *testing.T) {
	for _, name := range []string{"defocus", "egomotion", "bats"} {
		p, err := Render(Frame{Scene: name, Width: 64, Height: 36, Samples: 8, Blur: 1, Decoupling: On, KeepImage: true},
			Models{Global: []int{Unbounded, 64}, Tiled: []int{Unbounded}}, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := p.global(Unbounded)
		b, _ := p.global(64)
		tu, _ := p.tiled(Unbounded)
		if u != p.Ref.ShadingQuads || b < u || tu < u || p.VisibleSamples != p.Ref.VisibleSamples || p.CoveredPixels != p.Ref.CoveredPixels {
			t.Errorf("%s: unbounded %d, reference %d, LRU(64) %d, tiled %d; visible %d/%d, covered %d/%d", name, u, p.Ref.ShadingQuads, b, tu,
				p.VisibleSamples, p.Ref.VisibleSamples, p.CoveredPixels, p.Ref.CoveredPixels)
		}
		if mean, maxe := imageError(p.Image, p.Image); mean != [4]float64{} || maxe != [4]float64{} {
			t.Errorf("%s: self error %v %v", name, mean, maxe)
		}
	}
}

// The ROP model: line fills on misses, write-backs of dirty victims and of
// the dirty lines left at the end, in bytes.
func TestROPTraffic(t *testing.T) {
	r := ROPCache{ColorBytes: ROPWays * 32, DepthBytes: ROPWays * 32, LineBytes: 32} // one set of 16 lines each
	p, err := newProbe(nil, 64, 64, 8, Models{ROP: []ROPCache{r}})
	if err != nil {
		t.Fatal(err)
	}
	acc := func(addr uint64, depth, write bool) {
		p.Framebuffer(reference.Access{Addr: addr, Depth: depth, Write: write})
	}
	acc(0, true, false)  // depth read miss: fill 32
	acc(4, true, true)   // hit, dirty
	acc(64, false, true) // colour write miss: fill 32, dirty
	for i := uint64(1); i <= 16; i++ {
		acc(i*32+1024, true, false) // 16 depth fills; the 16th evicts line 0, dirty: +32
	}
	c := p.finish() // the dirty colour line is flushed: +32
	if want := int64(32 + 32 + 16*32 + 32 + 32); c.ROP[0].Bytes != want {
		t.Errorf("traffic %d bytes, want %d", c.ROP[0].Bytes, want)
	}
	if _, err := newProbe(nil, 64, 64, 8, Models{ROP: []ROPCache{{ColorBytes: 100, DepthBytes: 512, LineBytes: 32}}}); err == nil {
		t.Error("a 100-byte colour cache was accepted")
	}

}

func TestQuietRules(t *testing.T) { progresstest.CheckOptions(t, ParseFlags) }
