package texturesampler

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"
)

// sendMisses sends the oldest unsent miss-queue read to the L2 (one per
// cycle). A refused read is retried when the port frees up.
func (c *Comp) sendMisses(now sim.VTimeInSec) bool {
	if len(c.unsent) == 0 {
		return false
	}
	if c.L2 == nil {
		c.fail(fmt.Errorf("L2 (the texture L2 finder) is not set"))
		return false
	}
	e := c.unsent[0]
	if !c.client.Read(now, c.misses[e].line, c.lineSize, uint64(e)) {
		return false
	}
	copy(c.unsent, c.unsent[1:])
	c.unsent = c.unsent[:len(c.unsent)-1]
	c.stats.l2Reads++
	return true
}

// fill takes one line returned by the L2 (one per cycle): it is written into
// the L1 (the fill path, where decompression of compressed formats belongs),
// its miss-queue entry is freed, and the requests waiting for it may use it
// from this cycle on.
func (c *Comp) fill(now sim.VTimeInSec, cy uint64) bool {
	comp, ok := c.client.Receive(now)
	if !ok {
		return false
	}
	if comp.Tag >= uint64(len(c.misses)) || !c.misses[comp.Tag].valid {
		c.fail(fmt.Errorf("ToL2: a line read completed for no miss-queue entry (tag %d)", comp.Tag))
		return false
	}
	m := &c.misses[comp.Tag]
	if !c.l1.Contains(m.line) {
		c.l1.Fill(m.line) // read-only: victims are clean and simply dropped
	}
	for _, seq := range m.waiters {
		r := c.bySeq(seq)
		r.pending--
		r.dataReady = max(r.dataReady, cy)
	}
	m.valid, m.waiters = false, m.waiters[:0]
	c.freeMisses = append(c.freeMisses, int(comp.Tag))
	c.stats.l2Bytes += comp.Size
	return true
}
