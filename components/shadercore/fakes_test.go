package shadercore_test

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/timing"
)

const freq = testpeer.Freq

var cycleTime = testpeer.CycleTime

// dispatcher sends its script in order, one message per cycle, each no
// earlier than its cycle; it records the cycle of every send (testpeer.Sender).
type dispatcher struct {
	*sim.TickingComponent
	*testpeer.Sender
}

func newDispatcher(e sim.Engine, name string) *dispatcher {
	d := &dispatcher{}
	d.TickingComponent = sim.NewTickingComponent(name, e, freq, d)
	d.Sender = testpeer.NewSender(e, d, sim.NewLimitNumMsgPort(d, 1, name+".Out"))
	return d
}

func (d *dispatcher) Tick(now sim.VTimeInSec) bool { return d.Step(now, freq.Cycle(now)) }

// sink records the messages it receives and the cycle it took each; it takes
// nothing before cycle openAt.
type sink struct {
	*sim.TickingComponent
	In     sim.Port
	openAt uint64
	got    []sim.Msg
	at     []uint64
	waker  *timing.Waker
}

func newSink(e sim.Engine, name string, capacity int) *sink {
	s := &sink{}
	s.TickingComponent = sim.NewTickingComponent(name, e, freq, s)
	s.In = sim.NewLimitNumMsgPort(s, capacity, name+".In")
	s.waker = timing.NewWaker(e, freq, s)
	return s
}

func (s *sink) Tick(now sim.VTimeInSec) bool {
	cy := freq.Cycle(now)
	if cy < s.openAt {
		s.waker.WakeIn(now, int(s.openAt-cy))
		return false
	}
	msg := s.In.Retrieve(now)
	if msg == nil {
		return false
	}
	s.got = append(s.got, msg)
	s.at = append(s.at, cy)
	return true
}

// fakeSampler answers each TexRequest latency cycles after it took it, with
// the functional results (pipeline.SampleBinding per lane).
type fakeSampler struct {
	*sim.TickingComponent
	Port     sim.Port
	latency  uint64
	pending  []*protocol.TexResponse
	due      []uint64
	dst      []sim.Port
	received []uint64 // cycle each request was taken
	warps    []uint64
	bindings []*state.TextureBinding
	vertex   []bool // the first lane's Vertex flag
	waker    *timing.Waker
}

func newFakeSampler(e sim.Engine, name string, latency uint64) *fakeSampler {
	f := &fakeSampler{latency: latency}
	f.TickingComponent = sim.NewTickingComponent(name, e, freq, f)
	f.Port = sim.NewLimitNumMsgPort(f, 4, name+".Port")
	f.waker = timing.NewWaker(e, freq, f)
	return f
}

func (f *fakeSampler) Tick(now sim.VTimeInSec) bool {
	cy := freq.Cycle(now)
	progress := false
	if len(f.pending) > 0 && f.due[0] <= cy {
		rsp := f.pending[0]
		rsp.Src, rsp.Dst, rsp.SendTime = f.Port, f.dst[0], now
		if f.Port.Send(rsp) == nil {
			f.pending, f.due, f.dst = f.pending[1:], f.due[1:], f.dst[1:]
			progress = true
		}
	}
	if msg := f.Port.Retrieve(now); msg != nil {
		req := msg.(*protocol.TexRequest)
		res := make([]geom.Vec4, len(req.Lanes))
		if req.Binding.Texture != nil {
			for i := range req.Lanes {
				res[i] = pipeline.SampleBinding(req.Binding, &req.Lanes[i], nil)
			}
		}
		f.pending = append(f.pending, protocol.NewTexResponse(req, res))
		f.due = append(f.due, cy+f.latency)
		f.dst = append(f.dst, req.Src)
		f.received = append(f.received, cy)
		f.warps = append(f.warps, req.Warp)
		f.bindings = append(f.bindings, req.Binding)
		f.vertex = append(f.vertex, len(req.Lanes) > 0 && req.Lanes[0].Vertex)
		progress = true
	}
	if !progress && len(f.pending) > 0 && f.due[0] > cy {
		f.waker.WakeIn(now, int(f.due[0]-cy))
	}
	return progress
}
