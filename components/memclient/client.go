package memclient

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/timing"
)

// Config configures a Client. Zero fields take the defaults.
type Config struct {
	// MaxOutstanding is the number of memory requests in flight at once, like
	// a cache's MSHRs (default 16).
	MaxOutstanding int
	// MergeReads lets a read whose bytes lie inside an outstanding read (the
	// same line, for line-sized requests) wait for that read's response instead
	// of sending its own request.
	MergeReads bool
	// MaxMerged is the number of reads that can wait on one outstanding read
	// (default 8; used only with MergeReads).
	MaxMerged int
	// Progress, when set, counts every response as progress for the
	// platform's watchdog: a unit whose work is memory traffic (the tiled
	// machine's binner and tile units) progresses while it waits on a slow
	// memory.
	Progress *timing.Progress
}

// WithDefaults returns c with zero fields replaced by their defaults.
func (c Config) WithDefaults() Config {
	if c.MaxOutstanding == 0 {
		c.MaxOutstanding = 16
	}
	if c.MaxMerged == 0 {
		c.MaxMerged = 8
	}
	return c
}

// Validate checks c after defaults; the error names the bad field.
func (c Config) Validate() error {
	c = c.WithDefaults()
	if c.MaxOutstanding < 1 || c.MaxOutstanding > 1<<16 {
		return fmt.Errorf("MaxOutstanding: %d is outside [1, 65536]", c.MaxOutstanding)
	}
	if c.MaxMerged < 1 || c.MaxMerged > 1<<10 {
		return fmt.Errorf("MaxMerged: %d is outside [1, 1024]", c.MaxMerged)
	}
	return nil
}

// Completion reports one finished request.
type Completion struct {
	// Tag is the caller's tag given to Read or Write.
	Tag uint64
	// Addr and Size are the request's address and size in bytes.
	Addr, Size uint64
	// Write is true for a write.
	Write bool
	// Merged is true for a read that waited on another read's response.
	Merged bool
	// Data holds the Size bytes read (nil for writes). It aliases the response
	// message and is shared with merged reads: treat it as read-only.
	Data []byte
	// Latency is the cycles (client clock) from the Read/Write call to Receive.
	Latency uint64
}

type entry struct {
	id              string
	addr, size, tag uint64
	write, noMerge  bool
	issued          sim.VTimeInSec
	nMerged         int
}

type waiter struct {
	addr, size, tag uint64
	issued          sim.VTimeInSec
}

// Client issues memory requests over one port and matches the responses. It is
// not safe for concurrent use; the owning component calls it from its Tick.
type Client struct {
	port   sim.Port
	finder mem.LowModuleFinder
	freq   sim.Freq
	cfg    Config

	entries []entry  // fixed pool, MaxOutstanding
	free    []int    // free entry indices (stack)
	active  []int    // in-flight entry indices, in issue order
	waiters []waiter // entry i owns waiters[i*MaxMerged : (i+1)*MaxMerged]

	// A response whose merged reads are still being handed out by Receive.
	drainEntry int // -1 when none
	drainNext  int
	drainData  []byte

	arrived []Completion // ReceiveAll's result, reused

	traceDomain tracing.NamedHookable
	traceParent string

	st                        counters
	blockedCycles             uint64
	blocked                   bool
	blockedSince, lastRefused uint64
}

// counters are the client's statistics, named by their tags (Stats).
type counters struct {
	reads        uint64 `stat:"reads"`
	readsMerged  uint64 `stat:"reads_merged"`
	writes       uint64 `stat:"writes"`
	bytesRead    uint64 `stat:"bytes_read"`
	bytesWritten uint64 `stat:"bytes_written"`
	latMax       uint64 `stat:"latency_max"`
	refusedFull  uint64 `stat:"refused_full"`
	refusedPort  uint64 `stat:"refused_port"`
	readsDone    uint64
	writesDone   uint64
	readLatSum   uint64
	writeLatSum  uint64
}

// New returns a client that sends from port (whose component owns the client)
// to the port finder chooses for each address; freq is the owner's clock, in
// which latencies and blocked cycles are counted.
func New(port sim.Port, finder mem.LowModuleFinder, freq sim.Freq, cfg Config) (*Client, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("memclient: %w", err)
	}
	if port == nil || finder == nil {
		return nil, fmt.Errorf("memclient: a port and a finder are required")
	}
	if !(freq > 0) {
		return nil, fmt.Errorf("memclient: frequency %v is not positive", float64(freq))
	}
	c := &Client{
		port:       port,
		finder:     finder,
		freq:       freq,
		cfg:        cfg,
		entries:    make([]entry, cfg.MaxOutstanding),
		free:       make([]int, cfg.MaxOutstanding),
		active:     make([]int, 0, cfg.MaxOutstanding),
		drainEntry: -1,
	}
	for i := range c.free {
		c.free[i] = cfg.MaxOutstanding - 1 - i
	}
	if cfg.MergeReads {
		c.waiters = make([]waiter, cfg.MaxOutstanding*cfg.MaxMerged)
	}
	return c, nil
}

// TraceAs makes the client record Akita req_out tasks (TraceReqInitiate and its
// end) in domain, the owning component, under parent task parentID, whenever
// the domain has hooks attached.
func (c *Client) TraceAs(domain tracing.NamedHookable, parentID string) {
	c.traceDomain, c.traceParent = domain, parentID
}

// Outstanding returns the memory requests in flight (at most MaxOutstanding).
func (c *Client) Outstanding() int {
	n := len(c.active)
	if c.drainEntry >= 0 {
		n++
	}
	return n
}

// Idle reports whether no request is pending (sent or merged) and no completion
// is waiting to be received.
func (c *Client) Idle() bool { return c.Outstanding() == 0 }

// Read asks for size bytes at addr; the completion carries tag. It returns false,
// and sends nothing, when the request cannot be issued this cycle: all
// MaxOutstanding entries are in flight, or the port cannot send. The owner's
// component is ticked again when a response arrives or the port frees up.
func (c *Client) Read(now sim.VTimeInSec, addr, size, tag uint64) bool {
	if c.cfg.MergeReads && c.merge(now, addr, size, tag) {
		return true
	}
	dst, ok := c.canIssue(now, addr)
	if !ok {
		return false
	}
	req := mem.ReadReqBuilder{}.
		WithSrc(c.port).
		WithDst(dst).
		WithAddress(addr).
		WithByteSize(size).
		WithSendTime(now).
		Build()
	if c.port.Send(req) != nil {
		c.refuse(now, &c.st.refusedPort)
		return false
	}
	c.issued(now, req, req.ID, addr, size, tag, false)
	c.st.reads++
	c.st.bytesRead += size
	return true
}

// Write stores data at addr; the completion carries tag. The client keeps data
// (no copy) until the memory has taken it: do not modify it before the
// completion. It returns false like Read.
func (c *Client) Write(now sim.VTimeInSec, addr uint64, data []byte, tag uint64) bool {
	dst, ok := c.canIssue(now, addr)
	if !ok {
		return false
	}
	req := mem.WriteReqBuilder{}.
		WithSrc(c.port).
		WithDst(dst).
		WithAddress(addr).
		WithData(data).
		WithSendTime(now).
		Build()
	if c.port.Send(req) != nil {
		c.refuse(now, &c.st.refusedPort)
		return false
	}
	size := uint64(len(data))
	// A read issued before this write must not serve reads issued after it.
	for _, i := range c.active {
		e := &c.entries[i]
		if !e.write && addr < e.addr+e.size && e.addr < addr+size {
			e.noMerge = true
		}
	}
	c.issued(now, req, req.ID, addr, size, tag, true)
	c.st.writes++
	c.st.bytesWritten += size
	return true
}

// merge attaches a read to an outstanding read that holds its bytes.
func (c *Client) merge(now sim.VTimeInSec, addr, size, tag uint64) bool {
	for _, i := range c.active {
		e := &c.entries[i]
		if e.write || e.noMerge || addr < e.addr || addr+size > e.addr+e.size ||
			addr+size < addr || e.nMerged == c.cfg.MaxMerged {
			continue
		}
		c.waiters[i*c.cfg.MaxMerged+e.nMerged] = waiter{addr: addr, size: size, tag: tag, issued: now}
		e.nMerged++
		c.st.reads++
		c.st.readsMerged++
		c.accepted(now)
		return true
	}
	return false
}

func (c *Client) canIssue(now sim.VTimeInSec, addr uint64) (sim.Port, bool) {
	if len(c.free) == 0 {
		c.refuse(now, &c.st.refusedFull)
		return nil, false
	}
	if !c.port.CanSend() {
		c.refuse(now, &c.st.refusedPort)
		return nil, false
	}
	dst := c.finder.Find(addr)
	if dst == nil {
		panic(fmt.Sprintf("memclient %s: the finder has no destination for address 0x%x",
			c.port.Name(), addr))
	}
	return dst, true
}

func (c *Client) issued(now sim.VTimeInSec, msg sim.Msg, id string, addr, size, tag uint64, write bool) {
	i := c.free[len(c.free)-1]
	c.free = c.free[:len(c.free)-1]
	c.entries[i] = entry{id: id, addr: addr, size: size, tag: tag, write: write, issued: now}
	c.active = append(c.active, i)
	c.accepted(now)
	if c.traceDomain != nil && c.traceDomain.NumHooks() > 0 {
		tracing.TraceReqInitiate(msg, c.traceDomain, c.traceParent)
	}
}

func (c *Client) refuse(now sim.VTimeInSec, counter *uint64) {
	*counter++
	cy := c.freq.Cycle(now)
	if !c.blocked {
		c.blocked, c.blockedSince = true, cy
	}
	c.lastRefused = cy
}

func (c *Client) accepted(now sim.VTimeInSec) {
	if c.blocked {
		c.blockedCycles += c.freq.Cycle(now) - c.blockedSince
		c.blocked = false
	}
}

// Waiting reports whether Receive has a completion to return.
func (c *Client) Waiting() bool { return c.drainEntry >= 0 || c.port.Peek() != nil }

// Receive returns the next finished request, taking at most one response from
// the port per call (a response with merged reads yields one completion per
// call, the original read first). Call it until it returns false. The port must
// carry only responses to this client's requests; anything else is a wiring
// error and panics.
func (c *Client) Receive(now sim.VTimeInSec) (Completion, bool) {
	if c.drainEntry >= 0 {
		return c.nextMerged(now), true
	}
	msg := c.port.Peek()
	if msg == nil {
		return Completion{}, false
	}
	var rspTo string
	var data []byte
	switch m := msg.(type) {
	case *mem.DataReadyRsp:
		rspTo, data = m.RespondTo, m.Data
	case *mem.WriteDoneRsp:
		rspTo = m.RespondTo
	default:
		panic(fmt.Sprintf("memclient %s: unexpected message %T on a memory port", c.port.Name(), msg))
	}
	pos := -1
	for k, i := range c.active {
		if c.entries[i].id == rspTo {
			pos = k
			break
		}
	}
	if pos < 0 {
		panic(fmt.Sprintf("memclient %s: response to unknown request %s", c.port.Name(), rspTo))
	}
	c.port.Retrieve(now)
	c.cfg.Progress.Add(1)
	i := c.active[pos]
	c.active = append(c.active[:pos], c.active[pos+1:]...)
	e := &c.entries[i]
	if c.traceDomain != nil && c.traceDomain.NumHooks() > 0 {
		tracing.EndTask(e.id+"_req_out", c.traceDomain)
	}
	comp := Completion{Tag: e.tag, Addr: e.addr, Size: e.size, Write: e.write,
		Latency: c.cycles(e.issued, now)}
	if e.write {
		c.st.writesDone++
		c.st.writeLatSum += comp.Latency
	} else {
		comp.Data = clip(data, 0, e.size)
		c.st.readsDone++
		c.st.readLatSum += comp.Latency
	}
	c.st.latMax = max(c.st.latMax, comp.Latency)
	if e.nMerged > 0 {
		c.drainEntry, c.drainNext, c.drainData = i, 0, data
	} else {
		c.release(i)
	}
	return comp, true
}

// ReceiveAll calls Receive until it returns false and returns the completions,
// in Receive's order, in a slice the client reuses: it is valid until the next
// ReceiveAll. It is the receive loop of a component that handles its
// completions without issuing requests in between (so that no entry it frees
// could have served a new request sooner); an empty result means nothing
// arrived.
func (c *Client) ReceiveAll(now sim.VTimeInSec) []Completion {
	c.arrived = c.arrived[:0]
	for {
		comp, ok := c.Receive(now)
		if !ok {
			return c.arrived
		}
		c.arrived = append(c.arrived, comp)
	}
}

func (c *Client) nextMerged(now sim.VTimeInSec) Completion {
	i := c.drainEntry
	e := &c.entries[i]
	w := c.waiters[i*c.cfg.MaxMerged+c.drainNext]
	c.drainNext++
	off := w.addr - e.addr
	comp := Completion{Tag: w.tag, Addr: w.addr, Size: w.size, Merged: true,
		Data: clip(c.drainData, off, w.size), Latency: c.cycles(w.issued, now)}
	c.st.readsDone++
	c.st.readLatSum += comp.Latency
	c.st.latMax = max(c.st.latMax, comp.Latency)
	if c.drainNext == e.nMerged {
		c.drainEntry, c.drainData = -1, nil
		c.release(i)
	}
	return comp
}

func (c *Client) release(i int) {
	c.entries[i] = entry{}
	c.free = append(c.free, i)
}

// clip returns data[off:off+n] within bounds.
func clip(data []byte, off, n uint64) []byte {
	l := uint64(len(data))
	if off > l {
		off = l
	}
	end := off + n
	if end > l || end < off {
		end = l
	}
	return data[off:end:end]
}

func (c *Client) cycles(from, to sim.VTimeInSec) uint64 {
	a, b := c.freq.Cycle(from), c.freq.Cycle(to)
	if b < a {
		return 0
	}
	return b - a
}

// Stats reports the client's counters as <prefix>.<counter>: reads (including
// merged ones), reads_merged, writes, bytes_read and bytes_written (bytes sent in
// requests; merged reads add none), latency_avg, read_latency_avg,
// write_latency_avg and latency_max (cycles from the Read/Write call to Receive),
// cycles_blocked (from the first refused call to the next accepted one; an open
// interval counts up to the last refused call), refused_full (all entries in
// flight) and refused_port (the port could not send), and outstanding.
func (c *Client) Stats(prefix string, add func(string, float64)) {
	p := prefix + "."
	blocked := c.blockedCycles
	if c.blocked {
		blocked += c.lastRefused + 1 - c.blockedSince
	}
	s := &c.st
	timing.AddTagged(p, add, s)
	add(p+"latency_avg", timing.Ratio(s.readLatSum+s.writeLatSum, s.readsDone+s.writesDone))
	add(p+"read_latency_avg", timing.Ratio(s.readLatSum, s.readsDone))
	add(p+"write_latency_avg", timing.Ratio(s.writeLatSum, s.writesDone))
	add(p+"cycles_blocked", float64(blocked))
	add(p+"outstanding", float64(c.Outstanding()))
}

// Buffer describes the client's request entries for hang reports.
func (c *Client) Buffer(name string) timing.BufferState {
	return timing.BufferState{Name: name, Len: c.Outstanding(), Cap: c.cfg.MaxOutstanding}
}
