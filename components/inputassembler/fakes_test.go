package inputassembler

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
)

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

	got   []testpeer.Taken
	sched testpeer.Schedule
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
	p.sched.Send(c, src, msg)
}

// do runs fn at cycle c.
func (p *fakePeers) do(c uint64, fn func(now sim.VTimeInSec)) {
	p.sched.Do(c, fn)
}

func (p *fakePeers) Tick(now sim.VTimeInSec) bool {
	return p.sched.Serve(now, p.ports(), &p.got, func(cycle uint64, _ sim.Port, msg sim.Msg) {
		if _, ok := msg.(*protocol.VertexBatch); ok && p.autoCredit {
			p.at(cycle+p.creditDelay, p.PA, p.iaPA, protocol.NewBatchCredit(1))
		}
	})
}

// batches returns the VertexBatch messages the cores testpeer.Taken, in arrival
// order, with the core index.
func (p *fakePeers) batches() ([]*protocol.VertexBatch, []int, []uint64) {
	var out []*protocol.VertexBatch
	var cores []int
	var cycles []uint64
	for _, r := range p.got {
		if b, ok := r.Msg.(*protocol.VertexBatch); ok {
			out = append(out, b)
			for i, c := range p.Core {
				if c.Name() == r.Port {
					cores = append(cores, i)
				}
			}
			cycles = append(cycles, r.Cycle)
		}
	}
	return out, cores, cycles
}

func (p *fakePeers) infos() []testpeer.Taken {
	var out []testpeer.Taken
	for _, r := range p.got {
		if _, ok := r.Msg.(*protocol.BatchInfo); ok {
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
