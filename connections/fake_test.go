package connections

import (
	"math"
	"sync/atomic"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

// The tests run the components at 1 GHz: cycle k is at k ns.
const testFreq = 1 * sim.GHz

func cyc(t sim.VTimeInSec) uint64 { return uint64(math.Round(float64(t) * float64(testFreq))) }

// TileQuads and ReadLine are two message kinds for the counters.
type TileQuads struct {
	sim.MsgMeta
}

func (m *TileQuads) Meta() *sim.MsgMeta { return &m.MsgMeta }

type ReadLine struct {
	sim.MsgMeta
}

func (m *ReadLine) Meta() *sim.MsgMeta { return &m.MsgMeta }

// conn is what the tests need of a Bus or a Crossbar.
type conn interface {
	sim.Connection
	Stats(add func(string, float64))
}

// planned is a message a sender sends at a given cycle (or as soon after as
// its queue accepts it, keeping the order).
type planned struct {
	cycle uint64
	msg   sim.Msg
	dst   *receiver
}

func quads(id string, cycle uint64, dst *receiver, bytes int) planned {
	m := &TileQuads{}
	m.ID, m.TrafficBytes = id, bytes
	return planned{cycle: cycle, msg: m, dst: dst}
}

func line(id string, cycle uint64, dst *receiver, bytes int) planned {
	m := &ReadLine{}
	m.ID, m.TrafficBytes = id, bytes
	return planned{cycle: cycle, msg: m, dst: dst}
}

// sender sends its script through its Out port. After a refused Send it sleeps
// until the connection frees a slot (NotifyPortFree).
type sender struct {
	*sim.TickingComponent
	out      *sim.LimitNumMsgPort
	script   []planned
	next     int
	accepted []uint64 // cycle each message was accepted
	freed    []uint64 // cycles of NotifyPortFree
	fails    int
}

func newSender(name string, e sim.Engine, script ...planned) *sender {
	s := &sender{script: script}
	s.TickingComponent = sim.NewTickingComponent(name, e, testFreq, s)
	s.out = sim.NewLimitNumMsgPort(s, 1, name+".Out")
	s.AddPort("Out", s.out)
	s.TickNow(0)
	return s
}

func (s *sender) NotifyPortFree(now sim.VTimeInSec, p sim.Port) {
	s.freed = append(s.freed, cyc(now))
	s.TickingComponent.NotifyPortFree(now, p)
}

func (s *sender) Tick(now sim.VTimeInSec) bool {
	c := cyc(now)
	for s.next < len(s.script) && s.script[s.next].cycle <= c {
		p := s.script[s.next]
		meta := p.msg.Meta()
		meta.Src, meta.Dst, meta.SendTime = s.out, p.dst.in, now
		if s.out.Send(p.msg) != nil {
			s.fails++
			return false
		}
		s.accepted = append(s.accepted, c)
		s.next++
	}
	return s.next < len(s.script)
}

// got is one message a receiver took.
type got struct {
	id   string
	recv uint64 // cycle of RecvTime
	take uint64 // cycle it was retrieved
}

// receiver retrieves at most one message per cycle, not before cycle from
// (it sleeps until then: its first tick is scheduled at from, which hides the
// earlier ones NotifyRecv asks for), and only in cycles allow accepts (nil: all).
type receiver struct {
	*sim.TickingComponent
	in    *sim.LimitNumMsgPort
	from  uint64
	allow func(c uint64) bool
	got   []got
}

func newReceiver(name string, e sim.Engine, capacity int, from uint64) *receiver {
	r := &receiver{from: from}
	r.TickingComponent = sim.NewTickingComponent(name, e, testFreq, r)
	r.in = sim.NewLimitNumMsgPort(r, capacity, name+".In")
	r.AddPort("In", r.in)
	if from > 0 {
		r.TickNow(sim.VTimeInSec(float64(from) / float64(testFreq)))
	}
	return r
}

func (r *receiver) Tick(now sim.VTimeInSec) bool {
	c := cyc(now)
	if c < r.from {
		return false
	}
	if r.allow != nil && !r.allow(c) {
		return r.in.Peek() != nil
	}
	m := r.in.Retrieve(now)
	if m == nil {
		return false
	}
	r.got = append(r.got, got{id: m.Meta().ID, recv: cyc(m.Meta().RecvTime), take: c})
	return true
}

// eventCounter counts the events of one handler (ticks) and of another (wake-ups).
type eventCounter struct {
	tick, wake sim.Handler
	ticks      atomic.Int64
	wakes      atomic.Int64
	tickCycles []uint64 // the cycles of tick and wake-up events (serial engine only)
}

func (h *eventCounter) Func(ctx sim.HookCtx) {
	if ctx.Pos != sim.HookPosBeforeEvent {
		return
	}
	evt := ctx.Item.(sim.Event)
	switch evt.Handler() {
	case h.tick:
		h.ticks.Add(1)
		h.tickCycles = append(h.tickCycles, cyc(evt.Time()))
	case h.wake: // a wake-up ticks the connection within its own event
		h.wakes.Add(1)
		h.tickCycles = append(h.tickCycles, cyc(evt.Time()))
	}
}

// runEngine runs e and fails the test on an error.
func runEngine(t testing.TB, e sim.Engine) {
	t.Helper()
	if err := e.Run(); err != nil {
		t.Fatalf("engine: %v", err)
	}
}

// stats collects a connection's statistics in order.
type stat struct {
	name  string
	value float64
}

func collect(c conn) []stat {
	var out []stat
	c.Stats(func(n string, v float64) { out = append(out, stat{n, v}) })
	return out
}

func statMap(c conn) map[string]float64 {
	m := map[string]float64{}
	c.Stats(func(n string, v float64) { m[n] = v })
	return m
}
