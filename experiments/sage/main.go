// Command sage reruns the claims of the SAGE paper (Deering and Naegle,
// SIGGRAPH 2002) on gfxsim's SAGE machine: triangles per second with 1 to 4
// pipes, sample-buffer fill and fast clear, video-rate reconstruction,
// the table-driven filter against the exact one and the paper's 16 against
// 256 sample check, ordered against unordered rendering, the switch
// hysteresis sweep and interleave balance. See README.md in this folder.
package main

import (
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/experiments/sage/study"
)

func main() { expt.Main("sage", study.ParseFlags, study.Run) }
