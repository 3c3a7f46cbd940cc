package study

import (
	"bytes"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/progress/progresstest"
)

// TestPlanMachines: every point of the default and the quick plan has a
// unique name usable as a file name, and its machine parses.
func TestPlanMachines(t *testing.T) {
	for _, quick := range []bool{false, true} {
		pts := makePlan(Options{Common: expt.Common{Quick: quick}}).points()
		seen := map[string]bool{}
		for _, pt := range pts {
			if pt.name != expt.RunName(pt.name) || seen[pt.name] {
				t.Errorf("quick %v: point name %q repeated or not a file name", quick, pt.name)
			}
			seen[pt.name] = true
			if _, err := configs.Parse(pt.name+".yaml", []byte(pt.machineYAML())); err != nil {
				t.Errorf("quick %v: %s: %v", quick, pt.name, err)
			}
		}
		if want := map[bool]int{false: 70, true: 22}[quick]; len(pts) != want {
			t.Errorf("quick %v: %d points, want %d", quick, len(pts), want)
		}
	}
}

// TestQuick runs the study at its smallest in one process and as two shards
// merged, which must write the same tables and files (expt.ShardsMatch), and
// checks that every table has its rows, the figures exist and the tables hold
// what the model must give.
func TestQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	dir := t.TempDir()
	var w bytes.Buffer
	err := expt.ShardsMatch(dir, 2, func(out string, f expt.SweepFlags, pw io.Writer) error {
		if f.Shard.All() && !f.Merge {
			pw = io.MultiWriter(pw, &w)
		}
		return Run(Options{Common: expt.Common{Out: out, Quick: true, Sweep: f}}, pw)
	})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "single")
	rows := map[string]int{"pipes.csv": 2, "vertex_reuse.csv": 2, "fill.csv": 2, "clear.csv": 1, "video.csv": 3,
		"filters.csv": 5, "check.csv": 1, "order.csv": 3, "hysteresis.csv": 2, "balance.csv": 6}
	tables := map[string][][]string{}
	for name, n := range rows {
		f, err := os.Open(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(recs) != n+1 {
			t.Errorf("%s: %d rows, want %d and a header", name, len(recs)-1, n)
		}
		tables[name] = recs
	}
	for _, f := range filterNames {
		if _, err := os.Stat(filepath.Join(out, "filters", "room_"+f+".png")); err != nil {
			t.Error(err)
		}
	}
	for _, f := range []string{"room_16.png", "room_256_exact.png"} {
		if _, err := os.Stat(filepath.Join(out, "check", f)); err != nil {
			t.Error(err)
		}
	}
	// Every sample a frame writes is one of the pipes' triangles' samples:
	// the pipes table counts the frame's triangles the same at 1 and 4 pipes.
	if p := tables["pipes.csv"]; len(p) == 3 && (p[1][2] != p[2][2] || p[1][2] == "0") {
		t.Errorf("triangles at 1 and 4 pipes: %s, %s", p[1][2], p[2][2])
	}
	// The table-driven filter is within a few LSBs of the exact one.
	for _, r := range tables["filters.csv"][1:] {
		for _, c := range r[6:10] {
			if len(c) != 1 || c[0] > '3' {
				t.Errorf("filter %s: worst error %s LSBs", r[1], c)
			}
		}
	}
	// Table 7 has each fill point under the three sample buffer maps.
	if b := tables["balance.csv"]; len(b) == 7 && (b[1][0] != "sample" || b[3][0] != "pixel" || b[5][0] != "line" ||
		b[1][2] != b[3][2] || b[1][2] != b[5][2]) {
		t.Errorf("balance rows: %v", b[1:])
	}
	// At 8 spp a scan line's samples are on all 32 chips under the sample map
	// and on 16 under the pixel map (4 interleaves of 4 chips), each reading
	// one sample a clock: the pixel map's route reads at most 16 a clock.
	if v := tables["video.csv"]; len(v) == 4 {
		col := slices.Index(v[0], "route samples/clock")
		sample, _ := strconv.ParseFloat(v[2][col], 64)
		pixel, _ := strconv.ParseFloat(v[3][col], 64)
		if v[3][0] != "128x96@76 pixel map" || pixel > 16 || sample <= 16 {
			t.Errorf("route samples a clock at 8 spp: %q %v, %q %v", v[2][0], sample, v[3][0], pixel)
		}
	}
	// One sample per pixel at 128x96 is well within the chips' rate.
	if v := tables["video.csv"]; len(v) > 1 && v[1][len(v[1])-1] != "yes" {
		t.Errorf("video at 1 spp: keeps up %q", v[1][len(v[1])-1])
	}
	for _, h := range []string{"1. Triangles", "2. Sample buffer", "2b. Fast clear", "3. Video", "4. Filters", "4b. Section 10.2",
		"5. Ordered", "6. Switch hysteresis", "7. Interleave balance", "paper"} {
		if !strings.Contains(w.String(), h) {
			t.Errorf("the tables lack %q", h)
		}
	}
}

func TestQuietRules(t *testing.T) { progresstest.CheckOptions(t, ParseFlags) }

// TestSizeTooLargeForTheSampleBuffer: a -width and -height whose frames the
// sample buffer cannot hold are refused before any point runs, with the
// first such point and the capacity.
func TestSizeTooLargeForTheSampleBuffer(t *testing.T) {
	out := t.TempDir()
	err := Run(Options{Common: expt.Common{Out: out}, Width: 2000, Height: 2000}, io.Discard)
	want := "-width 2000 -height 2000: point pipes-smalltris-1: sage-study-pipes-smalltris-1.yaml: sage.sample_buffer.capacity_samples: " +
		"resolution: 2000x2000 at 8 samples per pixel is 32000000 samples; the sample buffer holds 10485760 per buffer (double-buffered, with z)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if entries, _ := os.ReadDir(filepath.Join(out, "points")); len(entries) > 0 {
		t.Errorf("%d points ran", len(entries))
	}
}
