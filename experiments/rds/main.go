// Command rds reproduces the study of Chan et al., "Efficient Partitioning of
// Fragment Shaders for Multipass Rendering on Programmable Graphics Hardware"
// (2002), on gfxsim's shaders: RDS, RDS_h and the exhaustive optimum for
// every test shader, pipeline configuration PC1-PC8 and cost model, the
// per-pass resources of the bowling pin, and a timed frame of a multipass
// bowling pin against the cost model. See README.md in this folder.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gfxsim/gfxsim/experiments/expt"
)

func main() { expt.Main("rds", parseFlags, run) }

// parseFlags reads the command line args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func parseFlags(args []string, getenv func(string) string, stderr *os.File) (o options, err error) {
	sf := expt.StudyFlags{Inputs: &o.inputs, Instruments: &o.instruments, Sweep: &o.sweep}
	o.Printed, err = sf.ParseCommand("rds", &o.out, func(fs *flag.FlagSet) {
		fs.Int64Var(&o.steps, "steps", 1_000_000, "budget of each exhaustive search, in search steps (negative: unbounded)")
		fs.DurationVar(&o.timeout, "timeout", 0, "wall-clock budget of each exhaustive search (0: steps only)")
		fs.StringVar(&o.shaders, "shaders", "bowlingpin,bumppin,wood", "test shaders (library materials), comma-separated")
		fs.BoolVar(&o.frame, "frame", true, "also render the bowling-pin scene through the timed pipeline on multipass machines")
		fs.IntVar(&o.width, "width", 160, "frame width in pixels")
		fs.IntVar(&o.height, "height", 120, "frame height in pixels")
	}, args, getenv, stderr)
	if err == nil && o.timeout < 0 {
		err = fmt.Errorf("-timeout %v: want 0 (steps only) or a positive duration", o.timeout)
	}
	return o, err
}
