package study

import (
	"io"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/experiments/expt"
	"github.com/gfxsim/gfxsim/internal/inputs"
)

// TestShardsMatch runs the -quick study's Fig. 9 (functional frames) and
// Fig. 13 (timed frames) at 32x18, the two kinds of point, in one process and as shards 0/3, 1/3 and 2/3 merged: the
// tables, CSV and figures are the same bytes.
func TestShardsMatch(t *testing.T) {
	expt.CheckShardsMatch(t, 3, func(out string, f expt.SweepFlags, w io.Writer) error {
		return Run(Options{Common: expt.Common{Out: out, Quick: true, Workers: 2, Sweep: f}, Width: 32, Height: 18, Timed: true,
			Figures: []string{"9", "13"}}, w)
	})
}

// TestHugeFrameRefused: a 16384x16384 frame within a 2 GiB budget is
// refused before it is drawn, functional or timed (issue 17, point 3).
func TestHugeFrameRefused(t *testing.T) {
	b := inputs.NewBudget(2 << 30)
	_, err := Render(Frame{Scene: "defocus", Width: 16384, Height: 16384, Samples: 8, Blur: 1, Decoupling: On}, Models{}, 1, b)
	if err == nil || !strings.Contains(err.Error(), "needs about") || !strings.Contains(err.Error(), "more than the memory budget of 2.0 GiB") {
		t.Errorf("Render at 16384x16384 with 2 GiB: %v, want a refusal", err)
	}
	v := TimedVariant{Name: "SL 8", Samples: 8, Blur: Moderate, Dec: On, Machine: SortLast}
	tp, err := Timed("defocus", 16384, 16384, v, inputs.NewBudget(2<<30))
	if err == nil || !strings.Contains(err.Error(), "more than the memory budget of 2.0 GiB") || tp.Err != "" {
		t.Errorf("Timed at 16384x16384 with 2 GiB: %v (point error %q), want a refusal", err, tp.Err)
	}
}
