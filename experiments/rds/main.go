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
)

func main() {
	var o options
	flag.StringVar(&o.out, "o", "out/rds", "output folder")
	flag.Int64Var(&o.steps, "steps", 1_000_000, "budget of each exhaustive search, in search steps (negative: unbounded)")
	flag.DurationVar(&o.timeout, "timeout", 0, "wall-clock budget of each exhaustive search (0: steps only)")
	flag.StringVar(&o.shaders, "shaders", "bowlingpin,bumppin,wood", "test shaders (library materials), comma-separated")
	flag.BoolVar(&o.frame, "frame", true, "also render the bowling-pin scene through the timed pipeline on multipass machines")
	flag.IntVar(&o.width, "width", 160, "frame width in pixels")
	flag.IntVar(&o.height, "height", 120, "frame height in pixels")
	o.instruments.Register(flag.CommandLine)
	o.inputs.Register(flag.CommandLine)
	o.sweep.Register(flag.CommandLine)
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "rds: unexpected argument %q\n", flag.Arg(0))
		os.Exit(2)
	}
	if err := o.sweep.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "rds:", err)
		os.Exit(2)
	}
	if err := o.instruments.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "rds:", err)
		os.Exit(2)
	}
	if err := run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "rds:", err)
		os.Exit(1)
	}
}
