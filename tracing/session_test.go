package tracing

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/scene"
)

// sessionRun renders the room at 64x36 on the default machine, instrumented by
// sess as the run called name.
func sessionRun(t *testing.T, sess *Session, name string) {
	t.Helper()
	p, f := buildFrame(t, scene.DefaultName, 64, 36, 1, nil)
	in, err := sess.Attach(p, f.Draws, name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(f); err != nil {
		t.Fatal(err)
	}
	if err := in.Close(p.Engine.CurrentTime()); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// A sweep's runs get folders of their own under OUT/runs, and -instrument-runs
// selects which runs are traced and sampled; every run reports progress under
// its name.
func TestSessionRunsFolders(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	f := Flags{Trace: true, MetricsInterval: 2000, Runs: "^ZMASK-", ProgressEvery: time.Nanosecond}
	sess := f.NewSession(dir, 2, &log)
	sessionRun(t, sess, "ZMASK-room-1x")
	sessionRun(t, sess, "FORWARD-room-1x")
	for _, file := range []string{"trace.sqlite3", "metrics.csv", "utilization.png", "bandwidth.png"} {
		if !exists(filepath.Join(dir, "runs", "ZMASK-room-1x", file)) {
			t.Errorf("selected run: no %s", file)
		}
	}
	if exists(filepath.Join(dir, "runs", "FORWARD-room-1x")) {
		t.Errorf("a run that -instrument-runs does not select has a folder")
	}
	if exists(filepath.Join(dir, "trace.sqlite3")) {
		t.Errorf("a sweep wrote a trace in its top folder")
	}
	for _, name := range []string{"ZMASK-room-1x", "FORWARD-room-1x"} {
		if !strings.Contains(log.String(), "  "+name+": ") {
			t.Errorf("no progress line of %s in:\n%s", name, log.String())
		}
	}
}

// -instrument-runs that selects none of a sweep's runs traces nothing, and
// Close says so; one that selects a run says nothing.
func TestSessionRunsNoneSelected(t *testing.T) {
	for _, tc := range []struct {
		runs, want string
	}{
		{"^NOPE", "warning: -instrument-runs \"^NOPE\" matched none of the 2 runs (named like ZMASK-room-1x): nothing was traced or sampled\n"},
		{"^ZMASK-", ""},
	} {
		var log bytes.Buffer
		f := Flags{Trace: true, Runs: tc.runs}
		sess := f.NewSession(t.TempDir(), 2, &log)
		p, err := configs.Build(configs.Default())
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"ZMASK-room-1x", "FORWARD-room-1x"} {
			if _, err := sess.Attach(p, 1, name); err != nil {
				t.Fatal(err)
			}
		}
		log.Reset()
		if err := sess.Close(); err != nil {
			t.Fatal(err)
		}
		if log.String() != tc.want {
			t.Errorf("%s: Close printed %q, want %q", tc.runs, log.String(), tc.want)
		}
	}
}

// A process's only simulation writes into the output folder itself.
func TestSessionSingleRun(t *testing.T) {
	dir := t.TempDir()
	f := Flags{MetricsInterval: 2000}
	sessionRun(t, f.NewSession(dir, 1, &bytes.Buffer{}), "")
	if !exists(filepath.Join(dir, "metrics.csv")) || exists(filepath.Join(dir, "trace.sqlite3")) {
		t.Errorf("single run without -trace: want metrics.csv and no trace in %s", dir)
	}
}

func TestSessionBadRunsPattern(t *testing.T) {
	f := Flags{Trace: true, Runs: "("}
	sess := f.NewSession(t.TempDir(), 2, &bytes.Buffer{})
	p, err := configs.Build(configs.Default())
	if err != nil {
		t.Fatal(err)
	}
	_, err = sess.Attach(p, 1, "x")
	if err == nil || !strings.Contains(err.Error(), "-instrument-runs") {
		t.Fatalf("Attach with -instrument-runs \"(\": error %v, want one naming the flag", err)
	}
}

func TestFlagsWindow(t *testing.T) {
	tests := []struct {
		in         string
		start, end uint64
		bad        bool
	}{
		{"", 0, 0, false},
		{"100:200", 100, 200, false},
		{" 5 : 6 ", 5, 6, false},
		{"200:100", 0, 0, true},
		{"7:7", 0, 0, true},
		{"100", 0, 0, true},
		{"a:9", 0, 0, true},
	}
	for _, tt := range tests {
		f := Flags{TraceWindow: tt.in}
		s, e, err := f.Window()
		if (err != nil) != tt.bad || s != tt.start || e != tt.end {
			t.Errorf("Window(%q) = %d, %d, %v", tt.in, s, e, err)
		}
	}
}

// TestFlagsCheck: -trace-format takes sqlite or csv only and needs a trace;
// a malformed -trace-window or an interval of -metrics-interval out of range
// is refused before anything runs.
func TestFlagsCheck(t *testing.T) {
	tests := []struct {
		args    []string
		parse   string // a flag-parsing error contains this
		check   string // Check's error contains this ("" for none)
		format  string
		tracing bool
	}{
		{args: nil, format: "sqlite"},
		{args: []string{"-trace"}, format: "sqlite", tracing: true},
		{args: []string{"-trace", "-trace-format", "csv"}, format: "csv", tracing: true},
		{args: []string{"-trace-components", "ROP", "-trace-format", "csv"}, format: "csv"},
		{args: []string{"-trace-format", "xml"}, parse: "want sqlite or csv"},
		{args: []string{"-trace-format", "csv"}, check: "no trace is recorded"},
		{args: []string{"-trace", "-trace-window", "9:3"}, check: "-trace-window"},
		{args: []string{"-trace-window", "9223372036854775808:18446744073709551615"},
			check: `-trace-window "9223372036854775808:18446744073709551615": END is above 2^40 cycles (1099511627776), longer than any frame runs`},
		{args: []string{"-trace-window", "0:1099511627776"}, format: "sqlite"},
		{args: []string{"-monitor"}, format: "sqlite"},
		{args: []string{"-monitor", "-monitor-addr", "[::1]:8080"}, format: "sqlite"},
		{args: []string{"-monitor-addr", "127.0.0.1:8080"}, check: "-monitor-addr 127.0.0.1:8080: no monitor is served: add -monitor"},
		{args: []string{"-monitor-addr", "127.0.0.1:0"}, check: "-monitor-addr 127.0.0.1:0: no monitor is served: add -monitor"},
		{args: []string{"-monitor", "-monitor-addr", "8080"}, check: `-monitor-addr "8080": want HOST:PORT`},
		{args: []string{"-monitor", "-monitor-addr", "127.0.0.1:99999"}, check: `-monitor-addr "127.0.0.1:99999": port "99999": want 0 to 65535`},
		{args: []string{"-monitor", "-monitor-addr", "999.1.1.1:80"}, check: `-monitor-addr "999.1.1.1:80": 999.1.1.1 is not an IPv4 address`},
		{args: []string{"-monitor", "-monitor-addr", "localhost:8080"}, format: "sqlite"},
		{args: []string{"-trace-components", "["}, check: `-trace-components "[": error parsing regexp`},
		// 2^64-1 had wrapped to an interval of -1 cycles: a sample every
		// cycle (5.6 s and 413 MB for a 16x16 triangle).
		{args: []string{"-metrics-interval", "18446744073709551615"}, check: "-metrics-interval 18446744073709551615: interval 18446744073709551615 cycles is above 1099511627776 (2^40)"},
		{args: []string{"-metrics-interval", "1099511627777"}, check: "-metrics-interval 1099511627777: interval 1099511627777 cycles is above 1099511627776 (2^40)"},
		{args: []string{"-metrics-interval", "99"}, check: "-metrics-interval 99: interval 99 cycles is below 100"},
		{args: []string{"-metrics-interval", "1099511627776"}, format: "sqlite"},
	}
	for _, tt := range tests {
		var f Flags
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f.Register(fs)
		err := fs.Parse(tt.args)
		if tt.parse != "" {
			if err == nil || !strings.Contains(err.Error(), tt.parse) {
				t.Errorf("%v: parse error %v, want one containing %q", tt.args, err, tt.parse)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		err = f.Check()
		if (tt.check == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.check)) {
			t.Errorf("%v: Check() = %v, want an error containing %q", tt.args, err, tt.check)
		}
		if err == nil && (f.TraceFormat != tt.format || f.Trace != tt.tracing) {
			t.Errorf("%v: format %q trace %v, want %q %v", tt.args, f.TraceFormat, f.Trace, tt.format, tt.tracing)
		}
	}
}

// fakeEngine records the monitor's calls.
type fakeEngine struct {
	sim.Engine
	now               sim.VTimeInSec
	paused, continued int
}

func (e *fakeEngine) CurrentTime() sim.VTimeInSec { return e.now }
func (e *fakeEngine) Pause()                      { e.paused++ }
func (e *fakeEngine) Continue()                   { e.continued++ }

// TestMetricsSageVideoPath: the SAGE machine builds its video path (route and
// convolve chips, video output) when the frame runs; the sampler counts those
// units' traffic and their links' too (it crashed on the first sample, which
// found no traffic counter for them).
func TestMetricsSageVideoPath(t *testing.T) {
	cfg, err := configs.Parse("sage.yaml", []byte("machine: sage\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, f := buildOn(t, cfg, "triangle", 64, 40, 4)
	m, err := NewMetrics(p, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(f); err != nil {
		t.Fatal(err)
	}
	m.Finish(p.Engine.CurrentTime())
	in := map[string]float64{}
	for _, r := range m.rows {
		if r.metric == "messages_in" || r.metric == "messages" {
			in[r.name] += r.value
		}
	}
	if in["GPU.Video"] == 0 {
		t.Errorf("no messages into GPU.Video sampled (%d units sampled)", len(m.units))
	}
	videoLinks := 0.0
	for n, v := range in {
		if strings.Contains(n, "Video") && n != "GPU.Video" {
			videoLinks += v
		}
	}
	if videoLinks == 0 {
		t.Errorf("no messages on the video path's links sampled: %v", in)
	}
}
