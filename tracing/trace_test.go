package tracing

import (
	"bytes"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	atracing "github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/internal/testframe"
	"github.com/gfxsim/gfxsim/scene"
	"github.com/gfxsim/gfxsim/scene/driver"
)

// expectedComponents are components whose tasks a full trace of the room must
// contain (every kind of gfxsim unit, the room samples textures); the first is
// the one whose task view the browser test opens.
var expectedComponents = []string{
	"GPU.ROP[0]", "GPU.CommandProcessor", "GPU.HostInterface", "GPU.InputAssembler",
	"GPU.PrimitiveAssembly", "GPU.Rasterizer[0]", "GPU.Rasterizer[1]", "GPU.HiZ[0]", "GPU.DepthUnit[0]",
	"GPU.DepthUnit[3]", "GPU.QuadPacker", "GPU.ReorderBuffer", "GPU.ShaderCore[0]", "GPU.TextureSampler[0]",
	"GPU.ROP[3]", "GPU.Memory.Channel[0]", "GPU.L2.Bank[0]",
}

// traceSmallFrame renders the room at 96x54 with every component traced and
// returns the trace file.
func traceSmallFrame(t *testing.T, dir string) string {
	t.Helper()
	return traceFrame(t, dir, scene.DefaultName)
}

// traceFrame renders the built-in scene name at 96x54 (4x MSAA) on the default
// machine with every component traced and returns the trace file.
func traceFrame(t *testing.T, dir, name string) string {
	t.Helper()
	file, _ := traceFrameWith(t, dir, name, nil, nil)
	return file
}

// buildFrame encodes the built-in scene name at w x h with spp samples per
// pixel and builds the default machine changed by machine (when not nil).
func buildFrame(t *testing.T, name string, w, h, spp int, machine func(*configs.Config)) (*configs.Platform, *driver.Frame) {
	t.Helper()
	return buildOn(t, defaultWith(machine), name, w, h, spp)
}

// defaultWith returns the default machine changed by machine (when not nil).
func defaultWith(machine func(*configs.Config)) *configs.Config {
	cfg := configs.Default()
	if machine != nil {
		machine(cfg)
	}
	return cfg
}

// buildOn encodes the built-in scene name at w x h with spp samples per pixel
// for machine cfg and builds it.
func buildOn(t *testing.T, cfg *configs.Config, name string, w, h, spp int) (*configs.Platform, *driver.Frame) {
	t.Helper()
	_, f := testframe.Encode(t, name, w, h, spp, cfg.DriverOptions())
	p, err := configs.Build(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p, f
}

// traceFrameWith is traceFrame on the default machine changed by machine (when
// not nil), with a second tracer, when not nil, attached to every traceable
// component beside the trace's. It returns the trace file and the frame's
// result. With dir "", nothing is traced.
func traceFrameWith(t *testing.T, dir, name string, machine func(*configs.Config),
	extra atracing.Tracer) (string, *configs.Result) {
	t.Helper()
	return traceMachineFrame(t, defaultWith(machine), dir, name, 96, 54, 4, extra)
}

// openTrace opens the SQLite trace file for the test; it is closed when the
// test ends.
func openTrace(t *testing.T, file string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// spans are the times of a trace: its tasks, those that end before they
// start (or start before 0), the span of the tasks other than the Simulation
// task, and the Simulation task's span.
type spans struct {
	tasks, backwards     int
	lo, hi, simLo, simHi float64
}

// traceSpans reads the spans of the trace in db.
func traceSpans(t *testing.T, db *sql.DB) spans {
	t.Helper()
	var s spans
	if err := db.QueryRow(`SELECT count(*), sum(end_time < start_time OR start_time < 0) FROM trace`).
		Scan(&s.tasks, &s.backwards); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT min(start_time), max(end_time) FROM trace WHERE kind != 'Simulation'`).
		Scan(&s.lo, &s.hi); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT start_time, end_time FROM trace WHERE task_id = ?`, SimulationTaskID).
		Scan(&s.simLo, &s.simHi); err != nil {
		t.Fatal(err)
	}
	return s
}

// orphansQuery counts the tasks, besides the Simulation task (its argument),
// whose parent is not in the trace.
const orphansQuery = `SELECT count(*) FROM trace WHERE task_id != ? AND parent_id NOT IN (SELECT task_id FROM trace)`

// count returns the number query selects from db (a count(*)).
func count(t *testing.T, db *sql.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func TestTraceHasEveryParent(t *testing.T) {
	file := traceSmallFrame(t, t.TempDir())
	db := openTrace(t, file)
	n := count(t, db, `SELECT count(*) FROM trace`)
	orphans := count(t, db, orphansQuery, SimulationTaskID)
	sims := count(t, db, `SELECT count(*) FROM trace WHERE kind = 'Simulation'`)
	if n < 100 || orphans != 0 || sims != 1 {
		t.Fatalf("%d tasks, %d orphans, %d Simulation tasks", n, orphans, sims)
	}
	for _, c := range expectedComponents {
		if k := count(t, db, `SELECT count(*) FROM trace WHERE location = ?`, c); k == 0 {
			t.Errorf("no task of %s", c)
		}
	}
}

// taskLedger is a tracer that checks the pairing of StartTask and EndTask: it
// keeps the open tasks and counts ends of tasks that were not open and starts of
// IDs that were started before (open or ended). It keeps every task's parent
// (orphans).
type taskLedger struct {
	open          map[string]atracing.Task
	seen          map[string]bool
	parents       []atracing.Task // every task started: ID, parent, kind, place
	strayEnds     []string
	doubleStarts  []string
	started, done int
}

func newTaskLedger() *taskLedger {
	return &taskLedger{open: map[string]atracing.Task{}, seen: map[string]bool{}}
}

func (l *taskLedger) StartTask(t atracing.Task) {
	if t.Kind == "sub-trans" {
		return // Akita's DRAM banks end these, and they are not traced: Attach leaves them out
	}
	if l.seen[t.ID] {
		l.doubleStarts = append(l.doubleStarts, t.ID)
	}
	l.seen[t.ID] = true
	l.open[t.ID] = t
	l.parents = append(l.parents, atracing.Task{ID: t.ID, ParentID: t.ParentID, Kind: t.Kind, Where: t.Where})
	l.started++
}

// orphans lists the tasks whose parent no task of the frame started (nor the
// Simulation task), by kind and location with an example, sorted: the trace
// re-parents them to the Simulation task, so they are lost to Daisen's parent
// chains.
func (l *taskLedger) orphans() []string {
	n := map[string]int{}
	example := map[string]string{}
	for _, t := range l.parents {
		if t.ParentID == SimulationTaskID || l.seen[t.ParentID] {
			continue
		}
		k := t.Kind + " at " + t.Where
		n[k]++
		example[k] = t.ID + " (parent " + t.ParentID + ")"
	}
	var out []string
	for k, v := range n {
		out = append(out, fmt.Sprintf("%d %s, e.g. %s", v, k, example[k]))
	}
	sort.Strings(out)
	return out
}

func (l *taskLedger) StepTask(atracing.Task) {}

func (l *taskLedger) EndTask(t atracing.Task) {
	if _, ok := l.open[t.ID]; !ok {
		l.strayEnds = append(l.strayEnds, t.ID)
		return
	}
	delete(l.open, t.ID)
	l.done++
}

// openSummary lists the open tasks by kind and location, sorted.
func (l *taskLedger) openSummary() []string {
	n := map[string]int{}
	for _, t := range l.open {
		n[t.Kind+" at "+t.Where]++
	}
	var out []string
	for k, v := range n {
		out = append(out, fmt.Sprintf("%d %s", v, k))
	}
	sort.Strings(out)
	return out
}

// taskKinds are the kinds docs/design-timing.md section 10 lists; a frame of the
// foliage scene (alpha-tested textured leaves: late Z) reports every one.
var taskKinds = []string{
	"Simulation", protocol.KindCommand, protocol.KindDraw, protocol.KindVertexBatch, protocol.KindVertexWarp,
	protocol.KindPrimitiveAssembly, protocol.KindRasterize, protocol.KindTile, protocol.KindPixelWarp,
	protocol.KindTextureRequest, protocol.KindLateZ, protocol.KindROPWrite, protocol.KindResolve,
	protocol.KindClear, protocol.KindFlush, "req_out", "req_in",
}

// link is one task of a parent chain: its kind and a pattern its location
// matches.
type link struct{ kind, where string }

// chainFrom returns the kinds and locations from task id up to the root, or an
// error naming a missing task or a cycle.
func chainFrom(db *sql.DB, id string) ([]link, error) {
	var out []link
	seen := map[string]bool{}
	for id != "" {
		if seen[id] {
			return out, fmt.Errorf("cycle at %s", id)
		}
		seen[id] = true
		var parent, kind, where sql.NullString
		if err := db.QueryRow(`SELECT parent_id, kind, location FROM trace WHERE task_id = ?`, id).
			Scan(&parent, &kind, &where); err != nil {
			return out, fmt.Errorf("task %q: %v", id, err)
		}
		out = append(out, link{kind.String, where.String})
		if id == SimulationTaskID {
			break
		}
		id = parent.String
	}
	return out, nil
}

// matches reports whether the chain got follows want.
func matches(got, want []link) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].kind != want[i].kind || !regexp.MustCompile(want[i].where).MatchString(got[i].where) {
			return false
		}
	}
	return true
}

func TestTraceTasks(t *testing.T) {
	ledger := newTaskLedger()
	// Colour and depth caches of 1 KB: the draws' quads miss and evict lines, so
	// their memory requests hang below the ROP's and the depth unit's tasks.
	small := func(c *configs.Config) { c.ROP.Cache.SizeKB, c.DepthUnit.Cache.SizeKB = 1, 1 }
	file, traced := traceFrameWith(t, t.TempDir(), "foliage", small, ledger)
	db := openTrace(t, file)

	t.Run("every started task ends", func(t *testing.T) {
		ledger.checkBalanced(t)
		n := count(t, db, `SELECT count(*) FROM trace`)
		if subTrans := count(t, db, `SELECT count(*) FROM trace WHERE kind = 'sub-trans'`); subTrans != 0 {
			t.Errorf("%d of Akita's DRAM sub-trans tasks in the trace (their banks cannot end them)", subTrans)
		}
		if n != ledger.done+1 { // and the Simulation task, which Close ends
			t.Errorf("%d tasks in the trace, %d ended during the frame", n, ledger.done)
		}
	})

	t.Run("same frame untraced", func(t *testing.T) {
		_, plain := traceFrameWith(t, "", "foliage", small, nil)
		sameFrame(t, traced, plain)
	})

	t.Run("times", func(t *testing.T) {
		s := traceSpans(t, db)
		if s.tasks == 0 || s.backwards != 0 {
			t.Errorf("%d of %d tasks end before they start", s.backwards, s.tasks)
		}
		lo, hi, slo, shi := s.lo, s.hi, s.simLo, s.simHi
		if lo < slo || hi > shi {
			t.Errorf("tasks span [%g, %g], the Simulation task [%g, %g]", lo, hi, slo, shi)
		}
		// The Simulation task ends with the frame (or its last task), not at the
		// watchdog's last wake-up after it.
		if shi != max(hi, traced.Seconds) {
			t.Errorf("the Simulation task ends at %g s; the frame at %g s, its last task at %g s", shi, traced.Seconds, hi)
		}
	})

	t.Run("kinds", func(t *testing.T) {
		for _, k := range taskKinds {
			if n := count(t, db, `SELECT count(*) FROM trace WHERE kind = ?`, k); n == 0 {
				t.Errorf("no task of kind %s", k)
			}
		}
	})

	// Parent chains a user follows in Daisen, from a memory request (or a unit's
	// task) up to the draw, its command and the Simulation task.
	up := []link{{"draw", `^GPU\.CommandProcessor$`}, {"command", `^GPU\.CommandProcessor$`}, {"Simulation", `^GPU$`}}
	chains := []struct {
		name  string
		chain []link // from the first task up; the first two links select it
	}{
		{"ROP memory request", append([]link{{"req_in", `^GPU\.Memory\.Channel\[\d\]$`},
			{"req_out", `^GPU\.ROP\[\d\]$`}, {"rop_write", `^GPU\.ROP\[\d\]$`}}, up...)},
		{"texture read at the L2", append([]link{{"req_in", `^GPU\.L2\.Bank\[\d\]$`},
			{"req_out", `^GPU\.TextureSampler\[\d\]$`}, {"texture_request", `^GPU\.TextureSampler\[\d\]$`},
			{"req_out", `^GPU\.ShaderCore\[\d\]$`}, {"pixel_warp", `^GPU\.ShaderCore\[\d\]$`},
			{"pixel_warp", `^GPU\.ReorderBuffer$`}, {"pixel_warp", `^GPU\.QuadPacker$`}}, up...)},
		{"depth read", append([]link{{"req_in", `^GPU\.Memory\.Channel\[\d\]$`},
			{"req_out", `^GPU\.DepthUnit\[\d\]$`}, {"tile", `^GPU\.DepthUnit\[\d\]$`},
			{"tile", `^GPU\.Rasterizer\[\d\]$`}, {"rasterize", `^GPU\.Rasterizer\[\d\]$`}}, up...)},
		{"HiZ tile", append([]link{{"tile", `^GPU\.HiZ\[\d\]$`},
			{"tile", `^GPU\.Rasterizer\[\d\]$`}, {"rasterize", `^GPU\.Rasterizer\[\d\]$`}}, up...)},
		{"late Z", append([]link{{"late_z", `^GPU\.DepthUnit\[\d\]$`},
			{"req_out", `^GPU\.ROP\[\d\]$`}, {"rop_write", `^GPU\.ROP\[\d\]$`}}, up...)},
		{"vertex read", append([]link{{"req_in", `^GPU\.Memory\.Channel\[\d\]$`},
			{"req_out", `^GPU\.InputAssembler$`}, {"vertex_batch", `^GPU\.InputAssembler$`}}, up...)},
		{"vertex warp", append([]link{{"vertex_warp", `^GPU\.ShaderCore\[\d\]$`},
			{"vertex_batch", `^GPU\.InputAssembler$`}}, up...)},
		{"primitive assembly", append([]link{{"primitive_assembly", `^GPU\.PrimitiveAssembly$`},
			{"vertex_batch", `^GPU\.InputAssembler$`}}, up...)},
		{"shader DMA", []link{{"req_in", `^GPU\.Memory\.Channel\[\d\]$`},
			{"req_out", `^GPU\.HostInterface$`}, {"req_in", `^GPU\.HostInterface$`},
			{"req_out", `^GPU\.CommandProcessor$`}, {"command", `^GPU\.CommandProcessor$`}, {"Simulation", `^GPU$`}}},
		{"resolve write", []link{{"req_in", `^GPU\.Memory\.Channel\[\d\]$`},
			{"req_out", `^GPU\.ROP\[\d\]$`}, {"resolve", `^GPU\.ROP\[\d\]$`},
			{"req_out", `^GPU\.CommandProcessor$`}, {"command", `^GPU\.CommandProcessor$`}, {"Simulation", `^GPU$`}}},
		{"HiZ flush", []link{{"req_out", `^GPU\.HiZ\[\d\]$`}, {"flush", `^GPU\.HiZ\[\d\]$`},
			{"req_out", `^GPU\.DepthUnit\[\d\]$`}, {"flush", `^GPU\.DepthUnit\[\d\]$`},
			{"req_out", `^GPU\.CommandProcessor$`}, {"command", `^GPU\.CommandProcessor$`}, {"Simulation", `^GPU$`}}},
	}
	for _, c := range chains {
		t.Run("chain "+c.name, func(t *testing.T) {
			// The candidates: tasks of the first link's kind and place whose parent
			// is of the second link's kind and place (a memory request may belong
			// to other work: a resolve, a flush). One must follow the whole chain.
			var ids []string
			rows, err := db.Query(`SELECT t.task_id, t.location, p.location FROM trace t JOIN trace p
				ON t.parent_id = p.task_id WHERE t.kind = ? AND p.kind = ? ORDER BY t.start_time, t.task_id`,
				c.chain[0].kind, c.chain[1].kind)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var id, where, pwhere string
				if err := rows.Scan(&id, &where, &pwhere); err != nil {
					t.Fatal(err)
				}
				if regexp.MustCompile(c.chain[0].where).MatchString(where) &&
					regexp.MustCompile(c.chain[1].where).MatchString(pwhere) {
					ids = append(ids, id)
				}
			}
			rows.Close()
			if len(ids) == 0 {
				t.Fatalf("no %s task at %s whose parent is a %s task at %s", c.chain[0].kind, c.chain[0].where,
					c.chain[1].kind, c.chain[1].where)
			}
			var first []link
			for i, id := range ids {
				got, err := chainFrom(db, id)
				if err != nil {
					t.Fatalf("from %s: %v (so far %v)", id, err, got)
				}
				if matches(got, c.chain) {
					return
				}
				if i == 0 {
					first = got
				}
			}
			var b strings.Builder
			for _, l := range first {
				fmt.Fprintf(&b, "\n\t%s at %s", l.kind, l.where)
			}
			t.Errorf("none of %d candidates follows the chain; from %s it is:%s", len(ids), ids[0], b.String())
		})
	}
}

func TestSimulationTaskIDAgrees(t *testing.T) {
	if protocol.SimulationTaskID != SimulationTaskID {
		t.Fatalf("components parent tasks to %q, the trace's root is %q", protocol.SimulationTaskID, SimulationTaskID)
	}
}

// sameFrame checks that tracing changed nothing: the traced and untraced runs
// of a frame have the same cycles, events, image and every counter.
func sameFrame(t *testing.T, traced, plain *configs.Result) {
	t.Helper()
	if traced.Cycles != plain.Cycles || traced.Events != plain.Events ||
		!bytes.Equal(traced.Image.Pix, plain.Image.Pix) {
		t.Errorf("traced: %d cycles, %d events; untraced: %d cycles, %d events; same image: %v",
			traced.Cycles, traced.Events, plain.Cycles, plain.Events, bytes.Equal(traced.Image.Pix, plain.Image.Pix))
	}
	var diff []string
	for k, v := range plain.Stats {
		if w, ok := traced.Stats[k]; !ok || w != v {
			diff = append(diff, fmt.Sprintf("%s: %v untraced, %v traced", k, v, w))
		}
	}
	sort.Strings(diff)
	if len(diff) > 0 || len(traced.Stats) != len(plain.Stats) {
		t.Errorf("%d and %d counters; differences: %v", len(plain.Stats), len(traced.Stats), diff[:min(10, len(diff))])
	}
}

// checkBalanced fails t unless every task the ledger saw start has ended, no
// task ended without being open, and no ID started twice.
func (l *taskLedger) checkBalanced(t *testing.T) {
	t.Helper()
	if len(l.open) > 0 || len(l.strayEnds) > 0 || len(l.doubleStarts) > 0 {
		stray := l.strayEnds[:min(5, len(l.strayEnds))]
		double := l.doubleStarts[:min(5, len(l.doubleStarts))]
		t.Errorf("after the frame: open %v; %d ends of tasks not open (%v); %d IDs started twice (%v)",
			l.openSummary(), len(l.strayEnds), stray, len(l.doubleStarts), double)
	}
}

// TestParallelEngineTrace: on the parallel engine, whose workers record the
// tasks of one time at once, a traced frame records the serial engine's
// tasks: the same kinds at the same places with the same start and end times
// (their IDs, given out in creation order, may differ), and the same frame.
func TestParallelEngineTrace(t *testing.T) {
	tasks := func(file string) []string {
		db := openTrace(t, file)
		rows, err := db.Query(`SELECT kind, what, location, start_time, end_time FROM trace`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var kind, what, loc string
			var start, end float64
			if err := rows.Scan(&kind, &what, &loc, &start, &end); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s %s %s %.15g %.15g", kind, what, loc, start, end))
		}
		slices.Sort(out)
		return out
	}
	serialFile, serial := traceFrameWith(t, t.TempDir(), scene.DefaultName, nil, nil)
	parFile, par := traceFrameWith(t, t.TempDir(), scene.DefaultName, func(c *configs.Config) { c.Engine = "parallel" }, nil)
	sameFrame(t, serial, par)
	a, b := tasks(serialFile), tasks(parFile)
	if len(a) != len(b) {
		t.Fatalf("%d tasks on the parallel engine, %d on the serial one", len(b), len(a))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("task %d of %d differs: %q on the parallel engine, %q on the serial one", i, len(a), b[i], a[i])
		}
	}
}
