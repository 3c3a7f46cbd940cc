package texturesampler

import "github.com/gfxsim/gfxsim/functional/texture"

// missEntry is a miss-queue entry (an MSHR): a decoded L1 line being filled,
// the reads of its stored bytes still outstanding, and the requests waiting
// for it.
type missEntry struct {
	line    uint64
	valid   bool
	waiters []uint64 // request sequence numbers (reused)
	pending int      // reads of the line's stored bytes not returned yet
	units   int      // storage units (texels or blocks) the fill converts
	convert bool     // the fill path decodes or widens them (BC, sRGB)
}

// pendingRead is a read of a miss-queue entry not sent to the L2 yet.
type pendingRead struct {
	entry      int
	addr, size uint64
}

// lookup is the tag stage: it looks up the lines of the oldest request whose
// addresses are known, TagLookupsPerCycle lines per cycle, in the L1 tag
// array. A hit's data is available L1Latency cycles later. A miss to a line
// already in the miss queue merges with it; any other miss takes a free entry
// and queues the reads of the stored bytes the line is decoded from
// (texture.FillRanges, split at FetchBytes boundaries). With no free entry the
// stage stalls (in order: later requests wait too) until a fill frees one.
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
	for k := 0; k < c.Cfg.TagLookupsPerCycle && r.looked < len(r.lines); k++ {
		ln := &r.lines[r.looked]
		if c.l1.Lookup(ln.addr) {
			if c.Observer != nil {
				c.Observer.L1Hit(c, ln.addr)
			}
			c.stats.hits++
			c.stats.texelHits += uint64(ln.taps)
			r.dataReady = max(r.dataReady, cy+c.l1Latency)
		} else if e := c.outstanding(ln.addr); e >= 0 {
			c.stats.misses++
			c.stats.merged++
			c.stats.texelHits += uint64(ln.taps - 1) // the first tap misses, the others are served by the same fill
			c.misses[e].waiters = append(c.misses[e].waiters, r.seq)
			r.pending++
		} else if len(c.freeMisses) == 0 {
			c.tagStalled = true // retried when a fill frees an entry
			return progress
		} else {
			e = c.freeMisses[len(c.freeMisses)-1]
			c.freeMisses = c.freeMisses[:len(c.freeMisses)-1]
			c.allocate(e, r, ln.addr)
			c.stats.misses++
			c.stats.texelHits += uint64(ln.taps - 1)
			r.pending++
		}
		c.stats.lookups++
		r.looked++
		progress = true
		c.tagWorked = true
	}
	return progress
}

// allocate sets up miss-queue entry e for line, read by request r: the byte
// ranges its decoded texels come from become reads of at most FetchBytes,
// none crossing a FetchBytes boundary.
func (c *Comp) allocate(e int, r *request, line uint64) {
	m := &c.misses[e]
	m.line, m.valid, m.waiters, m.pending = line, true, append(m.waiters[:0], r.seq), 0
	f := r.tex.Format
	m.convert = f.Compressed() || f.DecodedBytes() != f.UnitBytes()
	c.ranges, m.units = r.tex.FillRanges(line-r.dataAddr<<texture.DecodedSpaceShift, int(c.lineSize), c.ranges[:0])
	for _, rg := range c.ranges {
		addr, end := r.dataAddr+rg.Addr, r.dataAddr+rg.Addr+rg.Size
		for addr < end {
			n := min(end, (addr/c.fetchBytes+1)*c.fetchBytes) - addr
			c.unsent = append(c.unsent, pendingRead{entry: e, addr: addr, size: n})
			m.pending++
			addr += n
		}
	}
	if c.Observer != nil {
		c.Observer.L1Miss(c, line, c.ranges, r.dataAddr)
	}
	if m.pending == 0 { // nothing to read (cannot happen for a tap's line)
		c.fillQueue = append(c.fillQueue, e)
	}
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
