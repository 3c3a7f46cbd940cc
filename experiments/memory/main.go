// Command memory is the memory study: achieved bandwidth, average and p99
// latency and row-buffer hit rate against the offered load (requests in
// flight per channel) for sequential, strided and random reads and writes, on
// each dramctl preset (GDDR5, GDDR6, HBM2, LPDDR4) with the default machine's
// channels (the GDDR6 one is the default machine's memory) and on the memory
// of configs/akita-dram.yaml (Akita's mem/dram, the default machine's memory
// before gfxsim's controller), each beside its theoretical peak. See README.md in
// this folder.
package main

import (
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/experiments/memory/study"
)

func main() { expt.Main("memory", study.ParseFlags, study.Run) }
