package timing

import "github.com/sarchlab/akita/v3/sim"

// Outbox holds the messages a component sends on one port, in order: Send
// sends from the head until the port refuses one (Akita wakes the component
// when the port frees up), so that a unit's answers and commands keep their
// order.
type Outbox struct{ msgs []sim.Msg }

// Push queues m.
func (o *Outbox) Push(m sim.Msg) { o.msgs = append(o.msgs, m) }

// Len returns the messages waiting.
func (o *Outbox) Len() int { return len(o.msgs) }

// Send sends the waiting messages through port, to dst (nil: each message's
// own Dst), stamped with now, until the port refuses one; sent, when not nil,
// is called with each message sent. It reports whether any was sent.
func (o *Outbox) Send(port, dst sim.Port, now sim.VTimeInSec, sent func(sim.Msg)) bool {
	n := 0
	for n < len(o.msgs) {
		m := o.msgs[n]
		meta := m.Meta()
		meta.Src, meta.SendTime = port, now
		if dst != nil {
			meta.Dst = dst
		}
		if port.Send(m) != nil {
			break
		}
		if sent != nil {
			sent(m)
		}
		n++
	}
	if n == 0 {
		return false
	}
	clear(o.msgs[:n])
	o.msgs = o.msgs[n:]
	return true
}
