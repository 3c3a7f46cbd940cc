// Package backendtest holds the small fake peers the tests of the render
// back-end's units (components/depthunit, components/rop) wire around the unit
// under test: a scripted peer that sends messages at given cycles and records
// what it receives with the cycle of arrival, a fixed-latency memory that
// logs every line request, and the Rig a unit's bench embeds (engine, halt,
// targets, memory, connection; running the unit and reading its counters).
// Real ports, a real engine and direct connections are used; only the peers
// are fake.
package backendtest

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/timing"
)

// Received is a message and the cycle its receiver took it from its port.
type Received struct {
	Cycle uint64
	Msg   sim.Msg
}

// Peer is a scripted component with one port.
type Peer struct {
	*timing.TickingComponent
	Port sim.Port

	// Received lists the messages taken from Port, in order.
	Received []Received
	// Sent lists the cycle each scripted message was sent, in order.
	Sent []uint64
	// HoldUntil stops the peer from taking messages from its port before that
	// cycle (to model a blocked receiver).
	HoldUntil uint64
	// OnRecv, when set, is called for every received message; it may call
	// SendAt to script replies.
	OnRecv func(p *Peer, cycle uint64, msg sim.Msg)

	waker  *timing.Waker
	script []testpeer.Scripted
}

// NewPeer builds a peer named name whose port holds capacity incoming messages.
func NewPeer(name string, e sim.Engine, f sim.Freq, capacity int) *Peer {
	p := &Peer{}
	p.TickingComponent = timing.NewTickingComponent(name, e, f, p)
	p.Port = sim.NewLimitNumMsgPort(p, capacity, name+".Port")
	p.AddPort("Port", p.Port)
	p.waker = timing.NewWaker(e, f, p)
	return p
}

// SendAt schedules msg to dst at cycle (or as soon as the port accepts it).
// Messages leave in the order they were scheduled.
func (p *Peer) SendAt(cycle uint64, dst sim.Port, msg sim.Msg) {
	p.script = append(p.script, testpeer.Scripted{At: cycle, Msg: msg, Dst: dst})
	p.waker.WakeAt(sim.VTimeInSec(float64(cycle) / float64(p.Freq)))
}

// Hold makes the peer refuse messages until cycle.
func (p *Peer) Hold(until uint64) {
	p.HoldUntil = until
	p.waker.WakeAt(sim.VTimeInSec(float64(until) / float64(p.Freq)))
}

// Pending returns the scripted messages not sent yet.
func (p *Peer) Pending() int { return len(p.script) }

// Tick receives everything that arrived and sends the scripted messages that
// are due.
func (p *Peer) Tick(now sim.VTimeInSec) bool {
	cycle := p.Freq.Cycle(now)
	progress := false
	for cycle >= p.HoldUntil {
		msg := p.Port.Retrieve(now)
		if msg == nil {
			break
		}
		progress = true
		p.Received = append(p.Received, Received{Cycle: cycle, Msg: msg})
		if p.OnRecv != nil {
			p.OnRecv(p, cycle, msg)
		}
	}
	var sent int
	p.script, sent = testpeer.SendDue(p.Port, nil, p.script, now, cycle)
	for range sent {
		p.Sent = append(p.Sent, cycle)
	}
	if len(p.script) > 0 && p.script[0].At > cycle {
		p.waker.WakeIn(now, int(p.script[0].At-cycle))
	}
	return progress || sent > 0
}

// Access is one memory request as the fake memory saw it.
type Access struct {
	Cycle uint64
	Addr  uint64
	Size  uint64
	Write bool
	Data  []byte // a copy of the written bytes
}

// Memory is a memory with a fixed latency and unlimited concurrency: a request
// taken from its port at cycle c is answered at cycle c+Latency. Reads return
// the bytes of Image (zeros without one).
type Memory struct {
	*timing.TickingComponent
	Top sim.Port

	Latency int
	Image   command.Memory
	Log     []Access

	waker   *timing.Waker
	pending []testpeer.Scripted // answers at their ready cycle
}

// NewMemory builds a fake memory named name.
func NewMemory(name string, e sim.Engine, f sim.Freq, latency int) *Memory {
	m := &Memory{Latency: latency}
	m.TickingComponent = timing.NewTickingComponent(name, e, f, m)
	m.Top = sim.NewLimitNumMsgPort(m, 64, name+".Top")
	m.AddPort("Top", m.Top)
	m.waker = timing.NewWaker(e, f, m)
	return m
}

// Find implements mem.LowModuleFinder: every address is here.
func (m *Memory) Find(uint64) sim.Port { return m.Top }

var _ mem.LowModuleFinder = (*Memory)(nil)

// Reads returns the addresses read, in order.
func (m *Memory) Reads() []uint64 {
	var out []uint64
	for _, a := range m.Log {
		if !a.Write {
			out = append(out, a.Addr)
		}
	}
	return out
}

// Writes returns the addresses written, in order.
func (m *Memory) Writes() []uint64 {
	var out []uint64
	for _, a := range m.Log {
		if a.Write {
			out = append(out, a.Addr)
		}
	}
	return out
}

// Tick takes new requests and sends the responses that are due.
func (m *Memory) Tick(now sim.VTimeInSec) bool {
	cycle := m.Freq.Cycle(now)
	var sent int
	m.pending, sent = testpeer.SendDue(m.Top, nil, m.pending, now, cycle)
	progress := sent > 0
	for {
		msg := m.Top.Retrieve(now)
		if msg == nil {
			break
		}
		progress = true
		ready := cycle + uint64(m.Latency)
		switch r := msg.(type) {
		case *mem.ReadReq:
			data := make([]byte, r.AccessByteSize)
			if m.Image != nil {
				m.Image.ReadAt(data, r.Address)
			}
			m.Log = append(m.Log, Access{Cycle: cycle, Addr: r.Address, Size: r.AccessByteSize})
			rsp := mem.DataReadyRspBuilder{}.WithSrc(m.Top).WithDst(r.Src).WithRspTo(r.ID).
				WithData(data).WithSendTime(now).Build()
			m.pending = append(m.pending, testpeer.Scripted{At: ready, Msg: rsp, Dst: r.Src})
		case *mem.WriteReq:
			m.Log = append(m.Log, Access{Cycle: cycle, Addr: r.Address, Size: uint64(len(r.Data)), Write: true,
				Data: append([]byte(nil), r.Data...)})
			rsp := mem.WriteDoneRspBuilder{}.WithSrc(m.Top).WithDst(r.Src).WithRspTo(r.ID).
				WithSendTime(now).Build()
			m.pending = append(m.pending, testpeer.Scripted{At: ready, Msg: rsp, Dst: r.Src})
		default:
			panic(fmt.Sprintf("backendtest: the memory received a %T", msg))
		}
	}
	if len(m.pending) > 0 && m.pending[0].At > cycle {
		m.waker.WakeIn(now, int(m.pending[0].At-cycle))
	}
	return progress
}
