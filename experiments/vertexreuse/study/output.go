package study

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot/vg"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/outputs"
	"github.com/gfxsim/gfxsim/internal/plot"
)

// total sums the reuse and timed counters of every scene, per order.
func total(rs []Result) []Order {
	t := make([]Order, len(OrderNames))
	for i := range t {
		t[i].Reuse = Reuse{FIFO: make([]int, len(Sizes)), LRU: make([]int, len(Sizes))}
	}
	for _, r := range rs {
		for i, o := range r.Orders {
			u := &t[i].Reuse
			u.Draws += o.Reuse.Draws
			u.Triangles += o.Reuse.Triangles
			u.Batch += o.Reuse.Batch
			u.Batches += o.Reuse.Batches
			for k := range Sizes {
				u.FIFO[k] += o.Reuse.FIFO[k]
				u.LRU[k] += o.Reuse.LRU[k]
			}
			tt := &t[i].Timed
			tt.Cycles += o.Timed.Cycles
			tt.IAVertices += o.Timed.IAVertices
			tt.IABatches += o.Timed.IABatches
			tt.VSInvocations += o.Timed.VSInvocations
			tt.VSInstructions += o.Timed.VSInstructions
			tt.PSInstructions += o.Timed.PSInstructions
			tt.ShaderBusy += o.Timed.ShaderBusy
			t[i].PixelsDiffer += o.PixelsDiffer
		}
	}
	return t
}

// Columns of vertexreuse.csv.
func csvHeader() []string {
	h := []string{"scene", "order", "draws", "triangles", "reordered_triangles", "acmr_batch", "batches"}
	for _, n := range Sizes {
		h = append(h, fmt.Sprintf("acmr_fifo%d", n))
	}
	for _, n := range Sizes {
		h = append(h, fmt.Sprintf("acmr_lru%d", n))
	}
	return append(h, "cycles", "ia_vertices", "ia_batches", "vs_invocations", "vs_instructions", "ps_instructions",
		"vs_share", "shader_busy_cycles", "pixels_differ")
}

func g6(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
func f3(v float64) string { return fmt.Sprintf("%.3f", v) }

// csvRow is one scene's order as CSV cells.
func csvRow(scene, order string, reordered int, o Order) []string {
	u, t := o.Reuse, o.Timed
	row := []string{scene, order, strconv.Itoa(u.Draws), strconv.Itoa(u.Triangles), strconv.Itoa(reordered),
		g6(u.ACMR(u.Batch)), strconv.Itoa(u.Batches)}
	for k := range Sizes {
		row = append(row, g6(u.ACMR(u.FIFO[k])))
	}
	for k := range Sizes {
		row = append(row, g6(u.ACMR(u.LRU[k])))
	}
	return append(row, g6(t.Cycles), g6(t.IAVertices), g6(t.IABatches), g6(t.VSInvocations), g6(t.VSInstructions),
		g6(t.PSInstructions), g6(t.VSShare()), g6(t.ShaderBusy), strconv.Itoa(o.PixelsDiffer))
}

// writeOutputs writes vertexreuse.csv and the figures to dir and prints the
// tables to w.
func writeOutputs(dir string, w io.Writer, rs []Result) error {
	var rows [][]string
	reordered := 0
	for _, r := range rs {
		reordered += r.Reordered
		for i, o := range r.Orders {
			rows = append(rows, csvRow(r.Scene, OrderNames[i], r.Reordered, o))
		}
	}
	t := total(rs)
	for i, o := range t {
		rows = append(rows, csvRow("all", OrderNames[i], reordered, o))
	}
	if err := outputs.WriteCSV(filepath.Join(dir, "vertexreuse.csv"), csvHeader(), rows); err != nil {
		return err
	}
	acmrTable(w, rs, t)
	fmt.Fprintln(w)
	timedTable(w, rs, t)
	return figures(dir, rs, t)
}

// acmrTable prints the ACMR of every scene and order.
func acmrTable(w io.Writer, rs []Result, t []Order) {
	fmt.Fprintln(w, "ACMR (vertex shader invocations per triangle; each draw starts from an empty batch or cache)")
	hdr := []string{"scene", "triangles", "reordered", "order", "batch"}
	for _, n := range Sizes {
		hdr = append(hdr, fmt.Sprintf("FIFO %d", n))
	}
	for _, n := range Sizes {
		hdr = append(hdr, fmt.Sprintf("LRU %d", n))
	}
	var table [][]string
	line := func(scene string, reordered int, i int, o Order) {
		u := o.Reuse
		name, tris, re := "", "", ""
		if i == 0 {
			name, tris, re = scene, strconv.Itoa(u.Triangles), strconv.Itoa(reordered)
		}
		row := []string{name, tris, re, OrderNames[i], f3(u.ACMR(u.Batch))}
		for k := range Sizes {
			row = append(row, f3(u.ACMR(u.FIFO[k])))
		}
		for k := range Sizes {
			row = append(row, f3(u.ACMR(u.LRU[k])))
		}
		table = append(table, row)
	}
	reordered := 0
	for _, r := range rs {
		reordered += r.Reordered
		for i, o := range r.Orders[:2] { // renumbering the vertices changes no ACMR
			line(r.Scene, r.Reordered, i, o)
		}
	}
	for i, o := range t[:2] {
		line("all", reordered, i, o)
	}
	expt.Table(w, hdr, table)
}

// timedTable prints the timed frames of every order.
func timedTable(w io.Writer, rs []Result, t []Order) {
	fmt.Fprintln(w, "timed frames (default machine): cycles; vertex shader invocations (the IA's vertices); VS share of the warp")
	fmt.Fprintln(w, "instructions; pixels whose colour differs from the original order's frame")
	hdr := []string{"scene", "cycles", "tipsify", "+fetch", "VS inv", "tipsify", "VS share", "tipsify", "pixels differ"}
	var table [][]string
	pct := func(a, b float64) string {
		if a == 0 {
			return "-"
		}
		return fmt.Sprintf("%+.1f%%", 100*(b-a)/a)
	}
	line := func(scene string, os []Order) {
		a, b, c := os[0].Timed, os[1].Timed, os[2].Timed
		table = append(table, []string{scene, fmt.Sprintf("%.0f", a.Cycles), pct(a.Cycles, b.Cycles), pct(a.Cycles, c.Cycles),
			fmt.Sprintf("%.0f", a.IAVertices), pct(a.IAVertices, b.IAVertices),
			fmt.Sprintf("%.1f%%", 100*a.VSShare()), fmt.Sprintf("%.1f%%", 100*b.VSShare()),
			strconv.Itoa(max(os[1].PixelsDiffer, os[2].PixelsDiffer))})
	}
	for _, r := range rs {
		line(r.Scene, r.Orders)
	}
	line("all", t)
	expt.Table(w, hdr, table)
}

// figures draws acmr.png (per scene), acmr_cache_size.png (all scenes over
// the cache size) and timed.png (the timed frames' changes).
func figures(dir string, rs []Result, t []Order) error {
	var cats []string
	ser := []plot.Series{{Name: "batches of 32, original"}, {Name: "batches of 32, Tipsify"},
		{Name: "FIFO 16, original"}, {Name: "FIFO 16, Tipsify"}}
	timed := []plot.Series{{Name: "cycles, Tipsify"}, {Name: "cycles, Tipsify + fetch order"}, {Name: "vertex shader invocations"}}
	k16 := 1 // Sizes[1] == 16
	for _, r := range rs {
		cats = append(cats, r.Scene)
		for i, o := range r.Orders[:2] {
			u := o.Reuse
			ser[i].Y = append(ser[i].Y, u.ACMR(u.Batch))
			ser[2+i].Y = append(ser[2+i].Y, u.ACMR(u.FIFO[k16]))
		}
		a := r.Orders[0].Timed
		timed[0].Y = append(timed[0].Y, 100*ratio(r.Orders[1].Timed.Cycles, a.Cycles))
		timed[1].Y = append(timed[1].Y, 100*ratio(r.Orders[2].Timed.Cycles, a.Cycles))
		timed[2].Y = append(timed[2].Y, 100*ratio(r.Orders[1].Timed.IAVertices, a.IAVertices))
	}
	figs := map[string]plot.Figure{
		"acmr.png": {Title: "Vertex shader invocations per triangle, before and after Tipsify",
			YLabel: "ACMR", Categories: cats, Series: ser, Width: 24 * vg.Centimeter},
		"timed.png": {Title: "Timed frame with Tipsify's order, relative to the original",
			YLabel: "reordered / original (%)", Categories: cats, Series: timed, Width: 24 * vg.Centimeter},
	}
	var lines []plot.Series
	for i, o := range t[:2] {
		u := o.Reuse
		f, l, b := plot.Series{Name: "FIFO, " + OrderNames[i]}, plot.Series{Name: "LRU, " + OrderNames[i]},
			plot.Series{Name: "batches of 32, " + OrderNames[i]}
		for k, n := range Sizes {
			f.X, f.Y = append(f.X, float64(n)), append(f.Y, u.ACMR(u.FIFO[k]))
			l.X, l.Y = append(l.X, float64(n)), append(l.Y, u.ACMR(u.LRU[k]))
			b.X, b.Y = append(b.X, float64(n)), append(b.Y, u.ACMR(u.Batch))
		}
		lines = append(lines, f, l, b)
	}
	figs["acmr_cache_size.png"] = plot.Figure{Title: "ACMR of all scenes' draws over the cache size",
		XLabel: "cache entries (vertices)", YLabel: "ACMR", LogX: true, Series: lines}
	for _, name := range []string{"acmr.png", "acmr_cache_size.png", "timed.png"} {
		f := figs[name]
		if err := f.Save(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}
