package timing

import (
	"errors"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

// faultUnit is a component with one port, to peek at.
type faultUnit struct {
	*sim.ComponentBase
	In sim.Port
}

func (u *faultUnit) Handle(sim.Event) error                  { return nil }
func (u *faultUnit) NotifyRecv(sim.VTimeInSec, sim.Port)     {}
func (u *faultUnit) NotifyPortFree(sim.VTimeInSec, sim.Port) {}

// otherMsg and wantMsg are two message types.
type otherMsg struct{ sim.MsgMeta }

func (m *otherMsg) Meta() *sim.MsgMeta { return &m.MsgMeta }

type wantMsg struct{ sim.MsgMeta }

func (m *wantMsg) Meta() *sim.MsgMeta { return &m.MsgMeta }

func TestFault(t *testing.T) {
	halt := &Halt{}
	u := &faultUnit{ComponentBase: sim.NewComponentBase("GPU.Unit")}
	u.In = sim.NewLimitNumMsgPort(u, 2, "GPU.Unit.In")
	f := Env{Halt: halt}.Fault("GPU.Unit")
	if f.Stopped() || f.Err() != nil {
		t.Fatal("a new fault is stopped")
	}
	if !f.Expect(true, u.In, &wantMsg{}) || f.Expect(false, u.In, nil) || f.Err() != nil {
		t.Error("Expect of a message of the port's type, or of none, failed the unit")
	}
	if f.Expect(false, u.In, &otherMsg{}) {
		t.Error("Expect of another type reported ok")
	}
	want := "GPU.Unit: In: unexpected message *timing.otherMsg"
	if err := f.Err(); err == nil || err.Error() != want || !f.Stopped() || !halt.Stopped() {
		t.Errorf("after a message of another type: error %v (want %q), stopped %v, halted %v", err, want, f.Stopped(), halt.Stopped())
	}
	f.Fail(errors.New("second"))
	if f.Err().Error() != want || halt.Reason().Error() != want {
		t.Errorf("a second failure replaced the first: %v, halt %v", f.Err(), halt.Reason())
	}
	other := Env{Halt: &Halt{}}.Fault("GPU.Other")
	other.halt.Stop(errors.New("watchdog"))
	if !other.Stopped() || other.Err() != nil {
		t.Error("a halted platform does not stop the unit, or gave it an error")
	}
}

// TestTakeAsPeekAs: a message of the port's type is peeked (and stays) or
// taken (and is gone); an empty port gives nothing and no error; a message of
// another type fails the unit, and TakeAs drops it.
func TestTakeAsPeekAs(t *testing.T) {
	for _, take := range []bool{false, true} {
		u := &faultUnit{ComponentBase: sim.NewComponentBase("GPU.Unit")}
		u.In = sim.NewLimitNumMsgPort(u, 2, "GPU.Unit.In")
		f := Env{Halt: &Halt{}}.Fault("GPU.Unit")
		get := func() (*wantMsg, bool) {
			if take {
				return TakeAs[*wantMsg](&f, u.In, 0)
			}
			return PeekAs[*wantMsg](&f, u.In)
		}
		if m, ok := get(); ok || m != nil || f.Err() != nil {
			t.Errorf("take %v, empty port: %v, %v, error %v", take, m, ok, f.Err())
		}
		in := &wantMsg{}
		u.In.Recv(in)
		if m, ok := get(); !ok || m != in || f.Err() != nil {
			t.Errorf("take %v: %v, %v, error %v; want the message", take, m, ok, f.Err())
		}
		if left := u.In.Peek() != nil; left == take {
			t.Errorf("take %v: the message is left in the port: %v", take, left)
		}
		if take {
			u.In.Recv(&otherMsg{})
		} else {
			u.In.Retrieve(0)
			u.In.Recv(&otherMsg{})
		}
		want := "GPU.Unit: In: unexpected message *timing.otherMsg"
		if m, ok := get(); ok || m != nil || f.Err() == nil || f.Err().Error() != want {
			t.Errorf("take %v, another type: %v, %v, error %v; want %q", take, m, ok, f.Err(), want)
		}
		if left := u.In.Peek() != nil; left == take {
			t.Errorf("take %v: after another type, the message is left in the port: %v", take, left)
		}
	}
}
