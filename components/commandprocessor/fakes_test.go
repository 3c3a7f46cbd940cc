package commandprocessor

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/cache"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
)

// fakePipe plays the input assembler (IA port) and the back end (one ROP and one
// depth-unit port per partition). Each dispatched draw is "rendered" by render
// (when set) on arrival, and every ROP reports DrawDone drawLatency cycles later;
// every ClearCmd, PresentCmd and PassEnd (the tiled machine's binner, when the
// command processor's Binner is one of the ROP ports) is acknowledged
// ackLatency cycles after arrival. When addCaches made them, Sampler plays
// the texture samplers' Control ports and L2 the L2 banks' control ports:
// each FlushCmd or cache.FlushReq they take is answered (Done, FlushRsp)
// cacheAckLatency cycles after arrival.
type fakePipe struct {
	*sim.TickingComponent
	IA          sim.Port
	ROP, DU     []sim.Port
	Sampler, L2 []sim.Port

	drawLatency, ackLatency, cacheAckLatency uint64
	render                                   func(d *protocol.Draw)
	backEnd                                  sim.Port // where DrawDone goes (the command processor's ToBackEnd)

	got   []testpeer.Taken
	sched testpeer.Schedule
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

// addCaches adds the ports of samplers texture samplers and banks L2 banks,
// answered after latency cycles.
func (p *fakePipe) addCaches(samplers, banks int, latency uint64) {
	p.cacheAckLatency = latency
	for i := 0; i < samplers; i++ {
		p.Sampler = append(p.Sampler, sim.NewLimitNumMsgPort(p, 16, fmt.Sprintf("Pipe.Sampler[%d].Control", i)))
	}
	for i := 0; i < banks; i++ {
		p.L2 = append(p.L2, sim.NewLimitNumMsgPort(p, 16, fmt.Sprintf("Pipe.L2[%d].Control", i)))
	}
}

func (p *fakePipe) ports() []sim.Port {
	ports := append(append([]sim.Port{p.IA}, p.ROP...), p.DU...)
	return append(append(ports, p.Sampler...), p.L2...)
}

// isCache reports whether port is one of the samplers' or L2 banks' ports.
func (p *fakePipe) isCache(port sim.Port) bool {
	for _, c := range append(append([]sim.Port(nil), p.Sampler...), p.L2...) {
		if port == c {
			return true
		}
	}
	return false
}

func (p *fakePipe) Tick(now sim.VTimeInSec) bool {
	return p.sched.Serve(now, p.ports(), &p.got, p.take)
}

// take answers one message: a draw with a DrawDone from every ROP, a clear or
// a present or a flush with a Done from the port that took it, an L2 flush
// with a FlushRsp.
func (p *fakePipe) take(cycle uint64, port sim.Port, msg sim.Msg) {
	switch m := msg.(type) {
	case *protocol.DrawDispatch:
		if p.render != nil {
			p.render(m.Draw)
		}
		for i, rop := range p.ROP {
			dd := protocol.NewDrawDone(m.Draw, i)
			dd.Src, dd.Dst = rop, p.backEnd
			p.sched.Send(cycle+p.drawLatency, rop, dd)
		}
	case *protocol.ClearCmd, *protocol.PresentCmd, *protocol.PassEnd, *protocol.FlushCmd:
		part := 0
		for i := range p.ROP {
			if port == p.ROP[i] || port == p.DU[i] {
				part = i
			}
		}
		lat := p.ackLatency
		if p.isCache(port) {
			lat = p.cacheAckLatency
		}
		d := protocol.NewDone(msg.Meta().ID, part)
		d.Src, d.Dst = port, msg.Meta().Src
		p.sched.Send(cycle+lat, port, d)
	case *cache.FlushReq:
		rsp := cache.FlushRspBuilder{}.WithSrc(port).WithDst(m.Src).WithRspTo(m.ID).Build()
		p.sched.Send(cycle+p.cacheAckLatency, port, rsp)
	}
}

// byPort returns what port testpeer.Taken, in order.
func (p *fakePipe) byPort(name string) []testpeer.Taken { return testpeer.ByPort(p.got, name) }
