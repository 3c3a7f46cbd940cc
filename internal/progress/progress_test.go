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
		took, since time.Duration // the last part done took after the start, since before now
		want        string
	}{
		{0, 10, time.Minute, 0, ""},
		{10, 10, time.Minute, 0, ""},
		{1, 4, 10 * time.Second, 0, ", about 30 s left"},
		{1, 4, 10 * time.Second, 5 * time.Second, ", about 25 s left"}, // 5 s of the rest spent
		{1, 4, 10 * time.Second, 40 * time.Second, ""},                 // the estimate spent
		{3, 40, 12 * time.Second, 0, ""},                               // 7.5%: below MinShare
		{4, 40, 12 * time.Second, 0, ", about 1 min 48 s left"},
		{100, 1000, 10 * time.Second, 0, ", about 1 min 30 s left"},
		{1, 1000, 10 * time.Second, 0, ""},
	}
	for _, tc := range tests {
		if got := ETA(tc.done, tc.total, tc.took, tc.since); got != tc.want {
			t.Errorf("ETA(%d, %d, %v, %v) = %q, want %q", tc.done, tc.total, tc.took, tc.since, got, tc.want)
		}
	}
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{{42 * time.Second, "42 s"}, {185 * time.Second, "3 min 05 s"}, {7620 * time.Second, "2 h 07 min"}} {
		if got := Duration(tc.d); got != tc.want {
			t.Errorf("Duration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestShare: the share done of parts weighed by weights (nil: equal), and
// the time left at that rate.
func TestShare(t *testing.T) {
	for _, tc := range []struct {
		done, total int
		weights     []float64
		want        float64
		eta         string // after 9 s
	}{
		{3, 12, nil, 0.25, ", about 27 s left"},
		{0, 12, nil, 0, ""},
		{12, 12, nil, 1, ""},
		{1, 3, []float64{3, 1, 0}, 0.75, ", about 3 s left"},
		{2, 3, []float64{3, 1, 0}, 1, ""}, // the last part weighs nothing: no estimate
		{1, 2, []float64{0, 0}, 0, ""},
	} {
		got := Share(tc.done, tc.total, tc.weights)
		if got != tc.want {
			t.Errorf("Share(%d, %d, %v) = %v, want %v", tc.done, tc.total, tc.weights, got, tc.want)
		}
		if eta := ETAShare(got, 9*time.Second, 0); eta != tc.eta {
			t.Errorf("ETAShare(%v, 9 s) = %q, want %q", got, eta, tc.eta)
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

// TestBarWeighs: weighed parts fill the bar, and estimate the time left, by
// weight; time spent on the rest after the last part done comes off the
// estimate.
func TestBarWeighs(t *testing.T) {
	for _, tc := range []struct {
		weights []float64
		later   time.Duration // a redraw this long after the part was done (0: none)
		want    string
	}{
		{[]float64{3, 1, 0}, 0, "\r\x1b[K[######################........] 1/3 4 s, about 1 s left  c"},
		// A quarter took 4 s, the rest 12 s, of which 3 have passed.
		{[]float64{1, 3, 0}, 3 * time.Second, "\r\x1b[K[#######.......................] 1/3 4 s, about 12 s left  c" +
			"\r\x1b[K[#######.......................] 1/3 7 s, about 9 s left  c"},
	} {
		var out bytes.Buffer
		b := New(&out, 0, true)
		t0 := b.start
		b.now = func() time.Time { return t0.Add(4 * time.Second) }
		b.Start(3) // the clock from t0 + 4 s
		b.now = func() time.Time { return t0.Add(8 * time.Second) }
		b.Weigh(tc.weights)
		b.Set(1, "c")
		if tc.later > 0 {
			b.now = func() time.Time { return t0.Add(8*time.Second + tc.later) }
			b.Set(1, "c") // redrawn, no part done
		}
		if out.String() != tc.want {
			t.Errorf("weights %v:\ngot  %q\nwant %q", tc.weights, out.String(), tc.want)
		}
	}
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
	// A character device stands for a terminal (IsTerminal looks no further);
	// a dumb one (TERM=dumb) gets no bar.
	dev, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	dumb := func(k string) string {
		if k == "TERM" {
			return "dumb"
		}
		return ""
	}
	if !Enabled(false, noCI, dev) || Enabled(false, dumb, dev) {
		t.Error("on a character device: want enabled unless TERM=dumb")
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !Enabled(false, noCI, tty) || Enabled(true, noCI, tty) || Enabled(false, ci, tty) {
			t.Error("on a terminal: want enabled only without -q and CI")
		}
	}
}

// A log line through the bar's writer erases the bar and draws it again below;
// Set jumps to a count; after the last part nothing more is drawn until Start.
func TestBarWriterSetStart(t *testing.T) {
	var out bytes.Buffer
	b := New(&out, 4, true)
	t0 := b.start
	b.now = func() time.Time { return t0.Add(2 * time.Second) }
	log := b.Writer(&out)
	log.Write([]byte("before\n")) // no bar yet: the line alone
	b.Set(2, "draws")
	log.Write([]byte("line\n"))
	b.Set(4, "done")
	b.Set(4, "again") // finished: nothing
	log.Write([]byte("after\n"))
	b.Start(1)
	b.Step("x")
	bar := "[###############...............] 2/4 2 s, about 2 s left  draws"
	want := "before\n" +
		"\r\x1b[K" + bar +
		"\r\x1b[Kline\n" + bar +
		"\r\x1b[K[##############################] 4/4 2 s  done\n" +
		"after\n" +
		"\r\x1b[K[##############################] 1/1 0 s  x\n"
	if out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
	var off *Bar
	if off.Writer(&out) != &out || b.Writer(nil) != nil {
		t.Error("a nil bar's writer is not w, or a nil w's is not nil")
	}
}

// What -q, -v and CI print, with stderr a file (not a terminal): the log lines
// unless -q, in CI only with -v; never the bar.
func TestFlagsLogRules(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env := func(ci string) func(string) string {
		return func(k string) string {
			if k == "CI" {
				return ci
			}
			return ""
		}
	}
	for _, tc := range []struct {
		fl  Flags
		ci  string
		log bool
	}{
		{Flags{}, "", true},
		{Flags{Quiet: true}, "", false},
		{Flags{}, "1", false},
		{Flags{Verbose: true}, "1", true},
		{Flags{Verbose: true}, "", true},
	} {
		if got := tc.fl.Log(env(tc.ci), f) != nil; got != tc.log {
			t.Errorf("%+v CI=%q: log lines %v, want %v", tc.fl, tc.ci, got, tc.log)
		}
		if tc.fl.Bar(env(tc.ci), f) {
			t.Errorf("%+v CI=%q: a bar on a file", tc.fl, tc.ci)
		}
	}
	if (Flags{}).Summary(f) == nil || (Flags{Quiet: true}).Summary(f) != nil {
		t.Error("the summary is not printed without -q, or printed with -q")
	}
	if (Flags{}).Log(env(""), nil) != nil {
		t.Error("a nil stderr gives a writer")
	}
	if err := (Flags{Quiet: true, Verbose: true}).Check(); err == nil || (Flags{Verbose: true}).Check() != nil {
		t.Error("-q -v not refused, or -v refused")
	}
}
