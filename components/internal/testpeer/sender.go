package testpeer

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// CycleTime returns the time of cycle c at Freq.
func CycleTime(c uint64) sim.VTimeInSec { return sim.VTimeInSec(float64(c) / float64(Freq)) }

// Sender is the sending half of a scripted peer that paces itself: it sends
// its script through Out to Dst, one message a cycle, each no earlier than its
// cycle At (Dst in the script is ignored), in order, and sleeps until the next
// one is due. Sent holds the cycle of each send. Its owner calls Step from its
// Tick.
type Sender struct {
	Out, Dst sim.Port
	Script   []Scripted
	Sent     []uint64
	next     int
	waker    *timing.Waker
}

// NewSender returns a sender through out for comp (which it wakes) on engine
// e.
func NewSender(e sim.Engine, comp timing.TickNower, out sim.Port) *Sender {
	return &Sender{Out: out, waker: timing.NewWaker(e, Freq, comp)}
}

// Step sends the next message when it is due (waking the owner in its cycle
// when it is not) and reports whether it sent one.
func (s *Sender) Step(now sim.VTimeInSec, cycle uint64) bool {
	if s.next >= len(s.Script) {
		return false
	}
	sc := s.Script[s.next]
	if sc.At > cycle {
		s.waker.WakeIn(now, int(sc.At-cycle))
		return false
	}
	m := sc.Msg.Meta()
	m.Src, m.Dst, m.SendTime = s.Out, s.Dst, now
	if s.Out.Send(sc.Msg) != nil {
		return false
	}
	s.next++
	s.Sent = append(s.Sent, cycle)
	return true
}

// Done reports whether the whole script was sent.
func (s *Sender) Done() bool { return s.next >= len(s.Script) }
