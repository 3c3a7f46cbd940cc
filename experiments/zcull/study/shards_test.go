package study

import (
	"io"
	"testing"

	"github.com/gfxsim/gfxsim/experiments/expt"
)

// TestShardsMatch runs the -quick study at 64x36 in one process and as
// shards 0/3, 1/3 and 2/3 merged (the layout deploy/ shows): the tables, CSV
// and figures are the same bytes.
func TestShardsMatch(t *testing.T) {
	expt.CheckShardsMatch(t, 3, func(out string, f expt.SweepFlags, w io.Writer) error {
		return Run(Options{Common: expt.Common{Out: out, Quick: true, Workers: 2, Sweep: f}, Width: 64, Height: 36}, w)
	})
}
