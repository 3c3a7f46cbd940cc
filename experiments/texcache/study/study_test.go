package study

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/internal/progress/progresstest"
)

// TestReplayMatchesTimed: replaying a timed frame's requests on the same
// machine reproduces the samplers' cache behaviour (the same requests in the
// same order: the same lookups, hits and misses).
func TestReplayMatchesTimed(t *testing.T) {
	s, err := expt.LoadScene("texstudy", 64, 36, 1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := configs.Default()
	run, err := Timed(s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Replay(run, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := MetricsOf(run.Stats), MetricsOf(st)
	if a.Requests == 0 || a.Requests != b.Requests || a.Texels != b.Texels || a.Lookups != b.Lookups ||
		a.Footprints != b.Footprints || a.L2Bytes == 0 {
		t.Errorf("timed %+v\nreplay %+v", a, b)
	}
	// Hits and misses may differ only by what the timing changes (merges of
	// misses still in flight): within 2% of the lookups.
	if d := a.L1Misses - b.L1Misses; d*d > (0.02*a.Lookups)*(0.02*a.Lookups) {
		t.Errorf("misses: timed %v, replay %v of %v lookups", a.L1Misses, b.L1Misses, a.Lookups)
	}
	// A texel-granular cache misses at least as many texels as a line cache has line misses.
	miss, fp, err := TexelMisses(run, 8, 4, withFilter(texture.Bilinear, 1))
	if err != nil {
		t.Fatal(err)
	}
	if fp == 0 || miss < b.L1Misses/2 {
		t.Errorf("texel cache: %v misses for %v footprints", miss, fp)
	}
}

// TestQuickStudy runs the reduced study at a small size and checks its outputs.
func TestQuickStudy(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	dir := t.TempDir()
	var out bytes.Buffer
	if err := Run(Options{Common: expt.Common{Out: dir, Quick: true}, Width: 48, Height: 27}, &out); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"results.csv", "misses_per_request_l1.png", "texel_misses_per_request_l1.png", "hit_rate_l1.png",
		"associativity.png", "line_size_hit_rate.png", "line_size_l2_bytes.png", "l2_size_hit_rate.png", "l2_size_dram.png",
		"filter_per_lane.png", "filter_hit_rate.png", "format_traffic.png", "format_hit_rate.png"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	for _, want := range []string{"plateau (texstudy, 8 KB)", "texstudy at 8x MSAA, L1 32 KB 16-way 64-byte lines: per-texel hit rate",
		"texminify (texels)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	csv, err := os.ReadFile(filepath.Join(dir, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// 3 baselines + 3x3 L1 sizes + 2 ways + 2 lines + 2 L2 + 4 filters + 2 formats + 2 MSAA, and the header.
	if n := strings.Count(string(csv), "\n"); n != 1+3+9+2+2+2+4+2+2 {
		t.Errorf("%d CSV lines", n)
	}
}

// TestShardsMatch runs the reduced study in one process and as shards 0/3,
// 1/3 and 2/3 (each rendering the frames its replays need) merged: the
// tables, CSV and figures are the same bytes.
func TestShardsMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	err := expt.ShardsMatch(t.TempDir(), 3, func(out string, f expt.SweepFlags, w io.Writer) error {
		return Run(Options{Common: expt.Common{Out: out, Quick: true, Sweep: f}, Width: 48, Height: 27}, w)
	})
	if err != nil {
		t.Error(err)
	}
}

func TestMetrics(t *testing.T) {
	st := map[string]float64{
		"GPU.TextureSampler[0].texels": 100, "GPU.TextureSampler[1].texels": 60,
		"GPU.TextureSampler[0].texel_hits": 90, "GPU.TextureSampler[1].texel_hits": 30,
		"GPU.TextureSampler[0].l1_misses": 10, "GPU.TextureSampler[1].l1_misses": 30,
		"GPU.TextureSampler[0].footprints": 25, "GPU.TextureSampler[1].footprints": 15,
		"GPU.TextureSampler[0].l2.reads": 999, // a memory-client counter: not a sampler's
		"GPU.L2.Bank[0].read_hits":       3, "GPU.L2.Bank[0].read_misses": 1, "GPU.L2.Bank[1].read_mshr_hits": 4,
		"GPU.TextureTraffic.wall.dram_bytes": 64, "GPU.TextureTraffic.other.dram_bytes": 0, "GPU.cycles": 1234,
	}
	m := MetricsOf(st)
	if m.TexelHitRate() != 0.75 || m.MissesPerFootprint() != 1 || m.L2HitRate() != 3.0/8 || m.DRAMBytes != 64 || m.Cycles != 1234 || m.L2Reads != 0 {
		t.Errorf("%+v", m)
	}
}

func TestQuietRules(t *testing.T) { progresstest.CheckOptions(t, ParseFlags) }

// TestPlateauSizes: the plateau line names the L1 sizes it averaged (-quick
// has only 8 KB between 4 and 16).
func TestPlateauSizes(t *testing.T) {
	for _, tc := range []struct {
		kb   []float64
		want string
		n    int
	}{
		{[]float64{1, 2, 4, 8, 16, 32, 64}, "4-16 KB", 3},
		{[]float64{1, 8, 64}, "8 KB", 1},
		{[]float64{1, 64}, "", 0},
	} {
		var rs []Row
		for _, x := range tc.kb {
			rs = append(rs, Row{X: x})
		}
		p := plateau(rs)
		if p.n != tc.n || p.n > 0 && p.sizes() != tc.want {
			t.Errorf("sizes %v: %d averaged, %q; want %d, %q", tc.kb, p.n, p.sizes(), tc.n, tc.want)
		}
	}
}
