package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/scene"
)

// TestSummaryAgreesWithStats renders small frames on the sort-last machine
// and on SAGE as a user does (-o DIR) and checks the printed summary's links
// and memory tables against the stats.json the run wrote, to the printed
// rounding: each link's megabytes and messages, and its busiest link's busy
// share of the link's own cycles over the frame (a link runs on its own
// clock: SAGE's sample buses at the sched's 100 MHz, the host bus at
// clocks.host_bus_mhz); each channel's megabytes and bandwidth, and the total
// row's sums and bandwidth over the frame.
func TestSummaryAgreesWithStats(t *testing.T) {
	for _, tc := range []struct{ name, yaml string }{
		{"sortlast", ""},
		{"sage", "machine: sage\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"-scene", "room", "-width", "160", "-height", "90"}
			cfg := configs.Default()
			if tc.yaml != "" {
				file := filepath.Join(dir, "machine.yaml")
				if err := os.WriteFile(file, []byte(tc.yaml), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, "-config", file)
				var err error
				if cfg, err = configs.Parse(file, []byte(tc.yaml)); err != nil {
					t.Fatal(err)
				}
			}
			out := runIn(t, filepath.Join(dir, "out"), args...)
			data, err := os.ReadFile(filepath.Join(dir, "out", "stats.json"))
			if err != nil {
				t.Fatal(err)
			}
			var st map[string]float64
			if err := json.Unmarshal(data, &st); err != nil {
				t.Fatal(err)
			}
			// The links' clocks, from the same frame run again (SAGE builds
			// its video path's links at Run).
			sc, err := scene.Builtin("room", scene.WithResolution(160, 90), scene.WithSamples(4))
			if err != nil {
				t.Fatal(err)
			}
			p, _, err := configs.RunScene(cfg, sc)
			if err != nil {
				t.Fatal(err)
			}
			freq := map[string]float64{}
			for _, l := range p.Links {
				if f, ok := linkFreq(l); ok {
					freq[l.(sim.Named).Name()] = float64(f)
				}
			}
			checkSummary(t, out, st, freq)
		})
	}
}

// table returns the rows (cells split on runs of spaces) of the summary's
// table that follows the line title, up to the first line that is not a row.
func table(t *testing.T, out, title string) [][]string {
	t.Helper()
	i := strings.Index(out, "\n"+title+"\n")
	if i < 0 {
		t.Fatalf("no %q table in\n%s", title, out)
	}
	lines := strings.Split(out[i+len(title)+2:], "\n")
	var rows [][]string
	for _, l := range lines[2:] { // the header and its rule
		if l == "" || strings.HasPrefix(l, "(") {
			break
		}
		rows = append(rows, strings.Fields(l))
	}
	return rows
}

func checkSummary(t *testing.T, out string, st map[string]float64, freq map[string]float64) {
	seconds := st["GPU.frame_seconds"]
	mb := func(b float64) string { return fmt.Sprintf("%.2f", b/1e6) }
	cell := func(what, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s: printed %s, stats.json gives %s", what, got, want)
		}
	}

	// Links: every link that moved bytes, its busiest destination link's
	// busy cycles over the link's cycles in the frame.
	rows := table(t, out, "links:")
	printed := map[string]bool{}
	for _, r := range rows {
		n := r[0]
		printed[n] = true
		cell(n+" MB", r[1], mb(st[n+".bytes"]))
		cell(n+" messages", r[2], fmt.Sprint(st[n+".messages"]))
		busiest, dests := 0.0, 0
		for k, v := range st {
			if strings.HasPrefix(k, n+".To") && strings.HasSuffix(k, ".busy_cycles") {
				busiest = max(busiest, v)
				dests++
			}
		}
		if dests == 0 {
			busiest = st[n+".busy_cycles"]
		}
		if freq[n] == 0 {
			t.Errorf("%s: no clock", n)
			continue
		}
		cell(n+" busiest link busy", r[3], fmt.Sprintf("%.1f%%", 100*busiest/(seconds*freq[n])))
	}
	for n := range freq {
		if st[n+".bytes"] > 0 && !printed[n] {
			t.Errorf("link %s moved %v bytes and has no row", n, st[n+".bytes"])
		}
	}

	// Memory: each channel, and the total over the frame.
	rows = table(t, out, "memory:")
	var tr, tw float64
	channels := 0
	for _, r := range rows {
		n := r[0]
		if n == "total" {
			cell("total MB read", r[1], mb(tr))
			cell("total MB written", r[2], mb(tw))
			cell("total GB/s", r[3], fmt.Sprintf("%.1f", (tr+tw)/seconds/1e9))
			continue
		}
		channels++
		rd, wr := st[n+".bytes_read"], st[n+".bytes_written"]
		tr += rd
		tw += wr
		cell(n+" MB read", r[1], mb(rd))
		cell(n+" MB written", r[2], mb(wr))
		cell(n+" GB/s", r[3], fmt.Sprintf("%.1f", st[n+".achieved_bandwidth"]))
	}
	if want := len(units(st, "GPU.Memory.Channel[", ".bytes_read")); channels != want || channels == 0 {
		t.Errorf("%d channel rows, stats.json has %d channels", channels, want)
	}
}

// units returns the units named prefix... that report counter suffix.
func units(st map[string]float64, prefix, suffix string) []string {
	var out []string
	for k := range st {
		if strings.HasPrefix(k, prefix) && strings.HasSuffix(k, suffix) {
			out = append(out, strings.TrimSuffix(k, suffix))
		}
	}
	return out
}
