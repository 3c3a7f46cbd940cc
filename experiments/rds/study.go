package main

import (
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/functional/shader/library"
	"github.com/gfxsim/gfxsim/functional/shader/multipass"
	"github.com/gfxsim/gfxsim/internal/outputs"
	"github.com/gfxsim/gfxsim/internal/progress"
	"github.com/gfxsim/gfxsim/tracing"
)

type options struct {
	out           string
	steps         int64
	timeout       time.Duration
	shaders       string
	frame         bool
	width, height int
	instruments   tracing.Flags
	inputs        expt.Inputs
	sweep         expt.SweepFlags
	// untimed measures no wall times (every Seconds is 0), so that two runs
	// print the same bytes: the shard check's setting (no flag sets it).
	untimed bool
	// Printed: progress lines (Log), the closing line (Summary: wall time
	// and outputs) and a progress bar over the points on stderr (Bar).
	progress.Printed
}

// outcome is one algorithm's partition of one case.
type outcome struct {
	Cost    float64
	Passes  int
	Seconds float64
	Evals   int
	Parts   costParts
}

// costParts is what a partition's cost is made of (Figure 6).
type costParts struct {
	Restores      int // restored values, summed over the passes
	RestorePasses int // passes that restore (one address computation each)
	TexFetches    int // texture instructions, restores included
	Other         int // non-texture instructions
}

func partsOf(p *multipass.Partition) costParts {
	c := costParts{TexFetches: p.Total.TexFetches, Other: p.Total.Other()}
	for _, ps := range p.Passes {
		c.Restores += ps.Usage.Restores
		if ps.Usage.Restores > 0 {
			c.RestorePasses++
		}
	}
	return c
}

// result is one shader x pipeline configuration x cost model.
type result struct {
	Shader                 string
	PC                     multipass.Limits
	Model                  multipass.CostModel
	RDS, RDSh, Greedy, Opt outcome
	Search                 multipass.SearchResult
}

// effOpt is the efficiency of RDS: its cost over the optimum's, in percent
// (valid only when the search completed).
func (r *result) effOpt() float64 { return 100 * (r.RDS.Cost - r.Opt.Cost) / r.Opt.Cost }

// effH is the efficiency of RDS_h: its cost over RDS's, in percent.
func (r *result) effH() float64 { return 100 * (r.RDSh.Cost - r.RDS.Cost) / r.RDS.Cost }

// point is one point of the study: a case, the reference image of the
// timed frames, or a timed frame.
type point struct {
	Case      *result     `json:",omitempty"`
	Reference *image.RGBA `json:",omitempty"`
	Frame     *frameRow   `json:",omitempty"`
}

func run(o options, w io.Writer) error {
	shaders := map[string]*multipass.Shader{}
	var names []string
	for _, n := range strings.Split(o.shaders, ",") {
		n = strings.TrimSpace(n)
		if shaders[n] != nil {
			return fmt.Errorf("-shaders %s: %s is given twice", o.shaders, n)
		}
		m, err := library.Get(n)
		if err != nil {
			return fmt.Errorf("-shaders %s: %w", o.shaders, err)
		}
		sh, err := multipass.Analyze(m.PS, multipass.Options{})
		if err != nil {
			return err
		}
		shaders[n] = sh
		names = append(names, n)
	}
	type solveCase struct {
		shader string
		model  multipass.CostModel
		pc     multipass.Limits
	}
	var cases []solveCase
	sw := &expt.Sweep[point]{Study: "rds", Out: o.out, Workers: 1, Fingerprint: expt.Fingerprint{
		"steps": strconv.FormatInt(o.steps, 10), "timeout": o.timeout.String(), "shaders": strings.Join(names, ","),
		"frame": strconv.FormatBool(o.frame), "width": strconv.Itoa(o.width), "height": strconv.Itoa(o.height)}}
	for _, n := range names {
		for _, model := range multipass.CostModels() {
			for _, pc := range multipass.PipelineConfigs() {
				cases = append(cases, solveCase{n, model, pc})
				sw.Points = append(sw.Points, expt.RunName(n, pc.Name, model.Name))
			}
		}
	}
	var machines []multipass.Limits
	if o.frame {
		machines = frameMachines()
		sw.Points = append(sw.Points, "frame-reference")
		for _, lim := range machines {
			sw.Points = append(sw.Points, expt.RunName("frame", lim.Name))
		}
	}
	bar := progress.New(os.Stderr, 0, o.Bar)
	o.Log = bar.Writer(o.Log)
	sw.Bar = bar
	start := time.Now()
	if o.Log != nil {
		sw.Done = func(done, total, i int, _ point) {
			fmt.Fprintf(o.Log, "[%3d/%d %5.0fs] %s\n", done, total, time.Since(start).Seconds(), sw.Points[i])
		}
	}
	fs := newFrameStudy(o)
	defer fs.sess.Close()
	sw.Run = func(i int) (point, error) {
		switch {
		case i < len(cases):
			c := cases[i]
			r, err := solve(shaders[c.shader], c.shader, c.pc, c.model, o)
			if err != nil {
				return point{}, fmt.Errorf("%s on %s with %s: %w", c.shader, c.pc.Name, c.model.Name, err)
			}
			return point{Case: r}, nil
		case i == len(cases):
			img, err := fs.reference()
			return point{Reference: img}, err
		}
		r, err := fs.frame(machines[i-len(cases)-1])
		return point{Frame: r}, err
	}
	sw.Merge = func(w io.Writer, pts []point) error {
		fmt.Fprintf(w, "rds: exhaustive search budget %d steps", o.steps)
		if o.timeout > 0 {
			fmt.Fprintf(w, " or %v", o.timeout)
		}
		fmt.Fprint(w, " per case\n\n")
		if err := table1(w, o.out, names, shaders); err != nil {
			return err
		}
		var results []*result
		for _, p := range pts[:len(cases)] {
			results = append(results, p.Case)
		}
		if err := writeResults(o.out, results); err != nil {
			return err
		}
		table3(w, names, results)
		table4(w, names, results)
		summary(w, names, results)
		if sh, ok := shaders["bowlingpin"]; ok {
			if err := table5(w, o.out, sh); err != nil {
				return err
			}
		}
		if err := plots(o.out, names, results); err != nil {
			return err
		}
		if o.frame {
			var rows []*frameRow
			for _, p := range pts[len(cases)+1:] {
				rows = append(rows, p.Frame)
			}
			if err := frameReport(w, o, pts[len(cases)].Reference, rows); err != nil {
				return err
			}
		}
		return nil // (PrintWallTime names the output folder on stderr, as every study does)
	}
	if err := sw.Main(o.sweep, w); err != nil {
		return err
	}
	expt.PrintWallTime(o.Printed, o.sweep.List, start, o.out)
	return nil
}

// timed runs f until at least 20 ms have passed and returns the mean time of
// one run; untimed, it runs f once and returns 0.
func timed(untimed bool, f func() error) (float64, error) {
	if untimed {
		return 0, f()
	}
	start := time.Now()
	n := 0
	for {
		if err := f(); err != nil {
			return 0, err
		}
		n++
		if d := time.Since(start); d >= 20*time.Millisecond {
			return d.Seconds() / float64(n), nil
		}
	}
}

func solve(sh *multipass.Shader, name string, pc multipass.Limits, model multipass.CostModel, o options) (*result, error) {
	r := &result{Shader: name, PC: pc, Model: model}
	p := sh.Problem(pc, model)
	var parts []*multipass.Partition // RDS, RDS_h, greedy
	algo := func(dst *outcome, f func() (*multipass.Partition, error)) error {
		var part *multipass.Partition
		s, err := timed(o.untimed, func() error {
			var err error
			part, err = f()
			return err
		})
		if err != nil {
			return err
		}
		*dst = outcome{Cost: part.Cost, Passes: part.NumPasses(), Seconds: s, Evals: part.Evaluations, Parts: partsOf(part)}
		parts = append(parts, part)
		return nil
	}
	if err := algo(&r.RDS, p.RDS); err != nil {
		return nil, err
	}
	if err := algo(&r.RDSh, p.RDSh); err != nil {
		return nil, err
	}
	if err := algo(&r.Greedy, p.Greedy); err != nil {
		return nil, err
	}
	// The search starts from the cheapest heuristic partition.
	inc := parts[0]
	for _, h := range parts[1:] {
		if h.Cost < inc.Cost {
			inc = h
		}
	}
	opts := multipass.SearchOptions{MaxSteps: o.steps, Incumbent: inc}
	if o.timeout > 0 {
		deadline := time.Now().Add(o.timeout)
		opts.Stop = func() bool { return time.Now().After(deadline) }
	}
	start := time.Now()
	part, res, err := p.Optimal(opts)
	if err != nil {
		return nil, err
	}
	secs := time.Since(start).Seconds()
	if o.untimed {
		secs = 0
	}
	r.Opt = outcome{Cost: part.Cost, Passes: part.NumPasses(), Seconds: secs, Evals: part.Evaluations, Parts: partsOf(part)}
	r.Search = res
	return r, nil
}

func f0(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
func itoa(v int) string   { return strconv.Itoa(v) }

func secs(v float64) string {
	if v < 0.01 {
		return "< 0.01"
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func table1(w io.Writer, out string, names []string, shaders map[string]*multipass.Shader) error {
	header := []string{"shader", "total nodes (n)", "MR nodes (k)", "non-texture ops", "texture ops", "total ops",
		"registers", "texture units", "interpolants", "operations", "leaves", "MR leaves", "dependency depth"}
	var rows [][]string
	for _, n := range names {
		s := shaders[n].Stats()
		rows = append(rows, []string{n, itoa(s.Nodes), itoa(s.MR), itoa(s.NonTexture), itoa(s.Texture),
			itoa(s.NonTexture + s.Texture), itoa(s.Registers), itoa(s.TexUnits), itoa(s.Interpolants),
			itoa(s.Operations), itoa(s.Leaves), itoa(s.MRLeaves), itoa(s.TexDepth)})
	}
	fmt.Fprintln(w, "Table 1: shaders (resources of the single pass, after gfxsim's code generation and register allocation)")
	expt.Table(w, header[:9], cut(rows, 9))
	fmt.Fprintln(w)
	return outputs.WriteCSV(filepath.Join(out, "table1_shaders.csv"), header, rows)
}

func cut(rows [][]string, n int) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = r[:n]
	}
	return out
}

func writeResults(out string, results []*result) error {
	header := []string{"shader", "pc", "limits", "cost_model",
		"optimal_cost", "optimal_passes", "optimal_complete", "optimal_steps", "optimal_seconds",
		"rds_cost", "rds_passes", "rds_seconds", "rds_valid_calls",
		"rdsh_cost", "rdsh_passes", "rdsh_seconds", "rdsh_valid_calls",
		"greedy_cost", "greedy_passes",
		"rds_over_optimal_percent", "rdsh_over_rds_percent"}
	var rows [][]string
	for _, r := range results {
		eff := ""
		if r.Search.Complete {
			eff = strconv.FormatFloat(r.effOpt(), 'f', 2, 64)
		}
		rows = append(rows, []string{r.Shader, r.PC.Name, r.PC.String(), r.Model.Name,
			f0(r.Opt.Cost), itoa(r.Opt.Passes), strconv.FormatBool(r.Search.Complete), strconv.FormatInt(r.Search.Steps, 10),
			strconv.FormatFloat(r.Opt.Seconds, 'f', 4, 64),
			f0(r.RDS.Cost), itoa(r.RDS.Passes), strconv.FormatFloat(r.RDS.Seconds, 'g', 4, 64), itoa(r.RDS.Evals),
			f0(r.RDSh.Cost), itoa(r.RDSh.Passes), strconv.FormatFloat(r.RDSh.Seconds, 'g', 4, 64), itoa(r.RDSh.Evals),
			f0(r.Greedy.Cost), itoa(r.Greedy.Passes),
			eff, strconv.FormatFloat(r.effH(), 'f', 2, 64)})
	}
	return outputs.WriteCSV(filepath.Join(out, "efficiency.csv"), header, rows)
}

func pick(results []*result, shader, pc, model string) *result {
	for _, r := range results {
		if r.Shader == shader && r.PC.Name == pc && r.Model.Name == model {
			return r
		}
	}
	return nil
}

// table3 prints the document's Table 3: optimal and RDS cost and passes, and
// RDS's efficiency, with the cost model 15p+5t+i. An optimum the search did
// not finish is shown as "gave up (best found)".
func table3(w io.Writer, names []string, results []*result) {
	model := multipass.CostModels()[0].Name
	header := []string{"architecture"}
	for _, n := range names {
		header = append(header, n+" opt c", "p", "RDS c", "p", "eff +%")
	}
	var rows [][]string
	for _, pc := range multipass.PipelineConfigs() {
		row := []string{pc.Name + ": " + pc.String()}
		for _, n := range names {
			r := pick(results, n, pc.Name, model)
			if r.Search.Complete {
				row = append(row, f0(r.Opt.Cost), itoa(r.Opt.Passes), f0(r.RDS.Cost), itoa(r.RDS.Passes), f1(r.effOpt()))
			} else {
				row = append(row, "- ("+f0(r.Opt.Cost)+")", "("+itoa(r.Opt.Passes)+")", f0(r.RDS.Cost), itoa(r.RDS.Passes), "-")
			}
		}
		rows = append(rows, row)
	}
	fmt.Fprintf(w, "Table 3: efficiency, cost model %s (\"- (c)\": the search gave up; c is the best it found)\n", model)
	expt.Table(w, header, rows)
	fmt.Fprintln(w)
}

// table4 prints the document's Table 4: RDS and RDS_h run times and RDS_h's
// cost over RDS's, with the cost model 15p+5t+i.
func table4(w io.Writer, names []string, results []*result) {
	model := multipass.CostModels()[0].Name
	header := []string{"architecture"}
	for _, n := range names {
		header = append(header, n+" RDS s", "RDSh s", "eff +%")
	}
	var rows [][]string
	for _, pc := range multipass.PipelineConfigs() {
		row := []string{pc.Name + ": " + pc.String()}
		for _, n := range names {
			r := pick(results, n, pc.Name, model)
			row = append(row, secs(r.RDS.Seconds), secs(r.RDSh.Seconds), f1(r.effH()))
		}
		rows = append(rows, row)
	}
	fmt.Fprintf(w, "Table 4: RDS against RDS_h, cost model %s (times in seconds on this machine)\n", model)
	expt.Table(w, header, rows)
	fmt.Fprintln(w)
}

// summary prints, per cost model, the document's section 5.3 figures: in how
// many complete cases (PC8 excluded) RDS found the optimum, the mean and worst
// efficiency, RDS's pass counts against the optimum's, and RDS_h's mean cost
// over RDS.
func summary(w io.Writer, names []string, results []*result) {
	header := []string{"cost model", "complete cases", "RDS optimal", "same passes", "mean eff +%", "worst eff +%",
		"gave up", "RDSh mean +%", "greedy mean +% over RDS"}
	var rows [][]string
	for _, m := range multipass.CostModels() {
		var complete, optimal, samePasses, gaveUp, cases int
		var sum, worst, sumH, sumG float64
		for _, r := range results {
			if r.Model.Name != m.Name || r.PC.Unlimited() {
				continue
			}
			cases++
			sumH += r.effH()
			sumG += 100 * (r.Greedy.Cost - r.RDS.Cost) / r.RDS.Cost
			if !r.Search.Complete {
				gaveUp++
				continue
			}
			complete++
			e := r.effOpt()
			sum += e
			worst = max(worst, e)
			if e < 1e-9 {
				optimal++
			}
			if r.RDS.Passes == r.Opt.Passes {
				samePasses++
			}
		}
		mean := 0.0
		if complete > 0 {
			mean = sum / float64(complete)
		}
		rows = append(rows, []string{m.Name, itoa(complete), itoa(optimal), itoa(samePasses), f1(mean), f1(worst),
			itoa(gaveUp), f1(sumH / float64(cases)), f1(sumG / float64(cases))})
	}
	fmt.Fprintf(w, "Efficiency over all cost models (%s; PC1-PC7)\n", strings.Join(names, ", "))
	expt.Table(w, header, rows)
	fmt.Fprintln(w)
}

// table5 prints the document's Table 5: the per-pass resources of RDS's
// partitions of the bowling pin on PC5 and PC7 (cost model 15p+5t+i), with
// the number of restores R.
func table5(w io.Writer, out string, sh *multipass.Shader) error {
	header := []string{"pc", "pass", "o", "r", "t", "v", "R", "root"}
	var rows [][]string
	for _, name := range []string{"PC5", "PC7"} {
		pc, _ := multipass.PipelineConfig(name)
		part, err := sh.Problem(pc, multipass.CostModels()[0]).RDS()
		if err != nil {
			return err
		}
		for k, ps := range part.Passes {
			u := ps.Usage
			rows = append(rows, []string{name, itoa(k + 1), itoa(u.Ops), itoa(u.Registers), itoa(u.TexUnits),
				itoa(u.Interpolants), itoa(u.Restores), sh.Describe(ps.Root)})
		}
		t := part.Total
		rows = append(rows, []string{name, "total", itoa(t.Ops), "", "", "", itoa(t.Restores),
			fmt.Sprintf("%s, %d fetches, %d other, cost %s, %s", expt.Count(part.NumPasses(), "pass", "passes"),
				t.TexFetches, t.Other(), f0(part.Cost), expt.Count(part.Textures, "intermediate texture", "intermediate textures"))})
	}
	fmt.Fprintln(w, "Table 5: per-pass resources of RDS's bowling-pin partitions (o operations, r registers, t texture units, v interpolants, R restores)")
	expt.Table(w, header, rows)
	fmt.Fprintln(w)
	return outputs.WriteCSV(filepath.Join(out, "table5_passes.csv"), header, rows)
}
