// Command texcache is the texture-cache study: misses per bilinear request
// and hit rates over L1 size, associativity and line size, L2 size, filter
// mode, compressed and fat texels, traversal order, and the 32 KB 16-way L1
// at 8x MSAA, on the study scenes (texstudy at about 1:1 texels per pixel,
// texmagnify, texminify). See README.md in this folder.
package main

import (
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/experiments/texcache/study"
)

func main() { expt.Main("texcache", study.ParseFlags, study.Run) }
