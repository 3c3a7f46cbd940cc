// Command zcull is the masked-depth-culling study: hierarchical Z
// configurations (ORACLE, FORWARD, INSTANT FEEDBACK, FEEDBACK, ZMASK, PACKED
// ZMASK) on built-in scenes at 1x and 4x MSAA on the timed machine, with
// their culling rates and depth-related traffic, and the sweeps of feedback
// delay, tile size, layers and HiZ cache size. See README.md in this folder.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/experiments/zcull/study"
	"github.com/gfxsim/gfxsim/internal/progress"
	"github.com/gfxsim/gfxsim/tracing"
)

func main() {
	var o study.Options
	flag.StringVar(&o.Out, "o", "out/zcull", "output folder")
	flag.IntVar(&o.Width, "width", 0, "frame width in pixels (0: 320, or 160 with -quick)")
	flag.IntVar(&o.Height, "height", 0, "frame height in pixels (0: 180, or 90 with -quick)")
	flag.IntVar(&o.Workers, "workers", 2, "simulations run at once")
	flag.BoolVar(&o.Quick, "quick", false, "fewer scenes and sweep points at 160x90")
	quiet := flag.Bool("q", false, "no progress lines on stderr")
	var instruments tracing.Flags
	instruments.Register(flag.CommandLine)
	var in expt.Inputs
	in.Register(flag.CommandLine)
	o.Inputs = &in
	o.Sweep.Register(flag.CommandLine)
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "zcull: unexpected argument %q\n", flag.Arg(0))
		os.Exit(2)
	}
	if err := o.Sweep.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "zcull:", err)
		os.Exit(2)
	}
	if err := instruments.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "zcull:", err)
		os.Exit(2)
	}
	if !*quiet {
		o.Log = os.Stderr
	} else {
		instruments.ProgressEvery = 0
	}
	o.Bar = progress.Enabled(*quiet, os.Getenv, os.Stderr)
	o.Instruments = &instruments
	if err := study.Run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "zcull:", err)
		os.Exit(1)
	}
}
