package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseRelation(t *testing.T) {
	tests := []struct {
		in   string
		want string // the relation's canonical form, or the error
	}{
		{"oracle:GPU.HiZ[0].culling_rate >= zmask:GPU.HiZ[0].culling_rate",
			"oracle:GPU.HiZ[0].culling_rate >= zmask:GPU.HiZ[0].culling_rate"},
		{"sum(r4-tile32:GPU.PrimitiveAssembly.primitives_sent_r*)/r4-tile32:GPU.PrimitiveAssembly.primitives==4",
			"(sum(r4-tile32:GPU.PrimitiveAssembly.primitives_sent_r*) / r4-tile32:GPU.PrimitiveAssembly.primitives) == 4"},
		{"max(a:GPU.Rasterizer[*].quads) / mean(a:GPU.Rasterizer[*].quads) < 1.05",
			"(max(a:GPU.Rasterizer[*].quads) / mean(a:GPU.Rasterizer[*].quads)) < 1.05"},
		{"a:X - b:X * 2 + 1 <= -(c:X - 0.5e-3)", "((a:X - (b:X * 2)) + 1) <= (-(c:X - 0.0005))"},
		{"a:GPU.cycles-b:GPU.cycles > 1e+09", "(a:GPU.cycles - b:GPU.cycles) > 1e+09"},
		{`study:frames.csv[machine=R8500, "passes per pin"=6]."frame us" < 2`,
			`study:frames.csv[machine=R8500, "passes per pin"=6]."frame us" < 2`},
		{"min( s:results.csv[ sweep = filter ,setting=aniso-16x ].l2_bytes ) > s:results.csv[].x",
			"min(s:results.csv[sweep=filter, setting=aniso-16x].l2_bytes) > s:results.csv[].x"},

		{"", `character 1: want a number, a reference or (, found the end`},
		{"a:K", `character 4: want a comparison (<, <=, >, >=, ==), found the end`},
		{"a:K != 1", `character 5: want a comparison (<, <=, >, >=, ==), found "!= 1"`},
		{"a:K >", `character 6: want a number, a reference or (, found the end`},
		{"a:K > 1 2", `character 9: unexpected "2" after the relation`},
		{"a: > 1", `character 4: want a statistic or FILE.csv[...].COLUMN after "a:", found "> 1"`},
		{"Zmask:K > 1", `character 1: "Zmask" is not a command name (lower-case words and dashes)`},
		{"avg(a:K[*]) > 1", `character 1: "avg" is not an aggregate (sum, min, max, mean)`},
		{"sum(2) > 1", `character 5: want a reference COMMAND:... inside sum(), found "2) > 1"`},
		{"sum(a:K[*] > 1", `character 12: want ) closing sum(, found "> 1"`},
		{"(a:K > 1", `character 6: want ), found "> 1"`},
		{"a:GPU.HiZ[x].y > 1", `character 10: want a unit index [N] or [*] in the statistic, found "[x].y > 1"`},
		{"a:GPU..cycles > 1", `character 3: "GPU..cycles" is not a statistic (dot-separated names)`},
		{"a:K > 1.2.3", `character 7: "1.2.3" is neither a number nor a reference COMMAND:... (put spaces around a minus)`},
		{"a:x.csv.col > 1", "a:x.csv.col > 1"}, // a statistic named x.csv.col: no [ after .csv
		{"a:x.csv[c=v] > 1", `character 13: want .COLUMN after the row selector, found " > 1"`},
		{"a:x.csv[c].d > 1", `character 10: want = after the column "c", found "].d > 1"`},
		{"a:x.csv[c=v d].e > 1", `character 13: want , or ] in the row selector, found "d].e > 1"`},
		{`a:x.csv[c="v].d > 1`, `character 11: want a value, found an unterminated string "\"v].d > 1"`},
		{`a:x.csv[c=""].d > 1`, `character 11: want a value, found an empty string`},
	}
	for _, tc := range tests {
		r, err := ParseRelation(tc.in)
		got := r.String()
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("ParseRelation(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// FuzzParseRelation checks that the parser never panics and that what it accepts prints in a
// canonical form it parses back to the same relation.
func FuzzParseRelation(f *testing.F) {
	for _, s := range []string{
		"oracle:GPU.HiZ[0].culling_rate >= zmask:GPU.HiZ[0].culling_rate",
		"sum(a:GPU.X[*].y) / a:N >= 0.5 * 1e+09 - -2",
		`study:frames.csv[machine=R8500, "passes per pin"=6]."frame us" == 6`,
		"max(s:r.csv[].x) < (a:K + 1)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRelation(s)
		if err != nil {
			return
		}
		again, err := ParseRelation(r.String())
		if err != nil {
			t.Fatalf("ParseRelation(%q) = %s, which does not parse: %v", s, r, err)
		}
		if again.String() != r.String() {
			t.Fatalf("ParseRelation(%q) = %s, parsed again %s", s, r, again)
		}
	})
}

// labYAML is a lab with two commands: a render and a study with a CSV at full settings only.
const labYAML = `title: T
commands:
  - name: a
    program: render
    small: -scene triangle
    full: -scene room
    outputs:
      stats:
        - file: stats.json
          keys:
            - GPU.cycles
            - GPU.Core[0].busy
  - name: study
    program: zcull
    small: -quick -shard 0/9
    full: -quick
    outputs: {json: [points/*.json]}
    full_outputs:
      csv: [{file: summary.csv, columns: [config, "culling rate"]}]
`

func TestLoadLabExpect(t *testing.T) {
	tests := []struct {
		name, expect string
		err          string // the error after "PATH: "; "" for none
	}{
		{"good", `
  - that: a:GPU.cycles > 2 * sum(a:GPU.Core[*].busy)
    why: the cores are busy under half the frame
  - that: study:summary.csv[config=ZMASK]."culling rate" <= study:summary.csv[config=ORACLE]."culling rate"
    why: ORACLE bounds the culling
    at: full
`, ""},
		{"not a mapping", `
  - a:GPU.cycles > 1
`, `line 21: expect[0]: want a mapping with that, why and at`},
		{"unknown field", `
  - that: a:GPU.cycles > 1
    why: w
    when: full
`, `line 23: expect[0]: unknown field "when" (that, why, at)`},
		{"field twice", `
  - that: a:GPU.cycles > 1
    why: w
    why: v
`, `line 23: expect[0].why: given twice`},
		{"not a string", `
  - that: [a:GPU.cycles > 1]
    why: w
`, `line 21: expect[0].that: want a string`},
		{"no that", `
  - why: w
`, `line 21: expect[0].that: missing (the relation to check)`},
		{"no why", `
  - that: a:GPU.cycles > 1
`, `line 21: expect[0].why: missing (the teaching point the relation checks)`},
		{"bad at", `
  - that: a:GPU.cycles > 1
    why: w
    at: sometimes
`, `line 23: expect[0].at: "sometimes": want small, full or both`},
		{"syntax", `
  - that: a:GPU.cycles > 1
    why: w
  - that: a:GPU.cycles >> 1
    why: w
`, `line 23: expect[1].that: character 15: want a number, a reference or (, found "> 1"`},
		{"no reference", `
  - that: 1 < 2
    why: w
`, `line 21: expect[0].that: reads no output of a command, so it cannot fail`},
		{"unknown command", `
  - that: b:GPU.cycles > 1
    why: w
`, `line 21: expect[0].that: b:GPU.cycles: no command "b" in this lab (a, study)`},
		{"unknown statistic", `
  - that: a:GPU.cycle > 1
    why: w
`, `line 21: expect[0].that: a:GPU.cycle: GPU.cycle is not among the statistics command a declares for stats.json (outputs.stats)`},
		{"wildcard matches nothing", `
  - that: sum(a:GPU.Rop[*].busy) > 1
    why: w
`, `line 21: expect[0].that: sum(a:GPU.Rop[*].busy): GPU.Rop[*].busy matches none of the statistics command a declares for stats.json (outputs.stats)`},
		{"wildcard alone", `
  - that: a:GPU.Core[*].busy > 1
    why: w
`, `line 21: expect[0].that: a:GPU.Core[*].busy: GPU.Core[*].busy names a statistic per unit; wrap it in sum, min, max or mean`},
		{"aggregate of one", `
  - that: max(a:GPU.cycles) > 1
    why: w
`, `line 21: expect[0].that: max(a:GPU.cycles): max() of one statistic; write * for the unit index, or drop max()`},
		{"no stats", `
  - that: study:GPU.cycles > 1
    why: w
`, `line 21: expect[0].that: study:GPU.cycles: command study declares no stats.json at its small settings (outputs.stats)`},
		{"CSV at small settings", `
  - that: study:summary.csv[config=ZMASK]."culling rate" > 0
    why: w
`, `line 21: expect[0].that: study:summary.csv[config=ZMASK]."culling rate": command study declares no summary.csv at its small settings (outputs.csv; a study writes its CSV files only at full settings: add at: full)`},
		{"unknown column", `
  - that: study:summary.csv[configuration=ZMASK]."culling rate" > 0
    why: w
    at: full
`, `line 21: expect[0].that: study:summary.csv[configuration=ZMASK]."culling rate": column "configuration" is not among the columns command study declares for summary.csv`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "01-x", "lab.yaml")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(labYAML+"expect:"+tc.expect), 0o644); err != nil {
				t.Fatal(err)
			}
			lab, err := LoadLab(path)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("LoadLab: %v, want no error", err)
			case tc.err == "" && (len(lab.Expect) != 2 || lab.Expect[0].At != "both" || lab.Expect[1].At != "full" || lab.Expect[1].Line != 23):
				t.Fatalf("LoadLab: expectations %+v, want two, at both and full, the second on line 23", lab.Expect)
			case tc.err != "" && (err == nil || err.Error() != path+": "+tc.err):
				t.Fatalf("LoadLab: %v, want %s: %s", err, path, tc.err)
			}
		})
	}
}

func TestCheckExpectations(t *testing.T) {
	dir := t.TempDir()
	write := writer(t, dir)
	write("oracle/stats.json", `{"GPU.cycles": 1000, "GPU.HiZ[0].culling_rate": 0.5, "GPU.HiZ[1].culling_rate": 0.3, "GPU.zero": 0, "GPU.name": "x"}`)
	write("zmask/stats.json", `{"GPU.cycles": 1100, "GPU.HiZ[0].culling_rate": 0.4, "GPU.HiZ[1].culling_rate": 0.2}`)
	write("study/summary.csv", "config,samples,culling_rate,share\nORACLE,1,0.467,100%\nZMASK,1,0.181,39.0%\nZMASK,4,0.2,x\n")
	lab := func(that, at string) Lab {
		rel, err := ParseRelation(that)
		if err != nil {
			t.Fatal(err)
		}
		return Lab{Dir: "06-hiz", Expect: []Expectation{{That: that, Why: "a reason", At: at, Line: 7, rel: rel}}}
	}
	const where = "lab 06-hiz, expectation at lab.yaml line 7 (a reason): "
	tests := []struct {
		that, at string
		full     bool
		err      string // "" for none
	}{
		{"oracle:GPU.HiZ[0].culling_rate >= zmask:GPU.HiZ[0].culling_rate", "both", false, ""},
		{"oracle:GPU.HiZ[0].culling_rate < zmask:GPU.HiZ[0].culling_rate", "both", false,
			"oracle:GPU.HiZ[0].culling_rate < zmask:GPU.HiZ[0].culling_rate does not hold: 0.5 < 0.4"},
		{"oracle:GPU.HiZ[0].culling_rate < zmask:GPU.HiZ[0].culling_rate", "full", false, ""}, // not at small settings
		{"mean(oracle:GPU.HiZ[*].culling_rate) < 1.02 * mean(zmask:GPU.HiZ[*].culling_rate)", "small", false,
			"mean(oracle:GPU.HiZ[*].culling_rate) < 1.02 * mean(zmask:GPU.HiZ[*].culling_rate) does not hold: 0.4 < 0.306 " +
				"(mean(oracle:GPU.HiZ[*].culling_rate) = 0.4, mean(zmask:GPU.HiZ[*].culling_rate) = 0.3)"},
		{"oracle:GPU.cycles / zmask:GPU.cycles > 0.909091", "both", true,
			"oracle:GPU.cycles / zmask:GPU.cycles > 0.909091 does not hold: 0.9090909090909091 > 0.909091 " +
				"(oracle:GPU.cycles = 1000, zmask:GPU.cycles = 1100)"},
		{"study:summary.csv[config=ZMASK, samples=1].share < 0.5 * study:summary.csv[config=ORACLE].share", "both", true, ""},
		{"sum(study:summary.csv[config=ZMASK].culling_rate) == 0.381", "both", true, ""},
		{"zmask:GPU.frame_seconds > 0", "both", false,
			"zmask:GPU.frame_seconds > 0: zmask:GPU.frame_seconds: stats.json: missing statistic GPU.frame_seconds"},
		{"sum(zmask:GPU.ROP[*].quads) > 0", "both", false,
			"sum(zmask:GPU.ROP[*].quads) > 0: sum(zmask:GPU.ROP[*].quads): stats.json: no statistic matches GPU.ROP[*].quads"},
		{"oracle:GPU.name > 0", "both", false,
			"oracle:GPU.name > 0: oracle:GPU.name: stats.json: statistic GPU.name is x, not a finite number"},
		{"forward:GPU.cycles > 0", "both", false,
			"forward:GPU.cycles > 0: forward:GPU.cycles: stats.json: missing output: open " + filepath.Join(dir, "forward", "stats.json") + ": no such file or directory"},
		{"oracle:GPU.cycles / oracle:GPU.zero > 0", "both", false,
			"oracle:GPU.cycles / oracle:GPU.zero > 0: division by zero"},
		{"study:summary.csv[config=ZMASK].culling_rate > 0", "both", true,
			`study:summary.csv[config=ZMASK].culling_rate > 0: study:summary.csv[config=ZMASK].culling_rate: 2 rows match; select one, or use sum, min, max or mean`},
		{"study:summary.csv[config=FORWARD].culling_rate > 0", "both", true,
			`study:summary.csv[config=FORWARD].culling_rate > 0: study:summary.csv[config=FORWARD].culling_rate: summary.csv: no row matches [config=FORWARD]`},
		{"max(study:summary.csv[].share) > 0", "both", true,
			`max(study:summary.csv[].share) > 0: max(study:summary.csv[].share): summary.csv: row 4, column "share" is "x", not a finite number`},
		{"study:summary.csv[config=ORACLE].samples_tested > 0", "both", true,
			`study:summary.csv[config=ORACLE].samples_tested > 0: study:summary.csv[config=ORACLE].samples_tested: summary.csv: missing column "samples_tested"`},
	}
	for _, tc := range tests {
		_, err := CheckExpectations(dir, lab(tc.that, tc.at), tc.full, nil)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v, want no error", tc.that, err)
		case tc.err != "" && (err == nil || err.Error() != where+tc.err):
			t.Errorf("%s: %v, want %s", tc.that, err, where+tc.err)
		}
	}
}

// TestCheckExpectationsLog checks the line logged for a relation that holds, and that every
// failing relation of a lab is reported, not only the first.
func TestCheckExpectationsLog(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a", "stats.json"), []byte(`{"x": 2, "y": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var exps []Expectation
	for i, that := range []string{"a:x < a:y", "a:x > a:y", "a:x == a:y"} {
		rel, err := ParseRelation(that)
		if err != nil {
			t.Fatal(err)
		}
		exps = append(exps, Expectation{That: that, Why: "w", At: "both", Line: 10 + i, rel: rel})
	}
	var log strings.Builder
	held, err := CheckExpectations(dir, Lab{Dir: "01-x", Expect: exps}, false, &log)
	if want := "  01-x/expect line 10: 2 < 3: w\n"; log.String() != want {
		t.Errorf("log %q, want %q", log.String(), want)
	}
	if held != 1 {
		t.Errorf("%d expectations held, want 1", held)
	}
	want := "lab 01-x, expectation at lab.yaml line 11 (w): a:x > a:y does not hold: 2 > 3\n" +
		"lab 01-x, expectation at lab.yaml line 12 (w): a:x == a:y does not hold: 2 == 3"
	if err == nil || err.Error() != want {
		t.Errorf("CheckExpectations: %v, want %s", err, want)
	}
}
