// Command vertexreuse is the vertex-reuse study: vertex shader invocations
// per triangle (ACMR) of the built-in scenes and the real meshes under the
// input assembler's batches of up to 32 unique vertices, FIFO and LRU
// post-transform caches of 8 to 64 entries, before and after a Tipsify
// reordering of the index buffers, and the effect of each order on the timed
// frame. See README.md in this folder.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/experiments/vertexreuse/study"
	"github.com/gfxsim/gfxsim/tracing"
)

func main() { expt.Main("vertexreuse", parseFlags, study.Run) }

// parseFlags reads the command line args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func parseFlags(args []string, getenv func(string) string, stderr *os.File) (o study.Options, err error) {
	o.Instruments, o.Inputs = &tracing.Flags{}, &expt.Inputs{}
	sf := expt.StudyFlags{Inputs: o.Inputs, Instruments: o.Instruments, Sweep: &o.Sweep}
	o.Printed, err = sf.ParseCommand("vertexreuse", &o.Out, func(fs *flag.FlagSet) {
		fs.IntVar(&o.Width, "width", 0, "timed frame width in pixels (0: 160, or 64 with -quick)")
		fs.IntVar(&o.Height, "height", 0, "timed frame height in pixels (0: 90, or 36 with -quick)")
		fs.IntVar(&o.Workers, "workers", 2, "scenes run at once")
		fs.StringVar(&o.ScenesDir, "scenes", "../shared/scenes", "the shared scenes folder holding the real meshes")
		fs.IntVar(&o.ReorderCache, "reorder-cache", study.DefaultReorderCache, "the FIFO size, in vertices, Tipsify reorders for")
		fs.BoolVar(&o.Quick, "quick", false, "three built-in scenes, no real mesh, at 64x36")
	}, args, getenv, stderr)
	if err == nil && o.ReorderCache < 1 {
		err = fmt.Errorf("-reorder-cache %d: want a FIFO size of at least 1", o.ReorderCache)
	}
	return o, err
}
