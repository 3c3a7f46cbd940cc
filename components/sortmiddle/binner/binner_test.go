package binner

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/binning"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/timing"
)

// scheduler answers every BinnedPass with Done at once and keeps them.
// answerPass is the tile scheduler's answer to the binner: Done for each
// BinnedPass.
func answerPass(m sim.Msg) sim.Msg {
	p := m.(*protocol.BinnedPass)
	d := protocol.NewDone(p.ID, 0)
	d.Dst = p.Src
	return d
}

// passes returns the BinnedPasses the scheduler took, in order.
func (r *rig) passes() []*protocol.BinnedPass {
	var out []*protocol.BinnedPass
	for _, tk := range r.sched.Took {
		out = append(out, tk.Msg.(*protocol.BinnedPass))
	}
	return out
}

type rig struct {
	e     sim.Engine
	b     *Binner
	pa    *testpeer.Source
	cp    *testpeer.Peer
	sched *testpeer.Responder // the tile scheduler
	mem   *testpeer.Memory
}

func newRig(t *testing.T, cfg Config, g binning.Grid, script []testpeer.Scripted, cpScript []testpeer.Scripted) *rig {
	t.Helper()
	return newTracedRig(t, cfg, g, script, cpScript, nil)
}

// newTracedRig is newRig with tracer, when not nil, attached to the binner.
func newTracedRig(t *testing.T, cfg Config, g binning.Grid, script []testpeer.Scripted, cpScript []testpeer.Scripted,
	tracer tracing.Tracer) *rig {
	t.Helper()
	e := sim.NewSerialEngine()
	r := &rig{e: e}
	r.b = MakeBuilder().WithEnv(timing.Env{Engine: e, Freq: testpeer.Freq, Halt: &timing.Halt{}, Progress: &timing.Progress{}}).
		WithConfig(cfg).Build("Binner")
	if tracer != nil {
		tracing.CollectTrace(r.b, tracer)
	}
	r.pa = testpeer.NewSource("PA", e, script)
	r.pa.Dst = r.b.FromPrimitiveAssembly
	r.cp = testpeer.NewPeer("CP", e, 16)
	for i := range cpScript {
		cpScript[i].Dst = r.b.Control
	}
	r.cp.Script = cpScript
	r.sched = testpeer.NewResponder("Scheduler", e, 4, answerPass)
	r.mem = testpeer.NewMemory(e, command.NewImage(), 10)
	conn := sim.NewDirectConnection("Conn", e, testpeer.Freq)
	for _, p := range []sim.Port{r.b.FromPrimitiveAssembly, r.b.Control, r.b.ToMemory, r.b.ToScheduler,
		r.pa.Out, r.cp.Port, r.sched.Port, r.mem.Top} {
		conn.PlugIn(p, 16)
	}
	r.b.CommandProcessor, r.b.Scheduler = r.cp.Port, r.sched.Port
	r.b.Memory = single{r.mem.Top}
	r.b.SetFrame(g, 1<<30)
	r.pa.TickLater(0)
	r.cp.TickLater(0)
	testpeer.Run(t, e)
	if err := r.b.Err(); err != nil {
		t.Fatal(err)
	}
	return r
}

type single struct{ p sim.Port }

func (s single) Find(uint64) sim.Port { return s.p }

func prim(box raster.Rect) *pipeline.Primitive {
	return &pipeline.Primitive{Triangle: raster.Triangle{BBox: box}}
}

// TestBinSpreadAndBytes bins three primitives of known boxes on a 64x64
// screen of 16x16 tiles: 1, 6 and 16 tiles.
func TestBinSpreadAndBytes(t *testing.T) {
	d := &protocol.Draw{Seq: 0, State: &state.Draw{}}
	boxes := []raster.Rect{{X0: 0, Y0: 0, X1: 16, Y1: 16}, {X0: 10, Y0: 10, X1: 40, Y1: 20}, {X0: -5, Y0: -5, X1: 100, Y1: 100}}
	var script []testpeer.Scripted
	for i, b := range boxes {
		script = append(script, testpeer.Scripted{Msg: protocol.NewPrimitiveMsg(d, prim(b), uint64(i))})
	}
	script = append(script, testpeer.Scripted{Msg: protocol.NewDrawEnd(d, 0)})
	cfg := DefaultConfig()
	r := newRig(t, cfg, binning.Grid{Width: 64, Height: 64, TileW: 16, TileH: 16}, script,
		[]testpeer.Scripted{{At: 200, Msg: protocol.NewPassEnd()}})
	st := testpeer.StatMap(r.b)
	testpeer.CheckStats(t, st, "Binner", map[string]float64{
		"primitives": 3, "bin_entries": 23, "bin_spread": 23.0 / 3, "bin_spread_max": 16, "draws": 1, "passes": 1,
		"chunks": 16, "bin_bytes_written": 23 * binning.EntryBytes, "parameter_bytes_written": 3 * 64,
	})
	if len(r.passes()) != 1 {
		t.Fatalf("%d passes reached the scheduler", len(r.passes()))
	}
	p := r.passes()[0]
	want := map[int][]uint32{0: {0, 1, 2}, 1: {1, 2}, 2: {1, 2}, 4: {1, 2}, 5: {1, 2}, 6: {1, 2}}
	for k, bin := range p.Bins {
		w, ok := want[k]
		if !ok {
			w = []uint32{2}
		}
		if len(bin.Entries) != len(w) {
			t.Errorf("bin %d: entries %v, want %v", k, bin.Entries, w)
			continue
		}
		for i := range w {
			if bin.Entries[i] != w[i] {
				t.Errorf("bin %d: entries %v, want %v", k, bin.Entries, w)
			}
		}
	}
	// The CP got the DrawDone and the PassEnd's Done.
	var dones, drawDones int
	for _, g := range r.cp.Got {
		switch g.Msg.(type) {
		case *protocol.Done:
			dones++
		case *protocol.DrawDone:
			drawDones++
		}
	}
	if dones != 1 || drawDones != 1 {
		t.Errorf("the command processor got %d Done and %d DrawDone, want 1 and 1", dones, drawDones)
	}
	var bytes uint64
	for _, q := range r.mem.Log {
		if !q.Write {
			t.Errorf("the binner read %d bytes at 0x%x", q.Size, q.Addr)
		}
		bytes += q.Size
	}
	if bytes != 23*8+3*64 {
		t.Errorf("%d bytes written to memory, want %d", bytes, 23*8+3*64)
	}
}

// TestChunkLinks fills chunks of 32 bytes (three entries and a link): seven
// primitives in one tile take three chunks and two links.
func TestChunkLinks(t *testing.T) {
	d := &protocol.Draw{Seq: 3, State: &state.Draw{}}
	var script []testpeer.Scripted
	for i := 0; i < 7; i++ {
		script = append(script, testpeer.Scripted{Msg: protocol.NewPrimitiveMsg(d, prim(raster.Rect{X1: 4, Y1: 4}), uint64(i))})
	}
	cfg := DefaultConfig()
	cfg.ChunkBytes = 32
	r := newRig(t, cfg, binning.Grid{Width: 16, Height: 16, TileW: 16, TileH: 16}, script,
		[]testpeer.Scripted{{At: 200, Msg: protocol.NewPassEnd()}})
	st := testpeer.StatMap(r.b)
	testpeer.CheckStats(t, st, "Binner", map[string]float64{
		"bin_entries": 7, "chunks": 3, "bin_bytes_written": 7*8 + 2*8,
	})
	bin := r.passes()[0].Bins[0]
	if len(bin.Chunks) != 3 || bin.Chunks[1] != bin.Chunks[0]+32 {
		t.Errorf("chunks %#x", bin.Chunks)
	}
}

// TestEmptyPass: a pass without draws, clears or present is answered at once
// without reaching the scheduler.
func TestEmptyPass(t *testing.T) {
	r := newRig(t, DefaultConfig(), binning.Grid{Width: 16, Height: 16, TileW: 16, TileH: 16}, nil,
		[]testpeer.Scripted{{At: 1, Msg: protocol.NewPassEnd()}})
	if len(r.passes()) != 0 || len(r.cp.Got) != 1 {
		t.Errorf("%d passes scheduled, %d answers", len(r.passes()), len(r.cp.Got))
	}
	testpeer.CheckStats(t, testpeer.StatMap(r.b), "Binner", map[string]float64{"empty_passes": 1, "passes": 0})
}

// TestClearAndPresent: a ClearCmd and a PresentCmd are each answered at once
// and counted (clears, presents); the pass that ends them, without draws,
// goes to the scheduler (its cleared target's tiles are stored).
func TestClearAndPresent(t *testing.T) {
	target := command.Target{Addr: 0x1000, Width: 16, Height: 16, Samples: 1, TileW: 16, TileH: 16}
	r := newRig(t, DefaultConfig(), binning.Grid{Width: 16, Height: 16, TileW: 16, TileH: 16}, nil,
		[]testpeer.Scripted{
			{At: 1, Msg: protocol.NewClearCmd(command.ClearColor, target, 16*16*4)},
			{At: 2, Msg: protocol.NewPresentCmd(target, 0x9000)},
			{At: 3, Msg: protocol.NewPresentPassEnd(target, 0x9000)},
		})
	if len(r.passes()) != 1 || len(r.cp.Got) != 3 {
		t.Errorf("%d passes scheduled, %d answers; want 1 and 3", len(r.passes()), len(r.cp.Got))
	}
	testpeer.CheckStats(t, testpeer.StatMap(r.b), "Binner", map[string]float64{"clears": 1, "presents": 1,
		"passes": 1, "empty_passes": 0})
}

// TestTraced: with a tracer attached, each pass is a "pass" task "pass<p>"
// below the Simulation task, from its first draw to its Done, numbered from 0
// (BinnedPass.Seq); each primitive a "bin" task "draw<s>.prim<t>.<p>@bin"
// below its draw, labelled with its bin spread; the bins' and the parameter
// buffer's writes req_out tasks below their pass. Every task ends.
func TestTraced(t *testing.T) {
	d0 := &protocol.Draw{Seq: 0, State: &state.Draw{}}
	d1 := &protocol.Draw{Seq: 1, State: &state.Draw{}}
	primAt := func(box raster.Rect, source int) *pipeline.Primitive {
		p := prim(box)
		p.Source = source
		return p
	}
	script := []testpeer.Scripted{
		{Msg: protocol.NewPrimitiveMsg(d0, primAt(raster.Rect{X1: 16, Y1: 16}, 0), 0)},
		{Msg: protocol.NewPrimitiveMsg(d0, primAt(raster.Rect{X0: 10, Y0: 10, X1: 40, Y1: 20}, 1), 1)},
		{Msg: protocol.NewDrawEnd(d0, 0)},
		{At: 400, Msg: protocol.NewPrimitiveMsg(d1, primAt(raster.Rect{X0: 20, Y0: 36, X1: 30, Y1: 46}, 7), 0)},
		{At: 400, Msg: protocol.NewDrawEnd(d1, 0)},
	}
	log := &testpeer.TaskLog{}
	r := newTracedRig(t, DefaultConfig(), binning.Grid{Width: 64, Height: 64, TileW: 16, TileH: 16}, script,
		[]testpeer.Scripted{{At: 200, Msg: protocol.NewPassEnd()}, {At: 600, Msg: protocol.NewPassEnd()}}, log)
	if len(r.passes()) != 2 || r.passes()[0].Seq != 0 || r.passes()[1].Seq != 1 {
		t.Fatalf("%d passes scheduled, want passes 0 and 1", len(r.passes()))
	}
	want := []tracing.Task{
		{ID: "pass0", ParentID: protocol.SimulationTaskID, Kind: protocol.KindPass, What: "pass 0"},
		{ID: "draw0.prim0.0@bin", ParentID: "draw0", Kind: protocol.KindBin, What: "1 tiles"},
		{ID: "draw0.prim1.0@bin", ParentID: "draw0", Kind: protocol.KindBin, What: "6 tiles"},
		{ID: "pass1", ParentID: protocol.SimulationTaskID, Kind: protocol.KindPass, What: "pass 1"},
		{ID: "draw1.prim7.0@bin", ParentID: "draw1", Kind: protocol.KindBin, What: "1 tiles"},
	}
	var got []tracing.Task
	writes := map[string]int{}
	for _, task := range log.Started {
		if !log.Ended[task.ID] {
			t.Errorf("task %s did not end", task.ID)
		}
		if task.Kind == "req_out" {
			writes[task.ParentID]++
			continue
		}
		got = append(got, tracing.Task{ID: task.ID, ParentID: task.ParentID, Kind: task.Kind, What: task.What})
	}
	if len(got) != len(want) {
		t.Fatalf("tasks %+v, want %+v", got, want)
	}
	for i := range want {
		if g, w := got[i], want[i]; g.ID != w.ID || g.ParentID != w.ParentID || g.Kind != w.Kind || g.What != w.What {
			t.Errorf("task %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	// Pass 0: 7 entries in 7 lines and a parameter line; pass 1: 1 and 1.
	if writes["pass0"] != 8 || writes["pass1"] != 2 || len(writes) != 2 || len(r.mem.Log) != 10 {
		t.Errorf("memory writes below the passes %v, %d writes, want 8 below pass0 and 2 below pass1", writes, len(r.mem.Log))
	}
}

func TestConfigValidate(t *testing.T) {
	testpeer.CheckInvalid(t, DefaultConfig(),
		testpeer.Reject(func(c *Config) { c.LineBytes = 48 }, "binner: LineBytes 48 must be a power of two of at least 8"),
		testpeer.Reject(func(c *Config) { c.ChunkBytes = 96 },
			"binner: ChunkBytes 96 must hold an entry and a link and align with LineBytes (64)"))
	testpeer.CheckAtLeast(t, DefaultConfig(), "binner", 1, "EntriesPerCycle", "MaxOutstandingMemory", "InputQueue")
	testpeer.CheckEnv(t, true, func(e timing.Env) { MakeBuilder().WithEnv(e).Build("Binner") })
}
