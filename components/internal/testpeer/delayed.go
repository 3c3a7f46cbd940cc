package testpeer

import "github.com/sarchlab/akita/v3/sim"

type delayed struct {
	ready uint64
	msg   sim.Msg
}

// Delayed holds the messages of a fake unit with a latency, each ready from
// a cycle on: Send sends the ready ones, earliest first (in the order they
// were added among equal cycles), so that they may leave out of order.
type Delayed struct{ items []delayed }

// Add queues msg, ready from cycle ready on.
func (d *Delayed) Add(ready uint64, msg sim.Msg) { d.items = append(d.items, delayed{ready, msg}) }

// Len returns the messages not sent yet.
func (d *Delayed) Len() int { return len(d.items) }

// Send sends the messages ready at cycle through port to dst, stamped with
// now, until none is ready or the port refuses one; it reports whether it
// sent any.
func (d *Delayed) Send(now sim.VTimeInSec, cycle uint64, port, dst sim.Port) bool {
	progress := false
	for {
		best := -1
		for i, it := range d.items {
			if it.ready <= cycle && (best < 0 || it.ready < d.items[best].ready) {
				best = i
			}
		}
		if best < 0 {
			return progress
		}
		m := d.items[best].msg
		m.Meta().Src, m.Meta().Dst, m.Meta().SendTime = port, dst, now
		if port.Send(m) != nil {
			return progress
		}
		d.items = append(d.items[:best], d.items[best+1:]...)
		progress = true
	}
}
