package inputassembler

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
)

// memReq is one request the fake memory received.
type memReq struct {
	cycle      uint64
	addr, size uint64
}

type memPending struct {
	ready uint64
	rsp   sim.Msg
}

// fakeMemory answers every read latency cycles after its tick took it, with the
// bytes of image.
type fakeMemory struct {
	*sim.TickingComponent
	Top     sim.Port
	image   command.Memory
	latency uint64
	pending []memPending
	log     []memReq
}

func newFakeMemory(e sim.Engine, image command.Memory, latency uint64) *fakeMemory {
	m := &fakeMemory{image: image, latency: latency}
	m.TickingComponent = sim.NewTickingComponent("Memory", e, 1*sim.GHz, m)
	m.Top = sim.NewLimitNumMsgPort(m, 64, "Memory.Top")
	m.AddPort("Top", m.Top)
	return m
}

func (m *fakeMemory) Tick(now sim.VTimeInSec) bool {
	cycle := m.Freq.Cycle(now)
	progress := false
	for {
		msg := m.Top.Retrieve(now)
		if msg == nil {
			break
		}
		progress = true
		r, ok := msg.(*mem.ReadReq)
		if !ok {
			panic(fmt.Sprintf("fake memory: unexpected %T", msg))
		}
		m.log = append(m.log, memReq{cycle: cycle, addr: r.Address, size: r.AccessByteSize})
		data := make([]byte, r.AccessByteSize)
		m.image.ReadAt(data, r.Address)
		rsp := mem.DataReadyRspBuilder{}.WithSrc(m.Top).WithDst(r.Src).WithRspTo(r.ID).WithData(data).Build()
		m.pending = append(m.pending, memPending{ready: cycle + m.latency, rsp: rsp})
	}
	for len(m.pending) > 0 && m.pending[0].ready <= cycle {
		rsp := m.pending[0].rsp
		rsp.Meta().SendTime = now
		if m.Top.Send(rsp) != nil {
			break
		}
		m.pending = m.pending[1:]
		progress = true
	}
	return progress || len(m.pending) > 0
}

// received is a message a fake peer got, with the cycle its tick took it.
type received struct {
	cycle uint64
	port  string
	msg   sim.Msg
}

type scheduled struct {
	at  uint64
	src sim.Port
	msg sim.Msg
	fn  func(now sim.VTimeInSec) // instead of a message
}

// fakePeers plays the command processor (CP: sends the scripted messages at
// their cycles), the shader cores (Core[i]: record what they receive) and
// primitive assembly (PA: records BatchInfo; returns a credit per batch
// creditDelay cycles after the batch reached a core when autoCredit is set).
type fakePeers struct {
	*sim.TickingComponent
	CP   sim.Port
	Core []sim.Port
	PA   sim.Port

	iaPA        sim.Port // the input assembler's PrimitiveAssembly port
	autoCredit  bool
	creditDelay uint64

	got   []received
	sched []scheduled
}

func newFakePeers(e sim.Engine, cores int) *fakePeers {
	p := &fakePeers{}
	p.TickingComponent = sim.NewTickingComponent("Peers", e, 1*sim.GHz, p)
	p.CP = sim.NewLimitNumMsgPort(p, 4, "Peers.CP")
	p.PA = sim.NewLimitNumMsgPort(p, 4, "Peers.PA")
	for i := 0; i < cores; i++ {
		p.Core = append(p.Core, sim.NewLimitNumMsgPort(p, 4, fmt.Sprintf("Peers.Core[%d]", i)))
	}
	return p
}

func (p *fakePeers) ports() []sim.Port { return append([]sim.Port{p.CP, p.PA}, p.Core...) }

// at schedules msg from src at cycle c.
func (p *fakePeers) at(c uint64, src sim.Port, dst sim.Port, msg sim.Msg) {
	msg.Meta().Src, msg.Meta().Dst = src, dst
	p.sched = append(p.sched, scheduled{at: c, src: src, msg: msg})
}

// do runs fn at cycle c.
func (p *fakePeers) do(c uint64, fn func(now sim.VTimeInSec)) {
	p.sched = append(p.sched, scheduled{at: c, fn: fn})
}

func (p *fakePeers) Tick(now sim.VTimeInSec) bool {
	cycle := p.Freq.Cycle(now)
	progress := false
	for _, port := range p.ports() {
		for {
			msg := port.Retrieve(now)
			if msg == nil {
				break
			}
			progress = true
			p.got = append(p.got, received{cycle: cycle, port: port.Name(), msg: msg})
			if _, ok := msg.(*protocol.VertexBatch); ok && p.autoCredit {
				p.at(cycle+p.creditDelay, p.PA, p.iaPA, protocol.NewBatchCredit(1))
			}
		}
	}
	rest := p.sched[:0]
	for _, s := range p.sched {
		if s.at <= cycle && s.fn != nil {
			s.fn(now)
			progress = true
			continue
		}
		if s.at <= cycle {
			s.msg.Meta().SendTime = now
			if s.src.Send(s.msg) == nil {
				progress = true
				continue
			}
		}
		rest = append(rest, s)
	}
	p.sched = rest
	return progress || len(p.sched) > 0
}

// batches returns the VertexBatch messages the cores received, in arrival
// order, with the core index.
func (p *fakePeers) batches() ([]*protocol.VertexBatch, []int, []uint64) {
	var out []*protocol.VertexBatch
	var cores []int
	var cycles []uint64
	for _, r := range p.got {
		if b, ok := r.msg.(*protocol.VertexBatch); ok {
			out = append(out, b)
			for i, c := range p.Core {
				if c.Name() == r.port {
					cores = append(cores, i)
				}
			}
			cycles = append(cycles, r.cycle)
		}
	}
	return out, cores, cycles
}

func (p *fakePeers) infos() []received {
	var out []received
	for _, r := range p.got {
		if _, ok := r.msg.(*protocol.BatchInfo); ok {
			out = append(out, r)
		}
	}
	return out
}

// gateConn is a direct connection that refuses messages to the destinations in
// busy (a shader core with no free slot).
type gateConn struct {
	*sim.DirectConnection
	busy map[sim.Port]bool
}

func (g *gateConn) PlugIn(port sim.Port, n int) {
	g.DirectConnection.PlugIn(port, n)
	port.SetConnection(g)
}

func (g *gateConn) Send(msg sim.Msg) *sim.SendError {
	if g.busy[msg.Meta().Dst] {
		return sim.NewSendError()
	}
	return g.DirectConnection.Send(msg)
}
