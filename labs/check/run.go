package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Runner runs labs' commands with binaries built once.
type Runner struct {
	Root string // repository root: the commands run here
	Bin  string // folder of the built experiment binaries
	Out  string // output folder: OUT/<lab>/<command>
	Full bool   // full settings instead of small
	Log  io.Writer
	// Instructor logs every expectation that holds with its values and why
	// (the direction of the lab's answers); otherwise only failures say them.
	Instructor bool
}

// Build compiles the experiment binaries the labs need into bin with one go build.
func Build(root, bin string, labs []Lab) error {
	need := map[string]bool{}
	for _, l := range labs {
		for _, c := range l.Commands {
			need[c.Program] = true
		}
	}
	args := []string{"build", "-o", bin + string(filepath.Separator)}
	for _, p := range sortedKeys(need) {
		args = append(args, "./experiments/"+p)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// RunLab runs every command of a lab and checks its outputs, then its expectations; it
// returns the wall time and how many expectations held.
func (r Runner) RunLab(lab Lab) (time.Duration, int, error) {
	start := time.Now()
	for _, c := range lab.Commands {
		if err := r.runCommand(lab, c); err != nil {
			return time.Since(start), 0, err
		}
	}
	log := r.Log
	if !r.Instructor {
		log = nil
	}
	held, err := CheckExpectations(filepath.Join(r.Out, lab.Dir), lab, r.Full, log)
	return time.Since(start), held, err
}

// CheckExpectations evaluates the lab's expectations that apply at the settings on the
// outputs of its commands under dir (dir/<command>/). It logs each relation that holds
// with its values to log (nil: none), and returns how many held and an error naming every
// one that does not hold or cannot be evaluated.
func CheckExpectations(dir string, lab Lab, full bool, log io.Writer) (int, error) {
	src := newFolder(dir)
	var errs []error
	held := 0
	for _, e := range lab.Expect {
		if !e.Applies(full) {
			continue
		}
		where := fmt.Sprintf("lab %s, expectation at lab.yaml line %d (%s)", lab.Dir, e.Line, e.Why)
		o, err := e.rel.Evaluate(src)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("%s: %s: %w", where, e.That, err))
		case !o.Holds:
			errs = append(errs, fmt.Errorf("%s: %s does not hold: %s", where, e.That, o))
		default:
			held++
			if log != nil {
				fmt.Fprintf(log, "  %s/expect line %d: %s %s %s: %s\n", lab.Dir, e.Line, formatValue(o.Left), e.rel.Op, formatValue(o.Right), e.Why)
			}
		}
	}
	return held, errors.Join(errs...)
}

func (r Runner) runCommand(lab Lab, c Command) error {
	out := filepath.Join(r.Out, lab.Dir, c.Name)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	args := append(c.Args(r.Full), "-q", "-o", out)
	shown := fmt.Sprintf("%s %s", c.Program, strings.Join(c.Args(r.Full), " "))
	cmd := exec.Command(filepath.Join(r.Bin, c.Program), args...)
	cmd.Dir = r.Root
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	start := time.Now()
	err := cmd.Run()
	if r.Log != nil {
		fmt.Fprintf(r.Log, "  %s/%s: %.1f s\n", lab.Dir, c.Name, time.Since(start).Seconds())
	}
	if err != nil {
		return fmt.Errorf("lab %s, command %s (%s): %v\n%s", lab.Dir, c.Name, shown, err, tail(output.String(), 20))
	}
	if err := Verify(out, c.Want(r.Full)); err != nil {
		return fmt.Errorf("lab %s, command %s (%s): %w", lab.Dir, c.Name, shown, err)
	}
	return nil
}

// Verify checks the outputs a command declares in its output folder dir.
func Verify(dir string, want Outputs) error {
	var errs []error
	for _, pattern := range want.Files {
		if _, err := match(dir, pattern); err != nil {
			errs = append(errs, err)
		}
	}
	for _, pattern := range want.JSON {
		files, err := match(dir, pattern)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, f := range files {
			if err := parseJSON(f); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", rel(dir, f), err))
			}
		}
	}
	for _, s := range want.Stats {
		errs = append(errs, checkStats(dir, s))
	}
	for _, c := range want.CSV {
		errs = append(errs, checkCSV(dir, c))
	}
	return errors.Join(errs...)
}

func match(dir, pattern string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		return nil, fmt.Errorf("%s: bad pattern: %w", pattern, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: missing output (no file matches)", pattern)
	}
	return files, nil
}

func parseJSON(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("not valid JSON: %w", err)
	}
	return nil
}

// readStats reads the JSON object of statistics at dir/name.
func readStats(dir, name string) (map[string]any, error) {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return nil, fmt.Errorf("%s: missing output: %w", name, err)
	}
	var stats map[string]any
	if err := json.Unmarshal(data, &stats); err != nil {
		return nil, fmt.Errorf("%s: not a JSON object of statistics: %w", name, err)
	}
	return stats, nil
}

// readCSV reads the CSV file at dir/name, which must have a header.
func readCSV(dir, name string) ([][]string, error) {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return nil, fmt.Errorf("%s: missing output: %w", name, err)
	}
	defer f.Close()
	records, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: not a CSV file: %w", name, err)
	}
	if len(records) == 0 {
		return nil, fmt.Errorf("%s: empty (no header)", name)
	}
	return records, nil
}

func checkStats(dir string, s StatsCheck) error {
	stats, err := readStats(dir, s.File)
	if err != nil {
		return err
	}
	var errs []error
	for _, k := range s.Keys {
		v, ok := stats[k]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: missing statistic %s", s.File, k))
			continue
		}
		f, ok := v.(float64)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			errs = append(errs, fmt.Errorf("%s: statistic %s is %v, not a finite number", s.File, k, v))
		}
	}
	return errors.Join(errs...)
}

func checkCSV(dir string, c CSVCheck) error {
	records, err := readCSV(dir, c.File)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, h := range records[0] {
		have[h] = true
	}
	var errs []error
	for _, col := range c.Columns {
		if !have[col] {
			errs = append(errs, fmt.Errorf("%s: missing column %q", c.File, col))
		}
	}
	if len(records) < 2 {
		errs = append(errs, fmt.Errorf("%s: no rows after the header", c.File))
	}
	return errors.Join(errs...)
}

func rel(dir, path string) string {
	if r, err := filepath.Rel(dir, path); err == nil {
		return r
	}
	return path
}

func tail(s string, lines int) string {
	parts := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(parts) > lines {
		parts = parts[len(parts)-lines:]
	}
	return strings.Join(parts, "\n")
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
