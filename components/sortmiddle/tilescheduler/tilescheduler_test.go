package tilescheduler

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/binning"
	"github.com/gfxsim/gfxsim/timing"
)

// handout is a tile job a fake unit took: the tile, its pass, the unit and
// the cycle.
type handout struct {
	Tile, Unit int
	Pass       string
	Cycle      uint64
}

// unit plays a tile unit: it works on the jobs it takes one at a time, in
// order, and answers each with Done Delay cycles after it starts it. It
// appends every job it takes to the log shared by the units, and records the
// most jobs it held at once (taken and not yet answered) and the cycle of
// each Done.
type unit struct {
	*sim.TickingComponent
	Port      sim.Port
	Scheduler sim.Port
	Index     int
	Delay     uint64
	log       *[]handout
	took      []testpeer.Taken
	dones     testpeer.Schedule
	free      uint64 // the cycle the unit is done with its last job
	held      int
	MaxHeld   int
	DoneAt    []uint64
}

func newUnit(k int, e sim.Engine, delay uint64, log *[]handout) *unit {
	u := &unit{Index: k, Delay: delay, log: log}
	name := fmt.Sprintf("TileUnit[%d]", k)
	u.TickingComponent = sim.NewTickingComponent(name, e, testpeer.Freq, u)
	u.Port = timing.AddPort(u, "Port", 16)
	return u
}

func (u *unit) Tick(now sim.VTimeInSec) bool {
	return u.dones.Serve(now, []sim.Port{u.Port}, &u.took, u.take)
}

// take starts job msg once the unit is free and schedules its Done.
func (u *unit) take(cycle uint64, _ sim.Port, msg sim.Msg) {
	job := msg.(*protocol.TileJob)
	*u.log = append(*u.log, handout{Tile: job.Tile, Unit: u.Index, Pass: job.Pass.ID, Cycle: cycle})
	u.free = max(u.free, cycle) + u.Delay
	d := protocol.NewDone(job.ID, u.Index)
	d.Src, d.Dst = u.Port, u.Scheduler
	u.held++
	u.MaxHeld = max(u.MaxHeld, u.held)
	u.dones.SendThen(u.free, u.Port, d, func(now sim.VTimeInSec) {
		u.held--
		u.DoneAt = append(u.DoneAt, testpeer.Freq.Cycle(now))
	})
}

type rig struct {
	e      sim.Engine
	halt   *timing.Halt
	s      *Scheduler
	binner *testpeer.Peer
	units  []*unit
	log    []handout
}

// newRig wires a scheduler of cfg to a fake binner that sends passes at cycle
// 0 and one fake unit per delay, and runs until everything drained.
func newRig(t *testing.T, cfg Config, delays []uint64, passes ...*protocol.BinnedPass) *rig {
	t.Helper()
	e := sim.NewSerialEngine()
	r := &rig{e: e, halt: &timing.Halt{}}
	r.s = MakeBuilder().WithEnv(timing.Env{Engine: e, Freq: testpeer.Freq, Halt: r.halt, Progress: &timing.Progress{}}).
		WithConfig(cfg).Build("TileScheduler")
	r.binner = testpeer.NewPeer("Binner", e, 4)
	for _, p := range passes {
		r.binner.Script = append(r.binner.Script, testpeer.Scripted{Msg: p, Dst: r.s.FromBinner})
	}
	conn := sim.NewDirectConnection("Conn", e, testpeer.Freq)
	conn.PlugIn(r.s.FromBinner, 4)
	conn.PlugIn(r.s.ToTileUnits, 16)
	conn.PlugIn(r.binner.Port, 4)
	r.s.Binner = r.binner.Port
	for k, d := range delays {
		u := newUnit(k, e, d, &r.log)
		u.Scheduler = r.s.ToTileUnits
		conn.PlugIn(u.Port, 16)
		r.s.TileUnits = append(r.s.TileUnits, u.Port)
		r.units = append(r.units, u)
	}
	r.binner.TickLater(0)
	testpeer.Run(t, e)
	return r
}

// tiles returns the tiles the units took, in order (the order they were
// handed out when there is one unit).
func (r *rig) tiles() []int {
	out := []int{}
	for _, h := range r.log {
		out = append(out, h.Tile)
	}
	return out
}

// dones returns the Done messages the binner received.
func (r *rig) dones(t *testing.T) []testpeer.Received {
	t.Helper()
	for _, g := range r.binner.Got {
		if _, ok := g.Msg.(*protocol.Done); !ok {
			t.Fatalf("the binner received %T", g.Msg)
		}
	}
	return r.binner.Got
}

// pass builds a pass over grid g whose tiles listed in entries hold one
// entry each.
func pass(g binning.Grid, entries ...int) *protocol.BinnedPass {
	p := protocol.NewBinnedPass()
	p.Grid = g
	p.Bins = make([]protocol.Bin, g.Count())
	for _, k := range entries {
		p.Bins[k].Entries = []uint32{0}
	}
	return p
}

func presentPass(g binning.Grid) *protocol.BinnedPass {
	p := pass(g)
	p.Present = true
	return p
}

var (
	grid3x2 = binning.Grid{Width: 48, Height: 32, TileW: 16, TileH: 16}
	grid4x4 = binning.Grid{Width: 64, Height: 60, TileW: 16, TileH: 16} // the last row clipped
)

// TestTileOrder: the exact sequence of tiles handed out on a 3x2 and a 4x4
// grid, row-major and in Z order (the Morton curve over the padded 4x4
// square, tiles outside the grid left out).
func TestTileOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		order Order
		grid  binning.Grid
		want  []int
	}{
		{"rowmajor/3x2", RowMajor, grid3x2, []int{0, 1, 2, 3, 4, 5}},
		{"zorder/3x2", ZOrder, grid3x2, []int{0, 1, 3, 4, 2, 5}},
		{"rowmajor/4x4", RowMajor, grid4x4, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
		{"zorder/4x4", ZOrder, grid4x4, []int{0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, Config{TileUnits: 1, JobsPerUnit: 1, Order: tc.order}, []uint64{5}, presentPass(tc.grid))
			if err := r.s.Err(); err != nil {
				t.Fatal(err)
			}
			if got := r.tiles(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("tiles handed out %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSkipping: a pass that neither presents nor stores every tile hands out
// only the tiles with entries; with Present or StoreAll every tile goes out.
// A pass without any tile to render is answered at once.
func TestSkipping(t *testing.T) {
	storeAll := pass(grid3x2, 2, 3)
	storeAll.StoreAll = true
	present := pass(grid3x2, 2, 3)
	present.Present = true
	for _, tc := range []struct {
		name    string
		pass    *protocol.BinnedPass
		want    []int
		skipped float64
	}{
		{"entries only", pass(grid3x2, 2, 3), []int{3, 2}, 4},
		{"store all", storeAll, []int{0, 1, 3, 4, 2, 5}, 0},
		{"present", present, []int{0, 1, 3, 4, 2, 5}, 0},
		{"nothing", pass(grid3x2), []int{}, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, Config{TileUnits: 1, JobsPerUnit: 1, Order: ZOrder}, []uint64{7}, tc.pass)
			if err := r.s.Err(); err != nil {
				t.Fatal(err)
			}
			if got := r.tiles(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("tiles handed out %v, want %v", got, tc.want)
			}
			if d := r.dones(t); len(d) != 1 || d[0].Msg.(*protocol.Done).RspTo != tc.pass.ID {
				t.Errorf("the binner received %d messages, want the pass's Done", len(d))
			}
			testpeer.CheckStats(t, testpeer.StatMap(r.s), "TileScheduler", map[string]float64{
				"passes": 1, "tiles": float64(len(tc.want)), "tiles_skipped": tc.skipped,
			})
		})
	}
}

// TestJobsPerUnit: two units, the first answering each tile 10 cycles after
// it starts it, the second 25. No unit ever holds more than JobsPerUnit
// tiles, the next tile goes to the next unit with room after the last one
// served, and the binner's Done comes after the last tile's.
//
// JobsPerUnit 1: tiles 0 and 1 go out at once; u0 finishes 0 (cycle ~10) and
// gets 2, finishes 2 (~20) while u1 still works and gets 3; u1 finishes 1
// (~25) and gets 4; u0 finishes 3 (~30) and gets 5. JobsPerUnit 2: tiles 0
// to 3 go out at once (u0: 0, 2; u1: 1, 3); u0 finishes 0 and gets 4,
// finishes 2 while u1 is full and gets 5.
func TestJobsPerUnit(t *testing.T) {
	for _, tc := range []struct {
		jobs    int
		perUnit [2][]int
	}{
		{1, [2][]int{{0, 2, 3, 5}, {1, 4}}},
		{2, [2][]int{{0, 2, 4, 5}, {1, 3}}},
	} {
		t.Run(fmt.Sprintf("%d", tc.jobs), func(t *testing.T) {
			p := presentPass(grid3x2)
			r := newRig(t, Config{TileUnits: 2, JobsPerUnit: tc.jobs, Order: RowMajor}, []uint64{10, 25}, p)
			if err := r.s.Err(); err != nil {
				t.Fatal(err)
			}
			var got [2][]int
			for _, h := range r.log {
				got[h.Unit] = append(got[h.Unit], h.Tile)
			}
			if !reflect.DeepEqual(got, tc.perUnit) {
				t.Errorf("tiles per unit %v, want %v", got, tc.perUnit)
			}
			var last uint64
			for k, u := range r.units {
				if u.MaxHeld != tc.jobs {
					t.Errorf("unit %d held at most %d tiles at once, want %d", k, u.MaxHeld, tc.jobs)
				}
				last = max(last, u.DoneAt[len(u.DoneAt)-1])
			}
			d := r.dones(t)
			if len(d) != 1 || d[0].Msg.(*protocol.Done).RspTo != p.ID {
				t.Fatalf("the binner received %d messages, want the pass's Done", len(d))
			}
			if d[0].Cycle <= last {
				t.Errorf("the binner's Done left at cycle %d, not after the last tile's Done (cycle %d)", d[0].Cycle, last)
			}
			testpeer.CheckStats(t, testpeer.StatMap(r.s), "TileScheduler", map[string]float64{
				"passes": 1, "tiles": 6, "tiles_skipped": 0,
				"tiles_u0": float64(len(tc.perUnit[0])), "tiles_u1": float64(len(tc.perUnit[1])),
			})
		})
	}
}

// TestPasses: two passes sent together are rendered one after the other: no
// tile of the second goes out before the first's Done, and the binner gets
// both Dones in order. The statistics add up over the passes.
func TestPasses(t *testing.T) {
	a, b := pass(grid3x2, 0, 5), presentPass(grid3x2)
	r := newRig(t, Config{TileUnits: 2, JobsPerUnit: 2, Order: RowMajor}, []uint64{10, 10}, a, b)
	if err := r.s.Err(); err != nil {
		t.Fatal(err)
	}
	d := r.dones(t)
	if len(d) != 2 || d[0].Msg.(*protocol.Done).RspTo != a.ID || d[1].Msg.(*protocol.Done).RspTo != b.ID {
		t.Fatalf("the binner received %d messages, want the two passes' Dones in order", len(d))
	}
	var first []int
	for _, h := range r.log {
		if h.Pass == a.ID {
			first = append(first, h.Tile)
		} else if h.Cycle <= d[0].Cycle {
			t.Errorf("tile %d of the second pass taken at cycle %d, before the first pass's Done (cycle %d)", h.Tile, h.Cycle, d[0].Cycle)
		}
	}
	slices.Sort(first) // the two units take theirs in the same cycle
	if !reflect.DeepEqual(first, []int{0, 5}) || len(r.log) != 8 {
		t.Errorf("first pass's tiles %v of %d, want [0 5] of 8", first, len(r.log))
	}
	testpeer.CheckStats(t, testpeer.StatMap(r.s), "TileScheduler", map[string]float64{
		"passes": 2, "tiles": 8, "tiles_skipped": 4, "tiles_u0": 4, "tiles_u1": 4,
	})
}

// TestUnknownDone: a Done that answers no tile job in progress (one never
// handed out, or a job answered twice) stops the run with an error naming
// the scheduler, the unit and the job.
func TestUnknownDone(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rspTo func(job string) string
	}{
		{"never handed out", func(string) string { return "no-such-job" }},
		{"answered twice", func(job string) string { return job }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := sim.NewSerialEngine()
			halt := &timing.Halt{}
			s := MakeBuilder().WithEnv(timing.Env{Engine: e, Freq: testpeer.Freq, Halt: halt, Progress: &timing.Progress{}}).
				WithConfig(Config{TileUnits: 1, JobsPerUnit: 1, Order: RowMajor}).Build("TileScheduler")
			binner := testpeer.NewPeer("Binner", e, 4)
			u := testpeer.NewPeer("TileUnit[0]", e, 4)
			p := pass(grid3x2, 0, 1)
			binner.Script = []testpeer.Scripted{{Msg: p, Dst: s.FromBinner}}
			conn := sim.NewDirectConnection("Conn", e, testpeer.Freq)
			for _, port := range []sim.Port{s.FromBinner, s.ToTileUnits, binner.Port, u.Port} {
				conn.PlugIn(port, 4)
			}
			s.Binner, s.TileUnits = binner.Port, []sim.Port{u.Port}
			// The unit answers its first job, then sends the bad Done at cycle 50.
			var job string
			u.Script = []testpeer.Scripted{{At: 20, Dst: s.ToTileUnits, Msg: protocol.NewDone("", 0)},
				{At: 50, Dst: s.ToTileUnits, Msg: protocol.NewDone("", 0)}}
			probe := &probe{fn: func() {
				job = u.Got[0].Msg.(*protocol.TileJob).ID
				u.Script[0].Msg.(*protocol.Done).RspTo = job
				u.Script[1].Msg.(*protocol.Done).RspTo = tc.rspTo(job)
			}}
			e.Schedule(probeEvent{sim.NewEventBase(10e-9, probe)})
			binner.TickLater(0)
			testpeer.Run(t, e)
			err := s.Err()
			want := fmt.Sprintf("TileScheduler: Done from tile unit 0 for job %s, which is not a tile job in progress", tc.rspTo(job))
			if err == nil || err.Error() != want {
				t.Fatalf("error %v, want %q", err, want)
			}
			if halt.Reason() != err {
				t.Errorf("the run was not halted with the error: %v", halt.Reason())
			}
			if len(binner.Got) != 0 {
				t.Errorf("the binner got %d messages after the error", len(binner.Got))
			}
		})
	}
}

// probe calls fn when its event fires.
type probe struct{ fn func() }

func (p *probe) Handle(sim.Event) error { p.fn(); return nil }

type probeEvent struct{ *sim.EventBase }

func TestConfigValidate(t *testing.T) {
	set := testpeer.Reject[Config]
	testpeer.CheckInvalid(t, DefaultConfig(),
		set(func(c *Config) { c.TileUnits = 0 }, "tile scheduler: TileUnits 0: the tiled machine needs at least one tile unit"),
		set(func(c *Config) { c.Order = 5 }, "tile scheduler: Order 5 is not one of rowmajor, zorder"))
	testpeer.CheckAtLeast(t, DefaultConfig(), "tile scheduler", 1, "JobsPerUnit")
	for _, s := range []string{"rowmajor", "zorder"} {
		if o, err := ParseOrder(s); err != nil || o.String() != s {
			t.Errorf("ParseOrder(%q) = %v, %v", s, o, err)
		}
	}
	if _, err := ParseOrder("hilbert"); err == nil || err.Error() != `unknown order "hilbert" (want one of rowmajor, zorder)` {
		t.Errorf("ParseOrder(hilbert): %v", err)
	}
	testpeer.CheckEnv(t, true, func(e timing.Env) { MakeBuilder().WithEnv(e).Build("TileScheduler") })
}
