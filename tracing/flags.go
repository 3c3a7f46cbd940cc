package tracing

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	// ProgressEvery is how often long runs print their progress (0: never).
	ProgressEvery time.Duration
}

// Register adds -trace, -trace-format, -trace-components, -trace-window,
// -metrics-interval and -monitor to fs.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.BoolVar(&f.Trace, "trace", false, "record a Daisen trace of the timed run (trace.sqlite3 in the output folder)")
	fs.StringVar(&f.TraceFormat, "trace-format", "sqlite", "trace format: sqlite or csv")
	fs.StringVar(&f.TraceComponents, "trace-components", "", "trace only the components whose names match this regular expression (e.g. 'ROP|DepthUnit')")
	fs.StringVar(&f.TraceWindow, "trace-window", "", "trace only tasks overlapping this window of core cycles, START:END (e.g. 100000:200000)")
	fs.Uint64Var(&f.MetricsInterval, "metrics-interval", 0, "sample metrics every N core cycles and write metrics.csv, utilization.png and bandwidth.png (0: off)")
	fs.BoolVar(&f.Monitor, "monitor", false, "serve Akita's web monitor (with a progress bar) while the simulation runs")
	f.ProgressEvery = 10 * time.Second
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
	started  time.Time
	log      io.Writer
}

// Attach instruments p (built, not yet run) for a frame of draws draws, writing to
// dir. log receives progress lines and where the outputs went (nil: os.Stderr).
func (f *Flags) Attach(p *configs.Platform, draws int, dir string, log io.Writer) (*Instruments, error) {
	if log == nil {
		log = os.Stderr
	}
	in := &Instruments{dir: dir, started: time.Now(), log: log}
	if f.Trace || f.TraceComponents != "" || f.TraceWindow != "" {
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
	if f.MetricsInterval > 0 {
		var err error
		if in.Metrics, err = NewMetrics(p, f.MetricsInterval); err != nil {
			return nil, err
		}
	}
	var bar *monitoring.ProgressBar
	if f.Monitor {
		m := monitoring.NewMonitor()
		m.RegisterEngine(p.Engine)
		for _, u := range p.Units {
			m.RegisterComponent(u)
		}
		bar = m.CreateProgressBar("Draws", uint64(draws))
		m.StartServer()
	}
	var w io.Writer
	if !f.Monitor && f.ProgressEvery > 0 {
		w = log
	}
	in.Progress = NewProgress(p, draws, w, f.ProgressEvery, bar)
	return in, nil
}

// Close finishes the outputs after the run (end is the engine's time at the end).
func (in *Instruments) Close(end sim.VTimeInSec) error {
	if in == nil {
		return nil
	}
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
				in.Trace.File(), float64(fi.Size())/1e6, len(in.Trace.Traced()), map[string]string{"csv": "csv"}[in.Trace.opts.Format]+sqliteFlag(in.Trace.opts.Format), in.Trace.File())
		}
	}
	return nil
}

func sqliteFlag(format string) string {
	if format == "csv" {
		return ""
	}
	return "sqlite"
}
