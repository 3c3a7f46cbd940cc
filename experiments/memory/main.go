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
	"fmt"
	"os"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/experiments/memory/study"
)

func main() {
	o, err := parseFlags(os.Args[1:], os.Getenv, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "memory:", err)
		os.Exit(2)
	}
	if err := study.Run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "memory:", err)
		os.Exit(1)
	}
}

// parseFlags reads the command line args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func parseFlags(args []string, getenv func(string) string, stderr *os.File) (study.Options, error) {
	fs := flag.NewFlagSet("memory", flag.ExitOnError)
	var o study.Options
	fs.StringVar(&o.Out, "o", "out/memory", "output folder")
	fs.BoolVar(&o.Quick, "quick", false, "loads 1, 8 and 32 only, with fewer requests")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the random patterns")
	fs.IntVar(&o.Workers, "workers", 2, "points measured at once")
	fs.Func("config", "a configuration file whose memory is measured too (repeatable; default configs/akita-dram.yaml)",
		func(s string) error {
			o.Configs = append(o.Configs, s)
			return nil
		})
	sf := expt.StudyFlags{Sweep: &o.Sweep}
	sf.Register(fs)
	if err := sf.Parse(fs, args, getenv, stderr); err != nil {
		return o, err
	}
	o.Log, o.Summary, o.Bar = sf.Log, sf.Summary, sf.Bar
	return o, nil
}
