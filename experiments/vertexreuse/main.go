// Command vertexreuse is the vertex-reuse study: vertex shader invocations
// per triangle (ACMR) of the built-in scenes and the real meshes under the
// input assembler's batches of up to 32 unique vertices, FIFO and LRU
// post-transform caches of 8 to 64 entries, before and after a Tipsify
// reordering of the index buffers, and the effect of each order on the timed
// frame. See README.md in this folder.
package main

import (
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/experiments/vertexreuse/study"
)

func main() { expt.Main("vertexreuse", study.ParseFlags, study.Run) }
