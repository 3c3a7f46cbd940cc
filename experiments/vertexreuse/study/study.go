// Package study is the vertex-reuse study of experiments/vertexreuse: the
// vertex shader invocations per triangle (ACMR) of every draw of the
// built-in scenes and the real meshes under the input assembler's batches of
// up to 32 unique vertices, a FIFO and an LRU post-transform cache of 8 to
// 64 entries, before and after Tipsify reorders the index buffers, and the
// timed frame of each order on the default machine. See
// experiments/vertexreuse/README.md.
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
	"github.com/gfxsim/gfxsim/internal/progress"
	"github.com/gfxsim/gfxsim/tracing"
)

// Options are the study's settings.
type Options struct {
	// Common: Quick runs three built-in scenes, no real mesh, at 64x36;
	// Workers are the scenes run at once (0: 2); the instruments' frames
	// are named <scene>-<order>.
	expt.Common
	Width, Height int // timed frame size (0: 160x90, 64x36 with Quick)
	// ScenesDir is the shared scenes folder holding the real meshes
	// (../shared/scenes).
	ScenesDir string
	// ReorderCache is the FIFO size Tipsify reorders for (0: 16).
	ReorderCache int
}

// ParseFlags reads a command line's args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func ParseFlags(args []string, getenv func(string) string, stderr *os.File) (o Options, err error) {
	o.Instruments, o.Inputs = &tracing.Flags{}, &expt.Inputs{}
	var set *flag.FlagSet
	err = o.Common.Parse("vertexreuse", expt.Help{Quick: "three built-in scenes, no real mesh, at 64x36", Workers: "scenes run at once"}, func(fs *flag.FlagSet) {
		set = fs
		expt.SizeFlags(fs, &o.Width, &o.Height, "timed frame", "160, or 64 with -quick", "90, or 36 with -quick")
		fs.StringVar(&o.ScenesDir, "scenes", "../shared/scenes", "the shared scenes folder holding the real meshes")
		fs.IntVar(&o.ReorderCache, "reorder-cache", DefaultReorderCache, "the FIFO size, in vertices, Tipsify reorders for")
	}, args, getenv, stderr)
	if err == nil && o.ReorderCache < 1 {
		err = fmt.Errorf("-reorder-cache %d: want a FIFO size of at least 1", o.ReorderCache)
	}
	if err == nil && o.Quick {
		set.Visit(func(f *flag.Flag) {
			if f.Name == "scenes" {
				err = fmt.Errorf("-scenes with -quick: the quick run measures built-in scenes only, no real mesh")
			}
		})
	}
	return o, err
}

// DefaultReorderCache is the FIFO size Tipsify reorders for by default.
const DefaultReorderCache = 16

// QuickScenes are the built-ins of a -quick run: opaque meshes (room), many
// small triangles (smalltris) and alpha-blended layers the driver does not
// reorder (overdraw).
var QuickScenes = []string{"room", "smalltris", "overdraw"}

func (o *Options) defaults() {
	if o.Out == "" {
		o.Out = "out/vertexreuse"
	}
	if o.Width <= 0 || o.Height <= 0 {
		o.Width, o.Height = 160, 90
		if o.Quick {
			o.Width, o.Height = 64, 36
		}
	}
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if o.ScenesDir == "" {
		o.ScenesDir = "../shared/scenes"
	}
	if o.ReorderCache <= 0 {
		o.ReorderCache = DefaultReorderCache
	}
	if o.Inputs == nil {
		o.Inputs = &expt.Inputs{}
	}
	o.Inputs.ShareWith(o.Workers) // the points running at once share -max-memory
}

// Run measures the study's scenes (all, or the shard o.Sweep names), writes
// each one's point file under o.Out/points and, unless sharded, writes
// vertexreuse.csv and the figures to o.Out and prints the table to w.
func Run(o Options, w io.Writer) error {
	o.defaults()
	builtins, meshes := TriangleBuiltins(), Meshes
	if o.Quick {
		builtins, meshes = QuickScenes, nil
	}
	ps := points(builtins, o.ScenesDir, meshes)
	if len(meshes) > 0 && !o.Sweep.Merge { // a -list names the points a shard will need the folder for
		if _, err := os.Stat(o.ScenesDir); err != nil {
			return fmt.Errorf("-scenes %s: the shared scenes folder with the real meshes: %w", o.ScenesDir, err)
		}
	}
	cfg := configs.Default()
	sw := &expt.Sweep[Result]{Study: "vertexreuse", Out: o.Out, Workers: o.Workers,
		Fingerprint: expt.Fingerprint{"width": strconv.Itoa(o.Width), "height": strconv.Itoa(o.Height),
			"quick": strconv.FormatBool(o.Quick), "reorder-cache": strconv.Itoa(o.ReorderCache)}}
	for _, p := range ps {
		sw.Points = append(sw.Points, p.name)
	}
	bar := progress.New(os.Stderr, 0, o.Bar)
	log := bar.Writer(o.Log)
	sw.Bar = bar
	var sess *tracing.Session
	if o.Instruments != nil {
		sess = o.Instruments.NewSession(o.Out, len(OrderNames)*len(ps), log)
		defer sess.Close()
	}
	start := time.Now()
	sw.Run = func(i int) (Result, error) { return runPoint(ps[i], o, cfg, sess) }
	if log != nil {
		sw.Done = func(done, total, _ int, r Result) {
			fmt.Fprintf(log, "[%2d/%d %4.0fs] %-14s %6d triangles: batch ACMR %.3f -> %.3f, cycles %.0f -> %.0f\n", done, total,
				time.Since(start).Seconds(), r.Scene, r.Orders[0].Reuse.Triangles, r.Orders[0].Reuse.ACMR(r.Orders[0].Reuse.Batch),
				r.Orders[1].Reuse.ACMR(r.Orders[1].Reuse.Batch), r.Orders[0].Timed.Cycles, r.Orders[1].Timed.Cycles)
		}
		if !o.Sweep.List && !o.Sweep.Merge {
			fmt.Fprintf(log, "vertexreuse: shard %s of %d scenes, three timed frames each at %dx%d, on %s\n",
				o.Sweep.Shard, len(ps), o.Width, o.Height, expt.Count(o.Workers, "worker", "workers"))
		}
	}
	sw.Merge = func(w io.Writer, rs []Result) error {
		fmt.Fprintf(w, "vertexreuse: %d scenes at %dx%d on %s; batches of %d vertices (the IA's), Tipsify for a FIFO of %d\n\n",
			len(rs), o.Width, o.Height, cfg.Name, cfg.InputAssembler.BatchVertices, o.ReorderCache)
		return writeOutputs(o.Out, w, rs)
	}
	if err := sw.Main(o.Sweep, w); err != nil {
		return err
	}
	expt.PrintWallTime(o.Printed, o.Sweep.List, start, o.Out)
	return nil
}
