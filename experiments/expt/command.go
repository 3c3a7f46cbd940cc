package expt

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gfxsim/gfxsim/internal/inputs"
	"github.com/gfxsim/gfxsim/internal/progress"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/tracing"
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
func (f StudyFlags) ParseCommand(name string, out *string, own func(fs *flag.FlagSet), args []string, getenv func(string) string, stderr *os.File) (progress.Printed, error) {
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

// SizeFlags registers a study's -width and -height into width and height:
// the size in pixels of what (a "frame", a "timed frame"), 0 meaning the
// study's own size, which zeroWidth and zeroHeight describe ("320, or 160
// with -quick"). A negative size or one above scene.MaxResolution is refused
// when parsed; StudyFlags.Parse refuses one of the two without the other.
func SizeFlags(fs *flag.FlagSet, width, height *int, what, zeroWidth, zeroHeight string) {
	fs.Var(sizeValue{width}, "width", fmt.Sprintf("%s width in pixels (0: %s; give -height too)", what, zeroWidth))
	fs.Var(sizeValue{height}, "height", fmt.Sprintf("%s height in pixels (0: %s; give -width too)", what, zeroHeight))
}

// sizeValue is a -width or -height of SizeFlags: pixels, 0 for the study's own.
type sizeValue struct{ p *int }

func (v sizeValue) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.Itoa(*v.p)
}

func (v sizeValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > scene.MaxResolution {
		return fmt.Errorf("want a size in pixels, at most %d (0: the study's own)", scene.MaxResolution)
	}
	*v.p = n
	return nil
}

// checkSize refuses a SizeFlags -width without -height or the reverse: the
// study would drop it and run at its own size.
func checkSize(fs *flag.FlagSet) error {
	w, h := fs.Lookup("width"), fs.Lookup("height")
	if w == nil || h == nil {
		return nil
	}
	if _, ok := w.Value.(sizeValue); !ok {
		return nil
	}
	if ws, hs := w.Value.String(), h.Value.String(); (ws == "0") != (hs == "0") {
		return fmt.Errorf("-width %s -height %s: give both (or neither, for the study's own size)", ws, hs)
	}
	return nil
}

// Common are the options every study shares; a study's Options embed them.
// Quick and Workers mean what the study's -quick and -workers say.
type Common struct {
	Out     string // output folder (-o, default out/<study>)
	Quick   bool   // a reduced run (for tests)
	Workers int    // points run at once (0: the study's default)
	// Printed is what the command line decided stderr gets: Log (the
	// progress lines), Summary (the closing line: wall time and outputs) and
	// Bar (a progress bar with an ETA on stderr); nil writers print nothing.
	progress.Printed
	// Instruments, when not nil, traces, samples and monitors the study's
	// timed runs (one folder per run under Out/runs).
	Instruments *tracing.Flags
	// Inputs, when not nil, sets the allowed folders and each load's memory
	// budget (-allow-path, -max-memory).
	Inputs *Inputs
	// Sweep lists the study's points, runs a shard of them or merges the
	// shards' files (-list, -shard, -merge).
	Sweep SweepFlags
}

// Help are the help texts of a study's -quick and -workers ("": the study
// has no such flag): what a reduced run does, what runs at once.
type Help struct {
	Quick, Workers string
}

// Parse parses the command line of the study called name into c and the
// study's own flags (own registers them): ParseCommand with c's parts, and
// -quick and -workers (default 2) as help says.
func (c *Common) Parse(name string, help Help, own func(fs *flag.FlagSet), args []string, getenv func(string) string, stderr *os.File) (err error) {
	sf := StudyFlags{Inputs: c.Inputs, Instruments: c.Instruments, Sweep: &c.Sweep}
	c.Printed, err = sf.ParseCommand(name, &c.Out, func(fs *flag.FlagSet) {
		if help.Quick != "" {
			fs.BoolVar(&c.Quick, "quick", false, help.Quick)
		}
		if help.Workers != "" {
			fs.IntVar(&c.Workers, "workers", 2, help.Workers)
		}
		own(fs)
	}, args, getenv, stderr)
	if err == nil && help.Workers != "" && c.Workers < 1 {
		err = fmt.Errorf("-workers %d: want at least 1", c.Workers)
	}
	return err
}

// ParseArgs parses args into fs. -h prints the flags on fs's output and exits
// with status 0, as flag.ExitOnError does; a bad flag returns its error and
// a pointer to -h, without the usage dump that flag prints (40 lines that
// hide the one that matters).
func ParseArgs(fs *flag.FlagSet, args []string) error {
	out, usage := fs.Output(), fs.Usage
	fs.Init(fs.Name(), flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var twice error
	restore := onlyOnce(fs, &twice)
	err := fs.Parse(args)
	restore()
	fs.SetOutput(out)
	fs.Usage = usage
	switch {
	case twice != nil:
		return twice
	case errors.Is(err, flag.ErrHelp):
		if usage != nil {
			usage()
		} else {
			fmt.Fprintf(out, "Usage of %s:\n", fs.Name())
			fs.PrintDefaults()
		}
		os.Exit(0)
	case err != nil:
		if m := badValue.FindStringSubmatch(err.Error()); m != nil {
			if f := fs.Lookup(m[2]); f != nil && wantOf(f) != "" {
				want := "want "
				if strings.HasSuffix(err.Error(), "value out of range") {
					want = "out of range for "
				}
				return fmt.Errorf("-%s %s: %s%s: %s", m[2], m[1], want, wantOf(f), f.Usage)
			}
		}
		return fmt.Errorf("%w (-h lists the flags)", err)
	}
	return nil
}

// onlyOnce makes every flag of fs whose usage does not say "repeatable" an
// error when given twice with different values (the flag package keeps the last value silently:
// -config a.yaml -config b.yaml would drop a.yaml). It returns the function
// that puts the flags' own values back, which the flag package's usage and
// wantOf inspect by type. The error of a flag given twice goes to *twice
// (the flag package would reword it as a bad value).
func onlyOnce(fs *flag.FlagSet, twice *error) (restore func()) {
	var wrapped []*flag.Flag
	var orig []flag.Value
	fs.VisitAll(func(f *flag.Flag) {
		if strings.Contains(f.Usage, "repeatable") {
			return
		}
		wrapped, orig = append(wrapped, f), append(orig, f.Value)
		o := &once{Value: f.Value, name: f.Name, twice: twice}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			f.Value = onceBool{o}
		} else {
			f.Value = o
		}
	})
	return func() {
		for i, f := range wrapped {
			f.Value = orig[i]
		}
	}
}

// once is a flag value that refuses a second Set.
type once struct {
	flag.Value
	name, first string
	set         bool
	twice       *error
}

func (o *once) Set(v string) error {
	if o.set && v != o.first {
		*o.twice = fmt.Errorf("-%s given twice (%s, then %s): it takes one value", o.name, inputs.Quote(o.first), inputs.Quote(v))
		return *o.twice
	}
	o.set, o.first = true, v
	return o.Value.Set(v)
}

// onceBool is once for a boolean flag (given as -name, without a value).
type onceBool struct{ *once }

func (onceBool) IsBoolFlag() bool { return true }

// badValue matches the flag package's error for a value its flag cannot
// parse: the value (quoted) and the flag's name.
var badValue = regexp.MustCompile(`^invalid value ("(?:[^"\\]|\\.)*") for flag -(\S+): `)

// wantOf says what kind of number flag f takes, from its type ("" for other
// flags, whose own parse errors say what they want).
func wantOf(f *flag.Flag) string {
	switch kind, _ := flag.UnquoteUsage(f); kind {
	case "uint":
		return "a whole number, 0 or more"
	case "int":
		return "a whole number"
	case "float":
		return "a number"
	case "duration":
		return "a duration such as 90s or 2m"
	default:
		return ""
	}
}

// Count returns n and the noun, singular for 1 ("1 worker", "2 workers");
// plural is the noun's plural form.
func Count(n int, singular, plural string) string {
	if n == 1 {
		return "1 " + singular
	}
	return strconv.Itoa(n) + " " + plural
}
