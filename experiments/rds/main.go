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

func main() {
	o, err := parseFlags(os.Args[1:], os.Getenv, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rds:", err)
		os.Exit(2)
	}
	if err := run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "rds:", err)
		os.Exit(1)
	}
}

// parseFlags reads the command line args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func parseFlags(args []string, getenv func(string) string, stderr *os.File) (options, error) {
	fs := flag.NewFlagSet("rds", flag.ExitOnError)
	var o options
	fs.StringVar(&o.out, "o", "out/rds", "output folder")
	fs.Int64Var(&o.steps, "steps", 1_000_000, "budget of each exhaustive search, in search steps (negative: unbounded)")
	fs.DurationVar(&o.timeout, "timeout", 0, "wall-clock budget of each exhaustive search (0: steps only)")
	fs.StringVar(&o.shaders, "shaders", "bowlingpin,bumppin,wood", "test shaders (library materials), comma-separated")
	fs.BoolVar(&o.frame, "frame", true, "also render the bowling-pin scene through the timed pipeline on multipass machines")
	fs.IntVar(&o.width, "width", 160, "frame width in pixels")
	fs.IntVar(&o.height, "height", 120, "frame height in pixels")
	sf := expt.StudyFlags{Inputs: &o.inputs, Instruments: &o.instruments, Sweep: &o.sweep}
	sf.Register(fs)
	if err := sf.Parse(fs, args, getenv, stderr); err != nil {
		return o, err
	}
	o.log, o.summary, o.bar = sf.Log, sf.Summary, sf.Bar
	return o, nil
}
