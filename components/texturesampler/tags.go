package texturesampler

// missEntry is a miss-queue entry (an MSHR): a line being read from the L2 and
// the requests waiting for it.
type missEntry struct {
	line    uint64
	valid   bool
	waiters []uint64 // request sequence numbers (reused)
}

// lookup is the tag stage: it looks up the lines of the oldest request whose
// addresses are known, TagLookupsPerCycle lines per cycle, in the L1 tag
// array. A hit's data is available L1Latency cycles later. A miss to a line
// already in the miss queue merges with it; any other miss takes a free entry
// and queues a read to the L2. With no free entry the stage stalls (in order:
// later requests wait too) until a fill frees one.
func (c *Comp) lookup(cy uint64) bool {
	var r *request
	for i := c.filtering; i < c.count; i++ {
		if x := c.at(i); x.looked < len(x.lines) {
			r = x
			break
		}
	}
	if r == nil || r.addrDone > cy {
		return false
	}
	progress := false
	for k := 0; k < c.lookups && r.looked < len(r.lines); k++ {
		ln := &r.lines[r.looked]
		if c.l1.Lookup(ln.addr) {
			c.stats.hits++
			c.stats.texelHits += uint64(ln.taps)
			r.dataReady = max(r.dataReady, cy+c.l1Latency)
		} else if e := c.outstanding(ln.addr); e >= 0 {
			c.stats.misses++
			c.stats.merged++
			c.misses[e].waiters = append(c.misses[e].waiters, r.seq)
			r.pending++
		} else if len(c.freeMisses) == 0 {
			c.tagStalled = true // retried when a fill frees an entry
			return progress
		} else {
			e = c.freeMisses[len(c.freeMisses)-1]
			c.freeMisses = c.freeMisses[:len(c.freeMisses)-1]
			m := &c.misses[e]
			m.line, m.valid, m.waiters = ln.addr, true, append(m.waiters[:0], r.seq)
			c.unsent = append(c.unsent, e)
			c.stats.misses++
			r.pending++
		}
		c.stats.lookups++
		r.looked++
		progress = true
		c.tagWorked = true
	}
	return progress
}

// outstanding returns the miss-queue entry reading line, or -1.
func (c *Comp) outstanding(line uint64) int {
	for i := range c.misses {
		if c.misses[i].valid && c.misses[i].line == line {
			return i
		}
	}
	return -1
}
