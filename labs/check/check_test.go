package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLabs runs every lab's commands at its small settings and checks their outputs, so
// that a lab broken by a change elsewhere fails CI. With -short it runs one lab.
func TestLabs(t *testing.T) {
	root, labs := load(t)
	if testing.Short() {
		var err error
		if labs, err = Select(labs, []string{"06"}); err != nil {
			t.Fatal(err)
		}
	}
	var log bytes.Buffer
	start := time.Now()
	err := checkLabs(root, labs, false, "", true, &log)
	t.Logf("%s%d labs in %.1f s", log.String(), len(labs), time.Since(start).Seconds())
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadmes checks what the checker cannot run: every lab has a README quoting each of its
// full commands exactly, every configuration file and every scene file of the lab's folder
// a command names exists, and every YAML file of a lab folder is used by one of its commands.
func TestReadmes(t *testing.T) {
	root, labs := load(t)
	if len(labs) < 10 {
		t.Errorf("%d labs, want at least 10", len(labs))
	}
	for _, l := range labs {
		dir := filepath.Join(root, "labs", l.Dir)
		readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
		if err != nil {
			t.Errorf("lab %s: %v", l.Dir, err)
			continue
		}
		used := map[string]bool{"lab.yaml": true}
		for _, c := range l.Commands {
			if want := c.ReadmeCommand(l.Dir); !bytes.Contains(readme, []byte(want)) {
				t.Errorf("lab %s: README.md does not quote the full command %q", l.Dir, want)
			}
			for _, args := range [][]string{c.Args(false), c.Args(true)} {
				for i, a := range args {
					if a != "-config" && a != "-scene" || i+1 == len(args) {
						continue
					}
					file := args[i+1]
					own := filepath.Dir(file) == filepath.Join("labs", l.Dir)
					if a == "-scene" && !own {
						continue // a built-in scene's name, or a scene outside the lab
					}
					if _, err := os.Stat(filepath.Join(root, file)); err != nil {
						t.Errorf("lab %s, command %s: %s %s: %v", l.Dir, c.Name, a, file, err)
					}
					if own {
						used[filepath.Base(file)] = true
					}
				}
			}
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		for _, f := range files {
			if !used[filepath.Base(f)] {
				t.Errorf("lab %s: %s is used by no command of lab.yaml", l.Dir, filepath.Base(f))
			}
		}
	}
}

// TestFullOutputsKeepSmall: a command's full_outputs replace its outputs at the full
// settings, so every file, statistic, CSV file and column the small settings check must be
// checked at the full settings too; otherwise -full stops checking outputs the handout asks
// for (lab 07's study listed table1_shaders.csv and table5_passes.csv only at small settings).
func TestFullOutputsKeepSmall(t *testing.T) {
	_, labs := load(t)
	for _, l := range labs {
		for _, c := range l.Commands {
			if c.FullOutputs != nil {
				for _, miss := range missingOutputs(c.Outputs, *c.FullOutputs) {
					t.Errorf("lab %s, command %s: full_outputs drop %s, which outputs check at the small settings", l.Dir, c.Name, miss)
				}
			}
		}
	}
}

func TestMissingOutputs(t *testing.T) {
	small := Outputs{
		Files: []string{"a.png", "b.png"},
		JSON:  []string{"points/*.json"},
		Stats: []StatsCheck{{File: "stats.json", Keys: []string{"GPU.cycles", "GPU.x"}}},
		CSV:   []CSVCheck{{File: "t.csv", Columns: []string{"p", "q"}}, {File: "u.csv", Columns: []string{"r"}}},
	}
	tests := []struct {
		name string
		full Outputs
		want string // the missing outputs joined by "; "
	}{
		{"superset", Outputs{
			Files: []string{"b.png", "a.png", "c.png"},
			JSON:  []string{"points/*.json"},
			Stats: []StatsCheck{{File: "stats.json", Keys: []string{"GPU.x", "GPU.cycles", "GPU.y"}}},
			CSV:   []CSVCheck{{File: "u.csv", Columns: []string{"r"}}, {File: "t.csv", Columns: []string{"q", "p", "s"}}},
		}, ""},
		{"empty", Outputs{}, "file a.png; file b.png; json points/*.json; stats.json: GPU.cycles; stats.json: GPU.x; t.csv: column p; t.csv: column q; u.csv: column r"},
		{"a column and a file", Outputs{
			Files: []string{"a.png"},
			JSON:  []string{"points/*.json"},
			Stats: []StatsCheck{{File: "stats.json", Keys: []string{"GPU.cycles", "GPU.x"}}},
			CSV:   []CSVCheck{{File: "t.csv", Columns: []string{"p"}}},
		}, "file b.png; t.csv: column q; u.csv: column r"},
	}
	for _, tc := range tests {
		if got := strings.Join(missingOutputs(small, tc.full), "; "); got != tc.want {
			t.Errorf("%s: missingOutputs = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// missingOutputs lists what small checks and full does not.
func missingOutputs(small, full Outputs) []string {
	has := map[string]bool{}
	for _, f := range full.Files {
		has["file "+f] = true
	}
	for _, f := range full.JSON {
		has["json "+f] = true
	}
	for _, s := range full.Stats {
		for _, k := range s.Keys {
			has[s.File+": "+k] = true
		}
	}
	for _, c := range full.CSV {
		for _, col := range c.Columns {
			has[c.File+": column "+col] = true
		}
	}
	var want []string
	for _, f := range small.Files {
		want = append(want, "file "+f)
	}
	for _, f := range small.JSON {
		want = append(want, "json "+f)
	}
	for _, s := range small.Stats {
		for _, k := range s.Keys {
			want = append(want, s.File+": "+k)
		}
	}
	for _, c := range small.CSV {
		for _, col := range c.Columns {
			want = append(want, c.File+": column "+col)
		}
	}
	var miss []string
	for _, w := range want {
		if !has[w] {
			miss = append(miss, w)
		}
	}
	return miss
}

func load(t *testing.T) (string, []Lab) {
	t.Helper()
	root, err := findRoot()
	if err != nil {
		t.Fatal(err)
	}
	labs, err := LoadLabs(root)
	if err != nil {
		t.Fatal(err)
	}
	return root, labs
}

func TestVerify(t *testing.T) {
	dir := t.TempDir()
	write := writer(t, dir)
	write("stats.json", `{"GPU.cycles": 100, "GPU.name": "x", "GPU.none": null}`)
	write("points/a.json", `{"x": 1}`)
	write("points/b.json", `{"x": `)
	write("results.csv", "sweep,scene\nl1,texstudy\n")
	write("header.csv", "sweep,scene\n")
	write("image.png", "png")
	tests := []struct {
		name string
		want Outputs
		err  string // substring of the error; "" for none
	}{
		{"all present", Outputs{
			Files: []string{"image.png"},
			JSON:  []string{"points/a.json"},
			Stats: []StatsCheck{{File: "stats.json", Keys: []string{"GPU.cycles"}}},
			CSV:   []CSVCheck{{File: "results.csv", Columns: []string{"scene"}}},
		}, ""},
		{"missing file", Outputs{Files: []string{"config.yaml"}}, "config.yaml: missing output"},
		{"glob without match", Outputs{JSON: []string{"runs/*.json"}}, "runs/*.json: missing output"},
		{"bad JSON", Outputs{JSON: []string{"points/*.json"}}, "points/b.json: not valid JSON"},
		{"missing stat", Outputs{Stats: []StatsCheck{{File: "stats.json", Keys: []string{"GPU.frame_seconds"}}}},
			"stats.json: missing statistic GPU.frame_seconds"},
		{"string stat", Outputs{Stats: []StatsCheck{{File: "stats.json", Keys: []string{"GPU.name"}}}},
			"statistic GPU.name is x, not a finite number"},
		{"null stat", Outputs{Stats: []StatsCheck{{File: "stats.json", Keys: []string{"GPU.none"}}}},
			"statistic GPU.none is <nil>, not a finite number"},
		{"missing stats file", Outputs{Stats: []StatsCheck{{File: "stats_0000.json", Keys: []string{"GPU.cycles"}}}},
			"stats_0000.json: missing output"},
		{"missing column", Outputs{CSV: []CSVCheck{{File: "results.csv", Columns: []string{"hit_rate"}}}},
			`results.csv: missing column "hit_rate"`},
		{"no rows", Outputs{CSV: []CSVCheck{{File: "header.csv", Columns: []string{"scene"}}}},
			"header.csv: no rows after the header"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Verify(dir, tc.want)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("Verify: %v, want no error", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("Verify: %v, want an error containing %q", err, tc.err)
			}
		})
	}
}

func TestLoadLabRejects(t *testing.T) {
	const good = "title: T\ncommands:\n  - name: a\n    program: render\n    small: -scene triangle\n    full: -scene room\n    outputs: {files: [image.png]}\n"
	tests := []struct {
		name, dir, text, err string
	}{
		{"good", "01-good", good, ""},
		{"folder name", "good", good, `folder "good"`},
		{"unknown field", "01-x", good + "extra: 1\n", "field extra not found"},
		{"no title", "01-x", strings.Replace(good, "title: T", "title: ''", 1), "title: missing"},
		{"program", "01-x", strings.Replace(good, "program: render", "program: gem5", 1), `commands[0].program: "gem5"`},
		{"output flag", "01-x", strings.Replace(good, "-scene room", "-scene room -o out", 1), `"-o" is added by the checker`},
		{"no full", "01-x", strings.Replace(good, "full: -scene room", "full: ''", 1), "small and full arguments are both required"},
		{"no outputs", "01-x", strings.Replace(good, "outputs: {files: [image.png]}", "outputs: {}", 1), "commands[0].outputs: nothing to check"},
		{"twice", "01-x", good + "  - name: a\n    program: render\n    small: x\n    full: y\n    outputs: {files: [a]}\n", `"a" appears twice`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.dir, "lab.yaml")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadLab(path)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("LoadLab: %v, want no error", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("LoadLab: %v, want an error containing %q", err, tc.err)
			}
		})
	}
}

func TestSelect(t *testing.T) {
	labs := []Lab{{Dir: "01-a"}, {Dir: "02-b"}, {Dir: "10-c"}}
	tests := []struct {
		args []string
		want string // folder names joined by commas, or the error's start
	}{
		{[]string{"all"}, "01-a,02-b,10-c"},
		{[]string{"02"}, "02-b"},
		{[]string{"10-c", "01"}, "10-c,01-a"},
		{[]string{"1"}, `no lab "1"`},
	}
	for _, tc := range tests {
		got, err := Select(labs, tc.args)
		var s string
		if err != nil {
			s = err.Error()
		} else {
			var names []string
			for _, l := range got {
				names = append(names, l.Dir)
			}
			s = strings.Join(names, ",")
		}
		if !strings.HasPrefix(s, tc.want) {
			t.Errorf("Select(%v) = %q, want %q", tc.args, s, tc.want)
		}
	}
}

// fakeRender returns a folder holding a fake render binary (a shell script):
// it writes image.png into its -o folder (the last argument) and fails when
// asked for the scene "broken" ("render: scene broken: no such scene").
func fakeRender(t *testing.T) string {
	bin := t.TempDir()
	script := "#!/bin/sh\nfor a; do out=$a; done\ncase \"$*\" in *broken*) echo 'render: scene broken: no such scene' >&2; exit 1;; esac\n" +
		"mkdir -p \"$out\" && echo png > \"$out/image.png\"\n"
	if err := os.WriteFile(filepath.Join(bin, "render"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestRunLabErrors runs a fake experiment binary (a shell script) and checks that the errors
// name the lab, the command, its arguments and what is missing.
func TestRunLabErrors(t *testing.T) {
	bin := fakeRender(t)
	r := Runner{Root: t.TempDir(), Bin: bin, Out: t.TempDir()}
	lab := func(args string, want Outputs) Lab {
		return Lab{Dir: "01-x", Title: "x", Commands: []Command{{Name: "a", Program: "render", Small: args, Full: args, Outputs: want}}}
	}
	tests := []struct {
		name string
		lab  Lab
		err  []string // substrings of the error; none for no error
	}{
		{"ok", lab("-scene room", Outputs{Files: []string{"image.png"}}), nil},
		{"missing stats", lab("-scene room", Outputs{Stats: []StatsCheck{{File: "stats.json", Keys: []string{"GPU.cycles"}}}}),
			[]string{"lab 01-x, command a (render -scene room)", "stats.json: missing output"}},
		{"command fails", lab("-scene broken", Outputs{Files: []string{"image.png"}}),
			[]string{"lab 01-x, command a (render -scene broken)", "exit status 1", "render: scene broken: no such scene"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := r.RunLab(tc.lab)
			if len(tc.err) == 0 {
				if err != nil {
					t.Fatalf("RunLab: %v, want no error", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("RunLab: no error, want %q", tc.err)
			}
			for _, s := range tc.err {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("RunLab: %v, want it to contain %q", err, s)
				}
			}
		})
	}
}

// writer returns a function that writes the file name (slash-separated, its
// folders made) in dir with text.
func writer(t *testing.T, dir string) func(name, text string) {
	return func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestListLabs(t *testing.T) {
	labs := []Lab{{Dir: "06-hiz", Title: "HiZ", Commands: []Command{{Name: "off", Program: "render", Full: "-scene occluders"}},
		Expect: []Expectation{
			{That: "a:x >=\n  b:x", Why: "the bound"},
			{That: "a:y < b:y", Why: "full only", At: "full"},
		}}}
	head := "06-hiz: HiZ\n" +
		"  go run ./experiments/render -scene occluders -o out/labs/06-hiz/off\n"
	for _, tc := range []struct {
		instructor bool
		want       string
	}{
		{false, head + "  2 expectations (-instructor shows them)\n"},
		{true, head + "  expect (both): a:x >= b:x\n    why: the bound\n" +
			"  expect (full): a:y < b:y\n    why: full only\n"},
	} {
		var b bytes.Buffer
		listLabs(&b, labs, tc.instructor)
		if b.String() != tc.want {
			t.Errorf("listLabs(instructor %v) printed\n%s\nwant\n%s", tc.instructor, b.String(), tc.want)
		}
	}
}

// TestRunLabsAll: a failing lab does not stop the others; every failure is reported, and the
// log says which labs passed.
func TestRunLabsAll(t *testing.T) {
	bin := fakeRender(t)
	lab := func(dir, scene string) Lab {
		return Lab{Dir: dir, Title: "x", Commands: []Command{{Name: "a", Program: "render",
			Small: "-scene " + scene, Full: "-scene " + scene, Outputs: Outputs{Files: []string{"image.png"}}}}}
	}
	tests := []struct {
		name      string
		labs      []Lab
		errs, log []string // substrings of the error (none: no error) and of the log
	}{
		{"all pass", []Lab{lab("01-a", "room"), lab("02-b", "room")}, nil,
			[]string{"01-a: ok", "02-b: ok", "2 labs ok"}},
		{"first fails", []Lab{lab("01-a", "broken"), lab("02-b", "room")}, []string{"lab 01-a, command a"},
			[]string{"01-a: FAILED", "02-b: ok", "1 of 2 labs failed"}},
		{"two fail", []Lab{lab("01-a", "broken"), lab("02-b", "room"), lab("03-c", "broken")},
			[]string{"lab 01-a, command a", "lab 03-c, command a"},
			[]string{"01-a: FAILED", "02-b: ok", "03-c: FAILED", "2 of 3 labs failed"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var log bytes.Buffer
			r := Runner{Root: t.TempDir(), Bin: bin, Out: t.TempDir()}
			err := runLabs(r, tc.labs, time.Now(), &log)
			if len(tc.errs) == 0 && err != nil {
				t.Fatalf("runLabs: %v, want no error", err)
			}
			if len(tc.errs) > 0 && err == nil {
				t.Fatalf("runLabs: no error, want %q", tc.errs)
			}
			for _, s := range tc.errs {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("runLabs: %v, want it to contain %q", err, s)
				}
			}
			for _, s := range tc.log {
				if !strings.Contains(log.String(), s) {
					t.Errorf("log %q, want it to contain %q", log.String(), s)
				}
			}
		})
	}
}

// TestRunLabInstructor: a lab's expectations that hold (the direction of its answers) are
// printed only for an instructor; a student's run counts them.
func TestRunLabInstructor(t *testing.T) {
	bin := t.TempDir()
	script := "#!/bin/sh\nfor a; do out=$a; done\nmkdir -p \"$out\" && echo '{\"GPU.cycles\": 7}' > \"$out/stats.json\"\n"
	if err := os.WriteFile(filepath.Join(bin, "render"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	rel, err := ParseRelation("a:GPU.cycles > 5")
	if err != nil {
		t.Fatal(err)
	}
	lab := Lab{Dir: "01-x", Title: "x",
		Commands: []Command{{Name: "a", Program: "render", Small: "-scene room", Full: "-scene room",
			Outputs: Outputs{Stats: []StatsCheck{{File: "stats.json", Keys: []string{"GPU.cycles"}}}}}},
		Expect: []Expectation{{That: "a:GPU.cycles > 5", Why: "the answer", Line: 9, rel: rel}}}
	for _, tc := range []struct {
		instructor bool
		want       string
	}{
		{false, "\n01-x: ok (1 expectation held, "},
		{true, "\n  01-x/expect line 9: 7 > 5: the answer\n01-x: ok (1 expectation held, "},
	} {
		var log bytes.Buffer
		r := Runner{Root: t.TempDir(), Bin: bin, Out: t.TempDir(), Log: &log, Instructor: tc.instructor}
		if err := runLabs(r, []Lab{lab}, time.Now(), &log); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(log.String(), tc.want) || !tc.instructor && strings.Contains(log.String(), "the answer") {
			t.Errorf("instructor %v: log %q, want %q in it and the answer only for an instructor", tc.instructor, log.String(), tc.want)
		}
	}
}
