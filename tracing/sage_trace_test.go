package tracing

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	atracing "github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/configs"
)

// traceSageFrame renders the built-in scene name at 64x40 (4 samples per
// pixel) on the SAGE board with every component traced, the ledger attached
// (when not nil) beside the trace, and returns the trace file and the result. With dir "",
// nothing is traced.
func traceSageFrame(t *testing.T, dir, name string, ledger atracing.Tracer) (string, *configs.Result) {
	t.Helper()
	return traceSageFrameOn(t, configs.SageMachine(), dir, name, ledger)
}

// traceSageFrameOn is traceSageFrame on machine cfg.
func traceSageFrameOn(t *testing.T, cfg *configs.Config, dir, name string, ledger atracing.Tracer) (string, *configs.Result) {
	t.Helper()
	return traceMachineFrame(t, cfg, dir, name, 64, 40, 4, ledger)
}

// traceMachineFrame renders the built-in scene name at w x h with spp samples
// per pixel on machine cfg with every component traced, the ledger attached
// (when not nil) beside the trace, and returns the trace file and the result. With dir "",
// nothing is traced.
func traceMachineFrame(t *testing.T, cfg *configs.Config, dir, name string, w, h, spp int,
	ledger atracing.Tracer) (string, *configs.Result) {
	t.Helper()
	p, f := buildOn(t, cfg, name, w, h, spp)
	if dir == "" {
		res, err := p.Run(f)
		if err != nil {
			t.Fatal(err)
		}
		return "", res
	}
	tr, err := Attach(p, Options{Path: filepath.Join(dir, "trace")})
	if err != nil {
		t.Fatal(err)
	}
	if ledger != nil {
		OnTraceable(p, func(c atracing.NamedHookable) { atracing.CollectTrace(c, ledger) })
	}
	res, err := p.Run(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	return tr.File(), res
}

// sageTaskKinds are the kinds of the SAGE machine's own chips.
var sageTaskKinds = []string{protocol.KindDrawChunk, protocol.KindSampleWarp, protocol.KindSampleBurst,
	protocol.KindSampleWrite, protocol.KindClear, protocol.KindFlush, protocol.KindSwathLine, protocol.KindScanLine}

// TestSageTwoChannelTrace: with two video channels each output's scan lines
// are tasks of their own (".channel<c>" IDs), each started once and ended.
func TestSageTwoChannelTrace(t *testing.T) {
	cfg, err := configs.Parse("two.yaml", []byte("machine: sage\nsage: {video: {channels: 2}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	ledger := newTaskLedger()
	file, _ := traceSageFrameOn(t, cfg, t.TempDir(), "triangle", ledger)
	if len(ledger.open) > 0 || len(ledger.strayEnds) > 0 || len(ledger.doubleStarts) > 0 {
		t.Errorf("open %v; %d stray ends; IDs started twice: %v", ledger.openSummary(), len(ledger.strayEnds),
			ledger.doubleStarts[:min(5, len(ledger.doubleStarts))])
	}
	db := openTrace(t, file)
	for c := 0; c < 2; c++ {
		n := count(t, db, `SELECT count(*) FROM trace WHERE kind = ? AND task_id LIKE ? AND location = ?`,
			protocol.KindScanLine, fmt.Sprintf("%%.channel%d", c), fmt.Sprintf("GPU.Video[%d]", c))
		if n != 40 {
			t.Errorf("channel %d: %d scan_line tasks at GPU.Video[%d], want 40", c, n, c)
		}
	}
}

func TestSageTraceTasks(t *testing.T) {
	ledger := newTaskLedger()
	file, traced := traceSageFrame(t, t.TempDir(), "room", ledger)
	db := openTrace(t, file)

	t.Run("every started task ends", func(t *testing.T) {
		ledger.checkBalanced(t)
		if n := count(t, db, `SELECT count(*) FROM trace`); n != ledger.done+1 { // and the Simulation task, which Close ends
			t.Errorf("%d tasks in the trace, %d ended during the frame", n, ledger.done)
		}
		if orphans := count(t, db, orphansQuery, SimulationTaskID); orphans != 0 {
			t.Errorf("%d tasks without a parent", orphans)
		}
	})

	t.Run("same frame untraced", func(t *testing.T) {
		_, plain := traceSageFrame(t, "", "room", nil)
		sameFrame(t, traced, plain)
	})

	t.Run("times", func(t *testing.T) {
		s := traceSpans(t, db)
		if s.backwards != 0 || s.lo < s.simLo || s.hi > s.simHi {
			t.Errorf("%d of %d tasks end before they start; tasks span [%g, %g], the Simulation task [%g, %g]",
				s.backwards, s.tasks, s.lo, s.hi, s.simLo, s.simHi)
		}
	})

	// Every SAGE task kind, at its chip, with its parent chain up to the
	// Simulation task.
	up := []link{{"draw", `^GPU\.CommandProcessor$`}, {"command", `^GPU\.CommandProcessor$`}, {"Simulation", `^GPU$`}}
	present := []link{{"req_out", `^GPU\.CommandProcessor$`}, {"command", `^GPU\.CommandProcessor$`}, {"Simulation", `^GPU$`}}
	chains := []struct {
		name  string
		chain []link // from the first task up; the first two links select it
	}{
		{"draw chunk", append([]link{{protocol.KindDrawChunk, `^GPU\.Distributor$`}}, up...)},
		{"sample warp at the shader core", append([]link{{protocol.KindSampleWarp, `^GPU\.Pipe\[\d\]\.ShaderCore\[0\]$`},
			{protocol.KindSampleWarp, `^GPU\.Pipe\[\d\]\.SampleFill$`}}, up...)},
		{"texture request of a sample warp", append([]link{{"texture_request", `^GPU\.TextureSampler\[\d\]$`},
			{"req_out", `^GPU\.Pipe\[\d\]\.ShaderCore\[0\]$`}, {protocol.KindSampleWarp, `^GPU\.Pipe\[\d\]\.ShaderCore\[0\]$`},
			{protocol.KindSampleWarp, `^GPU\.Pipe\[\d\]\.SampleFill$`}}, up...)},
		{"sample burst", append([]link{{protocol.KindSampleBurst, `^GPU\.Sched\[\d\]$`}}, up...)},
		{"sample write", append([]link{{protocol.KindSampleWrite, `^GPU\.Interleave\[\d\]$`}}, up...)},
		{"clear", append([]link{{protocol.KindClear, `^GPU\.Interleave\[\d\]$`}}, present...)},
		{"present's flush", append([]link{{protocol.KindFlush, `^GPU\.Interleave\[\d\]$`}}, present...)},
		{"swath line", append([]link{{protocol.KindSwathLine, `^GPU\.Convolve\[3\]$`}}, present...)},
		{"scan line", append([]link{{protocol.KindScanLine, `^GPU\.Video$`}}, present...)},
	}
	covered := map[string]bool{}
	for _, c := range chains {
		covered[c.chain[0].kind] = true
		t.Run("chain "+c.name, func(t *testing.T) { followChain(t, db, c.chain) })
	}
	for _, k := range sageTaskKinds {
		if !covered[k] {
			t.Errorf("no chain checks kind %s", k)
		}
	}
}

// followChain checks that some task of chain's first link (kind and place)
// whose parent is of the second link's kind and place follows the whole chain.
func followChain(t *testing.T, db *sql.DB, chain []link) {
	t.Helper()
	rows, err := db.Query(`SELECT t.task_id, t.location, p.location FROM trace t JOIN trace p
		ON t.parent_id = p.task_id WHERE t.kind = ? AND p.kind = ? ORDER BY t.start_time, t.task_id`,
		chain[0].kind, chain[1].kind)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for rows.Next() {
		var id, where, pwhere string
		if err := rows.Scan(&id, &where, &pwhere); err != nil {
			t.Fatal(err)
		}
		if matches([]link{{chain[0].kind, where}, {chain[1].kind, pwhere}}, chain[:2]) {
			ids = append(ids, id)
		}
	}
	rows.Close()
	if len(ids) == 0 {
		t.Fatalf("no %s task at %s whose parent is a %s task at %s", chain[0].kind, chain[0].where,
			chain[1].kind, chain[1].where)
	}
	var first []link
	for i, id := range ids {
		got, err := chainFrom(db, id)
		if err != nil {
			t.Fatalf("from %s: %v (so far %v)", id, err, got)
		}
		if matches(got, chain) {
			return
		}
		if i == 0 {
			first = got
		}
	}
	t.Errorf("none of %d candidates follows the chain; from %s it is: %v", len(ids), ids[0], first)
}
