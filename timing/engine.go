package timing

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/sarchlab/akita/v3/sim"
)

// SerialEngine is a sim.Engine that runs events one after another, in exactly
// the order of Akita v3.1.0's sim.SerialEngine: two binary heaps (primary and
// secondary events) ordered by time alone, operated as container/heap does
// (the same comparisons and swaps, so events of equal time leave in the same
// order), a primary event before a secondary one of the same time, hooks
// before and after every event, Pause and Continue. It differs only in cost:
// each heap entry keeps its event's time beside it (no interface call per
// comparison, no boxing per push) and the queues take no lock, since only
// the goroutine in Run schedules events (the serial engine's contract; the
// current time is read atomically, so a monitor may read it while Run runs).
// A frame's cycles, events and statistics are the same on either engine
// (TestSerialEngineOrder, and configs' TestDeterminism).
type SerialEngine struct {
	engineBase
}

// engineBase is what SerialEngine and ParallelEngine share: the hooks, the
// current time, the two heaps, the count of events run, Pause and Continue,
// and the simulation end handlers.
type engineBase struct {
	sim.HookableBase

	now                atomic.Uint64 // math.Float64bits of the current time
	primary, secondary eventHeap
	events             uint64 // events run

	isPaused     bool
	isPausedLock sync.Mutex
	pauseLock    sync.Mutex

	endHandlers []sim.SimulationEndHandler
}

// NewSerialEngine returns an engine with no events.
func NewSerialEngine() *SerialEngine { return &SerialEngine{} }

// timedEvent is a heap entry: the event and its time.
type timedEvent struct {
	t sim.VTimeInSec
	e sim.Event
}

// eventHeap is container/heap's algorithm on timedEvents, Less being
// "earlier time".
type eventHeap []timedEvent

func (h *eventHeap) push(e sim.Event) {
	*h = append(*h, timedEvent{e.Time(), e})
	h.up(len(*h) - 1)
}

func (h *eventHeap) pop() sim.Event {
	q := *h
	n := len(q) - 1
	q[0], q[n] = q[n], q[0]
	h.down(0, n)
	e := q[n].e
	q[n] = timedEvent{}
	*h = q[:n]
	return e
}

func (h eventHeap) up(j int) {
	for {
		i := (j - 1) / 2 // parent
		if i == j || !(h[j].t < h[i].t) {
			break
		}
		h[i], h[j] = h[j], h[i]
		j = i
	}
}

func (h eventHeap) down(i0, n int) {
	i := i0
	for {
		j1 := 2*i + 1
		if j1 >= n || j1 < 0 { // j1 < 0 after int overflow
			break
		}
		j := j1 // left child
		if j2 := j1 + 1; j2 < n && h[j2].t < h[j1].t {
			j = j2 // right child
		}
		if !(h[j].t < h[i].t) {
			break
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
}

// Schedule registers an event. An event earlier than the current time is a
// bug in a component: it panics, as Akita's engine does.
func (e *SerialEngine) Schedule(evt sim.Event) {
	e.checkTime(evt)
	e.push(evt)
}

// checkTime panics when evt is earlier than the current time.
func (e *engineBase) checkTime(evt sim.Event) {
	if evt.Time() < e.CurrentTime() {
		panic(fmt.Sprintf("timing: %T scheduled at %.10f, before the current time %.10f", evt, evt.Time(), e.CurrentTime()))
	}
}

// push puts evt in its heap.
func (e *engineBase) push(evt sim.Event) {
	if evt.IsSecondary() {
		e.secondary.push(evt)
		return
	}
	e.primary.push(evt)
}

// Events returns the number of events run so far (read it from Run's
// goroutine: an event's handler, or after Run).
func (e *engineBase) Events() uint64 { return e.events }

// Engine is a sim.Engine that counts the events it ran: SerialEngine and
// ParallelEngine count them without an engine hook (which would cost two
// calls an event, and an atomic counter on the parallel engine).
type Engine interface {
	sim.Engine
	Events() uint64
}

// CurrentTime returns the time of the event being run (or last run).
func (e *engineBase) CurrentTime() sim.VTimeInSec {
	return sim.VTimeInSec(math.Float64frombits(e.now.Load()))
}

// setTime makes t the current time.
func (e *engineBase) setTime(t sim.VTimeInSec) { e.now.Store(math.Float64bits(float64(t))) }

// handle runs one event between its hooks (domain d: the engine).
func (e *engineBase) handle(d sim.Engine, evt sim.Event) {
	hooked := e.NumHooks() > 0
	if hooked {
		e.InvokeHook(sim.HookCtx{Domain: d, Pos: sim.HookPosBeforeEvent, Item: evt})
	}
	_ = evt.Handler().Handle(evt)
	if hooked {
		e.InvokeHook(sim.HookCtx{Domain: d, Pos: sim.HookPosAfterEvent, Item: evt})
	}
}

// next removes and returns the next event: the earlier of the two heads, the
// primary one on a tie.
func (e *SerialEngine) next() sim.Event {
	switch {
	case len(e.primary) == 0:
		return e.secondary.pop()
	case len(e.secondary) == 0:
		return e.primary.pop()
	case e.primary[0].t <= e.secondary[0].t:
		return e.primary.pop()
	}
	return e.secondary.pop()
}

// Run runs every event until none is left.
func (e *SerialEngine) Run() error {
	for len(e.primary)+len(e.secondary) > 0 {
		e.pauseLock.Lock()
		evt := e.next()
		e.events++
		e.setTime(evt.Time())
		e.handle(e, evt)
		e.pauseLock.Unlock()
	}
	return nil
}

// Pause stops Run before its next event (the parallel engine: its next
// round) until Continue.
func (e *engineBase) Pause() {
	e.isPausedLock.Lock()
	defer e.isPausedLock.Unlock()
	if e.isPaused {
		return
	}
	e.pauseLock.Lock()
	e.isPaused = true
}

// Continue lets a paused Run go on.
func (e *engineBase) Continue() {
	e.isPausedLock.Lock()
	defer e.isPausedLock.Unlock()
	if !e.isPaused {
		return
	}
	e.pauseLock.Unlock()
	e.isPaused = false
}

// RegisterSimulationEndHandler registers a handler Finished calls.
func (e *engineBase) RegisterSimulationEndHandler(h sim.SimulationEndHandler) {
	e.endHandlers = append(e.endHandlers, h)
}

// Finished calls the simulation end handlers.
func (e *engineBase) Finished() {
	now := e.CurrentTime()
	for _, h := range e.endHandlers {
		h.Handle(now)
	}
}
