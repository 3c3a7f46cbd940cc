package hiz

// The HiZ unit: the HiZ cache's lines: look-up, allocation, packing, memory requests and their responses.

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/rop/rtcache"
)

// receive handles memory responses: a line read fills its line and wakes its
// waiters.
func (c *Comp) receive(now sim.VTimeInSec) bool {
	progress := false
	for {
		f, arrived, ok, err := c.reads.Next(c.client, now)
		progress = progress || arrived
		if err != nil {
			c.Fault.Fail(err)
			return false
		}
		if !ok {
			return progress
		}
		if c.traced() {
			c.cause = f.Task
		}
		if c.tags.lookup(f.Line) {
			// already there (re-allocated by a test meanwhile)
		} else {
			c.allocate(f.Line)
		}
		for _, w := range f.Waiters {
			*w--
		}
		c.reads.Recycle(f.Waiters)
	}
}

// slotOf returns the slot whose region holds line.
func (c *Comp) slotOf(line uint64) *slot {
	for _, s := range c.slots {
		if s.lay.contains(line) {
			return s
		}
	}
	return nil
}

// allocate puts line in the cache; a dirty victim is packed (PACKED ZMASK
// stores its tiles in their memory form) and queued for write-back.
func (c *Comp) allocate(line uint64) {
	victim, dirty, evicted := c.tags.fill(line)
	if !evicted {
		return
	}
	c.st.evictions++
	if dirty {
		c.pack(victim)
		c.queueWrite(victim)
	}
}

// pack applies PACKED ZMASK's memory form to the tiles of line.
func (c *Comp) pack(line uint64) {
	if !c.hizCfg.Packed {
		return
	}
	s := c.slotOf(line)
	if s == nil {
		return
	}
	c.tileBuf = s.lay.tiles(line, c.tileBuf[:0])
	for _, ti := range c.tileBuf {
		s.buf.Pack(ti)
	}
}

// access looks up line for a reader counting its pending reads in *waiter.
// It returns false when the line is absent and no read can be issued now.
func (c *Comp) access(now sim.VTimeInSec, s *slot, line uint64, waiter *int) bool {
	if c.tags.lookup(line) {
		c.st.hits++
		return true
	}
	if f := c.reads.Find(line); f != nil {
		f.Waiters = append(f.Waiters, waiter)
		*waiter++
		c.st.misses++
		c.st.merged++
		return true
	}
	if len(c.writes) >= c.Cfg.WriteQueue {
		return false
	}
	if s.isCleared(line) {
		c.allocate(line)
		c.st.misses++
		c.st.clearedFills++
		return true
	}
	if c.traced() {
		c.client.TraceAs(c, c.cause)
	}
	if c.client.Outstanding() >= c.Cfg.MaxOutstandingMemory || !c.client.Read(now, line, c.lineBytes, line) {
		return false
	}
	c.reads.Add(rtcache.Fill[*int]{Line: line, Waiters: append(c.reads.Spare(), waiter), Task: c.cause})
	*waiter++
	c.st.misses++
	c.st.lineReads++
	c.st.bytesRead += c.lineBytes
	return true
}

// issue sends queued write-backs, oldest first: the tiles' memory encoding.
func (c *Comp) issue(now sim.VTimeInSec) bool {
	progress := false
	for len(c.writes) > 0 {
		line := c.writes[0]
		if c.client.Outstanding() >= c.Cfg.MaxOutstandingMemory {
			break
		}
		data := c.encode(line)
		if c.traced() {
			c.client.TraceAs(c, c.writeTasks[0])
		}
		if !c.client.Write(now, line, data, line) {
			break
		}
		if s := c.slotOf(line); s != nil {
			s.unsetCleared(line)
		}
		c.writes = c.writes[1:]
		if c.traced() {
			c.writeTasks[0] = ""
			c.writeTasks = c.writeTasks[1:]
		}
		c.st.writeBacks++
		c.st.bytesWritten += uint64(len(data))
		progress = true
	}
	if len(c.writes) == 0 {
		c.writes, c.writeTasks = nil, nil
	}
	return progress
}

// encode returns the memory bytes of line: its tiles' encodings, zero-padded
// to the line size.
func (c *Comp) encode(line uint64) []byte {
	data := make([]byte, 0, c.lineBytes)
	if s := c.slotOf(line); s != nil {
		if s.lay.linesPerTile > 1 {
			ti := s.lay.tiles(line, c.tileBuf[:0])
			if len(ti) > 0 {
				enc := s.buf.Encode(ti[0], c.encBuf[:0])
				k := int(s.lineIndex(line) % uint64(s.lay.linesPerTile))
				lo := min(len(enc), k*int(c.lineBytes))
				data = append(data, enc[lo:min(len(enc), lo+int(c.lineBytes))]...)
				c.encBuf = enc
			}
		} else {
			c.tileBuf = s.lay.tiles(line, c.tileBuf[:0])
			for _, ti := range c.tileBuf {
				data = s.buf.Encode(ti, data)
			}
		}
	}
	if uint64(len(data)) > c.lineBytes {
		data = data[:c.lineBytes]
	}
	for uint64(len(data)) < c.lineBytes {
		data = append(data, 0)
	}
	return data
}

// lookup looks up the lines of the next messages, up to TestsPerCycle lines
// per cycle.
func (c *Comp) lookup(now sim.VTimeInSec) bool {
	progress := false
	budget := c.rate.PerCycle()
	for c.look < len(c.works) && budget > 0 {
		w := c.works[c.look]
		if c.traced() {
			c.cause = w.task
		}
		for w.next < len(w.lines) && budget > 0 {
			if !c.access(now, w.info.slot, w.lines[w.next], &w.pending) {
				c.waitMem = true
				return progress
			}
			w.next++
			budget--
			progress = true
		}
		if w.next < len(w.lines) {
			return progress
		}
		c.look++
		progress = true
	}
	return progress
}
