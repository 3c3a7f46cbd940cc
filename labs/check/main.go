package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	err := run(os.Args[1:], os.Stdout)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "check:", err)
		os.Exit(1)
	}
}

func run(argv []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	full := fs.Bool("full", false, "run the labs' full settings (the commands their READMEs give) instead of the small ones")
	keep := fs.String("keep", "", "write the outputs to this folder and keep them (default: a temporary folder, removed)")
	list := fs.Bool("list", false, "print the labs and their commands (with -instructor, their expectations), run nothing")
	instructor := fs.Bool("instructor", false, "print each expectation: the relation, its values and its teaching point "+
		"(they give away the direction of a lab's answers: for instructors, not students)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: go run ./labs/check [-full] [-keep DIR] [-instructor] LAB... | all, or -list [-instructor]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(argv); err != nil {
		return err
	}
	root, err := findRoot()
	if err != nil {
		return err
	}
	labs, err := LoadLabs(root)
	if err != nil {
		return err
	}
	if *list {
		listLabs(stdout, labs, *instructor)
		return nil
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return fmt.Errorf("name a lab or all")
	}
	selected, err := Select(labs, fs.Args())
	if err != nil {
		return err
	}
	return checkLabs(root, selected, *full, *keep, *instructor, stdout)
}

// listLabs prints each lab's title and its full commands, and its expectations
// (the relation, at which settings it is checked, and why) for an instructor,
// only their number otherwise: they give away the direction of the lab's
// answers.
func listLabs(w io.Writer, labs []Lab, instructor bool) {
	for _, l := range labs {
		fmt.Fprintf(w, "%s: %s\n", l.Dir, l.Title)
		for _, c := range l.Commands {
			fmt.Fprintf(w, "  %s\n", c.ReadmeCommand(l.Dir))
		}
		if !instructor {
			fmt.Fprintf(w, "  %s (-instructor shows them)\n", expectationCount(len(l.Expect)))
			continue
		}
		for _, e := range l.Expect {
			at := e.At
			if at == "" {
				at = "both"
			}
			fmt.Fprintf(w, "  expect (%s): %s\n    why: %s\n", at, strings.Join(strings.Fields(e.That), " "), e.Why)
		}
	}
}

// checkLabs builds the binaries and runs the selected labs (every one of them, also after a
// failure); instructor logs every expectation that holds with its values.
func checkLabs(root string, labs []Lab, full bool, keep string, instructor bool, log io.Writer) error {
	tmp, err := os.MkdirTemp("", "labcheck-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "out")
	if keep != "" {
		if out, err = filepath.Abs(keep); err != nil {
			return err
		}
	}
	bin := filepath.Join(tmp, "bin")
	start := time.Now()
	if err := Build(root, bin, labs); err != nil {
		return err
	}
	fmt.Fprintf(log, "built the binaries in %.1f s\n", time.Since(start).Seconds())
	r := Runner{Root: root, Bin: bin, Out: out, Full: full, Log: log, Instructor: instructor}
	return runLabs(r, labs, start, log)
}

// runLabs runs every lab with r and returns the errors of those that failed, so that one
// broken lab does not hide the state of the labs after it.
func runLabs(r Runner, labs []Lab, start time.Time, log io.Writer) error {
	var errs []error
	for _, l := range labs {
		d, held, err := r.RunLab(l)
		if err != nil {
			fmt.Fprintf(log, "%s: FAILED (%.1f s)\n", l.Dir, d.Seconds())
			errs = append(errs, err)
			continue
		}
		fmt.Fprintf(log, "%s: ok (%s held, %.1f s)\n", l.Dir, expectationCount(held), d.Seconds())
	}
	if len(errs) > 0 {
		fmt.Fprintf(log, "%d of %s failed in %.1f s\n", len(errs), labCount(len(labs)), time.Since(start).Seconds())
		return errors.Join(errs...)
	}
	fmt.Fprintf(log, "%s ok in %.1f s\n", labCount(len(labs)), time.Since(start).Seconds())
	return nil
}

// labCount is "11 labs", or "1 lab" when one lab was checked. (The checker
// stays apart from the experiments' packages, whose binaries it runs.)
func labCount(n int) string {
	if n == 1 {
		return "1 lab"
	}
	return fmt.Sprintf("%d labs", n)
}

// expectationCount is "3 expectations", or "1 expectation".
func expectationCount(n int) string {
	if n == 1 {
		return "1 expectation"
	}
	return fmt.Sprintf("%d expectations", n)
}

// findRoot walks up from the working folder to the one holding go.mod and labs/.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if isFile(filepath.Join(dir, "go.mod")) && isDir(filepath.Join(dir, "labs")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no repository root (go.mod beside labs/) above the working folder")
		}
		dir = parent
	}
}

func isFile(p string) bool { st, err := os.Stat(p); return err == nil && st.Mode().IsRegular() }
func isDir(p string) bool  { st, err := os.Stat(p); return err == nil && st.IsDir() }
