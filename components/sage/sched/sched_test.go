package sched_test

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/sage/sched"
	"github.com/gfxsim/gfxsim/timing"
)

// sources writes the pipe of every sample in arrival order ("A" pipe 0, "B"
// pipe 1).
func sources(items []arrival) string {
	var sb strings.Builder
	for _, a := range items {
		if !a.isMark {
			sb.WriteByte(byte('A' + a.y))
		}
	}
	return sb.String()
}

// TestHysteresis: pipe 0 sends 8 samples at cycle 0, pipe 1 sends 8 at cycle
// 3. With one sample per cycle, pipe 0's samples enter the switch from cycle
// 3 (accepted at 1, routed at 2) and pipe 1's become visible to the switch at
// cycle 6 (accepted at 4, routed at 5), after A0-A2 have flowed alone. Then
// the switch moves on after `hysteresis` samples sent while the other waits
// (every grant sends at least one sample).
func TestHysteresis(t *testing.T) {
	tests := []struct {
		hysteresis int
		order      string
		switches   float64
		holds      float64
	}{
		// 0: move on as soon as the other waits: one sample per grant.
		{0, "AAA" + "BABABABABA" + "BBB", 11, 0},
		// 1: A sends one more (a hold), then one per grant.
		{1, "AAAA" + "BABABABA" + "BBBB", 9, 1},
		// 4: A sends 4 more (4 holds), B 4 (3 holds: the first opens the
		// grant), A its last, B the rest alone.
		{4, "AAAAAAA" + "BBBB" + "A" + "BBBB", 3, 7},
	}
	for _, tc := range tests {
		b := newBench(t, func(c *sched.Config) { c.Hysteresis, c.SnoopDistance = tc.hysteresis, 0 }, 2, 1)
		b.send(0, 0, b.burst(0, 0, 0, 8))
		b.send(3, 1, b.burst(1, 0, 0, 8))
		b.run()
		items, _ := b.log(0)
		if got := sources(items); got != tc.order {
			t.Errorf("hysteresis %d: order %s, want %s", tc.hysteresis, got, tc.order)
		}
		if got := b.stat("switches"); got != tc.switches {
			t.Errorf("hysteresis %d: switches %v, want %v", tc.hysteresis, got, tc.switches)
		}
		if got := b.stat("hysteresis_holds"); got != tc.holds {
			t.Errorf("hysteresis %d: hysteresis_holds %v, want %v", tc.hysteresis, got, tc.holds)
		}
		// Each pipe's samples stay in order.
		next := [2]int32{}
		for _, a := range items {
			if a.x != next[a.y] {
				t.Fatalf("hysteresis %d: pipe %d sample %d arrived when %d was due", tc.hysteresis, a.y, a.x, next[a.y])
			}
			next[a.y]++
		}
	}
}

// TestBackPressure: the interleave takes nothing before cycle 300, so the
// FIFOs fill and the sched stops taking messages from its port (the pipe's
// sends wait); afterwards every sample arrives once, in order.
func TestBackPressure(t *testing.T) {
	b := newBench(t, func(c *sched.Config) {
		c.InputDepth, c.SecondStageDepth, c.PrewriteDepth, c.SnoopDistance = 8, 8, 8, 0
		c.OutputBurst, c.InputPortQueue, c.OutputPortQueue = 4, 1, 1
	}, 1, 1)
	b.inter[0].Hold(300)
	const bursts = 20
	for k := 0; k < bursts; k++ {
		b.send(0, 0, b.burst(0, 0, 4*k, 4))
	}
	b.run()
	sent := b.pipes[0].Sent
	// Held: the interleave port (2 messages of 4), the output buffer (1), the
	// pre-write queue, the second-stage and input FIFOs (8 samples = 2 bursts
	// each) and the port (1 burst): at most 2+1+2+2+2+1 = 10 bursts before 300.
	early := 0
	for _, c := range sent {
		if c < 300 {
			early++
		}
	}
	if early >= bursts || early > 10 {
		t.Errorf("%d of %d bursts accepted before the interleave took anything: no back-pressure", early, bursts)
	}
	end := b.pipes[0].Sent[bursts-1]
	if got := b.stat("input_stall_cycles"); got < 250 || got > float64(end) {
		t.Errorf("input_stall_cycles %v, want most of the 300 held cycles and at most %d (the last acceptance)", got, end)
	}
	items, _ := b.log(0)
	if len(items) != 4*bursts {
		t.Fatalf("%d samples arrived, want %d", len(items), 4*bursts)
	}
	for k, a := range items {
		if a.isMark || a.x != int32(k) {
			t.Fatalf("arrival %d: %+v, want sample %d", k, a, k)
		}
	}
}

// TestBarrier: pipe 0 sends samples, a barrier and more samples at once; pipe
// 1 is slow (its samples before the barrier come at cycle 60). No sample after
// the barrier reaches either interleave before every sample before it, and
// exactly one barrier marker separates them.
func TestBarrier(t *testing.T) {
	b := newBench(t, func(c *sched.Config) { c.Hysteresis = 0 }, 2, 2)
	d := b.draw
	pre := func(p, i int) *protocol.SampleBurst { return b.burst(p, i, 0, 6) }
	post := func(p, i int) *protocol.SampleBurst { return b.burst(p, i, 100, 6) }
	barrier := func(p int) *protocol.OrderMarker { return protocol.NewOrderMarker(protocol.MarkBarrier, d, 1, p, -1) }
	b.send(0, 0, pre(0, 0))
	b.send(0, 0, pre(0, 1))
	b.send(0, 0, barrier(0))
	b.send(0, 0, post(0, 0))
	b.send(0, 0, post(0, 1))
	b.send(60, 1, pre(1, 0))
	b.send(60, 1, pre(1, 1))
	b.send(70, 1, barrier(1))
	b.send(70, 1, post(1, 0))
	b.send(70, 1, post(1, 1))
	b.run()
	for i := 0; i < 2; i++ {
		items, _ := b.log(i)
		if len(items) != 25 {
			t.Fatalf("interleave %d: %d arrivals, want 24 samples and a barrier", i, len(items))
		}
		marks := 0
		for k, a := range items {
			switch {
			case a.isMark:
				marks++
				if a.marker != protocol.MarkBarrier || k != 12 {
					t.Errorf("interleave %d: marker %v at %d, want the barrier at 12", i, a.marker, k)
				}
			case (a.x >= 100) != (k > 12):
				t.Errorf("interleave %d: sample %d of pipe %d at position %d, across the barrier", i, a.x, a.y, k)
			}
		}
		if marks != 1 {
			t.Errorf("interleave %d: %d markers, want 1", i, marks)
		}
	}
	// Pipe 0's barrier waits in both interleaves from its arrival (a few
	// cycles after 0) to pipe 1's (a few cycles after 70).
	if w := b.stat("barrier_wait_cycles"); w < 2*60 || w > 2*80 {
		t.Errorf("barrier_wait_cycles %v, want about 2 x 70", w)
	}
	if got := b.stat("barriers"); got != 2 {
		t.Errorf("barriers %v, want 2 (one per interleave)", got)
	}
}

// TestDrawEndPassesThrough: a DrawEnd for every interleave reaches each one
// after the pipe's samples, and does not wait for the other pipe.
func TestDrawEndPassesThrough(t *testing.T) {
	b := newBench(t, nil, 2, 2)
	b.send(0, 0, b.burst(0, 1, 0, 3))
	b.send(0, 0, protocol.NewOrderMarker(protocol.MarkDrawEnd, b.draw, 0, 0, -1))
	b.send(50, 1, protocol.NewOrderMarker(protocol.MarkDrawEnd, b.draw, 0, 1, -1))
	b.run()
	for i, want := range []string{"E....E", "sssE....E"} {
		items, _ := b.log(i)
		var sb strings.Builder
		for k, a := range items {
			if k > 0 && a.cycle > items[k-1].cycle+10 {
				sb.WriteString("....")
			}
			if a.isMark {
				sb.WriteByte('E')
			} else {
				sb.WriteByte('s')
			}
		}
		if sb.String() != want {
			t.Errorf("interleave %d: %s, want %s (E marker, s sample, .... a wait)", i, sb.String(), want)
		}
	}
}

// TestPrefetch: each burst sent to the interleave is followed by a Prefetch
// of the sample SnoopDistance places behind the new head, when there is one.
func TestPrefetch(t *testing.T) {
	b := newBench(t, func(c *sched.Config) {
		c.OutputBurst, c.SnoopDistance, c.PrewriteDepth, c.SamplesPerCycle = 2, 3, 16, 16
	}, 1, 1)
	b.inter[0].Hold(20) // let the pre-write queue fill
	b.send(0, 0, b.burst(0, 0, 0, 12))
	b.run()
	_, pf := b.log(0)
	var got []int32
	for _, p := range pf {
		got = append(got, p.X)
	}
	// The 12 samples enter the pre-write queue at cycle 3; bursts [0,2) [2,4)
	// ... [10,12) leave; after each the sample 3 behind the new head is 5, 7,
	// 9, 11, then none (a Prefetch the port refuses waits and goes first).
	if want := []int32{5, 7, 9, 11}; !reflect.DeepEqual(got, want) {
		t.Errorf("prefetches of samples %v, want %v", got, want)
	}
	if got := b.stat("prefetches"); got != 4 {
		t.Errorf("prefetches %v, want 4", got)
	}
}

// TestDeterminism: a seeded random stream of three pipes over four
// interleaves, with barriers, gives the same arrivals and statistics twice.
func TestDeterminism(t *testing.T) {
	const seed = 14
	run := func() ([][]arrival, map[string]float64) {
		b := newBench(t, func(c *sched.Config) { c.Hysteresis, c.InputDepth, c.SecondStageDepth = 3, 16, 8 }, 3, 4)
		rng := rand.New(rand.NewSource(seed))
		var seq uint64
		for step := 0; step < 40; step++ {
			if step%10 == 9 {
				seq++
				for p := 0; p < 3; p++ {
					b.send(uint64(step*5), p, protocol.NewOrderMarker(protocol.MarkBarrier, b.draw, seq, p, -1))
				}
				continue
			}
			for p := 0; p < 3; p++ {
				b.send(uint64(step*5+rng.Intn(5)), p, b.burst(p, rng.Intn(4), step*16, 1+rng.Intn(12)))
			}
		}
		b.run()
		var logs [][]arrival
		for i := 0; i < 4; i++ {
			items, _ := b.log(i)
			logs = append(logs, items)
		}
		return logs, b.stats()
	}
	l1, s1 := run()
	l2, s2 := run()
	if !reflect.DeepEqual(l1, l2) || !reflect.DeepEqual(s1, s2) {
		t.Error("two runs of the same stream differ")
	}
	if s1["Sched.barriers"] != 16 {
		t.Errorf("barriers %v, want 16 (4 per interleave)", s1["Sched.barriers"])
	}
}

func TestValidate(t *testing.T) {
	set := testpeer.Reject[sched.Config]
	testpeer.CheckInvalid(t, sched.DefaultConfig(),
		set(func(c *sched.Config) { c.Hysteresis = -1 }, "sched: Hysteresis -1 must not be negative"),
		set(func(c *sched.Config) { c.SnoopDistance = 64 }, "sched: SnoopDistance 64 must be below PrewriteDepth 64"),
	)
	testpeer.CheckAtLeast(t, sched.DefaultConfig(), "sched", 1, "InputDepth", "SecondStageDepth", "Pipes")
	testpeer.CheckEnv(t, true, func(e timing.Env) { sched.MakeBuilder().WithEnv(e).Build("Sched") })
}
