// Package plot draws the figures of gfxsim's experiments with gonum/plot, so that
// every experiment's figures look alike: a title, axis labels with units, a legend
// when there is more than one series, one PNG file per figure.
package plot

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/gfxsim/gfxsim/internal/outputs"
)

// Series is one named line or bar group.
type Series struct {
	Name string
	X, Y []float64 // lines: points (X, Y); bars: Y per category (X unused)
}

// Figure is one plot.
type Figure struct {
	Title          string
	XLabel, YLabel string // with units, e.g. "L1 size (KB)"
	LogX, LogY     bool   // logarithmic axes (base 2 for X, base 10 for Y)
	Series         []Series
	// Categories, when set, makes a grouped bar chart: one group of bars per
	// category, one bar per series.
	Categories []string
	// Stacked stacks a bar chart's series into one bar per category, the
	// first series at the bottom.
	Stacked bool
	// YMin, YMax, when YMax > YMin, fix the Y range.
	YMin, YMax float64
	Width      vg.Length // default 16 cm
	Height     vg.Length // default 10 cm
}

var palette = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}, color.RGBA{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff},
	color.RGBA{R: 0xe3, G: 0x77, B: 0xc2, A: 0xff}, color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff},
	color.RGBA{R: 0xbc, G: 0xbd, B: 0x22, A: 0xff}, color.RGBA{R: 0x17, G: 0xbe, B: 0xcf, A: 0xff},
}

// Color returns the i-th colour of the palette every figure uses.
func Color(i int) color.Color { return palette[i%len(palette)] }

// Save draws the figure into path (a .png file).
func (f *Figure) Save(path string) error {
	if strings.ToLower(filepath.Ext(path)) != ".png" {
		return fmt.Errorf("plot: %s: figures are PNG files", path)
	}
	if len(f.Series) == 0 {
		return fmt.Errorf("plot: %s: no data", path)
	}
	p := plot.New()
	p.Title.Text = f.Title
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel
	p.Add(plotter.NewGrid())
	if f.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = log2Ticks{}
	}
	if f.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = log10Ticks{}
	}
	var err error
	if len(f.Categories) > 0 {
		err = f.bars(p)
	} else {
		err = f.lines(p)
	}
	if err != nil {
		return fmt.Errorf("plot: %s: %w", path, err)
	}
	if f.YMax > f.YMin {
		p.Y.Min, p.Y.Max = f.YMin, f.YMax
	}
	w, h := f.Width, f.Height
	if w == 0 {
		w = 16 * vg.Centimeter
	}
	if h == 0 {
		h = 10 * vg.Centimeter
	}
	p.Legend.Top = true
	p.Legend.Left = false
	if len(f.Series) > maxInsideLegend {
		names := make([]string, len(f.Series))
		for i, sr := range f.Series {
			names[i] = sr.Name
		}
		return saveLegendBeside(p, names, w, h, path)
	}
	if len(f.Series) > 1 && f.YMax <= f.YMin {
		legendRoom(p, len(f.Series), f.LogY)
	}
	wt, err := p.WriterTo(w, h, "png")
	if err != nil {
		return err
	}
	return outputs.WriteFrom(path, wt)
}

// maxInsideLegend is the most series whose legend goes inside the plot (top
// right); more get a column of their own to the right of the plot.
const maxInsideLegend = 5

// saveLegendBeside draws p into the left part of a w x h image and its legend in
// a column to the right, so a long legend never hides data.
func saveLegendBeside(p *plot.Plot, names []string, w, h vg.Length, path string) error {
	leg := p.Legend
	p.Legend = plot.NewLegend()
	var lw vg.Length
	for _, e := range names {
		lw = max(lw, leg.TextStyle.Width(e))
	}
	lw += leg.ThumbnailWidth + 3*leg.Padding + vg.Points(8)
	img := vgimg.New(w+lw, h)
	dc := draw.New(img)
	p.Draw(draw.Crop(dc, 0, -lw, 0, 0))
	top := p.Title.TextStyle.FontExtents().Height + p.Title.Padding
	leg.Draw(draw.Crop(dc, w, 0, 0, -top))
	fh, err := outputs.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(fh); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

// legendRoom raises the top of the Y axis so that the legend (top right, about
// 6% of the plot's height per entry) sits above the data instead of over it.
func legendRoom(p *plot.Plot, entries int, logY bool) {
	frac := math.Min(0.04+0.06*float64(entries), 0.6)
	lo, hi := p.Y.Min, p.Y.Max
	switch {
	case hi <= lo:
	case logY && lo > 0:
		p.Y.Max = hi * math.Pow(hi/lo, frac/(1-frac))
	case !logY:
		p.Y.Max = lo + (hi-lo)/(1-frac)
	}
}

func (f *Figure) lines(p *plot.Plot) error {
	for i, s := range f.Series {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("series %q: %d x values, %d y values", s.Name, len(s.X), len(s.Y))
		}
		pts := make(plotter.XYs, 0, len(s.X))
		for j := range s.X {
			if math.IsNaN(s.Y[j]) || math.IsInf(s.Y[j], 0) || (f.LogY && s.Y[j] <= 0) || (f.LogX && s.X[j] <= 0) {
				continue
			}
			pts = append(pts, plotter.XY{X: s.X[j], Y: s.Y[j]})
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		l.Color, sc.Color = Color(i), Color(i)
		l.Width = vg.Points(1.5)
		sc.Shape = draw.CircleGlyph{}
		if i >= len(palette) { // the colours repeat: dash the line, change the marker
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(2.5)}
			sc.Shape = draw.TriangleGlyph{}
		}
		sc.Radius = vg.Points(2.5)
		p.Add(l, sc)
		if len(f.Series) > 1 {
			p.Legend.Add(s.Name, l, sc)
		}
	}
	return nil
}

func (f *Figure) bars(p *plot.Plot) error {
	n := len(f.Series)
	side := n // bars side by side in a category
	if f.Stacked {
		side = 1
	}
	width := vg.Points(float64(min(24, 240/max(1, side*len(f.Categories)))))
	var below *plotter.BarChart
	for i, s := range f.Series {
		if len(s.Y) != len(f.Categories) {
			return fmt.Errorf("series %q: %d values for %d categories", s.Name, len(s.Y), len(f.Categories))
		}
		b, err := plotter.NewBarChart(plotter.Values(s.Y), width)
		if err != nil {
			return err
		}
		b.Color = Color(i)
		b.LineStyle.Width = 0
		if f.Stacked {
			if below != nil {
				b.StackOn(below)
			}
			below = b
		} else {
			b.Offset = vg.Length(float64(i)-float64(n-1)/2) * width
		}
		p.Add(b)
		if n > 1 {
			p.Legend.Add(s.Name, b)
		}
	}
	p.NominalX(f.Categories...)
	return nil
}

// log2Ticks marks powers of two.
type log2Ticks struct{}

func (log2Ticks) Ticks(lo, hi float64) []plot.Tick {
	var t []plot.Tick
	for e := math.Floor(math.Log2(lo)); e <= math.Ceil(math.Log2(hi)); e++ {
		v := math.Exp2(e)
		if v < lo*0.999 || v > hi*1.001 {
			continue
		}
		t = append(t, plot.Tick{Value: v, Label: fmt.Sprintf("%g", v)})
	}
	return t
}

// log10Ticks marks 1..9 times the powers of ten, labelling the powers of ten,
// and 2 and 5 times them too when the axis spans less than two decades (the
// powers alone may leave one label or none); when that still labels fewer
// than two ticks, every tick is labelled.
type log10Ticks struct{}

func (log10Ticks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi >= lo) {
		return nil
	}
	var t []plot.Tick
	few := math.Log10(hi/lo) < 2
	labelled := 0
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for m := 1.0; m <= 9; m++ {
			v := m * math.Pow(10, e)
			if v < lo*0.999 || v > hi*1.001 {
				continue
			}
			tk := plot.Tick{Value: v}
			if m == 1 || few && (m == 2 || m == 5) {
				tk.Label = fmt.Sprintf("%g", v)
				labelled++
			}
			t = append(t, tk)
		}
	}
	if labelled < 2 {
		for i := range t {
			t[i].Label = fmt.Sprintf("%g", t[i].Value)
		}
	}
	return t
}
