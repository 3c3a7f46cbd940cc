package timing

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

func TestPorts(t *testing.T) {
	u := &faultUnit{ComponentBase: sim.NewComponentBase("GPU.Unit")}
	p := AddPort(u, "Out", 3)
	in, buf := AddBufferedPort(u, "In", 5)
	if p.Name() != "GPU.Unit.Out" || u.GetPortByName("Out") != p {
		t.Errorf("AddPort: %s, registered %v", p.Name(), u.GetPortByName("Out"))
	}
	if in.Name() != "GPU.Unit.In" || u.GetPortByName("In") != in || buf.Name() != "GPU.Unit.In.Buf" || buf.Capacity() != 5 {
		t.Errorf("AddBufferedPort: %s, buffer %s of %d", in.Name(), buf.Name(), buf.Capacity())
	}
	if got, want := PeekState(in, 5), (BufferState{Name: "GPU.Unit.In", Len: 0, Cap: 5}); got != want {
		t.Errorf("PeekState of an empty port = %+v, want %+v", got, want)
	}
	e := sim.NewSerialEngine()
	conn := sim.NewDirectConnection("Conn", e, 1*sim.GHz)
	conn.PlugIn(p, 1)
	conn.PlugIn(in, 1)
	m := &wantMsg{}
	m.Src, m.Dst = p, in
	if err := p.Send(m); err != nil {
		t.Fatal(err)
	}
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if got, want := PeekState(in, 5), (BufferState{Name: "GPU.Unit.In", Len: 1, Cap: 5}); got != want || buf.Size() != 1 {
		t.Errorf("PeekState with a message waiting = %+v (buffer %d), want %+v", got, buf.Size(), want)
	}
}
