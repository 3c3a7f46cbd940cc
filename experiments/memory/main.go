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
	"flag"
	"os"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/experiments/memory/study"
)

func main() { expt.Main("memory", parseFlags, study.Run) }

// parseFlags reads the command line args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func parseFlags(args []string, getenv func(string) string, stderr *os.File) (o study.Options, err error) {
	sf := expt.StudyFlags{Sweep: &o.Sweep}
	o.Printed, err = sf.ParseCommand("memory", &o.Out, func(fs *flag.FlagSet) {
		fs.BoolVar(&o.Quick, "quick", false, "loads 1, 8 and 32 only, with fewer requests")
		fs.Uint64Var(&o.Seed, "seed", 1, "seed of the random patterns")
		fs.IntVar(&o.Workers, "workers", 2, "points measured at once")
		fs.Func("config", "a configuration file whose memory is measured too (repeatable; default configs/akita-dram.yaml)",
			func(s string) error {
				o.Configs = append(o.Configs, s)
				return nil
			})
	}, args, getenv, stderr)
	return o, err
}
