package timing

import "github.com/sarchlab/akita/v3/sim"

// Sender is a unit's sending side: Send stamps a message and sends it, counts
// each message sent as one unit of Progress, and remembers in Blocked that a
// port refused one (the unit's output is blocked: its activity accounting's
// blocked_output; the unit clears Blocked at the start of each tick).
type Sender struct {
	Progress *Progress
	Blocked  bool
}

// Send sends msg through port to dst at time now, reporting whether the port
// took it (false sets Blocked).
func (s *Sender) Send(port, dst sim.Port, msg sim.Msg, now sim.VTimeInSec) bool {
	m := msg.Meta()
	m.Src, m.Dst, m.SendTime = port, dst, now
	if port.Send(msg) != nil {
		s.Blocked = true
		return false
	}
	s.Progress.Add(1)
	return true
}
