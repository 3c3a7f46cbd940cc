package expt

import (
	"flag"
	"fmt"
	"os"

	"github.com/gfxsim/gfxsim/internal/progress"
	"github.com/gfxsim/gfxsim/tracing"
)

// StudyFlags are the flags every study's command line shares, registered and
// checked in one place: the progress flags (-q, -v), and those of the parts a
// study sets before Register: its input limits (-max-memory, -allow-path),
// its tracing instruments (-trace, ...) and its sweep flags (-list, -shard,
// -merge, -from). After Parse, the embedded Printed says what stderr gets
// (progress.Flags): Log, Summary, Bar, and Every (the instruments' progress
// interval; -1 without instruments).
type StudyFlags struct {
	Progress    progress.Flags
	Inputs      *Inputs        // nil: the study reads no scene files
	Instruments *tracing.Flags // nil: the study records no traces
	Sweep       *SweepFlags    // nil: the study is not a sweep

	progress.Printed
}

// Register adds the flags of f's parts to fs.
func (f *StudyFlags) Register(fs *flag.FlagSet) {
	f.Progress.Register(fs)
	if f.Instruments != nil {
		f.Instruments.Register(fs)
	}
	if f.Inputs != nil {
		f.Inputs.Register(fs)
	}
	if f.Sweep != nil {
		f.Sweep.Register(fs)
	}
}

// Parse parses args into fs, refuses positional arguments, checks every
// part's flags (and SizeFlags' -width and -height, and instruments with
// -list or -merge, which run no simulation), and decides what stderr gets from -q, -v, CI (getenv) and
// whether stderr is a terminal. Without a log the instruments print no
// progress lines either.
func (f *StudyFlags) Parse(fs *flag.FlagSet, args []string, getenv func(string) string, stderr *os.File) error {
	if err := ParseArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	checks := []func() error{func() error { return checkSize(fs) }}
	if f.Sweep != nil {
		checks = append(checks, f.Sweep.Check)
	}
	if f.Instruments != nil {
		checks = append(checks, f.Instruments.Check, f.runsNothing)
	}
	checks = append(checks, f.Progress.Check)
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	f.Log = f.Progress.Log(getenv, stderr)
	if f.Log == nil && f.Instruments != nil {
		f.Instruments.ProgressEvery = 0
	}
	f.Summary = f.Progress.Summary(stderr)
	f.Bar = f.Progress.Bar(getenv, stderr)
	f.Every = -1
	if f.Instruments != nil {
		f.Every = f.Instruments.ProgressEvery
	}
	return nil
}

// runsNothing refuses an instrument with -list or -merge: neither runs a
// simulation to trace, sample or monitor.
func (f *StudyFlags) runsNothing() error {
	in := f.Instruments.Requested()
	if f.Sweep == nil || in == "" {
		return nil
	}
	for _, m := range []struct {
		on   bool
		name string
	}{{f.Sweep.List, "-list"}, {f.Sweep.Merge, "-merge"}} {
		if m.on {
			return fmt.Errorf("%s with %s: %s runs no simulation to trace, sample or monitor; drop %s", in, m.name, m.name, in)
		}
	}
	return nil
}
