package commandprocessor

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
	write      bool
}

type memPending struct {
	ready uint64
	rsp   sim.Msg
}

// fakeMemory answers every request Latency cycles after its tick took it, with the
// bytes of image (reads) or an acknowledgement (writes, not applied).
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
		switch r := msg.(type) {
		case *mem.ReadReq:
			m.log = append(m.log, memReq{cycle: cycle, addr: r.Address, size: r.AccessByteSize})
			data := make([]byte, r.AccessByteSize)
			m.image.ReadAt(data, r.Address)
			rsp := mem.DataReadyRspBuilder{}.WithSrc(m.Top).WithDst(r.Src).WithRspTo(r.ID).WithData(data).Build()
			m.pending = append(m.pending, memPending{ready: cycle + m.latency, rsp: rsp})
		case *mem.WriteReq:
			m.log = append(m.log, memReq{cycle: cycle, addr: r.Address, size: uint64(len(r.Data)), write: true})
			rsp := mem.WriteDoneRspBuilder{}.WithSrc(m.Top).WithDst(r.Src).WithRspTo(r.ID).Build()
			m.pending = append(m.pending, memPending{ready: cycle + m.latency, rsp: rsp})
		default:
			panic(fmt.Sprintf("fake memory: unexpected %T", msg))
		}
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
}

// fakePipe plays the input assembler (IA port) and the back end (one ROP and one
// depth-unit port per partition). Each dispatched draw is "rendered" by render
// (when set) on arrival, and every ROP reports DrawDone drawLatency cycles later;
// every ClearCmd and PresentCmd is acknowledged ackLatency cycles after arrival.
type fakePipe struct {
	*sim.TickingComponent
	IA      sim.Port
	ROP, DU []sim.Port

	drawLatency, ackLatency uint64
	render                  func(d *protocol.Draw)
	backEnd                 sim.Port // where DrawDone goes (the command processor's ToBackEnd)

	got   []received
	sched []scheduled
}

func newFakePipe(e sim.Engine, partitions int, drawLatency, ackLatency uint64) *fakePipe {
	p := &fakePipe{drawLatency: drawLatency, ackLatency: ackLatency}
	p.TickingComponent = sim.NewTickingComponent("Pipe", e, 1*sim.GHz, p)
	p.IA = sim.NewLimitNumMsgPort(p, 16, "Pipe.IA")
	for i := 0; i < partitions; i++ {
		p.ROP = append(p.ROP, sim.NewLimitNumMsgPort(p, 16, fmt.Sprintf("Pipe.ROP[%d]", i)))
		p.DU = append(p.DU, sim.NewLimitNumMsgPort(p, 16, fmt.Sprintf("Pipe.DepthUnit[%d]", i)))
	}
	return p
}

func (p *fakePipe) ports() []sim.Port { return append(append([]sim.Port{p.IA}, p.ROP...), p.DU...) }

func (p *fakePipe) Tick(now sim.VTimeInSec) bool {
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
			switch m := msg.(type) {
			case *protocol.DrawDispatch:
				if p.render != nil {
					p.render(m.Draw)
				}
				for i, rop := range p.ROP {
					dd := protocol.NewDrawDone(m.Draw, i)
					dd.Src, dd.Dst = rop, p.backEnd
					p.sched = append(p.sched, scheduled{at: cycle + p.drawLatency, src: rop, msg: dd})
				}
			case *protocol.ClearCmd, *protocol.PresentCmd:
				part := 0
				for i := range p.ROP {
					if port == p.ROP[i] || port == p.DU[i] {
						part = i
					}
				}
				d := protocol.NewDone(msg.Meta().ID, part)
				d.Src, d.Dst = port, msg.Meta().Src
				p.sched = append(p.sched, scheduled{at: cycle + p.ackLatency, src: port, msg: d})
			}
		}
	}
	rest := p.sched[:0]
	for _, s := range p.sched {
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

// byPort returns what port received, in order.
func (p *fakePipe) byPort(name string) []received {
	var out []received
	for _, r := range p.got {
		if r.port == name {
			out = append(out, r)
		}
	}
	return out
}
