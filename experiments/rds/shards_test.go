package main

import (
	"io"
	"testing"

	"github.com/gfxsim/gfxsim/experiments/expt"
)

// TestShardsMatch runs the study at its smallest (one shader, 2000 search
// steps, no timed frame, no wall times: they differ between runs) in one process and as shards 0/3, 1/3 and 2/3
// merged: the tables, CSV and figures are the same bytes.
func TestShardsMatch(t *testing.T) {
	expt.CheckShardsMatch(t, 3, func(out string, f expt.SweepFlags, w io.Writer) error {
		return run(options{out: out, steps: 2000, shaders: "bumppin", sweep: f, untimed: true}, w)
	})
}
