// Package progress is how long runs tell a person how far they are: a bar
// with the share done and an estimate of the time left, redrawn in place on a
// terminal. It is quiet (Enabled is false) with -q, in CI (the CI environment
// variable set), and when stderr is not a terminal, so that logs and CI output
// stay free of redrawn lines. ETA is the one estimate of the time left, used
// by the bar and by the simulation's progress lines (tracing.Progress).
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Enabled reports whether a bar is shown: not quiet, CI unset (getenv("CI")
// empty) and stderr a terminal.
func Enabled(quiet bool, getenv func(string) string, stderr *os.File) bool {
	return !quiet && getenv("CI") == "" && IsTerminal(stderr)
}

// IsTerminal reports whether f is a character device (a terminal).
func IsTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// ETA returns ", about D left" for done of total parts after elapsed, at the
// rate so far (parts differ in size: a rough guide), or "" when it cannot be
// estimated (nothing or everything done).
func ETA(done, total int, elapsed time.Duration) string {
	if done <= 0 || done >= total {
		return ""
	}
	left := time.Duration(float64(elapsed) * float64(total-done) / float64(done))
	return ", about " + Duration(left) + " left"
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

// Line is the text of a bar of width cells: "[#####.....] 3/40 12 s, about
// 2 min 28 s left  label".
func Line(done, total, width int, elapsed time.Duration, label string) string {
	filled := 0
	if total > 0 {
		filled = min(width, width*done/total)
	}
	s := fmt.Sprintf("[%s%s] %d/%d %s%s", strings.Repeat("#", filled), strings.Repeat(".", width-filled),
		done, total, Duration(elapsed), ETA(done, total, elapsed))
	if label != "" {
		s += "  " + label
	}
	return s
}

// Bar is a progress bar redrawn in place ("\r", erase line) on w. A nil *Bar
// does nothing, so callers need not test Enabled twice.
type Bar struct {
	mu    sync.Mutex
	w     io.Writer
	total int
	done  int
	start time.Time
	now   func() time.Time
}

// New returns a bar of total parts on w, or nil when on is false.
func New(w io.Writer, total int, on bool) *Bar {
	if !on {
		return nil
	}
	return &Bar{w: w, total: total, start: time.Now(), now: time.Now}
}

// Step counts one part done (label: what it was) and redraws the bar.
func (b *Bar) Step(label string) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done++
	fmt.Fprintf(b.w, "\r\x1b[K%s", Line(b.done, b.total, 30, b.now().Sub(b.start), label))
	if b.done >= b.total {
		fmt.Fprintln(b.w)
	}
}

// Clear erases the bar's line, so that a log line can be printed in its
// place (the next Step draws the bar again below it).
func (b *Bar) Clear() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done > 0 && b.done < b.total {
		fmt.Fprint(b.w, "\r\x1b[K")
	}
}
