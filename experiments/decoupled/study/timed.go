package study

import (
	"bytes"
	"fmt"
	"github.com/gfxsim/gfxsim/internal/outputs"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/internal/plot"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// TimedVariant is one timed frame of Fig. 13.
type TimedVariant struct {
	Name    string // "1x", "4x MSAA", "SL 8", "SS 27", ...
	Samples int
	Blur    float64
	Dec     scene.Decoupling
}

// TimedVariants are Fig. 13's frames: single-sampled and 4x MSAA without
// blur, then sort-last decoupled (SL) and supersampled (SS) at each count with
// blur. (The tiled T bars need a sort-middle machine, which gfxsim does not
// have yet.)
func TimedVariants(spps []int) []TimedVariant {
	off := scene.Decoupling{Mode: scene.DecoupleOff, Rate: 1}
	vs := []TimedVariant{{"1x", 1, 0, off}, {"4x MSAA", 4, 0, off}}
	for _, n := range spps {
		vs = append(vs, TimedVariant{"SL " + strconv.Itoa(n), n, Moderate, On},
			TimedVariant{"SS " + strconv.Itoa(n), n, Moderate, scene.Decoupling{Mode: scene.DecoupleSupersample, Rate: 1}})
	}
	return vs
}

// TimedPoint is a timed frame: cycles, busy cycles per pipeline stage (summed
// over a stage's units) and DRAM bytes, or the error that stopped it (a
// frame that failed is a row of the table, not the end of the study).
type TimedPoint struct {
	TimedVariant
	Scene     string
	Cycles    uint64
	Stages    map[string]float64
	DRAMBytes float64
	Err       string // why the frame is invalid ("": valid)
}

// stageOf names a unit's pipeline stage: "GPU.ShaderCore[3]" -> "ShaderCore".
func stageOf(unit string) string {
	unit = strings.TrimPrefix(unit, "GPU.")
	if i := strings.IndexAny(unit, ".["); i >= 0 {
		unit = unit[:i]
	}
	return unit
}

// Timed renders variant v of scene name at w x h on the default machine.
func Timed(name string, w, h int, v TimedVariant) TimedPoint {
	tp := TimedPoint{TimedVariant: v, Scene: name, Stages: map[string]float64{}}
	s, err := expt.LoadScene(name, w, h, v.Samples, scene.WithBlur(float32(v.Blur)))
	if err != nil {
		tp.Err = err.Error()
		return tp
	}
	for i := range s.Materials {
		s.Materials[i].Decoupled = v.Dec
	}
	cfg := configs.Default()
	f, err := driver.Encode(s, cfg.DriverOptions())
	if err != nil {
		tp.Err = err.Error()
		return tp
	}
	p, err := configs.Build(cfg)
	if err != nil {
		tp.Err = err.Error()
		return tp
	}
	res, err := p.Run(f)
	if err != nil {
		tp.Err = err.Error()
		return tp
	}
	// The timed image must equal the reference renderer's: a machine that
	// ignores decoupling (renders MSAA) would otherwise give plausible cycles.
	g, err := driver.Encode(s, cfg.DriverOptions())
	if err != nil {
		tp.Err = err.Error()
		return tp
	}
	o := reference.DefaultOptions()
	o.Raster = cfg.RasterOptions()
	o.BatchVertices = cfg.InputAssembler.BatchVertices
	o.WarpQuads = cfg.QuadPacker.QuadsPerWarp
	o.PatternSeed = cfg.PatternSeed()
	ref, err := reference.Render(g.Memory, g.Stream, g.StreamBytes, o)
	if err != nil {
		tp.Err = err.Error()
		return tp
	}
	if res.Image == nil || ref.Image == nil || !bytes.Equal(res.Image.Pix, ref.Image.Pix) {
		tp.Err = fmt.Sprintf("the timed image differs from the reference renderer's (does the timed machine run decoupled draws, mode %v?)", v.Dec.Mode)
	}
	tp.Cycles = res.Cycles
	for _, u := range p.Units {
		tp.Stages[stageOf(u.Name())] += res.Stats[u.Name()+".cycles_busy"]
	}
	for k, v := range res.Stats { // GPU.Memory.Channel[c].bytes_read / bytes_written
		if strings.HasPrefix(k, "GPU.Memory.Channel[") && (strings.HasSuffix(k, "].bytes_read") || strings.HasSuffix(k, "].bytes_written")) {
			tp.DRAMBytes += v
		}
	}
	return tp
}

// timedPlan lists Fig. 13's timed frames: every variant on each sweep scene.
func (s *study) timedPlan() []TimedPoint {
	spps := SampleCounts
	if s.o.Quick {
		spps = spps[:1]
	}
	var todo []TimedPoint
	for _, sk := range SweepScenes {
		for _, v := range TimedVariants(spps) {
			todo = append(todo, TimedPoint{TimedVariant: v, Scene: sk.Scene})
		}
	}
	return todo
}

func (s *study) writeFig13(w io.Writer, pts []TimedPoint) error {
	stageSet := map[string]bool{}
	for _, p := range pts {
		for k := range p.Stages {
			stageSet[k] = true
		}
	}
	var stages []string
	for k := range stageSet {
		stages = append(stages, k)
	}
	sort.Strings(stages)
	header := append([]string{"scene", "variant", "samples", "blur_scale", "cycles", "over_4x_msaa", "dram_bytes", "error"}, stages...)
	var rows, table [][]string
	var cats []string
	bySc := map[string][]float64{}
	for _, p := range pts {
		base := 0.0
		for _, q := range pts {
			if q.Scene == p.Scene && q.Name == "4x MSAA" {
				base = float64(q.Cycles)
			}
		}
		rel := 0.0
		if base > 0 {
			rel = float64(p.Cycles) / base
		}
		e := p.Err
		row := []string{p.Scene, p.Name, strconv.Itoa(p.Samples), g4(p.Blur), strconv.FormatUint(p.Cycles, 10), g4(rel), g4(p.DRAMBytes), e}
		for _, st := range stages {
			row = append(row, g4(p.Stages[st]))
		}
		rows = append(rows, row)
		note := ""
		if e != "" {
			note = "invalid: " + firstLine(e)
		}
		shade, ssShade, ssCycles := p.Stages["ShaderCore"], 0.0, 0.0
		if strings.HasPrefix(p.Name, "SL ") { // its supersampled twin: SS at the same count
			for _, q := range pts {
				if q.Scene == p.Scene && q.Name == "SS "+strings.TrimPrefix(p.Name, "SL ") {
					ssShade, ssCycles = q.Stages["ShaderCore"], float64(q.Cycles)
				}
			}
		}
		vsSS := ""
		if ssShade > 0 && shade > 0 && p.Cycles > 0 {
			vsSS = fmt.Sprintf("%.2fx / %.2fx", ssCycles/float64(p.Cycles), ssShade/shade)
		}
		table = append(table, []string{p.Scene, p.Name, strconv.FormatUint(p.Cycles, 10), f2(rel),
			fmt.Sprintf("%.1f", p.DRAMBytes/1e6), fmt.Sprintf("%.0f", shade/1e3), vsSS, note})
		if !contains(cats, p.Name) {
			cats = append(cats, p.Name)
		}
		bySc[p.Scene] = append(bySc[p.Scene], rel)
	}
	var series []plot.Series
	for _, sk := range SweepScenes {
		if len(bySc[sk.Scene]) == len(cats) {
			series = append(series, plot.Series{Name: sk.Scene, Y: bySc[sk.Scene]})
		}
	}
	f := &plot.Figure{Title: "Fig. 13: timed frame cycles over 4x MSAA without blur", XLabel: "variant",
		YLabel: "frame cycles / 4x MSAA", Categories: cats, Series: series}
	if err := outputs.WriteCSV(filepath.Join(s.o.Out, "fig13_cost.csv"), header, rows); err != nil {
		return err
	}
	if len(series) > 0 {
		if err := f.Save(filepath.Join(s.o.Out, "fig13_cost.png")); err != nil {
			return err
		}
	}
	fmt.Fprintln(w, "\nFig. 13: timed frames on the default sort-last machine (busy cycles per stage in fig13_cost.csv)")
	table = append(table, []string{"", "", "", "", "", "", "", "paper (HL2/TF2): " + PaperFig13})
	expt.Table(w, []string{"scene", "variant", "cycles", "over 4x MSAA", "DRAM MB", "shader busy (k cycles)", "SS over SL: total / shading", "note"}, table)
	return nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 100 {
		s = s[:100] + "..."
	}
	return s
}
