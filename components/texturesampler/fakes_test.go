package texturesampler_test

import (
	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/timing"
)

const freq = testpeer.Freq

var cycleTime = testpeer.CycleTime

// fakeCore sends scripted texture requests (one per cycle, each no earlier
// than its cycle: testpeer.Sender) and records the responses with the cycle
// it took them.
type fakeCore struct {
	*sim.TickingComponent
	*testpeer.Sender
	Port   sim.Port
	got    []*protocol.TexResponse
	at     []uint64
	openAt uint64 // takes no response before this cycle
	waker  *timing.Waker
}

// scripted is a texture request to send at cycle at or later.
type scripted struct {
	msg *protocol.TexRequest
	at  uint64
}

func newFakeCore(e sim.Engine) *fakeCore {
	c := &fakeCore{}
	c.TickingComponent = sim.NewTickingComponent("Core", e, freq, c)
	c.Port = sim.NewLimitNumMsgPort(c, 1, "Core.Port")
	c.Sender = testpeer.NewSender(e, c, c.Port)
	c.waker = timing.NewWaker(e, freq, c)
	return c
}

func (c *fakeCore) Tick(now sim.VTimeInSec) bool {
	cy := freq.Cycle(now)
	progress := false
	if cy >= c.openAt {
		if msg := c.Port.Retrieve(now); msg != nil {
			c.got = append(c.got, msg.(*protocol.TexResponse))
			c.at = append(c.at, cy)
			progress = true
		}
	} else if c.Port.Peek() != nil {
		c.waker.WakeIn(now, int(c.openAt-cy))
	}
	return c.Step(now, cy) || progress
}

// fakeL2 answers line reads latency cycles after it took them, with the bytes
// of the memory image; it records the addresses and cycles of the reads.
type fakeL2 struct {
	*sim.TickingComponent
	Top     sim.Port
	image   *command.Image
	latency uint64
	pending []*mem.DataReadyRsp
	due     []uint64
	reads   []uint64
	readAt  []uint64
	waker   *timing.Waker
}

func newFakeL2(e sim.Engine, image *command.Image, latency uint64) *fakeL2 {
	l := &fakeL2{image: image, latency: latency}
	l.TickingComponent = sim.NewTickingComponent("L2", e, freq, l)
	l.Top = sim.NewLimitNumMsgPort(l, 64, "L2.Top")
	l.waker = timing.NewWaker(e, freq, l)
	return l
}

// Find implements mem.LowModuleFinder.
func (l *fakeL2) Find(uint64) sim.Port { return l.Top }

func (l *fakeL2) Tick(now sim.VTimeInSec) bool {
	cy := freq.Cycle(now)
	progress := false
	if len(l.pending) > 0 && l.due[0] <= cy {
		rsp := l.pending[0]
		rsp.SendTime = now
		if l.Top.Send(rsp) == nil {
			l.pending, l.due = l.pending[1:], l.due[1:]
			progress = true
		}
	}
	if msg := l.Top.Retrieve(now); msg != nil {
		req := msg.(*mem.ReadReq)
		data := make([]byte, req.AccessByteSize)
		l.image.ReadAt(data, req.Address)
		rsp := mem.DataReadyRspBuilder{}.WithSrc(l.Top).WithDst(req.Src).WithRspTo(req.ID).WithData(data).Build()
		l.pending = append(l.pending, rsp)
		l.due = append(l.due, cy+l.latency)
		l.reads = append(l.reads, req.Address)
		l.readAt = append(l.readAt, cy)
		progress = true
	}
	if !progress && len(l.pending) > 0 && l.due[0] > cy {
		l.waker.WakeIn(now, int(l.due[0]-cy))
	}
	return progress
}
