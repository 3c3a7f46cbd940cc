// Package progress is how long runs tell a person how far they are: a bar
// with the share done and an estimate of the time left, redrawn in place on a
// terminal. It is quiet (Enabled is false) with -q, in CI (the CI environment
// variable set), and when stderr is not a terminal, so that logs and CI output
// stay free of redrawn lines. ETA is the one estimate of the time left, used
// by the bar and by the simulation's progress lines (tracing.Progress).
//
// Flags (-q, -v) are every long-running binary's choice of what it prints on
// stderr: the bar on a terminal; the log lines (a line per point of a study,
// a simulation's progress every few seconds, long loads) unless -q, and in CI
// only with -v; errors and the final summary always. Printed is what a parsed
// command line decided stderr gets; a binary's options embed it.
package progress

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Enabled reports whether a bar is shown: not quiet, CI unset (getenv("CI")
// empty), stderr a terminal and not a dumb one (TERM=dumb: no cursor
// control, so the bar's escape codes would print as text).
func Enabled(quiet bool, getenv func(string) string, stderr *os.File) bool {
	return !quiet && getenv("CI") == "" && getenv("TERM") != "dumb" && IsTerminal(stderr)
}

// IsTerminal reports whether f is a character device (a terminal).
func IsTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// MinShare is the least share of the work done from which the time left is
// estimated: before it, the first parts' sizes decide the rate. (Sibenik's
// first two draws are 3% of its draws' estimated work and took a second; at
// that share the estimate said 3 minutes for the 4 seconds that followed.)
const MinShare = 0.1

// ETA returns ", about D left" for done of total parts, the last of which was
// done took after the start, since before now (see ETAShare), or "".
func ETA(done, total int, took, since time.Duration) string {
	if done <= 0 || done >= total {
		return ""
	}
	return ETAShare(float64(done)/float64(total), took, since)
}

// ETAShare returns ", about D left" when share of the work was done took after
// the start and since more has passed: the time left is the rate up to share
// applied to the rest, less the time since (spent on the rest already). It is
// "" when that cannot be estimated: less than MinShare done, all of it, or the
// estimate spent already.
func ETAShare(share float64, took, since time.Duration) string {
	if !(share >= MinShare && share < 1) {
		return ""
	}
	left := time.Duration(float64(took)*(1-share)/share) - since
	if left <= 0 {
		return ""
	}
	return ", about " + Duration(left) + " left"
}

// Share returns the share of the work done when done of len(weights) parts
// are, the first done parts, each weighing its entry of weights (nil: equal
// parts of total). It is 0 when no part weighs anything.
func Share(done, total int, weights []float64) float64 {
	if weights == nil {
		if total <= 0 {
			return 0
		}
		return float64(min(max(done, 0), total)) / float64(total)
	}
	sum, got := 0.0, 0.0
	for i, w := range weights {
		sum += w
		if i < done {
			got += w
		}
	}
	if !(sum > 0) {
		return 0
	}
	return got / sum
}

// Duration prints d as "42 s", "3 min 05 s" or "2 h 07 min".
func Duration(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s < 3600:
		return fmt.Sprintf("%d min %02d s", s/60, s%60)
	}
	return fmt.Sprintf("%d h %02d min", s/3600, s/60%60)
}

// Line is the text of a bar of width cells, the last part done just now:
// "[#####.....] 4/40 12 s, about 1 min 48 s left  label".
func Line(done, total, width int, elapsed time.Duration, label string) string {
	return line(done, total, Share(done, total, nil), width, elapsed, elapsed, label)
}

// line is Line with the bar filled, and the time left estimated, by share of
// the work done, which was done took after the start.
func line(done, total int, share float64, width int, elapsed, took time.Duration, label string) string {
	filled := min(width, int(float64(width)*share+1e-9)) // (1e-9: 30 x 0.7 fills 21 cells, as 30*7/10)
	s := fmt.Sprintf("[%s%s] %d/%d %s%s", strings.Repeat("#", filled), strings.Repeat(".", width-filled),
		done, total, Duration(elapsed), ETAShare(share, took, elapsed-took))
	if label != "" {
		s += "  " + label
	}
	return s
}

// Flags are -q and -v: what a binary prints on stderr.
type Flags struct {
	Quiet   bool // -q: no bar and no log lines
	Verbose bool // -v: the log lines in CI too
}

// Register adds -q and -v to fs.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.BoolVar(&f.Quiet, "q", false, "quiet: no progress bar and no progress lines on stderr (errors and the summary are still printed)")
	fs.BoolVar(&f.Verbose, "v", false, "print the progress lines on stderr in CI too (CI set: quiet except errors and the summary, unless -v)")
}

// Check refuses -q with -v.
func (f Flags) Check() error {
	if f.Quiet && f.Verbose {
		return errors.New("-q and -v: -q prints no progress, -v asks for it in CI; give one")
	}
	return nil
}

// Log returns stderr when log lines are printed (not -q, and CI unset or
// -v), nil otherwise.
func (f Flags) Log(getenv func(string) string, stderr *os.File) io.Writer {
	if f.Quiet || stderr == nil || (getenv("CI") != "" && !f.Verbose) {
		return nil
	}
	return stderr
}

// Summary returns stderr for a run's closing lines (wall time, where the
// outputs are), nil with -q.
func (f Flags) Summary(stderr *os.File) io.Writer {
	if f.Quiet || stderr == nil {
		return nil
	}
	return stderr
}

// Bar reports whether a bar is drawn on stderr (Enabled).
func (f Flags) Bar(getenv func(string) string, stderr *os.File) bool {
	return Enabled(f.Quiet, getenv, stderr)
}

// Bar is a progress bar redrawn in place ("\r", erase line) on w. A nil *Bar
// does nothing, so callers need not test Enabled twice. It is drawn while
// some but not all of its parts are done.
type Bar struct {
	mu      sync.Mutex
	w       io.Writer
	total   int
	done    int
	weights []float64 // the parts' sizes (nil: equal)
	label   string
	start   time.Time
	doneAt  time.Time // when the last part was done (start: none yet)
	now     func() time.Time
}

// New returns a bar of total parts on w, or nil when on is false.
func New(w io.Writer, total int, on bool) *Bar {
	if !on {
		return nil
	}
	now := time.Now()
	return &Bar{w: w, total: total, start: now, doneAt: now, now: time.Now}
}

// Start starts the bar over again: total parts, none done, the clock from
// now.
func (b *Bar) Start(total int) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total, b.done, b.weights, b.label, b.start = total, 0, nil, "", b.now()
	b.doneAt = b.start
}

// Weigh gives the parts their sizes (weights, one per part; nil: equal): the
// bar fills, and estimates the time left, by the share of their sum done.
func (b *Bar) Weigh(weights []float64) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.weights = weights
}

// text is the bar's line.
func (b *Bar) text() string {
	return line(b.done, b.total, Share(b.done, b.total, b.weights), 30, b.now().Sub(b.start), b.doneAt.Sub(b.start), b.label)
}

// Step counts one part done (label: what it was) and redraws the bar.
func (b *Bar) Step(label string) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.set(b.done+1, label)
}

// Set sets the parts done (label: what is going on) and redraws the bar.
func (b *Bar) Set(done int, label string) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.set(done, label)
}

func (b *Bar) set(done int, label string) {
	finished := b.done >= b.total && b.total > 0
	if done != b.done {
		b.doneAt = b.now()
	}
	b.done, b.label = done, label
	if finished {
		return // the bar's last line is already out
	}
	fmt.Fprintf(b.w, "\r\x1b[K%s", b.text())
	if b.done >= b.total {
		fmt.Fprintln(b.w)
	}
}

// drawn reports whether the bar's line is on the terminal.
func (b *Bar) drawn() bool { return b.done > 0 && b.done < b.total }

// Writer returns a writer of log lines to w that erases the bar before each
// write and draws it again below the line; w itself for a nil bar, nil for a
// nil w.
func (b *Bar) Writer(w io.Writer) io.Writer {
	if b == nil || w == nil {
		return w
	}
	return barWriter{b, w}
}

type barWriter struct {
	b *Bar
	w io.Writer
}

func (bw barWriter) Write(p []byte) (int, error) {
	b := bw.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drawn() {
		fmt.Fprint(b.w, "\r\x1b[K")
	}
	n, err := bw.w.Write(p)
	if b.drawn() {
		fmt.Fprint(b.w, b.text())
	}
	return n, err
}

// Clear erases the bar's line, so that a log line can be printed in its
// place (the next Step draws the bar again below it).
func (b *Bar) Clear() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drawn() {
		fmt.Fprint(b.w, "\r\x1b[K")
	}
}
