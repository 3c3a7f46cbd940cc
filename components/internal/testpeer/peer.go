package testpeer

import (
	"testing"

	"github.com/gfxsim/gfxsim/timing"
	"github.com/sarchlab/akita/v3/sim"
)

// Freq is the clock of every peer.
const Freq = 1 * sim.GHz

// Scripted is a message a peer sends at cycle At or later, in script order.
type Scripted struct {
	At  uint64
	Msg sim.Msg
	Dst sim.Port
}

// Received is a message a peer took: Cycle is the cycle its sender sent it,
// Arrived the cycle it entered the peer's port and Retrieved the cycle the
// peer took it.
type Received struct {
	Cycle     uint64
	Msg       sim.Msg
	Arrived   uint64
	Retrieved uint64
}

// Peer is a scripted peer with one port: each tick from cycle AcceptFrom on
// it takes everything its port holds (unless Hold) and then sends its script
// (each message no earlier than its cycle, in order, retrying on failure).
// Before AcceptFrom it takes nothing (a blocked receiver) and ticks every
// cycle.
type Peer struct {
	*timing.TickingComponent
	Port       sim.Port
	Script     []Scripted
	Got        []Received
	Hold       bool // do not retrieve (back-pressure)
	AcceptFrom uint64
}

// NewPeer returns a peer named name whose port "<name>.Port" buffers bufCap
// messages.
func NewPeer(name string, e sim.Engine, bufCap int) *Peer { return newPeer(name, "Port", e, bufCap) }

// NewSink returns a peer with no script, a receiver, named name whose port
// "<name>.In" holds capacity messages.
func NewSink(name string, e sim.Engine, capacity int) *Peer { return newPeer(name, "In", e, capacity) }

func newPeer(name, port string, e sim.Engine, bufCap int) *Peer {
	f := &Peer{}
	f.TickingComponent = timing.NewTickingComponent(name, e, Freq, f)
	f.Port = timing.AddPort(f, port, bufCap)
	return f
}

// Tick takes what arrived, then sends what is due.
func (f *Peer) Tick(now sim.VTimeInSec) bool {
	cyc := f.Freq.Cycle(now)
	progress := false
	for !f.Hold && cyc >= f.AcceptFrom && f.Port.Peek() != nil {
		m := f.Port.Retrieve(now)
		meta := m.Meta()
		f.Got = append(f.Got, Received{Cycle: f.Freq.Cycle(meta.SendTime), Msg: m,
			Arrived: f.Freq.Cycle(meta.RecvTime), Retrieved: cyc})
		progress = true
	}
	var sent int
	f.Script, sent = SendDue(f.Port, nil, f.Script, now, cyc)
	progress = progress || sent > 0
	if Blocked(f.Script, cyc) {
		return progress // woken by NotifyPortFree
	}
	// Tick until the next scripted cycle, and every cycle while blocked.
	return progress || len(f.Script) > 0 || cyc < f.AcceptFrom
}

// Finisher is a unit whose activity accounting closes at the end of a run.
type Finisher interface{ Finish(now sim.VTimeInSec) }

// RunAndFinish is Run (no unit to start) that then closes each unit's
// activity accounting at the time the run ended: the end of a bench's run.
func RunAndFinish(t testing.TB, e sim.Engine, units ...Finisher) {
	t.Helper()
	Run(t, e)
	for _, u := range units {
		u.Finish(e.CurrentTime())
	}
}

// RunClean is Run that also fails t when the run halted with a reason (a
// unit's protocol error or a watchdog).
func RunClean(t testing.TB, e sim.Engine, halt *timing.Halt, start ...timing.TickNower) {
	t.Helper()
	Run(t, e, start...)
	if err := halt.Reason(); err != nil {
		t.Fatal(err)
	}
}
