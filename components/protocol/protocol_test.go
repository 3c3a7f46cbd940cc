package protocol_test

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/timing"
)

// TestPeekDrawDispatch: a DrawDispatch with a draw is returned and stays in
// the port; none waiting gives nothing and no error; one without a draw, or a
// message of another type, fails the unit with its message.
func TestPeekDrawDispatch(t *testing.T) {
	whole := protocol.NewDrawDispatch(&protocol.Draw{State: &state.Draw{}})
	for _, tc := range []struct {
		name string
		msg  sim.Msg // nil: an empty port
		ok   bool
		err  string
	}{
		{"empty", nil, false, ""},
		{"whole", whole, true, ""},
		{"no draw", protocol.NewDrawDispatch(nil), false, "GPU.Unit: DrawDispatch without a draw"},
		{"no state", protocol.NewDrawDispatch(&protocol.Draw{}), false, "GPU.Unit: DrawDispatch without a draw"},
		{"other", protocol.NewDrawDone(nil, 0), false, "GPU.Unit: Port: unexpected message *protocol.DrawDone"},
	} {
		u := testpeer.NewPeer("GPU.Unit", sim.NewSerialEngine(), 1)
		f := timing.Env{Halt: &timing.Halt{}}.Fault("GPU.Unit")
		if tc.msg != nil {
			u.Port.Recv(tc.msg)
		}
		dd, ok := protocol.PeekDrawDispatch(&f, u.Port)
		err := ""
		if f.Err() != nil {
			err = f.Err().Error()
		}
		if ok != tc.ok || err != tc.err || (ok && dd != tc.msg) || (!ok && dd != nil) {
			t.Errorf("%s: %v, %v, error %q; want ok %v, error %q", tc.name, dd, ok, err, tc.ok, tc.err)
		}
		if tc.msg != nil && u.Port.Peek() != tc.msg {
			t.Errorf("%s: the message left the port", tc.name)
		}
	}
}
