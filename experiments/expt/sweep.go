package expt

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/internal/outputs"
	"github.com/gfxsim/gfxsim/internal/progress"
)

// Shard selects the points of a sweep that one process runs: every N-th
// point starting at K (-shard K/N, 0 <= K < N). The zero Shard selects every
// point.
type Shard struct{ K, N int }

// ParseShard parses "K/N" with 0 <= K < N.
func ParseShard(s string) (Shard, error) {
	sh, err := parseShard(s)
	if err != nil {
		return Shard{}, fmt.Errorf("-shard %q: %v", s, err)
	}
	return sh, nil
}

func parseShard(s string) (Shard, error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, kerr := strconv.Atoi(strings.TrimSpace(ks))
	n, nerr := strconv.Atoi(strings.TrimSpace(ns))
	switch {
	case !ok || kerr != nil || nerr != nil:
		return Shard{}, errors.New("want K/N, two whole numbers such as 0/3 (the K-th of N shards, counted from 0)")
	case n < 1:
		return Shard{}, fmt.Errorf("N (the number of shards) is %d; it must be at least 1", n)
	case k < 0 || k >= n:
		return Shard{}, fmt.Errorf("K (this shard) is %d; it must be in 0..%d, shards count from 0", k, n-1)
	}
	return Shard{K: k, N: n}, nil
}

// All reports whether s selects every point.
func (s Shard) All() bool { return s.N <= 1 }

// Has reports whether s selects point i.
func (s Shard) Has(i int) bool { return s.All() || i%s.N == s.K }

func (s Shard) String() string {
	if s.N == 0 {
		return "0/1"
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Set implements flag.Value.
func (s *Shard) Set(v string) error {
	p, err := parseShard(v)
	if err != nil {
		return err
	}
	*s = p
	return nil
}

// SweepFlags are the flags every study takes about which of its points a
// process runs (README, "Sweeps past one machine").
type SweepFlags struct {
	// List prints the study's points (those of Shard only, when given) and
	// runs nothing (-list).
	List bool
	// Shard runs every N-th point from K and writes their files without
	// building the tables (-shard K/N).
	Shard Shard
	// Merge builds the tables and figures from the point files of every
	// shard, running nothing (-merge).
	Merge bool
	// From are further folders of point files that -merge reads besides the
	// study's own OUT/points (-from, repeatable).
	From []string
}

// Register adds -list, -shard, -merge and -from to fs.
func (f *SweepFlags) Register(fs *flag.FlagSet) {
	fs.BoolVar(&f.List, "list", false, "print the study's points (index and name; with -shard, that shard's only) and run nothing")
	fs.Var(&f.Shard, "shard", "run every N-th point from the K-th (K/N, 0 <= K < N), writing one file per point to OUT/points; "+
		"build the tables with -merge once every shard is done")
	fs.BoolVar(&f.Merge, "merge", false, "run nothing: build the tables and figures from the point files of all shards "+
		"(OUT/points and every -from folder)")
	fs.Func("from", "with -merge: another folder of point files to read: a shard's OUT/points, or its OUT holding one (repeatable)", func(s string) error {
		if s == "" {
			return errors.New("an empty folder name")
		}
		f.From = append(f.From, s)
		return nil
	})
}

// Check reports flags that cannot go together.
func (f *SweepFlags) Check() error {
	switch {
	case f.List && f.Merge:
		return errors.New("-list and -merge: -list prints the points, -merge builds the tables; give one")
	case f.Merge && f.Shard.N > 0:
		return fmt.Errorf("-merge and -shard %s: a merge reads the points of every shard; drop -shard", f.Shard)
	case len(f.From) > 0 && !f.Merge:
		return errors.New("-from is read by -merge only")
	}
	return nil
}

// Fingerprint holds the settings that change a study's results, by flag
// name without the dash ("width": "160"). Every point file stores its
// study's fingerprint; a merge refuses points of another one.
type Fingerprint map[string]string

func (f Fingerprint) String() string {
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = "-" + k + "=" + f[k]
	}
	return strings.Join(parts, " ")
}

// diff describes the settings in which g differs from f, as "-k=g's (f's)".
func (f Fingerprint) diff(g Fingerprint) string {
	keys := map[string]bool{}
	for k := range f {
		keys[k] = true
	}
	for k := range g {
		keys[k] = true
	}
	var ks []string
	for k := range keys {
		fv, fok := f[k]
		gv, gok := g[k]
		if fok != gok || fv != gv {
			ks = append(ks, k)
		}
	}
	sort.Strings(ks)
	parts := make([]string, len(ks))
	// Keys and values read from a file are shown escaped and cut when they
	// are not short and plain.
	plain := func(v string) string {
		if q := inputs.Quote(v); len(v) > inputs.MaxExcerpt || q[1:len(q)-1] != v {
			return q
		}
		return v
	}
	show := func(fp Fingerprint, k string) string {
		if v, ok := fp[k]; ok {
			return plain(v)
		}
		return "(not set)"
	}
	for i, k := range ks {
		parts[i] = fmt.Sprintf("-%s=%s (this run: %s)", plain(k), show(g, k), show(f, k))
	}
	if len(parts) > 8 {
		parts = append(parts[:8], fmt.Sprintf("and %d more", len(parts)-8))
	}
	return strings.Join(parts, ", ")
}

// Digest returns a short digest (12 hex digits of SHA-256) of v's JSON
// encoding: a Fingerprint value that follows the contents a flag names (a
// configuration file's) rather than the flag's text.
func Digest(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:12], nil
}

// Sweep is a study seen as a list of independent points: the harness lists
// them, runs any shard of them on Workers goroutines, writes each point's
// result R as JSON to Out/points/<point>.json, and merges the files of all
// shards into the study's tables and figures. R must survive a JSON round
// trip (exported fields, no NaN or infinity): the tables are always built
// from the decoded files, so that one process and N shards print the same
// bytes.
type Sweep[R any] struct {
	Study       string      // the study's name, stored in each point file
	Out         string      // the study's output folder
	Points      []string    // point names in plan order: unique, usable as file names (RunName)
	Fingerprint Fingerprint // the settings that change results
	Workers     int         // points run at once (0: 1)
	// Run computes point i; with Workers > 1 it is called concurrently.
	Run func(i int) (R, error)
	// Done, when not nil, is called after each point that ran, one call at a
	// time, with the number of points done of the shard's total.
	Done func(done, total, i int, r R)
	// Bar, when not nil, is started over the shard's points when they run
	// and steps after each Done (labelled with the point's name); log
	// lines written through Bar.Writer keep it below them.
	Bar *progress.Bar
	// Merge builds the tables and figures from every point's result in plan
	// order, printing the tables to w.
	Merge func(w io.Writer, rs []R) error
}

// pointsFolder is the point files' folder inside a study's output folder.
const pointsFolder = "points"

// PointsDir is the folder of a study's point files: OUT/points.
func PointsDir(out string) string { return filepath.Join(out, pointsFolder) }

// Main does what f asks: lists the points, runs a shard of them, merges the
// files of all shards, or (no flag) runs every point and merges them. Its
// errors do not name the study: the command that prints them does (expt.Main).
func (s *Sweep[R]) Main(f SweepFlags, w io.Writer) error {
	if err := f.Check(); err != nil {
		return err
	}
	if err := s.check(); err != nil {
		return err
	}
	switch {
	case f.List:
		s.List(w, f.Shard)
		return nil
	case f.Merge:
		if err := os.MkdirAll(s.Out, 0o755); err != nil {
			return fmt.Errorf("-o %s: %w", s.Out, err)
		}
		dirs := f.From
		if _, err := os.Stat(PointsDir(s.Out)); err == nil || len(f.From) == 0 {
			dirs = append([]string{PointsDir(s.Out)}, f.From...)
		}
		return s.MergeFolders(w, dirs...)
	case f.Shard.N > 0: // -shard K/N, 0/1 included: point files, no tables
		if err := s.refuseStale(); err != nil {
			return err
		}
		files, err := s.RunShard(f.Shard)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: shard %s wrote %d of %d points to %s; once every shard is done, build the tables with -merge\n",
			s.Study, f.Shard, len(files), len(s.Points), PointsDir(s.Out))
		return nil
	}
	if n, err := s.removeStale(); err != nil {
		return err
	} else if n > 0 {
		fmt.Fprintf(w, "%s: removed %s of an earlier run with other settings from %s\n", s.Study, Count(n, "point file", "point files"), PointsDir(s.Out))
	}
	files, err := s.RunShard(Shard{})
	if err != nil {
		return err
	}
	return s.mergeFiles(w, files)
}

// stale returns the point files in OUT/points that a merge of this run would
// refuse: this study's made with other settings (a file that does not parse
// may be a shard's being written, and is left to the merge), and apart, those
// of another study (foreign), which no run of this one may remove.
func (s *Sweep[R]) stale() (files []string, diff string, foreign []string, err error) {
	dir := PointsDir(s.Out)
	es, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, "", nil, nil
	} else if err != nil {
		return nil, "", nil, fmt.Errorf("-o %s: %w", s.Out, err)
	}
	for _, e := range es {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		b, err := inputs.ReadFile(path, inputs.PointFile)
		var pf pointFile
		if err != nil || json.Unmarshal(b, &pf) != nil {
			continue
		}
		switch {
		case pf.Study != s.Study:
			if len(foreign) == 0 {
				diff = "a point of the study " + inputs.Quote(pf.Study)
			}
			foreign = append(foreign, path)
		case !sameFingerprint(pf.Fingerprint, s.Fingerprint):
			files = append(files, path)
			diff = s.Fingerprint.diff(pf.Fingerprint)
		}
	}
	return files, diff, foreign, nil
}

// refuseForeign refuses an output folder holding another study's points.
func (s *Sweep[R]) refuseForeign(foreign []string, diff string) error {
	return fmt.Errorf("%s holds %s of another study (e.g. %s: %s): give this study its own -o",
		PointsDir(s.Out), Count(len(foreign), "point file", "point files"), filepath.Base(foreign[0]), diff)
}

// refuseStale refuses a shard whose output folder holds point files of
// another run, which the merge would refuse after every shard had run (other
// shards' files of this run are welcome: they may share the folder).
func (s *Sweep[R]) refuseStale() error {
	files, diff, foreign, err := s.stale()
	switch {
	case err != nil:
		return err
	case len(foreign) > 0:
		return s.refuseForeign(foreign, diff)
	case len(files) == 0:
		return nil
	}
	return fmt.Errorf("%s holds %s of another run (e.g. %s: %s): the merge would refuse them; remove them, or give the shards another -o",
		PointsDir(s.Out), Count(len(files), "point file", "point files"), filepath.Base(files[0]), diff)
}

// removeStale removes this study's point files made with other settings
// from a whole run's output folder, which the run owns (its tables are made
// from its own files; a later -merge would refuse the others), and returns
// how many; another study's points are refused, not removed.
func (s *Sweep[R]) removeStale() (int, error) {
	files, diff, foreign, err := s.stale()
	if err != nil {
		return 0, err
	}
	if len(foreign) > 0 {
		return 0, s.refuseForeign(foreign, diff)
	}
	for _, f := range files {
		if err := os.Remove(f); err != nil {
			return 0, err
		}
	}
	return len(files), nil
}

// check refuses a plan with an empty, unsafe or repeated point name.
func (s *Sweep[R]) check() error {
	seen := make(map[string]int, len(s.Points))
	for i, p := range s.Points {
		if p == "" || p != RunName(p) || p == "." || p == ".." {
			return fmt.Errorf("point %d has the name %q, not usable as a file name", i, p)
		}
		if j, ok := seen[p]; ok {
			return fmt.Errorf("points %d and %d are both named %q", j, i, p)
		}
		seen[p] = i
	}
	return nil
}

// List prints the index and name of each point of shard sh, one a line.
func (s *Sweep[R]) List(w io.Writer, sh Shard) {
	for i, p := range s.Points {
		if sh.Has(i) {
			fmt.Fprintf(w, "%d\t%s\n", i, p)
		}
	}
}

// pointFile is the content of one point file.
type pointFile struct {
	Study       string          `json:"study"`
	Point       string          `json:"point"`
	Index       int             `json:"index"`
	Points      int             `json:"points"`
	Fingerprint Fingerprint     `json:"fingerprint"`
	Result      json.RawMessage `json:"result"`
}

// RunShard runs the points of sh on Workers goroutines and writes each
// one's file as soon as it is done; it returns the files in plan order. The
// first error stops the points not yet started.
func (s *Sweep[R]) RunShard(sh Shard) ([]string, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	dir, err := outputs.Dir(s.Out, pointsFolder)
	if err != nil {
		return nil, fmt.Errorf("-o %s: %w", s.Out, err)
	}
	var todo []int
	for i := range s.Points {
		if sh.Has(i) {
			todo = append(todo, i)
		}
	}
	files := make([]string, len(todo))
	errs := make([]error, len(todo))
	s.Bar.Start(len(todo))
	var mu sync.Mutex
	failed, done := false, 0
	next := make(chan int)
	var wg sync.WaitGroup
	for k := 0; k < max(1, s.Workers); k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				i := todo[j]
				r, err := s.Run(i)
				if err == nil {
					files[j] = filepath.Join(dir, s.Points[i]+".json")
					err = s.write(files[j], i, r)
				}
				mu.Lock()
				if err != nil {
					errs[j], failed = fmt.Errorf("point %d (%s): %w", i, s.Points[i], err), true
				} else {
					done++
					if s.Done != nil {
						s.Done(done, len(todo), i, r)
					}
					s.Bar.Step(s.Points[i])
				}
				mu.Unlock()
			}
		}()
	}
	for j := range todo {
		mu.Lock()
		stop := failed
		mu.Unlock()
		if stop {
			break
		}
		next <- j
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		s.Bar.Clear() // the error is printed on a line of its own
		return nil, err
	}
	return files, nil
}

func (s *Sweep[R]) write(path string, i int, r R) error {
	res, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encoding the result: %w", err)
	}
	b, err := json.MarshalIndent(pointFile{Study: s.Study, Point: s.Points[i], Index: i, Points: len(s.Points),
		Fingerprint: s.Fingerprint, Result: res}, "", " ")
	if err != nil {
		return err
	}
	return outputs.WriteFile(path, append(b, '\n'))
}

// MergeFolders reads every *.json file of the folders as a point file and
// merges them: every point of the plan exactly once, all of this study and
// fingerprint. A folder may also be a shard's output folder: one holding a
// points folder stands for that (each folder is read once, however named).
func (s *Sweep[R]) MergeFolders(w io.Writer, dirs ...string) error {
	var files []string
	seen := map[string]bool{}
	for _, d := range dirs {
		if st, err := os.Stat(PointsDir(d)); err == nil && st.IsDir() {
			d = PointsDir(d)
		}
		if abs, err := filepath.Abs(d); err == nil {
			if seen[abs] {
				continue
			}
			seen[abs] = true
		}
		es, err := os.ReadDir(d)
		if err != nil {
			return fmt.Errorf("%s: reading the point files: %w (run the shards first)", d, err)
		}
		for _, e := range es {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
				files = append(files, filepath.Join(d, e.Name()))
			}
		}
	}
	return s.mergeFiles(w, files)
}

// mergeFiles decodes the files, checks that they are this plan's points
// exactly once each, and calls Merge with the results in plan order.
func (s *Sweep[R]) mergeFiles(w io.Writer, files []string) error {
	if err := s.check(); err != nil {
		return err
	}
	index := make(map[string]int, len(s.Points))
	for i, p := range s.Points {
		index[p] = i
	}
	rs := make([]R, len(s.Points))
	from := make([]string, len(s.Points))
	for _, path := range files {
		pf, err := s.read(path)
		if err != nil {
			return err
		}
		i, ok := index[pf.Point]
		if !ok {
			return fmt.Errorf("%s: point %s is not one of the %d points of this %s study (see -list; points of another plan?)",
				path, inputs.Quote(pf.Point), len(s.Points), s.Study)
		}
		if from[i] != "" {
			return fmt.Errorf("point %d (%s) is in two files: %s and %s; keep one", i, pf.Point, from[i], path)
		}
		d := json.NewDecoder(bytes.NewReader(pf.Result))
		d.DisallowUnknownFields()
		if err := d.Decode(&rs[i]); err != nil {
			return fmt.Errorf("%s: the result of point %s: %s", path, pf.Point, inputs.Clip(err.Error()))
		}
		from[i] = path
	}
	var missing []string
	n := 0
	for i, f := range from {
		if f == "" {
			n++
			if len(missing) < 8 {
				missing = append(missing, fmt.Sprintf("%d %s", i, s.Points[i]))
			}
		}
	}
	if n > 0 {
		more := ""
		if n > len(missing) {
			more = fmt.Sprintf(", and %d more", n-len(missing))
		}
		return fmt.Errorf("%d of %d points have no file (%s%s): run their shards (point i is in shard i%%N of N) and merge again",
			n, len(s.Points), strings.Join(missing, ", "), more)
	}
	return s.Merge(w, rs)
}

// read decodes a point file and checks its study and fingerprint.
func (s *Sweep[R]) read(path string) (*pointFile, error) {
	b, err := inputs.ReadFile(path, inputs.PointFile)
	if err != nil {
		return nil, err
	}
	var pf pointFile
	if err := json.Unmarshal(b, &pf); err != nil {
		return nil, fmt.Errorf("%s: not a point file: %s", path, inputs.Clip(err.Error()))
	}
	switch {
	case pf.Study != s.Study:
		return nil, fmt.Errorf("%s: a point of the study %s, not of %s", path, inputs.Quote(pf.Study), s.Study)
	case pf.Point == "" || pf.Result == nil:
		return nil, fmt.Errorf("%s: not a point file (no point name or result)", path)
	case !sameFingerprint(pf.Fingerprint, s.Fingerprint):
		return nil, fmt.Errorf("%s: point %s was run with other settings: %s; merge with the settings of the shards, or rerun them",
			path, pf.Point, s.Fingerprint.diff(pf.Fingerprint))
	}
	return &pf, nil
}

func sameFingerprint(a, b Fingerprint) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// ShardsMatch runs a study once in one process (in dir/single) and again as
// n shards and a merge (in dir/sharded), and reports the first difference
// between the two: in what the run and the merge print, or in any file of
// the output folders outside points/ and runs/ (tables, figures); the
// output folder's name is not a difference. run runs
// the study with output folder out and sweep flags f, printing to w. The
// check of the CI and of each study's test.
func ShardsMatch(dir string, n int, run func(out string, f SweepFlags, w io.Writer) error) error {
	single, sharded := filepath.Join(dir, "single"), filepath.Join(dir, "sharded")
	var want, got bytes.Buffer
	if err := run(single, SweepFlags{}, &want); err != nil {
		return fmt.Errorf("one process: %w", err)
	}
	for k := 0; k < n; k++ {
		if err := run(sharded, SweepFlags{Shard: Shard{K: k, N: n}}, io.Discard); err != nil {
			return fmt.Errorf("shard %d/%d: %w", k, n, err)
		}
	}
	if err := run(sharded, SweepFlags{Merge: true}, &got); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	// A study may print its output folder: each run's is OUT here.
	w, g := bytes.ReplaceAll(want.Bytes(), []byte(single), []byte("OUT")), bytes.ReplaceAll(got.Bytes(), []byte(sharded), []byte("OUT"))
	if !bytes.Equal(w, g) {
		return fmt.Errorf("the merge of %d shards prints\n%s\none process prints\n%s", n, g, w)
	}
	a, err := outputFiles(single)
	if err != nil {
		return err
	}
	b, err := outputFiles(sharded)
	if err != nil {
		return err
	}
	if len(a) == 0 {
		return fmt.Errorf("%s: no output files", single)
	}
	for name, data := range a {
		other, ok := b[name]
		switch {
		case !ok:
			return fmt.Errorf("%s: written by one process, not by the merge of %d shards", name, n)
		case !bytes.Equal(data, other):
			return fmt.Errorf("%s differs between one process and the merge of %d shards", name, n)
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			return fmt.Errorf("%s: written by the merge of %d shards, not by one process", name, n)
		}
	}
	return nil
}

// outputFiles reads every regular file under out except points/ and runs/.
func outputFiles(out string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(out, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, path)
		if d.IsDir() && (rel == "points" || rel == "runs") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files[rel] = b
		}
		return nil
	})
	return files, err
}
