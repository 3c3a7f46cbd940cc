package study

import (
	"io"
	"testing"

	"github.com/gfxsim/gfxsim/experiments/expt"
)

// TestShardsMatch runs the -quick study's Fig. 9 (functional frames) and
// Fig. 13 (timed frames) at 32x18, the two kinds of point, in one process and as shards 0/3, 1/3 and 2/3 merged: the
// tables, CSV and figures are the same bytes.
func TestShardsMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	err := expt.ShardsMatch(t.TempDir(), 3, func(out string, f expt.SweepFlags, w io.Writer) error {
		return Run(Options{Common: expt.Common{Out: out, Quick: true, Workers: 2, Sweep: f}, Width: 32, Height: 18, Timed: true,
			Figures: []string{"9", "13"}}, w)
	})
	if err != nil {
		t.Error(err)
	}
}
