// Command zcull is the masked-depth-culling study: hierarchical Z
// configurations (ORACLE, FORWARD, INSTANT FEEDBACK, FEEDBACK, ZMASK, PACKED
// ZMASK) on built-in scenes at 1x and 4x MSAA on the timed machine, with
// their culling rates and depth-related traffic, and the sweeps of feedback
// delay, tile size, layers and HiZ cache size. See README.md in this folder.
package main

import (
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/experiments/zcull/study"
)

func main() { expt.Main("zcull", study.ParseFlags, study.Run) }
