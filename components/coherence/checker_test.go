package coherence

import (
	"errors"
	"testing"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// fakeComp is a component that only owns ports: the checker reads their
// names (and an L2 bank's Top port by name); nothing is ever sent.
type fakeComp struct{ *sim.ComponentBase }

func (fakeComp) Handle(sim.Event) error                  { return nil }
func (fakeComp) NotifyRecv(sim.VTimeInSec, sim.Port)     {}
func (fakeComp) NotifyPortFree(sim.VTimeInSec, sim.Port) {}

// newFake returns a component called name with a port for each of ports.
func newFake(name string, ports ...string) map[string]sim.Port {
	c := fakeComp{sim.NewComponentBase(name)}
	out := map[string]sim.Port{}
	for _, p := range ports {
		out[p] = sim.NewLimitNumMsgPort(c, 4, name+"."+p)
		c.AddPort(p, out[p])
	}
	return out
}

// feeder drives a Checker by hand: it calls its hook as the ports would.
type feeder struct {
	t       *testing.T
	c       *Checker
	mem     sim.Port // a memory channel's Top port
	sampler sim.Port // a sampler's ToL2 port (a response's destination)
	l2Top   []sim.Port
	l2Bot   []sim.Port
}

func (f *feeder) hook(p sim.Port, pos *sim.HookPos, item any) {
	f.c.Func(sim.HookCtx{Domain: p, Pos: pos, Item: item})
}

// write completes a plain 64-byte write of addr in memory.
func (f *feeder) write(addr uint64) {
	w := mem.WriteReqBuilder{}.WithAddress(addr).WithData(make([]byte, 64)).Build()
	f.hook(f.mem, sim.HookPosPortMsgRecvd, w)
	f.hook(f.mem, sim.HookPosPortMsgSend, mem.WriteDoneRspBuilder{}.WithRspTo(w.ID).Build())
}

// fill fills L2 bank b with the 64 bytes at addr from memory.
func (f *feeder) fill(b int, addr uint64) {
	r := mem.ReadReqBuilder{}.WithAddress(addr).WithByteSize(64).Build()
	f.hook(f.l2Bot[b], sim.HookPosPortMsgSend, r)
	f.hook(f.l2Bot[b], sim.HookPosPortMsgRecvd, mem.DataReadyRspBuilder{}.WithRspTo(r.ID).Build())
}

// read has the sampler read the 64 bytes at addr from L2 bank b.
func (f *feeder) read(b int, addr uint64) {
	r := mem.ReadReqBuilder{}.WithAddress(addr).WithByteSize(64).Build()
	f.hook(f.l2Top[b], sim.HookPosPortMsgRecvd, r)
	f.hook(f.l2Top[b], sim.HookPosPortMsgSend, mem.DataReadyRspBuilder{}.WithRspTo(r.ID).WithDst(f.sampler).Build())
}

func newFeeder(t *testing.T, h *timing.Halt) *feeder {
	c, err := New(64, h)
	if err != nil {
		t.Fatal(err)
	}
	f := &feeder{t: t, c: c, mem: newFake("Channel", "Top")["Top"], sampler: newFake("Sampler", "ToL2")["ToL2"]}
	for _, n := range []string{"L2[0]", "L2[1]"} {
		p := newFake(n, "Top", "Bottom")
		f.l2Top, f.l2Bot = append(f.l2Top, p["Top"]), append(f.l2Bot, p["Bottom"])
	}
	c.WatchMemory(f.mem)
	c.WatchL2(f.l2Top, f.l2Bot)
	return f
}

func (f *feeder) stats() map[string]float64 {
	m := map[string]float64{}
	f.c.Stats(func(n string, v float64) { m[n] = v })
	return m
}

// TestCheckerByHand feeds a checker one step at a time. Line A (0x1000) is
// filled into bank 0 at version 0, then written (version 1): the bank's
// stale copy may still be read in the same pass (its own writes need not be
// seen). A fence publishes version 1: a fresh fill of bank 1 gets it from
// memory and is fine; a second write in the new pass (version 2) is not
// published, so bank 1's copy (1) may be read; bank 0's copy (0) is now a
// violation, with the exact error, and it stops the run. A later fence
// publishes 2, and bank 1's copy is a second violation (counted; the first
// stays the error).
func TestCheckerByHand(t *testing.T) {
	const a = 0x1000
	h := &timing.Halt{}
	f := newFeeder(t, h)
	steps := []struct {
		name       string
		do         func()
		violations float64
	}{
		{"fill bank 0 before any write", func() { f.fill(0, a) }, 0},
		{"write A: version 1", func() { f.write(a) }, 0},
		{"bank 0 returns version 0 in the writing pass", func() { f.read(0, a) }, 0},
		{"fence publishes version 1", func() { f.c.Fence(0) }, 0},
		{"fill bank 1 gets version 1", func() { f.fill(1, a) }, 0},
		{"write A again: version 2, unpublished", func() { f.write(a) }, 0},
		{"bank 1 returns version 1", func() { f.read(1, a) }, 0},
		{"bank 0 returns version 0 after the fence", func() { f.read(0, a) }, 1},
		{"fence publishes version 2", func() { f.c.Fence(0) }, 1},
		{"bank 1 returns version 1 after it", func() { f.read(1, a) }, 2},
	}
	for _, s := range steps {
		s.do()
		if got := f.stats()["GPU.Coherence.violations"]; got != s.violations {
			t.Fatalf("after %q: %v violations, want %v", s.name, got, s.violations)
		}
	}
	want := &Violation{Reader: "L2[0]", Line: a, Got: 0, Want: 1}
	var v *Violation
	if err := f.c.Err(); !errors.As(err, &v) || *v != *want {
		t.Fatalf("Err() = %v, want %v", err, want)
	}
	const msg = "coherence: L2[0] read line 0x1000 at version 0, but version 1 was published at the last sync token (a write that a flush should have made visible, or a stale cached copy that an invalidate should have dropped)"
	if got := f.c.Err().Error(); got != msg {
		t.Errorf("error %q,\nwant %q", got, msg)
	}
	if !h.Stopped() || h.Reason() != f.c.Err() {
		t.Errorf("halt stopped %v with %v, want the first violation", h.Stopped(), h.Reason())
	}
	wantStats := map[string]float64{"GPU.Coherence.writes": 2, "GPU.Coherence.write_backs": 0,
		"GPU.Coherence.reads_checked": 6, "GPU.Coherence.fences": 2, "GPU.Coherence.violations": 2}
	for n, w := range wantStats {
		if got := f.stats()[n]; got != w {
			t.Errorf("%s = %v, want %v", n, got, w)
		}
	}
}

// TestCheckerLineSize: a line size that is not a power of two is refused.
func TestCheckerLineSize(t *testing.T) {
	for _, n := range []uint64{0, 48} {
		if _, err := New(n, nil); err == nil {
			t.Errorf("New(%d) accepted", n)
		}
	}
}
