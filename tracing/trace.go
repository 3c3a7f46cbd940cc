package tracing

import (
	"database/sql"
	"encoding/csv"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"sync"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver Akita's Daisen reads with
	"github.com/sarchlab/akita/v3/sim"
	atracing "github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/configs"

	"github.com/gfxsim/gfxsim/internal/outputs"
)

// SimulationTaskID is the ID of the task that spans the whole run; tasks whose
// parent is not in the trace are re-parented to it.
const SimulationTaskID = "simulation"

// Options say what to trace and where.
type Options struct {
	// Path is the trace file without extension: Path+".sqlite3" or Path+".csv".
	Path string
	// Format is "sqlite" (default) or "csv".
	Format string
	// Components, when not empty, is a regular expression: only the components
	// whose names match are traced (for example `ROP|DepthUnit`).
	Components string
	// StartCycle and EndCycle, when EndCycle > 0, limit the trace to the tasks
	// that overlap [StartCycle, EndCycle) core cycles.
	StartCycle, EndCycle uint64
}

// Trace is a trace being recorded.
type Trace struct {
	opts    Options
	file    string
	tracer  *atracing.DBTracer
	clock   *clock
	backend backend
	runEnd  func() sim.VTimeInSec // the run's end (Platform.RunEnd)
	freq    sim.Freq
	traced  []string
	closed  bool
	end     uint64 // the cycle the Simulation task ended at (Close)
}

// backend stores tasks; Close finishes the file (re-parenting orphans).
// Written is the number of tasks written.
type backend interface {
	atracing.TracerBackend
	Close(root string) error
	Written() int
}

// File returns the trace file's path.
func (t *Trace) File() string { return t.file }

// Traced returns the names of the traced components.
func (t *Trace) Traced() []string { return t.traced }

// Recorded returns the number of tasks written to the file, the Simulation
// task included: 0 when a window (StartCycle, EndCycle) lies wholly after the
// frame. It is complete after Close.
func (t *Trace) Recorded() int { return t.backend.Written() }

// EndCycle returns the core cycle the frame ended at, as Close found it (the
// end of the Simulation task); 0 before Close.
func (t *Trace) EndCycle() uint64 { return t.end }

// Attach starts tracing the components of p. Call it after configs.Build and
// before Platform.Run, and Close after the run.
func Attach(p *configs.Platform, o Options) (*Trace, error) {
	if o.Path == "" {
		return nil, fmt.Errorf("trace: no output path")
	}
	// Every check comes before the file is created: a refused trace leaves
	// none behind.
	re, err := checkComponents(p, o.Components)
	if err != nil {
		return nil, err
	}
	if o.EndCycle > 0 && o.EndCycle <= o.StartCycle {
		return nil, fmt.Errorf("trace: window [%d, %d) is empty", o.StartCycle, o.EndCycle)
	}
	t := &Trace{opts: o, runEnd: p.RunEnd, freq: p.CoreFreq}
	switch o.Format {
	case "", "sqlite":
		t.file = o.Path + ".sqlite3"
		t.backend, err = newSQLiteBackend(t.file)
	case "csv":
		t.file = o.Path + ".csv"
		t.backend, err = newCSVBackend(t.file)
	default:
		return nil, fmt.Errorf("trace: format %q: want sqlite or csv", o.Format)
	}
	if err != nil {
		return nil, err
	}
	t.clock = &clock{engine: p.Engine}
	t.tracer = atracing.NewDBTracer(t.clock, t.backend)
	if o.EndCycle > 0 {
		t.tracer.SetTimeRange(p.CoreFreq.NCyclesLater(int(o.StartCycle), 0), p.CoreFreq.NCyclesLater(int(o.EndCycle), 0))
	}
	rec := recorder{t.tracer, t.clock}
	OnTraceable(p, func(c atracing.NamedHookable) {
		if re != nil && !re.MatchString(c.Name()) {
			return
		}
		atracing.CollectTrace(c, rec)
		t.traced = append(t.traced, c.Name())
	})
	t.tracer.StartTask(atracing.Task{ID: SimulationTaskID, Kind: "Simulation", What: "frame", Where: "GPU"})
	return t, nil
}

// checkComponents compiles pattern (nil when empty: every component) and
// refuses one that matches no traceable component of p. The SAGE machine
// builds its video path (route, convolve chips, video outputs) at Run: a
// pattern may match only those, by the names they will have.
func checkComponents(p *configs.Platform, pattern string) (*regexp.Regexp, error) {
	if pattern == "" {
		return nil, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("trace: components %q: %v", pattern, err)
	}
	for _, c := range Traceable(p) {
		if re.MatchString(c.Name()) {
			return re, nil
		}
	}
	for _, name := range p.Config.SageVideoUnits() {
		if re.MatchString(name) {
			return re, nil
		}
	}
	return nil, fmt.Errorf("trace: no component matches %q", pattern)
}

// recorder records every task but Akita's DRAM sub-transactions: its memory
// controller starts a "sub-trans" task per sub-transaction that only its banks
// end, and the banks are internal to mem/dram (they cannot be given a tracer), so
// those tasks would all stay open to the end of the trace and show a false
// duration. The controller's own req_in task spans each transaction.
//
// An end that carries its time (protocol.EndTaskAt: a unit that schedules its
// work ahead, such as a SAGE interleave or the video output) is recorded at
// that time rather than the engine's.
//
// The parallel engine runs the events of one time, and so records their
// tasks, on several goroutines at once; Akita's DBTracer is not safe for
// that, so every record takes the clock's lock.
type recorder struct {
	*atracing.DBTracer
	clock *clock
}

func (r recorder) StartTask(task atracing.Task) {
	if task.Kind == "sub-trans" {
		return
	}
	r.clock.mu.Lock()
	defer r.clock.mu.Unlock()
	r.DBTracer.StartTask(task)
}

func (r recorder) StepTask(task atracing.Task) {
	r.clock.mu.Lock()
	defer r.clock.mu.Unlock()
	r.DBTracer.StepTask(task)
}

func (r recorder) EndTask(task atracing.Task) {
	r.clock.mu.Lock()
	defer r.clock.mu.Unlock()
	if task.EndTime <= 0 {
		r.clock.last = max(r.clock.last, r.clock.engine.CurrentTime())
		r.DBTracer.EndTask(task)
		return
	}
	r.clock.at = task.EndTime
	r.clock.last = max(r.clock.last, task.EndTime)
	r.DBTracer.EndTask(task)
	r.clock.at = 0
}

// clock tells the DBTracer the engine's time, or the time of the end being
// recorded when it carries one; last is the latest end recorded (the
// Simulation task ends no earlier). mu serializes the recorder's records.
type clock struct {
	engine   sim.TimeTeller
	at, last sim.VTimeInSec
	mu       sync.Mutex
}

func (c *clock) CurrentTime() sim.VTimeInSec {
	if c.at > 0 {
		return c.at
	}
	return c.engine.CurrentTime()
}

// OnTraceable calls f for every component of p that reports tasks: now for
// those built (in Traceable's order), and for the SAGE machine's video path,
// which Platform.Run builds for the frame's resolution, when Run builds it.
func OnTraceable(p *configs.Platform, f func(atracing.NamedHookable)) {
	for _, c := range Traceable(p) {
		f(c)
	}
	p.OnUnitsBuilt(func(units []protocol.Unit) {
		for _, u := range units {
			if h, ok := u.(atracing.NamedHookable); ok {
				f(h)
			}
		}
	})
}

// Traceable returns every component of p that reports tasks, in a fixed order:
// the units, the memory channels and L2 banks, and on SAGE each pipe's texture
// memory channels and texture L2 banks.
func Traceable(p *configs.Platform) []atracing.NamedHookable {
	var out []atracing.NamedHookable
	for _, u := range p.Units {
		if h, ok := u.(atracing.NamedHookable); ok {
			out = append(out, h)
		}
	}
	for _, c := range p.Memory.Channels {
		if h, ok := c.(atracing.NamedHookable); ok {
			out = append(out, h)
		}
	}
	if p.L2 != nil { // SAGE has none: its pipes have theirs, below
		for _, b := range p.L2.Banks {
			out = append(out, b)
		}
	}
	// A SAGE pipe's own texture memory and L2 (GPU.Pipe[p].TextureMemory,
	// GPU.Pipe[p].TextureL2), which its texture samplers read.
	if p.Sage != nil {
		for _, pipe := range p.Sage.Pipes {
			for _, c := range pipe.TextureMemory.Channels {
				if h, ok := c.(atracing.NamedHookable); ok {
					out = append(out, h)
				}
			}
			for _, b := range pipe.TextureL2.Banks {
				out = append(out, b)
			}
		}
	}
	return out
}

// Close ends the Simulation task, writes every task still open, and finishes the
// file. It is safe to call twice.
func (t *Trace) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	// The run ends at the frame's end, or where it was halted (Ctrl-C, the
	// watchdog: the engine may run on to the watchdog's next wake-up), or
	// later if a task ends later; the tasks still open end there too.
	t.clock.at = max(t.clock.last, t.runEnd())
	t.end = t.freq.Cycle(t.clock.at)
	t.tracer.EndTask(atracing.Task{ID: SimulationTaskID})
	t.tracer.Terminate()
	t.clock.at = 0
	return t.backend.Close(SimulationTaskID)
}

// sqliteBackend writes tasks into the table Daisen reads.
type sqliteBackend struct {
	db      *sql.DB
	stmt    *sql.Stmt
	pending []atracing.Task
	written int
	err     error
}

func newSQLiteBackend(file string) (*sqliteBackend, error) {
	if err := os.Remove(file); err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("trace: %v", err)
	}
	db, err := sql.Open("sqlite3", file)
	if err != nil {
		return nil, fmt.Errorf("trace: %s: %v", file, err)
	}
	for _, q := range []string{
		`create table trace (task_id varchar(200) null unique, parent_id varchar(200) null,
			kind varchar(100) null, what varchar(100) null, location varchar(100) null,
			start_time float null, end_time float null)`,
		`create index trace_end_time_index on trace (end_time)`,
		`create index trace_task_id_uindex on trace (task_id)`,
		`create index trace_kind_index on trace (kind)`,
		`create index trace_start_time_index on trace (start_time)`,
		`create index trace_what_index on trace (what)`,
		`create index trace_location_index on trace (location)`,
		`create index trace_parent_id_index on trace (parent_id)`,
	} {
		if _, err := db.Exec(q); err != nil {
			db.Close()
			return nil, fmt.Errorf("trace: %s: %v", file, err)
		}
	}
	stmt, err := db.Prepare(`INSERT INTO trace VALUES (?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("trace: %s: %v", file, err)
	}
	return &sqliteBackend{db: db, stmt: stmt}, nil
}

func (b *sqliteBackend) Written() int { return b.written }

func (b *sqliteBackend) Write(task atracing.Task) {
	b.written++
	b.pending = append(b.pending, task)
	if len(b.pending) >= 50000 {
		b.Flush()
	}
}

func (b *sqliteBackend) Flush() {
	if len(b.pending) == 0 || b.err != nil {
		b.pending = b.pending[:0]
		return
	}
	tx, err := b.db.Begin()
	if err != nil {
		b.err = err
		return
	}
	st := tx.Stmt(b.stmt)
	for _, t := range b.pending {
		if _, err := st.Exec(t.ID, t.ParentID, t.Kind, t.What, t.Where, float64(t.StartTime), float64(t.EndTime)); err != nil {
			b.err = fmt.Errorf("task %q: %v", t.ID, err)
			break
		}
	}
	if err := tx.Commit(); err != nil && b.err == nil {
		b.err = err
	}
	b.pending = b.pending[:0]
}

func (b *sqliteBackend) Close(root string) error {
	b.Flush()
	if b.err == nil {
		_, b.err = b.db.Exec(`UPDATE trace SET parent_id = ? WHERE task_id != ? AND
			(parent_id = '' OR parent_id IS NULL OR parent_id NOT IN (SELECT task_id FROM trace))`, root, root)
	}
	b.stmt.Close()
	if err := b.db.Close(); err != nil && b.err == nil {
		b.err = err
	}
	if b.err != nil {
		return fmt.Errorf("trace: %v", b.err)
	}
	return nil
}

// csvBackend keeps the tasks and writes the file at Close (the CSV format has no
// way to fix a parent after the fact).
type csvBackend struct {
	file  string
	tasks []atracing.Task
}

func newCSVBackend(file string) (*csvBackend, error) {
	f, err := outputs.Create(file)
	if err != nil {
		return nil, fmt.Errorf("trace: %v", err)
	}
	f.Close()
	return &csvBackend{file: file}, nil
}

func (b *csvBackend) Write(task atracing.Task) { b.tasks = append(b.tasks, task) }
func (b *csvBackend) Flush()                   {}
func (b *csvBackend) Written() int             { return len(b.tasks) }

func (b *csvBackend) Close(root string) error {
	ids := make(map[string]bool, len(b.tasks))
	for _, t := range b.tasks {
		ids[t.ID] = true
	}
	f, err := outputs.Create(b.file)
	if err != nil {
		return fmt.Errorf("trace: %v", err)
	}
	w := csv.NewWriter(f)
	_ = w.Write([]string{"ID", " ParentID", " Kind", " What", " Where", " Start", " End"})
	for _, t := range b.tasks {
		parent := t.ParentID
		if t.ID != root && !ids[parent] {
			parent = root
		}
		_ = w.Write([]string{t.ID, parent, t.Kind, t.What, t.Where,
			strconv.FormatFloat(float64(t.StartTime), 'f', 12, 64), strconv.FormatFloat(float64(t.EndTime), 'f', 12, 64)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return fmt.Errorf("trace: %v", err)
	}
	return f.Close()
}
