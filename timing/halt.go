package timing

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/sarchlab/akita/v3/sim"
)

// Halt is shared by the components of a platform: when the watchdog (or an error
// in a component) halts the simulation, every component stops doing work at its
// next tick, so the engine runs out of events and Run returns.
type Halt struct {
	flag    atomic.Bool
	lock    sync.Mutex
	reason  error
	stopped bool
	onStop  []func()
}

// Stop halts the simulation with the given reason (the first reason wins)
// and, the first time, calls the functions given to OnStop.
func (h *Halt) Stop(reason error) {
	h.lock.Lock()
	if h.reason == nil {
		h.reason = reason
	}
	first := !h.stopped
	h.stopped = true
	calls := h.onStop
	h.onStop = nil
	h.lock.Unlock()
	h.flag.Store(true)
	if first {
		for _, f := range calls {
			f()
		}
	}
}

// OnStop has f called once when the simulation is halted (at once when it
// already is), from the goroutine that halts it: a monitor that paused the
// engine continues it, so that the halt takes effect.
func (h *Halt) OnStop(f func()) {
	h.lock.Lock()
	if !h.stopped {
		h.onStop = append(h.onStop, f)
		h.lock.Unlock()
		return
	}
	h.lock.Unlock()
	f()
}

// Fail halts the simulation because of err, a component's error. Without a Halt
// (a component built alone, in a test) there is nobody to report to: it panics.
func (h *Halt) Fail(err error) {
	if h == nil {
		panic(err)
	}
	h.Stop(err)
}

// Stopped reports whether the simulation was halted.
func (h *Halt) Stopped() bool { return h != nil && h.flag.Load() }

// Reason returns why the simulation was halted, or nil.
func (h *Halt) Reason() error {
	h.lock.Lock()
	defer h.lock.Unlock()
	return h.reason
}

// Progress counts units of work completed anywhere in the platform; the watchdog
// compares it over time. A unit whose modelled work runs long with nothing to
// send meanwhile (a 3DRAM flush of many write-backs) says until when with
// BusyUntil, so that the wait is not taken for a hang.
type Progress struct {
	n     atomic.Uint64
	until atomic.Uint64 // math.Float64bits of the latest BusyUntil time (non-negative floats order as their bits)
}

// BusyUntil records that a unit's scheduled work runs until time t.
func (p *Progress) BusyUntil(t sim.VTimeInSec) {
	if p == nil {
		return
	}
	bits := math.Float64bits(float64(t))
	for {
		old := p.until.Load()
		if bits <= old || p.until.CompareAndSwap(old, bits) {
			return
		}
	}
}

// BusyAt reports whether a unit's scheduled work runs past time now.
func (p *Progress) BusyAt(now sim.VTimeInSec) bool {
	return float64(now) < math.Float64frombits(p.until.Load())
}

// Add records n units of progress.
func (p *Progress) Add(n uint64) {
	if p != nil {
		p.n.Add(n)
	}
}

// Value returns the progress so far.
func (p *Progress) Value() uint64 { return p.n.Load() }
