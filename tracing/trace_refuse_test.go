package tracing

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/configs"
)

// A trace that Attach refuses leaves no file behind: every check comes before
// the file is created.
func TestAttachRefusedLeavesNoFile(t *testing.T) {
	p, err := configs.Build(configs.Default())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		opts    Options
		wantErr string
	}{
		{"no match, sqlite", Options{Components: "NOMATCH"}, `trace: no component matches "NOMATCH"`},
		{"no match, csv", Options{Components: "NOMATCH", Format: "csv"}, `trace: no component matches "NOMATCH"`},
		{"bad pattern", Options{Components: "("}, "trace: components \"(\": error parsing regexp: missing closing ): `(`"},
		{"empty window", Options{StartCycle: 5, EndCycle: 5}, "trace: window [5, 5) is empty"},
		{"bad format", Options{Format: "json"}, `trace: format "json": want sqlite or csv`},
	} {
		dir := t.TempDir()
		tc.opts.Path = filepath.Join(dir, "trace")
		_, err := Attach(p, tc.opts)
		if err == nil || err.Error() != tc.wantErr {
			t.Errorf("%s: error %v, want %s", tc.name, err, tc.wantErr)
		}
		if files, _ := os.ReadDir(dir); len(files) != 0 {
			t.Errorf("%s: refused trace left %d files (%s)", tc.name, len(files), files[0].Name())
		}
	}
}

// -trace-components matching nothing is refused before the run's folder is
// made (a sweep's OUT/runs/<run>, or a render's trace file).
func TestSessionNoMatchMakesNoFolder(t *testing.T) {
	p, err := configs.Build(configs.Default())
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	f := Flags{TraceComponents: "NOMATCH", MetricsInterval: 1000}
	sess := f.NewSession(out, 2, &bytes.Buffer{})
	_, err = sess.Attach(p, 1, "run")
	if want := `trace: no component matches "NOMATCH"`; err == nil || err.Error() != want {
		t.Fatalf("Attach: error %v, want %s", err, want)
	}
	if exists(out) {
		t.Errorf("refused trace made %s", out)
	}
}

// A trace that recorded nothing says so after the run, in a warning on the
// log: a -trace-window after the frame's end. A window that overlaps the frame
// records (the Simulation task at least) and says nothing.
func TestSessionEmptyWindowWarns(t *testing.T) {
	for _, tc := range []struct {
		window string
		warn   bool
	}{
		{"99999999:999999999", true},
		{"0:1000", false},
		{"1000:2000", false},
	} {
		p, fr := buildOn(t, configs.Default(), "triangle", 64, 36, 4)
		var log bytes.Buffer
		f := Flags{TraceWindow: tc.window}
		in, err := f.NewSession(t.TempDir(), 1, &log).Attach(p, fr.Draws, "")
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Run(fr)
		if err != nil {
			t.Fatal(err)
		}
		if err := in.Close(p.Engine.CurrentTime()); err != nil {
			t.Fatal(err)
		}
		var warnings []string
		for _, l := range strings.Split(log.String(), "\n") {
			if strings.HasPrefix(l, "warning:") {
				warnings = append(warnings, l)
			}
		}
		var want []string
		if tc.warn {
			want = []string{fmt.Sprintf("warning: -trace-window %s recorded nothing: the frame ended at cycle %d", tc.window, res.Cycles)}
		}
		if strings.Join(warnings, "\n") != strings.Join(want, "\n") {
			t.Errorf("-trace-window %s: warnings %q, want %q", tc.window, warnings, want)
		}
	}
}

// On the SAGE machine, whose video path is built at Run, a -trace-components
// pattern is checked against the names that path will have: one matching
// nothing is refused before the trace file exists, one matching only the
// video path is taken, and the units built at Run carry exactly those names.
func TestSessionSageComponents(t *testing.T) {
	for _, channels := range []int{1, 2} {
		cfg, err := configs.Parse("sage.yaml", []byte(fmt.Sprintf("machine: sage\nsage:\n  video:\n    channels: %d\n", channels)))
		if err != nil {
			t.Fatal(err)
		}
		p, fr := buildOn(t, cfg, "triangle", 64, 40, 4)
		dir := t.TempDir()
		_, err = (&Flags{TraceComponents: "NOMATCH"}).NewSession(dir, 1, io.Discard).Attach(p, fr.Draws, "")
		if want := `trace: no component matches "NOMATCH"`; err == nil || err.Error() != want {
			t.Errorf("%d channels: NOMATCH: error %v, want %q", channels, err, want)
		}
		if files, _ := os.ReadDir(dir); len(files) != 0 {
			t.Errorf("%d channels: a refused trace left %d files", channels, len(files))
		}
		in, err := (&Flags{TraceComponents: `^GPU\.(Route|Convolve|Video)`}).NewSession(dir, 1, io.Discard).Attach(p, fr.Draws, "")
		if err != nil {
			t.Fatalf("%d channels: video path: %v", channels, err)
		}
		if _, err := p.Run(fr); err != nil {
			t.Fatal(err)
		}
		if err := in.Close(p.Engine.CurrentTime()); err != nil {
			t.Fatal(err)
		}
		if got, want := strings.Join(in.Trace.Traced(), " "), strings.Join(cfg.SageVideoUnits(), " "); got != want {
			t.Errorf("%d channels: traced %q, want the predicted names %q", channels, got, want)
		}
	}
}

// A metrics file that cannot be written does not leave the trace half
// written: Close finishes the trace (its Simulation task included) and
// returns the metrics error.
func TestCloseFinishesTraceWhenMetricsFail(t *testing.T) {
	p, fr := buildOn(t, configs.Default(), "triangle", 32, 18, 1)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "metrics.csv", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := (&Flags{Trace: true, MetricsInterval: 100}).NewSession(dir, 1, io.Discard).Attach(p, fr.Draws, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(fr); err != nil {
		t.Fatal(err)
	}
	err = in.Close(p.Engine.CurrentTime())
	if err == nil || !strings.Contains(err.Error(), "metrics.csv") {
		t.Fatalf("Close: %v, want the metrics file's error", err)
	}
	tasks := readTasks(t, openTrace(t, in.Trace.File()))
	if _, ok := tasks[SimulationTaskID]; !ok || len(tasks) < 2 {
		t.Errorf("the trace holds %d tasks and the Simulation task %v: it was not closed", len(tasks), ok)
	}
}

// A -trace-components pattern whose components record no tasks of their
// own (the tiled machine's tile scheduler) is said in a warning after the
// run; the trace holds the Simulation task alone.
func TestSessionWarnsComponentsWithoutTasks(t *testing.T) {
	cfg, err := configs.Parse("sortmiddle.yaml", []byte("machine: sortmiddle\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, fr := buildOn(t, cfg, "triangle", 32, 18, 1)
	var log bytes.Buffer
	in, err := (&Flags{TraceComponents: "TileScheduler"}).NewSession(t.TempDir(), 1, &log).Attach(p, fr.Draws, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(fr); err != nil {
		t.Fatal(err)
	}
	if err := in.Close(p.Engine.CurrentTime()); err != nil {
		t.Fatal(err)
	}
	want := "warning: -trace-components \"TileScheduler\" recorded nothing: the components it matched (GPU.TileScheduler) record no tasks\n"
	if got := log.String(); !strings.HasPrefix(got, want) {
		t.Errorf("log %q, want it to begin with %q", got, want)
	}
}

// haltAt halts the platform at the first event at or after its core cycle.
type haltAt struct {
	p     *configs.Platform
	cycle uint64
	err   error
}

func (h haltAt) Func(ctx sim.HookCtx) {
	if ctx.Pos == sim.HookPosBeforeEvent && !h.p.Halt.Stopped() && h.p.CoreFreq.Cycle(h.p.Engine.CurrentTime()) >= h.cycle {
		h.p.Halt.Stop(h.err)
	}
}

// A run halted part way (Ctrl-C, the watchdog) has its trace and metrics end
// where it was halted (Platform.RunEnd), not at the events the engine ran on
// to (the watchdog's next wake-up, a quarter million cycles later).
func TestHaltedRunEndsWhereHalted(t *testing.T) {
	p, fr := buildOn(t, configs.Default(), "room", 64, 36, 1)
	const at = 20000
	stop := errors.New("halted by the test")
	p.Engine.AcceptHook(haltAt{p, at, stop})
	in, err := (&Flags{Trace: true, MetricsInterval: 1000}).NewSession(t.TempDir(), 1, io.Discard).Attach(p, fr.Draws, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(fr); !errors.Is(err, stop) {
		t.Fatalf("Run: %v, want the halt", err)
	}
	if err := in.Close(p.RunEnd()); err != nil {
		t.Fatal(err)
	}
	last := in.Metrics.rows[len(in.Metrics.rows)-1].cycle
	if end := in.Trace.EndCycle(); end < at || end > at+10 || last != end {
		t.Errorf("the trace ends at cycle %d and the metrics' last sample at %d; want both where the run was halted, at %d", end, last, at)
	}
}
