// Command decoupled is the decoupled-sampling study: it reruns section 5 of
// Ragan-Kelley et al. 2011 (Figs. 9-12, texture coherence, bilinear and
// adaptive reconstruction, and, with -timed, Fig. 13) on the study scenes and
// writes one CSV and PNG per figure. See README.md in this folder.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/gfxsim/gfxsim/experiments/decoupled/study"
	"github.com/gfxsim/gfxsim/experiments/expt"
)

func main() {
	o, err := parseFlags(os.Args[1:], os.Getenv, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "decoupled:", err)
		os.Exit(2)
	}
	if err := study.Run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "decoupled:", err)
		os.Exit(1)
	}
}

// parseFlags reads the command line args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func parseFlags(args []string, getenv func(string) string, stderr *os.File) (study.Options, error) {
	fs := flag.NewFlagSet("decoupled", flag.ExitOnError)
	var o study.Options
	fs.StringVar(&o.Out, "o", "out/decoupled", "output folder")
	fs.IntVar(&o.Width, "width", 0, "frame width for every figure (0: each figure's default, see README)")
	fs.IntVar(&o.Height, "height", 0, "frame height for every figure (0: each figure's default)")
	fs.BoolVar(&o.Quick, "quick", false, "a reduced sweep at 96x54 (for tests)")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the lens and time sample pattern")
	fs.IntVar(&o.Workers, "workers", 2, "frames rendered at once")
	fs.BoolVar(&o.Timed, "timed", true, "run Fig. 13 on the timed machines (-timed=false: the functional figures only)")
	figures := fs.String("figures", "", "the figures to run, a comma-separated list of "+strings.Join(study.FigureNames, ", ")+
		" (10, 11 and 12 share one sweep of frames; 13 is the timed frames, with the timed tiled rows beside Fig. 10); empty: all")
	sf := expt.StudyFlags{Sweep: &o.Sweep}
	sf.Register(fs)
	if err := sf.Parse(fs, args, getenv, stderr); err != nil {
		return o, err
	}
	o.Log, o.Summary, o.Bar = sf.Log, sf.Summary, sf.Bar
	if *figures != "" {
		o.Figures = strings.Split(*figures, ",")
	}
	return o, nil
}
