package testpeer

import "github.com/sarchlab/akita/v3/sim"

// Responder is a peer with one port that answers what it takes: each tick it
// takes every message its port holds (Took, with the cycle), and Answer's
// reply to each (nil: none; Answer sets its Dst) leaves the port in order,
// the same tick when the port accepts it (a refused reply waits for the port
// to free).
type Responder struct {
	*sim.TickingComponent
	Port   sim.Port
	Answer func(msg sim.Msg) sim.Msg
	Took   []Taken
	out    []sim.Msg
}

// NewResponder returns a responder named name whose port "<name>.Port"
// buffers bufCap messages.
func NewResponder(name string, e sim.Engine, bufCap int, answer func(msg sim.Msg) sim.Msg) *Responder {
	r := &Responder{Answer: answer}
	r.TickingComponent = sim.NewTickingComponent(name, e, Freq, r)
	r.Port = sim.NewLimitNumMsgPort(r, bufCap, name+".Port")
	r.AddPort("Port", r.Port)
	return r
}

// Tick takes what arrived, then sends the replies.
func (r *Responder) Tick(now sim.VTimeInSec) bool {
	progress := TakeAll(now, r.Freq.Cycle(now), []sim.Port{r.Port}, &r.Took, func(_ sim.Port, msg sim.Msg) {
		if reply := r.Answer(msg); reply != nil {
			reply.Meta().Src = r.Port
			r.out = append(r.out, reply)
		}
	})
	for len(r.out) > 0 {
		r.out[0].Meta().SendTime = now
		if r.Port.Send(r.out[0]) != nil {
			break
		}
		r.out = r.out[1:]
		progress = true
	}
	return progress
}
