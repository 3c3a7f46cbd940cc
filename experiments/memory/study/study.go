// Package study is the memory study of experiments/memory: the classic
// bandwidth and latency curves of each memory system (the dramctl presets on
// the default machine's channels, the default machine's Akita DRAM, and the
// memory of each configuration file given), against the offered load, for
// sequential, strided and random reads and writes, driven by a
// components/memory/traffic generator (see the README in the folder above).
package study

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gfxsim/gfxsim/components/memory"
	"github.com/gfxsim/gfxsim/components/memory/dramctl"
	"github.com/gfxsim/gfxsim/components/memory/traffic"
	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/progress"
)

// Options are the study's settings.
type Options struct {
	// Common: Quick measures fewer loads with fewer requests; Workers are
	// the points measured at once (0: 1); Instruments and Inputs are not
	// used.
	expt.Common
	// Configs are configuration files (overlays of the default machine)
	// whose memory systems the study measures besides the built-in ones
	// (nil: configs/akita-dram.yaml, the copy embedded in the binary, so
	// that the default works from any folder).
	Configs []string
	// Seed seeds the random patterns.
	Seed uint64
}

// ParseFlags reads a command line's args into the study's options, with
// what it prints on stderr decided by -q, -v, CI (getenv) and whether
// stderr is a terminal (progress.Flags).
func ParseFlags(args []string, getenv func(string) string, stderr *os.File) (o Options, err error) {
	err = o.Common.Parse("memory", expt.Help{Quick: "loads 1, 8 and 32 only, with fewer requests", Workers: "points measured at once"}, func(fs *flag.FlagSet) {
		fs.Uint64Var(&o.Seed, "seed", 1, "seed of the random patterns")
		fs.Func("config", "a configuration file whose memory is measured too (repeatable; default configs/akita-dram.yaml, embedded in the binary)",
			func(s string) error {
				o.Configs = append(o.Configs, s)
				return nil
			})
	}, args, getenv, stderr)
	return o, err
}

// DefaultConfigs are the configuration files measured by default, from
// their copies embedded in the binary.
var DefaultConfigs = []string{configs.AkitaDRAMName}

// Row is one measured point: a memory system under one traffic at one load.
type Row struct {
	System   string  // memory system name
	Pattern  string  // sequential, strided, random
	Write    bool    // writes (else reads)
	Load     int     // requests in flight per channel
	Channels int     // memory channels
	PeakGBs  float64 // theoretical peak over all channels, GB/s
	Requests int     // requests measured
	GBs      float64 // achieved bandwidth, GB/s, first issue to last completion
	// LatencyNs and P99Ns are the mean and 99th-percentile request latency
	// at the generator (issue to response), in ns.
	LatencyNs, P99Ns float64
	// RowHitRate is the fraction of bursts that hit an open row (dramctl
	// channels; HasRows false for the others).
	RowHitRate float64
	HasRows    bool
}

// Efficiency returns the achieved bandwidth as a fraction of the peak.
func (r Row) Efficiency() float64 {
	if r.PeakGBs == 0 {
		return 0
	}
	return r.GBs / r.PeakGBs
}

// Kind names the row's traffic: "sequential read", "random write", ...
func (r Row) Kind() string { return kindName(r.Pattern, r.Write) }

func kindName(pattern string, write bool) string {
	if write {
		return pattern + " write"
	}
	return pattern + " read"
}

// System is a memory system the study measures.
type System struct {
	Name   string
	Source string // where its configuration comes from
	Memory memory.Config
}

// Systems returns the memory systems of the study: each dramctl preset on
// the default machine's memory section (its channel count, interleave,
// policies; the GDDR6 one is the default machine's memory), and each
// configuration file's memory (nil: DefaultConfigs, configs/akita-dram.yaml,
// Akita's mem/dram, from the copy embedded in the binary).
func Systems(files []string) ([]System, error) {
	base := configs.Default()
	var out []System
	for _, p := range dramctl.PresetNames() {
		c := *base
		c.Memory.Type, c.Memory.Preset = memory.TypeDRAMCtl, p
		out = append(out, System{Name: p, Source: configs.DefaultName + " memory, type dramctl, preset " + p,
			Memory: c.MemoryConfig()})
	}
	load := configs.Load
	if files == nil {
		files = DefaultConfigs
		load = func(string) (*configs.Config, error) { return configs.AkitaDRAMMachine(), nil }
	}
	for _, f := range files {
		c, err := load(f)
		if err != nil {
			return nil, err
		}
		name := expt.RunName(filepath.Base(f))
		for _, s := range out {
			if s.Name == name {
				return nil, fmt.Errorf("-config %s: its system is named %q (after the file), the name of another system (%s); give the files different names", f, name, s.Source)
			}
		}
		out = append(out, System{Name: name, Source: f + " memory", Memory: c.MemoryConfig()})
	}
	return out, nil
}

// memoryDigest is a digest of the systems' memory configurations, so that a
// merge refuses points measured on other memories: a -config file edited
// between shards, or presets changed between builds (the file name alone
// says neither).
func memoryDigest(systems []System) (string, error) {
	mems := make([]memory.Config, len(systems))
	for i, s := range systems {
		mems[i] = s.Memory
	}
	return expt.Digest(mems)
}

// Traffic is one traffic kind of the study.
type Traffic struct {
	Pattern traffic.Pattern
	Write   bool
}

// Traffics are the study's traffic kinds.
var Traffics = []Traffic{
	{traffic.Sequential, false}, {traffic.Strided, false}, {traffic.Random, false},
	{traffic.Sequential, true}, {traffic.Random, true},
}

// Loads returns the loads (requests in flight per channel) of the study.
func Loads(quick bool) []int {
	if quick {
		return []int{1, 8, 32}
	}
	return []int{1, 2, 4, 8, 16, 32, 64}
}

// requests returns the requests of one point: enough for the load to reach
// its steady state (a few hundred rounds of the requests in flight).
func requests(quick bool, channels, load int) int {
	if quick {
		return max(200*channels, 8*channels*load)
	}
	return max(1000*channels, 40*channels*load)
}

// Base is the first address of every traffic (command.BaseAddress's region).
const Base = 0x10000

// StrideGranules is the strided pattern's stride in interleave granules per
// channel: a stride of StrideGranules*NumChannels+1 granules visits the
// channels in turn and, within each, jumps StrideGranules*NumChannels+1
// granules (8.25 KiB with 4 channels of 256-byte granules, 32.25 KiB with 16), farther than a row.
const StrideGranules = 8

// trafficConfig returns the generator's configuration for a point.
func trafficConfig(s System, t Traffic, load, n int, seed uint64) traffic.Config {
	m := s.Memory.WithDefaults()
	return traffic.Config{Pattern: t.Pattern, Write: t.Write, Requests: n, RequestBytes: 64,
		MaxOutstanding: load * m.NumChannels, Base: Base,
		StrideBytes: (StrideGranules*uint64(m.NumChannels) + 1) * m.InterleaveBytes,
		SpanBytes:   256 << 20, Seed: seed}
}

// pointName names the point of system s, traffic t and load l.
func pointName(s System, t Traffic, l int) string {
	return expt.RunName(s.Name, kindName(t.Pattern.String(), t.Write), "load"+strconv.Itoa(l))
}

// measure runs one point.
func measure(s System, t Traffic, load int, o Options) (Row, error) {
	m := s.Memory.WithDefaults()
	n := requests(o.Quick, m.NumChannels, load)
	res, err := traffic.Measure(m, trafficConfig(s, t, load, n, o.Seed))
	if err != nil {
		return Row{}, fmt.Errorf("%s %s: %w", s.Name, kindName(t.Pattern.String(), t.Write), err)
	}
	r := res.Result
	ns := float64(traffic.GeneratorFreq) / 1e9 // generator cycles per ns
	row := Row{System: s.Name, Pattern: t.Pattern.String(), Write: t.Write, Load: load, Channels: m.NumChannels,
		PeakGBs: m.PeakBytesPerNs(), Requests: r.Requests, GBs: r.BytesPerCycle() * ns,
		LatencyNs: r.AverageLatency() / ns, P99Ns: float64(r.Percentile(99)) / ns}
	if m.Type == memory.TypeDRAMCtl {
		var hits, all float64
		for k, v := range res.Stats {
			switch {
			case strings.HasSuffix(k, ".row_hits"):
				hits += v
				all += v
			case strings.HasSuffix(k, ".row_misses"), strings.HasSuffix(k, ".row_conflicts"):
				all += v
			}
		}
		row.HasRows = true
		if all > 0 {
			row.RowHitRate = hits / all
		}
	}
	return row, nil
}

// Run runs the study's points (all, or the shard o.Sweep names), writes each
// point's row under o.Out/points and, unless sharded, writes results.csv and
// the figures into o.Out and prints the tables to w; -list and -merge as
// expt.SweepFlags says.
func Run(o Options, w io.Writer) error {
	if o.Out == "" {
		o.Out = "out/memory"
	}
	t0 := time.Now()
	systems, err := Systems(o.Configs)
	if err != nil {
		return err
	}
	if o.Configs == nil {
		o.Configs = DefaultConfigs
	}
	type point struct {
		s    System
		t    Traffic
		load int
	}
	var pts []point
	var names []string
	for _, s := range systems {
		for _, t := range Traffics {
			for _, l := range Loads(o.Quick) {
				pts = append(pts, point{s, t, l})
				names = append(names, pointName(s, t, l))
			}
		}
	}
	bar := progress.New(os.Stderr, 0, o.Bar)
	log := bar.Writer(o.Log)
	digest, err := memoryDigest(systems)
	if err != nil {
		return err
	}
	sw := &expt.Sweep[Row]{Study: "memory", Out: o.Out, Points: names, Workers: o.Workers, Bar: bar,
		Fingerprint: expt.Fingerprint{"quick": strconv.FormatBool(o.Quick), "seed": strconv.FormatUint(o.Seed, 10),
			"config": strings.Join(o.Configs, ",") + " (memories " + digest + ")"},
		Run: func(i int) (Row, error) { return measure(pts[i].s, pts[i].t, pts[i].load, o) },
		Done: func(done, total, i int, r Row) {
			if log != nil {
				fmt.Fprintf(log, "[%5.1fs] %d/%d %-10s %-16s load %2d: %7.1f GB/s of %.1f, %6.0f ns (p99 %.0f)\n",
					time.Since(t0).Seconds(), done, total, r.System, r.Kind(), r.Load, r.GBs, r.PeakGBs, r.LatencyNs, r.P99Ns)
			}
		},
		Merge: func(w io.Writer, rows []Row) error {
			if err := writeCSV(filepath.Join(o.Out, "results.csv"), rows); err != nil {
				return err
			}
			if err := figures(o.Out, rows); err != nil {
				return err
			}
			report(w, rows, systems)
			return nil
		}}
	if err := sw.Main(o.Sweep, w); err != nil {
		return err
	}
	expt.PrintWallTime(o.Printed, o.Sweep.List, t0, o.Out)
	return nil
}
