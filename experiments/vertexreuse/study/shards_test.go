package study

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/experiments/expt"
)

// TestShardsMatch runs the -quick study at 32x18 in one process and as
// shards 0/3, 1/3 and 2/3 merged: the tables, CSV and figures are the same
// bytes.
func TestShardsMatch(t *testing.T) {
	expt.CheckShardsMatch(t, 3, func(out string, f expt.SweepFlags, w io.Writer) error {
		return Run(Options{Common: expt.Common{Out: out, Quick: true, Workers: 2, Sweep: f}, Width: 32, Height: 18}, w)
	})
}

// TestHugeFrameRefused: a 16384x16384 frame within a 2 GiB budget is refused
// before anything is drawn, as render refuses it (issue 17, point 3).
func TestHugeFrameRefused(t *testing.T) {
	err := Run(Options{Common: expt.Common{Out: t.TempDir(), Quick: true, Workers: 1, Inputs: &expt.Inputs{MaxMemory: 2 << 30}},
		Width: 16384, Height: 16384}, io.Discard)
	want := "point 0 (room): builtin:room: the frame of scene room (16384x16384, 4 samples, 6 textures) on a timed machine " +
		"(the image and its copy in the machine's memory) needs about 20.0 GiB"
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "more than the memory budget of 2.0 GiB (-max-memory)") {
		t.Fatalf("Run at 16384x16384 with 2 GiB: %v, want an error starting %q", err, want)
	}
}

// TestMissingScenesRefused: a -scenes folder that is not there is refused by
// a run and by -list (which names the real meshes' points a shard will read
// from it), and not by -merge, which reads only the point files.
func TestMissingScenesRefused(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere")
	want := "-scenes " + missing + ": the shared scenes folder with the real meshes: "
	for _, tc := range []struct {
		name  string
		sweep expt.SweepFlags
	}{{"run", expt.SweepFlags{}}, {"list", expt.SweepFlags{List: true}}} {
		err := Run(Options{Common: expt.Common{Out: t.TempDir(), Workers: 1, Sweep: tc.sweep}, ScenesDir: missing}, io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want an error starting %q", tc.name, err, want)
		}
	}
	err := Run(Options{Common: expt.Common{Out: t.TempDir(), Workers: 1, Sweep: expt.SweepFlags{Merge: true}}, ScenesDir: missing}, io.Discard)
	if err != nil && strings.Contains(err.Error(), "-scenes") {
		t.Errorf("merge: %v: it does not read the scenes folder", err)
	}
}
