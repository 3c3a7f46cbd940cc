package expt

import (
	"flag"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/tracing"
)

func TestStudyFlagsParse(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-shard", "3/3"}, `invalid value "3/3" for flag -shard: K (this shard) is 3; it must be in 0..2, shards count from 0 (-h lists the flags)`},
		{[]string{"-q", "-v"}, "-q and -v: -q prints no progress, -v asks for it in CI; give one"},
		{[]string{"-merge", "-shard", "0/2"}, "-merge and -shard 0/2: a merge reads the points of every shard; drop -shard"},
		{[]string{"-q"}, ""},
	}
	for _, tc := range tests {
		var sw SweepFlags
		sf := StudyFlags{Sweep: &sw}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		sf.Register(fs)
		err := sf.Parse(fs, tc.args, func(string) string { return "" }, os.Stderr)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%v: %q, want %q", tc.args, got, tc.want)
		}
		if err == nil && (sf.Log != nil || sf.Bar) {
			t.Errorf("%v: -q still logs or shows a bar", tc.args)
		}
	}
}

// TestEveryFlagChecked: a flag that cannot apply is an error naming it
// (issue 17, point 2), through the shared flag code every study uses.
func TestEveryFlagChecked(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-width", "640"}, "-width 640 -height 0: give both (or neither, for the study's own size)"},
		{[]string{"-height", "90"}, "-width 0 -height 90: give both (or neither, for the study's own size)"},
		{[]string{"-workers", "0"}, "-workers 0: want at least 1"},
		{[]string{"-workers", "-2"}, "-workers -2: want at least 1"},
		{[]string{"-instrument-runs", "room"}, `-instrument-runs "room" picks the runs to trace and sample: add -trace (or -trace-components, -trace-window) or -metrics-interval`},
		{[]string{"-instrument-runs", "room", "-monitor"}, `-instrument-runs "room" picks the runs to trace and sample: add -trace (or -trace-components, -trace-window) or -metrics-interval`},
		{[]string{"-instrument-runs", "(", "-trace"}, "-instrument-runs \"(\": error parsing regexp: missing closing ): `(`"},
		{[]string{"-trace", "-list"}, "-trace with -list: -list runs no simulation to trace, sample or monitor; drop -trace"},
		{[]string{"-monitor", "-merge"}, "-monitor with -merge: -merge runs no simulation to trace, sample or monitor; drop -monitor"},
		{[]string{"-metrics-interval", "1000", "-list"}, "-metrics-interval with -list: -list runs no simulation to trace, sample or monitor; drop -metrics-interval"},
		{[]string{"-instrument-runs", "room", "-trace", "-merge"}, "-trace with -merge: -merge runs no simulation to trace, sample or monitor; drop -trace"},
		{[]string{"-width", "64", "-height", "36", "-workers", "1", "-instrument-runs", "room", "-metrics-interval", "1000"}, ""},
		{[]string{"-list"}, ""},
	}
	for _, tc := range tests {
		var c Common
		c.Instruments = &tracing.Flags{}
		var w, h int
		err := c.Parse("t", Help{Workers: "points run at once"}, func(fs *flag.FlagSet) {
			fs.SetOutput(io.Discard)
			SizeFlags(fs, &w, &h, "frame", "320", "180")
		}, append([]string{"-q"}, tc.args...), func(string) string { return "" }, os.Stderr)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%v: %q, want %q", tc.args, got, tc.want)
		}
	}
}

// TestNegativeSize: SizeFlags refuses a negative, malformed or too large
// size when it is parsed, naming the flag.
func TestNegativeSize(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-width", "-5", "-height", "90"}, `invalid value "-5" for flag -width: want a size in pixels, at most 16384 (0: the study's own) (-h lists the flags)`},
		{[]string{"-width", "64", "-height", "x"}, `invalid value "x" for flag -height: want a size in pixels, at most 16384 (0: the study's own) (-h lists the flags)`},
		// It was taken, and every point of the study then failed on its own
		// (point 0 (room): scene "room": resolution 1000000000x... out of range).
		{[]string{"-width", "1000000000", "-height", "1000000000"}, `invalid value "1000000000" for flag -width: want a size in pixels, at most 16384 (0: the study's own) (-h lists the flags)`},
		{[]string{"-width", "64", "-height", "16385"}, `invalid value "16385" for flag -height: want a size in pixels, at most 16384 (0: the study's own) (-h lists the flags)`},
		{[]string{"-width", "64", "-height", "36"}, ""},
	} {
		var w, h int
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		SizeFlags(fs, &w, &h, "frame", "320", "180")
		sf := StudyFlags{}
		sf.Register(fs)
		err := sf.Parse(fs, append([]string{"-q"}, tc.args...), func(string) string { return "" }, os.Stderr)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%v: %q, want %q", tc.args, got, tc.want)
		}
		if err == nil && (w != 64 || h != 36) {
			t.Errorf("%v: %dx%d", tc.args, w, h)
		}
	}
}

// TestParseArgsNoUsageDump: a bad flag is one error line that points to -h;
// the flag package's usage dump is not printed.
func TestParseArgsNoUsageDump(t *testing.T) {
	var out strings.Builder
	fs := flag.NewFlagSet("t", flag.ExitOnError)
	fs.SetOutput(&out)
	fs.Int("n", 0, "a number")
	for _, args := range [][]string{{"-nosuch"}, {"-n"}, {"-n", "x"}} {
		err := ParseArgs(fs, args)
		if len(args) == 2 { // a bad number says what the flag wants instead (TestParseArgsBadNumber)
			if err == nil {
				t.Errorf("%v: no error", args)
			}
			continue
		}
		if err == nil || !strings.HasSuffix(err.Error(), "(-h lists the flags)") {
			t.Errorf("%v: %v", args, err)
		}
	}
	if out.Len() != 0 {
		t.Errorf("printed %q", out.String())
	}
	if err := ParseArgs(fs, []string{"-n", "3"}); err != nil || fs.Lookup("n").Value.String() != "3" {
		t.Errorf("-n 3: %v", err)
	}
}

// TestParseArgsBadNumber: a number flag given what it cannot parse says what
// kind of number it wants and what the flag does; other flags keep the flag
// package's message.
func TestParseArgsBadNumber(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ExitOnError)
	fs.Int("n", 0, "a count")
	fs.Uint64("every", 0, "sample every N cycles (0: off)")
	fs.Float64("scale", 1, "a scale")
	fs.Duration("for", 0, "how long")
	fs.Bool("b", false, "a switch")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-n", "x"}, `-n "x": want a whole number: a count`},
		{[]string{"-every", "-1"}, `-every "-1": want a whole number, 0 or more: sample every N cycles (0: off)`},
		{[]string{"-every", "99999999999999999999"}, `-every "99999999999999999999": out of range for a whole number, 0 or more: sample every N cycles (0: off)`},
		{[]string{"-scale", "1,5"}, `-scale "1,5": want a number: a scale`},
		{[]string{"-for", "3"}, `-for "3": want a duration such as 90s or 2m: how long`},
		{[]string{"-b=maybe"}, `invalid boolean value "maybe" for -b: parse error (-h lists the flags)`},
	} {
		if err := ParseArgs(fs, tc.args); err == nil || err.Error() != tc.want {
			t.Errorf("%v: %v\nwant %s", tc.args, err, tc.want)
		}
	}
}

// TestBudgetShare: runs at once (a study's -workers) each get an equal share
// of -max-memory, and a refusal says so.
func TestBudgetShare(t *testing.T) {
	for _, tc := range []struct {
		share   int
		wantMax int64
		wantErr string
	}{
		{0, 4 << 30, "x needs about 5.0 GiB, more than the memory budget of 4.0 GiB (-max-memory)"},
		{1, 4 << 30, "x needs about 5.0 GiB, more than the memory budget of 4.0 GiB (-max-memory)"},
		{2, 2 << 30, "x needs about 5.0 GiB, more than the memory budget of 2.0 GiB (-max-memory 4.0 GiB shared by 2 workers)"},
		{4, 1 << 30, "x needs about 5.0 GiB, more than the memory budget of 1.0 GiB (-max-memory 4.0 GiB shared by 4 workers)"},
	} {
		in := &Inputs{MaxMemory: 4 << 30}
		in.ShareWith(tc.share)
		b := in.Budget()
		if b.Max() != tc.wantMax {
			t.Errorf("share %d: budget %d, want %d", tc.share, b.Max(), tc.wantMax)
		}
		if err := b.Reserve("x", 5<<30); err == nil || err.Error() != tc.wantErr {
			t.Errorf("share %d: %v, want %s", tc.share, err, tc.wantErr)
		}
	}
}

// TestCount: a count and its noun, singular for 1 only.
func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 labs"}, {1, "1 lab"}, {2, "2 labs"}, {11, "11 labs"}} {
		if got := Count(tc.n, "lab", "labs"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// TestParseArgsTwice: a flag given twice with different values is an error
// naming both (the flag package would keep the last silently), unless its
// usage says it is repeatable; the same value twice is harmless. The flags'
// own values are back after the parse (-h prints their types and defaults).
func TestParseArgsTwice(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-config", "a.yaml", "-config", "b.yaml"}, `-config given twice ("a.yaml", then "b.yaml"): it takes one value`},
		{[]string{"-n", "1", "-n", "2"}, `-n given twice ("1", then "2"): it takes one value`},
		{[]string{"-b", "-b=false"}, `-b given twice ("true", then "false"): it takes one value`},
		{[]string{"-n", "1", "-n", "1", "-b", "-b"}, ""},
		{[]string{"-path", "a", "-path", "b"}, ""},
	} {
		fs := flag.NewFlagSet("t", flag.ExitOnError)
		fs.String("config", "", "a file")
		n := fs.Int("n", 0, "a count")
		fs.Bool("b", false, "a switch")
		fs.Func("path", "a folder (repeatable)", func(string) error { return nil })
		got := ""
		if err := ParseArgs(fs, tc.args); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%q: %q, want %q", tc.args, got, tc.want)
		}
		if tc.want == "" && *n != 0 && *n != 1 {
			t.Errorf("%q: -n is %d", tc.args, *n)
		}
		if kind, _ := flag.UnquoteUsage(fs.Lookup("n")); kind != "int" {
			t.Errorf("%q: after the parse -n's usage kind is %q, want int (its own value back)", tc.args, kind)
		}
	}
}
