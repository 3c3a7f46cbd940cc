// Command texcache is the texture-cache study: misses per bilinear request
// and hit rates over L1 size, associativity and line size, L2 size, filter
// mode, compressed and fat texels, traversal order, and the 32 KB 16-way L1
// at 8x MSAA, on the study scenes (texstudy at about 1:1 texels per pixel,
// texmagnify, texminify). See README.md in this folder.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/experiments/texcache/study"
	"github.com/gfxsim/gfxsim/tracing"
)

func main() {
	var o study.Options
	flag.StringVar(&o.Out, "o", "out/texcache", "output folder")
	flag.IntVar(&o.Width, "width", 0, "frame width in pixels (0: the scenes' 320)")
	flag.IntVar(&o.Height, "height", 0, "frame height in pixels (0: the scenes' 180)")
	flag.BoolVar(&o.Quick, "quick", false, "a reduced sweep (fewer points, no traversal-order runs)")
	quiet := flag.Bool("q", false, "no progress lines on stderr")
	var instruments tracing.Flags
	instruments.Register(flag.CommandLine)
	var in expt.Inputs
	in.Register(flag.CommandLine)
	o.Inputs = &in
	o.Sweep.Register(flag.CommandLine)
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "texcache: unexpected argument %q\n", flag.Arg(0))
		os.Exit(2)
	}
	if err := o.Sweep.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "texcache:", err)
		os.Exit(2)
	}
	if err := instruments.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "texcache:", err)
		os.Exit(2)
	}
	if !*quiet {
		o.Log = os.Stderr
	} else {
		instruments.ProgressEvery = 0
	}
	o.Instruments = &instruments
	if err := study.Run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "texcache:", err)
		os.Exit(1)
	}
}
