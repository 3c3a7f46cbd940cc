package connections

import (
	"fmt"
	"math/bits"

	"github.com/gfxsim/gfxsim/timing"
	"github.com/sarchlab/akita/v3/sim"
)

// CrossbarBuilder builds a Crossbar; its width and latency are those of
// each destination link. Start from MakeCrossbarBuilder.
type CrossbarBuilder = LinkBuilder[*Crossbar]

// MakeCrossbarBuilder returns a builder with the defaults: 1 GHz, 32 bytes per
// cycle per destination link, latency 1 cycle. The engine must be set.
func MakeCrossbarBuilder() CrossbarBuilder { return makeLinkBuilder("crossbar", newCrossbar) }

func newCrossbar(name string, engine sim.Engine, freq sim.Freq, width, latency int) *Crossbar {
	x := &Crossbar{}
	x.TickingComponent = x.init(name, x, engine, freq, width, latency)
	return x
}

// Crossbar connects every plugged-in port to every other one. Each destination
// has its own output link (width bytes per cycle, latency cycles); sources
// contend per destination, round-robin; each source keeps one queue per
// destination (virtual output queues). See the package documentation.
type Crossbar struct {
	*timing.TickingComponent
	core

	ports  []*xbarEnd // plug-in order
	active []uint64   // bit di: destination di has messages waiting for it or on its link
}

// xbarEnd is one plugged-in port: its queues as a source and its output link
// as a destination.
type xbarEnd struct {
	end
	inputCap  int                   // messages waiting in all its queues at most (0: unbounded)
	waitingIn int                   // messages waiting in its queues
	voq       []timing.Ring[queued] // by destination index

	// the output link to this port
	medium
	out     outQueue
	waiting int // messages for this destination in source queues
}

// inputFull reports whether the port's input side holds as many waiting
// messages as it may.
func (e *xbarEnd) inputFull() bool { return e.inputCap > 0 && e.waitingIn >= e.inputCap }

// PlugIn connects port to the crossbar with a queue of sourceBufferSize
// messages towards each other port. It panics when the port is already plugged
// in or the size is not positive.
func (x *Crossbar) PlugIn(port sim.Port, sourceBufferSize int) {
	x.PlugInWithInputBuffer(port, sourceBufferSize, 0)
}

// PlugInWithInputBuffer is PlugIn with a bounded input side: the port may have
// at most inputBufferSize messages waiting in all its queues together (0:
// unbounded, as PlugIn). It panics when inputBufferSize is negative.
func (x *Crossbar) PlugInWithInputBuffer(port sim.Port, sourceBufferSize, inputBufferSize int) {
	if inputBufferSize < 0 {
		panic(fmt.Sprintf("connections: %s: port %s: input buffer of %d messages", x.Name(), port.Name(), inputBufferSize))
	}
	x.lock.Lock()
	defer x.lock.Unlock()
	e := &xbarEnd{end: end{port: port, cap: sourceBufferSize}, inputCap: inputBufferSize}
	x.plug(&e.end, &e.out)
	x.ports = append(x.ports, e)
	for len(x.active)*64 < len(x.ports) {
		x.active = append(x.active, 0)
	}
	for _, p := range x.ports {
		for len(p.voq) < len(x.ports) {
			p.voq = append(p.voq, timing.Ring[queued]{})
		}
	}
	port.SetConnection(x)
}

// CanSend reports whether a message from src to any destination would be
// accepted: every queue of src has room (a true answer is a promise). When it
// is false, src is notified once a slot frees. Components that know the
// destination use CanSendTo.
func (x *Crossbar) CanSend(src sim.Port) bool {
	x.lock.Lock()
	defer x.lock.Unlock()
	si := x.mustEnd(src, "source")
	e := x.ports[si]
	if e.inputFull() {
		e.wantNotify = true
		return false
	}
	for d := range e.voq {
		if d != si && e.voq[d].Len() >= e.cap {
			e.wantNotify = true
			return false
		}
	}
	return true
}

// CanSendTo reports whether a message from src to dst would be accepted. When
// it is false, src is notified once a slot frees.
func (x *Crossbar) CanSendTo(src, dst sim.Port) bool {
	x.lock.Lock()
	defer x.lock.Unlock()
	e := x.ports[x.mustEnd(src, "source")]
	if e.voq[x.mustEnd(dst, "destination")].Len() < e.cap && !e.inputFull() {
		return true
	}
	e.wantNotify = true
	return false
}

// Send queues msg in its source's queue for its destination. It fails when that
// queue is full; the source is then notified once a slot frees. Src and Dst
// must be plugged in and differ (a wiring bug panics, as in Akita's
// DirectConnection).
func (x *Crossbar) Send(msg sim.Msg) *sim.SendError {
	x.lock.Lock()
	defer x.lock.Unlock()
	si, di := x.route(msg)
	e := x.ports[si]
	if e.voq[di].Len() >= e.cap || e.inputFull() {
		e.wantNotify = true
		return sim.NewSendError()
	}
	e.voq[di].Push(x.entry(msg, di))
	e.waitingIn++
	x.ports[di].waiting++
	x.active[di/64] |= 1 << (di % 64)
	x.sent(msg)
	return nil
}

// Tick delivers due messages on every output link, grants each free link to
// its next source and schedules the next tick at the cycle the next event can
// happen. It visits the destinations in plug-in order, and only those with
// messages waiting for them or on their link (active): the others have
// nothing to deliver, grant or wait for.
func (x *Crossbar) Tick(now sim.VTimeInSec) bool {
	c := x.beginTick(now)
	next := uint64(never)
	for w := range x.active {
		for m := x.active[w]; m != 0; m &= m - 1 {
			di := w*64 + bits.TrailingZeros64(m)
			d := x.ports[di]
			x.deliver(d, c, now)
			if d.freeAt <= c && d.waiting > 0 && !d.out.refused {
				if si := x.pick(di); si >= 0 {
					x.grant(si, di, c, now)
				}
			}
			if d.waiting > 0 && !d.out.refused {
				next = min(next, max(c+1, d.freeAt))
			}
			next = min(next, d.out.nextDue())
			if d.waiting == 0 && d.out.q.Len() == 0 {
				x.active[w] &^= 1 << (di % 64)
			}
		}
	}
	return x.endTick(c, next, now)
}

func (x *Crossbar) deliver(d *xbarEnd, c uint64, now sim.VTimeInSec) {
	change := d.out.deliver(d.port, c, now, x.TickingComponent, x.progress)
	if change < 0 {
		d.link.refused += c - d.out.stallStart
	}
}

// pick returns the next source in round-robin order with a message for di, or -1.
func (x *Crossbar) pick(di int) int {
	d := x.ports[di]
	n := len(x.ports)
	for k := 0; k < n; k++ {
		i := (d.rr + k) % n
		if i != di && x.ports[i].voq[di].Len() > 0 {
			return i
		}
	}
	return -1
}

// grant puts the head of source si's queue for di on di's link at cycle c.
func (x *Crossbar) grant(si, di int, c uint64, now sim.VTimeInSec) {
	e, d := x.ports[si], x.ports[di]
	m := e.voq[di].Pop()
	e.waitingIn--
	d.waiting--
	if x.launch(&d.medium, si, len(x.ports), &e.end, m, &d.out, c) {
		x.deliver(d, c, now)
	}
}

// Stats reports the crossbar counters as <name>.<counter>, summed over its
// links (busy_cycles and refused_cycles are then link-cycles), and each
// destination link's as <name>.To<Port>.<counter> (for example
// GPU.RasterXbar.ToDepthUnit[1].bytes). Counters: messages, bytes,
// busy_cycles, refused_cycles, and <Kind>.messages, <Kind>.bytes per message
// kind (Go type name).
func (x *Crossbar) Stats(add func(name string, value float64)) {
	x.lock.Lock()
	defer x.lock.Unlock()
	order := x.kinds.sorted()
	links := make([]counters, len(x.ports))
	var total counters
	for i, d := range x.ports {
		links[i] = x.snapshot(d)
		total.accumulate(&links[i])
	}
	total.report(x.Name(), &x.kinds, order, add)
	for i, d := range x.ports {
		links[i].report(x.Name()+".To"+d.token, &x.kinds, order, add)
	}
}

// snapshot returns d's link counters with open intervals closed at the current
// cycle.
func (x *Crossbar) snapshot(d *xbarEnd) counters {
	return d.medium.snapshot(x.cycleOf(x.engine.CurrentTime()), d.out.stalled, d.out.stallStart)
}

// Buffers describes every source queue (<name>.From<Src>.To<Dst>, capacity the
// source buffer size) and each output link's granted, undelivered messages
// (<name>.To<Port>, nominal capacity latency+1).
func (x *Crossbar) Buffers() []timing.BufferState {
	x.lock.Lock()
	defer x.lock.Unlock()
	n := len(x.ports)
	out := make([]timing.BufferState, 0, n*n)
	for si, e := range x.ports {
		for di, d := range x.ports {
			if si != di {
				out = append(out, timing.BufferState{
					Name: x.Name() + ".From" + e.token + ".To" + d.token,
					Len:  e.voq[di].Len(), Cap: e.cap,
				})
			}
		}
	}
	for _, d := range x.ports {
		out = append(out, timing.BufferState{Name: x.Name() + ".To" + d.token, Len: d.out.q.Len(), Cap: x.latency + 1})
	}
	return out
}
