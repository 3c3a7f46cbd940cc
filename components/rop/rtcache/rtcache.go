package rtcache

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/timing"
)

// Config is the geometry of a render-target cache and its memory interface.
type Config struct {
	Size     int // bytes
	Ways     int
	LineSize int // bytes, a power of two
	// MaxOutstanding is the number of memory requests (line reads and writes)
	// in flight at once.
	MaxOutstanding int
	// WriteQueue is the number of line writes that may wait to be issued before
	// the cache refuses accesses that could evict another dirty line.
	WriteQueue int
	// Compression enables MSAA colour compression of the surfaces registered
	// with SetSurface (see the package documentation).
	Compression bool
	// MinBlock is the smallest compressed block worth moving, in bytes: the
	// memory's access unit (0 means DefaultMinBlock). A surface whose
	// compressed block (LineSize/samples) is smaller is never compressed.
	MinBlock int
}

// DefaultMinBlock is the default MinBlock: the 64-byte access unit of a 64-bit
// GDDR5 channel with bursts of 8.
const DefaultMinBlock = 64

func (c Config) minBlock() int {
	if c.MinBlock == 0 {
		return DefaultMinBlock
	}
	return c.MinBlock
}

// Validate checks the configuration; the error names the bad field.
func (c Config) Validate() error {
	if c.LineSize < 4 || c.LineSize > 4096 || c.LineSize&(c.LineSize-1) != 0 {
		return fmt.Errorf("LineSize: %d is not a power of two in [4, 4096]", c.LineSize)
	}
	if c.Ways < 1 {
		return fmt.Errorf("Ways: %d must be at least 1", c.Ways)
	}
	if _, err := timing.NewTagArray(c.Size, c.Ways, c.LineSize); err != nil {
		return fmt.Errorf("Size: %w", err)
	}
	if c.MaxOutstanding < 1 || c.MaxOutstanding > 1<<16 {
		return fmt.Errorf("MaxOutstanding: %d is outside [1, 65536]", c.MaxOutstanding)
	}
	if c.WriteQueue < 1 {
		return fmt.Errorf("WriteQueue: %d must be at least 1", c.WriteQueue)
	}
	if c.MinBlock != 0 && (c.MinBlock < 1 || c.MinBlock > 4096 || c.MinBlock&(c.MinBlock-1) != 0) {
		return fmt.Errorf("MinBlock: %d is not 0 or a power of two in [1, 4096]", c.MinBlock)
	}
	return nil
}

// ValidateAs is Validate with the bad field named as one of the owner's
// field (field "Cache": "Cache.LineSize: ...").
func (c Config) ValidateAs(field string) error {
	if err := c.Validate(); err != nil {
		return fmt.Errorf("%s.%w", field, err)
	}
	return nil
}

// Token identifies a reader waiting for a line (the owner's choice: typically a
// slot in its queue of quads waiting for their lines).
type Token uint32

// Result is the outcome of Access.
type Result uint8

// Access results.
const (
	// Hit: the line is present.
	Hit Result = iota
	// ClearedFill: the line was absent but fast-cleared; it is present now and
	// cost no memory read.
	ClearedFill
	// Miss: the line was absent; a read was sent and the token will be woken
	// when it arrives.
	Miss
	// MergedMiss: the line was already being read; the token waits for that read.
	MergedMiss
	// Overwrite: the line was absent, but the reader overwrites all of it
	// (AccessOverwrite): it is present now and cost no memory read.
	Overwrite
	// Blocked: the line is absent and no read can be issued this cycle (all
	// memory requests in flight, the port busy, or the write queue full). Nothing
	// changed: try again later.
	Blocked
)

// Pending reports whether the reader must wait for the line.
func (r Result) Pending() bool { return r == Miss || r == MergedMiss }

// PrefetchResult is the outcome of Prefetch.
type PrefetchResult uint8

// Prefetch results.
const (
	// PrefetchNotNeeded: the line is present, being read, or fast-cleared (a
	// miss on it costs no read); nothing was sent.
	PrefetchNotNeeded PrefetchResult = iota
	// PrefetchIssued: a read of the line was sent.
	PrefetchIssued
	// PrefetchBlocked: the read would take one of the reserved memory-request
	// slots (or the write queue is full, or the port busy); nothing changed.
	PrefetchBlocked
)

// PrefetchCounters counts the prefetches and what became of them. Every
// prefetch issued ends as exactly one of useful, late or useless, or is still
// in flight or cached unused. The tags name them in the owner's statistics
// (the ROP's prefetch_<tag>).
type PrefetchCounters struct {
	// Issued: line reads sent by Prefetch.
	Issued uint64 `stat:"issued"`
	// Useful: prefetched lines a demand access (Access, AccessOverwrite or
	// Write) used while they were cached.
	Useful uint64 `stat:"useful"`
	// Late: prefetches a demand access found still in flight (it waited for
	// the read, as a merged miss).
	Late uint64 `stat:"late"`
	// Useless: prefetched lines evicted, dropped (Clear, Invalidate) or
	// flushed (Flush) unused, or arriving for a line already present.
	Useless uint64 `stat:"useless"`
}

// lineWrite is a line write waiting to be issued: a write-back (data nil: the
// bytes are taken from the memory image when the write is issued) or a write of
// given bytes that bypasses the cache (the ROP's resolve).
type lineWrite struct {
	addr uint64
	data []byte
	task string // tracing: the task that caused the write
}

// clearRegion is a fast-cleared address range with its per-line cleared bits.
type clearRegion struct {
	lo, hi uint64
	tags   *timing.ClearTags
}

// Cache is a write-back, write-allocate render-target cache. It keeps tags only:
// the data lives in the memory image, which the functional model reads and
// writes directly; the cache decides which memory traffic that costs. See the
// package documentation.
type Cache struct {
	cfg    Config
	tags   *timing.TagArray
	client *memclient.Client
	lines  uint64 // line size

	reads   Reads[Token] // line reads in flight
	writes  []lineWrite  // FIFO from writeHead
	wHead   int
	clears  []clearRegion
	surfs   []surface // surfaces registered for compression
	victim  []uint64  // scratch for Flush
	onEvict func(line uint64, dirty bool)
	onWrite func(line, size uint64)

	domain tracing.NamedHookable // tracing: the owning component (TraceAs)
	cause  string                // tracing: the task the owner works for now

	st       Counters // statistics
	prefetch PrefetchCounters
}

// New returns a cache that talks to memory through port (owned by the
// cache's component, whose clock is freq); finder picks the memory module of
// an address when a request is issued.
func New(port sim.Port, finder mem.LowModuleFinder, freq sim.Freq, cfg Config) (*Cache, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	tags, err := timing.NewTagArray(cfg.Size, cfg.Ways, cfg.LineSize)
	if err != nil {
		return nil, fmt.Errorf("Size: %w", err)
	}
	client, err := memclient.New(port, finder, freq, memclient.Config{MaxOutstanding: cfg.MaxOutstanding})
	if err != nil {
		return nil, err
	}
	c := &Cache{cfg: cfg, tags: tags, client: client, lines: uint64(cfg.LineSize),
		reads: Reads[Token]{fills: make([]Fill[Token], 0, cfg.MaxOutstanding)}}
	return c, nil
}

// Client returns the memory client (for tracing).
func (c *Cache) Client() *memclient.Client { return c.client }

// TraceAs makes the cache record its memory requests as Akita req_out tasks of
// domain, the owning component, whenever the domain has hooks: a line read below
// the task set by SetCause before the access that missed, a write below the task
// that was current when its line was evicted (for an eviction by a fill: the
// task whose access sent the read), flushed or queued.
func (c *Cache) TraceAs(domain tracing.NamedHookable) { c.domain = domain }

// SetCause sets the task (its ID) the owner works for now: the memory requests
// its next accesses, writes and flushes cause hang below it in a trace. Call it
// only when tracing (the ID costs an allocation).
func (c *Cache) SetCause(id string) { c.cause = id }

func (c *Cache) traced() bool { return c.domain != nil && c.domain.NumHooks() > 0 }

// LineSize returns the line size in bytes.
func (c *Cache) LineSize() uint64 { return c.lines }

// Line returns the address of the line holding addr.
func (c *Cache) Line(addr uint64) uint64 { return addr &^ (c.lines - 1) }

// Present reports whether the line holding addr is in the cache (no LRU update).
func (c *Cache) Present(addr uint64) bool { return c.tags.Contains(addr) }

// Cleared reports whether the line holding addr is in the fast-cleared state.
func (c *Cache) Cleared(addr uint64) bool {
	line := c.Line(addr)
	for i := range c.clears {
		if c.clears[i].tags.Cleared(line) {
			return true
		}
	}
	return false
}

func (c *Cache) unsetCleared(line uint64) {
	for i := range c.clears {
		c.clears[i].tags.Unset(line)
	}
}

// writeRoom reports whether the write queue accepts n more write-backs. An
// empty queue accepts any n: a quad whose samples span more lines than the
// queue holds (4-byte lines at 27 or 64 samples) still makes progress, and the
// queue exceeds WriteQueue only then.
func (c *Cache) writeRoom(n int) bool {
	q := len(c.writes) - c.wHead
	return q+n <= c.cfg.WriteQueue || q == 0
}

// Access looks up the line holding addr for reader t; see Result. A miss on a
// cleared line fills it at once; another miss sends a line read and registers t
// to be woken (Receive) when it arrives.
func (c *Cache) Access(now sim.VTimeInSec, addr uint64, t Token) Result {
	return c.access(now, addr, t, false)
}

// AccessOverwrite is Access for a reader that overwrites every byte of the line
// without reading it (an opaque write of all its samples): an absent line that is
// not being read is allocated at once, without a memory read (write-allocate
// without fetch).
func (c *Cache) AccessOverwrite(now sim.VTimeInSec, addr uint64, t Token) Result {
	return c.access(now, addr, t, true)
}

func (c *Cache) access(now sim.VTimeInSec, addr uint64, t Token, overwrite bool) Result {
	line := c.Line(addr)
	if c.tags.Lookup(line) {
		c.st.Hits++
		c.usePrefetched(line)
		return Hit
	}
	if f := c.reads.Find(line); f != nil {
		c.st.Misses++
		c.st.MergedMisses++
		if f.Prefetch && len(f.Waiters) == 0 {
			c.prefetch.Late++
		}
		f.Waiters = append(f.Waiters, t)
		return MergedMiss
	}
	if !c.writeRoom(1) {
		return Blocked
	}
	if c.Cleared(line) {
		c.st.Misses++
		c.st.ClearedFills++
		c.allocate(line)
		return ClearedFill
	}
	if overwrite {
		c.st.Misses++
		c.st.OverwriteFills++
		c.allocate(line)
		return Overwrite
	}
	if !c.readLine(now, line, t, false) {
		return Blocked
	}
	c.st.Misses++
	return Miss
}

// readLine sends the read of line (its stored size: compressed lines read
// less) and records its fill, which wakes reader t when it arrives, or no
// reader for a prefetch; false: the memory client refused the read.
func (c *Cache) readLine(now sim.VTimeInSec, line uint64, t Token, prefetch bool) bool {
	size, kind := c.readSize(line)
	if c.traced() {
		c.client.TraceAs(c.domain, c.cause)
	}
	if !c.client.Read(now, line, size, line) {
		return false
	}
	c.count(kind, size, false)
	c.st.LineReads++
	c.st.BytesRead += size
	w := c.reads.Spare()
	if !prefetch {
		w = append(w, t)
	}
	c.reads.Add(Fill[Token]{Line: line, Waiters: w, Task: c.cause, Prefetch: prefetch})
	return true
}

// usePrefetched counts the first demand use of a prefetched line.
func (c *Cache) usePrefetched(line uint64) {
	if c.prefetch.Issued > 0 && c.tags.UsePrefetched(line) {
		c.prefetch.Useful++
	}
}

// dropPrefetched counts the prefetched lines of [lo, hi) never used as
// useless and takes their marks off (before they leave or are flushed).
func (c *Cache) dropPrefetched(lo, hi uint64) {
	if c.prefetch.Issued > 0 {
		c.prefetch.Useless += uint64(c.tags.DropPrefetched(lo, hi))
	}
}

// Prefetch reads the line holding addr ahead of need, unless it is present,
// already being read or fast-cleared (PrefetchNotNeeded). The read is sent
// only while more than reserve memory-request slots stay free, counting the
// requests in flight and the writes waiting to be issued (so that a
// prefetch never takes one of the last reserve slots a demand miss or a
// write-back needs), and while the write queue has room for the line's
// victim; otherwise nothing changes (PrefetchBlocked). The line arrives as a
// demand read's does (Receive), marked as prefetched until its first use.
func (c *Cache) Prefetch(now sim.VTimeInSec, addr uint64, reserve int) PrefetchResult {
	line := c.Line(addr)
	if c.tags.Contains(line) || c.reads.Find(line) != nil || c.Cleared(line) {
		return PrefetchNotNeeded
	}
	if c.client.Outstanding()+c.WritesQueued()+reserve >= c.cfg.MaxOutstanding || !c.writeRoom(1) {
		return PrefetchBlocked
	}
	if !c.readLine(now, line, 0, true) {
		return PrefetchBlocked
	}
	c.prefetch.Issued++
	return PrefetchIssued
}

// PrefetchCounters returns the prefetch counters.
func (c *Cache) PrefetchCounters() PrefetchCounters { return c.prefetch }

// allocate puts line in the cache, queueing a dirty victim's write-back.
func (c *Cache) allocate(line uint64) {
	v, evicted := c.tags.Fill(line)
	if !evicted {
		return
	}
	c.st.Evictions++
	if v.Prefetched {
		c.prefetch.Useless++
	}
	if v.Dirty {
		c.writes = append(c.writes, lineWrite{addr: v.Line, task: c.cause})
	}
	if c.onEvict != nil {
		c.onEvict(v.Line, v.Dirty)
	}
}

// SetEvictHook installs f, called with every line the cache evicts to make
// room (not lines dropped by Clear), after its write-back was queued (the depth
// unit's eviction-triggered HiZ feedback). nil removes it.
func (c *Cache) SetEvictHook(f func(line uint64, dirty bool)) { c.onEvict = f }

// CanWrite reports whether n lines can be written now: writing an absent line
// allocates it and may evict a dirty line into the write queue.
func (c *Cache) CanWrite(n int) bool { return c.writeRoom(n) }

// Write marks the line holding addr dirty after the functional model wrote it;
// an absent line (evicted since its lookup) is allocated again without a read
// (the unit holds its data). The line leaves the fast-cleared state.
func (c *Cache) Write(addr uint64) {
	line := c.Line(addr)
	if !c.tags.Contains(line) {
		c.allocate(line)
	}
	c.usePrefetched(line)
	c.tags.MarkDirty(line)
	c.unsetCleared(line)
	if c.onWrite != nil {
		c.onWrite(line, c.lines)
	}
}

// SetWriteHook installs f, called with every line Write marks dirty and the
// line size (the coherence checker: a write completes in this cache). nil
// removes it.
func (c *Cache) SetWriteHook(f func(line, size uint64)) { c.onWrite = f }

// Receive handles the memory responses that arrived: a line read fills its
// line (the victim's write-back is queued when it is dirty) and wakes its
// waiting readers in the order they asked. It returns whether anything arrived.
func (c *Cache) Receive(now sim.VTimeInSec, wake func(Token)) bool {
	progress := false
	for {
		f, arrived, ok, err := c.reads.Next(c.client, now)
		progress = progress || arrived
		if err != nil {
			panic("rtcache: " + err.Error())
		}
		if !ok {
			return progress
		}
		if c.tags.Contains(f.Line) {
			c.tags.Lookup(f.Line)
			if f.Prefetch && len(f.Waiters) == 0 {
				c.prefetch.Useless++ // written meanwhile (Write allocates): the read brought nothing
			}
		} else {
			cause := c.cause
			c.cause = f.Task
			c.allocate(f.Line)
			c.cause = cause
			if f.Prefetch && len(f.Waiters) == 0 {
				c.tags.MarkPrefetched(f.Line)
			}
		}
		for _, t := range f.Waiters {
			wake(t)
		}
		c.reads.Recycle(f.Waiters)
	}
}

// QueueWrite queues a write of data (a whole line, not cached) at addr.
func (c *Cache) QueueWrite(addr uint64, data []byte) {
	c.writes = append(c.writes, lineWrite{addr: addr, data: data, task: c.cause})
}

// Issue sends queued writes, oldest first, as long as the memory client
// accepts them. A write-back carries the bytes the memory image holds now. It
// returns whether a write was sent.
func (c *Cache) Issue(now sim.VTimeInSec, image command.Memory) bool {
	progress := false
	for c.wHead < len(c.writes) {
		if c.client.Outstanding() >= c.cfg.MaxOutstanding {
			break
		}
		w := &c.writes[c.wHead]
		data := w.data
		kind := plainLine
		if data == nil {
			data = make([]byte, c.lines)
			if image != nil {
				image.ReadAt(data, w.addr)
			}
			var size uint64
			size, kind = c.writeBackSize(w.addr, data)
			data = data[:size]
		}
		if c.traced() {
			c.client.TraceAs(c.domain, w.task)
		}
		if !c.client.Write(now, w.addr, data, w.addr) {
			break
		}
		if w.data == nil {
			c.count(kind, uint64(len(data)), true)
			c.st.WriteBacks++
		} else {
			c.st.UncachedWrites++
		}
		c.st.BytesWritten += uint64(len(data))
		*w = lineWrite{}
		c.wHead++
		progress = true
	}
	c.writes, c.wHead = timing.Compact(c.writes, c.wHead, 64)
	return progress
}

// Flush queues the write-back of every dirty line (the lines stay, clean);
// prefetched lines never used count as useless prefetches.
func (c *Cache) Flush() int {
	c.dropPrefetched(0, ^uint64(0))
	c.victim = c.tags.Flush(c.victim[:0])
	for _, l := range c.victim {
		c.writes = append(c.writes, lineWrite{addr: l, task: c.cause})
	}
	return len(c.victim)
}

// Invalidate drops every line from the cache, so that the next access to any
// line misses (the end of a screen tile in the tiled machine: the next tile
// starts cold). The cache must be idle (no read or write queued or in flight)
// and clean (no dirty line: Flush, then wait for Idle); otherwise Invalidate
// changes nothing and returns an error saying what is left. The fast-clear
// and compression tags describe memory, not the cache's contents, and stay:
// a line written since its clear is no longer cleared (Write), and a cleared
// line never written is still the clear value in memory. It returns the
// number of lines dropped.
func (c *Cache) Invalidate() (int, error) {
	if !c.Idle() {
		return 0, fmt.Errorf("rtcache: Invalidate while busy: %d line reads in flight, %d writes queued, %d memory requests in flight",
			c.reads.Len(), c.WritesQueued(), c.client.Outstanding())
	}
	if n := c.tags.DirtyLines(); n > 0 {
		return 0, fmt.Errorf("rtcache: Invalidate with %d dirty lines (Flush first)", n)
	}
	c.dropPrefetched(0, ^uint64(0))
	n := c.tags.Invalidate()
	c.st.InvalidatedLines += uint64(n)
	return n, nil
}

// Clear handles a fast clear of [lo, hi): the lines of the range leave the
// cache without write-back (the memory image already holds the cleared values)
// and queued write-backs of the range are dropped; every line wholly inside the
// range is marked cleared, so its next miss costs no read. It returns the
// number of lines marked.
func (c *Cache) Clear(lo, hi uint64) int {
	if hi <= lo {
		return 0
	}
	c.dropPrefetched(c.Line(lo), hi)
	c.tags.InvalidateRange(c.Line(lo), hi)
	for i := c.wHead; i < len(c.writes); i++ {
		if w := c.writes[i]; w.data == nil && w.addr+c.lines > lo && w.addr < hi {
			c.writes = append(c.writes[:i], c.writes[i+1:]...)
			i--
		}
	}
	alo := (lo + c.lines - 1) &^ (c.lines - 1)
	ahi := hi &^ (c.lines - 1)
	if ahi <= alo {
		return 0
	}
	var r *clearRegion
	for i := range c.clears {
		if c.clears[i].lo == alo && c.clears[i].hi == ahi {
			r = &c.clears[i]
			break
		}
	}
	if r == nil {
		c.clears = append(c.clears, clearRegion{lo: alo, hi: ahi,
			tags: timing.NewClearTags(alo, ahi-alo, c.cfg.LineSize)})
		r = &c.clears[len(c.clears)-1]
	}
	r.tags.SetAll()
	c.clearCompressed(alo, ahi)
	n := int((ahi - alo) / c.lines)
	c.st.ClearedLines += uint64(n)
	return n
}

// Reading reports whether line reads are in flight.
func (c *Cache) Reading() bool { return c.reads.Len() > 0 }

// WritesQueued returns the writes waiting to be issued.
func (c *Cache) WritesQueued() int { return len(c.writes) - c.wHead }

// Idle reports whether no read or write is queued or in flight.
func (c *Cache) Idle() bool { return c.WritesQueued() == 0 && c.client.Idle() && c.reads.Len() == 0 }

// Stats reports the cache counters of component comp as <comp>.cache_<counter>:
// hits, misses (of which misses_merged waited for a read already in flight and
// cleared_fills cost no read), line_reads, evictions, write_backs (dirty lines
// written), line_writes_uncached (QueueWrite), cleared_lines (lines marked by fast
// clears), invalidated_lines (lines dropped by Invalidate) and hit_rate; <comp>.bytes_read and <comp>.bytes_written (all the
// component's memory traffic); and the memory client's counters under
// <comp>.memory.
func (c *Cache) Stats(comp string, add func(string, float64)) {
	p := comp + ".cache_"
	timing.AddTagged(p, add, &c.st)
	add(p+"hit_rate", timing.Ratio(c.st.Hits, c.st.Hits+c.st.Misses))
	add(comp+".bytes_read", float64(c.st.BytesRead))
	add(comp+".bytes_written", float64(c.st.BytesWritten))
	c.client.Stats(comp+".memory", add)
}

// Counters is a snapshot of the cache counters; the tags name the ones Stats
// reports under <comp>.cache_.
type Counters struct {
	Hits             uint64 `stat:"hits"`
	Misses           uint64 `stat:"misses"`
	MergedMisses     uint64 `stat:"misses_merged"`
	ClearedFills     uint64 `stat:"cleared_fills"`
	OverwriteFills   uint64 `stat:"overwrite_fills"` // misses AccessOverwrite filled without a read
	LineReads        uint64 `stat:"line_reads"`
	Evictions        uint64 `stat:"evictions"`
	WriteBacks       uint64 `stat:"write_backs"`
	UncachedWrites   uint64 `stat:"line_writes_uncached"`
	ClearedLines     uint64 `stat:"cleared_lines"`     // lines marked by fast clears
	InvalidatedLines uint64 `stat:"invalidated_lines"` // lines dropped by Invalidate
	BytesRead        uint64 // all the component's memory traffic
	BytesWritten     uint64
	// Compression (lines of registered surfaces only).
	CompressedReads        uint64 `stat:"line_reads_compressed"`
	UncompressedReads      uint64 `stat:"line_reads_uncompressed"`
	CompressedWriteBacks   uint64 `stat:"write_backs_compressed"`
	UncompressedWriteBacks uint64 `stat:"write_backs_uncompressed"`
	BytesSaved             uint64 `stat:"compression_bytes_saved"`
	Unusable               uint64 `stat:"compression_unusable"`
}

// Counters returns the counters.
func (c *Cache) Counters() Counters { return c.st }

// Buffers describes the write queue and the memory requests in flight.
func (c *Cache) Buffers(name string) []timing.BufferState {
	return []timing.BufferState{
		{Name: name + ".WriteQueue", Len: c.WritesQueued(), Cap: c.cfg.WriteQueue},
		c.client.Buffer(name + ".MemoryRequests"),
	}
}
