// Command texcache is the texture-cache study: misses per bilinear request
// and hit rates over L1 size, associativity and line size, L2 size, filter
// mode, compressed and fat texels, traversal order, and the 32 KB 16-way L1
// at 8x MSAA, on the study scenes (texstudy at about 1:1 texels per pixel,
// texmagnify, texminify). See README.md in this folder.
package main

import (
	"flag"
	"os"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/experiments/texcache/study"
	"github.com/gfxsim/gfxsim/tracing"
)

func main() { expt.Main("texcache", parseFlags, study.Run) }

// parseFlags reads the command line args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func parseFlags(args []string, getenv func(string) string, stderr *os.File) (o study.Options, err error) {
	o.Instruments, o.Inputs = &tracing.Flags{}, &expt.Inputs{}
	sf := expt.StudyFlags{Inputs: o.Inputs, Instruments: o.Instruments, Sweep: &o.Sweep}
	o.Printed, err = sf.ParseCommand("texcache", &o.Out, func(fs *flag.FlagSet) {
		fs.IntVar(&o.Width, "width", 0, "frame width in pixels (0: the scenes' 320)")
		fs.IntVar(&o.Height, "height", 0, "frame height in pixels (0: the scenes' 180)")
		fs.BoolVar(&o.Quick, "quick", false, "a reduced sweep (fewer points, no traversal-order runs)")
	}, args, getenv, stderr)
	return o, err
}
