package timing

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/sarchlab/akita/v3/sim"
)

// ParallelEngine is a sim.Engine that runs the events of one time on several
// goroutines at once, with the semantics of Akita v3.1.0's
// sim.ParallelEngine: a round runs every primary event of the earliest time
// (every secondary one when no primary event is left at that time), all of
// them concurrently, and the next round starts when the round is over; an
// event a round schedules at the round's own time runs in a later round. So,
// as on Akita's engine, a frame's result equals the serial engine's only
// when the events of one time do not depend on one another's order, which
// gfxsim's units guarantee by meeting only through ports and connections
// that tick as secondary events (configs' TestDeterminism and its kin check
// it on every machine).
//
// It differs from Akita's in cost. Akita's engine starts a goroutine for
// every event and passes its queues through channels on every Schedule;
// this one keeps Workers-1 goroutines for the whole Run, which join each
// shared round and take its events by an atomic counter, as Run's own
// goroutine does; a round of fewer than MinParallel events runs on Run's
// goroutine alone, where handing it out would cost more than it saves. The
// heaps are the serial engine's (eventHeap); a shared round's Schedule takes
// a slot of a list by an atomic counter, and the list enters the heaps when
// the round is over. A waiting worker spins (after a while without a round
// it lets other goroutines run between its looks), so a run keeps its cores
// busy.
//
// The units that read other units' state during their own tick (tracing's
// Progress and metrics sampler, the watchdog) are built with
// NewSamplerComponent, and a round that holds one of their ticks runs on
// Run's goroutine alone, however many events it has. They tick through a
// Waker's TickNow, in a later round of the same time, which usually holds
// fewer than MinParallel events anyway; but a unit that ticks itself through
// TickNow at that time (SAGE's video does) can join such a round, and shared,
// the samplers' reads would race with its tick (what the monitor and metrics
// show, and the watchdog's verdict, could change).
//
// Measured on 2 cores. The default frame (1280x720, 4x MSAA): 10.6-13.2 s
// against the serial engine's 13.7-14.9 s in five alternating runs of each,
// 1.07-1.38x faster, 1.29x the median (BenchmarkTimedDefaultSceneParallel);
// Akita's parallel engine took 48.5 s. Half of the frame's 3.25 M rounds
// have three events or more (8.9 on average, 38 at most), and they hold 88%
// of its 17.6 M events. Of MinParallel 2, 3, 4 and 6, 3 ran the quarter
// frame fastest (medians of four alternating runs: 3.6, 3.4, 4.0 and 5.8 s).
// The tiled machine's default frame took 16.5 s against 19.4 s. The SAGE
// machine's gained nothing (20.6-28.1 s against 21.5-24.2 s): 80% of its
// 16.5 M rounds have fewer than 3 events, and the shared ones hold 42% of
// its events, 3.8 each. Giving each handler a home goroutine, to keep its
// state in one core's cache, was no faster. The workers' spinning needs idle cores: beside one
// busy process a quarter frame took 6.2 s against the serial engine's 3.9 s.
type ParallelEngine struct {
	engineBase

	// Workers is the number of goroutines that run a round (default
	// GOMAXPROCS, at most 4: a shared round of the default frame holds 8.9
	// events on average; more than 2 were not measured); MinParallel the
	// fewest events a round must have to be shared among them (default 3).
	// Set them before Run.
	Workers, MinParallel int

	shared atomic.Bool // a round runs on several goroutines

	// The events a shared round scheduled: scheduled[:nScheduled] (at most
	// its length), then overflow, under mu.
	scheduled  []sim.Event
	nScheduled atomic.Int64
	mu         sync.Mutex
	overflow   []sim.Event
	panicked   *any // the first panic of a worker's handler this round, under mu

	// The round being run: its events, the index of the next one to take,
	// the generation of the shared round open to the workers (0: none) and
	// the workers inside it.
	round  []sim.Event
	next   atomic.Int64
	gen    uint64 // shared rounds so far
	open   atomic.Uint64
	active atomic.Int64
	stop   atomic.Bool
}

// NewParallelEngine returns an engine with no events, GOMAXPROCS workers (at
// most 4) and MinParallel 3.
func NewParallelEngine() *ParallelEngine {
	return &ParallelEngine{Workers: min(runtime.GOMAXPROCS(0), 4), MinParallel: 3}
}

// Schedule registers an event. It may be called from any event's handler
// while a round runs: then the event goes to the round's list of scheduled
// events (a slot taken by an atomic counter; a lock once the list is full),
// which enter the heaps when the round is over. An event earlier than the
// current time is a bug in a component: it panics, as Akita's engine does.
func (e *ParallelEngine) Schedule(evt sim.Event) {
	e.checkTime(evt)
	if e.shared.Load() {
		if i := int(e.nScheduled.Add(1) - 1); i < len(e.scheduled) {
			e.scheduled[i] = evt
			return
		}
		e.mu.Lock()
		e.overflow = append(e.overflow, evt)
		e.mu.Unlock()
		return
	}
	e.push(evt)
}

// take moves the events of the next round into e.round and sets the current
// time; it returns false when no event is left.
func (e *ParallelEngine) take() bool {
	h := &e.primary
	switch {
	case len(e.primary) == 0 && len(e.secondary) == 0:
		return false
	case len(e.primary) == 0, len(e.secondary) > 0 && e.secondary[0].t < e.primary[0].t:
		h = &e.secondary
	}
	t := (*h)[0].t
	e.setTime(t)
	e.round = e.round[:0]
	for len(*h) > 0 && (*h)[0].t == t {
		e.round = append(e.round, h.pop())
	}
	return true
}

// Run runs rounds until no event is left.
func (e *ParallelEngine) Run() error {
	workers := max(1, e.Workers)
	e.stop.Store(false)
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.work()
		}()
	}
	defer func() {
		e.stop.Store(true)
		wg.Wait()
	}()
	for {
		e.pauseLock.Lock()
		if !e.take() {
			e.pauseLock.Unlock()
			return nil
		}
		e.events += uint64(len(e.round))
		if len(e.round) < max(2, e.MinParallel) || workers == 1 || e.holdsSampler() {
			for _, evt := range e.round {
				e.handle(e, evt)
			}
		} else {
			e.share()
		}
		clear(e.round)
		e.pauseLock.Unlock()
	}
}

// holdsSampler reports whether the round holds a tick of a component built
// with NewSamplerComponent (only rounds large enough to share are looked at).
func (e *ParallelEngine) holdsSampler() bool {
	for _, evt := range e.round {
		if t, ok := evt.(*tickEvent); ok && t.c.sampler {
			return true
		}
	}
	return false
}

// share opens the round to the workers and runs its events with them, closes
// it once every event is taken, waits for the workers inside it, and puts the
// events it scheduled in the heaps. A worker joins a round by counting
// itself in active and then finding the round still open; share closes the
// round and then waits for active to be zero. Both are sequentially
// consistent atomics, so a worker that counted itself after share's last
// look at active finds the round closed and leaves it untouched; and share
// never waits for a worker that did not join (one whose thread is busy
// elsewhere), only for the events workers are running.
func (e *ParallelEngine) share() {
	if want := 2*len(e.round) + 64; len(e.scheduled) < want {
		e.scheduled = make([]sim.Event, 2*want)
	}
	e.nScheduled.Store(0)
	e.shared.Store(true)
	e.next.Store(0)
	e.gen++
	e.open.Store(e.gen)
	e.drain()
	e.open.Store(0)
	for spins := 0; e.active.Load() != 0; spins++ {
		if spins > 1<<16 {
			runtime.Gosched() // a worker's thread lost its core
		}
	}
	e.shared.Store(false)
	if p := e.panicked; p != nil {
		e.panicked = nil
		panic(*p)
	}
	n := min(int(e.nScheduled.Load()), len(e.scheduled))
	for i, evt := range e.scheduled[:n] {
		e.push(evt)
		e.scheduled[i] = nil
	}
	for _, evt := range e.overflow {
		e.push(evt)
	}
	clear(e.overflow)
	e.overflow = e.overflow[:0]
}

// drain runs the round's events not yet taken.
func (e *ParallelEngine) drain() {
	for {
		i := int(e.next.Add(1) - 1)
		if i >= len(e.round) {
			return
		}
		e.handle(e, e.round[i])
	}
}

// work is a worker: it joins every open round it has not been in, until Run
// stops it.
func (e *ParallelEngine) work() {
	last := uint64(0)
	for spins := 0; ; spins++ {
		g := e.open.Load()
		if g == 0 || g == last {
			if e.stop.Load() {
				return
			}
			if spins > 1<<12 {
				runtime.Gosched() // no round for a while: let other goroutines run
			}
			continue
		}
		e.active.Add(1)
		if e.open.Load() == g {
			e.drainCatching()
		}
		e.active.Add(-1)
		last, spins = g, 0
	}
}

// drainCatching is a worker's drain: a handler's panic is kept for Run's
// goroutine, which panics with it once the round is over, as the serial
// engine's Run would.
func (e *ParallelEngine) drainCatching() {
	defer func() {
		if r := recover(); r != nil {
			e.mu.Lock()
			if e.panicked == nil {
				e.panicked = &r
			}
			e.mu.Unlock()
		}
	}()
	e.drain()
}
