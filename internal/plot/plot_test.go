package plot

import (
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

func TestSaveLinesAndBars(t *testing.T) {
	dir := t.TempDir()
	lines := &Figure{Title: "misses per request", XLabel: "L1 size (KB)", YLabel: "misses per request", LogX: true,
		Series: []Series{{Name: "bilinear", X: []float64{1, 2, 4, 8}, Y: []float64{4, 2, 1.3, 1.25}},
			{Name: "trilinear", X: []float64{1, 2, 4, 8}, Y: []float64{6, 3, 2, 1.9}}}}
	bars := &Figure{Title: "traffic", XLabel: "configuration", YLabel: "MB", Categories: []string{"A", "B", "C"},
		Series: []Series{{Name: "read", Y: []float64{1, 2, 3}}, {Name: "write", Y: []float64{3, 2, 1}}}}
	for name, f := range map[string]*Figure{"lines.png": lines, "bars.png": bars} {
		path := filepath.Join(dir, name)
		if err := f.Save(path); err != nil {
			t.Fatal(err)
		}
		fh, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(fh)
		fh.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() < 300 || b.Dy() < 200 {
			t.Fatalf("%s: %v", name, b)
		}
	}
	if err := (&Figure{Title: "x"}).Save(filepath.Join(dir, "empty.png")); err == nil {
		t.Fatal("a figure without data was saved")
	}
	bad := &Figure{Series: []Series{{Name: "s", X: []float64{1}, Y: []float64{1, 2}}}}
	if err := bad.Save(filepath.Join(dir, "bad.png")); err == nil {
		t.Fatal("mismatched series accepted")
	}
	if err := lines.Save(filepath.Join(dir, "x.svg")); err == nil {
		t.Fatal("non-PNG accepted")
	}
}

func TestLegendRoom(t *testing.T) {
	tests := []struct {
		entries  int
		logY     bool
		lo, hi   float64
		wantHigh float64
	}{
		{2, false, 0, 0.84, 1},      // 16% of the height for two entries
		{4, false, 1, 1.72, 2},      // 28%
		{20, false, 0, 0.4, 1},      // capped at 60%
		{2, true, 1, 10, 15.505158}, // 10 * 10^(0.16/0.84)
		{3, false, 2, 2, 2},         // an empty range stays
	}
	for _, tt := range tests {
		p := plot.New()
		p.Y.Min, p.Y.Max = tt.lo, tt.hi
		legendRoom(p, tt.entries, tt.logY)
		if math.Abs(p.Y.Max-tt.wantHigh) > 1e-5 || p.Y.Min != tt.lo {
			t.Errorf("%d entries, log %v, [%g, %g]: top %g, want %g", tt.entries, tt.logY, tt.lo, tt.hi, p.Y.Max, tt.wantHigh)
		}
	}
}

// More than maxInsideLegend series: the legend gets a column beside the plot,
// so the image is wider than the plot's 16 cm.
func TestLegendBeside(t *testing.T) {
	dir := t.TempDir()
	width := func(n int) int {
		f := &Figure{Title: "t", XLabel: "x (cycles)", YLabel: "y (%)", YMin: 0, YMax: 100}
		for i := 0; i < n; i++ {
			f.Series = append(f.Series, Series{Name: "unit with a long name", X: []float64{0, 1}, Y: []float64{10, 90}})
		}
		path := filepath.Join(dir, "f.png")
		if err := f.Save(path); err != nil {
			t.Fatal(err)
		}
		fh, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		img, err := png.Decode(fh)
		if err != nil {
			t.Fatal(err)
		}
		return img.Bounds().Dx()
	}
	inside, beside := width(maxInsideLegend), width(maxInsideLegend+1)
	if beside <= inside {
		t.Errorf("%d series: %d pixels wide; %d series: %d; want the legend column to widen the image",
			maxInsideLegend, inside, maxInsideLegend+1, beside)
	}
}

// Stacked bars reach the sum of the series in each category; grouped bars
// the largest value.
func TestStackedBars(t *testing.T) {
	for _, tc := range []struct {
		stacked bool
		top     float64
	}{{false, 3}, {true, 5}} {
		f := &Figure{Categories: []string{"A", "B", "C"}, Stacked: tc.stacked,
			Series: []Series{{Name: "read", Y: []float64{1, 2, 3}}, {Name: "write", Y: []float64{3, 2, 2}}}}
		p := plot.New()
		if err := f.bars(p); err != nil {
			t.Fatal(err)
		}
		if p.Y.Min != 0 || p.Y.Max != tc.top {
			t.Errorf("stacked %v: Y range [%g, %g], want [0, %g]", tc.stacked, p.Y.Min, p.Y.Max, tc.top)
		}
	}
	f := &Figure{Title: "busy", XLabel: "variant", YLabel: "cycles", Categories: []string{"A", "B"}, Stacked: true,
		Series: []Series{{Name: "x", Y: []float64{1, 2}}, {Name: "y", Y: []float64{2, 1}}}}
	if err := f.Save(filepath.Join(t.TempDir(), "stacked.png")); err != nil {
		t.Fatal(err)
	}
}

// TestLog10Ticks: the powers of ten are labelled, 2 and 5 times them too on an
// axis of less than two decades, and every tick when that leaves fewer than
// two labels.
func TestLog10Ticks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		labels string // the labelled ticks; "_" an unlabelled one
	}{
		{1, 1000, "1 _ _ _ _ _ _ _ _ 10 _ _ _ _ _ _ _ _ 100 _ _ _ _ _ _ _ _ 1000"},
		{3, 40, "_ _ 5 _ _ _ _ 10 20 _ _"},
		{2.5, 9, "3 4 5 6 7 8 9"},
		{0.02, 0.3, "0.02 _ _ 0.05 _ _ _ _ 0.1 0.2 _"},
		{0, 10, ""},
	} {
		var got []string
		for _, tk := range (log10Ticks{}).Ticks(tc.lo, tc.hi) {
			if tk.Label == "" {
				tk.Label = "_"
			}
			got = append(got, tk.Label)
		}
		if s := strings.Join(got, " "); s != tc.labels {
			t.Errorf("ticks of [%g, %g]: %q, want %q", tc.lo, tc.hi, s, tc.labels)
		}
	}
}
