package connections

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

// TestCrossbarParallel: two sources to two destinations move at full width
// each on a crossbar, and take turns on a bus; two sources to one destination
// share its link.
func TestCrossbarParallel(t *testing.T) {
	cases := []struct {
		name     string
		kind     linkKind
		toSecond bool // S2 sends to R2 (else to R1)
		r1, r2   []got
	}{
		// 64 B at 32 B/cycle: 2 cycles each; latency 1.
		{"crossbar, two destinations", xbarLink, true,
			[]got{{"A0", 3, 4}, {"A1", 5, 6}, {"A2", 7, 8}},
			[]got{{"B0", 3, 4}, {"B1", 5, 6}, {"B2", 7, 8}}},
		{"bus, two destinations", busLink, true,
			[]got{{"A0", 3, 4}, {"A1", 7, 8}, {"A2", 11, 12}},
			[]got{{"B0", 5, 6}, {"B1", 9, 10}, {"B2", 13, 14}}},
		{"crossbar, one destination", xbarLink, false,
			[]got{{"A0", 3, 4}, {"B0", 5, 6}, {"A1", 7, 8}, {"B1", 9, 10}, {"A2", 11, 12}, {"B2", 13, 14}},
			nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := sim.NewSerialEngine()
			c := build(tc.kind, e, testFreq, 32, 1)
			r1 := newReceiver("R[1]", e, 8, 0)
			r2 := newReceiver("R[2]", e, 8, 0)
			dst := r1
			if tc.toSecond {
				dst = r2
			}
			s1 := newSender("S[1]", e, quads("A0", 1, r1, 64), quads("A1", 1, r1, 64), quads("A2", 1, r1, 64))
			s2 := newSender("S[2]", e, quads("B0", 1, dst, 64), quads("B1", 1, dst, 64), quads("B2", 1, dst, 64))
			for _, p := range []sim.Port{s1.out, s2.out, r1.in, r2.in} {
				c.PlugIn(p, 4)
			}
			runEngine(t, e)
			if !reflect.DeepEqual(r1.got, tc.r1) {
				t.Errorf("R1 got %v, want %v", r1.got, tc.r1)
			}
			if !reflect.DeepEqual(r2.got, tc.r2) {
				t.Errorf("R2 got %v, want %v", r2.got, tc.r2)
			}
		})
	}
}

// TestCrossbarStats: per-link and total counters, in order. S1 sends 40 B and
// 0 B to R1 and 64 B to R2; S2 sends 32 B to R1 (width 32, latency 1).
// R1 refuses from cycle 3 (it holds one message until cycle 6).
func TestCrossbarStats(t *testing.T) {
	e := sim.NewSerialEngine()
	x := MakeCrossbarBuilder().WithEngine(e).Build("GPU.RasterXbar")
	r1 := newReceiver("GPU.DepthUnit[0]", e, 1, 6)
	r2 := newReceiver("GPU.DepthUnit[1]", e, 4, 0)
	s1 := newSender("GPU.Rasterizer[0]", e, quads("A", 1, r1, 40), line("B", 1, r1, 0), quads("C", 1, r2, 64))
	s2 := newSender("GPU.Rasterizer[1]", e, quads("D", 1, r1, 32))
	for _, p := range []sim.Port{s1.out, s2.out, r1.in, r2.in} {
		x.PlugIn(p, 4)
	}
	runEngine(t, e)
	// Link to R1: A granted at 1 for 2 cycles, delivered at 1+2-1+1 = 3; D
	// (round robin: S2 after S1) granted at 3, due at 4 but refused (R1 holds
	// A until 6): refused from 4 to 6; B granted at 6, delivered at 7.
	// Link to R2: C granted at 1, delivered at 3.
	wantR1 := []got{{"A", 3, 6}, {"D", 6, 7}, {"B", 7, 8}}
	if !reflect.DeepEqual(r1.got, wantR1) {
		t.Errorf("R1 got %v, want %v", r1.got, wantR1)
	}
	if want := []got{{"C", 3, 4}}; !reflect.DeepEqual(r2.got, want) {
		t.Errorf("R2 got %v, want %v", r2.got, want)
	}
	want := []stat{
		{"GPU.RasterXbar.messages", 4},
		{"GPU.RasterXbar.bytes", 137},
		{"GPU.RasterXbar.busy_cycles", 6},
		{"GPU.RasterXbar.refused_cycles", 2},
		{"GPU.RasterXbar.ReadLine.messages", 1},
		{"GPU.RasterXbar.ReadLine.bytes", 1},
		{"GPU.RasterXbar.TileQuads.messages", 3},
		{"GPU.RasterXbar.TileQuads.bytes", 136},
		{"GPU.RasterXbar.ToRasterizer[0].messages", 0},
		{"GPU.RasterXbar.ToRasterizer[0].bytes", 0},
		{"GPU.RasterXbar.ToRasterizer[0].busy_cycles", 0},
		{"GPU.RasterXbar.ToRasterizer[0].refused_cycles", 0},
		{"GPU.RasterXbar.ToRasterizer[1].messages", 0},
		{"GPU.RasterXbar.ToRasterizer[1].bytes", 0},
		{"GPU.RasterXbar.ToRasterizer[1].busy_cycles", 0},
		{"GPU.RasterXbar.ToRasterizer[1].refused_cycles", 0},
		{"GPU.RasterXbar.ToDepthUnit[0].messages", 3},
		{"GPU.RasterXbar.ToDepthUnit[0].bytes", 73},
		{"GPU.RasterXbar.ToDepthUnit[0].busy_cycles", 4},
		{"GPU.RasterXbar.ToDepthUnit[0].refused_cycles", 2},
		{"GPU.RasterXbar.ToDepthUnit[0].ReadLine.messages", 1},
		{"GPU.RasterXbar.ToDepthUnit[0].ReadLine.bytes", 1},
		{"GPU.RasterXbar.ToDepthUnit[0].TileQuads.messages", 2},
		{"GPU.RasterXbar.ToDepthUnit[0].TileQuads.bytes", 72},
		{"GPU.RasterXbar.ToDepthUnit[1].messages", 1},
		{"GPU.RasterXbar.ToDepthUnit[1].bytes", 64},
		{"GPU.RasterXbar.ToDepthUnit[1].busy_cycles", 2},
		{"GPU.RasterXbar.ToDepthUnit[1].refused_cycles", 0},
		{"GPU.RasterXbar.ToDepthUnit[1].TileQuads.messages", 1},
		{"GPU.RasterXbar.ToDepthUnit[1].TileQuads.bytes", 64},
	}
	if got := collect(x); !reflect.DeepEqual(got, want) {
		t.Errorf("stats\n got %v\nwant %v", got, want)
	}
	bufs := x.Buffers()
	if len(bufs) != 4*3+4 {
		t.Fatalf("%d buffers, want 16", len(bufs))
	}
	if bufs[0].Name != "GPU.RasterXbar.FromRasterizer[0].ToRasterizer[1]" ||
		bufs[12].Name != "GPU.RasterXbar.ToRasterizer[0]" || bufs[15].Name != "GPU.RasterXbar.ToDepthUnit[1]" {
		t.Errorf("buffer names %q %q %q", bufs[0].Name, bufs[12].Name, bufs[15].Name)
	}
	for i, b := range bufs {
		sim.NameMustBeValid(b.Name)
		wantCap := 4 // source queues: the PlugIn size
		if i >= 12 {
			wantCap = 2 // output links: latency + 1
		}
		if b.Len != 0 || b.Cap != wantCap {
			t.Errorf("buffer %+v, want empty with capacity %d", b, wantCap)
		}
	}
}

// TestCrossbarCanSendTo: a full queue towards one destination makes CanSend
// false but leaves CanSendTo true for the others.
func TestCrossbarCanSendTo(t *testing.T) {
	e := sim.NewSerialEngine()
	x := MakeCrossbarBuilder().WithEngine(e).Build("Xbar")
	r1 := newReceiver("R[1]", e, 4, 0)
	r2 := newReceiver("R[2]", e, 4, 0)
	s := newSender("S", e)
	for _, p := range []sim.Port{s.out, r1.in, r2.in} {
		x.PlugIn(p, 1)
	}
	m := &TileQuads{}
	m.Src, m.Dst = s.out, r1.in
	if err := x.Send(m); err != nil {
		t.Fatal("Send refused on an empty queue")
	}
	checks := []struct {
		name string
		got  bool
		want bool
	}{
		{"CanSend", x.CanSend(s.out), false},
		{"CanSendTo R1", x.CanSendTo(s.out, r1.in), false},
		{"CanSendTo R2", x.CanSendTo(s.out, r2.in), true},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	m2 := &TileQuads{}
	m2.Src, m2.Dst = s.out, r1.in
	if err := x.Send(m2); err == nil {
		t.Error("Send accepted on a full queue")
	}
	runEngine(t, e)
	if want := []uint64{0}; !reflect.DeepEqual(s.freed, want) {
		t.Errorf("NotifyPortFree at %v, want %v", s.freed, want)
	}
}

// TestEndTokens: a port's name inside a connection comes from its component;
// a second port of the same component is told apart by its own name, and
// different components whose names end alike (a SAGE pipe's units) by more of
// their names, all of them, also the one plugged in first.
func TestEndTokens(t *testing.T) {
	e := sim.NewSerialEngine()
	x := MakeCrossbarBuilder().WithEngine(e).Build("Xbar")
	r := newReceiver("GPU.ROP[2]", e, 4, 0)
	second := sim.NewLimitNumMsgPort(r, 4, "GPU.ROP[2].FromDepthUnit")
	noComp := sim.NewLimitNumMsgPort(nil, 4, "Host.Port")
	ia0 := newReceiver("GPU.Pipe[0].InputAssembler", e, 4, 0)
	ia1 := newReceiver("GPU.Pipe[1].InputAssembler", e, 4, 0)
	ia1b := sim.NewLimitNumMsgPort(ia1, 4, "GPU.Pipe[1].InputAssembler.ToMemory")
	deep := newReceiver("GPU.Board.Pipe[1].InputAssembler", e, 4, 0)
	for _, p := range []sim.Port{r.in, second, noComp, ia0.in, ia1.in, ia1b, deep.in} {
		x.PlugIn(p, 1)
	}
	var got []string
	for _, e := range x.ports {
		got = append(got, e.token)
	}
	// Each takes as many elements as it needs: Pipe[0] two, the two Pipe[1]s three.
	want := []string{"ROP[2]", "ROP[2].FromDepthUnit", "Port", "Pipe[0].InputAssembler", "GPU.Pipe[1].InputAssembler",
		"GPU.Pipe[1].InputAssembler.ToMemory", "Board.Pipe[1].InputAssembler"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tokens %q, want %q", got, want)
	}
	for _, b := range x.Buffers() {
		sim.NameMustBeValid(b.Name)
	}
}

// TestCrossbarInputBuffer: a source plugged in with an input buffer of 2 has
// at most 2 messages waiting in all its queues together, although each queue
// holds 4; with 0 (PlugIn) only the queues bound it. A grant frees a slot and
// notifies the source; every message is delivered.
func TestCrossbarInputBuffer(t *testing.T) {
	for _, input := range []int{0, 2} {
		e := sim.NewSerialEngine()
		x := MakeCrossbarBuilder().WithEngine(e).Build("Xbar")
		r1 := newReceiver("R[1]", e, 4, 0)
		r2 := newReceiver("R[2]", e, 4, 0)
		s := newSender("S", e)
		x.PlugInWithInputBuffer(s.out, 4, input)
		x.PlugIn(r1.in, 4)
		x.PlugIn(r2.in, 4)
		send := func(dst sim.Port) bool {
			m := &TileQuads{}
			m.Src, m.Dst = s.out, dst
			return x.Send(m) == nil
		}
		if !send(r1.in) || !send(r2.in) {
			t.Fatalf("input %d: Send refused with room", input)
		}
		bounded := input > 0
		checks := []struct {
			name string
			got  bool
			want bool
		}{
			{"CanSend", x.CanSend(s.out), !bounded},
			{"CanSendTo R1", x.CanSendTo(s.out, r1.in), !bounded},
			{"CanSendTo R2", x.CanSendTo(s.out, r2.in), !bounded},
			{"Send to R1", send(r1.in), !bounded},
		}
		for _, c := range checks {
			if c.got != c.want {
				t.Errorf("input %d: %s = %v, want %v", input, c.name, c.got, c.want)
			}
		}
		runEngine(t, e)
		want, freed := 3, []uint64{0}
		if bounded {
			want = 2
		} else {
			freed = nil
		}
		if n := len(r1.got) + len(r2.got); n != want {
			t.Errorf("input %d: %d messages delivered, want %d", input, n, want)
		}
		if !reflect.DeepEqual(s.freed, freed) {
			t.Errorf("input %d: NotifyPortFree at %v, want %v", input, s.freed, freed)
		}
	}
}

// TestCrossbarManyPorts: destinations beyond the 64th port (the crossbar
// keeps its active destinations a bit per port, 64 to a word) move their
// messages as the first ones do: S[1] sends to R[2], plugged in 68th, S[2]
// to R[1], plugged in 2nd, both at full width as in TestCrossbarParallel.
func TestCrossbarManyPorts(t *testing.T) {
	e := sim.NewSerialEngine()
	c := build(xbarLink, e, testFreq, 32, 1)
	r1 := newReceiver("R[1]", e, 8, 0)
	r2 := newReceiver("R[2]", e, 8, 0)
	s1 := newSender("S[1]", e, quads("A0", 1, r2, 64), quads("A1", 1, r2, 64), quads("A2", 1, r2, 64))
	s2 := newSender("S[2]", e, quads("B0", 1, r1, 64), quads("B1", 1, r1, 64), quads("B2", 1, r1, 64))
	c.PlugIn(s1.out, 4)
	c.PlugIn(r1.in, 4)
	for i := 0; i < 65; i++ {
		c.PlugIn(newReceiver(fmt.Sprintf("F[%d]", i), e, 1, 0).in, 4)
	}
	c.PlugIn(r2.in, 4)
	c.PlugIn(s2.out, 4)
	runEngine(t, e)
	want2 := []got{{"A0", 3, 4}, {"A1", 5, 6}, {"A2", 7, 8}}
	want1 := []got{{"B0", 3, 4}, {"B1", 5, 6}, {"B2", 7, 8}}
	if !reflect.DeepEqual(r2.got, want2) {
		t.Errorf("R[2] (port 68) got %v, want %v", r2.got, want2)
	}
	if !reflect.DeepEqual(r1.got, want1) {
		t.Errorf("R[1] (port 2) got %v, want %v", r1.got, want1)
	}
}
