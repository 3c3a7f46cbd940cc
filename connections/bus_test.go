package connections

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

type linkKind int

const (
	busLink linkKind = iota
	xbarLink
)

func (k linkKind) String() string { return [...]string{"Bus", "Crossbar"}[k] }

func build(k linkKind, e sim.Engine, f sim.Freq, width, latency int) conn {
	if k == busLink {
		return MakeBusBuilder().WithEngine(e).WithFreq(f).WithWidth(width).WithLatency(latency).Build("GPU.Link")
	}
	return MakeCrossbarBuilder().WithEngine(e).WithFreq(f).WithWidth(width).WithLatency(latency).Build("GPU.Link")
}

// eachLink runs test as a subtest on a bus and on a crossbar, each on a
// fresh serial engine at testFreq, 32 bytes per cycle, latency 1.
func eachLink(t *testing.T, test func(t *testing.T, e sim.Engine, c conn)) {
	for _, k := range []linkKind{busLink, xbarLink} {
		t.Run(k.String(), func(t *testing.T) {
			e := sim.NewSerialEngine()
			test(t, e, build(k, e, testFreq, 32, 1))
		})
	}
}

// pointToPoint plugs a sender "Src" with the script made for the receiver
// and a receiver "Dst" of 8 slots into c, both with queue-slot queues, and
// runs e to the end.
func pointToPoint(t *testing.T, e sim.Engine, c conn, queue int, script func(dst *receiver) []planned) (*sender, *receiver) {
	r := newReceiver("Dst", e, 8, 0)
	s := newSender("Src", e, script(r)...)
	c.PlugIn(s.out, queue)
	c.PlugIn(r.in, queue)
	runEngine(t, e)
	return s, r
}

// TestProgress: a link given the platform's progress counts each delivery as
// progress and declares it busy until each granted message is due (a
// 100-byte message sent at cycle 3 on a link of 1 byte a cycle and latency 10:
// cycle 112), so that the watchdog does not take a long transfer for a hang;
// nothing is declared past that.
func TestProgress(t *testing.T) {
	for _, k := range []linkKind{busLink, xbarLink} {
		t.Run(k.String(), func(t *testing.T) {
			e := sim.NewSerialEngine()
			c := build(k, e, testFreq, 1, 10)
			p := &timing.Progress{}
			c.(interface{ SetProgress(*timing.Progress) }).SetProgress(p)
			r := newReceiver("Dst", e, 4, 0)
			s := newSender("Src", e, quads("M", 3, r, 100))
			c.PlugIn(s.out, 4)
			c.PlugIn(r.in, 4)
			runEngine(t, e)
			at := func(cycle uint64) sim.VTimeInSec { return sim.VTimeInSec(float64(cycle) / float64(testFreq)) }
			if !p.BusyAt(at(111)) || p.BusyAt(at(112)) {
				t.Errorf("busy at cycle 111: %v, at 112: %v; want busy until the delivery at cycle 112", p.BusyAt(at(111)), p.BusyAt(at(112)))
			}
			if len(r.got) != 1 || r.got[0].recv != 112 {
				t.Errorf("received %v, want M at cycle 112", r.got)
			}
			if p.Value() != 1 {
				t.Errorf("progress %d after one delivery, want 1", p.Value())
			}
		})
	}
}

// TestArrival checks d = c + ceil(B/W) - 1 + L for a message sent at cycle c on
// an idle link, and that the receiver takes it at d+1.
func TestArrival(t *testing.T) {
	cases := []struct {
		width, latency, bytes int
		recv                  uint64
	}{
		{32, 1, 16, 4},   // below the width: one cycle
		{32, 1, 32, 4},   // equal
		{32, 1, 33, 5},   // above: two cycles
		{32, 1, 100, 7},  // four cycles
		{32, 0, 16, 3},   // latency 0: like a DirectConnection
		{32, 0, 100, 6},  // latency 0, four cycles
		{32, 10, 16, 13}, // latency 10
		{32, 10, 64, 14}, // latency 10, two cycles
		{8, 10, 0, 13},   // a 0-byte message is charged one byte
		{1, 0, 5, 7},     // width 1
	}
	for _, k := range []linkKind{busLink, xbarLink} {
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%v/W%d/L%d/B%d", k, tc.width, tc.latency, tc.bytes), func(t *testing.T) {
				e := sim.NewSerialEngine()
				c := build(k, e, testFreq, tc.width, tc.latency)
				r := newReceiver("Dst", e, 4, 0)
				s := newSender("Src", e, quads("M", 3, r, tc.bytes))
				c.PlugIn(s.out, 4)
				c.PlugIn(r.in, 4)
				runEngine(t, e)
				want := []got{{"M", tc.recv, tc.recv + 1}}
				if !reflect.DeepEqual(r.got, want) {
					t.Errorf("got %v, want %v", r.got, want)
				}
			})
		}
	}
}

// TestArrivalOtherClock: a bus at 500 MHz between components at 1 GHz. A send
// at 3 ns is granted at the bus edge at 4 ns (bus cycle 2), delivered one bus
// cycle later at 6 ns, taken at the receiver's next edge, 7 ns.
func TestArrivalOtherClock(t *testing.T) {
	e := sim.NewSerialEngine()
	b := MakeBusBuilder().WithEngine(e).WithFreq(500 * sim.MHz).Build("Bus")
	r := newReceiver("Dst", e, 4, 0)
	s := newSender("Src", e, quads("M", 3, r, 16))
	b.PlugIn(s.out, 1)
	b.PlugIn(r.in, 1)
	runEngine(t, e)
	want := []got{{"M", 6, 7}}
	if !reflect.DeepEqual(r.got, want) {
		t.Errorf("got %v, want %v", r.got, want)
	}
}

// TestSerialized: messages from one source occupy the link one after the
// other; latency overlaps.
func TestSerialized(t *testing.T) {
	eachLink(t, func(t *testing.T, e sim.Engine, c conn) {
		_, r := pointToPoint(t, e, c, 4, func(r *receiver) []planned {
			return []planned{quads("A", 2, r, 64), quads("B", 2, r, 64), quads("C", 2, r, 64), quads("D", 3, r, 32)}
		})
		// granted at 2, 4, 6, 8; delivered at grant + 2 - 1 + 1, D at 8 + 1.
		want := []got{{"A", 4, 5}, {"B", 6, 7}, {"C", 8, 9}, {"D", 9, 10}}
		if !reflect.DeepEqual(r.got, want) {
			t.Errorf("got %v, want %v", r.got, want)
		}
	})
}

// TestRoundRobin: two sources share a link in plug-in order, whatever the
// order of their ticks.
func TestRoundRobin(t *testing.T) {
	cases := []struct {
		name         string
		aAt, bAt     uint64
		bFirst       bool // create and schedule B's component before A's
		wantOrder    string
		wantRecvFrom uint64
	}{
		{"same cycle", 1, 1, false, "A0 B0 A1 B1 A2 B2", 2},
		{"same cycle, B ticks first", 1, 1, true, "A0 B0 A1 B1 A2 B2", 2},
		{"B a cycle earlier", 2, 1, false, "B0 A0 B1 A1 B2 A2", 2},
	}
	for _, k := range []linkKind{busLink, xbarLink} {
		for _, tc := range cases {
			t.Run(k.String()+"/"+tc.name, func(t *testing.T) {
				e := sim.NewSerialEngine()
				c := build(k, e, testFreq, 32, 1)
				r := newReceiver("Dst", e, 8, 0)
				script := func(p string, at uint64) []planned {
					return []planned{quads(p+"0", at, r, 32), quads(p+"1", at, r, 32), quads(p+"2", at, r, 32)}
				}
				var a, b *sender
				if tc.bFirst {
					b = newSender("B", e, script("B", tc.bAt)...)
					a = newSender("A", e, script("A", tc.aAt)...)
				} else {
					a = newSender("A", e, script("A", tc.aAt)...)
					b = newSender("B", e, script("B", tc.bAt)...)
				}
				c.PlugIn(a.out, 4)
				c.PlugIn(b.out, 4)
				c.PlugIn(r.in, 4)
				runEngine(t, e)
				var ids []string
				for i, g := range r.got {
					ids = append(ids, g.id)
					if g.recv != tc.wantRecvFrom+uint64(i) {
						t.Errorf("%s delivered at %d, want %d", g.id, g.recv, tc.wantRecvFrom+uint64(i))
					}
				}
				if got := strings.Join(ids, " "); got != tc.wantOrder {
					t.Errorf("order %q, want %q", got, tc.wantOrder)
				}
			})
		}
	}
}

// TestSourceQueueFull: a source queue of 2; the third and fourth Send fail and
// the sender is woken when the bus takes the head of its queue.
func TestSourceQueueFull(t *testing.T) {
	eachLink(t, func(t *testing.T, e sim.Engine, c conn) {
		s, r := pointToPoint(t, e, c, 2, func(r *receiver) []planned {
			return []planned{quads("A", 1, r, 64), quads("B", 1, r, 64), quads("C", 1, r, 64), quads("D", 1, r, 64)}
		})
		// A, B accepted at 1, C refused; A granted at 1 frees a slot: C at 2,
		// D refused; B granted at 3: D at 4. Grants 1, 3, 5, 7.
		if want := []uint64{1, 1, 2, 4}; !reflect.DeepEqual(s.accepted, want) {
			t.Errorf("accepted at %v, want %v", s.accepted, want)
		}
		if want := []uint64{1, 3}; !reflect.DeepEqual(s.freed, want) {
			t.Errorf("NotifyPortFree at %v, want %v", s.freed, want)
		}
		if s.fails != 2 {
			t.Errorf("%d failed sends, want 2", s.fails)
		}
		want := []got{{"A", 3, 4}, {"B", 5, 6}, {"C", 7, 8}, {"D", 9, 10}}
		if !reflect.DeepEqual(r.got, want) {
			t.Errorf("got %v, want %v", r.got, want)
		}
	})
}

// TestCanSend: CanSend reports a full queue and asks for a notification.
func TestCanSend(t *testing.T) {
	eachLink(t, func(t *testing.T, e sim.Engine, c conn) {
		r := newReceiver("Dst", e, 8, 0)
		s := newSender("Src", e)
		c.PlugIn(s.out, 1)
		c.PlugIn(r.in, 1)
		if !c.CanSend(s.out) {
			t.Fatal("CanSend false on an empty queue")
		}
		m := &TileQuads{}
		m.Src, m.Dst, m.TrafficBytes = s.out, r.in, 8
		if err := c.Send(m); err != nil {
			t.Fatal("Send refused on an empty queue")
		}
		if c.CanSend(s.out) {
			t.Fatal("CanSend true on a full queue")
		}
		runEngine(t, e)
		if want := []uint64{0}; !reflect.DeepEqual(s.freed, want) {
			t.Errorf("NotifyPortFree at %v, want %v", s.freed, want)
		}
		if want := []got{{"", 1, 2}}; !reflect.DeepEqual(r.got, want) {
			t.Errorf("got %v, want %v", r.got, want)
		}
	})
}

// TestDestinationStall: the receiver holds one message and does not retrieve
// before cycle 10; delivery resumes when it does.
func TestDestinationStall(t *testing.T) {
	cases := []struct {
		latency int
		want    []got
		refused float64
	}{
		// L=1: grants 1, 2; B refused at 3 (stall from 3), C not granted
		// while refused; B delivered at 10 when A is taken, C granted at 10.
		{1, []got{{"A", 2, 10}, {"B", 10, 11}, {"C", 11, 12}}, 7},
		// L=3: grants 1, 2, 3 (C is on its way when B is refused at 5); B
		// delivered at 10, C refused again behind it, delivered at 11.
		{3, []got{{"A", 4, 10}, {"B", 10, 11}, {"C", 11, 12}}, 6},
	}
	for _, k := range []linkKind{busLink, xbarLink} {
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%v/L%d", k, tc.latency), func(t *testing.T) {
				e := sim.NewSerialEngine()
				c := build(k, e, testFreq, 32, tc.latency)
				r := newReceiver("Dst", e, 1, 10)
				s := newSender("Src", e, quads("A", 1, r, 32), quads("B", 1, r, 32), quads("C", 1, r, 32))
				c.PlugIn(s.out, 4)
				c.PlugIn(r.in, 4)
				runEngine(t, e)
				if !reflect.DeepEqual(r.got, tc.want) {
					t.Errorf("got %v, want %v", r.got, tc.want)
				}
				st := statMap(c)
				if st["GPU.Link.refused_cycles"] != tc.refused || st["GPU.Link.busy_cycles"] != 3 {
					t.Errorf("refused %v busy %v, want %v and 3", st["GPU.Link.refused_cycles"], st["GPU.Link.busy_cycles"], tc.refused)
				}
			})
		}
	}
}

// TestStallOtherDestinations: while Slow refuses, traffic to Fast from another
// source flows on a bus; on a crossbar even the same source's messages to Fast
// flow (virtual output queues), while on a bus they wait behind the source's
// head message, which is for Slow.
func TestStallOtherDestinations(t *testing.T) {
	cases := []struct {
		kind     linkKind
		fast     []got
		fastFrom []got
	}{
		{busLink,
			[]got{{"F0", 22, 23}, {"F1", 23, 24}},
			[]got{{"X", 6, 7}},
		},
		{xbarLink,
			[]got{{"F0", 2, 3}, {"F1", 3, 4}},
			[]got{{"X", 6, 7}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.kind.String(), func(t *testing.T) {
			e := sim.NewSerialEngine()
			c := build(tc.kind, e, testFreq, 32, 1)
			slow := newReceiver("Slow", e, 1, 20)
			fast := newReceiver("Fast", e, 4, 0)
			fastFrom := newReceiver("Other", e, 4, 0)
			s := newSender("Src", e,
				quads("S0", 1, slow, 32), quads("S1", 1, slow, 32), quads("S2", 1, slow, 32),
				quads("F0", 1, fast, 32), quads("F1", 1, fast, 32))
			o := newSender("Src2", e, quads("X", 5, fastFrom, 32))
			c.PlugIn(s.out, 8)
			c.PlugIn(o.out, 8)
			c.PlugIn(slow.in, 8)
			c.PlugIn(fast.in, 8)
			c.PlugIn(fastFrom.in, 8)
			runEngine(t, e)
			if !reflect.DeepEqual(fast.got, tc.fast) {
				t.Errorf("Fast got %v, want %v", fast.got, tc.fast)
			}
			if !reflect.DeepEqual(fastFrom.got, tc.fastFrom) {
				t.Errorf("Other got %v, want %v", fastFrom.got, tc.fastFrom)
			}
			// S0 delivered at 2, S1 refused at 3 until 20, S2 granted at 20.
			wantSlow := []got{{"S0", 2, 20}, {"S1", 20, 21}, {"S2", 21, 22}}
			if !reflect.DeepEqual(slow.got, wantSlow) {
				t.Errorf("Slow got %v, want %v", slow.got, wantSlow)
			}
		})
	}
}

// TestNoIdleTicks counts the bus's tick and wake-up events (a wake-up ticks
// the bus within its own event): it ticks at grants and deliveries only, not
// while a latency elapses or while idle.
func TestNoIdleTicks(t *testing.T) {
	cases := []struct {
		name           string
		width, latency int
		script         func(r *receiver) []planned
		ticks          []uint64
		wakes          int64
		recv           []uint64
	}{
		{"latency 100", 32, 100, func(r *receiver) []planned {
			return []planned{quads("A", 1, r, 32), quads("B", 500, r, 32)}
		}, []uint64{1, 101, 500, 600}, 2, []uint64{101, 600}},
		{"long messages", 1, 0, func(r *receiver) []planned {
			return []planned{quads("A", 1, r, 50), quads("B", 1, r, 50)}
		}, []uint64{1, 50, 51, 100}, 2, []uint64{50, 100}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := sim.NewSerialEngine()
			b := MakeBusBuilder().WithEngine(e).WithWidth(tc.width).WithLatency(tc.latency).Build("Bus")
			h := &eventCounter{tick: b.TickingComponent, wake: b.waker}
			e.AcceptHook(h)
			r := newReceiver("Dst", e, 4, 0)
			s := newSender("Src", e, tc.script(r)...)
			b.PlugIn(s.out, 4)
			b.PlugIn(r.in, 4)
			runEngine(t, e)
			if !reflect.DeepEqual(h.tickCycles, tc.ticks) {
				t.Errorf("ticks at %v, want %v", h.tickCycles, tc.ticks)
			}
			if h.wakes.Load() != tc.wakes {
				t.Errorf("%d wake-ups, want %d", h.wakes.Load(), tc.wakes)
			}
			var recv []uint64
			for _, g := range r.got {
				recv = append(recv, g.recv)
			}
			if !reflect.DeepEqual(recv, tc.recv) {
				t.Errorf("delivered at %v, want %v", recv, tc.recv)
			}
			if n := b.pendingWakes(); n != 0 {
				t.Errorf("%d wake-ups left pending", n)
			}
		})
	}
}

// TestBusStats: counters by kind with hand-computed values (width 32): 40 B
// (2 cycles), 0 B (charged 1, 1 cycle), 64 B (2 cycles).
func TestBusStats(t *testing.T) {
	e := sim.NewSerialEngine()
	b := MakeBusBuilder().WithEngine(e).Build("GPU.CommandBus")
	r := newReceiver("Dst", e, 4, 0)
	s := newSender("Src", e, quads("A", 1, r, 40), line("B", 1, r, 0), quads("C", 1, r, 64))
	b.PlugIn(s.out, 4)
	b.PlugIn(r.in, 4)
	runEngine(t, e)
	want := []stat{
		{"GPU.CommandBus.messages", 3},
		{"GPU.CommandBus.bytes", 105},
		{"GPU.CommandBus.busy_cycles", 5},
		{"GPU.CommandBus.refused_cycles", 0},
		{"GPU.CommandBus.ReadLine.messages", 1},
		{"GPU.CommandBus.ReadLine.bytes", 1},
		{"GPU.CommandBus.TileQuads.messages", 2},
		{"GPU.CommandBus.TileQuads.bytes", 104},
	}
	if got := collect(b); !reflect.DeepEqual(got, want) {
		t.Errorf("stats\n got %v\nwant %v", got, want)
	}
	wantBuf := []string{"GPU.CommandBus.FromSrc", "GPU.CommandBus.FromDst", "GPU.CommandBus.ToSrc", "GPU.CommandBus.ToDst"}
	bufs := b.Buffers()
	for i, bs := range bufs {
		if i >= len(wantBuf) || bs.Name != wantBuf[i] || bs.Len != 0 {
			t.Errorf("buffer %d: %+v, want %s empty", i, bs, wantBuf[min(i, len(wantBuf)-1)])
		}
		sim.NameMustBeValid(bs.Name)
	}
	if len(bufs) != len(wantBuf) {
		t.Errorf("%d buffers, want %d", len(bufs), len(wantBuf))
	}
}

// TestBuffersWhileStalled: the buffers and counters at cycle 30 show the
// messages waiting for a receiver that retrieves nothing before cycle 1000.
func TestBuffersWhileStalled(t *testing.T) {
	e := sim.NewSerialEngine()
	b := MakeBusBuilder().WithEngine(e).WithLatency(3).Build("Bus")
	r := newReceiver("Dst", e, 1, 1000)
	s := newSender("Src", e,
		quads("A", 1, r, 32), quads("B", 1, r, 32), quads("C", 1, r, 32), quads("D", 1, r, 32), quads("E", 1, r, 32))
	b.PlugIn(s.out, 4)
	b.PlugIn(r.in, 4)
	probe := &probe{b: b}
	e.Schedule(probeEvent{sim.NewEventBase(30e-9, probe)})
	runEngine(t, e)
	// Grants A 1, B 2, C 3, D 4 (E waits for a slot until 2); A delivered at
	// 4; B refused at 5; C and D wait behind it, E in the source queue.
	want := map[string][2]int{"Bus.FromSrc": {1, 4}, "Bus.FromDst": {0, 4}, "Bus.ToSrc": {0, 4}, "Bus.ToDst": {3, 4}}
	if !reflect.DeepEqual(probe.bufs, want) {
		t.Errorf("buffers %v, want %v", probe.bufs, want)
	}
	// The open refusal interval counts up to the current cycle (30).
	if st := probe.stats; st["Bus.refused_cycles"] != 25 || st["Bus.busy_cycles"] != 4 {
		t.Errorf("refused %v busy %v, want 25 and 4", st["Bus.refused_cycles"], st["Bus.busy_cycles"])
	}
	// From cycle 1000 the receiver takes one message per cycle: B, C and D
	// are delivered at 1000, 1001, 1002 (the refusal interval closes at 1002),
	// then E is granted at 1002 and delivered at 1002+3.
	var recv []uint64
	for _, g := range r.got {
		recv = append(recv, g.recv)
	}
	if want := []uint64{4, 1000, 1001, 1002, 1005}; !reflect.DeepEqual(recv, want) {
		t.Errorf("delivered at %v, want %v", recv, want)
	}
	if st := statMap(b); st["Bus.refused_cycles"] != 1002-5 {
		t.Errorf("refused %v, want %d", st["Bus.refused_cycles"], 1002-5)
	}
}

// probe records a connection's buffers and counters when its event fires.
type probe struct {
	b     *Bus
	bufs  map[string][2]int
	stats map[string]float64
}

type probeEvent struct{ *sim.EventBase }

func (p *probe) Handle(sim.Event) error {
	p.bufs = map[string][2]int{}
	for _, bs := range p.b.Buffers() {
		p.bufs[bs.Name] = [2]int{bs.Len, bs.Cap}
	}
	p.stats = statMap(p.b)
	return nil
}

func TestBuilders(t *testing.T) {
	e := sim.NewSerialEngine()
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"bus ok", MakeBusBuilder().WithEngine(e).Validate(), ""},
		{"bus no engine", MakeBusBuilder().Validate(), "bus: engine: not set"},
		{"bus width", MakeBusBuilder().WithEngine(e).WithWidth(0).Validate(), "bus: width: 0 bytes per cycle, must be at least 1"},
		{"bus latency", MakeBusBuilder().WithEngine(e).WithLatency(-1).Validate(), "bus: latency: -1 cycles, must not be negative"},
		{"bus freq", MakeBusBuilder().WithEngine(e).WithFreq(0).Validate(), "bus: freq: 0 Hz is not a positive frequency"},
		{"xbar ok", MakeCrossbarBuilder().WithEngine(e).Validate(), ""},
		{"xbar width", MakeCrossbarBuilder().WithEngine(e).WithWidth(-3).Validate(), "crossbar: width: -3 bytes per cycle, must be at least 1"},
	}
	for _, tc := range cases {
		got := ""
		if tc.err != nil {
			got = tc.err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	b := MakeBusBuilder().WithEngine(e).Build("Bus")
	if b.width != 32 || b.latency != 1 || b.Freq != 1*sim.GHz {
		t.Errorf("defaults: width %d latency %d freq %v", b.width, b.latency, b.Freq)
	}
}

// TestWiringPanics: wiring bugs panic with a message naming the connection.
func TestWiringPanics(t *testing.T) {
	e := sim.NewSerialEngine()
	b := MakeBusBuilder().WithEngine(e).Build("Bus")
	r := newReceiver("Dst", e, 1, 0)
	s := newSender("Src", e)
	b.PlugIn(s.out, 1)
	stray := newReceiver("Stray", e, 1, 0)
	cases := []struct {
		name string
		f    func()
		want string
	}{
		{"unplugged destination", func() {
			m := &TileQuads{}
			m.Src, m.Dst = s.out, r.in
			b.Send(m)
		}, "connections: Bus: destination port Dst.In is not plugged in"},
		{"to itself", func() {
			m := &TileQuads{}
			m.Src, m.Dst = s.out, s.out
			b.Send(m)
		}, "connections: Bus: message from Src.Out to itself"},
		{"twice", func() { b.PlugIn(s.out, 1) }, "connections: Bus: port Src.Out plugged in twice"},
		{"zero buffer", func() { b.PlugIn(stray.in, 0) }, "connections: Bus: port Stray.In: source buffer of 0 messages"},
		{"unplug", func() { b.Unplug(s.out) }, "connections: Bus: Unplug(Src.Out) is not supported"},
	}
	for _, tc := range cases {
		func() {
			defer func() {
				if r := recover(); r != tc.want {
					t.Errorf("%s: panic %v, want %q", tc.name, r, tc.want)
				}
			}()
			tc.f()
		}()
	}
}

// hookLog records the connection hook positions it sees.
type hookLog struct{ pos []string }

func (h *hookLog) Func(ctx sim.HookCtx) {
	h.pos = append(h.pos, ctx.Pos.Name+" "+ctx.Item.(sim.Msg).Meta().ID)
}

// TestHooks: Send, grant and delivery fire Akita's connection hook positions.
func TestHooks(t *testing.T) {
	eachLink(t, func(t *testing.T, e sim.Engine, c conn) {
		h := &hookLog{}
		c.AcceptHook(h)
		r := newReceiver("Dst", e, 4, 0)
		s := newSender("Src", e, quads("A", 1, r, 8), quads("B", 1, r, 8))
		c.PlugIn(s.out, 4)
		c.PlugIn(r.in, 4)
		runEngine(t, e)
		// A granted at 1, delivered at 2 before B is granted at 2.
		want := []string{"Conn Start Send A", "Conn Start Send B", "Conn Start Trans A",
			"Conn Deliver A", "Conn Start Trans B", "Conn Deliver B"}
		if !reflect.DeepEqual(h.pos, want) {
			t.Errorf("hooks %q, want %q", h.pos, want)
		}
	})
}

type generic[T any] struct{ sim.MsgMeta }

func (m *generic[T]) Meta() *sim.MsgMeta { return &m.MsgMeta }

func TestKindName(t *testing.T) {
	cases := []struct {
		msg  sim.Msg
		want string
	}{
		{&TileQuads{}, "TileQuads"},
		{&ReadLine{}, "ReadLine"},
		{&generic[int]{}, "generic"},
		{&mem.ReadReq{}, "ReadReq"},
	}
	for _, tc := range cases {
		if got := kindName(reflect.TypeOf(tc.msg)); got != tc.want {
			t.Errorf("%T: %q, want %q", tc.msg, got, tc.want)
		}
	}
}
