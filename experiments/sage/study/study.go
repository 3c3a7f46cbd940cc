// Package study is experiments/sage: the claims of Deering and Naegle, "The
// SAGE Graphics Architecture" (SIGGRAPH 2002) rerun on gfxsim's SAGE machine
// (configs/sage.yaml) over built-in scenes, each table printed beside the
// paper's number in a column labelled "paper", with every disagreement and
// its cause as the model explains it. See experiments/sage/README.md.
package study

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/outputs"
	"github.com/gfxsim/gfxsim/internal/progress"
)

// Options are the study's parameters.
type Options struct {
	// Common: Quick runs fewer points at tiny sizes (the test's run);
	// Workers are the simulations run at once (0: 2); Instruments is not
	// used.
	expt.Common
	Width, Height int // frame size of the rendering points (0: 480x270, or 96x54 with Quick)
}

// ParseFlags reads a command line's args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func ParseFlags(args []string, getenv func(string) string, stderr *os.File) (o Options, err error) {
	o.Inputs = &expt.Inputs{BuiltinOnly: true} // its points are built-in scenes
	err = o.Common.Parse("sage", expt.Help{Quick: "fewer points at tiny sizes (a test run of every table, well under a minute)", Workers: "points run at once"}, func(fs *flag.FlagSet) {
		expt.SizeFlags(fs, &o.Width, &o.Height, "the rendering points' frame", "480, or 96 with -quick", "270, or 54 with -quick")
	}, args, getenv, stderr)
	return o, err
}

// Result is one point's result: the field of its kind is set.
type Result struct {
	Timed   *Timed   `json:",omitempty"`
	Reuse   *Reuse   `json:",omitempty"`
	Filters *Filters `json:",omitempty"`
	Check   *Check   `json:",omitempty"`
	Wall    float64  // seconds the point took (not printed: it differs between runs)
}

// Run runs the study's points (all, or the shard o.Sweep names), writes each
// point's file under o.Out/points and, unless sharded, the CSV files to o.Out
// and the tables to w; the filter and check points write their PNGs under
// o.Out/filters and o.Out/check.
func Run(o Options, w io.Writer) error {
	if o.Out == "" {
		o.Out = "out/sage"
	}
	workers := o.Workers
	if workers <= 0 {
		workers = 2
	}
	o.Inputs.ShareWith(workers) // the points running at once share -max-memory
	p := makePlan(o)
	pts := p.points()
	if !o.Sweep.List && !o.Sweep.Merge {
		if err := checkSizes(pts, p); err != nil {
			return err
		}
	}
	sw := &expt.Sweep[Result]{Study: "sage", Out: o.Out, Workers: workers,
		Fingerprint: expt.Fingerprint{"width": strconv.Itoa(p.w), "height": strconv.Itoa(p.h), "quick": strconv.FormatBool(o.Quick)}}
	for _, pt := range pts {
		sw.Points = append(sw.Points, pt.name)
	}
	bar := progress.New(os.Stderr, 0, o.Bar)
	log := bar.Writer(o.Log)
	sw.Bar = bar
	start := time.Now()
	if !o.Sweep.List && !o.Sweep.Merge {
		for _, d := range []string{"filters", "check"} {
			if _, err := outputs.Dir(o.Out, d); err != nil {
				return err
			}
		}
	}
	sw.Run = func(i int) (Result, error) { return runPoint(pts[i], p, o) }
	if log != nil {
		sw.Done = func(done, total, i int, r Result) {
			fmt.Fprintf(log, "[%3d/%d %5.0fs] %-44s %6.1f s\n", done, total, time.Since(start).Seconds(), pts[i].name, r.Wall)
		}
	}
	sw.Merge = func(w io.Writer, rs []Result) error { return writeTables(o.Out, w, p, pts, rs) }
	if log != nil && !o.Sweep.List && !o.Sweep.Merge {
		fmt.Fprintf(log, "sage: shard %s of %d points on %s\n", o.Sweep.Shard, len(pts), expt.Count(workers, "worker", "workers"))
	}
	if err := sw.Main(o.Sweep, w); err != nil {
		return err
	}
	expt.PrintWallTime(o.Printed, o.Sweep.List, start, o.Out)
	return nil
}

// checkSizes refuses, before anything runs, a -width and -height whose
// timed points the SAGE machine cannot render (its sample buffer's
// capacity), naming the first such point.
func checkSizes(pts []point, p plan) error {
	for _, pt := range pts {
		if pt.kind == kindReuse || pt.kind == kindFilters || pt.kind == kindCheck || pt.kind == kindVideo {
			continue // their sizes are the study's own
		}
		cfg, err := configs.Parse("sage-study-"+pt.name+".yaml", []byte(pt.machineYAML()))
		if err != nil {
			return err
		}
		if err := cfg.CheckFrame(p.w, p.h, pt.samples); err != nil {
			return fmt.Errorf("-width %d -height %d: point %s: %w", p.w, p.h, pt.name, err)
		}
	}
	return nil
}

// runPoint runs one point.
func runPoint(pt point, p plan, o Options) (Result, error) {
	start := time.Now()
	var r Result
	var err error
	switch pt.kind {
	case kindReuse:
		var x Reuse
		x, err = runReuse(pt.scene, p.batches, o.Inputs)
		r.Reuse = &x
	case kindFilters:
		var x Filters
		x, err = runFilters(pt.scene, p.fw, p.fh, pt.samples, o.Out, o.Inputs)
		r.Filters = &x
	case kindCheck:
		var x Check
		x, err = runCheck(pt.scene, p.cw, p.ch, o.Out, o.Inputs)
		r.Check = &x
	default:
		w, h := p.w, p.h
		if pt.kind == kindVideo {
			w, h = pt.video.source()
		}
		var x Timed
		x, err = runTimed(pt, w, h, o.Inputs)
		r.Timed = &x
	}
	r.Wall = time.Since(start).Seconds()
	return r, err
}
