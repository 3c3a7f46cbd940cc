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

// Received is a message a peer took: Cycle is the cycle its sender sent it.
type Received struct {
	Cycle uint64
	Msg   sim.Msg
}

// Peer is a scripted peer with one port: each tick it takes everything its
// port holds (unless Hold) and then sends its script (each message no
// earlier than its cycle, in order, retrying on failure).
type Peer struct {
	*timing.TickingComponent
	Port   sim.Port
	Script []Scripted
	Got    []Received
	Hold   bool // do not retrieve (back-pressure)
}

// NewPeer returns a peer named name whose port "<name>.Port" buffers bufCap
// messages.
func NewPeer(name string, e sim.Engine, bufCap int) *Peer {
	f := &Peer{}
	f.TickingComponent = timing.NewTickingComponent(name, e, Freq, f)
	f.Port = timing.AddPort(f, "Port", bufCap)
	return f
}

// Tick takes what arrived, then sends what is due.
func (f *Peer) Tick(now sim.VTimeInSec) bool {
	cyc := f.Freq.Cycle(now)
	progress := false
	for !f.Hold && f.Port.Peek() != nil {
		m := f.Port.Retrieve(now)
		f.Got = append(f.Got, Received{f.Freq.Cycle(m.Meta().SendTime), m})
		progress = true
	}
	for len(f.Script) > 0 && f.Script[0].At <= cyc {
		s := f.Script[0]
		m := s.Msg.Meta()
		m.Src, m.Dst, m.SendTime = f.Port, s.Dst, now
		if f.Port.Send(s.Msg) != nil {
			return progress // woken by NotifyPortFree
		}
		f.Script = f.Script[1:]
		progress = true
	}
	return progress || len(f.Script) > 0 // tick until the next scripted cycle
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
