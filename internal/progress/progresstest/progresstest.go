// Package progresstest checks that a binary applies the quiet rules of
// progress.Flags when it parses its command line: the tests of render and of
// every study call Check with their flag parsing (CheckOptions when the
// options embed progress.Printed).
package progresstest

import (
	"os"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/internal/progress"
)

// Printed is what a parsed command line prints on stderr.
type Printed = progress.Printed

// Check parses each case with stderr a file (not a terminal, so never a
// bar) and checks the rules: progress lines and the simulations' progress
// unless -q, in CI only with -v; the summary unless -q; -q with -v an error.
// extra are flags the binary needs besides (e.g. a scene).
func Check(t *testing.T, parse func(args []string, getenv func(string) string, stderr *os.File) (Printed, error), extra ...string) {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, tc := range []struct {
		args         []string
		ci           string
		log, summary bool
	}{
		{nil, "", true, true},
		{[]string{"-q"}, "", false, false},
		{nil, "1", false, true},
		{[]string{"-v"}, "true", true, true},
		{[]string{"-q"}, "1", false, false},
	} {
		getenv := func(k string) string {
			if k == "CI" {
				return tc.ci
			}
			return ""
		}
		name := strings.Join(tc.args, " ") + " CI=" + tc.ci
		p, err := parse(append(tc.args, extra...), getenv, f)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if (p.Log != nil) != tc.log || (!p.Stdout && (p.Summary != nil) != tc.summary) || p.Bar || (p.Every >= 0 && (p.Every > 0) != tc.log) {
			t.Errorf("%s: progress lines %v, summary %v, bar %v, simulation progress every %v; want lines %v, summary %v, no bar",
				name, p.Log != nil, p.Summary != nil, p.Bar, p.Every, tc.log, tc.summary)
		}
	}
	if _, err := parse(append([]string{"-q", "-v"}, extra...), func(string) string { return "" }, f); err == nil {
		t.Error("-q -v: no error")
	}
}

// CheckOptions is Check for a parse whose options embed a progress.Printed.
func CheckOptions[O interface{ Decided() progress.Printed }](t *testing.T, parse func(args []string, getenv func(string) string, stderr *os.File) (O, error), extra ...string) {
	t.Helper()
	Check(t, func(args []string, getenv func(string) string, stderr *os.File) (Printed, error) {
		o, err := parse(args, getenv, stderr)
		return o.Decided(), err
	}, extra...)
}
