// Command decoupled is the decoupled-sampling study: it reruns section 5 of
// Ragan-Kelley et al. 2011 (Figs. 9-12, texture coherence, bilinear and
// adaptive reconstruction, and, with -timed, Fig. 13) on the study scenes and
// writes one CSV and PNG per figure. See README.md in this folder.
package main

import (
	"github.com/gfxsim/gfxsim/experiments/decoupled/study"
	"github.com/gfxsim/gfxsim/experiments/expt"
)

func main() { expt.Main("decoupled", study.ParseFlags, study.Run) }
