package testpeer

import "github.com/sarchlab/akita/v3/sim"

// Taken is a message a many-port peer took, with the cycle its tick took it
// and the name of the port.
type Taken struct {
	Cycle uint64
	Port  string
	Msg   sim.Msg
}

// ByPort returns the messages of log that port took, in order.
func ByPort(log []Taken, port string) []Taken {
	var out []Taken
	for _, r := range log {
		if r.Port == port {
			out = append(out, r)
		}
	}
	return out
}

// TakeAll retrieves every message of ports, in port order, appends each to
// *log and hands it to took (when not nil); it reports whether it took any.
func TakeAll(now sim.VTimeInSec, cycle uint64, ports []sim.Port, log *[]Taken, took func(port sim.Port, msg sim.Msg)) bool {
	progress := false
	for _, port := range ports {
		for msg := port.Retrieve(now); msg != nil; msg = port.Retrieve(now) {
			progress = true
			*log = append(*log, Taken{Cycle: cycle, Port: port.Name(), Msg: msg})
			if took != nil {
				took(port, msg)
			}
		}
	}
	return progress
}

// Serve is the tick of a many-port peer that answers through s, at Freq:
// it takes every message of ports (TakeAll, handing each to took with the
// cycle) and then runs s. It reports whether the peer must tick again (it
// took or did something, or s holds more).
func (s *Schedule) Serve(now sim.VTimeInSec, ports []sim.Port, log *[]Taken,
	took func(cycle uint64, port sim.Port, msg sim.Msg)) bool {
	cycle := Freq.Cycle(now)
	progress := TakeAll(now, cycle, ports, log, func(port sim.Port, msg sim.Msg) { took(cycle, port, msg) })
	progress = s.Run(now, cycle) || progress
	return progress || s.Len() > 0
}

type scheduled struct {
	at   uint64
	src  sim.Port
	msg  sim.Msg
	fn   func(now sim.VTimeInSec)
	sent func(now sim.VTimeInSec) // called once msg left (SendThen)
}

// Schedule is a list of messages to send, and functions to call, at given
// cycles. Its owner calls Run from its Tick.
type Schedule struct{ items []scheduled }

// Send schedules msg (its Src and Dst set) to leave src at cycle c or later.
func (s *Schedule) Send(c uint64, src sim.Port, msg sim.Msg) {
	s.items = append(s.items, scheduled{at: c, src: src, msg: msg})
}

// SendThen is Send that calls sent once msg has left (a refused send is
// retried, and sent waits for it).
func (s *Schedule) SendThen(c uint64, src sim.Port, msg sim.Msg, sent func(now sim.VTimeInSec)) {
	s.items = append(s.items, scheduled{at: c, src: src, msg: msg, sent: sent})
}

// Do schedules fn to run at cycle c or later.
func (s *Schedule) Do(c uint64, fn func(now sim.VTimeInSec)) {
	s.items = append(s.items, scheduled{at: c, fn: fn})
}

// Len returns the number of items not yet done.
func (s *Schedule) Len() int { return len(s.items) }

// Run does every item due at cycle, in order (a message its port refuses
// stays for the next tick), and reports whether it did any.
func (s *Schedule) Run(now sim.VTimeInSec, cycle uint64) bool {
	progress := false
	rest := s.items[:0]
	for _, it := range s.items {
		if it.at <= cycle && it.fn != nil {
			it.fn(now)
			progress = true
			continue
		}
		if it.at <= cycle {
			it.msg.Meta().SendTime = now
			if it.src.Send(it.msg) == nil {
				if it.sent != nil {
					it.sent(now)
				}
				progress = true
				continue
			}
		}
		rest = append(rest, it)
	}
	s.items = rest
	return progress
}
