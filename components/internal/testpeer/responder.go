package testpeer

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// Responder is a peer with one port that answers what it takes: each tick it
// takes every message its port holds (Took, with the cycle), and Answer's
// reply to each (nil: none; Answer sets its Dst) leaves the port the same
// tick when the port accepts it (a refused reply waits for the port to free).
type Responder struct {
	*timing.TickingComponent
	Port    sim.Port
	Answer  func(msg sim.Msg) sim.Msg
	Took    []Taken
	replies Schedule
}

// NewResponder returns a responder named name whose port "<name>.Port"
// buffers bufCap messages.
func NewResponder(name string, e sim.Engine, bufCap int, answer func(msg sim.Msg) sim.Msg) *Responder {
	r := &Responder{Answer: answer}
	r.TickingComponent = timing.NewTickingComponent(name, e, Freq, r)
	r.Port = timing.AddPort(r, "Port", bufCap)
	return r
}

// Tick takes what arrived, then sends the replies.
func (r *Responder) Tick(now sim.VTimeInSec) bool {
	cycle := r.Freq.Cycle(now)
	progress := TakeAll(now, cycle, []sim.Port{r.Port}, &r.Took, func(_ sim.Port, msg sim.Msg) {
		if reply := r.Answer(msg); reply != nil {
			reply.Meta().Src = r.Port
			r.replies.Send(cycle, r.Port, reply)
		}
	})
	return r.replies.Run(now, cycle) || progress
}
