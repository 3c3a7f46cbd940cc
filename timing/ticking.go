package timing

import (
	"sync"

	"github.com/sarchlab/akita/v3/sim"
)

// TickingComponent is Akita's sim.TickingComponent with tick events that carry
// no ID: Akita's builds every tick event with an ID string from its global
// generator (strconv formatting and an allocation per tick, several per cent
// of a frame's wall time) that nothing reads. It schedules its ticks at
// exactly the times and in exactly the order Akita's would (TickLater: the
// next cycle unless a tick at or after it is already scheduled; TickNow: this
// time unless one at or after it is; Handle ticks and, on progress, asks for
// the next cycle), so an engine runs the same events in the same order.
//
// A component embeds *TickingComponent as it would Akita's and uses the same
// fields and methods (Freq, Engine, TickLater, TickNow, Name, AddPort,
// AcceptHook).
type TickingComponent struct {
	*sim.ComponentBase
	Freq   sim.Freq
	Engine sim.Engine

	ticker       sim.Ticker
	secondary    bool // its ticks are secondary events (after the primary events of their time)
	sampler      bool // its ticks read other units' state (NewSamplerComponent)
	lock         sync.Mutex
	nextTickTime sim.VTimeInSec
	events       reuse[tickEvent] // its tick events, reused (under lock)
}

// NewTickingComponent returns the component named name, ticking ticker at
// freq on engine.
func NewTickingComponent(name string, engine sim.Engine, freq sim.Freq, ticker sim.Ticker) *TickingComponent {
	return &TickingComponent{ComponentBase: sim.NewComponentBase(name), Freq: freq, Engine: engine,
		ticker: ticker, nextTickTime: -1}
}

// NewSecondaryTickingComponent is NewTickingComponent whose ticks are
// secondary events, as Akita's NewSecondaryTickingComponent.
func NewSecondaryTickingComponent(name string, engine sim.Engine, freq sim.Freq, ticker sim.Ticker) *TickingComponent {
	c := NewTickingComponent(name, engine, freq, ticker)
	c.secondary = true
	return c
}

// NewSamplerComponent is NewTickingComponent for a unit whose tick reads
// other units' state (tracing's progress and metrics samplers, configs'
// watchdog): ParallelEngine runs a round that holds one of its ticks on one
// goroutine, so those reads never race with another unit's tick. It must tick
// only through its own tick events (TickLater, TickNow, a Waker made with
// NewWaker), not within another event (NewTickWaker, a Unit's wake-ups).
func NewSamplerComponent(name string, engine sim.Engine, freq sim.Freq, ticker sim.Ticker) *TickingComponent {
	c := NewTickingComponent(name, engine, freq, ticker)
	c.sampler = true
	return c
}

// tickEvent is a tick of c at time t.
type tickEvent struct {
	t sim.VTimeInSec
	c *TickingComponent
}

func (e *tickEvent) Time() sim.VTimeInSec { return e.t }
func (e *tickEvent) Handler() sim.Handler { return e.c }
func (e *tickEvent) IsSecondary() bool    { return e.c.secondary }

// schedule schedules a tick at t unless one at or after t already is.
func (c *TickingComponent) schedule(t sim.VTimeInSec) {
	c.lock.Lock()
	if c.nextTickTime < t {
		c.nextTickTime = t
		e := c.events.get()
		*e = tickEvent{t, c}
		c.Engine.Schedule(e)
	}
	c.lock.Unlock()
}

// Frequency returns the component's clock.
func (c *TickingComponent) Frequency() sim.Freq { return c.Freq }

// TickLater schedules a tick at the cycle after now.
func (c *TickingComponent) TickLater(now sim.VTimeInSec) { c.schedule(c.Freq.NextTick(now)) }

// TickNow schedules a tick at now.
func (c *TickingComponent) TickNow(now sim.VTimeInSec) { c.schedule(now) }

// NotifyRecv ticks the component at the next cycle: a port received a message.
func (c *TickingComponent) NotifyRecv(now sim.VTimeInSec, _ sim.Port) { c.TickLater(now) }

// NotifyPortFree ticks the component at the next cycle: a port has room again.
func (c *TickingComponent) NotifyPortFree(now sim.VTimeInSec, _ sim.Port) { c.TickLater(now) }

// tickNowDirect is TickNow without an event of its own: it ticks c at time
// now within the event that asks for it (a unit's wake-up; see NewUnit),
// unless a tick at or after now is already scheduled, and on progress asks
// for the next cycle's as Handle does. The tick runs earlier among the
// primary events of its time than TickNow's own event would; nothing a unit
// sees depends on that order, since units meet only through ports, and the
// connections that fill and drain the ports tick as secondary events, after
// every primary event of the time (configs' neutral runs and TestDeterminism
// give the same statistics either way).
func (c *TickingComponent) tickNowDirect(now sim.VTimeInSec) bool {
	c.lock.Lock()
	if c.nextTickTime >= now {
		c.lock.Unlock()
		return false
	}
	c.nextTickTime = now
	c.lock.Unlock()
	return c.tick(now)
}

// TickWithin is TickNow without an event of its own: it ticks c at time now
// within the event being handled, unless a tick at or after now is already
// scheduled, and on progress asks for the next cycle's tick as Handle does.
// The event must be of the kind of c's ticks (secondary for
// NewSecondaryTickingComponent's), so that the tick runs among the events it
// would have run among; nothing c does may depend on its order among them.
func (c *TickingComponent) TickWithin(now sim.VTimeInSec) { c.tickNowDirect(now) }

// tick ticks c at time now and, on progress, asks for the next cycle's tick.
func (c *TickingComponent) tick(now sim.VTimeInSec) bool {
	if c.ticker.Tick(now) {
		c.TickLater(now)
		return true
	}
	return false
}

// Handle runs a tick; on progress it schedules the next cycle's.
func (c *TickingComponent) Handle(e sim.Event) error {
	now := e.Time()
	if te, ok := e.(*tickEvent); ok {
		c.lock.Lock()
		c.events.handled(te)
		c.lock.Unlock()
	}
	c.tick(now)
	return nil
}
