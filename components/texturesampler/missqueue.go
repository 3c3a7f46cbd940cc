package texturesampler

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"
)

// sendMisses sends the oldest unsent read of the miss queue to the L2 (one
// per cycle). A refused read is retried when the port frees up.
func (c *Comp) sendMisses(now sim.VTimeInSec) bool {
	if len(c.unsent) == 0 {
		return false
	}
	if c.L2 == nil {
		c.Fault.Fail(fmt.Errorf("L2 (the texture L2 finder) is not set"))
		return false
	}
	rd := c.unsent[0]
	if c.traced() {
		// The read belongs to the request that allocated the entry (its first
		// waiter), which waits for it.
		c.client.TraceAs(c, "tex"+c.bySeq(c.misses[rd.entry].waiters[0]).msg.ID)
	}
	if !c.client.Read(now, rd.addr, rd.size, uint64(rd.entry)) {
		return false
	}
	copy(c.unsent, c.unsent[1:])
	c.unsent = c.unsent[:len(c.unsent)-1]
	c.stats.l2Reads++
	return true
}

// fill takes one read returned by the L2 (one per cycle); when the last read
// of a miss-queue entry is back the line joins the fill queue. The fill path
// then writes one line per cycle into the L1, decoding blocks and converting
// texels on the way (a read-only cache: victims are dropped); the entry is
// freed and every request waiting for the line may use it from that cycle on.
func (c *Comp) fill(now sim.VTimeInSec, cy uint64) bool {
	progress := false
	if comp, ok := c.client.Receive(now); ok {
		if comp.Tag >= uint64(len(c.misses)) || !c.misses[comp.Tag].valid || c.misses[comp.Tag].pending == 0 {
			c.Fault.Fail(fmt.Errorf("ToL2: a read completed for no miss-queue entry (tag %d)", comp.Tag))
			return false
		}
		m := &c.misses[comp.Tag]
		m.pending--
		c.stats.l2Bytes += comp.Size
		if m.pending == 0 {
			c.fillQueue = append(c.fillQueue, int(comp.Tag))
		}
		progress = true
	}
	if len(c.fillQueue) == 0 {
		return progress
	}
	e := c.fillQueue[0]
	copy(c.fillQueue, c.fillQueue[1:])
	c.fillQueue = c.fillQueue[:len(c.fillQueue)-1]
	m := &c.misses[e]
	if !c.l1.Contains(m.line) {
		c.l1.Fill(m.line) // read-only: victims are clean and simply dropped
	}
	if c.Observer != nil {
		c.Observer.L1Fill(c, m.line)
	}
	for _, seq := range m.waiters {
		r := c.bySeq(seq)
		r.pending--
		r.dataReady = max(r.dataReady, cy)
	}
	c.stats.fillLines++
	c.stats.fillUnits += uint64(m.units)
	if m.convert {
		c.stats.fillDecodes += uint64(m.units)
	}
	m.valid, m.waiters = false, m.waiters[:0]
	c.freeMisses = append(c.freeMisses, e)
	return true
}
