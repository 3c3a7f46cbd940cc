package testpeer

import (
	"github.com/gfxsim/gfxsim/timing"
	"github.com/sarchlab/akita/v3/sim"
)

// Source sends its script through Out (one message of buffer) to Dst, each
// message at its cycle At or later, in order; Dst in the script is ignored.
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
	progress := false
	for len(s.Script) > 0 && s.Script[0].At <= cycle {
		m := s.Script[0].Msg
		m.Meta().Src, m.Meta().Dst, m.Meta().SendTime = s.Out, s.Dst, now
		if s.Out.Send(m) != nil {
			return progress
		}
		s.Sent = append(s.Sent, cycle)
		s.Script = s.Script[1:]
		progress = true
	}
	return progress || len(s.Script) > 0
}
