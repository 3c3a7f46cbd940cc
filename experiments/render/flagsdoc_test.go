package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	decoupled "github.com/gfxsim/gfxsim/experiments/decoupled/study"
	memory "github.com/gfxsim/gfxsim/experiments/memory/study"
	sage "github.com/gfxsim/gfxsim/experiments/sage/study"
	texcache "github.com/gfxsim/gfxsim/experiments/texcache/study"
	vertexreuse "github.com/gfxsim/gfxsim/experiments/vertexreuse/study"
	zcull "github.com/gfxsim/gfxsim/experiments/zcull/study"
)

// TestInputFlagsREADME: the README's lists of the binaries that take
// -allow-path and -max-memory are the binaries whose flags accept them
// (render and every study but rds, a main package this test cannot import;
// rds runs the built-in bowlingpin scene).
func TestInputFlagsREADME(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ")
	listed := func(re string) map[string]bool {
		m := regexp.MustCompile(re).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("README.md: no sentence matching %q", re)
		}
		names := map[string]bool{}
		for _, n := range strings.Split(m[1], ", ") {
			names[n] = true
		}
		return names
	}
	allow := listed("`-allow-path` is on the binaries that load scene files: ([a-z, ]+)\\.")
	budget := listed("`-max-memory` is on ([a-z, ]+) \\(")
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	getenv := func(string) string { return "" }
	parse := map[string]func(args []string) error{
		"render":      func(a []string) error { _, err := parseFlags(a, getenv, null); return err },
		"vertexreuse": func(a []string) error { _, err := vertexreuse.ParseFlags(a, getenv, null); return err },
		"texcache":    func(a []string) error { _, err := texcache.ParseFlags(a, getenv, null); return err },
		"zcull":       func(a []string) error { _, err := zcull.ParseFlags(a, getenv, null); return err },
		"sage":        func(a []string) error { _, err := sage.ParseFlags(a, getenv, null); return err },
		"decoupled":   func(a []string) error { _, err := decoupled.ParseFlags(a, getenv, null); return err },
		"memory":      func(a []string) error { _, err := memory.ParseFlags(a, getenv, null); return err },
	}
	for name, p := range parse {
		for _, tc := range []struct {
			args   []string
			listed map[string]bool
		}{
			{[]string{"-allow-path", t.TempDir()}, allow},
			{[]string{"-max-memory", "1G"}, budget},
		} {
			err := p(append([]string{"-q"}, tc.args...))
			takes := err == nil || !strings.Contains(err.Error(), "flag provided but not defined")
			if takes != tc.listed[name] {
				t.Errorf("%s %s: takes the flag %v, README.md lists it %v (%v)", name, tc.args[0], takes, tc.listed[name], err)
			}
		}
	}
}
