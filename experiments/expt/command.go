package expt

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gfxsim/gfxsim/internal/progress"
)

// Main is a study's main: it parses the command line (parse, from os.Args,
// the environment and stderr) and runs the study on stdout. Errors go to
// stderr prefixed with the command's name; the exit status is 2 for a bad
// command line, 1 for a failed run.
func Main[O any](name string, parse func(args []string, getenv func(string) string, stderr *os.File) (O, error), run func(O, io.Writer) error) {
	o, err := parse(os.Args[1:], os.Getenv, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(2)
	}
	if err := run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}

// ParseCommand parses the command line of the study called name: a flag set
// with -o (into out, default out/<name>), the study's own flags (own
// registers them) and f's shared flags, then Parse. It returns what stderr
// gets.
func (f *StudyFlags) ParseCommand(name string, out *string, own func(fs *flag.FlagSet), args []string, getenv func(string) string, stderr *os.File) (progress.Printed, error) {
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	fs.StringVar(out, "o", "out/"+name, "output folder")
	own(fs)
	f.Register(fs)
	err := f.Parse(fs, args, getenv, stderr)
	return f.Printed, err
}

// PrintWallTime prints a study's closing line on p.Summary: the wall time
// since start and the output folder out; nothing when the run only listed
// its points (list) or there is no summary.
func PrintWallTime(p progress.Printed, list bool, start time.Time, out string) {
	if p.Summary != nil && !list {
		fmt.Fprintf(p.Summary, "wall time %.0f s; outputs in %s\n", time.Since(start).Seconds(), out)
	}
}
