package testpeer

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

// countingPort takes the first room messages it is sent, then refuses.
type countingPort struct {
	sim.Port // unused methods
	room     int
	got      []sim.Msg
}

func (p *countingPort) Send(m sim.Msg) *sim.SendError {
	if len(p.got) == p.room {
		return sim.NewSendError()
	}
	p.got = append(p.got, m)
	return nil
}

type testMsg struct{ meta sim.MsgMeta }

func (m *testMsg) Meta() *sim.MsgMeta { return &m.meta }

func TestSendDue(t *testing.T) {
	own, def := &countingPort{}, &countingPort{}
	for _, tc := range []struct {
		name      string
		ats       []uint64
		room      int
		sent      int
		rest      int
		blocked   bool
		ownDstIdx int // the entry with its own Dst (-1: none)
	}{
		{"none due", []uint64{5, 6}, 9, 0, 2, false, -1},
		{"due prefix", []uint64{1, 3, 4, 6}, 9, 3, 1, false, 1},
		{"refused", []uint64{0, 1, 2}, 1, 1, 2, true, 0},
		{"empty", nil, 9, 0, 0, false, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			port := &countingPort{room: tc.room}
			var q []Scripted
			for i, at := range tc.ats {
				s := Scripted{At: at, Msg: &testMsg{}}
				if i == tc.ownDstIdx {
					s.Dst = own
				}
				q = append(q, s)
			}
			rest, sent := SendDue(port, def, q, 4e-9, 4)
			if sent != tc.sent || len(rest) != tc.rest || Blocked(rest, 4) != tc.blocked {
				t.Fatalf("sent %d, %d left, blocked %v; want %d, %d, %v",
					sent, len(rest), Blocked(rest, 4), tc.sent, tc.rest, tc.blocked)
			}
			for i, m := range port.got {
				want := sim.Port(def)
				if i == tc.ownDstIdx {
					want = own
				}
				if meta := m.Meta(); meta.Src != port || meta.Dst != want || meta.SendTime != 4e-9 {
					t.Errorf("message %d: src %v dst %v at %v", i, meta.Src, meta.Dst, meta.SendTime)
				}
			}
		})
	}
}
