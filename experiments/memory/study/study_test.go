package study

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/components/memory"
	"github.com/gfxsim/gfxsim/components/memory/dramctl"
	"github.com/gfxsim/gfxsim/components/memory/traffic"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/progress/progresstest"
)

// akitaDRAM is configs/akita-dram.yaml from this folder.
var akitaDRAM = filepath.Join("..", "..", "..", "configs", "akita-dram.yaml")

func quick(out string, f expt.SweepFlags, w io.Writer) error {
	return Run(Options{Common: expt.Common{Out: out, Quick: true, Workers: 2, Sweep: f}, Configs: []string{akitaDRAM}, Seed: 1}, w)
}

// TestQuickStudy runs the reduced study and checks its outputs and the
// physics of its curves: no point above its part's peak, sequential reads at
// the highest load faster than random ones and above 85% of the peak on every
// dramctl part, latency growing with the load, row hits only where rows are
// reported.
func TestQuickStudy(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	if err := quick(dir, expt.SweepFlags{}, &out); err != nil {
		t.Fatal(err)
	}
	for _, kind := range kinds() {
		f := strings.ReplaceAll(kind, " ", "_")
		for _, name := range []string{"bandwidth_" + f + ".png", "latency_" + f + ".png", "row_hits_" + f + ".png"} {
			if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
	csv, err := os.ReadFile(filepath.Join(dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// 5 systems (4 presets, akita-dram.yaml) x 5 traffic kinds x 3 loads, and the header.
	if n := strings.Count(string(csv), "\n"); n != 1+5*5*3 {
		t.Errorf("%d CSV lines, want %d", n, 1+5*5*3)
	}
	for _, want := range []string{"headline:", "GDDR6", "HBM2", "LPDDR4", "akita-dram.yaml", "448.3", "153.6"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	rows := readRows(t, dir)
	for _, sys := range systemNames(rows) {
		seq, rnd := pick(rows, sys, "sequential read"), pick(rows, sys, "random read")
		hi := seq[len(seq)-1]
		if hi.GBs <= rnd[len(rnd)-1].GBs {
			t.Errorf("%s: sequential reads %.1f GB/s, not above random ones %.1f", sys, hi.GBs, rnd[len(rnd)-1].GBs)
		}
		if hi.HasRows && hi.Efficiency() < 0.85 {
			t.Errorf("%s: sequential reads reach %.1f%% of the peak", sys, 100*hi.Efficiency())
		}
		if hi.LatencyNs <= seq[0].LatencyNs {
			t.Errorf("%s: latency %.0f ns at load %d, %.0f at load 1", sys, hi.LatencyNs, hi.Load, seq[0].LatencyNs)
		}
	}
	for _, r := range rows {
		if r.Efficiency() > 1 || r.GBs <= 0 || r.Requests == 0 {
			t.Errorf("%s %s load %d: %.1f GB/s of %.1f from %d requests", r.System, r.Kind(), r.Load, r.GBs, r.PeakGBs, r.Requests)
		}
		if r.HasRows != !strings.HasPrefix(r.System, "akita") {
			t.Errorf("%s: HasRows %v", r.System, r.HasRows)
		}
	}
}

// readRows decodes the point files of a run.
func readRows(t *testing.T, dir string) []Row {
	t.Helper()
	var rows []Row
	systems, err := Systems([]string{akitaDRAM})
	if err != nil {
		t.Fatal(err)
	}
	digest, err := memoryDigest(systems)
	if err != nil {
		t.Fatal(err)
	}
	sw := &expt.Sweep[Row]{Study: "memory", Out: dir, Fingerprint: expt.Fingerprint{"quick": "true", "seed": "1", "config": akitaDRAM + " (memories " + digest + ")"},
		Merge: func(_ io.Writer, rs []Row) error { rows = rs; return nil }}
	for _, s := range systems {
		for _, tr := range Traffics {
			for _, l := range Loads(true) {
				sw.Points = append(sw.Points, pointName(s, tr, l))
			}
		}
	}
	if err := sw.MergeFolders(io.Discard, expt.PointsDir(dir)); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestShardsMatch: the reduced study in one process and as three merged
// shards writes the same tables, CSV and figures.
func TestShardsMatch(t *testing.T) {
	if err := expt.ShardsMatch(t.TempDir(), 3, quick); err != nil {
		t.Error(err)
	}
}

// TestSystemsNameTheBadFile: a configuration file that does not load stops
// the study with its name.
func TestSystemsNameTheBadFile(t *testing.T) {
	if _, err := Systems([]string{"no-such.yaml"}); err == nil || !strings.Contains(err.Error(), "no-such.yaml") {
		t.Errorf("error %v", err)
	}
}

// TestSystemsOfOneName: two configuration files of one name (in two
// folders) would give their points one name; the study refuses them, naming
// both.
func TestSystemsOfOneName(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "x.yaml"), filepath.Join(t.TempDir(), "x.yaml")
	for _, f := range []string{a, b} {
		if err := os.WriteFile(f, []byte("memory: {type: ideal}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := fmt.Sprintf(`-config %s: its system is named "x.yaml" (after the file), the name of another system (%s memory); give the files different names`, b, a)
	if _, err := Systems([]string{a, b}); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestQuietRules(t *testing.T) { progresstest.CheckOptions(t, ParseFlags) }

// TestDefaultConfigAnywhere: the default systems come from the binary's
// embedded configs/akita-dram.yaml, the same as the file, so the study's
// default runs outside the repository's root.
func TestDefaultConfigAnywhere(t *testing.T) {
	file, err := filepath.Abs(akitaDRAM)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Systems([]string{file})
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	got, err := Systems(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d systems, want %d", len(got), len(want))
	}
	last := len(got) - 1
	if g, w := got[last], want[last]; g.Name != w.Name || g.Source != "configs/akita-dram.yaml memory" || !reflect.DeepEqual(g.Memory, w.Memory) {
		t.Errorf("embedded default system %+v, from the file %+v", g, w)
	}
}

// TestMemoryDigest: the fingerprint's digest follows a configuration file's
// contents, not its name, so that a merge refuses shards measured before and
// after the file was edited.
func TestMemoryDigest(t *testing.T) {
	f := filepath.Join(t.TempDir(), "m.yaml")
	digest := func(text string) string {
		t.Helper()
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Systems([]string{f})
		if err != nil {
			t.Fatal(err)
		}
		d, err := memoryDigest(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	four, again, two := digest("memory: {type: ideal, channels: 4}\n"), digest("memory: {type: ideal, channels: 4}\n"), digest("memory: {type: ideal, channels: 2}\n")
	if four != again || four == two || len(four) != 12 {
		t.Errorf("digests %q, %q (same file) and %q (2 channels): want the first two equal, the third not", four, again, two)
	}
}

// TestStrideBanks pins the README's account of the strided pattern: within a
// channel of the study's GDDR6 system the stride advances the local address
// by 33,024 bytes, so under the default mapping a channel's strided bursts
// fall in 4 of the 16 banks, each burst in a new row; under the row-major
// mapping (labs/08-memory-system/rowmajor.yaml) in all 16, two bursts a row.
func TestStrideBanks(t *testing.T) {
	systems, err := Systems(nil)
	if err != nil {
		t.Fatal(err)
	}
	var gddr6 memory.Config
	for _, s := range systems {
		if s.Name == "GDDR6" {
			gddr6 = s.Memory.WithDefaults()
		}
	}
	tc := trafficConfig(System{Memory: gddr6}, Traffic{Pattern: traffic.Strided}, 1, 1, 1)
	channels := uint64(gddr6.NumChannels)
	for _, c := range []struct {
		mapping     string
		banks, rows int
	}{{gddr6.DRAMCtl.Mapping, 4, 512}, {"row,bank,bankgroup,column", 16, 256}} {
		m, err := dramctl.ParseMapping(c.mapping, gddr6.DRAMCtl.Geometry)
		if err != nil {
			t.Fatal(err)
		}
		banks, rows := map[[2]int]bool{}, map[[3]int]bool{}
		for k := uint64(0); k < 256; k++ {
			// Channel 0's k-th strided request, at its channel-local address
			// (memory.Memory.LocalAddress: the channel's granules packed).
			addr := k * channels * tc.StrideBytes
			local := addr/(gddr6.InterleaveBytes*channels)*gddr6.InterleaveBytes + addr%gddr6.InterleaveBytes
			for b := uint64(0); b < 64; b += gddr6.DRAMCtl.Geometry.BurstBytes() {
				l := m.Decode(local + b)
				banks[[2]int{l.BankGroup, l.Bank}] = true
				rows[[3]int{l.BankGroup, l.Bank, l.Row}] = true
			}
		}
		if len(banks) != c.banks || len(rows) != c.rows {
			t.Errorf("%s: channel 0's 256 strided requests use %d banks and %d rows, want %d and %d", c.mapping,
				len(banks), len(rows), c.banks, c.rows)
		}
	}
}
