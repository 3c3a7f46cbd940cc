package testpeer

import "github.com/sarchlab/akita/v3/sim"

// SendDue sends the messages at the head of q that are due (At at or before
// cycle) through port, in order, until the port refuses one: each leaves with
// Src port, SendTime now and Dst its Dst (dst when its Dst is nil). It returns
// the messages not sent and how many were sent; the head of the rest is due
// when the port refused it. It is the one sending loop of the scripted peers,
// the sources and the fake memories (their answers queued at their ready
// cycle).
func SendDue(port, dst sim.Port, q []Scripted, now sim.VTimeInSec, cycle uint64) (rest []Scripted, sent int) {
	for len(q) > 0 && q[0].At <= cycle {
		m := q[0].Msg.Meta()
		m.Src, m.Dst, m.SendTime = port, q[0].Dst, now
		if m.Dst == nil {
			m.Dst = dst
		}
		if port.Send(q[0].Msg) != nil {
			break
		}
		q = q[1:]
		sent++
	}
	return q, sent
}

// Blocked reports whether the head of q is due at cycle: after SendDue, the
// port refused it.
func Blocked(q []Scripted, cycle uint64) bool { return len(q) > 0 && q[0].At <= cycle }
