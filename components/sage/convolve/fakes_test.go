package convolve_test

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
)

// fakeCommandProcessor sends one message to each of its peers through Out and
// collects the Done answers.
type fakeCommandProcessor struct {
	*sim.TickingComponent
	Out   sim.Port
	msgs  []sim.Msg
	dones []*protocol.Done
}

func newFakeCommandProcessor(name string, e sim.Engine) *fakeCommandProcessor {
	f := &fakeCommandProcessor{}
	f.TickingComponent = sim.NewTickingComponent(name, e, 1*sim.GHz, f)
	f.Out = sim.NewLimitNumMsgPort(f, 8, name+".Out")
	f.AddPort("Out", f.Out)
	return f
}

// send queues msg for dst.
func (f *fakeCommandProcessor) send(msg sim.Msg, dst sim.Port) {
	msg.Meta().Src, msg.Meta().Dst = f.Out, dst
	f.msgs = append(f.msgs, msg)
}

func (f *fakeCommandProcessor) Tick(now sim.VTimeInSec) bool {
	progress := false
	for len(f.msgs) > 0 {
		f.msgs[0].Meta().SendTime = now
		if f.Out.Send(f.msgs[0]) != nil {
			break
		}
		f.msgs = f.msgs[1:]
		progress = true
	}
	for {
		m := f.Out.Retrieve(now)
		if m == nil {
			break
		}
		f.dones = append(f.dones, m.(*protocol.Done))
		progress = true
	}
	return progress
}
