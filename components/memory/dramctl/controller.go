package dramctl

import (
	"fmt"
	"sync"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/timing"
)

// AddressConverter maps a request's (global) address to the channel-local
// address the controller's mapping decodes, and to the address of its bytes
// in the shared storage. components/memory's Memory is one.
type AddressConverter interface {
	LocalAddress(global uint64) uint64
	StorageAddress(global uint64) uint64
}

// identity is the converter of a controller that owns its whole storage.
type identity struct{}

func (identity) LocalAddress(a uint64) uint64   { return a }
func (identity) StorageAddress(a uint64) uint64 { return a }

// plan is a decision made ahead at cycle from, valid while the state's
// version is unchanged: no command may issue in [from, at), and at at the
// command ch issues if ok (otherwise at is only the next cycle to decide).
// It stands for decide at a later cycle, or a second time at from, only when
// stable: deciding again at from would not switch between reads and writes
// (updateMode is a hysteresis whose two thresholds can both hold).
type plan struct {
	from, at int64
	version  uint64
	ch       choice
	ok       bool
	stable   bool
	fast     bool // decided bank by bank (fastScan), no refresh or page close in view
}

// request is an accepted request waiting for its bursts and its response.
type request struct {
	req    sim.Msg // the request (its trace task ends with the response)
	rsp    sim.Msg // *mem.DataReadyRsp or *mem.WriteDoneRsp, built when accepted
	write  bool
	left   int32 // bursts whose column command has not issued
	due    int64 // cycle the last burst's data ends
	recv   int64 // cycle the request entered the Top port
	client *client
}

// Comp is one channel's DRAM controller. See the package documentation.
type Comp struct {
	*timing.TickingComponent
	// Top takes mem.ReadReq and mem.WriteReq and sends mem.DataReadyRsp and
	// mem.WriteDoneRsp.
	Top sim.Port

	cfg        Config
	burstBytes uint64
	mapping    Mapping
	state      *channelState
	storage    *mem.Storage
	conv       AddressConverter
	waker      *timing.Waker
	halt       *timing.Halt
	progress   *timing.Progress
	// quiet bounds the cycles between two commands of a correct controller
	// with work queued (4 times the longest timing, plus the starvation cap
	// and page timeout): until lastIssue+quiet the watchdog takes the
	// channel for busy, after it for hung.
	quiet, lastIssue int64
	checker          *Checker

	mu                  sync.Mutex // Tick against Stats and Buffers (the watchdog's hang report)
	cur                 int64      // commands of cycles before cur have issued
	reads, writes       []burst    // queues, oldest first
	pendRead, pendWrite []int32    // per bank: queued bursts that hit its open row
	writeMode           bool
	reqs                []request
	freeReqs            []int32
	responses           []int32 // requests whose bursts are all issued, by due cycle
	version             uint64  // counts state changes (requests taken, commands issued)
	plan                plan    // the decision wake computed for the next tick
	pred                choice  // decide's prediction of the command at the cycle it returned (fastScan)
	predOK              bool
	decidedFast         bool        // decide's answer came from fastScan alone
	scannedFast         bool        // the last scan was fastScan
	seq                 uint64      // bursts queued so far
	readBanks           bankQueues  // the read queue by bank
	writeBanks          bankQueues  // the write queue by bank
	terms               readyTerms  // fastScan's scratch
	memo                []bankReady // per bank, for scan
	stamp               uint32
	blocked             []bool // per rank: waiting for its refresh (scan)
	stats               stats
}

// Config returns the controller's resolved configuration.
func (c *Comp) Config() Config { return c.cfg }

// Mapping returns the controller's address mapping.
func (c *Comp) Mapping() Mapping { return c.mapping }

// SetHalt sets the platform's halt: a checked run stops through it with the
// first protocol violation. Without one a violation panics.
func (c *Comp) SetHalt(h *timing.Halt) { c.halt = h }

// SetProgress sets the platform's progress: the controller declares to it
// until when committed work keeps it busy (a response's data, the command
// its plan issues), so that the watchdog does not take long DRAM timings for
// a hang.
func (c *Comp) SetProgress(p *timing.Progress) { c.progress = p }

// Checker returns the protocol checker (nil unless Config.Check).
func (c *Comp) Checker() *Checker { return c.checker }

// Tick runs the controller at the current cycle: it issues the commands of
// cycles it slept through (refreshes and page closes of an idle channel),
// accepts the requests waiting in the Top port, issues this cycle's command,
// sends the responses that are due, and asks for a wake-up at the next cycle
// when a command may issue or a response falls due. It returns false: the
// controller is never ticked on cycles where nothing can happen.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.halt.Stopped() {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t := int64(c.Freq.Cycle(now))
	c.catchUp(t)
	c.accept(now, t)
	if c.cur == t {
		if ch, ok, _ := c.planned(t, true); ok {
			c.issue(ch, t)
			c.cur = t + 1
		}
	}
	c.respond(now, t)
	c.wake(now, t)
	return false
}

// Finish issues the commands an idle channel slept through up to end (the
// frame's end: its refreshes and page-policy closes), so that refreshes,
// refresh_cycles and precharges count the whole frame and not only up to the
// channel's last request. The run is over: no timing changes.
func (c *Comp) Finish(end sim.VTimeInSec) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.catchUp(int64(c.Freq.Cycle(end)))
}

// catchUp issues the commands of the cycles before t that the controller did
// not wake for: with no request queued it sleeps through refreshes and page
// closes, which are issued here, at their own cycles, when it wakes again.
func (c *Comp) catchUp(t int64) {
	for c.cur < t {
		ch, ok, next := c.planned(c.cur, false)
		if ok {
			c.issue(ch, c.cur)
			c.cur++
			continue
		}
		c.cur = min(max(next, c.cur+1), t)
	}
}

// wake asks for a tick at the next cycle at which a queued burst's command
// may issue or a response is due. An idle channel sleeps (its refreshes are
// caught up when it wakes), so an idle machine runs out of events.
func (c *Comp) wake(now sim.VTimeInSec, t int64) {
	next := int64(forever)
	busy := int64(0) // until when the channel is known to be busy (see quiet)
	if len(c.responses) > 0 {
		if due := c.reqs[c.responses[0]].due; due > t {
			next, busy = due, due
		}
	}
	if len(c.reads)+len(c.writes) > 0 {
		next = min(next, c.makePlan(max(c.cur, t+1)))
		busy = max(busy, c.lastIssue+c.quiet)
	}
	if busy > t {
		c.progress.BusyUntil(c.Freq.NCyclesLater(int(busy-t), now))
	}
	if next != forever && next > t {
		c.waker.WakeIn(now, int(next-t))
	}
}

// makePlan decides at cycle from and keeps the decision as the plan, unless
// the plan already made covers from; it returns the cycle of the plan's
// command, or the next cycle to decide.
func (c *Comp) makePlan(from int64) int64 {
	if p := &c.plan; p.version == c.version && p.stable && p.from <= from && (from < p.at || from == p.at && p.ok) {
		return p.at // the plan made before still holds at from
	}
	ch, ok, n := c.decide(from)
	if ok {
		n = from
	} else {
		ch, ok = c.pred, c.predOK
	}
	c.plan = plan{from: from, at: n, version: c.version, ch: ch, ok: ok, stable: c.modeAt(from) == c.writeMode,
		fast: c.decidedFast}
	return n
}

// planned returns decide(t), from the plan when that is the same: the state
// unchanged since the plan was made, t within it, and the plan stable or t its
// first cycle on the tick that follows it (tick; the command at the current
// cycle, decided once).
func (c *Comp) planned(t int64, tick bool) (choice, bool, int64) {
	p := &c.plan
	if p.version != c.version || t < p.from || t > p.at || t == p.at && !p.ok || !p.stable && !(tick && t == p.from) {
		return c.decide(t)
	}
	ch, ok, next := p.ch, true, int64(0)
	if t < p.at {
		ch, ok, next = choice{}, false, p.at
	}
	if planHook != nil && !(tick && t == p.from) {
		planHook(c, t, ch, ok, next)
	}
	return ch, ok, next
}

// accept takes requests from the Top port while their bursts fit the queue.
func (c *Comp) accept(now sim.VTimeInSec, t int64) {
	for {
		msg := c.Top.Peek()
		if msg == nil {
			return
		}
		var addr, size uint64
		write := false
		switch m := msg.(type) {
		case *mem.ReadReq:
			addr, size = m.Address, m.AccessByteSize
		case *mem.WriteReq:
			addr, size, write = m.Address, uint64(len(m.Data)), true
		default:
			c.Top.Retrieve(now)
			c.fail(fmt.Errorf("%s: unexpected %T message from %s", c.Name(), msg, msg.Meta().Src.Name()))
			return
		}
		size = max(size, 1)
		local := c.conv.LocalAddress(addr)
		firstBurst, lastBurst := local/c.burstBytes, (local+size-1)/c.burstBytes
		n := int(lastBurst - firstBurst + 1)
		q, room := c.reads, c.cfg.ReadQueue
		if write {
			q, room = c.writes, c.cfg.WriteQueue
		}
		if n > room || c.conv.StorageAddress(addr+size-1) != c.conv.StorageAddress(addr)+size-1 {
			c.Top.Retrieve(now)
			c.fail(fmt.Errorf("%s: request 0x%x of %d bytes from %s spans %d bursts of a %d-burst queue or crosses the channel's interleave granule",
				c.Name(), addr, size, msg.Meta().Src.Name(), n, room))
			return
		}
		if len(q)+n > room {
			return // wait for room; the queue drains at command issue
		}
		c.Top.Retrieve(now)
		if c.NumHooks() > 0 { // the task's IDs are built only for a tracer
			tracing.TraceReqReceive(msg, c)
		}
		c.enqueue(msg, addr, size, write, firstBurst, n, t)
	}
}

// enqueue builds the request's response (reading or writing the storage now,
// so the channel's requests take effect in arrival order) and queues its
// bursts.
func (c *Comp) enqueue(msg sim.Msg, addr, size uint64, write bool, firstBurst uint64, n int, t int64) {
	keep := c.plan.version == c.version && c.plan.fast && c.plan.stable && write == c.writeMode &&
		len(c.activeQueue()) > 0
	c.version++
	slot := c.newRequest()
	r := &c.reqs[slot]
	meta := msg.Meta()
	sa := c.conv.StorageAddress(addr)
	if write {
		m := msg.(*mem.WriteReq)
		c.writeStorage(sa, m.Data, m.DirtyMask)
		r.rsp = mem.WriteDoneRspBuilder{}.WithSrc(c.Top).WithDst(meta.Src).WithRspTo(meta.ID).Build()
	} else {
		data, err := c.storage.Read(sa, size)
		if err != nil {
			c.fail(fmt.Errorf("%s: reading 0x%x: %w", c.Name(), addr, err))
			return
		}
		r.rsp = mem.DataReadyRspBuilder{}.WithSrc(c.Top).WithDst(meta.Src).WithRspTo(meta.ID).WithData(data).Build()
	}
	r.req, r.write, r.left, r.due = msg, write, int32(n), 0
	r.recv = int64(c.Freq.Cycle(meta.RecvTime))
	r.client = c.stats.client(meta.Src)
	c.stats.request(write, size, r.client)
	s := c.state
	c.stats.occupancy(t, len(c.reads), len(c.writes))
	for i := 0; i < n; i++ {
		l := c.mapping.Decode((firstBurst + uint64(i)) * c.burstBytes)
		b := s.bankIndex(l)
		e := burst{seq: c.seq, req: slot, bank: b, row: int32(l.Row), col: int32(l.Column), arrive: t, arrived: arrivedConflict}
		c.seq++
		switch s.openRow[b] {
		case e.row:
			e.arrived = arrivedHit
		case -1:
			e.arrived = arrivedClosed
		}
		keep = keep && c.keepsPlan(b, e.row, t)
		if s.openRow[b] == e.row {
			c.pending(write)[b]++
		}
		if write {
			c.writes = append(c.writes, e)
			c.writeBanks.add(b, e.seq, e.row, s.openRow[b])
		} else {
			c.reads = append(c.reads, e)
			c.readBanks.add(b, e.seq, e.row, s.openRow[b])
		}
	}
	if keep && c.modeAt(t) == c.writeMode {
		c.plan.version = c.version // the new bursts change no decision the plan stands for
	}
}

// activeQueue returns the queue the scheduler serves: the write queue while
// draining writes, the read queue otherwise.
func (c *Comp) activeQueue() []burst {
	if c.writeMode {
		return c.writes
	}
	return c.reads
}

// keepsPlan reports whether a burst of row in bank b, about to join the
// active queue at cycle t, leaves the plan standing (the plan came from the
// bank-by-bank scan): a bank that has bursts already keeps its command (the
// new burst is its youngest) unless the burst is the first to hit its open
// row; a bank that had none gets a command of its own, which must not be
// ready before the plan's cycle, nor at it when it is a column command and the
// plan's is not (the column command would win).
func (c *Comp) keepsPlan(b, row int32, t int64) bool {
	s, p := c.state, &c.plan
	bq, pend := &c.readBanks, c.pendRead
	if c.writeMode {
		bq, pend = &c.writeBanks, c.pendWrite
	}
	open := s.openRow[b]
	if len(bq.lists[b]) > 0 {
		return !(open >= 0 && row == open && pend[b] == 0)
	}
	var ready int64
	column := open >= 0 && row == open
	switch {
	case column && c.writeMode:
		ready = s.writeReady(b)
	case column:
		ready = s.readReady(b)
	case open < 0:
		ready = s.actReady(b)
	default:
		ready = s.preReady(b)
	}
	ready = max(ready, t)
	planColumn := p.ch.kind == CmdRD || p.ch.kind == CmdWR
	return ready > p.at || ready == p.at && (!p.ok || !column || planColumn)
}

func (c *Comp) pending(write bool) []int32 {
	if write {
		return c.pendWrite
	}
	return c.pendRead
}

// writeStorage writes data at storage address sa, only the bytes whose dirty
// mask entry is set when there is a mask.
func (c *Comp) writeStorage(sa uint64, data []byte, dirty []bool) {
	if dirty == nil {
		_ = c.storage.Write(sa, data) // the storage has no capacity limit that a channel can exceed
		return
	}
	for i := 0; i < len(data); {
		if i >= len(dirty) || !dirty[i] {
			i++
			continue
		}
		j := i
		for j < len(data) && j < len(dirty) && dirty[j] {
			j++
		}
		_ = c.storage.Write(sa+uint64(i), data[i:j])
		i = j
	}
}

func (c *Comp) newRequest() int32 {
	if n := len(c.freeReqs); n > 0 {
		slot := c.freeReqs[n-1]
		c.freeReqs = c.freeReqs[:n-1]
		return slot
	}
	c.reqs = append(c.reqs, request{})
	return int32(len(c.reqs) - 1)
}

// issue carries out the chosen command at cycle t.
func (c *Comp) issue(ch choice, t int64) {
	c.version++
	c.lastIssue = t
	s := c.state
	cmd := Command{Cycle: t, Kind: ch.kind, Row: int(ch.row)}
	cmd.Rank, cmd.BankGroup, cmd.Bank = s.location(ch.bank)
	switch ch.kind {
	case CmdACT:
		s.activate(ch.bank, ch.row, t)
		c.recountHits(ch.bank)
		c.stats.activates++
	case CmdPRE:
		s.precharge(ch.bank, t)
		c.recountHits(ch.bank)
		c.stats.precharges++
	case CmdREF:
		cmd = Command{Cycle: t, Kind: CmdREF, Rank: int(ch.refRank)}
		s.refresh(int(ch.refRank), t)
		c.stats.refreshes++
	default:
		cmd.Column = c.column(ch, t)
	}
	if c.checker != nil {
		if err := c.checker.Record(cmd); err != nil {
			c.fail(fmt.Errorf("%s: %w", c.Name(), err))
		}
	}
}

// column issues the RD or WR of queue entry ch.entry at cycle t and returns
// its column.
func (c *Comp) column(ch choice, t int64) int {
	s := c.state
	write := ch.kind == CmdWR
	q, bq := &c.reads, &c.readBanks
	if write {
		q, bq = &c.writes, &c.writeBanks
	}
	c.stats.occupancy(t, len(c.reads), len(c.writes))
	e := (*q)[ch.entry]
	*q = append((*q)[:ch.entry], (*q)[ch.entry+1:]...)
	bq.remove(e.bank, e.seq, s.openRow[e.bank])
	c.pending(write)[e.bank]--
	var end int64
	if write {
		end = s.write(e.bank, t)
	} else {
		end = s.read(e.bank, t)
	}
	switch {
	case s.actAt[e.bank] < e.arrive:
		c.stats.rowHits++
	case e.arrived == arrivedConflict:
		c.stats.rowConflicts++
	default:
		c.stats.rowMisses++
	}
	r := &c.reqs[e.req]
	r.due = max(r.due, end)
	if r.left--; r.left == 0 {
		c.addResponse(e.req)
	}
	return int(e.col)
}

// recountHits counts the queued bursts that hit bank b's newly opened row
// (none when it closed).
func (c *Comp) recountHits(b int32) {
	row := c.state.openRow[b]
	c.pendRead[b], c.pendWrite[b] = c.readBanks.reopen(b, row), c.writeBanks.reopen(b, row)
}

// addResponse inserts request slot into the responses, ordered by due cycle
// (then by completion order).
func (c *Comp) addResponse(slot int32) {
	due := c.reqs[slot].due
	c.responses = append(c.responses, slot)
	i := len(c.responses) - 1
	for i > 0 && c.reqs[c.responses[i-1]].due > due {
		c.responses[i] = c.responses[i-1]
		i--
	}
	c.responses[i] = slot
}

// respond sends the responses due by cycle t, in due order, while the port
// takes them (a refused send is retried when the port frees).
func (c *Comp) respond(now sim.VTimeInSec, t int64) {
	for len(c.responses) > 0 {
		slot := c.responses[0]
		r := &c.reqs[slot]
		if r.due > t {
			return
		}
		r.rsp.Meta().SendTime = now
		if c.Top.Send(r.rsp) != nil {
			return
		}
		c.stats.response(r.write, t-r.recv, t)
		if c.NumHooks() > 0 {
			tracing.TraceReqComplete(r.req, c)
		}
		copy(c.responses, c.responses[1:])
		c.responses = c.responses[:len(c.responses)-1]
		*r = request{}
		c.freeReqs = append(c.freeReqs, slot)
	}
}

// fail stops the run with err through the halt (a panic without one).
func (c *Comp) fail(err error) { c.halt.Fail(err) }

// Buffers reports the read and write queues (in bursts) and the requests in
// flight (accepted and not answered).
func (c *Comp) Buffers() []timing.BufferState {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.Name()
	return []timing.BufferState{
		{Name: n + ".ReadQueue", Len: len(c.reads), Cap: c.cfg.ReadQueue},
		{Name: n + ".WriteQueue", Len: len(c.writes), Cap: c.cfg.WriteQueue},
		{Name: n + ".InFlight", Len: len(c.reqs) - len(c.freeReqs)},
	}
}
