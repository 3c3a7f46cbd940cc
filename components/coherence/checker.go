package coherence

import (
	"fmt"
	"sync"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/texturesampler"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/timing"
)

// Violation is a read that returned a line older than the version it should
// see.
type Violation struct {
	Reader string // the unit (or cache) the data was returned to
	Line   uint64 // the line's address
	Got    uint64 // version the data had
	Want   uint64 // version published at the reader's last fence
}

func (v *Violation) Error() string {
	return fmt.Sprintf("coherence: %s read line 0x%x at version %d, but version %d was published at the last sync token (a write that a flush should have made visible, or a stale cached copy that an invalidate should have dropped)",
		v.Reader, v.Line, v.Got, v.Want)
}

// line is the checker's record of one memory line.
type line struct {
	g     uint64 // newest version: writes completed anywhere
	m     uint64 // version the memory holds
	pub   uint64 // version published at the start of epoch `epoch`
	epoch uint64 // epoch of the line's last write
	owned bool   // written in a write-back cache: its memory writes are write-backs
}

// request is a memory or L2 request in flight.
type request struct {
	lo, hi   uint64
	versions []uint64      // a write-back: the version of each line it carries
	plain    *mem.WriteReq // a plain write, whose address is read when it completes
}

type portLine struct {
	port sim.Port
	line uint64
}

type lineVersion struct{ line, version uint64 }

// Checker keeps a version per memory line and checks every read of the
// texture path against the versions published at the last sync token (see
// the package documentation). It is safe under the parallel engine.
type Checker struct {
	lineBytes uint64
	halt      *timing.Halt

	mu        sync.Mutex
	lines     map[uint64]*line
	epoch     uint64
	reqs      map[string]*request
	l2        map[portLine]uint64 // the version each L2 bank holds (by its Top port)
	delivered map[portLine]uint64 // the version last delivered to a sampler's ToL2 port
	pending   map[portLine][]uint64
	l1        map[portLine][]lineVersion

	roles map[sim.Port]role

	err error
	st  counters
}

// counters are the checker's statistics, named by their tags (Stats).
type counters struct {
	writes     uint64 `stat:"writes"`
	writeBacks uint64 `stat:"write_backs"`
	checks     uint64 `stat:"reads_checked"`
	violations uint64 `stat:"violations"`
}

type role uint8

const (
	roleMemory   role = iota // a memory channel's Top port
	roleWriter               // a ROP's or depth unit's ToMemory port
	roleL2Top                // an L2 bank's Top port
	roleL2Bottom             // an L2 bank's Bottom port
	roleCommand              // the command processor's ToBackEnd port (clears)
)

// New returns a checker of lines of lineBytes bytes (a power of two) that
// stops the run through halt at the first violation.
func New(lineBytes uint64, halt *timing.Halt) (*Checker, error) {
	if lineBytes == 0 || lineBytes&(lineBytes-1) != 0 {
		return nil, fmt.Errorf("coherence: line size %d is not a power of two", lineBytes)
	}
	return &Checker{lineBytes: lineBytes, halt: halt, lines: map[uint64]*line{}, reqs: map[string]*request{},
		l2: map[portLine]uint64{}, delivered: map[portLine]uint64{}, pending: map[portLine][]uint64{},
		l1: map[portLine][]lineVersion{}, roles: map[sim.Port]role{}}, nil
}

func (c *Checker) watch(r role, ports ...sim.Port) {
	for _, p := range ports {
		c.roles[p] = r
		p.AcceptHook(c)
	}
}

// WatchMemory watches memory channels' Top ports: writes complete there.
func (c *Checker) WatchMemory(tops ...sim.Port) { c.watch(roleMemory, tops...) }

// WatchL2 watches a texture L2: its banks' Top ports (reads returned to the
// samplers) and Bottom ports (its fills from memory).
func (c *Checker) WatchL2(tops, bottoms []sim.Port) {
	c.watch(roleL2Top, tops...)
	c.watch(roleL2Bottom, bottoms...)
}

// WatchCommands watches the command processor's back-end port: a ClearCmd
// is a write of its target, complete in memory when it is sent.
func (c *Checker) WatchCommands(p sim.Port) { c.watch(roleCommand, p) }

// WatchWriter watches a write-back cache's memory port (a ROP's or depth
// unit's ToMemory) and returns the function to pass to its ObserveWrites.
func (c *Checker) WatchWriter(p sim.Port) func(line, size uint64) {
	c.watch(roleWriter, p)
	return c.cacheWrite
}

// Fence ends an epoch: every version written so far is published, and every
// later read must see it (the command processor's FenceObserver).
func (c *Checker) Fence(sim.VTimeInSec) {
	c.mu.Lock()
	c.epoch++
	c.mu.Unlock()
}

// Err returns the first violation, or nil.
func (c *Checker) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Stats adds GPU.Coherence.writes (writes that completed, in memory or in a
// write-back cache), write_backs, reads_checked, fences and violations.
func (c *Checker) Stats(add func(string, float64)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	timing.AddTagged("GPU.Coherence.", add, &c.st)
	add("GPU.Coherence.fences", float64(c.epoch))
}

func (c *Checker) get(l uint64) *line {
	st := c.lines[l]
	if st == nil {
		st = &line{}
		c.lines[l] = st
	}
	return st
}

// published is the version of line l a read issued now must see.
func (c *Checker) published(l uint64) uint64 {
	st := c.lines[l]
	if st == nil {
		return 0
	}
	if st.epoch < c.epoch {
		return st.g
	}
	return st.pub
}

// write records a write of line l completing now and returns its version.
func (c *Checker) write(st *line) uint64 {
	if st.epoch < c.epoch {
		st.pub, st.epoch = st.g, c.epoch
	}
	st.g++
	c.st.writes++
	return st.g
}

// each calls f with every line of [lo, hi).
func (c *Checker) each(lo, hi uint64, f func(l uint64)) {
	for l := lo &^ (c.lineBytes - 1); l < hi; l += c.lineBytes {
		f(l)
	}
}

// cacheWrite is a write completing in a write-back cache.
func (c *Checker) cacheWrite(addr, size uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.each(addr, addr+size, func(l uint64) {
		st := c.get(l)
		st.owned = true
		c.write(st)
	})
}

// check compares a read's version with the published one.
func (c *Checker) check(reader string, l, got uint64) {
	c.st.checks++
	if want := c.published(l); got < want {
		c.st.violations++
		if c.err == nil {
			c.err = &Violation{Reader: reader, Line: l, Got: got, Want: want}
			if c.halt != nil {
				c.halt.Stop(c.err)
			}
		}
	}
}

// Func implements sim.Hook.
func (c *Checker) Func(ctx sim.HookCtx) {
	if ctx.Pos != sim.HookPosPortMsgRecvd && ctx.Pos != sim.HookPosPortMsgSend {
		return
	}
	port, ok := ctx.Domain.(sim.Port)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	recv := ctx.Pos == sim.HookPosPortMsgRecvd
	switch c.roles[port] {
	case roleWriter:
		if w, ok := ctx.Item.(*mem.WriteReq); ok && !recv {
			c.writeBackSent(w)
		}
	case roleMemory:
		c.memory(recv, ctx.Item)
	case roleL2Bottom:
		c.l2Bottom(port, recv, ctx.Item)
	case roleL2Top:
		c.l2Top(port, recv, ctx.Item)
	case roleCommand:
		if m, ok := ctx.Item.(*protocol.ClearCmd); ok && !recv {
			c.clear(m.Target.Addr, m.Target.Addr+m.Size)
		}
	}
}

// writeBackSent records the versions a write-back carries: the cache holds
// the newest version of the lines it owns (their only writer), and the data
// is taken from the memory image when the write is issued.
func (c *Checker) writeBackSent(w *mem.WriteReq) {
	r := &request{lo: w.Address, hi: w.Address + uint64(len(w.Data))}
	owned := true
	c.each(r.lo, r.hi, func(l uint64) {
		st := c.lines[l]
		if st == nil || !st.owned {
			owned = false
			return
		}
		r.versions = append(r.versions, st.g)
	})
	if owned {
		c.reqs[w.ID] = r
	}
}

// memory follows a channel: a write completes when its WriteDoneRsp leaves.
func (c *Checker) memory(recv bool, item any) {
	switch m := item.(type) {
	case *mem.WriteReq:
		// A DRAM channel's localizer (components/memory) rewrites the
		// address while the request is in the channel and restores it when
		// the response leaves, before this hook runs (it was attached
		// first): the address is read then.
		if recv {
			if _, ok := c.reqs[m.ID]; !ok {
				c.reqs[m.ID] = &request{plain: m}
			}
		}
	case *mem.WriteDoneRsp:
		r := c.reqs[m.RespondTo]
		if r == nil {
			return
		}
		delete(c.reqs, m.RespondTo)
		if r.versions != nil {
			c.st.writeBacks++
			i := 0
			c.each(r.lo, r.hi, func(l uint64) {
				st := c.get(l)
				st.m = max(st.m, r.versions[i])
				i++
			})
			return
		}
		lo := r.plain.Address
		c.each(lo, lo+uint64(len(r.plain.Data)), func(l uint64) {
			st := c.get(l)
			st.m = c.write(st)
		})
	}
}

// clear is a write of [lo, hi) complete in memory (the command processor
// wrote the values into the memory image; the caches drop the lines).
func (c *Checker) clear(lo, hi uint64) {
	for l, st := range c.lines {
		if l+c.lineBytes > lo && l < hi {
			st.m = c.write(st)
		}
	}
}

// l2Bottom follows an L2 bank's fills: the data has the memory's version,
// checked against the published one, and the bank holds it.
func (c *Checker) l2Bottom(port sim.Port, recv bool, item any) {
	r, _ := c.read(item, !recv)
	if r == nil {
		return
	}
	top := c.topOf(port)
	c.each(r.lo, r.hi, func(l uint64) {
		v := uint64(0)
		if st := c.lines[l]; st != nil {
			v = st.m
		}
		c.check(port.Component().Name()+" (fill from memory)", l, v)
		c.l2[portLine{top, l}] = v
	})
}

// read follows the line reads through a port: it records a ReadReq when
// track, and returns the request a DataReadyRsp answers, with the response
// (nil for anything else or a response to an untracked read).
func (c *Checker) read(item any, track bool) (*request, *mem.DataReadyRsp) {
	switch m := item.(type) {
	case *mem.ReadReq:
		if track {
			c.reqs[m.ID] = &request{lo: m.Address, hi: m.Address + m.AccessByteSize}
		}
	case *mem.DataReadyRsp:
		r := c.reqs[m.RespondTo]
		if r != nil {
			delete(c.reqs, m.RespondTo)
		}
		return r, m
	}
	return nil, nil
}

// topOf returns the Top port of the L2 bank that owns bottom.
func (c *Checker) topOf(bottom sim.Port) sim.Port {
	return bottom.Component().(interface{ GetPortByName(string) sim.Port }).GetPortByName("Top")
}

// l2Top follows the reads the samplers send to an L2 bank: the data has the
// version the bank holds, checked against the published one.
func (c *Checker) l2Top(port sim.Port, recv bool, item any) {
	r, rsp := c.read(item, recv)
	if r == nil {
		return
	}
	c.each(r.lo, r.hi, func(l uint64) {
		v := c.l2[portLine{port, l}]
		c.check(port.Component().Name(), l, v)
		c.delivered[portLine{rsp.Dst, l}] = v
	})
}

// L1Miss implements texturesampler.L1Observer.
func (c *Checker) L1Miss(s *texturesampler.Comp, l1Line uint64, ranges []texture.ByteRange, dataAddr uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var lines []uint64
	for _, r := range ranges {
		c.each(dataAddr+r.Addr, dataAddr+r.Addr+r.Size, func(l uint64) { lines = append(lines, l) })
	}
	c.pending[portLine{s.ToL2, l1Line}] = lines
}

// L1Fill implements texturesampler.L1Observer: the line holds the versions
// the L2 delivered for its stored bytes.
func (c *Checker) L1Fill(s *texturesampler.Comp, l1Line uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := portLine{s.ToL2, l1Line}
	lv := c.l1[k][:0]
	for _, l := range c.pending[k] {
		lv = append(lv, lineVersion{l, c.delivered[portLine{s.ToL2, l}]})
	}
	delete(c.pending, k)
	c.l1[k] = lv
}

// L1Hit implements texturesampler.L1Observer: a hit reads the versions the
// line was filled with.
func (c *Checker) L1Hit(s *texturesampler.Comp, l1Line uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, lv := range c.l1[portLine{s.ToL2, l1Line}] {
		c.check(s.Name()+" L1", lv.line, lv.version)
	}
}

var _ texturesampler.L1Observer = (*Checker)(nil)
