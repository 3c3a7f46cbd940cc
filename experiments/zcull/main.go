// Command zcull is the masked-depth-culling study: hierarchical Z
// configurations (ORACLE, FORWARD, INSTANT FEEDBACK, FEEDBACK, ZMASK, PACKED
// ZMASK) on built-in scenes at 1x and 4x MSAA on the timed machine, with
// their culling rates and depth-related traffic, and the sweeps of feedback
// delay, tile size, layers and HiZ cache size. See README.md in this folder.
package main

import (
	"flag"
	"os"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/experiments/zcull/study"
	"github.com/gfxsim/gfxsim/tracing"
)

func main() { expt.Main("zcull", parseFlags, study.Run) }

// parseFlags reads the command line args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func parseFlags(args []string, getenv func(string) string, stderr *os.File) (o study.Options, err error) {
	o.Instruments, o.Inputs = &tracing.Flags{}, &expt.Inputs{}
	sf := expt.StudyFlags{Inputs: o.Inputs, Instruments: o.Instruments, Sweep: &o.Sweep}
	o.Printed, err = sf.ParseCommand("zcull", &o.Out, func(fs *flag.FlagSet) {
		fs.IntVar(&o.Width, "width", 0, "frame width in pixels (0: 320, or 160 with -quick)")
		fs.IntVar(&o.Height, "height", 0, "frame height in pixels (0: 180, or 90 with -quick)")
		fs.IntVar(&o.Workers, "workers", 2, "simulations run at once")
		fs.BoolVar(&o.Quick, "quick", false, "fewer scenes and sweep points at 160x90")
	}, args, getenv, stderr)
	return o, err
}
