package study

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/internal/outputs"
	"github.com/gfxsim/gfxsim/internal/plot"
	"github.com/gfxsim/gfxsim/scene"
)

// writeFig13 writes Fig. 13 (fig13_cost.csv and .png, the busy cycles per
// stage in fig13_stages_<scene>.png) and the timed tiled rows beside Fig.
// 10's functional T (fig10_timed_tiled.csv and .png), and prints their
// tables.
func (s *study) writeFig13(w io.Writer, pts []TimedPoint) error {
	stages := stageNames(pts)
	if err := s.fig13Cost(w, pts, stages); err != nil {
		return err
	}
	if err := s.fig13Stages(w, pts, stages); err != nil {
		return err
	}
	return s.fig10Timed(w, pts)
}

// stageNames returns the stages of every point, sorted.
func stageNames(pts []TimedPoint) []string {
	set := map[string]bool{}
	for _, p := range pts {
		for k := range p.Stages {
			set[k] = true
		}
	}
	var stages []string
	for k := range set {
		stages = append(stages, k)
	}
	sort.Strings(stages)
	return stages
}

// baseline13 returns the 4x MSAA frame without blur of p's scene on p's
// machine (nil when the plan has none).
func baseline13(pts []TimedPoint, p *TimedPoint) *TimedPoint {
	for i := range pts {
		q := &pts[i]
		if q.Scene == p.Scene && q.Machine == p.Machine && q.Samples == 4 && q.Blur == 0 && q.Dec.Mode == scene.DecoupleOff {
			return q
		}
	}
	return nil
}

// supersampledTwin returns the supersampled frame (SS) of a decoupled
// frame's scene and count (nil for other frames).
func supersampledTwin(pts []TimedPoint, p *TimedPoint) *TimedPoint {
	if p.Dec.Mode != scene.DecoupleOn {
		return nil
	}
	for i := range pts {
		q := &pts[i]
		if q.Scene == p.Scene && q.Samples == p.Samples && q.Blur == p.Blur && q.Dec.Mode == scene.DecoupleSupersample {
			return q
		}
	}
	return nil
}

// overBaseline is p's cycles over its machine's 4x MSAA frame (0: none).
func overBaseline(pts []TimedPoint, p *TimedPoint) float64 {
	if b := baseline13(pts, p); b != nil && b.Cycles > 0 {
		return float64(p.Cycles) / float64(b.Cycles)
	}
	return 0
}

func (s *study) fig13Cost(w io.Writer, pts []TimedPoint, stages []string) error {
	header := append([]string{"scene", "variant", "machine", "samples", "blur_scale", "cycles", "over_4x_msaa", "dram_bytes", "error",
		"shades", "visible_samples", "cache_hits", "cache_misses", "shading_quads", "bin_spread", "tile_w", "tile_h"}, stages...)
	var rows, table [][]string
	var cats []string
	bySc := map[string][]float64{}
	for i := range pts {
		p := &pts[i]
		rel := overBaseline(pts, p)
		row := []string{p.Scene, p.Name, p.Machine, strconv.Itoa(p.Samples), g4(p.Blur), strconv.FormatUint(p.Cycles, 10), g4(rel),
			g4(p.DRAMBytes), p.Err, strconv.FormatInt(p.Shades, 10), strconv.FormatInt(p.VisibleSamples, 10)}
		if t := p.Tiled; t != nil {
			row = append(row, whole(t.CacheHits), whole(t.CacheMisses), whole(t.ShadingQuads), g4(t.BinSpread), strconv.Itoa(t.TileW), strconv.Itoa(t.TileH))
		} else {
			row = append(row, "", "", "", "", "", "")
		}
		for _, st := range stages {
			if v, ok := p.Stages[st]; ok {
				row = append(row, g4(v))
			} else {
				row = append(row, "") // the machine has no such stage
			}
		}
		rows = append(rows, row)
		note := ""
		if p.Err != "" {
			note = "invalid: " + firstLine(p.Err)
		}
		shade, vsSS := p.Stages["ShaderCore"], ""
		if ss := supersampledTwin(pts, p); ss != nil && shade > 0 && p.Cycles > 0 && ss.Stages["ShaderCore"] > 0 {
			vsSS = fmt.Sprintf("%.2fx / %.2fx", float64(ss.Cycles)/float64(p.Cycles), ss.Stages["ShaderCore"]/shade)
		}
		perVisible := ""
		if p.VisibleSamples > 0 {
			perVisible = fmt.Sprintf("%.3g", float64(p.Shades)/float64(p.VisibleSamples))
		}
		table = append(table, []string{p.Scene, p.Name, p.Machine, strconv.FormatUint(p.Cycles, 10), f2(rel),
			fmt.Sprintf("%.1f", p.DRAMBytes/1e6), fmt.Sprintf("%.0f", shade/1e3), perVisible, vsSS, note})
		if !slices.Contains(cats, p.Name) {
			cats = append(cats, p.Name)
		}
		bySc[p.Scene] = append(bySc[p.Scene], rel)
	}
	series := sceneSeries(bySc, len(cats))
	f := &plot.Figure{Title: "Fig. 13: timed frame cycles over the machine's 4x MSAA frame without blur", XLabel: "variant (T: tiled machine)",
		YLabel: "frame cycles / 4x MSAA", Categories: cats, Series: series, Width: 24 * 28.3465}
	if err := outputs.WriteCSV(filepath.Join(s.o.Out, "fig13_cost.csv"), header, rows); err != nil {
		return err
	}
	if len(series) > 0 {
		if err := f.Save(filepath.Join(s.o.Out, "fig13_cost.png")); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "\nFig. 13: timed frames, sort-last (1x, 4x MSAA, SL, SS) and tiled (T) machines; over the same machine's 4x MSAA frame (busy cycles per stage in fig13_cost.csv)")
	table = append(table, []string{"", "", "", "", "", "", "", "", "", "paper (HL2/TF2): " + PaperFig13})
	expt.Table(w, []string{"scene", "variant", "machine", "cycles", "over 4x MSAA", "DRAM MB", "shader busy (k cycles)",
		"shades / visible sample (ideal SS: 1)", "SS over SL/T: total / shading", "note"}, table)
	return nil
}

// plottedStages is how many stages the stacked figure shows; the others are
// summed as "other" (the palette has ten colours).
const plottedStages = 9

func (s *study) fig13Stages(w io.Writer, pts []TimedPoint, stages []string) error {
	var table [][]string
	total := map[string]float64{}
	for _, p := range pts {
		row := []string{p.Scene, p.Name}
		for _, st := range stages {
			v, ok := p.Stages[st]
			total[st] += v
			if ok {
				row = append(row, fmt.Sprintf("%.0f", v/1e3))
			} else {
				row = append(row, "")
			}
		}
		table = append(table, row)
	}
	fmt.Fprintln(w, "\nFig. 13: busy cycles per stage (k cycles, units summed; a tile unit's rasterizer, depth unit, quad packer, reorder buffer and ROP in their stages)")
	expt.Table(w, append([]string{"scene", "variant"}, stages...), table)

	names, slot := stackedStages(stages, total)
	for _, sk := range SweepScenes {
		var cats []string
		series := make([]plot.Series, len(names))
		for i, n := range names {
			series[i].Name = n
		}
		for _, p := range pts {
			if p.Scene != sk.Scene {
				continue
			}
			cats = append(cats, p.Name)
			for i := range series {
				series[i].Y = append(series[i].Y, 0)
			}
			for _, st := range stages {
				series[slot[st]].Y[len(cats)-1] += p.Stages[st] / 1e6
			}
		}
		if len(cats) == 0 {
			continue
		}
		f := &plot.Figure{Title: fmt.Sprintf("Fig. 13: busy cycles per stage, %s (units summed)", sk.Scene), XLabel: "variant (T: tiled machine)",
			YLabel: "busy cycles (millions)", Categories: cats, Series: series, Stacked: true, Width: 24 * 28.3465}
		if err := f.Save(filepath.Join(s.o.Out, "fig13_stages_"+sk.Scene+".png")); err != nil {
			return err
		}
	}
	return nil
}

// stackedStages returns the series of the stacked figure: the plottedStages
// stages with the most busy cycles over all frames (total), in name order,
// then "other" for the rest; and each stage's series.
func stackedStages(stages []string, total map[string]float64) (names []string, slot map[string]int) {
	big := append([]string(nil), stages...)
	sort.SliceStable(big, func(i, j int) bool { return total[big[i]] > total[big[j]] })
	shown := map[string]bool{}
	for _, st := range big[:min(len(big), plottedStages)] {
		shown[st] = true
	}
	slot = map[string]int{}
	for _, st := range stages {
		if shown[st] {
			slot[st] = len(names)
			names = append(names, st)
		}
	}
	if len(big) > plottedStages {
		for _, st := range stages {
			if !shown[st] {
				slot[st] = len(names)
			}
		}
		names = append(names, "other")
	}
	return names, slot
}

// fig10Timed compares the timed tiled machine's shading with the functional
// per-tile model's on the same frames: the T frames of Fig. 13.
func (s *study) fig10Timed(w io.Writer, pts []TimedPoint) error {
	sz := s.size("fig13")
	header := []string{"scene", "blur_kind", "samples", "blur_scale", "width", "height", "tile_w", "tile_h", "model_tile_w", "model_tile_h",
		"entries", "covered_pixels", "visible_samples", "shading_quads_timed", "rate_timed", "savings_timed",
		"shading_quads_model", "rate_model", "shading_quads_model_unbounded", "rate_model_unbounded",
		"cache_hits", "cache_misses", "bin_spread_timed", "bin_spread_model"}
	var rows, table [][]string
	var cats []string
	var timedY, modelY, unbY []float64
	entries := 0
	for i := range pts {
		p := &pts[i]
		t := p.Tiled
		if t == nil || p.Dec.Mode != scene.DecoupleOn {
			continue
		}
		entries = t.Entries
		mq, _ := find(t.Functional.Tiled, t.Entries)
		uq, _ := find(t.Functional.Tiled, Unbounded)
		tq := t.Quads()
		mr, ur := decouple.ShadingRate(mq, t.CoveredPixels), decouple.ShadingRate(uq, t.CoveredPixels)
		sav := decouple.Savings(t.VisibleSamples, tq)
		fc := &t.Functional
		rows = append(rows, []string{p.Scene, kindOf(p.Scene), strconv.Itoa(p.Samples), g4(p.Blur), strconv.Itoa(sz.Width), strconv.Itoa(sz.Height),
			strconv.Itoa(t.TileW), strconv.Itoa(t.TileH), strconv.Itoa(fc.TileW), strconv.Itoa(fc.TileH), strconv.Itoa(t.Entries),
			strconv.FormatInt(t.CoveredPixels, 10), strconv.FormatInt(t.VisibleSamples, 10), strconv.FormatInt(tq, 10), g4(t.Rate()), g4(sav),
			strconv.FormatInt(mq, 10), g4(mr), strconv.FormatInt(uq, 10), g4(ur), whole(t.CacheHits), whole(t.CacheMisses),
			g4(t.BinSpread), g4(fc.BinSpread())})
		note := ""
		if p.Err != "" {
			note = "invalid: " + firstLine(p.Err)
		}
		hit := 0.0
		if t.CacheHits+t.CacheMisses > 0 {
			hit = t.CacheHits / (t.CacheHits + t.CacheMisses)
		}
		table = append(table, []string{p.Scene, strconv.Itoa(p.Samples), fmt.Sprintf("%dx%d / %dx%d", t.TileW, t.TileH, fc.TileW, fc.TileH),
			strconv.FormatInt(t.CoveredPixels, 10), f2(t.Rate()), f2(mr), f2(ur), f2(sav), pc(hit),
			fmt.Sprintf("%.3f / %.3f", t.BinSpread, fc.BinSpread()), paperCol(len(table) == 0, PaperFig10Tiled), note})
		cats = append(cats, fmt.Sprintf("%s %d", p.Scene, p.Samples))
		timedY, modelY, unbY = append(timedY, t.Rate()), append(modelY, mr), append(unbY, ur)
	}
	if len(cats) == 0 {
		return nil
	}
	f := &plot.Figure{Title: fmt.Sprintf("Fig. 10: tiled shading rate at blur %g, timed machine and functional model (%dx%d)", Moderate, sz.Width, sz.Height),
		XLabel: "scene, samples per pixel", YLabel: "shading rate (shades per covered pixel)", Categories: cats,
		Series: []plot.Series{{Name: "timed T", Y: timedY}, {Name: fmt.Sprintf("model T, LRU %d", entries), Y: modelY}, {Name: "model T, unbounded", Y: unbY}}}
	if err := s.save("fig10_timed_tiled", header, rows, f); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nFig. 10, timed T: the tiled machine's shading (its reorder buffers' per-tile caches of %d shading quads, flushed per tile) against the functional per-tile LRU of that size on the same %dx%d frames\n",
		entries, sz.Width, sz.Height)
	expt.Table(w, []string{"scene", "spp", "tile (machine / model)", "covered px", "T rate timed", fmt.Sprintf("T rate model (%d)", entries),
		"model unbounded", "T savings timed", "cache hits", "bin spread (timed / model)", "paper (HL2/TF2)", "note"}, table)
	return nil
}

// whole formats a counter exactly.
func whole(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 100 {
		s = s[:100] + "..."
	}
	return s
}
