// Command decoupled is the decoupled-sampling study: it reruns section 5 of
// Ragan-Kelley et al. 2011 (Figs. 9-12, texture coherence, bilinear and
// adaptive reconstruction, and, with -timed, Fig. 13) on the study scenes and
// writes one CSV and PNG per figure. See README.md in this folder.
package main

import (
	"flag"
	"os"
	"strings"

	"github.com/gfxsim/gfxsim/experiments/decoupled/study"
	"github.com/gfxsim/gfxsim/experiments/expt"
)

func main() { expt.Main("decoupled", parseFlags, study.Run) }

// parseFlags reads the command line args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func parseFlags(args []string, getenv func(string) string, stderr *os.File) (o study.Options, err error) {
	var figures string
	sf := expt.StudyFlags{Sweep: &o.Sweep}
	o.Printed, err = sf.ParseCommand("decoupled", &o.Out, func(fs *flag.FlagSet) {
		fs.IntVar(&o.Width, "width", 0, "frame width for every figure (0: each figure's default, see README)")
		fs.IntVar(&o.Height, "height", 0, "frame height for every figure (0: each figure's default)")
		fs.BoolVar(&o.Quick, "quick", false, "a reduced sweep at 96x54 (for tests)")
		fs.Uint64Var(&o.Seed, "seed", 1, "seed of the lens and time sample pattern")
		fs.IntVar(&o.Workers, "workers", 2, "frames rendered at once")
		fs.BoolVar(&o.Timed, "timed", true, "run Fig. 13 on the timed machines (-timed=false: the functional figures only)")
		fs.StringVar(&figures, "figures", "", "the figures to run, a comma-separated list of "+strings.Join(study.FigureNames, ", ")+
			" (10, 11 and 12 share one sweep of frames; 13 is the timed frames, with the timed tiled rows beside Fig. 10); empty: all")
	}, args, getenv, stderr)
	if figures != "" {
		o.Figures = strings.Split(figures, ",")
	}
	return o, err
}
