package tracing

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sarchlab/akita/v3/monitoring"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/configs"
)

// Flags are the instrumentation options every experiment binary accepts.
type Flags struct {
	Trace           bool
	TraceFormat     string
	TraceComponents string
	TraceWindow     string
	MetricsInterval uint64
	Monitor         bool
	// Runs, when not empty, is a regular expression: in an experiment that runs
	// many simulations, only the runs whose names match are traced and sampled.
	Runs string
	// ProgressEvery is how often long runs print their progress (0: never).
	ProgressEvery time.Duration

	formatSet bool // -trace-format was given
}

// Register adds -trace, -trace-format, -trace-components, -trace-window,
// -metrics-interval and -monitor to fs.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.BoolVar(&f.Trace, "trace", false, "record a Daisen trace of the timed run (trace.sqlite3 in the output folder)")
	f.TraceFormat = "sqlite"
	fs.Var(traceFormat{f}, "trace-format", "trace format: sqlite or csv (with -trace, -trace-components or -trace-window)")
	fs.StringVar(&f.TraceComponents, "trace-components", "", "trace only the components whose names match this regular expression (e.g. 'ROP|DepthUnit')")
	fs.StringVar(&f.TraceWindow, "trace-window", "", "trace only tasks overlapping this window of core cycles, START:END (e.g. 100000:200000)")
	fs.Uint64Var(&f.MetricsInterval, "metrics-interval", 0, "sample metrics every N core cycles and write metrics.csv, utilization.png and bandwidth.png (0: off)")
	fs.BoolVar(&f.Monitor, "monitor", false, "serve Akita's web monitor (with a progress bar) while the simulation runs")
	fs.StringVar(&f.Runs, "instrument-runs", "", "experiments with many simulations: trace and sample only the runs whose names match this regular expression (names: the folders under OUT/runs)")
	f.ProgressEvery = 10 * time.Second
}

// traceFormat is the -trace-format flag: sqlite or csv, remembered as set so
// that Check can refuse it without a trace.
type traceFormat struct{ f *Flags }

func (t traceFormat) String() string {
	if t.f == nil {
		return "sqlite"
	}
	return t.f.TraceFormat
}

func (t traceFormat) Set(v string) error {
	if v != "sqlite" && v != "csv" {
		return fmt.Errorf("want sqlite or csv")
	}
	t.f.TraceFormat, t.f.formatSet = v, true
	return nil
}

// Check refuses flag combinations that cannot apply: a -trace-format without a
// trace to write, a malformed -trace-window. Binaries call it right after
// parsing their flags, before anything is loaded or simulated.
func (f *Flags) Check() error {
	if f.formatSet && !f.Trace && f.TraceComponents == "" && f.TraceWindow == "" {
		return fmt.Errorf("-trace-format %s: no trace is recorded: add -trace (or -trace-components, -trace-window)", f.TraceFormat)
	}
	_, _, err := f.Window()
	return err
}

// Window parses TraceWindow.
func (f *Flags) Window() (start, end uint64, err error) {
	if f.TraceWindow == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(f.TraceWindow, ":")
	if ok {
		start, err = strconv.ParseUint(strings.TrimSpace(a), 10, 64)
	}
	if ok && err == nil {
		end, err = strconv.ParseUint(strings.TrimSpace(b), 10, 64)
	}
	if !ok || err != nil || end <= start {
		return 0, 0, fmt.Errorf("-trace-window %q: want START:END core cycles with END > START", f.TraceWindow)
	}
	return start, end, nil
}

// Instruments is the instrumentation attached to one platform.
type Instruments struct {
	Trace    *Trace
	Metrics  *Metrics
	Progress *Progress
	dir      string
	log      io.Writer
	session  *Session
	bar      *monitoring.ProgressBar
	engine   sim.Engine
}

// Attach instruments p (built, not yet run) for a frame of draws draws, writing to
// dir. log receives progress lines and where the outputs went (nil: os.Stderr).
// It is the one-simulation form of NewSession and Session.Attach.
func (f *Flags) Attach(p *configs.Platform, draws int, dir string, log io.Writer) (*Instruments, error) {
	return f.NewSession(dir, 1, log).Attach(p, draws, "")
}

// Session instruments the timed runs of one experiment process: a single render,
// or the many simulations of a sweep. Each run's trace and metrics go to a folder of
// its own; with -monitor one Akita web monitor serves the whole process (Akita's
// monitor can be started once per process), with a progress bar per running
// simulation and one for the sweep.
type Session struct {
	f     *Flags
	out   string
	runs  int
	log   io.Writer
	runRe *regexp.Regexp
	err   error

	mu      sync.Mutex
	monitor *monitoring.Monitor
	overall *monitoring.ProgressBar
	engines *sweepEngine
}

// NewSession starts instrumenting the runs of a process that will run `runs`
// simulations (0 when it does not know how many), writing under out. A process
// makes one Session: Akita's monitor can be started once per process. log receives progress lines and where the
// outputs went (nil: os.Stderr).
func (f *Flags) NewSession(out string, runs int, log io.Writer) *Session {
	if log == nil {
		log = os.Stderr
	}
	s := &Session{f: f, out: out, runs: runs, log: log}
	if f.Runs != "" {
		s.runRe, s.err = regexp.Compile(f.Runs)
		if s.err != nil {
			s.err = fmt.Errorf("-instrument-runs %q: %v", f.Runs, s.err)
		}
	}
	return s
}

// Dir returns the folder of the run named name: the session's folder for a single
// unnamed run, out/runs/<name> otherwise.
func (s *Session) Dir(name string) string {
	if name == "" {
		return s.out
	}
	return filepath.Join(s.out, "runs", name)
}

// Attach instruments p (built, not yet run), the simulation named name (a label
// usable as a folder name, "" for a process's only simulation) of a frame of draws
// draws. Call Close on the result after the run. Runs whose names do not match
// -instrument-runs are not traced and get no metrics, but still report progress.
func (s *Session) Attach(p *configs.Platform, draws int, name string) (*Instruments, error) {
	if s.err != nil {
		return nil, s.err
	}
	f := s.f
	dir := s.Dir(name)
	in := &Instruments{dir: dir, log: s.log, session: s, engine: p.Engine}
	selected := name == "" || s.runRe == nil || s.runRe.MatchString(name)
	traced := selected && (f.Trace || f.TraceComponents != "" || f.TraceWindow != "")
	if traced || (selected && f.MetricsInterval > 0) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	if traced {
		start, end, err := f.Window()
		if err != nil {
			return nil, err
		}
		in.Trace, err = Attach(p, Options{Path: filepath.Join(dir, "trace"), Format: f.TraceFormat,
			Components: f.TraceComponents, StartCycle: start, EndCycle: end})
		if err != nil {
			return nil, err
		}
	}
	if selected && f.MetricsInterval > 0 {
		var err error
		if in.Metrics, err = NewMetrics(p, f.MetricsInterval); err != nil {
			return nil, err
		}
	}
	if f.Monitor {
		in.bar = s.monitorRun(p, draws, name)
	}
	var w io.Writer
	if !f.Monitor && f.ProgressEvery > 0 {
		w = s.log
	}
	in.Progress = NewProgress(p, draws, w, f.ProgressEvery, in.bar)
	if name != "" {
		in.Progress.Label = name
	}
	return in, nil
}

// monitorRun starts the process's monitor on first use and gives the run a
// progress bar. A process's only simulation also registers its engine and
// components, so the monitor can pause it and show their buffers; in a sweep
// the monitor shows the progress bars (several simulations may run at once, and
// Akita's monitor knows one engine).
func (s *Session) monitorRun(p *configs.Platform, draws int, name string) *monitoring.ProgressBar {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := s.monitor == nil
	if first {
		s.monitor = monitoring.NewMonitor()
		if s.runs == 1 {
			s.monitor.RegisterEngine(p.Engine)
			for _, u := range p.Units {
				s.monitor.RegisterComponent(u)
			}
		} else {
			s.engines = &sweepEngine{}
			s.monitor.RegisterEngine(s.engines)
			if s.runs > 1 { // 0: the experiment does not know how many
				s.overall = s.monitor.CreateProgressBar("Simulations", uint64(s.runs))
			}
		}
	}
	label := "Draws"
	if name != "" {
		label = "Draws of " + name
	}
	bar := s.monitor.CreateProgressBar(label, uint64(draws))
	if s.engines != nil {
		s.engines.add(p.Engine)
	}
	if first {
		s.monitor.StartServer()
	}
	return bar
}

// runDone completes a run's progress bar.
func (s *Session) runDone(bar *monitoring.ProgressBar, e sim.Engine) {
	if bar == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.monitor.CompleteProgressBar(bar)
	if s.engines != nil {
		s.engines.remove(e)
	}
	if s.overall != nil {
		s.overall.IncrementFinished(1)
	}
}

// sweepEngine stands for the engines of a sweep in the monitor, which knows one
// engine: Pause and Continue reach every running simulation, CurrentTime is the
// latest time among them, and Run does nothing (the experiment runs them).
type sweepEngine struct {
	sim.Engine
	mu      sync.Mutex
	running []sim.Engine
}

func (e *sweepEngine) add(x sim.Engine) {
	e.mu.Lock()
	e.running = append(e.running, x)
	e.mu.Unlock()
}

func (e *sweepEngine) remove(x sim.Engine) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, r := range e.running {
		if r == x {
			e.running = append(e.running[:i], e.running[i+1:]...)
			return
		}
	}
}

func (e *sweepEngine) each(f func(sim.Engine)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, r := range e.running {
		f(r)
	}
}

func (e *sweepEngine) CurrentTime() sim.VTimeInSec {
	var t sim.VTimeInSec
	e.each(func(r sim.Engine) { t = max(t, r.CurrentTime()) })
	return t
}
func (e *sweepEngine) Pause()     { e.each(sim.Engine.Pause) }
func (e *sweepEngine) Continue()  { e.each(sim.Engine.Continue) }
func (e *sweepEngine) Run() error { return nil }

// Close finishes the outputs after the run (end is the engine's time at the end).
func (in *Instruments) Close(end sim.VTimeInSec) error {
	if in == nil {
		return nil
	}
	in.session.runDone(in.bar, in.engine)
	in.bar = nil
	if in.Metrics != nil {
		in.Metrics.Finish(end)
		if err := in.Metrics.Write(in.dir); err != nil {
			return err
		}
		fmt.Fprintf(in.log, "metrics: %d samples in %s (metrics.csv, utilization.png, bandwidth.png)\n",
			in.Metrics.Samples(), in.dir)
	}
	if in.Trace != nil {
		if err := in.Trace.Close(); err != nil {
			return err
		}
		if fi, err := os.Stat(in.Trace.File()); err == nil {
			fmt.Fprintf(in.log, "trace: %s (%.1f MB, %d components); open it with\n  go run github.com/sarchlab/akita/v3/daisen -%s %s -http 127.0.0.1:3001\n",
				in.Trace.File(), float64(fi.Size())/1e6, len(in.Trace.Traced()), sqliteFlag(in.Trace.opts.Format), in.Trace.File())
		}
	}
	return nil
}

func sqliteFlag(format string) string {
	if format == "csv" {
		return "csv"
	}
	return "sqlite"
}
