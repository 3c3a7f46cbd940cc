package timing

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

func TestTagArrayLRU(t *testing.T) {
	// 2 sets x 2 ways of 64-byte lines: lines 0x000, 0x080, 0x100 map to set 0.
	c, err := NewTagArray(256, 2, 64)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		op        string
		addr      uint64
		hit       bool
		victim    Victim
		hasVictim bool
	}{
		{"lookup", 0x010, false, Victim{}, false},
		{"fill", 0x010, false, Victim{}, false},
		{"lookup", 0x03f, true, Victim{}, false},
		{"fill", 0x080, false, Victim{}, false},
		{"dirty", 0x000, false, Victim{}, false},
		{"lookup", 0x000, true, Victim{}, false}, // 0x000 most recent, 0x080 LRU
		{"fill", 0x100, false, Victim{Line: 0x080}, true},
		{"lookup", 0x080, false, Victim{}, false},
		{"fill", 0x180, false, Victim{Line: 0x000, Dirty: true}, true},
		{"lookup", 0x040, false, Victim{}, false}, // set 1 untouched
	}
	for i, s := range steps {
		switch s.op {
		case "lookup":
			if got := c.Lookup(s.addr); got != s.hit {
				t.Fatalf("step %d: lookup 0x%x = %v, want %v", i, s.addr, got, s.hit)
			}
		case "fill":
			v, ok := c.Fill(s.addr)
			if ok != s.hasVictim || v != s.victim {
				t.Fatalf("step %d: fill 0x%x evicted %+v %v, want %+v %v", i, s.addr, v, ok, s.victim, s.hasVictim)
			}
		case "dirty":
			if !c.MarkDirty(s.addr) {
				t.Fatalf("step %d: line 0x%x absent", i, s.addr)
			}
		}
	}
	c.MarkDirty(0x100)
	if got := c.Flush(nil); !reflect.DeepEqual(got, []uint64{0x100}) {
		t.Fatalf("flush %v", got)
	}
	if c.Dirty(0x100) {
		t.Fatal("flush left the line dirty")
	}
	if n := c.InvalidateRange(0x100, 0x200); n != 2 || c.Contains(0x180) {
		t.Fatalf("invalidated %d lines", n)
	}
	c.Fill(0x000)
	c.Fill(0x040)
	c.MarkDirty(0x040)
	if n := c.DirtyLines(); n != 1 {
		t.Fatalf("DirtyLines = %d, want 1", n)
	}
	if n := c.Invalidate(); n != 2 || c.Contains(0x000) || c.Contains(0x040) || c.DirtyLines() != 0 {
		t.Fatalf("Invalidate dropped %d lines, want 2, and left the array empty", n)
	}
	// As new: set 0 fills its first way again, then its second, then evicts
	// the least recently filled.
	c.Fill(0x000)
	c.Fill(0x080)
	if v, ok := c.Fill(0x100); !ok || v.Line != 0x000 {
		t.Fatalf("after Invalidate, fill evicted %+v %v, want line 0x000", v, ok)
	}
	for _, bad := range [][3]int{{256, 2, 48}, {256, 3, 64}, {192, 1, 64}, {0, 1, 64}} {
		if _, err := NewTagArray(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("NewTagArray%v accepted", bad)
		}
	}
}

// TestTagArrayPrefetched: the prefetch mark of a line is taken off by its
// first use, reported with the victim that still has it, and dropped (and
// counted) inside a range.
func TestTagArrayPrefetched(t *testing.T) {
	// 2 sets x 2 ways of 64-byte lines: lines 0x000, 0x080, 0x100 map to set 0.
	c, err := NewTagArray(256, 2, 64)
	if err != nil {
		t.Fatal(err)
	}
	if c.MarkPrefetched(0x000) {
		t.Fatal("MarkPrefetched marked an absent line")
	}
	c.Fill(0x000)
	c.Fill(0x080)
	c.MarkPrefetched(0x000)
	c.MarkPrefetched(0x080)
	if !c.UsePrefetched(0x010) || c.UsePrefetched(0x000) {
		t.Fatal("the first use of 0x000 did not (or the second did) report its prefetch")
	}
	c.Lookup(0x000) // 0x080 is the LRU line, still marked
	if v, ok := c.Fill(0x100); !ok || v != (Victim{Line: 0x080, Prefetched: true}) {
		t.Fatalf("fill evicted %+v %v, want the unused prefetched line 0x080", v, ok)
	}
	c.Fill(0x040)
	c.Fill(0x0c0)
	c.MarkPrefetched(0x040)
	c.MarkPrefetched(0x0c0)
	c.MarkPrefetched(0x100)
	if n := c.DropPrefetched(0x080, 0x200); n != 2 || c.UsePrefetched(0x0c0) || c.UsePrefetched(0x100) {
		t.Fatalf("DropPrefetched(0x080, 0x200) = %d, want 2 (0x0c0, 0x100), marks gone", n)
	}
	if !c.UsePrefetched(0x040) {
		t.Fatal("DropPrefetched dropped the mark of 0x040, outside its range")
	}
}

func TestClearTags(t *testing.T) {
	c := NewClearTags(0x1000, 1000, 64) // 16 lines (the last partial)
	c.SetAll()
	if c.Count() < 16 || !c.Cleared(0x1000+999) || c.Cleared(0x1000+1000) || c.Cleared(0xfff) {
		t.Fatalf("after SetAll: %d lines, last %v", c.Count(), c.Cleared(0x1000+999))
	}
	c.Unset(0x1040 + 5)
	if c.Cleared(0x1040) || !c.Cleared(0x1080) || !c.Cleared(0x103f) {
		t.Fatal("Unset affected the wrong line")
	}
}

func TestPipeline(t *testing.T) {
	p := NewPipeline[int](3, 2)
	for i := 0; i < 2; i++ {
		if !p.CanAccept(10) {
			t.Fatalf("item %d refused at cycle 10", i)
		}
		p.Accept(10, i)
	}
	if p.CanAccept(10) {
		t.Fatal("third item accepted in one cycle of a 2-wide pipeline")
	}
	p.Accept(11, 2)
	if _, ok := p.Peek(12); ok {
		t.Fatal("item ready before its latency")
	}
	if r, _ := p.NextReady(); r != 13 {
		t.Fatalf("next ready %d, want 13", r)
	}
	var got []int
	for c := uint64(13); c <= 14; c++ {
		for {
			v, ok := p.Peek(c)
			if !ok {
				break
			}
			got = append(got, v)
			p.Pop()
		}
	}
	if !reflect.DeepEqual(got, []int{0, 1, 2}) || p.Len() != 0 {
		t.Fatalf("items %v, %d left", got, p.Len())
	}
	full := NewPipeline[int](2, 1)
	full.Accept(0, 1)
	full.Accept(1, 2)
	if full.CanAccept(2) {
		t.Fatal("a full pipeline (latency 2, width 1, 2 items) accepted a third item")
	}
}

func TestActivity(t *testing.T) {
	a := NewActivity("busy", "starved", "blocked", "idle")
	a.Set(0, 0)
	a.Set(10, 2)
	a.Set(15, 0)
	a.Set(20, 3)
	a.Finish(100)
	want := []uint64{15, 0, 5, 80}
	for s, w := range want {
		if a.Cycles(s) != w {
			t.Errorf("state %d: %d cycles, want %d", s, a.Cycles(s), w)
		}
	}
	if a.Utilization() != 0.15 {
		t.Errorf("utilization %v", a.Utilization())
	}
	if n, c := a.MainStall(); n != "blocked" || c != 5 {
		t.Errorf("main stall %s %d", n, c)
	}
}

func TestCredits(t *testing.T) {
	c := NewCredits(3)
	if !c.Take(2) || c.Take(2) || c.Available() != 1 {
		t.Fatal("credit accounting")
	}
	c.Give(2)
	defer func() {
		if recover() == nil {
			t.Fatal("over-return did not panic")
		}
	}()
	c.Give(1)
}

// sleeper ticks only when woken; it records the cycles of its ticks.
type sleeper struct {
	*sim.TickingComponent
	ticks []uint64
}

func (s *sleeper) Tick(now sim.VTimeInSec) bool {
	s.ticks = append(s.ticks, s.Freq.Cycle(now))
	return false
}

func TestWakerDoesNotHideEarlierTicks(t *testing.T) {
	e := sim.NewSerialEngine()
	s := &sleeper{}
	s.TickingComponent = sim.NewTickingComponent("Sleeper", e, 1*sim.GHz, s)
	w := NewWaker(e, 1*sim.GHz, s)
	w.WakeIn(0, 100)
	w.WakeIn(0, 100) // merged
	w.WakeIn(0, 7)
	s.TickLater(0) // an ordinary tick at cycle 1 must still happen
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.ticks, []uint64{1, 7, 100}) {
		t.Fatalf("ticks at cycles %v, want [1 7 100]", s.ticks)
	}
	if w.Pending() != 0 {
		t.Fatalf("%d wake-ups pending", w.Pending())
	}
}

func TestTickWakerTicksDirectly(t *testing.T) {
	e := sim.NewSerialEngine()
	s := &sleeper{}
	s.TickingComponent = sim.NewTickingComponent("Sleeper", e, 1*sim.GHz, s)
	w := NewTickWaker(e, 1*sim.GHz, s.Tick)
	events := 0
	e.AcceptHook(countEvents{&events})
	w.WakeIn(0, 100)
	w.WakeIn(0, 100) // merged
	w.WakeIn(0, 7)
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.ticks, []uint64{7, 100}) || events != 2 {
		t.Fatalf("ticks at cycles %v in %d events, want [7 100] in 2", s.ticks, events)
	}
}

type countEvents struct{ n *int }

func (c countEvents) Func(ctx sim.HookCtx) {
	if ctx.Pos == sim.HookPosBeforeEvent {
		*c.n++
	}
}

func TestHaltFail(t *testing.T) {
	first, second := errors.New("first"), errors.New("second")
	var h Halt
	h.Fail(first)
	h.Fail(second)
	if !h.Stopped() || h.Reason() != first {
		t.Errorf("after two failures: stopped %v, reason %v; want true, the first", h.Stopped(), h.Reason())
	}
	defer func() {
		if r := recover(); r != first {
			t.Errorf("Fail without a Halt recovered %v, want a panic with the error", r)
		}
	}()
	var none *Halt
	none.Fail(first)
}

// OnStop's functions run once, at the first Stop, or at once when the halt
// has already stopped.
func TestHaltOnStop(t *testing.T) {
	var h Halt
	calls := []string{}
	h.OnStop(func() { calls = append(calls, "a") })
	h.OnStop(func() { calls = append(calls, "b") })
	if len(calls) != 0 {
		t.Fatalf("called before Stop: %v", calls)
	}
	h.Stop(errors.New("first"))
	h.Stop(errors.New("second"))
	h.OnStop(func() { calls = append(calls, "c") })
	if got := strings.Join(calls, ""); got != "abc" {
		t.Errorf("calls %q, want \"abc\"", got)
	}
}

func TestAddCounters(t *testing.T) {
	var got []string
	AddCounters("GPU.ROP[0].", func(n string, v float64) { got = append(got, fmt.Sprintf("%s=%g", n, v)) },
		Counter{"quads", 3}, Counter{"draw_ends", 0})
	want := []string{"GPU.ROP[0].quads=3", "GPU.ROP[0].draw_ends=0"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestWakeForNext(t *testing.T) {
	e := sim.NewSerialEngine()
	s := &sleeper{}
	s.TickingComponent = sim.NewTickingComponent("Sleeper", e, 1*sim.GHz, s)
	w := NewTickWaker(e, 1*sim.GHz, s.Tick)
	now := s.Freq.NCyclesLater(10, 0)  // cycle 10
	w.WakeForNext(now, 10, ^uint64(0)) // nothing due
	w.WakeForNext(now, 10, 10)         // not after the cycle
	w.WakeForNext(now, 10, 9)          // before it
	w.WakeForNext(now, 10, 25)
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.ticks, []uint64{25}) {
		t.Fatalf("ticks at cycles %v, want [25]", s.ticks)
	}
}

// TestWaitReason: the first reason recorded in a cycle is the cycle's state
// unless the unit made progress; with none, the state is otherwise; End
// starts a new cycle.
func TestWaitReason(t *testing.T) {
	const busy, blocked, starved, idle = 0, 1, 2, 3
	for _, tc := range []struct {
		name     string
		records  []int
		progress bool
		want     int
	}{
		{"none", nil, false, idle},
		{"progress", nil, true, busy},
		{"one", []int{starved}, false, starved},
		{"first wins", []int{blocked, starved}, false, blocked},
		{"progress over a reason", []int{blocked}, true, busy},
	} {
		var w WaitReason
		w.Record(starved) // a previous cycle's
		w.End(false, busy, idle)
		for _, s := range tc.records {
			w.Record(s)
		}
		if got := w.End(tc.progress, busy, idle); got != tc.want {
			t.Errorf("%s: state %d, want %d", tc.name, got, tc.want)
		}
		if got := w.End(false, busy, idle); got != idle {
			t.Errorf("%s: the next cycle's state %d, want %d (the reason forgotten)", tc.name, got, idle)
		}
	}
}

// TestRing pushes and pops in patterns that wrap around the circular slice
// and grow it, and checks the order against a plain slice.
func TestRing(t *testing.T) {
	for _, c := range []struct {
		name string
		room int
		ops  string // p: push the next number, o: pop
	}{
		{"empty", 0, ""},
		{"grows from zero", 0, "ppppppppp" + "ooooooooo"},
		{"wraps without growing", 4, "pppooopppooopppooo"},
		{"grows while wrapped", 4, "pppoopppppppoooooooo"},
		{"interleaved", 1, "popopoppoppoppo"},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := NewRing[int](c.room)
			var want []int
			next := 0
			for i, op := range c.ops {
				if op == 'p' {
					q.Push(next)
					want = append(want, next)
					next++
				} else {
					if got := *q.Front(); got != want[0] {
						t.Fatalf("op %d: Front = %d, want %d", i, got, want[0])
					}
					if got := q.Pop(); got != want[0] {
						t.Fatalf("op %d: Pop = %d, want %d", i, got, want[0])
					}
					want = want[1:]
				}
				if q.Len() != len(want) {
					t.Fatalf("op %d: Len = %d, want %d", i, q.Len(), len(want))
				}
			}
			q.Clear()
			if q.Len() != 0 {
				t.Errorf("Len after Clear = %d", q.Len())
			}
		})
	}
}

// bufHooks records a buffer's hook positions and items.
type bufHooks struct{ got []string }

func (h *bufHooks) Func(ctx sim.HookCtx) {
	h.got = append(h.got, fmt.Sprint(ctx.Pos.Name, " ", ctx.Item))
}

// TestBuffer: NewBuffer's buffer is a FIFO of its capacity, as Akita's, and
// reports each push and pop to its hooks.
func TestBuffer(t *testing.T) {
	b := NewBuffer("Unit.Buf", 2)
	h := &bufHooks{}
	b.AcceptHook(h)
	if b.Peek() != nil || b.Pop() != nil || !b.CanPush() || b.Size() != 0 || b.Capacity() != 2 || b.Name() != "Unit.Buf" {
		t.Fatalf("a new buffer: Peek %v, CanPush %v, Size %d, Capacity %d, Name %q", b.Peek(), b.CanPush(), b.Size(), b.Capacity(), b.Name())
	}
	b.Push("a")
	b.Push("b")
	if b.CanPush() || b.Size() != 2 || b.Peek() != "a" {
		t.Fatalf("full buffer: CanPush %v, Size %d, Peek %v", b.CanPush(), b.Size(), b.Peek())
	}
	if e := b.Pop(); e != "a" {
		t.Fatalf("Pop = %v, want a", e)
	}
	b.Push("c")
	if e := b.Pop(); e != "b" {
		t.Fatalf("Pop = %v, want b", e)
	}
	b.Clear()
	if b.Size() != 0 || b.Peek() != nil {
		t.Fatalf("after Clear: Size %d, Peek %v", b.Size(), b.Peek())
	}
	want := []string{"Buffer Push a", "Buffer Push b", "Buf Pop a", "Buffer Push c", "Buf Pop b"}
	if fmt.Sprint(h.got) != fmt.Sprint(want) {
		t.Errorf("hooks saw %v, want %v", h.got, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("a push into a full buffer did not panic")
		}
	}()
	b.Push("d")
	b.Push("e")
	b.Push("f")
}
