package expt

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/gfxsim/gfxsim/internal/outputs"
	"github.com/gfxsim/gfxsim/internal/progress"
)

func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		want Shard
		err  string
	}{
		{"0/3", Shard{0, 3}, ""},
		{"2/3", Shard{2, 3}, ""},
		{"0/1", Shard{0, 1}, ""},
		{" 1 / 2 ", Shard{1, 2}, ""},
		{"3/3", Shard{}, `-shard "3/3": K (this shard) is 3; it must be in 0..2, shards count from 0`},
		{"-1/3", Shard{}, `-shard "-1/3": K (this shard) is -1; it must be in 0..2, shards count from 0`},
		{"1/0", Shard{}, `-shard "1/0": N (the number of shards) is 0; it must be at least 1`},
		{"x", Shard{}, `-shard "x": want K/N, two whole numbers such as 0/3 (the K-th of N shards, counted from 0)`},
		{"1/x", Shard{}, `-shard "1/x": want K/N, two whole numbers such as 0/3 (the K-th of N shards, counted from 0)`},
		{"", Shard{}, `-shard "": want K/N, two whole numbers such as 0/3 (the K-th of N shards, counted from 0)`},
	}
	for _, tt := range tests {
		got, err := ParseShard(tt.in)
		if msg := errString(err); got != tt.want || msg != tt.err {
			t.Errorf("ParseShard(%q) = %v, %q; want %v, %q", tt.in, got, msg, tt.want, tt.err)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestShardHas(t *testing.T) {
	var got []int
	for i := 0; i < 8; i++ {
		if (Shard{1, 3}).Has(i) {
			got = append(got, i)
		}
	}
	if fmt.Sprint(got) != "[1 4 7]" {
		t.Errorf("shard 1/3 of 8 points: %v", got)
	}
	if !(Shard{}).Has(5) || !(Shard{0, 1}).Has(5) {
		t.Error("the zero shard and 0/1 must select every point")
	}
}

func TestSweepFlags(t *testing.T) {
	tests := []struct {
		args []string
		err  string
	}{
		{nil, ""},
		{[]string{"-shard", "1/3"}, ""},
		{[]string{"-list", "-shard", "1/3"}, ""},
		{[]string{"-merge", "-from", "a", "-from", "b"}, ""},
		{[]string{"-shard", "3/3"}, `invalid value "3/3" for flag -shard: K (this shard) is 3; it must be in 0..2, shards count from 0`},
		{[]string{"-list", "-merge"}, "-list and -merge: -list prints the points, -merge builds the tables; give one"},
		{[]string{"-merge", "-shard", "0/2"}, "-merge and -shard 0/2: a merge reads the points of every shard; drop -shard"},
		{[]string{"-from", "a"}, "-from is read by -merge only"},
	}
	for _, tt := range tests {
		var f SweepFlags
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f.Register(fs)
		err := fs.Parse(tt.args)
		if err == nil {
			err = f.Check()
		}
		if msg := errString(err); msg != tt.err {
			t.Errorf("%q: error %q, want %q", tt.args, msg, tt.err)
		}
	}
}

// fakeResult is the fake study's result: a float that must round-trip
// exactly, a count and a name.
type fakeResult struct {
	Point int
	Value float64
	Name  string
}

// fakeStudy is a study of n points whose values come from seed; its merge
// writes a CSV table and a text file and prints a table.
func fakeStudy(out string, n int, seed int64, workers int) *Sweep[fakeResult] {
	values := make([]float64, n)
	rng := rand.New(rand.NewSource(seed))
	for i := range values {
		values[i] = rng.Float64() * 1e3 / 7
	}
	s := &Sweep[fakeResult]{Study: "fake", Out: out, Workers: workers,
		Fingerprint: Fingerprint{"seed": strconv.FormatInt(seed, 10), "n": strconv.Itoa(n)}}
	for i := 0; i < n; i++ {
		s.Points = append(s.Points, RunName("point", strconv.Itoa(i), "of fake"))
	}
	s.Run = func(i int) (fakeResult, error) {
		return fakeResult{Point: i, Value: values[i], Name: s.Points[i]}, nil
	}
	s.Merge = func(w io.Writer, rs []fakeResult) error {
		var rows [][]string
		sum := 0.0
		for _, r := range rs {
			rows = append(rows, []string{r.Name, strconv.Itoa(r.Point), strconv.FormatFloat(r.Value, 'g', -1, 64)})
			sum += r.Value
		}
		Table(w, []string{"point", "index", "value"}, rows)
		fmt.Fprintf(w, "sum %v\n", sum)
		if err := outputs.WriteCSV(filepath.Join(out, "table.csv"), []string{"point", "index", "value"}, rows); err != nil {
			return err
		}
		return outputs.WriteFile(filepath.Join(out, "sum.txt"), []byte(fmt.Sprintln(sum)))
	}
	return s
}

// TestShardsMatch: three shards and a merge write and print exactly what one
// process does, with one worker and with several.
func TestShardsMatch(t *testing.T) {
	for _, workers := range []int{1, 3} {
		dir := t.TempDir()
		err := ShardsMatch(dir, 3, func(out string, f SweepFlags, w io.Writer) error {
			return fakeStudy(out, 10, 7, workers).Main(f, w)
		})
		if err != nil {
			t.Errorf("%d workers: %v", workers, err)
		}
		for k, want := range []int{4, 3, 3} {
			var list bytes.Buffer
			fakeStudy("", 10, 7, 1).List(&list, Shard{k, 3})
			if n := strings.Count(list.String(), "\n"); n != want {
				t.Errorf("-list -shard %d/3: %d points, want %d:\n%s", k, n, want, list.String())
			}
		}
	}
}

// TestShardsMatchFindsDifferences: the check fails when a shard's merge
// would differ (a study whose merge depends on which points ran in the
// process, as a study keeping state between points would).
func TestShardsMatchFindsDifferences(t *testing.T) {
	ran := 0
	err := ShardsMatch(t.TempDir(), 3, func(out string, f SweepFlags, w io.Writer) error {
		s := fakeStudy(out, 6, 1, 1)
		run := s.Run
		s.Run = func(i int) (fakeResult, error) { ran++; return run(i) }
		merge := s.Merge
		s.Merge = func(w io.Writer, rs []fakeResult) error {
			fmt.Fprintln(w, "points run in this process:", ran)
			return merge(w, rs)
		}
		ran = 0
		return s.Main(f, w)
	})
	if err == nil || !strings.Contains(err.Error(), "the merge of 3 shards prints") {
		t.Errorf("a merge that depends on the process: %v", err)
	}
}

func list(t *testing.T, s *Sweep[fakeResult], sh Shard) string {
	t.Helper()
	var b bytes.Buffer
	if err := s.Main(SweepFlags{List: true, Shard: sh}, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestList(t *testing.T) {
	s := fakeStudy("", 5, 1, 1)
	if got, want := list(t, s, Shard{}), "0\tpoint-0-of_fake\n1\tpoint-1-of_fake\n2\tpoint-2-of_fake\n3\tpoint-3-of_fake\n4\tpoint-4-of_fake\n"; got != want {
		t.Errorf("-list:\n%s\nwant\n%s", got, want)
	}
	if got, want := list(t, s, Shard{1, 2}), "1\tpoint-1-of_fake\n3\tpoint-3-of_fake\n"; got != want {
		t.Errorf("-list -shard 1/2:\n%s\nwant\n%s", got, want)
	}
}

// runShards runs shards of the fake study into out.
func runShards(t *testing.T, s *Sweep[fakeResult], n int, ks ...int) {
	t.Helper()
	for _, k := range ks {
		if err := s.Main(SweepFlags{Shard: Shard{k, n}}, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMergeErrors: a merge refuses missing, duplicated, foreign and
// differently configured points, with the file and the point in the error.
func TestMergeErrors(t *testing.T) {
	manySettings := ""
	for i := 0; i < 8; i++ {
		manySettings += fmt.Sprintf(`-k%02d="vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"... (this run: (not set)), `, i)
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, out, other string) []string // returns -from folders
		err   string
	}{
		{"missing shard", func(t *testing.T, out, other string) []string {
			runShards(t, fakeStudy(out, 10, 7, 1), 3, 0, 2)
			return nil
		}, "3 of 10 points have no file (1 point-1-of_fake, 4 point-4-of_fake, 7 point-7-of_fake): run their shards (point i is in shard i%N of N) and merge again"},
		{"missing file", func(t *testing.T, out, other string) []string {
			runShards(t, fakeStudy(out, 10, 7, 1), 3, 0, 1, 2)
			if err := os.Remove(filepath.Join(PointsDir(out), "point-9-of_fake.json")); err != nil {
				t.Fatal(err)
			}
			return nil
		}, "1 of 10 points have no file (9 point-9-of_fake): run their shards (point i is in shard i%N of N) and merge again"},
		{"many missing", func(t *testing.T, out, other string) []string {
			runShards(t, fakeStudy(out, 30, 7, 1), 3, 0)
			return nil
		}, "20 of 30 points have no file (1 point-1-of_fake, 2 point-2-of_fake, 4 point-4-of_fake, 5 point-5-of_fake, " +
			"7 point-7-of_fake, 8 point-8-of_fake, 10 point-10-of_fake, 11 point-11-of_fake, and 12 more): " +
			"run their shards (point i is in shard i%N of N) and merge again"},
		{"duplicated", func(t *testing.T, out, other string) []string {
			runShards(t, fakeStudy(out, 10, 7, 1), 3, 0, 1, 2)
			runShards(t, fakeStudy(other, 10, 7, 1), 3, 1)
			return []string{PointsDir(other)}
		}, "point 1 (point-1-of_fake) is in two files: OUT/points/point-1-of_fake.json and OTHER/points/point-1-of_fake.json; keep one"},
		{"other settings", func(t *testing.T, out, other string) []string {
			runShards(t, fakeStudy(out, 10, 7, 1), 3, 0, 1)
			runShards(t, fakeStudy(other, 10, 8, 1), 3, 2) // (into out, the shard is refused: TestShardRefusesStale)
			return []string{PointsDir(other)}
		}, "OTHER/points/point-2-of_fake.json: point point-2-of_fake was run with other settings: -seed=8 (this run: 7); " +
			"merge with the settings of the shards, or rerun them"},
		{"other plan", func(t *testing.T, out, other string) []string {
			runShards(t, fakeStudy(out, 10, 7, 1), 3, 0, 1, 2)
			s := fakeStudy(out, 10, 7, 1)
			s.Points[0] = "point-0-renamed"
			runShards(t, s, 10, 0)
			return nil
		}, `OUT/points/point-0-renamed.json: point "point-0-renamed" is not one of the 10 points of this fake study (see -list; points of another plan?)`},
		{"other study", func(t *testing.T, out, other string) []string {
			runShards(t, fakeStudy(out, 10, 7, 1), 3, 0, 1, 2)
			s := fakeStudy(other, 10, 7, 1)
			s.Study = "zcull"
			runShards(t, s, 10, 3)
			return []string{PointsDir(other)}
		}, `OTHER/points/point-3-of_fake.json: a point of the study "zcull", not of fake`},
		{"not a point file", func(t *testing.T, out, other string) []string {
			runShards(t, fakeStudy(out, 10, 7, 1), 3, 0, 1, 2)
			if err := os.WriteFile(filepath.Join(PointsDir(out), "notes.json"), []byte("[1, 2]"), 0o644); err != nil {
				t.Fatal(err)
			}
			return nil
		}, "OUT/points/notes.json: not a point file: json: cannot unmarshal array into Go value of type expt.pointFile"},
		{"a link to /dev/zero", func(t *testing.T, out, other string) []string {
			runShards(t, fakeStudy(out, 10, 7, 1), 3, 0, 1, 2)
			if err := os.Symlink("/dev/zero", filepath.Join(PointsDir(out), "zero.json")); err != nil {
				t.Fatal(err)
			}
			return nil
		}, "OUT/points/zero.json: not a regular file (a character device): a point file must be a regular file"},
		{"a named pipe", func(t *testing.T, out, other string) []string {
			runShards(t, fakeStudy(out, 10, 7, 1), 3, 0, 1, 2)
			if err := syscall.Mkfifo(filepath.Join(PointsDir(out), "fifo.json"), 0o644); err != nil {
				t.Fatal(err)
			}
			return nil
		}, "OUT/points/fifo.json: not a regular file (a named pipe): a point file must be a regular file"},
		{"a long study name and settings", func(t *testing.T, out, other string) []string {
			runShards(t, fakeStudy(out, 10, 7, 1), 3, 0, 1, 2)
			s := fakeStudy(other, 10, 7, 1)
			s.Study = "fake\x1b[2J" + strings.Repeat("A", 100000)
			runShards(t, s, 10, 3)
			return []string{PointsDir(other)}
		}, `OTHER/points/point-3-of_fake.json: a point of the study "fake\x1b[2JAAAAAAAAAAAAAAAAAAAAAAAA"..., not of fake`},
		{"many other settings", func(t *testing.T, out, other string) []string {
			runShards(t, fakeStudy(out, 10, 7, 1), 3, 0, 1)
			s := fakeStudy(other, 10, 7, 1)
			for i := 0; i < 20; i++ {
				s.Fingerprint[fmt.Sprintf("k%02d", i)] = strings.Repeat("v", 40)
			}
			runShards(t, s, 3, 2)
			return []string{PointsDir(other)}
		}, "OTHER/points/point-2-of_fake.json: point point-2-of_fake was run with other settings: " + manySettings +
			"and 12 more; merge with the settings of the shards, or rerun them"},
		{"no points", func(t *testing.T, out, other string) []string { return nil },
			"OUT/points: reading the point files: open OUT/points: no such file or directory (run the shards first)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out, other := filepath.Join(dir, "out"), filepath.Join(dir, "other")
			from := tt.setup(t, out, other)
			err := fakeStudy(out, 10, 7, 1).Main(SweepFlags{Merge: true, From: from}, io.Discard)
			if tt.name == "many missing" {
				err = fakeStudy(out, 30, 7, 1).Main(SweepFlags{Merge: true, From: from}, io.Discard)
			}
			msg := strings.NewReplacer(out, "OUT", other, "OTHER").Replace(errString(err))
			if msg != tt.err {
				t.Errorf("error\n%s\nwant\n%s", msg, tt.err)
			}
		})
	}
}

// TestShardRefusesStale: a shard refuses an output folder that holds point
// files of another run (the merge would refuse them once every shard had
// run), but not the other shards' files of its own run; a whole run removes
// them, and says so; -shard 0/1 writes point files and no tables.
func TestShardRefusesStale(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	runShards(t, fakeStudy(out, 10, 7, 1), 3, 0, 1) // this run's other shards: welcome
	if err := fakeStudy(out, 10, 7, 1).Main(SweepFlags{Shard: Shard{2, 3}}, io.Discard); err != nil {
		t.Fatalf("a shard beside its own run's files: %v", err)
	}
	err := fakeStudy(out, 10, 8, 1).Main(SweepFlags{Shard: Shard{0, 3}}, io.Discard)
	want := "OUT/points holds 10 point files of another run (e.g. point-0-of_fake.json: -seed=7 (this run: 8)): " +
		"the merge would refuse them; remove them, or give the shards another -o"
	if msg := strings.ReplaceAll(errString(err), out, "OUT"); msg != want {
		t.Errorf("a shard beside another run's files:\n%s\nwant\n%s", msg, want)
	}
	var w bytes.Buffer
	if err := fakeStudy(out, 10, 8, 1).Main(SweepFlags{}, &w); err != nil {
		t.Fatal(err)
	}
	if line := "fake: removed 10 point files of an earlier run with other settings from " + PointsDir(out) + "\n"; !strings.HasPrefix(w.String(), line) {
		t.Errorf("a whole run printed\n%s\nwant it to start with %q", w.String(), line)
	}
	if err := fakeStudy(out, 10, 8, 1).Main(SweepFlags{Merge: true}, io.Discard); err != nil {
		t.Errorf("merging the whole run's points: %v", err)
	}
	w.Reset()
	if err := fakeStudy(out, 10, 8, 1).Main(SweepFlags{Shard: Shard{0, 1}}, &w); err != nil ||
		!strings.HasPrefix(w.String(), "fake: shard 0/1 wrote 10 of 10 points to ") {
		t.Errorf("-shard 0/1: %v, printed\n%s\nwant the shard's line and no tables", err, w.String())
	}

	// Another study's points in the folder are refused, by a shard and by a
	// whole run, and never removed.
	other := fakeStudy(out, 3, 8, 1)
	other.Study, other.Points = "zcull", []string{"z0", "z1", "z2"}
	if err := other.Main(SweepFlags{Shard: Shard{0, 2}}, io.Discard); err == nil {
		t.Fatal("a zcull shard wrote beside fake's points")
	}
	if _, err := other.RunShard(Shard{0, 2}); err != nil {
		t.Fatal(err)
	}
	want = "OUT/points holds 2 point files of another study (e.g. z0.json: a point of the study \"zcull\"): give this study its own -o"
	for _, f := range []SweepFlags{{Shard: Shard{1, 3}}, {}} {
		err := fakeStudy(out, 10, 8, 1).Main(f, io.Discard)
		if msg := strings.ReplaceAll(errString(err), out, "OUT"); msg != want {
			t.Errorf("%+v beside another study's points:\n%s\nwant\n%s", f, msg, want)
		}
	}
	if _, err := os.Stat(filepath.Join(PointsDir(out), "z0.json")); err != nil {
		t.Errorf("another study's point file was removed: %v", err)
	}
}

// TestMergeFrom: shards written to separate folders (one per machine) merge
// through -from into the tables of one process, whether -from names a
// shard's points folder or its output folder, and a folder named twice is
// read once.
func TestMergeFrom(t *testing.T) {
	dir := t.TempDir()
	var want bytes.Buffer
	if err := fakeStudy(filepath.Join(dir, "single"), 10, 3, 1).Main(SweepFlags{}, &want); err != nil {
		t.Fatal(err)
	}
	var outs []string
	for k := 0; k < 3; k++ {
		out := filepath.Join(dir, "node"+strconv.Itoa(k))
		runShards(t, fakeStudy(out, 10, 3, 1), 3, k)
		outs = append(outs, out)
	}
	for _, tc := range []struct {
		name string
		from []string
	}{
		{"points folders", []string{PointsDir(outs[0]), PointsDir(outs[1]), PointsDir(outs[2])}},
		{"output folders", outs},
		{"one twice", []string{outs[0], PointsDir(outs[0]), outs[1], outs[2] + "/"}},
	} {
		var got bytes.Buffer
		merged := filepath.Join(t.TempDir(), "merged") // no points of its own
		if err := fakeStudy(merged, 10, 3, 1).Main(SweepFlags{Merge: true, From: tc.from}, &got); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if want.String() != got.String() {
			t.Errorf("%s: merged from three folders:\n%s\none process:\n%s", tc.name, got.String(), want.String())
		}
	}
}

// TestRunErrors: a failing point names itself and stops the shard; a plan
// with repeated or unsafe point names is refused before anything runs; an
// unencodable result is an error, not a file.
func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	s := fakeStudy(dir, 6, 1, 1)
	s.Run = func(i int) (fakeResult, error) {
		if i == 2 {
			return fakeResult{}, errors.New("scene \"nowhere\": not found")
		}
		return fakeResult{Point: i}, nil
	}
	err := s.Main(SweepFlags{}, io.Discard)
	if want := `point 2 (point-2-of_fake): scene "nowhere": not found`; errString(err) != want {
		t.Errorf("failing point: %v, want %s", err, want)
	}
	if _, err := os.Stat(filepath.Join(PointsDir(dir), "point-4-of_fake.json")); !os.IsNotExist(err) {
		t.Errorf("a point after the failing one ran: %v", err)
	}

	s = fakeStudy(dir, 3, 1, 1)
	s.Points[2] = s.Points[0]
	if err := s.Main(SweepFlags{List: true}, io.Discard); errString(err) != `points 0 and 2 are both named "point-0-of_fake"` {
		t.Errorf("repeated name: %v", err)
	}
	s.Points[2] = "../escape"
	if err := s.Main(SweepFlags{}, io.Discard); errString(err) != `point 2 has the name "../escape", not usable as a file name` {
		t.Errorf("unsafe name: %v", err)
	}

	// An output folder that is a file: the error names -o, in a run and in a merge.
	file := filepath.Join(t.TempDir(), "out")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []SweepFlags{{}, {Merge: true}} {
		s = fakeStudy(file, 3, 1, 1)
		if err := s.Main(f, io.Discard); !strings.HasPrefix(errString(err), "-o "+file+": ") {
			t.Errorf("output folder a file (merge %v): %v", f.Merge, err)
		}
	}

	s = fakeStudy(dir, 3, 1, 1)
	s.Run = func(i int) (fakeResult, error) { return fakeResult{Value: float64(i) / 0}, nil }
	if err := s.Main(SweepFlags{}, io.Discard); !strings.Contains(errString(err), "encoding the result: json: unsupported value: NaN") {
		t.Errorf("NaN result: %v", err)
	}
}

// eta is a bar's estimate of the time left.
var eta = regexp.MustCompile(`, about [0-9a-z ]+ left`)

// A sweep's bar counts the shard's points, labelled with their names, and
// the log lines of Done, written through the bar, go above it.
func TestSweepBar(t *testing.T) {
	var out bytes.Buffer
	bar := progress.New(&out, 0, true)
	log := bar.Writer(&out)
	sw := &Sweep[int]{Study: "bar", Out: t.TempDir(), Points: []string{"a", "b", "c", "d"},
		Run:  func(i int) (int, error) { return i, nil },
		Done: func(done, total, i int, r int) { fmt.Fprintf(log, "%d/%d %d\n", done, total, r) },
		Bar:  bar}
	if _, err := sw.RunShard(Shard{0, 2}); err != nil {
		t.Fatal(err)
	}
	// The time left depends on the wall clock (progress tests it): left out.
	got := strings.NewReplacer("\r\x1b[K", "|", "#", "", ".", "").Replace(eta.ReplaceAllString(out.String(), ""))
	want := "1/2 0\n|[] 1/2 0 s  a|2/2 2\n[] 1/2 0 s  a|[] 2/2 0 s  c\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
