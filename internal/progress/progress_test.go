package progress

import (
	"bytes"
	"os"
	"testing"
	"time"
)

func TestETAAndDuration(t *testing.T) {
	tests := []struct {
		done, total int
		elapsed     time.Duration
		want        string
	}{
		{0, 10, time.Minute, ""},
		{10, 10, time.Minute, ""},
		{1, 4, 10 * time.Second, ", about 30 s left"},
		{3, 40, 12 * time.Second, ", about 2 min 28 s left"},
		{1, 1000, 10 * time.Second, ", about 2 h 46 min left"},
	}
	for _, tc := range tests {
		if got := ETA(tc.done, tc.total, tc.elapsed); got != tc.want {
			t.Errorf("ETA(%d, %d, %v) = %q, want %q", tc.done, tc.total, tc.elapsed, got, tc.want)
		}
	}
}

func TestLine(t *testing.T) {
	if got, want := Line(3, 12, 8, 9*time.Second, "ZMASK room"), "[##......] 3/12 9 s, about 27 s left  ZMASK room"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got, want := Line(5, 5, 4, 61*time.Second, ""), "[####] 5/5 1 min 01 s"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestBarRedrawsInPlace(t *testing.T) {
	var out bytes.Buffer
	b := New(&out, 2, true)
	t0 := b.start
	b.now = func() time.Time { return t0.Add(4 * time.Second) }
	b.Clear() // nothing drawn yet: nothing to clear
	b.Step("a")
	b.Clear()
	out.WriteString("a log line\n")
	b.Step("b")
	want := "\r\x1b[K[###############...............] 1/2 4 s, about 4 s left  a" +
		"\r\x1b[Ka log line\n" +
		"\r\x1b[K[##############################] 2/2 4 s  b\n"
	if out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
	var off *Bar = New(&out, 2, false)
	off.Step("c") // a quiet bar does nothing
	off.Clear()
}

// Quiet with -q, with CI set, and when stderr is not a terminal (a file
// here); a terminal is not checked (tests have none).
func TestEnabledQuietRules(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	noCI := func(string) string { return "" }
	ci := func(k string) string {
		if k == "CI" {
			return "true"
		}
		return ""
	}
	if IsTerminal(f) || IsTerminal(nil) {
		t.Error("a file or nil is a terminal")
	}
	for _, tc := range []struct {
		quiet  bool
		getenv func(string) string
	}{{false, noCI}, {true, noCI}, {false, ci}, {true, ci}} {
		if Enabled(tc.quiet, tc.getenv, f) {
			t.Errorf("enabled with quiet %v, CI %q, stderr a file", tc.quiet, tc.getenv("CI"))
		}
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !Enabled(false, noCI, tty) || Enabled(true, noCI, tty) || Enabled(false, ci, tty) {
			t.Error("on a terminal: want enabled only without -q and CI")
		}
	}
}
