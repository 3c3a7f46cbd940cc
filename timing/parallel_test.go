package timing

import (
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sarchlab/akita/v3/sim"
)

// treeEvent is an event of treeLoad: its id decides its children, so that the
// events a run makes do not depend on the order it runs them in.
type treeEvent struct {
	id, parent uint64
	depth      int
	t          sim.VTimeInSec
	secondary  bool
	h          *treeLoad
}

func (e treeEvent) Time() sim.VTimeInSec { return e.t }
func (e treeEvent) Handler() sim.Handler { return e.h }
func (e treeEvent) IsSecondary() bool    { return e.secondary }

// treeRun is what treeLoad recorded of one event: its time, kind, parent,
// and the ticks of a shared clock at which it started and finished.
type treeRun struct {
	t             sim.VTimeInSec
	secondary     bool
	parent        uint64 // 0: an initial event
	start, finish int64
	current       sim.VTimeInSec // the engine's time during the event
	work          uint64         // the spin's result (kept, so that the spin is not optimized away)
}

// treeLoad is a workload of events that schedule children at their own time
// or later, from a seeded hash of their ids (up to two each, a quarter of
// them secondary, at most depth deep), and records every run.
type treeLoad struct {
	engine  sim.Engine
	depth   int
	clock   atomic.Int64
	running atomic.Int64
	overlap atomic.Int64 // the most events seen running at once
	mu      sync.Mutex
	runs    map[uint64]treeRun
	dups    int // events run twice (or ids made twice)
	spin    int // work per event, so that events of one round can overlap
}

func hash(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	return x ^ x>>33
}

func (l *treeLoad) Handle(ev sim.Event) error {
	e := ev.(treeEvent)
	start := l.clock.Add(1)
	n := l.running.Add(1)
	for {
		m := l.overlap.Load()
		if n <= m || l.overlap.CompareAndSwap(m, n) {
			break
		}
	}
	x := uint64(0)
	for i := 0; i < l.spin; i++ {
		x += hash(uint64(i))
	}
	now := l.engine.CurrentTime()
	if e.depth < l.depth {
		for k := uint64(1); k <= hash(e.id)%3; k++ {
			c := hash(e.id*3 + k)
			l.engine.Schedule(treeEvent{id: c, parent: e.id, depth: e.depth + 1,
				t: e.t + sim.VTimeInSec(hash(c)%3)*1e-9, secondary: hash(c>>7)%4 == 0, h: l})
		}
	}
	l.running.Add(-1)
	finish := l.clock.Add(1)
	l.mu.Lock()
	if _, dup := l.runs[e.id]; dup {
		l.dups++
	}
	l.runs[e.id] = treeRun{t: e.t, secondary: e.secondary, parent: e.parent, start: start, finish: finish, current: now, work: x}
	l.mu.Unlock()
	return nil
}

// runTree runs the workload on engine: n initial events at few distinct times.
func runTree(t *testing.T, engine sim.Engine, n int, spin int) *treeLoad {
	t.Helper()
	l := &treeLoad{engine: engine, depth: 5, runs: map[uint64]treeRun{}, spin: spin}
	for i := 1; i <= n; i++ {
		id := hash(uint64(i) << 32)
		engine.Schedule(treeEvent{id: id, t: sim.VTimeInSec(hash(id)%8) * 1e-9, secondary: hash(id>>7)%4 == 0, h: l})
	}
	if err := engine.Run(); err != nil {
		t.Fatal(err)
	}
	if l.dups > 0 {
		t.Fatalf("%d events ran twice", l.dups)
	}
	return l
}

// TestParallelEngineRounds: on a seeded workload whose events schedule
// children at their own time or later, ParallelEngine runs exactly the
// serial engine's events, each once, at its time; it finishes every event of
// a time before it starts one of a later time, never runs a primary and a
// secondary event at once, and starts an event scheduled at its parent's
// time only after the parent finished (a later round); both engines count
// the events they ran. One worker runs one event at a time.
func TestParallelEngineRounds(t *testing.T) {
	serial := runTree(t, NewSerialEngine(), 400, 0)
	for _, c := range []struct {
		name         string
		workers, min int
	}{{"one worker", 1, 4}, {"two workers", 2, 2}, {"four workers", 4, 4}} {
		t.Run(c.name, func(t *testing.T) {
			e := NewParallelEngine()
			e.Workers, e.MinParallel = c.workers, c.min
			par := runTree(t, e, 400, 2000)
			if len(par.runs) != len(serial.runs) {
				t.Fatalf("%d events run, the serial engine ran %d", len(par.runs), len(serial.runs))
			}
			if n := uint64(len(serial.runs)); e.Events() != n || serial.engine.(Engine).Events() != n {
				t.Fatalf("the engines counted %d and %d events, %d ran", e.Events(), serial.engine.(Engine).Events(), n)
			}
			byTime := map[sim.VTimeInSec][]treeRun{}
			for id, r := range par.runs {
				s, ok := serial.runs[id]
				if !ok || s.t != r.t || s.secondary != r.secondary {
					t.Fatalf("event %x ran at %v, the serial engine's at %v (ran: %v)", id, r.t, s.t, ok)
				}
				if r.current != r.t {
					t.Fatalf("event %x at %v saw current time %v", id, r.t, r.current)
				}
				if p, ok := par.runs[r.parent]; ok && p.t == r.t && r.start < p.finish {
					t.Fatalf("event %x started at tick %d, before its parent of the same time finished (%d)", id, r.start, p.finish)
				}
				byTime[r.t] = append(byTime[r.t], r)
			}
			times := make([]sim.VTimeInSec, 0, len(byTime))
			for tm := range byTime {
				times = append(times, tm)
			}
			sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
			lastFinish := int64(0)
			for _, tm := range times {
				rs := byTime[tm]
				first, last := rs[0].start, rs[0].finish
				for _, r := range rs {
					first, last = min(first, r.start), max(last, r.finish)
					for _, o := range rs {
						if r.secondary != o.secondary && r.start < o.finish && o.start < r.finish {
							t.Fatalf("at %v a primary and a secondary event ran at once", tm)
						}
					}
				}
				if first < lastFinish {
					t.Fatalf("an event at %v started before the events of an earlier time finished", tm)
				}
				lastFinish = last
			}
			if o := par.overlap.Load(); c.workers == 1 && o != 1 {
				t.Errorf("one worker ran %d events at once", o)
			}
		})
	}
}

// TestParallelEngineRunsRoundAtOnce: with two or four workers, the events of
// a shared round run at once: each waits (up to 10 s) until another one of
// the round is running or two have met, which a single goroutine would
// never see.
func TestParallelEngineRunsRoundAtOnce(t *testing.T) {
	for _, workers := range []int{2, 4} {
		e := NewParallelEngine()
		e.Workers, e.MinParallel = workers, 2
		var running, met atomic.Int32
		h := handlerFunc(func(sim.Event) error {
			running.Add(1)
			defer running.Add(-1)
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); runtime.Gosched() {
				if running.Load() >= 2 {
					met.Add(1)
					return nil
				}
				if met.Load() > 0 {
					return nil // two of the round met already
				}
			}
			return nil
		})
		for i := 0; i < 2*workers; i++ {
			e.Schedule(orderEvent{t: 1e-9, h: h})
		}
		if err := e.Run(); err != nil {
			t.Fatal(err)
		}
		if met.Load() == 0 {
			t.Errorf("%d workers: no event of the round ran while another one did", workers)
		}
	}
}

// tickerFunc is a sim.Ticker made of a function.
type tickerFunc func(now sim.VTimeInSec) bool

func (f tickerFunc) Tick(now sim.VTimeInSec) bool { return f(now) }

// TestParallelEngineSamplerRunsAlone: a round large enough to share runs on
// one goroutine when it holds a tick of a sampler (NewSamplerComponent): its
// events each wait 20 ms for another one to be running, and none ever is.
// The same round without the sampler's tick is shared
// (TestParallelEngineRunsRoundAtOnce).
func TestParallelEngineSamplerRunsAlone(t *testing.T) {
	for _, workers := range []int{2, 4} {
		e := NewParallelEngine()
		e.Workers, e.MinParallel = workers, 2
		var running, met atomic.Int32
		wait := func() {
			running.Add(1)
			defer running.Add(-1)
			for deadline := time.Now().Add(20 * time.Millisecond); time.Now().Before(deadline); runtime.Gosched() {
				if running.Load() >= 2 {
					met.Add(1)
					return
				}
			}
		}
		h := handlerFunc(func(sim.Event) error { wait(); return nil })
		for i := 0; i < 2*workers; i++ {
			e.Schedule(orderEvent{t: 1e-9, h: h})
		}
		ticks := 0
		c := NewSamplerComponent("Sampler", e, 1*sim.GHz, tickerFunc(func(sim.VTimeInSec) bool { ticks++; wait(); return false }))
		c.TickNow(1e-9)
		if err := e.Run(); err != nil {
			t.Fatal(err)
		}
		if ticks != 1 || met.Load() != 0 {
			t.Errorf("%d workers: the sampler ticked %d times, and %d events of its round ran beside another", workers, ticks, met.Load())
		}
	}
}

// TestParallelEngineRefusesThePast: an event before the current time panics,
// from a round run on one goroutine or shared among workers.
func TestParallelEngineRefusesThePast(t *testing.T) {
	for _, n := range []int{1, 8} {
		e := NewParallelEngine()
		e.Workers, e.MinParallel = 2, 2
		var refused atomic.Int64
		for i := 0; i < n; i++ {
			e.Schedule(orderEvent{t: 2e-9, h: handlerFunc(func(sim.Event) error {
				defer func() {
					if recover() != nil {
						refused.Add(1)
					}
				}()
				e.Schedule(orderEvent{t: 1e-9, h: handlerFunc(func(sim.Event) error { return nil })})
				return nil
			})})
		}
		if err := e.Run(); err != nil {
			t.Fatal(err)
		}
		if refused.Load() != int64(n) || e.CurrentTime() != 2e-9 {
			t.Errorf("%d events: %d refused, current time %v", n, refused.Load(), e.CurrentTime())
		}
	}
}

// TestParallelEngineHandlerPanic: a handler's panic on a worker reaches Run's
// caller, as on the serial engine. Of a round's two events the first to
// start waits until the second started, and the second panics: Run's
// goroutine, which starts taking events as soon as it hands the round out,
// nearly always runs the first, so the worker panics.
func TestParallelEngineHandlerPanic(t *testing.T) {
	for i := 0; i < 20; i++ {
		e := NewParallelEngine()
		e.Workers, e.MinParallel = 2, 2
		var started atomic.Int32
		h := handlerFunc(func(sim.Event) error {
			if started.Add(1) == 1 {
				for started.Load() < 2 {
					runtime.Gosched()
				}
				return nil
			}
			panic("handler failed")
		})
		e.Schedule(orderEvent{t: 1e-9, h: h})
		e.Schedule(orderEvent{t: 1e-9, h: h})
		got := func() (r any) {
			defer func() { r = recover() }()
			_ = e.Run()
			return nil
		}()
		if got != "handler failed" {
			t.Fatalf("run %d ended with %v, want the handler's panic", i, got)
		}
	}
}
