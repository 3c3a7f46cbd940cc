package connections

import (
	"github.com/gfxsim/gfxsim/timing"
	"github.com/sarchlab/akita/v3/sim"
)

// BusBuilder builds a Bus. Start from MakeBusBuilder.
type BusBuilder = LinkBuilder[*Bus]

// MakeBusBuilder returns a builder with the defaults: 1 GHz, 32 bytes per
// cycle, latency 1 cycle. The engine must be set.
func MakeBusBuilder() BusBuilder { return makeLinkBuilder("bus", newBus) }

func newBus(name string, engine sim.Engine, freq sim.Freq, width, latency int) *Bus {
	bus := &Bus{}
	bus.TickingComponent = bus.init(name, bus, engine, freq, width, latency)
	return bus
}

// Bus is a shared medium between any number of ports: one message at a time
// is on the bus, for ceil(bytes/width) cycles. See the package documentation
// for the timing, arbitration and back-pressure rules.
type Bus struct {
	*timing.TickingComponent
	core
	medium // the one link all messages share

	ports      []*busEnd // plug-in order
	stalls     int       // destinations with an open refusal interval
	stallStart uint64    // start of the current union of refusal intervals
}

// busEnd is one plugged-in port: its source queue and the messages on their
// way to it.
type busEnd struct {
	end
	src timing.Ring[queued]
	out outQueue
}

// PlugIn connects port to the bus with a source queue of sourceBufferSize
// messages. It panics when the port is already plugged in or the size is not
// positive.
func (b *Bus) PlugIn(port sim.Port, sourceBufferSize int) {
	b.lock.Lock()
	defer b.lock.Unlock()
	e := &busEnd{end: end{port: port, cap: sourceBufferSize}}
	b.plug(&e.end, &e.out)
	b.ports = append(b.ports, e)
	port.SetConnection(b)
}

// CanSend reports whether src's source queue has room. When it does not, src
// is notified (NotifyAvailable) once a slot frees.
func (b *Bus) CanSend(src sim.Port) bool {
	b.lock.Lock()
	defer b.lock.Unlock()
	e := b.ports[b.mustEnd(src, "source")]
	if e.src.Len() < e.cap {
		return true
	}
	e.wantNotify = true
	return false
}

// Send queues msg in its source's queue. It fails when the queue is full; the
// source is then notified once a slot frees. Src and Dst must be plugged in
// and differ (a wiring bug panics, as in Akita's DirectConnection).
func (b *Bus) Send(msg sim.Msg) *sim.SendError {
	b.lock.Lock()
	defer b.lock.Unlock()
	si, di := b.route(msg)
	e := b.ports[si]
	if e.src.Len() >= e.cap {
		e.wantNotify = true
		return sim.NewSendError()
	}
	e.src.Push(b.entry(msg, di))
	b.sent(msg)
	return nil
}

// Tick delivers due messages, grants the bus to the next source and schedules
// the next tick at the cycle the next event can happen.
func (b *Bus) Tick(now sim.VTimeInSec) bool {
	c := b.beginTick(now)
	for _, e := range b.ports {
		b.deliver(e, c, now)
	}
	if b.freeAt <= c {
		if si := b.pick(); si >= 0 {
			b.grant(si, c, now)
		}
	}

	next := uint64(never)
	if b.grantable() {
		next = max(c+1, b.freeAt)
	}
	for _, e := range b.ports {
		next = min(next, e.out.nextDue())
	}
	return b.endTick(c, next, now)
}

// deliver hands e's due messages to e's port and keeps the union of refusal
// intervals.
func (b *Bus) deliver(e *busEnd, c uint64, now sim.VTimeInSec) {
	change := e.out.deliver(e.port, c, now, b.TickingComponent, b.progress)
	switch {
	case change > 0:
		if b.stalls == 0 {
			b.stallStart = c
		}
		b.stalls++
	case change < 0:
		b.stalls--
		if b.stalls == 0 {
			b.link.refused += c - b.stallStart
		}
	}
}

// pick returns the next source in round-robin order whose head message can go
// (its destination is not refusing), or -1.
func (b *Bus) pick() int {
	n := len(b.ports)
	for k := 0; k < n; k++ {
		i := (b.rr + k) % n
		e := b.ports[i]
		if e.src.Len() > 0 && !b.ports[e.src.Front().dst].out.refused {
			return i
		}
	}
	return -1
}

func (b *Bus) grantable() bool {
	for _, e := range b.ports {
		if e.src.Len() > 0 && !b.ports[e.src.Front().dst].out.refused {
			return true
		}
	}
	return false
}

// grant puts the head of source si on the bus at cycle c.
func (b *Bus) grant(si int, c uint64, now sim.VTimeInSec) {
	e := b.ports[si]
	m := e.src.Pop()
	d := b.ports[m.dst]
	if b.launch(&b.medium, si, len(b.ports), &e.end, m, &d.out, c) {
		b.deliver(d, c, now)
	}
}

// Stats reports the bus counters as <name>.<counter>: messages, bytes,
// busy_cycles, refused_cycles, and <Kind>.messages, <Kind>.bytes per message
// kind (Go type name). Busy cycles count the cycles up to the current one;
// an open refusal interval counts up to the current cycle.
func (b *Bus) Stats(add func(name string, value float64)) {
	b.lock.Lock()
	defer b.lock.Unlock()
	s := b.snapshot()
	s.report(b.Name(), &b.kinds, b.kinds.sorted(), add)
}

// snapshot returns the counters with open intervals closed at the current cycle.
func (b *Bus) snapshot() counters {
	return b.medium.snapshot(b.cycleOf(b.engine.CurrentTime()), b.stalls > 0, b.stallStart)
}

// Buffers describes the source queues (<name>.From<Port>, capacity the source
// buffer size) and the messages granted to each destination and not yet
// delivered (<name>.To<Port>, nominal capacity latency+1: what the link holds
// when its destination stops accepting).
func (b *Bus) Buffers() []timing.BufferState {
	b.lock.Lock()
	defer b.lock.Unlock()
	out := make([]timing.BufferState, 0, 2*len(b.ports))
	for _, e := range b.ports {
		out = append(out, timing.BufferState{Name: b.Name() + ".From" + e.token, Len: e.src.Len(), Cap: e.cap})
	}
	for _, e := range b.ports {
		out = append(out, timing.BufferState{Name: b.Name() + ".To" + e.token, Len: e.out.q.Len(), Cap: b.latency + 1})
	}
	return out
}
