package testpeer

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// Arrival is a message a Sink took: the cycle it entered the sink's port and
// the cycle the sink took it.
type Arrival struct {
	Msg       sim.Msg
	Arrived   uint64
	Retrieved uint64
}

// Sink is a receiver with one port, In: from cycle AcceptFrom on it takes
// every message that waits there, each tick; before, it takes nothing (a
// blocked receiver) and ticks every cycle.
type Sink struct {
	*sim.TickingComponent
	In         sim.Port
	AcceptFrom uint64
	Got        []Arrival
}

// NewSink returns a sink named name whose port "<name>.In" holds capacity
// messages.
func NewSink(name string, e sim.Engine, capacity int) *Sink {
	s := &Sink{}
	s.TickingComponent = sim.NewTickingComponent(name, e, Freq, s)
	s.In = timing.AddPort(s, "In", capacity)
	return s
}

// Tick takes what waits from AcceptFrom on.
func (s *Sink) Tick(now sim.VTimeInSec) bool {
	cycle := s.Freq.Cycle(now)
	if cycle < s.AcceptFrom {
		return true
	}
	progress := false
	for m := s.In.Peek(); m != nil; m = s.In.Peek() {
		s.In.Retrieve(now)
		s.Got = append(s.Got, Arrival{Msg: m, Arrived: s.Freq.Cycle(m.Meta().RecvTime), Retrieved: cycle})
		progress = true
	}
	return progress
}
