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
	"strings"

	"github.com/gfxsim/gfxsim/experiments/expt"
)

func main() { expt.Main("rds", parseFlags, run) }

// parseFlags reads the command line args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func parseFlags(args []string, getenv func(string) string, stderr *os.File) (o options, err error) {
	o.inputs.BuiltinOnly = true // the frame is the built-in bowlingpin scene
	sf := expt.StudyFlags{Inputs: &o.inputs, Instruments: &o.instruments, Sweep: &o.sweep}
	var set *flag.FlagSet
	o.Printed, err = sf.ParseCommand("rds", &o.out, func(fs *flag.FlagSet) {
		set = fs
		fs.Int64Var(&o.steps, "steps", 1_000_000, "budget of each exhaustive search, in search steps (negative: unbounded)")
		fs.DurationVar(&o.timeout, "timeout", 0, "wall-clock budget of each exhaustive search (0: steps only)")
		fs.StringVar(&o.shaders, "shaders", "bowlingpin,bumppin,wood", "test shaders (library materials), comma-separated")
		fs.BoolVar(&o.frame, "frame", true, "also render the bowling-pin scene through the timed pipeline on multipass machines")
		fs.IntVar(&o.width, "width", 160, "frame width in pixels")
		fs.IntVar(&o.height, "height", 120, "frame height in pixels")
	}, args, getenv, stderr)
	if err != nil {
		return o, err
	}
	if o.timeout < 0 {
		return o, fmt.Errorf("-timeout %v: want 0 (steps only) or a positive duration", o.timeout)
	}
	if o.width < 1 || o.height < 1 {
		return o, fmt.Errorf("-width %d -height %d: want a frame of at least 1x1 pixels", o.width, o.height)
	}
	if !o.frame {
		var given []string
		set.Visit(func(f *flag.Flag) {
			if f.Name == "width" || f.Name == "height" || strings.HasPrefix(f.Name, "trace") || strings.HasPrefix(f.Name, "metrics") ||
				strings.HasPrefix(f.Name, "monitor") || f.Name == "instrument-runs" {
				given = append(given, "-"+f.Name)
			}
		})
		if len(given) > 0 {
			return o, fmt.Errorf("%s: the timed frame's flags, and -frame=false renders no frame", strings.Join(given, ", "))
		}
	}
	return o, nil
}
