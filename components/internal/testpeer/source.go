package testpeer

import (
	"github.com/gfxsim/gfxsim/timing"
	"github.com/sarchlab/akita/v3/sim"
)

// Source sends its script through Out (one message of buffer) to Dst, each
// message at its cycle At or later, in order; a script entry's Dst, when
// set, overrides Dst.
type Source struct {
	*timing.TickingComponent
	Out    sim.Port
	Dst    sim.Port
	Script []Scripted
	Sent   []uint64 // cycle of each send
}

// NewSource returns a source named name with port "<name>.Out".
func NewSource(name string, e sim.Engine, script []Scripted) *Source {
	s := &Source{Script: script}
	s.TickingComponent = timing.NewTickingComponent(name, e, Freq, s)
	s.Out = timing.AddPort(s, "Out", 1)
	return s
}

// Tick sends what is due.
func (s *Source) Tick(now sim.VTimeInSec) bool {
	cycle := s.Freq.Cycle(now)
	var sent int
	s.Script, sent = SendDue(s.Out, s.Dst, s.Script, now, cycle)
	for range sent {
		s.Sent = append(s.Sent, cycle)
	}
	if Blocked(s.Script, cycle) {
		return sent > 0 // woken by NotifyPortFree
	}
	return sent > 0 || len(s.Script) > 0
}
