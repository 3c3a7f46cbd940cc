// Command decoupled is the decoupled-sampling study: it reruns section 5 of
// Ragan-Kelley et al. 2011 (Figs. 9-12, texture coherence, bilinear and
// adaptive reconstruction, and, with -timed, Fig. 13) on the study scenes and
// writes one CSV and PNG per figure. See README.md in this folder.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gfxsim/gfxsim/experiments/decoupled/study"
)

func main() {
	var o study.Options
	flag.StringVar(&o.Out, "o", "out/decoupled", "output folder")
	flag.IntVar(&o.Width, "width", 0, "frame width for every figure (0: each figure's default, see README)")
	flag.IntVar(&o.Height, "height", 0, "frame height for every figure (0: each figure's default)")
	flag.BoolVar(&o.Quick, "quick", false, "a reduced sweep at 96x54 (for tests)")
	flag.Uint64Var(&o.Seed, "seed", 1, "seed of the lens and time sample pattern")
	flag.IntVar(&o.Workers, "workers", 2, "frames rendered at once")
	flag.BoolVar(&o.Timed, "timed", true, "run Fig. 13 on the timed machine (-timed=false: the functional figures only)")
	quiet := flag.Bool("q", false, "no progress lines on stderr")
	o.Sweep.Register(flag.CommandLine)
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "decoupled: unexpected argument %q\n", flag.Arg(0))
		os.Exit(2)
	}
	if err := o.Sweep.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "decoupled:", err)
		os.Exit(2)
	}
	if !*quiet {
		o.Log = os.Stderr
	}
	if err := study.Run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "decoupled:", err)
		os.Exit(1)
	}
}
