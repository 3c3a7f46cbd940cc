package timing

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

type outboxMsg struct{ sim.MsgMeta }

func (m *outboxMsg) Meta() *sim.MsgMeta { return &m.MsgMeta }

type outboxComp struct{ *sim.ComponentBase }

func (outboxComp) Handle(sim.Event) error                  { return nil }
func (outboxComp) NotifyRecv(sim.VTimeInSec, sim.Port)     {}
func (outboxComp) NotifyPortFree(sim.VTimeInSec, sim.Port) {}

// TestOutbox: messages leave in order, stamped, until the receiver's buffer
// (the sending port holds two) is full; the rest wait for the next Send.
func TestOutbox(t *testing.T) {
	e := sim.NewSerialEngine()
	a, b := outboxComp{sim.NewComponentBase("A")}, outboxComp{sim.NewComponentBase("B")}
	out, in := sim.NewLimitNumMsgPort(a, 2, "A.Out"), sim.NewLimitNumMsgPort(b, 2, "B.In")
	conn := sim.NewDirectConnection("Conn", e, 1*sim.GHz)
	conn.PlugIn(out, 2)
	conn.PlugIn(in, 2)
	var o Outbox
	for i := 0; i < 3; i++ {
		o.Push(&outboxMsg{sim.MsgMeta{ID: string(rune('x' + i))}})
	}
	var sent []string
	if !o.Send(out, in, 5, func(m sim.Msg) { sent = append(sent, m.Meta().ID) }) {
		t.Fatal("nothing sent")
	}
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for m := in.Retrieve(6); m != nil; m = in.Retrieve(6) {
		if m.Meta().Src != out || m.Meta().SendTime != 5 {
			t.Errorf("message %s: Src %v, SendTime %v", m.Meta().ID, m.Meta().Src, m.Meta().SendTime)
		}
		got = append(got, m.Meta().ID)
	}
	if o.Len() != 1 || len(sent) != 2 || len(got) != 2 || got[0] != "x" || got[1] != "y" {
		t.Fatalf("sent %v, received %v, %d waiting", sent, got, o.Len())
	}
	if !o.Send(out, in, 7, nil) || o.Len() != 0 {
		t.Errorf("the last message did not leave: %d waiting", o.Len())
	}
	if o.Send(out, in, 8, nil) {
		t.Error("an empty outbox reported progress")
	}
}
