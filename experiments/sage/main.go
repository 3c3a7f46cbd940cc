// Command sage reruns the claims of the SAGE paper (Deering and Naegle,
// SIGGRAPH 2002) on gfxsim's SAGE machine: triangles per second with 1 to 4
// pipes, sample-buffer fill and fast clear, video-rate reconstruction,
// the table-driven filter against the exact one and the paper's 16 against
// 256 sample check, ordered against unordered rendering, the switch
// hysteresis sweep and interleave balance. See README.md in this folder.
package main

import (
	"flag"
	"os"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/experiments/sage/study"
)

func main() { expt.Main("sage", parseFlags, study.Run) }

// parseFlags reads the command line args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func parseFlags(args []string, getenv func(string) string, stderr *os.File) (o study.Options, err error) {
	o.Inputs = &expt.Inputs{}
	sf := expt.StudyFlags{Inputs: o.Inputs, Sweep: &o.Sweep}
	o.Printed, err = sf.ParseCommand("sage", &o.Out, func(fs *flag.FlagSet) {
		fs.IntVar(&o.Width, "width", 0, "frame width of the rendering points in pixels (0: 480, or 96 with -quick)")
		fs.IntVar(&o.Height, "height", 0, "frame height of the rendering points in pixels (0: 270, or 54 with -quick)")
		fs.IntVar(&o.Workers, "workers", 2, "points run at once")
		fs.BoolVar(&o.Quick, "quick", false, "fewer points at tiny sizes (a test run of every table, well under a minute)")
	}, args, getenv, stderr)
	return o, err
}
