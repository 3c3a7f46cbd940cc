package rtcache_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/components/rop/rtcache"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/timing"
)

type wake struct {
	cycle uint64
	token rtcache.Token
}

// owner is a component that owns the cache's port and runs scripted steps.
type owner struct {
	*sim.TickingComponent
	Port  sim.Port
	cache *rtcache.Cache
	img   *command.Image
	waker *timing.Waker
	steps []step
	woken []wake
}

type step struct {
	cycle uint64
	do    func(now sim.VTimeInSec)
}

// run starts the owner's steps at cycle 1 and runs the engine to the end.
func (o *owner) run(t *testing.T) {
	t.Helper()
	o.TickLater(0)
	testpeer.Run(t, o.Engine)
}

func (o *owner) Tick(now sim.VTimeInSec) bool {
	cycle := o.Freq.Cycle(now)
	p := o.cache.Receive(now, func(t rtcache.Token) { o.woken = append(o.woken, wake{cycle, t}) })
	for len(o.steps) > 0 && o.steps[0].cycle <= cycle {
		o.steps[0].do(now)
		o.steps = o.steps[1:]
		p = true
	}
	p = o.cache.Issue(now, o.img) || p
	if len(o.steps) > 0 {
		o.waker.WakeIn(now, int(o.steps[0].cycle-cycle))
	}
	return p
}

func setup(t *testing.T, cfg rtcache.Config, latency int) (*owner, *backendtest.Memory) {
	t.Helper()
	e := sim.NewSerialEngine()
	f := 1 * sim.GHz
	o := &owner{img: command.NewImage()}
	o.img.Alloc(1<<16, 64)
	for i := range o.img.Bytes() {
		o.img.Bytes()[i] = byte(i * 7)
	}
	o.TickingComponent = sim.NewTickingComponent("Owner", e, f, o)
	o.Port = sim.NewLimitNumMsgPort(o, 16, "Owner.Port")
	o.waker = timing.NewWaker(e, f, o)
	m := backendtest.NewMemory("Memory", e, f, latency)
	conn := sim.NewDirectConnection("Conn", e, f)
	conn.PlugIn(o.Port, 4)
	conn.PlugIn(m.Top, 4)
	c, err := rtcache.New(o.Port, m, f, cfg)
	if err != nil {
		t.Fatal(err)
	}
	o.cache = c
	return o, m
}

func (o *owner) at(cycle uint64, do func(now sim.VTimeInSec)) {
	o.steps = append(o.steps, step{cycle, do})
}

const base = command.BaseAddress

func TestAccessMergeWakeHit(t *testing.T) {
	o, m := setup(t, rtcache.Config{Size: 256, Ways: 2, LineSize: 64, MaxOutstanding: 2, WriteQueue: 4}, 10)
	var got []rtcache.Result
	acc := func(addr uint64, tok rtcache.Token) func(sim.VTimeInSec) {
		return func(now sim.VTimeInSec) { got = append(got, o.cache.Access(now, addr, tok)) }
	}
	o.at(1, func(now sim.VTimeInSec) {
		acc(base+4, 1)(now)     // miss: read sent
		acc(base+60, 2)(now)    // same line: merged
		acc(base+128, 3)(now)   // another line (same set): miss
		acc(base+256+8, 4)(now) // third line, but 2 requests in flight: blocked
	})
	o.at(30, func(now sim.VTimeInSec) {
		acc(base, 5)(now)     // hit
		acc(base+128, 6)(now) // hit
	})
	o.run(t)
	want := []rtcache.Result{rtcache.Miss, rtcache.MergedMiss, rtcache.Miss, rtcache.Blocked, rtcache.Hit, rtcache.Hit}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("results %v, want %v", got, want)
	}
	// Reads sent at 1, taken by the memory at 2, answered at 12, received at 13.
	if w := []wake{{13, 1}, {13, 2}, {13, 3}}; !reflect.DeepEqual(o.woken, w) {
		t.Errorf("wake-ups %v, want %v", o.woken, w)
	}
	if r := m.Reads(); !reflect.DeepEqual(r, []uint64{base, base + 128}) {
		t.Errorf("reads %x", r)
	}
	c := o.cache.Counters()
	if c.Hits != 2 || c.Misses != 3 || c.MergedMisses != 1 || c.LineReads != 2 || c.BytesRead != 128 {
		t.Errorf("counters %+v", c)
	}
	if !o.cache.Idle() {
		t.Error("cache not idle")
	}
}

func TestWriteBackClearAndFlush(t *testing.T) {
	o, m := setup(t, rtcache.Config{Size: 64, Ways: 1, LineSize: 64, MaxOutstanding: 4, WriteQueue: 2}, 5)
	var got []rtcache.Result
	acc := func(now sim.VTimeInSec, addr uint64) { got = append(got, o.cache.Access(now, addr, 0)) }
	var victimData []byte
	o.at(1, func(now sim.VTimeInSec) { acc(now, base) })
	o.at(20, func(now sim.VTimeInSec) {
		o.cache.Write(base + 8) // dirty
		acc(now, base+64)       // evicts the dirty line when it arrives
	})
	o.at(40, func(now sim.VTimeInSec) {
		victimData = append([]byte(nil), o.img.Bytes()[:64]...)
		// Clear [base+64+8, base+1024): the partly covered line base+64 leaves
		// the cache but is not marked; lines base+128.. are.
		if n := o.cache.Clear(base+64+8, base+1024); n != 14 {
			t.Errorf("cleared %d lines, want 14", n)
		}
		acc(now, base+128) // cleared fill, no read
		acc(now, base+64)  // a miss with a read: the line was only partly cleared
	})
	o.at(60, func(now sim.VTimeInSec) {
		o.cache.Write(base + 64)
		acc(now, base+192) // cleared fill evicts the dirty line
		o.cache.Write(base + 192)
	})
	o.at(80, func(now sim.VTimeInSec) {
		if n := o.cache.Flush(); n != 1 {
			t.Errorf("flush queued %d lines", n)
		}
	})
	o.at(100, func(now sim.VTimeInSec) {
		acc(now, base+192) // hit: still there, clean
		o.cache.Clear(base+128, base+1024)
		acc(now, base+192) // cleared again: no read
	})
	o.run(t)
	want := []rtcache.Result{rtcache.Miss, rtcache.Miss, rtcache.ClearedFill, rtcache.Miss, rtcache.ClearedFill,
		rtcache.Hit, rtcache.ClearedFill}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("results %v, want %v", got, want)
	}
	if r := m.Reads(); !reflect.DeepEqual(r, []uint64{base, base + 64, base + 64}) {
		t.Errorf("reads %x", r)
	}
	if w := m.Writes(); !reflect.DeepEqual(w, []uint64{base, base + 64, base + 192}) {
		t.Errorf("writes %x, want the victim, the evicted line and the flushed line", w)
	}
	if !bytes.Equal(m.Log[2].Data, victimData) || !m.Log[2].Write {
		t.Errorf("the victim's write-back carried % x", m.Log[2].Data[:8])
	}
	c := o.cache.Counters()
	if c.WriteBacks != 3 || c.ClearedFills != 3 || c.Evictions != 3 {
		t.Errorf("counters %+v", c)
	}
}

// TestCanWriteWiderThanQueue: a quad may span more lines than the write queue
// holds (4-byte lines at 27 or 64 samples); an empty queue accepts it, a busy
// one does not, so the owner waits instead of deadlocking.
func TestCanWriteWiderThanQueue(t *testing.T) {
	o, _ := setup(t, rtcache.Config{Size: 64, Ways: 1, LineSize: 4, MaxOutstanding: 4, WriteQueue: 2}, 5)
	var got []bool
	o.at(1, func(now sim.VTimeInSec) {
		got = append(got, o.cache.CanWrite(3), o.cache.CanWrite(2))
		for a := uint64(0); a < 12; a += 4 {
			o.cache.Write(base + a)
		}
		if n := o.cache.Flush(); n != 3 {
			t.Errorf("flush queued %d lines, want 3", n)
		}
		got = append(got, o.cache.CanWrite(1), o.cache.CanWrite(3))
	})
	o.at(50, func(now sim.VTimeInSec) { got = append(got, o.cache.CanWrite(3)) })
	o.run(t)
	if want := []bool{true, true, false, false, true}; !reflect.DeepEqual(got, want) {
		t.Errorf("CanWrite %v, want %v", got, want)
	}
}

func TestConfigValidate(t *testing.T) {
	good := rtcache.Config{Size: 4096, Ways: 4, LineSize: 64, MaxOutstanding: 8, WriteQueue: 8}
	tests := []struct {
		mod  func(*rtcache.Config)
		want string
	}{
		{func(c *rtcache.Config) {}, ""},
		{func(c *rtcache.Config) { c.LineSize = 48 }, "LineSize"},
		{func(c *rtcache.Config) { c.Ways = 0 }, "Ways"},
		{func(c *rtcache.Config) { c.Size = 1000 }, "Size"},
		{func(c *rtcache.Config) { c.Size = 3 * 256 }, "Size"},
		{func(c *rtcache.Config) { c.MaxOutstanding = 0 }, "MaxOutstanding"},
		{func(c *rtcache.Config) { c.WriteQueue = 0 }, "WriteQueue"},
	}
	for _, tc := range tests {
		c := good
		tc.mod(&c)
		err := c.Validate()
		if (tc.want == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), tc.want)) {
			t.Errorf("%+v: error %v, want one naming %q", c, err, tc.want)
		}
	}
}

// TestInvalidate: Invalidate refuses a cache with dirty lines or writes in
// flight; after a flush it drops every line, so the next access to each
// misses: with a read for a line written since its fast clear, without one
// for a cleared line never written.
func TestInvalidate(t *testing.T) {
	o, m := setup(t, rtcache.Config{Size: 256, Ways: 2, LineSize: 64, MaxOutstanding: 4, WriteQueue: 4}, 5)
	var got []rtcache.Result
	acc := func(now sim.VTimeInSec, addr uint64) { got = append(got, o.cache.Access(now, addr, 0)) }
	var errs []string
	inval := func(want int) {
		n, err := o.cache.Invalidate()
		if err != nil {
			errs = append(errs, err.Error())
		}
		if n != want {
			t.Errorf("Invalidate dropped %d lines, want %d", n, want)
		}
	}
	o.at(1, func(now sim.VTimeInSec) {
		o.cache.Clear(base+128, base+384)
		acc(now, base)     // miss, read
		acc(now, base+128) // cleared fill
		acc(now, base+192) // cleared fill
	})
	o.at(20, func(now sim.VTimeInSec) {
		o.cache.Write(base)
		o.cache.Write(base + 128)
		inval(0) // two dirty lines
	})
	o.at(21, func(now sim.VTimeInSec) {
		if n := o.cache.Flush(); n != 2 {
			t.Errorf("flush queued %d lines, want 2", n)
		}
		inval(0) // the write-backs are queued
	})
	o.at(40, func(now sim.VTimeInSec) {
		inval(3)
		for _, a := range []uint64{base, base + 128, base + 192} {
			if o.cache.Present(a) {
				t.Errorf("line 0x%x present after Invalidate", a)
			}
		}
	})
	o.at(41, func(now sim.VTimeInSec) {
		acc(now, base)     // miss, read
		acc(now, base+128) // written since the clear: miss, read
		acc(now, base+192) // still cleared: fill without a read
	})
	o.run(t)
	want := []rtcache.Result{rtcache.Miss, rtcache.ClearedFill, rtcache.ClearedFill,
		rtcache.Miss, rtcache.Miss, rtcache.ClearedFill}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results %v, want %v", got, want)
	}
	if len(errs) != 2 || !strings.Contains(errs[0], "2 dirty lines") || !strings.Contains(errs[1], "2 writes queued") {
		t.Errorf("Invalidate errors %q, want one for the dirty lines and one for the queued writes", errs)
	}
	if r := m.Reads(); !reflect.DeepEqual(r, []uint64{base, base, base + 128}) {
		t.Errorf("reads %x", r)
	}
	if w := m.Writes(); !reflect.DeepEqual(w, []uint64{base + 128, base}) { // set and way order
		t.Errorf("writes %x, want each flushed line once", w)
	}
	if c := o.cache.Counters(); c.InvalidatedLines != 3 || c.WriteBacks != 2 {
		t.Errorf("counters %+v", c)
	}
}
