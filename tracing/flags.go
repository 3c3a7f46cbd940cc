package tracing

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/internal/outputs"
	"github.com/gfxsim/gfxsim/timing"
)

// Flags are the instrumentation options of the experiment binaries that
// take them (render, texcache, zcull, rds, vertexreuse).
type Flags struct {
	Trace           bool
	TraceFormat     string
	TraceComponents string
	TraceWindow     string
	MetricsInterval uint64
	Monitor         bool
	MonitorAddr     string
	// Runs, when not empty, is a regular expression: in an experiment that runs
	// many simulations, only the runs whose names match are traced and sampled.
	Runs string
	// ProgressEvery is how often long runs print their progress (0: never).
	ProgressEvery time.Duration
	// OneRun, set before Register, says the binary runs one simulation
	// (render): -instrument-runs, which picks among many, is not offered.
	OneRun bool

	formatSet bool // -trace-format was given
	addrSet   bool // -monitor-addr was given
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
	fs.BoolVar(&f.Monitor, "monitor", false, "serve a web monitor (progress, buffers, pause and continue) while the simulation runs, on -monitor-addr")
	f.MonitorAddr = DefaultMonitorAddr
	fs.Var(monitorAddr{f}, "monitor-addr", "address of -monitor, `HOST:PORT` (port 0: any free port); an address that is not loopback is served with a warning, since anyone who reaches it can pause the run")
	if !f.OneRun {
		fs.StringVar(&f.Runs, "instrument-runs", "", "experiments with many simulations: trace and sample only the runs whose names match this regular expression (names: the folders under OUT/runs); needs -trace or -metrics-interval")
	}
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

// monitorAddr is the -monitor-addr flag, remembered as set so that Check
// can refuse it without -monitor even when it names the default address.
type monitorAddr struct{ f *Flags }

func (m monitorAddr) String() string {
	if m.f == nil {
		return "" // the zero value, so that the help prints the default
	}
	return m.f.MonitorAddr
}

func (m monitorAddr) Set(v string) error {
	m.f.MonitorAddr, m.f.addrSet = v, true
	return nil
}

// Requested returns the first instrumentation flag given that asks for an
// instrument (-trace, -trace-components, -trace-window, -metrics-interval,
// -monitor or -instrument-runs) or sets one up (-trace-format,
// -monitor-addr), or "" when none is.
func (f *Flags) Requested() string {
	for _, r := range []struct {
		on   bool
		name string
	}{{f.Trace, "-trace"}, {f.TraceComponents != "", "-trace-components"}, {f.TraceWindow != "", "-trace-window"},
		{f.MetricsInterval > 0, "-metrics-interval"}, {f.Monitor, "-monitor"}, {f.Runs != "", "-instrument-runs"},
		{f.formatSet, "-trace-format"}, {f.addrSet, "-monitor-addr"}} {
		if r.on {
			return r.name
		}
	}
	return ""
}

// traced reports whether a trace is recorded.
func (f *Flags) traced() bool { return f.Trace || f.TraceComponents != "" || f.TraceWindow != "" }

// Check refuses flag combinations that cannot apply: a -metrics-interval
// outside [MinMetricsInterval, MaxMetricsInterval], a -trace-format without a
// trace to write, a -monitor-addr without -monitor or that is not HOST:PORT, a
// malformed -trace-window, an -instrument-runs that is not a regular
// expression or selects runs for no trace and no metrics (the monitor shows
// every run). Binaries call it right after parsing their flags, before
// anything is loaded or simulated.
func (f *Flags) Check() error {
	if f.Runs != "" {
		if _, err := regexp.Compile(f.Runs); err != nil {
			return fmt.Errorf("-instrument-runs %q: %v", f.Runs, err)
		}
		if !f.traced() && f.MetricsInterval == 0 {
			return fmt.Errorf("-instrument-runs %q picks the runs to trace and sample: add -trace (or -trace-components, -trace-window) or -metrics-interval", f.Runs)
		}
	}
	if f.MetricsInterval > 0 {
		if err := checkInterval(f.MetricsInterval); err != nil {
			return fmt.Errorf("-metrics-interval %d: %v", f.MetricsInterval, err)
		}
	}
	if f.formatSet && !f.traced() {
		return fmt.Errorf("-trace-format %s: no trace is recorded: add -trace (or -trace-components, -trace-window)", f.TraceFormat)
	}
	if f.MonitorAddr == "" {
		f.MonitorAddr = DefaultMonitorAddr
	}
	if (f.addrSet || f.MonitorAddr != DefaultMonitorAddr) && !f.Monitor {
		return fmt.Errorf("-monitor-addr %s: no monitor is served: add -monitor", f.MonitorAddr)
	}
	host, port, err := net.SplitHostPort(f.MonitorAddr)
	if err != nil {
		return fmt.Errorf("-monitor-addr %q: want HOST:PORT (e.g. %s): %v", f.MonitorAddr, DefaultMonitorAddr, err)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return fmt.Errorf("-monitor-addr %q: port %q: want 0 to 65535 (0: any free port)", f.MonitorAddr, port)
	}
	if strings.Trim(host, "0123456789.") == "" && host != "" && net.ParseIP(host) == nil {
		return fmt.Errorf("-monitor-addr %q: %s is not an IPv4 address", f.MonitorAddr, host)
	}
	if _, err := regexp.Compile(f.TraceComponents); err != nil {
		return fmt.Errorf("-trace-components %q: %v", f.TraceComponents, err)
	}
	_, _, err = f.Window()
	return err
}

// MaxWindowCycle bounds a -trace-window (as MaxMetricsInterval bounds the
// sampling interval): larger cycles wrapped to negative times, and the
// window then recorded everything.
const MaxWindowCycle = 1 << 40

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
	if end > MaxWindowCycle {
		return 0, 0, fmt.Errorf("-trace-window %q: END is above 2^40 cycles (%d), longer than any frame runs", f.TraceWindow, uint64(MaxWindowCycle))
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
	run      *MonitorRun
}

// Attach instruments p (built, not yet run) for a frame of draws draws, writing to
// dir. log receives progress lines and where the outputs went (nil: os.Stderr).
// It is the one-simulation form of NewSession and Session.Attach.
func (f *Flags) Attach(p *configs.Platform, draws int, dir string, log io.Writer) (*Instruments, error) {
	return f.NewSession(dir, 1, log).Attach(p, draws, "")
}

// Session instruments the timed runs of one experiment process: a single render,
// or the many simulations of a sweep. Each run's trace and metrics go to a folder of
// its own; with -monitor one web monitor (Monitor) serves the whole process, with
// the progress of every simulation and the buffers of a process's only one.
type Session struct {
	f     *Flags
	out   string
	runs  int
	log   io.Writer
	runRe *regexp.Regexp
	err   error

	mu      sync.Mutex
	monitor *Monitor
	// The named runs attached and those -instrument-runs selected (Close
	// warns when it selected none).
	attached, selected int
	firstName          string
}

// NewSession starts instrumenting the runs of a process that will run `runs`
// simulations (0 when it does not know how many), writing under out. A process
// makes one Session (one monitor). log receives progress lines and where the
// outputs went (nil: os.Stderr). Close stops the monitor.
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
func (s *Session) Dir(name string) string { return filepath.Join(s.out, runFolder(name)) }

// runFolder is the folder of the run named name inside the session's folder:
// runs/<name>, or the session's folder itself ("") for an unnamed run.
func runFolder(name string) string {
	if name == "" {
		return ""
	}
	return filepath.Join("runs", name)
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
	in := &Instruments{dir: dir, log: s.log, session: s}
	selected := name == "" || s.runRe == nil || s.runRe.MatchString(name)
	if name != "" {
		s.mu.Lock()
		if s.attached == 0 {
			s.firstName = name
		}
		s.attached++
		if selected {
			s.selected++
		}
		s.mu.Unlock()
	}
	traced := selected && f.traced()
	var start, end uint64
	if traced { // refuse the trace before any folder or file is made
		var err error
		if start, end, err = f.Window(); err != nil {
			return nil, err
		}
		if _, err := checkComponents(p, f.TraceComponents); err != nil {
			return nil, err
		}
	}
	if traced || (selected && f.MetricsInterval > 0) {
		if _, err := outputs.Dir(s.out, runFolder(name)); err != nil {
			return nil, err
		}
	}
	if traced {
		var err error
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
		var err error
		if in.run, err = s.monitorRun(p, draws, name); err != nil {
			return nil, err
		}
	}
	var w io.Writer
	if !f.Monitor && f.ProgressEvery > 0 {
		w = s.log
	}
	in.Progress = NewProgress(p, draws, w, f.ProgressEvery, in.run)
	if name != "" {
		in.Progress.Label = name
	}
	return in, nil
}

// monitorRun starts the process's monitor on first use and adds the run to
// it. A process's only simulation also shows its buffers (in a sweep several
// simulations run at once and their buffers would be too many to read).
func (s *Session) monitorRun(p *configs.Platform, draws int, name string) (*MonitorRun, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.monitor == nil {
		m, err := StartMonitor(s.f.MonitorAddr, s.log)
		if err != nil {
			return nil, err
		}
		s.monitor = m
	}
	var buffers func() []timing.BufferState
	if s.runs == 1 {
		buffers = p.BufferStates
	}
	r := s.monitor.AddRun(name, draws, p.Engine, buffers)
	// A halt (Ctrl-C, the watchdog) continues the run if the monitor paused
	// it, or it would wait for the monitor; from a goroutine of its own, for
	// a halt from inside the simulation may come while a pause request holds
	// the monitor and waits for the engine.
	p.Halt.OnStop(func() { go r.finish() })
	return r, nil
}

// Monitor returns the session's monitor (nil before the first monitored run).
func (s *Session) Monitor() *Monitor {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.monitor
}

// Close stops the session's monitor, if any, and warns on its log when
// -instrument-runs selected none of the named runs that attached.
func (s *Session) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	m := s.monitor
	s.monitor = nil
	if s.runRe != nil && s.attached > 0 && s.selected == 0 {
		fmt.Fprintf(s.log, "warning: -instrument-runs %q matched none of the %d runs (named like %s): nothing was traced or sampled\n",
			s.f.Runs, s.attached, s.firstName)
	}
	s.mu.Unlock()
	if m == nil {
		return nil
	}
	return m.Close()
}

// Close finishes the outputs after the run (end is the engine's time at the end).
func (in *Instruments) Close(end sim.VTimeInSec) error {
	if in == nil {
		return nil
	}
	if in.run != nil {
		in.run.finish()
		in.run = nil
	}
	// Both outputs are finished whatever happens to the other: a metrics
	// file that cannot be written must not leave the trace half written.
	var errs []error
	if in.Metrics != nil {
		in.Metrics.Finish(end)
		if err := in.Metrics.Write(in.dir); err != nil {
			errs = append(errs, err)
		} else {
			fmt.Fprintf(in.log, "metrics: %d samples in %s (metrics.csv, utilization.png, bandwidth.png)\n",
				in.Metrics.Samples(), in.dir)
		}
	}
	if in.Trace != nil {
		if err := in.Trace.Close(); err != nil {
			errs = append(errs, err)
		} else {
			in.warnEmptyTrace()
			if fi, err := os.Stat(in.Trace.File()); err == nil {
				fmt.Fprintf(in.log, "trace: %s (%.1f MB, %d components); open it with\n  go run github.com/sarchlab/akita/v3/daisen -%s %s -http 127.0.0.1:3001\n",
					in.Trace.File(), float64(fi.Size())/1e6, len(in.Trace.Traced()), sqliteFlag(in.Trace.opts.Format), in.Trace.File())
			}
		}
	}
	return errors.Join(errs...)
}

// warnEmptyTrace says on the log when the trace recorded nothing: its
// -trace-window lies after the frame's end, or the components its
// -trace-components matched record no tasks of their own (a tile scheduler,
// a SAGE route chip whose work is its transfers).
func (in *Instruments) warnEmptyTrace() {
	f := in.session.f
	switch t := in.Trace; {
	case t.Recorded() == 0 && f.TraceWindow != "":
		fmt.Fprintf(in.log, "warning: -trace-window %s recorded nothing: the frame ended at cycle %d\n", f.TraceWindow, t.EndCycle())
	case t.Recorded() <= 1 && f.TraceComponents != "": // the Simulation task alone
		fmt.Fprintf(in.log, "warning: -trace-components %q recorded nothing: the components it matched (%s) record no tasks\n",
			f.TraceComponents, strings.Join(t.Traced(), ", "))
	}
}

func sqliteFlag(format string) string {
	if format == "csv" {
		return "csv"
	}
	return "sqlite"
}
