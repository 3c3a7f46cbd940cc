// Package study is the masked-depth-culling study of experiments/zcull: the
// HiZ configurations of Andersson, Hasselgren and Akenine-Möller, "Masked
// Depth Culling for Graphics Hardware" (2015) run on gfxsim's timed machine
// over built-in scenes, with their culling rates and depth-related traffic,
// and the paper's sweeps (feedback delay, tile size, layers, HiZ cache size).
// See experiments/zcull/README.md.
package study

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/outputs"
	"github.com/gfxsim/gfxsim/internal/plot"
	"github.com/gfxsim/gfxsim/internal/progress"
	"github.com/gfxsim/gfxsim/tracing"
)

// Options are the study's parameters.
type Options struct {
	// Common: Quick runs fewer scenes and sweep points at 160x90; Workers
	// are the simulations run at once (0: 2); the instruments' runs are
	// named by Case.Name.
	expt.Common
	Width, Height int // frame size (0: 320x180)
}

// ParseFlags reads a command line's args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func ParseFlags(args []string, getenv func(string) string, stderr *os.File) (o Options, err error) {
	o.Instruments, o.Inputs = &tracing.Flags{}, &expt.Inputs{BuiltinOnly: true} // its cases are built-in scenes and its own (embedded)
	err = o.Common.Parse("zcull", expt.Help{Quick: "fewer scenes and sweep points at 160x90", Workers: "simulations run at once"}, func(fs *flag.FlagSet) {
		expt.SizeFlags(fs, &o.Width, &o.Height, "frame", "320, or 160 with -quick", "180, or 90 with -quick")
	}, args, getenv, stderr)
	return o, err
}

// The configurations of the paper's Fig. 6. ORACLE knows every sample's fate
// (depth test and shader discards: the paper's oracle); ORACLE-Z knows the
// depths only (a replica of the depth buffer, intervals where a shader may
// discard), which separates what depth culling could ever reach. INSTANT
// FEEDBACK recomputes a tile's z-max from the exact depth buffer inside the HiZ
// unit after every update (no latency); FEEDBACK is the machine's own path:
// the depth unit reports every tile it tested.
var (
	oracle    = Machine{"ORACLE", "hiz: {mode: oracle}\n", true}
	oracleZ   = Machine{"ORACLE-Z", "hiz: {mode: oracle}\n", false}
	forward   = Machine{"FORWARD", "hiz: {mode: forward}\n", false}
	instant   = Machine{"INSTANT FEEDBACK", "hiz: {mode: forward, feedback: ideal}\n", true}
	feedback  = Machine{"FEEDBACK", "hiz: {mode: forward, feedback: update}\n", false}
	zmask     = Machine{"ZMASK", "hiz: {mode: zmask}\n", false}
	packed    = Machine{"PACKED ZMASK", "hiz: {mode: zmask, packed: true}\n", false}
	mainSet   = []Machine{oracle, oracleZ, forward, instant, feedback, zmask, packed}
	mainNames = []string{"ORACLE", "ORACLE-Z", "FORWARD", "INSTANT FEEDBACK", "FEEDBACK", "ZMASK", "PACKED ZMASK"}
)

// plan is the list of runs of one study.
type plan struct {
	w, h         int
	mainScenes   []string
	samples      []int
	sweepScenes  []string
	sweepSamples int
	delays       []int
	tiles        []int
}

func makePlan(o Options) plan {
	p := plan{w: 320, h: 180, mainScenes: []string{"occluders", "finewalls", "room", "foliage", "depthwrite", "smalltris", "motion"},
		samples: []int{1, 4}, sweepScenes: []string{"occluders", "room", "foliage", "smalltris"}, sweepSamples: 4,
		delays: []int{0, 64, 256, 1024, 4096, 16384}, tiles: []int{16, 32, 64, 128}}
	if o.Quick {
		p.w, p.h = 160, 90
		p.mainScenes = []string{"occluders", "finewalls", "foliage", "depthwrite"}
		p.sweepScenes = []string{"occluders", "foliage"}
		p.delays = []int{0, 256, 4096}
		p.tiles = []int{16, 32, 128}
	}
	if o.Width > 0 && o.Height > 0 {
		p.w, p.h = o.Width, o.Height
	}
	return p
}

func delayMachine(d int) Machine {
	return Machine{Name: fmt.Sprintf("FEEDBACK delay %d", d),
		YAML: fmt.Sprintf("hiz: {mode: forward, feedback: update, feedback_delay: %d}\n", d)}
}

func tileMachine(s int) Machine {
	return Machine{Name: fmt.Sprintf("ZMASK %d samples", s), YAML: fmt.Sprintf("hiz: {mode: zmask, tile_samples: %d}\n", s)}
}

func layerMachine(l int) Machine {
	return Machine{Name: fmt.Sprintf("ZMASK %d layers", l), YAML: fmt.Sprintf("hiz: {mode: zmask, layers: %d}\n", l)}
}

func cacheMachine(m Machine, kb int) Machine {
	return Machine{Name: fmt.Sprintf("%s %d KB", m.Name, kb),
		YAML: m.YAML[:len(m.YAML)-2] + fmt.Sprintf(", cache: {size_kb: %d}}\n", kb)}
}

// Run runs the study's points (all, or the shard o.Sweep names), writes
// each point's file under o.Out/points and, unless sharded, writes CSV files
// and PNG figures to o.Out and prints the tables to w; -list and -merge as
// expt.SweepFlags says.
func Run(o Options, w io.Writer) error {
	p := makePlan(o)
	if o.Out == "" {
		o.Out = "out/zcull"
	}
	workers := o.Workers
	if workers <= 0 {
		workers = 2
	}
	o.Inputs.ShareWith(workers) // the points running at once share -max-memory
	cases, nMain := p.cases()
	sw := &expt.Sweep[Result]{Study: "zcull", Out: o.Out, Workers: workers,
		Fingerprint: expt.Fingerprint{"width": strconv.Itoa(p.w), "height": strconv.Itoa(p.h), "quick": strconv.FormatBool(o.Quick)}}
	for _, c := range cases {
		sw.Points = append(sw.Points, c.Name())
	}
	bar := progress.New(os.Stderr, 0, o.Bar)
	log := bar.Writer(o.Log)
	sw.Bar = bar
	var sess *tracing.Session
	if o.Instruments != nil {
		sess = o.Instruments.NewSession(o.Out, len(cases), log)
		defer sess.Close()
	}
	start := time.Now()
	sw.Run = func(i int) (Result, error) { return runCase(cases[i], p.w, p.h, sess, o.Inputs) }
	if log != nil {
		sw.Done = func(done, total, _ int, r Result) {
			fmt.Fprintf(log, "[%3d/%d %5.0fs] %-24s %-10s %dx: culling %.3f, depth %.0f KB, HiZ %.0f KB\n", done, total,
				time.Since(start).Seconds(), r.Machine.Name, r.Scene, r.Samples, r.CullingRate(),
				r.DepthTraffic()/1024, r.HiZTraffic()/1024)
		}
	}
	sw.Merge = func(w io.Writer, results []Result) error {
		fmt.Fprintf(w, "zcull: %d simulations at %dx%d; machine: configs/sortlast.yaml with %s\n", len(cases), p.w, p.h, strings.TrimSpace(base))
		idx := index(results)
		if err := mainOutputs(o.Out, w, p, results[:nMain], idx); err != nil {
			return err
		}
		return sweepOutputs(o.Out, w, p, idx)
	}
	if log != nil && !o.Sweep.List && !o.Sweep.Merge {
		fmt.Fprintf(log, "zcull: shard %s of %d simulations at %dx%d on %s\n", o.Sweep.Shard, len(cases), p.w, p.h, expt.Count(workers, "worker", "workers"))
	}
	if err := sw.Main(o.Sweep, w); err != nil {
		return err
	}
	expt.PrintWallTime(o.Printed, o.Sweep.List, start, o.Out)
	return nil
}

// cases lists the study's runs: the Fig. 6 cases (the first nMain), then the
// sweeps.
func (p plan) cases() (cases []Case, nMain int) {
	for _, s := range p.mainScenes {
		for _, spp := range p.samples {
			for _, m := range mainSet {
				cases = append(cases, Case{Machine: m, Scene: s, Samples: spp})
			}
		}
	}
	nMain = len(cases)
	var sweep []Machine
	for _, d := range p.delays {
		sweep = append(sweep, delayMachine(d))
	}
	for _, t := range p.tiles {
		if t != 32 {
			sweep = append(sweep, tileMachine(t))
		}
	}
	sweep = append(sweep, layerMachine(3), layerMachine(4))
	for _, m := range []Machine{forward, zmask, packed} {
		sweep = append(sweep, cacheMachine(m, 8))
	}
	for _, s := range p.sweepScenes {
		for _, m := range sweep {
			cases = append(cases, Case{Machine: m, Scene: s, Samples: p.sweepSamples})
		}
	}
	return cases, nMain
}

type key struct {
	machine, scene string
	samples        int
}

func index(rs []Result) map[key]*Result {
	m := map[key]*Result{}
	for i := range rs {
		r := &rs[i]
		m[key{r.Machine.Name, r.Scene, r.Samples}] = r
	}
	return m
}

func f3(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
func kb(v float64) string { return strconv.FormatFloat(v/1024, 'f', 1, 64) }

// meaningful reports whether the oracle culls enough in a case for shares of
// its culling to mean something (at least 1% of the units).
func meaningful(or *Result) bool { return or != nil && or.UnitsCulled >= 0.01*or.Units }

// mainOutputs writes the Fig. 6 table, CSV and figures.
func mainOutputs(out string, w io.Writer, p plan, rs []Result, idx map[key]*Result) error {
	header := []string{"scene", "samples", "config", "culling_rate", "share_of_oracle", "share_of_oracle_z", "tiles_tested", "tiles_culled",
		"tiles_accepted", "tiles_ambiguous", "samples_depth_tested", "depth_read_kb", "depth_written_kb", "hiz_read_kb",
		"hiz_written_kb", "traffic_vs_forward", "hiz_hit_rate", "depth_hit_rate", "feedback_applied", "feedback_age_cycles",
		"ps_invocations", "cycles"}
	var rows [][]string
	for i := range rs {
		r := &rs[i]
		or := idx[key{oracle.Name, r.Scene, r.Samples}]
		oz := idx[key{oracleZ.Name, r.Scene, r.Samples}]
		fw := idx[key{forward.Name, r.Scene, r.Samples}]
		share, shareZ := "", ""
		if meaningful(or) {
			share = f3(ratio(r.UnitsCulled, or.UnitsCulled))
		}
		if meaningful(oz) {
			shareZ = f3(ratio(r.UnitsCulled, oz.UnitsCulled))
		}
		rows = append(rows, []string{r.Scene, strconv.Itoa(r.Samples), r.Machine.Name, f3(r.CullingRate()), share, shareZ,
			f1(r.Tests), f1(r.TilesCulled), f1(r.Accepted), f1(r.Ambiguous), f1(r.SamplesTested), kb(r.DepthRead),
			kb(r.DepthWritten), kb(r.HiZRead), kb(r.HiZWritten), f3(ratio(r.Traffic(), fw.Traffic())), f3(r.HiZHitRate()),
			f3(r.DepthHitRate()), f1(r.FeedbackApplied), f1(r.FeedbackAge), f1(r.PSInvocations), f1(r.Cycles)})
	}
	if err := outputs.WriteCSV(filepath.Join(out, "configs.csv"), header, rows); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nPer scene (Fig. 6): culling rate (culled/tested 16-sample tiles), share of ORACLE's culling, "+
		"depth-related traffic (KB: depth unit + HiZ) and relative to FORWARD\n")
	var trows [][]string
	for _, s := range p.mainScenes {
		for _, spp := range p.samples {
			for _, m := range mainNames {
				r := idx[key{m, s, spp}]
				or := idx[key{oracle.Name, s, spp}]
				oz := idx[key{oracleZ.Name, s, spp}]
				fw := idx[key{forward.Name, s, spp}]
				share, shareZ := "-", "-"
				if meaningful(or) {
					share = f3(ratio(r.UnitsCulled, or.UnitsCulled))
				}
				if meaningful(oz) {
					shareZ = f3(ratio(r.UnitsCulled, oz.UnitsCulled))
				}
				trows = append(trows, []string{s, strconv.Itoa(spp), m, f3(r.CullingRate()), share, shareZ,
					kb(r.DepthTraffic()), kb(r.HiZTraffic()), f3(ratio(r.Traffic(), fw.Traffic())), f1(r.FeedbackAge)})
			}
		}
	}
	expt.Table(w, []string{"scene", "spp", "config", "culling", "of ORACLE", "of ORACLE-Z", "depth KB", "HiZ KB", "vs FORWARD",
		"fb age"}, trows)

	// Averages over the cases, beside the paper's claims.
	claims := map[string][2]string{
		"ORACLE": {"1 (upper bound)", "-"}, "ORACLE-Z": {"-", "-"}, "FORWARD": {"clearly worst", "1"},
		"INSTANT FEEDBACK": {"-", "about 0.82"}, "FEEDBACK": {"falls with delay", "rises with delay"},
		"ZMASK": {"about 0.90", "about 0.86"}, "PACKED ZMASK": {"a little below ZMASK", "about 0.70"},
	}
	fmt.Fprintf(w, "\nAverages over the %d scene/sample cases (shares over the cases where that oracle culls at least 1%%; "+
		"depth reads: all cases' bytes over FORWARD's), beside the paper (Andersson et al. 2015, Fig. 6 and section 5)\n",
		len(p.mainScenes)*len(p.samples))
	var arows [][]string
	var srows [][]string
	for _, m := range mainNames {
		var cr, share, shareZ, traffic, reads, fwReads float64
		var n, ns, nz float64
		for _, s := range p.mainScenes {
			for _, spp := range p.samples {
				r := idx[key{m, s, spp}]
				or := idx[key{oracle.Name, s, spp}]
				fw := idx[key{forward.Name, s, spp}]
				cr += r.CullingRate()
				traffic += ratio(r.Traffic(), fw.Traffic())
				reads += r.DepthRead
				fwReads += fw.DepthRead
				n++
				if meaningful(or) {
					share += ratio(r.UnitsCulled, or.UnitsCulled)
					ns++
				}
				if oz := idx[key{oracleZ.Name, s, spp}]; meaningful(oz) {
					shareZ += ratio(r.UnitsCulled, oz.UnitsCulled)
					nz++
				}
			}
		}
		c := claims[m]
		sz := f3(ratio(shareZ, nz))
		if m == oracle.Name {
			sz = "-"
		}
		// The paper's share is of its ORACLE, which counts the tiles whose
		// coverage the shader changes, as ours does: it stands beside "of ORACLE".
		arows = append(arows, []string{m, f3(cr / n), f3(ratio(share, ns)), c[0], sz, f3(traffic / n), c[1],
			f3(ratio(reads, fwReads))})
		srows = append(srows, []string{m, f3(cr / n), f3(ratio(share, ns)), f3(ratio(shareZ, nz)), f3(traffic / n),
			f3(ratio(reads, fwReads))})
	}
	expt.Table(w, []string{"config", "culling", "of ORACLE", "paper", "of ORACLE-Z", "traffic vs FORWARD", "paper",
		"depth reads vs FORWARD"}, arows)
	if err := outputs.WriteCSV(filepath.Join(out, "summary.csv"), []string{"config", "culling_rate", "share_of_oracle",
		"share_of_oracle_z", "traffic_vs_forward", "depth_reads_vs_forward"}, srows); err != nil {
		return err
	}

	// Figures: culling rate and traffic relative to FORWARD per case.
	var cats []string
	for _, s := range p.mainScenes {
		for _, spp := range p.samples {
			cats = append(cats, fmt.Sprintf("%s %dx", s, spp))
		}
	}
	cull := plot.Figure{Title: "Culling rate (16-sample tiles)", YLabel: "culled / tested", Categories: cats}
	traf := plot.Figure{Title: "Depth-related traffic relative to FORWARD", YLabel: "traffic / FORWARD's", Categories: cats}
	for _, m := range mainNames {
		var c, t []float64
		for _, s := range p.mainScenes {
			for _, spp := range p.samples {
				r := idx[key{m, s, spp}]
				c = append(c, r.CullingRate())
				t = append(t, ratio(r.Traffic(), idx[key{forward.Name, s, spp}].Traffic()))
			}
		}
		cull.Series = append(cull.Series, plot.Series{Name: m, Y: c})
		traf.Series = append(traf.Series, plot.Series{Name: m, Y: t})
	}
	cull.Width, traf.Width = 32*vg.Centimeter, 32*vg.Centimeter
	if err := cull.Save(filepath.Join(out, "fig6_culling.png")); err != nil {
		return err
	}
	return traf.Save(filepath.Join(out, "fig6_traffic.png"))
}

// sweepOutputs writes the sweeps: feedback delay (Fig. 7), tile size (Fig. 8),
// layers (Fig. 9) and HiZ cache size.
func sweepOutputs(out string, w io.Writer, p plan, idx map[key]*Result) error {
	spp := p.sweepSamples
	// Fig. 7: FEEDBACK with a FIFO delay, relative to ZMASK.
	var rows [][]string
	fc := plot.Figure{Title: "Feedback delay: culled tiles relative to ZMASK", XLabel: "delay (HiZ tiles tested)",
		YLabel: "culled / ZMASK's", LogX: true}
	ft := plot.Figure{Title: "Feedback delay: depth-related traffic relative to ZMASK", XLabel: "delay (HiZ tiles tested)",
		YLabel: "traffic / ZMASK's", LogX: true}
	for _, s := range p.sweepScenes {
		z := idx[key{zmask.Name, s, spp}]
		var xs, cs, ts []float64
		for _, d := range p.delays {
			r := idx[key{delayMachine(d).Name, s, spp}]
			c, t := ratio(r.UnitsCulled, z.UnitsCulled), ratio(r.Traffic(), z.Traffic())
			rows = append(rows, []string{s, strconv.Itoa(d), f3(r.CullingRate()), f3(c), f3(t), f1(r.FeedbackApplied),
				f1(r.FeedbackAge)})
			xs = append(xs, float64(max(d, 1)))
			cs, ts = append(cs, c), append(ts, t)
		}
		fc.Series = append(fc.Series, plot.Series{Name: s, X: xs, Y: cs})
		ft.Series = append(ft.Series, plot.Series{Name: s, X: xs, Y: ts})
	}
	if err := outputs.WriteCSV(filepath.Join(out, "delay.csv"), []string{"scene", "delay_tiles", "culling_rate",
		"culled_vs_zmask", "traffic_vs_zmask", "feedback_applied", "feedback_age_cycles"}, rows); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nFeedback delay (Fig. 7; %dx): FEEDBACK through a FIFO of N tiles, relative to ZMASK (delay 0 plotted at 1)\n", spp)
	expt.Table(w, []string{"scene", "delay", "culling", "culled vs ZMASK", "traffic vs ZMASK", "applied", "age"}, rows)
	if err := fc.Save(filepath.Join(out, "fig7_delay_culling.png")); err != nil {
		return err
	}
	if err := ft.Save(filepath.Join(out, "fig7_delay_traffic.png")); err != nil {
		return err
	}

	// Fig. 8: ZMASK tile size, with INSTANT FEEDBACK (16-sample tiles) as the reference.
	rows = nil
	tc := plot.Figure{Title: "ZMASK tile size: culling rate", XLabel: "tile size (samples)", YLabel: "culled / tested", LogX: true}
	th := plot.Figure{Title: "ZMASK tile size: HiZ traffic", XLabel: "tile size (samples)", YLabel: "HiZ traffic (KB)", LogX: true}
	for _, s := range p.sweepScenes {
		var xs, cs, hs []float64
		for _, t := range p.tiles {
			m := tileMachine(t).Name
			if t == 32 {
				m = zmask.Name
			}
			r := idx[key{m, s, spp}]
			rows = append(rows, []string{s, strconv.Itoa(t), f3(r.CullingRate()), kb(r.HiZTraffic()), kb(r.Traffic())})
			xs, cs, hs = append(xs, float64(t)), append(cs, r.CullingRate()), append(hs, r.HiZTraffic()/1024)
		}
		in := idx[key{instant.Name, s, spp}]
		rows = append(rows, []string{s, "16 (INSTANT FEEDBACK)", f3(in.CullingRate()), kb(in.HiZTraffic()), kb(in.Traffic())})
		tc.Series = append(tc.Series, plot.Series{Name: s, X: xs, Y: cs})
		th.Series = append(th.Series, plot.Series{Name: s, X: xs, Y: hs})
	}
	if err := outputs.WriteCSV(filepath.Join(out, "tiles.csv"), []string{"scene", "tile_samples", "culling_rate", "hiz_kb",
		"traffic_kb"}, rows); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nZMASK tile size (Fig. 8; %dx)\n", spp)
	expt.Table(w, []string{"scene", "tile samples", "culling", "HiZ KB", "traffic KB"}, rows)
	if err := tc.Save(filepath.Join(out, "fig8_tiles_culling.png")); err != nil {
		return err
	}
	if err := th.Save(filepath.Join(out, "fig8_tiles_hiz_traffic.png")); err != nil {
		return err
	}

	// Fig. 9: layers.
	rows = nil
	lf := plot.Figure{Title: "ZMASK layers: culling rate", YLabel: "culled / tested", Categories: p.sweepScenes}
	for _, l := range []int{2, 3, 4} {
		var ys []float64
		for _, s := range p.sweepScenes {
			m := layerMachine(l).Name
			if l == 2 {
				m = zmask.Name
			}
			r := idx[key{m, s, spp}]
			rows = append(rows, []string{s, strconv.Itoa(l), f3(r.CullingRate()), kb(r.HiZTraffic())})
			ys = append(ys, r.CullingRate())
		}
		lf.Series = append(lf.Series, plot.Series{Name: fmt.Sprintf("%d layers", l), Y: ys})
	}
	if err := outputs.WriteCSV(filepath.Join(out, "layers.csv"), []string{"scene", "layers", "culling_rate", "hiz_kb"}, rows); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nZMASK layers (Fig. 9; %dx)\n", spp)
	expt.Table(w, []string{"scene", "layers", "culling", "HiZ KB"}, rows)
	if err := lf.Save(filepath.Join(out, "fig9_layers.png")); err != nil {
		return err
	}

	// HiZ cache 16 KB versus 8 KB.
	rows = nil
	cf := plot.Figure{Title: "HiZ cache halved (8 KB): HiZ traffic relative to 16 KB", YLabel: "HiZ traffic / 16 KB's",
		Categories: p.sweepScenes}
	for _, m := range []Machine{forward, zmask, packed} {
		var ys []float64
		for _, s := range p.sweepScenes {
			big, small := idx[key{m.Name, s, spp}], idx[key{cacheMachine(m, 8).Name, s, spp}]
			x := ratio(small.HiZTraffic(), big.HiZTraffic())
			rows = append(rows, []string{s, m.Name, kb(big.HiZTraffic()), kb(small.HiZTraffic()), f3(x),
				f3(big.HiZHitRate()), f3(small.HiZHitRate())})
			ys = append(ys, x)
		}
		cf.Series = append(cf.Series, plot.Series{Name: m.Name, Y: ys})
	}
	if err := outputs.WriteCSV(filepath.Join(out, "cache.csv"), []string{"scene", "config", "hiz_kb_16kb", "hiz_kb_8kb",
		"ratio", "hit_rate_16kb", "hit_rate_8kb"}, rows); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nHiZ cache 16 KB versus 8 KB (%dx; the paper: +10%% to +45%% HiZ traffic)\n", spp)
	expt.Table(w, []string{"scene", "config", "HiZ KB 16 KB", "HiZ KB 8 KB", "8/16", "hit 16 KB", "hit 8 KB"}, rows)
	return cf.Save(filepath.Join(out, "cache.png"))
}
