package study

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/outputs"
	"github.com/gfxsim/gfxsim/internal/plot"
)

var csvHeader = []string{"system", "pattern", "write", "load_per_channel", "channels", "requests", "peak_gbs",
	"achieved_gbs", "efficiency", "latency_avg_ns", "latency_p99_ns", "row_hit_rate"}

func f6(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

func writeCSV(path string, rows []Row) error {
	out := make([][]string, 0, len(rows))
	for _, r := range rows {
		hits := ""
		if r.HasRows {
			hits = f6(r.RowHitRate)
		}
		out = append(out, []string{r.System, r.Pattern, strconv.FormatBool(r.Write), strconv.Itoa(r.Load),
			strconv.Itoa(r.Channels), strconv.Itoa(r.Requests), f6(r.PeakGBs), f6(r.GBs), f6(r.Efficiency()),
			f6(r.LatencyNs), f6(r.P99Ns), hits})
	}
	return outputs.WriteCSV(path, csvHeader, out)
}

// systemNames returns the systems of rows in order of first appearance.
func systemNames(rows []Row) []string {
	var names []string
	seen := map[string]bool{}
	for _, r := range rows {
		if !seen[r.System] {
			seen[r.System] = true
			names = append(names, r.System)
		}
	}
	return names
}

// pick returns the rows of system and traffic kind, in load order.
func pick(rows []Row, system, kind string) []Row {
	var out []Row
	for _, r := range rows {
		if r.System == system && r.Kind() == kind {
			out = append(out, r)
		}
	}
	return out
}

func kinds() []string {
	var out []string
	for _, t := range Traffics {
		out = append(out, kindName(t.Pattern.String(), t.Write))
	}
	return out
}

func series(name string, rows []Row, x, y func(Row) float64) plot.Series {
	s := plot.Series{Name: name}
	for _, r := range rows {
		s.X, s.Y = append(s.X, x(r)), append(s.Y, y(r))
	}
	return s
}

func load(r Row) float64 { return float64(r.Load) }

func figures(dir string, rows []Row) error {
	for _, kind := range kinds() {
		var bw, lat, hits []plot.Series
		for _, sys := range systemNames(rows) {
			rs := pick(rows, sys, kind)
			if len(rs) == 0 {
				continue
			}
			bw = append(bw, series(sys, rs, load, func(r Row) float64 { return 100 * r.Efficiency() }))
			lat = append(lat, series(sys, rs, func(r Row) float64 { return r.GBs }, func(r Row) float64 { return r.LatencyNs }))
			if rs[0].HasRows {
				hits = append(hits, series(sys, rs, load, func(r Row) float64 { return 100 * r.RowHitRate }))
			}
		}
		file := strings.ReplaceAll(kind, " ", "_")
		figs := []struct {
			name string
			f    plot.Figure
		}{
			{"bandwidth_" + file + ".png", plot.Figure{Title: "Achieved bandwidth, " + kind + "s of 64 B",
				XLabel: "requests in flight per channel", YLabel: "% of the theoretical peak", LogX: true, Series: bw}},
			{"latency_" + file + ".png", plot.Figure{Title: "Loaded latency, " + kind + "s of 64 B (one point per load)",
				XLabel: "achieved bandwidth (GB/s)", YLabel: "average latency (ns)", Series: lat}},
			{"row_hits_" + file + ".png", plot.Figure{Title: "Row-buffer hit rate (dramctl), " + kind + "s of 64 B",
				XLabel: "requests in flight per channel", YLabel: "row hits (% of bursts)", LogX: true, Series: hits}},
		}
		for _, f := range figs {
			if len(f.f.Series) == 0 {
				continue
			}
			if err := f.f.Save(filepath.Join(dir, f.name)); err != nil {
				return err
			}
		}
	}
	return nil
}

func gbs(v float64) string { return fmt.Sprintf("%.1f", v) }
func pc(v float64) string  { return fmt.Sprintf("%.1f%%", 100*v) }
func ns(v float64) string  { return fmt.Sprintf("%.0f", v) }

// best returns the row of highest bandwidth among rs.
func best(rs []Row) Row {
	var b Row
	for _, r := range rs {
		if r.GBs > b.GBs {
			b = r
		}
	}
	return b
}

// bwCell is "achieved (percent of peak)" at the best load of rs.
func bwCell(rs []Row) string {
	if len(rs) == 0 {
		return "-"
	}
	b := best(rs)
	return fmt.Sprintf("%s (%s)", gbs(b.GBs), pc(b.Efficiency()))
}

// report prints the systems, the headline table and the table of every row.
func report(w io.Writer, rows []Row, systems []System) {
	fmt.Fprintln(w, "memory study: 64-byte requests from one traffic generator, load = requests in flight per channel;")
	fmt.Fprintln(w, "bandwidth from the first request to the last response, latency at the generator (issue to response)")
	fmt.Fprintln(w)
	var table [][]string
	for _, s := range systems {
		m := s.Memory.WithDefaults()
		table = append(table, []string{s.Name, s.Source, strconv.Itoa(m.NumChannels), gbs(m.PeakBytesPerNs())})
	}
	expt.Table(w, []string{"system", "configuration", "channels", "peak GB/s"}, table)

	fmt.Fprintln(w, "\nheadline: best achieved bandwidth over the loads, GB/s (% of peak); read latency (ns) at load 1 and at the highest load")
	loads := Loads(false)
	table = nil
	for _, sys := range systemNames(rows) {
		seq := pick(rows, sys, "sequential read")
		if len(seq) == 0 {
			continue
		}
		loads = nil
		for _, r := range seq {
			loads = append(loads, r.Load)
		}
		lo, hi := seq[0], seq[len(seq)-1]
		hitCell := "-"
		if hi.HasRows {
			rnd := pick(rows, sys, "random read")
			hitCell = pc(hi.RowHitRate)
			if len(rnd) > 0 {
				hitCell += " / " + pc(rnd[len(rnd)-1].RowHitRate)
			}
		}
		table = append(table, []string{sys, gbs(hi.PeakGBs), bwCell(seq), bwCell(pick(rows, sys, "strided read")),
			bwCell(pick(rows, sys, "random read")), bwCell(pick(rows, sys, "sequential write")),
			bwCell(pick(rows, sys, "random write")), ns(lo.LatencyNs), fmt.Sprintf("%s (p99 %s)", ns(hi.LatencyNs), ns(hi.P99Ns)),
			hitCell})
	}
	lastLoad := "?"
	if len(loads) > 0 {
		lastLoad = strconv.Itoa(loads[len(loads)-1])
	}
	expt.Table(w, []string{"system", "peak", "seq read", "strided read", "random read", "seq write", "random write",
		"seq read ns @1", "seq read ns @" + lastLoad, "row hits seq/rand @" + lastLoad}, table)

	fmt.Fprintln(w, "\nevery point:")
	table = nil
	for _, r := range rows {
		hits := "-"
		if r.HasRows {
			hits = pc(r.RowHitRate)
		}
		table = append(table, []string{r.System, r.Kind(), strconv.Itoa(r.Load), gbs(r.GBs), pc(r.Efficiency()),
			ns(r.LatencyNs), ns(r.P99Ns), hits})
	}
	expt.Table(w, []string{"system", "traffic", "load", "GB/s", "of peak", "avg ns", "p99 ns", "row hits"}, table)
}
