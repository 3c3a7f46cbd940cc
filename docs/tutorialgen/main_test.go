package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestTutorialCommands runs every `go run` command of docs/tutorial.md, at the
// tutorial's own (small) settings, with out/ moved to a temporary folder, and
// checks that each succeeds, that every excerpt the tutorial quotes still appears
// in what the commands print now, numbers aside (the names of units, counters and
// stall causes, the tables' shape), and that every screenshot it shows exists.
// When it fails after a change to the model, run `go run ./docs/tutorialgen` and
// read the tutorial's text again.
func TestTutorialCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: the tutorial's commands simulate two frames")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(root, "docs", "tutorial.md"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := parse(string(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.commands) == 0 || len(d.excerpts) == 0 || len(d.shots) == 0 {
		t.Fatalf("the tutorial has %d commands, %d excerpts, %d screenshots", len(d.commands), len(d.excerpts), len(d.shots))
	}
	r := &runner{root: root, outRoot: t.TempDir(), binDir: t.TempDir(), bins: map[string]string{}}
	start := time.Now()
	outs, err := r.runAll(d, func(s string) { t.Log(s) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d commands in %.1f s", len(d.commands), time.Since(start).Seconds())
	for _, e := range d.excerpts {
		got, err := r.fill(e, outs)
		if err != nil {
			t.Error(err)
			continue
		}
		now := map[string]bool{}
		for _, l := range got {
			now[stable(l)] = true
		}
		for i, l := range d.lines[e.start:e.end] {
			if !now[stable(l)] {
				t.Errorf("docs/tutorial.md:%d: %q is no longer printed (run go run ./docs/tutorialgen)", e.start+i+1, l)
			}
		}
	}
	for _, s := range d.shots {
		if _, err := os.Stat(filepath.Join(root, "docs", "images", "tutorial", s.file)); err != nil {
			t.Errorf("docs/tutorial.md:%d: %v", s.line+1, err)
		}
		if !strings.Contains(string(text), "(images/tutorial/"+s.file+")") {
			t.Errorf("docs/tutorial.md:%d: %s is taken but not shown", s.line+1, s.file)
		}
	}
}

func TestStable(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"GPU.Rasterizer[0]       6.1%    37.6%  blocked_output (37.6%)         56.3%",
			"GPU.Rasterizer[0] #% #% blocked_output (#%) #%"},
		{"vertex batches                       426", "vertex batches #"},
		{"GPU.ROP[2].cache_hit_rate  0.523", "GPU.ROP[2].cache_hit_rate #"},
		{"simulated 174067 core cycles = 0.174 ms at 1000 MHz", "simulated # core cycles = # ms at # MHz"},
		{"GPU.frame_seconds  1.74067e-04", "GPU.frame_seconds #"},
	} {
		if got := stable(c.in); got != c.want {
			t.Errorf("stable(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	text := strings.Join([]string{
		"```sh",
		"go run ./experiments/render -scene room -trace-components 'ROP|DepthUnit' -o out/x",
		"```",
		"<!-- output: ^units -->",
		"```text",
		"old",
		"```",
		"<!-- stats: out/x/stats.json ^GPU\\.cycles$ -->",
		"```text",
		"```",
		"<!-- daisen: a.png out/x/trace.sqlite3 component=GPU.ROP[0] window=100:200 -->",
	}, "\n")
	d, err := parse(text)
	if err != nil {
		t.Fatal(err)
	}
	wantArgs := []string{"-scene", "room", "-trace-components", "ROP|DepthUnit", "-o", "out/x"}
	if len(d.commands) != 1 || d.commands[0].pkg != "./experiments/render" || !reflect.DeepEqual(d.commands[0].args, wantArgs) {
		t.Fatalf("commands %+v", d.commands)
	}
	if len(d.excerpts) != 2 || d.excerpts[0].start != 5 || d.excerpts[0].end != 6 || d.excerpts[1].stats != "out/x/stats.json" || d.excerpts[1].start != 9 || d.excerpts[1].end != 9 {
		t.Fatalf("excerpts %+v", d.excerpts)
	}
	want := shot{line: 10, file: "a.png", trace: "out/x/trace.sqlite3", view: "component", arg: "GPU.ROP[0]", window: [2]uint64{100, 200}}
	if len(d.shots) != 1 || d.shots[0] != want {
		t.Fatalf("shots %+v, want %+v", d.shots, want)
	}
	for _, bad := range []string{
		"```sh\ngo run experiments/render\n```",
		"```sh\ngo run ./x 'a\n```",
		"<!-- output: ^a -->\n```text\n```",
		"```sh\ngo run ./x\n```\n<!-- output: ^a -->\nno block",
		"<!-- daisen: a.png t view=x -->",
		"<!-- daisen: a.png t task=x window=5:5 -->",
	} {
		if _, err := parse(bad); err == nil {
			t.Errorf("parse(%q) succeeded", bad)
		}
	}
}
