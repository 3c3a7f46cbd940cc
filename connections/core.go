package connections

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gfxsim/gfxsim/timing"
	"github.com/sarchlab/akita/v3/sim"
)

// never is the "no event" cycle of the wake-up computations.
const never = math.MaxUint64

// core is the state a Bus and a Crossbar share: the clock, the wake-up
// bookkeeping, the link parameters and the message-kind table. Every field is
// guarded by lock.
type core struct {
	lock    sync.Mutex
	tc      *timing.TickingComponent
	domain  sim.Hookable // the link, as its send hooks name it
	engine  sim.Engine
	freq    sim.Freq
	width   int
	latency int

	kinds kindTable

	ticked bool   // the connection has ticked at least once
	last   uint64 // the cycle of the last tick
	wakes  []uint64
	waker  *waker

	notify []sim.Port // scratch: sources to notify after a tick

	progress *timing.Progress // told of deliveries and when granted messages are due (nil: nobody)

	ends    map[sim.Port]int // port -> plug-in index
	plugged []*end           // each end, by plug-in index
	outs    []*outQueue      // each end's output queue, by plug-in index
}

// init sets up the core of link (a *Bus or a *Crossbar) and returns the
// link's secondary ticking component named name.
func (c *core) init(name string, link interface {
	sim.Ticker
	sim.Hookable
}, engine sim.Engine, freq sim.Freq, width, latency int) *timing.TickingComponent {
	c.tc = timing.NewSecondaryTickingComponent(name, engine, freq, link)
	c.domain = link
	c.engine = engine
	c.freq = freq
	c.width = width
	c.latency = latency
	c.kinds.index = make(map[reflect.Type]int)
	c.waker = &waker{c: c}
	c.ends = make(map[sim.Port]int)
	return c.tc
}

// end is what every plugged-in port of a link has: the port, its token
// inside the link, its source queue capacity and whether it waits to be
// notified of a free slot.
type end struct {
	port       sim.Port
	token      string
	cap        int
	wantNotify bool // a Send or CanSend failed since the last free slot
}

// plug registers e (its port and capacity set), whose messages are delivered
// through out, as the next end and sets its token; the caller appends its end
// and then sets the port's connection. It panics when the port is already
// plugged in or the size is not positive. Called with lock held.
func (c *core) plug(e *end, out *outQueue) {
	port, sourceBufferSize := e.port, e.cap
	if _, ok := c.ends[port]; ok {
		panic(fmt.Sprintf("connections: %s: port %s plugged in twice", c.tc.Name(), port.Name()))
	}
	if sourceBufferSize < 1 {
		panic(fmt.Sprintf("connections: %s: port %s: source buffer of %d messages", c.tc.Name(), port.Name(), sourceBufferSize))
	}
	c.ends[port] = len(c.plugged)
	c.plugged = append(c.plugged, e)
	c.outs = append(c.outs, out)
	ports := make([]sim.Port, len(c.plugged))
	for i, p := range c.plugged {
		ports[i] = p.port
	}
	// A new end may make another end's name ambiguous: name them all again.
	for i, tok := range endTokens(ports) {
		c.plugged[i].token = tok
	}
}

// mustEnd returns the plug-in index of p; a message without the port or from
// or to a port not plugged in is a wiring bug and panics. Called with lock
// held.
func (c *core) mustEnd(p sim.Port, role string) int {
	if p == nil {
		panic(fmt.Sprintf("connections: %s: message without %s port", c.tc.Name(), role))
	}
	i, ok := c.ends[p]
	if !ok {
		panic(fmt.Sprintf("connections: %s: %s port %s is not plugged in", c.tc.Name(), role, p.Name()))
	}
	return i
}

// route returns the plug-in indices of msg's source and destination; a
// message to its own source is a wiring bug and panics. Called with lock held.
func (c *core) route(msg sim.Msg) (si, di int) {
	meta := msg.Meta()
	si = c.mustEnd(meta.Src, "source")
	di = c.mustEnd(meta.Dst, "destination")
	if si == di {
		panic(fmt.Sprintf("connections: %s: message from %s to itself", c.tc.Name(), meta.Src.Name()))
	}
	return si, di
}

// entry returns msg's source-queue entry towards destination di, charged
// (charge).
func (c *core) entry(msg sim.Msg, di int) queued {
	bytes, n := c.charge(msg)
	return queued{msg: msg, dst: di, kind: c.kinds.of(msg), bytes: bytes, n: n}
}

// sent ends a Send that queued msg: the start-send hook and a tick this cycle.
// Called with lock held.
func (c *core) sent(msg sim.Msg) {
	if c.tc.NumHooks() > 0 {
		c.tc.InvokeHook(sim.HookCtx{Domain: c.domain, Pos: sim.HookPosConnStartSend, Item: msg})
	}
	c.requestTick(c.cycleOf(c.engine.CurrentTime()))
}

// beginTick takes the lock for a tick at now and returns its cycle.
func (c *core) beginTick(now sim.VTimeInSec) uint64 {
	c.lock.Lock()
	k := c.cycleOf(now)
	c.ticked, c.last = true, k
	c.notify = c.notify[:0]
	return k
}

// endTick ends the tick at cycle cur: it arranges the tick at cycle next
// (scheduleNext), releases the lock, notifies the sources that waited for a
// slot, and returns what Tick returns.
func (c *core) endTick(cur, next uint64, now sim.VTimeInSec) bool {
	more := c.scheduleNext(cur, next)
	notify := c.notify
	c.lock.Unlock()
	notifySources(notify, now)
	return more
}

// medium is one link's transfer state: a bus has one, a crossbar one per
// destination.
type medium struct {
	freeAt uint64 // first cycle the link is free
	rr     int    // the source that has priority next
	link   counters
}

// snapshot returns the link's counters with its transfer closed at cycle now
// and, when a refusal interval is open (stalled, since its first cycle), that
// interval too.
func (l *medium) snapshot(now uint64, stalled bool, since uint64) counters {
	s := l.link
	if l.freeAt > now+1 {
		s.busy -= l.freeAt - (now + 1)
	}
	if stalled && now > since {
		s.refused += now - since
	}
	return s
}

// launch puts m, the head of source si's queue (src, of n ends), on link l
// towards the destination whose granted messages out holds, at cycle k: the
// next source has priority, the link is busy for m's cycles and counts it,
// the delivery is due latency cycles after m's last cycle on the link, and
// src is notified after the tick when it waited for a slot. It reports
// whether the delivery is due at once (latency 0, one cycle). Called with
// lock held.
func (c *core) launch(l *medium, si, n int, src *end, m queued, out *outQueue, k uint64) (dueNow bool) {
	l.rr = (si + 1) % n
	l.freeAt = k + uint64(m.n)
	l.link.add(m.kind, m.bytes, m.n)
	due := k + uint64(m.n) - 1 + uint64(c.latency)
	out.q.Push(transfer{msg: m.msg, due: due})
	c.progress.BusyUntil(c.timeOf(due)) // a transfer under way is not a hang
	if c.tc.NumHooks() > 0 {
		c.tc.InvokeHook(sim.HookCtx{Domain: c.domain, Pos: sim.HookPosConnStartTrans, Item: m.msg})
	}
	if src.wantNotify {
		src.wantNotify = false
		c.notify = append(c.notify, src.port)
	}
	return out.nextDue() == k
}

// SetProgress makes the link count each message it delivers as progress of
// the platform's p, and declare p busy until each granted message is due
// (timing.Progress.BusyUntil): messages moving, through a cache or a memory
// channel that counts no progress of its own, and a long transfer on a
// narrow link are work under way, not a hang. A message its destination
// refuses is neither delivered nor declared past the cycle it was due.
func (c *core) SetProgress(p *timing.Progress) {
	c.lock.Lock()
	defer c.lock.Unlock()
	c.progress = p
}

// NotifyAvailable is called by a destination port that refused a delivery and
// has room again: the connection retries at once.
func (c *core) NotifyAvailable(_ sim.VTimeInSec, port sim.Port) {
	c.lock.Lock()
	defer c.lock.Unlock()
	if i, ok := c.ends[port]; ok {
		c.outs[i].refused = false
	}
	c.requestTick(c.cycleOf(c.engine.CurrentTime()))
}

// Unplug is not supported (as for Akita's DirectConnection): it panics.
func (c *core) Unplug(port sim.Port) {
	panic(fmt.Sprintf("connections: %s: Unplug(%s) is not supported", c.tc.Name(), port.Name()))
}

// cycleOf returns the index of the first clock edge at or after t (the same
// rounding as sim.Freq.ThisTick, so times computed by Akita map back exactly).
func (c *core) cycleOf(t sim.VTimeInSec) uint64 {
	n := math.Ceil(math.Round(float64(t)*10*float64(c.freq)) / 10)
	if n < 0 {
		return 0
	}
	return uint64(n)
}

// timeOf returns the time of clock edge k (the same value Akita's NextTick and
// ThisTick produce for that edge).
func (c *core) timeOf(k uint64) sim.VTimeInSec {
	return sim.VTimeInSec(float64(k) / float64(c.freq))
}

// charge returns the bytes charged for a message and the cycles it occupies a
// link: at least one byte, ceil(bytes/width) cycles.
func (c *core) charge(msg sim.Msg) (bytes, cycles int) {
	bytes = msg.Meta().TrafficBytes
	if bytes < 1 {
		bytes = 1
	}
	return bytes, (bytes-1)/c.width + 1
}

// requestTick makes the connection tick at cycle k (or at the next cycle when it
// has already ticked at k). A tick at the current time is requested directly
// (it is a secondary event, so it runs after every component tick of this
// cycle); a future one through a wake-up event, because TickNow with a future
// time would hide an earlier TickLater. Called with lock held.
func (c *core) requestTick(k uint64) {
	if c.ticked && k <= c.last {
		k = c.last + 1
	}
	t := c.timeOf(k)
	if t <= c.engine.CurrentTime() {
		c.tc.TickNow(c.engine.CurrentTime())
		return
	}
	i, found := slices.BinarySearch(c.wakes, k)
	if found {
		return
	}
	c.wakes = slices.Insert(c.wakes, i, k)
	c.engine.Schedule(&wakeEvent{t: t, w: c.waker})
}

// scheduleNext arranges the tick at cycle next after a tick at cycle cur, and
// reports whether the tick should return true (next is the following cycle, so
// Akita's TickLater schedules it). Called with lock held.
func (c *core) scheduleNext(cur, next uint64) bool {
	switch {
	case next == never:
		return false
	case next <= cur+1:
		return true
	}
	c.requestTick(next)
	return false
}

// pendingWakes returns the number of wake-up events not fired yet.
func (c *core) pendingWakes() int {
	c.lock.Lock()
	defer c.lock.Unlock()
	return len(c.wakes)
}

// notifySources calls NotifyAvailable on the ports collected in c.notify during
// a tick. Called without the lock, so a source may send from the callback.
func notifySources(ports []sim.Port, now sim.VTimeInSec) {
	for _, p := range ports {
		p.NotifyAvailable(now)
	}
}

// wakeEvent is a future wake-up of a connection: a secondary event, like the
// connection's ticks, so that the tick it runs (TickWithin) runs after every
// primary event of its time, where the tick event TickNow would schedule
// runs; one event instead of two.
type wakeEvent struct {
	t sim.VTimeInSec
	w *waker
}

func (e *wakeEvent) Time() sim.VTimeInSec { return e.t }
func (e *wakeEvent) Handler() sim.Handler { return e.w }
func (e *wakeEvent) IsSecondary() bool    { return true }

// waker handles the wake-up events of one connection.
type waker struct {
	c *core
}

// Handle implements sim.Handler: a wake-up fired, tick now.
func (w *waker) Handle(e sim.Event) error {
	c := w.c
	k := c.cycleOf(e.Time())
	c.lock.Lock()
	if i, found := slices.BinarySearch(c.wakes, k); found {
		c.wakes = slices.Delete(c.wakes, i, i+1)
	}
	c.lock.Unlock()
	c.tc.TickWithin(e.Time())
	return nil
}

// kindTable gives each message type a small index; names are the Go type names
// without the package path.
type kindTable struct {
	index map[reflect.Type]int
	names []string
}

func (k *kindTable) of(msg sim.Msg) int {
	t := reflect.TypeOf(msg)
	if i, ok := k.index[t]; ok {
		return i
	}
	i := len(k.names)
	k.index[t] = i
	k.names = append(k.names, kindName(t))
	return i
}

// sorted returns the kind indices ordered by name.
func (k *kindTable) sorted() []int {
	order := make([]int, len(k.names))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return k.names[order[a]] < k.names[order[b]] })
	return order
}

// kindName is the Go type name of a message without its package path ("ReadReq"
// for *mem.ReadReq).
func kindName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer && t.Name() == "" {
		t = t.Elem()
	}
	if n := t.Name(); n != "" {
		if i := strings.IndexByte(n, '['); i > 0 { // a generic type: drop the arguments
			n = n[:i]
		}
		return n
	}
	s := t.String()
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// counters are the traffic counters of one link.
type counters struct {
	msgs, bytes uint64
	kindMsgs    []uint64 // by kind index
	kindBytes   []uint64
	busy        uint64 // cycles transferring, counted when a transfer starts
	refused     uint64 // closed refusal intervals, in cycles
}

func (s *counters) add(kind, bytes, cycles int) {
	for len(s.kindMsgs) <= kind {
		s.kindMsgs = append(s.kindMsgs, 0)
		s.kindBytes = append(s.kindBytes, 0)
	}
	s.msgs++
	s.bytes += uint64(bytes)
	s.kindMsgs[kind]++
	s.kindBytes[kind] += uint64(bytes)
	s.busy += uint64(cycles)
}

// accumulate adds o into s (for a crossbar's totals).
func (s *counters) accumulate(o *counters) {
	for len(s.kindMsgs) < len(o.kindMsgs) {
		s.kindMsgs = append(s.kindMsgs, 0)
		s.kindBytes = append(s.kindBytes, 0)
	}
	s.msgs += o.msgs
	s.bytes += o.bytes
	for i := range o.kindMsgs {
		s.kindMsgs[i] += o.kindMsgs[i]
		s.kindBytes[i] += o.kindBytes[i]
	}
	s.busy += o.busy
	s.refused += o.refused
}

// report emits the counters under prefix: messages, bytes, busy_cycles,
// refused_cycles, then <Kind>.messages and <Kind>.bytes in name order.
func (s *counters) report(prefix string, kinds *kindTable, order []int, add func(string, float64)) {
	add(prefix+".messages", float64(s.msgs))
	add(prefix+".bytes", float64(s.bytes))
	add(prefix+".busy_cycles", float64(s.busy))
	add(prefix+".refused_cycles", float64(s.refused))
	for _, k := range order {
		if k >= len(s.kindMsgs) || s.kindMsgs[k] == 0 {
			continue
		}
		add(prefix+"."+kinds.names[k]+".messages", float64(s.kindMsgs[k]))
		add(prefix+"."+kinds.names[k]+".bytes", float64(s.kindBytes[k]))
	}
}

// transfer is a message on or past a link, waiting for its delivery cycle.
type transfer struct {
	msg sim.Msg
	due uint64 // the cycle it is delivered (RecvTime)
}

// queued is a message in a source queue.
type queued struct {
	msg   sim.Msg
	dst   int // index of the destination end
	kind  int
	bytes int
	n     int // cycles on the link
}

// outQueue holds the messages granted to one destination, in grant order (so
// in due order), and the destination's refusal state.
type outQueue struct {
	q          timing.Ring[transfer]
	refused    bool   // the head was refused; wait for NotifyAvailable
	stalled    bool   // a refusal interval is open
	stallStart uint64 // its first cycle
}

// deliver hands every due message to port, in order, until one is refused. It
// reports whether the queue's refusal interval started (+1) or ended (-1). now
// is the time of cycle c.
func (o *outQueue) deliver(port sim.Port, c uint64, now sim.VTimeInSec, hooks *timing.TickingComponent, progress *timing.Progress) (stallChange int) {
	if o.refused {
		return 0
	}
	for o.q.Len() > 0 && o.q.Front().due <= c {
		m := o.q.Front().msg
		m.Meta().RecvTime = now
		if port.Recv(m) != nil {
			o.refused = true
			break
		}
		o.q.Pop()
		progress.Add(1) // a message moved
		if hooks.NumHooks() > 0 {
			hooks.InvokeHook(sim.HookCtx{Domain: hooks, Pos: sim.HookPosConnDeliver, Item: m})
		}
	}
	switch {
	case o.refused && !o.stalled:
		o.stalled, o.stallStart = true, c
		stallChange = 1
	case !o.refused && o.stalled:
		o.stalled = false
		stallChange = -1
	}
	return stallChange
}

// nextDue returns the cycle of the next delivery attempt, or never when the
// queue is empty or waits for NotifyAvailable.
func (o *outQueue) nextDue() uint64 {
	if o.refused || o.q.Len() == 0 {
		return never
	}
	return o.q.Front().due
}

// endTokens names the plugged-in ports of a connection, each by the last
// element of its component's name ("DepthUnit[1]" for GPU.DepthUnit[1]), or
// of the port's name when it has no component. Different components whose
// names end alike (GPU.Pipe[0].InputAssembler, GPU.Pipe[1].InputAssembler)
// are told apart by as many more elements of their names as it takes
// ("Pipe[0].InputAssembler", "Pipe[1].InputAssembler"); the ports of one
// component by the port's last element appended ("DepthUnit[1].FromROP").
// A name still taken gets an index ("X[1]").
func endTokens(ports []sim.Port) []string {
	owner := make([]string, len(ports)) // the component's name, or the port's
	depth := make([]int, len(ports))    // elements of owner in the token
	for i, p := range ports {
		owner[i] = p.Name()
		if comp := p.Component(); comp != nil {
			owner[i] = comp.Name()
		}
		depth[i] = 1
	}
	tokens := make([]string, len(ports))
	for {
		for i := range ports {
			tokens[i] = lastElems(owner[i], depth[i])
		}
		// Owners that share a token take one more element, while they have one.
		longer := false
		for i := range ports {
			for j := range ports {
				if tokens[i] == tokens[j] && owner[i] != owner[j] && depth[i] < strings.Count(owner[i], ".")+1 {
					depth[i]++
					longer = true
					break
				}
			}
		}
		if !longer {
			break
		}
	}
	taken := map[string]bool{}
	for i, p := range ports {
		tok := tokens[i]
		if taken[tok] {
			tok += "." + lastElem(p.Name())
		}
		for k, base := 1, tok; taken[tok]; k++ {
			tok = fmt.Sprintf("%s[%d]", base, k)
		}
		taken[tok] = true
		tokens[i] = tok
	}
	return tokens
}

// lastElems returns the last n dot-separated elements of name.
func lastElems(name string, n int) string {
	i := len(name)
	for ; n > 0 && i > 0; n-- {
		i = strings.LastIndexByte(name[:i], '.')
		if i < 0 {
			return name
		}
	}
	return name[i+1:]
}

func lastElem(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// checkParams validates link parameters.
func checkParams(kind string, engine sim.Engine, freq sim.Freq, width, latency int) error {
	switch {
	case engine == nil:
		return fmt.Errorf("%s: engine: not set", kind)
	case !(freq > 0) || math.IsInf(float64(freq), 0):
		return fmt.Errorf("%s: freq: %v Hz is not a positive frequency", kind, float64(freq))
	case width < 1:
		return fmt.Errorf("%s: width: %d bytes per cycle, must be at least 1", kind, width)
	case latency < 0:
		return fmt.Errorf("%s: latency: %d cycles, must not be negative", kind, latency)
	}
	return nil
}
