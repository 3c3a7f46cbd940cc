package timing

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

type idle struct{}

type sentMsg struct{ sim.MsgMeta }

func (m *sentMsg) Meta() *sim.MsgMeta { return &m.MsgMeta }

func (idle) Tick(sim.VTimeInSec) bool { return false }

// TestSender: a message the port takes is stamped and counted as progress; one
// it refuses (the connection's one-message buffer is full) sets Blocked.
func TestSender(t *testing.T) {
	e := sim.NewSerialEngine()
	a := NewTickingComponent("A", e, 1*sim.GHz, idle{})
	b := NewTickingComponent("B", e, 1*sim.GHz, idle{})
	src, dst := AddPort(a, "Out", 1), AddPort(b, "In", 1)
	conn := sim.NewDirectConnection("Conn", e, 1*sim.GHz)
	conn.PlugIn(src, 1)
	conn.PlugIn(dst, 1)
	p := &Progress{}
	s := Sender{Progress: p}
	m1, m2 := &sentMsg{}, &sentMsg{}
	if !s.Send(src, dst, m1, 2e-9) {
		t.Fatal("the first message was refused")
	}
	if m1.Src != src || m1.Dst != dst || m1.SendTime != 2e-9 || p.Value() != 1 || s.Blocked {
		t.Errorf("after the first send: src %v dst %v time %v progress %d blocked %v", m1.Src, m1.Dst, m1.SendTime, p.Value(), s.Blocked)
	}
	if s.Send(src, dst, m2, 2e-9) {
		t.Fatal("the second message was taken by a full connection buffer")
	}
	if p.Value() != 1 || !s.Blocked {
		t.Errorf("after the refused send: progress %d blocked %v, want 1 true", p.Value(), s.Blocked)
	}
}

// TestProgressBusyUntil: the latest of the times units declare holds, and a
// time before it does not move it back.
func TestProgressBusyUntil(t *testing.T) {
	p := &Progress{}
	if p.BusyAt(0) {
		t.Error("a new Progress is busy at 0")
	}
	for _, u := range []sim.VTimeInSec{2e-6, 1e-6, 0} {
		p.BusyUntil(u)
	}
	for _, tc := range []struct {
		now  sim.VTimeInSec
		busy bool
	}{{0, true}, {1.5e-6, true}, {2e-6, false}, {3e-6, false}} {
		if got := p.BusyAt(tc.now); got != tc.busy {
			t.Errorf("BusyAt(%v) = %v, want %v", tc.now, got, tc.busy)
		}
	}
	var none *Progress
	none.BusyUntil(1) // a unit without a platform's Progress
}
