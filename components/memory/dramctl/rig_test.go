package dramctl

import (
	"testing"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/timing"
)

// op is one request of a requester's script, sent at cycle at or later (the
// controller's cycles).
type op struct {
	at    int64
	write bool
	addr  uint64
	size  uint64
}

// requester is a test component at the controller's clock that sends a
// script of requests (up to window outstanding) and records when each
// response arrives.
type requester struct {
	*sim.TickingComponent
	port    sim.Port
	dst     sim.Port
	script  []op
	window  int
	next    int
	out     int
	ids     map[string]int
	sent    []int64
	arrived []int64
	data    [][]byte
}

func newRequester(e sim.Engine, f sim.Freq, dst sim.Port, script []op, window int) *requester {
	r := &requester{dst: dst, script: script, window: window, ids: map[string]int{},
		sent: make([]int64, len(script)), arrived: make([]int64, len(script)), data: make([][]byte, len(script))}
	r.TickingComponent = sim.NewTickingComponent("Requester", e, f, r)
	r.port = sim.NewLimitNumMsgPort(r, 1<<16, "Requester.Port")
	r.AddPort("Port", r.port)
	for i := range r.arrived {
		r.arrived[i] = -1
	}
	return r
}

func (r *requester) Tick(now sim.VTimeInSec) bool {
	progress := false
	cy := int64(r.Freq.Cycle(now))
	for msg := r.port.Retrieve(now); msg != nil; msg = r.port.Retrieve(now) {
		rsp := msg.(sim.Rsp)
		i := r.ids[rsp.GetRspTo()]
		r.arrived[i] = cy
		if d, ok := msg.(*mem.DataReadyRsp); ok {
			r.data[i] = d.Data
		}
		r.out--
		progress = true
	}
	for r.next < len(r.script) && r.out < r.window {
		o := r.script[r.next]
		if o.at > cy {
			return true
		}
		var msg sim.Msg
		if o.write {
			data := make([]byte, o.size)
			for i := range data {
				data[i] = byte(uint64(r.next) + uint64(i))
			}
			msg = mem.WriteReqBuilder{}.WithSrc(r.port).WithDst(r.dst).WithAddress(o.addr).WithData(data).
				WithSendTime(now).Build()
		} else {
			msg = mem.ReadReqBuilder{}.WithSrc(r.port).WithDst(r.dst).WithAddress(o.addr).WithByteSize(o.size).
				WithSendTime(now).Build()
		}
		if r.port.Send(msg) != nil {
			return progress
		}
		r.ids[msg.Meta().ID] = r.next
		r.sent[r.next] = cy
		r.next++
		r.out++
		progress = true
	}
	return progress
}

// sendLog records the cycle each response leaves the controller's Top port.
type sendLog struct {
	freq  sim.Freq
	cycle map[string]int64 // by request ID
}

func (l *sendLog) Func(ctx sim.HookCtx) {
	if ctx.Pos != sim.HookPosPortMsgSend {
		return
	}
	if rsp, ok := ctx.Item.(sim.Rsp); ok {
		l.cycle[rsp.GetRspTo()] = int64(l.freq.Cycle(rsp.Meta().SendTime))
	}
}

// rig is a controller and a requester on one direct connection.
type rig struct {
	engine sim.Engine
	ctl    *Comp
	req    *requester
	log    *sendLog
	halt   *timing.Halt
}

func newRig(t testing.TB, cfg Config, script []op, window int) *rig {
	t.Helper()
	return newRigLogged(t, cfg, script, window, true)
}

// newRigLogged is newRig, with the response-cycle log only when logged.
func newRigLogged(t testing.TB, cfg Config, script []op, window int, logged bool) *rig {
	t.Helper()
	e := timing.NewSerialEngine()
	h := &timing.Halt{}
	c, err := MakeBuilder().WithEngine(e).WithConfig(cfg).WithHalt(h).Build("Channel")
	if err != nil {
		t.Fatal(err)
	}
	f := c.Freq
	r := newRequester(e, f, c.Top, script, window)
	conn := sim.NewDirectConnection("Conn", e, f)
	conn.PlugIn(c.Top, 64)
	conn.PlugIn(r.port, 64)
	l := &sendLog{freq: f, cycle: map[string]int64{}}
	if logged {
		c.Top.AcceptHook(l)
	}
	return &rig{engine: e, ctl: c, req: r, log: l, halt: h}
}

// run starts the requester at cycle 0 and runs until the engine is empty; it
// fails the test unless every request was answered and no violation stopped
// the run.
func (g *rig) run(t testing.TB) {
	t.Helper()
	testpeer.RunClean(t, g.engine, g.halt, g.req)
	for i, a := range g.req.arrived {
		if a < 0 {
			t.Fatalf("request %d (%+v) was never answered (%d of %d sent)", i, g.req.script[i], g.req.next, len(g.req.script))
		}
	}
}

// leaves returns the cycle the response to script entry i left the controller.
func (g *rig) leaves(i int) int64 {
	for id, j := range g.req.ids {
		if j == i {
			return g.log.cycle[id]
		}
	}
	return -1
}

func (g *rig) stats() map[string]float64 {
	m := map[string]float64{}
	g.ctl.Stats(func(n string, v float64) { m[n] = v })
	return m
}

// addr returns the address of the burst at l under cfg's mapping.
func addrOf(t testing.TB, cfg Config, l Location) uint64 {
	t.Helper()
	cfg = cfg.WithDefaults()
	m, err := ParseMapping(cfg.Mapping, cfg.Geometry)
	if err != nil {
		t.Fatal(err)
	}
	m = m.WithXOR(cfg.XORBankHash)
	return m.Encode(l)
}
