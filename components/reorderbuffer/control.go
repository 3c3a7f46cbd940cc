package reorderbuffer

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
)

// control takes a FlushCmd from Control once the buffer is empty (empty), in
// shading-cache mode with Invalidate drops every cache entry, and answers Done
// (From 0) to CommandProcessor; an answer the port refuses is sent again in
// later cycles. It runs before dispatch, so a flush taken in a cycle comes
// before the work dispatched in it.
func (c *Comp) control(now sim.VTimeInSec) bool {
	progress := false
	if c.ctlOut == nil {
		msg := c.Control.Peek()
		if msg == nil || !c.empty() {
			return false
		}
		c.Control.Retrieve(now)
		m, ok := msg.(*protocol.FlushCmd)
		if !ok {
			c.Fault.Fail(fmt.Errorf("unexpected %T on Control", msg))
			return true
		}
		if c.CommandProcessor == nil {
			c.Fault.Fail(fmt.Errorf("FlushCmd %s, but CommandProcessor (the port to answer) is not set", m.ID))
			return true
		}
		if m.Invalidate && c.cache != nil {
			if err := c.cache.flush(); err != nil {
				c.Fault.Fail(fmt.Errorf("FlushCmd %s: %w: a reference outlived every record of the tile", m.ID, err))
				return true
			}
		}
		c.st.flushes++
		c.ctlOut = protocol.NewDone(m.ID, 0)
		if c.traced() {
			c.ctlTask.Start(c, protocol.KindFlush+m.ID, protocol.ReqOutTaskID(m.ID), protocol.KindFlush, protocol.KindFlush)
		}
		progress = true
	}
	c.ctlOut.Src, c.ctlOut.Dst, c.ctlOut.SendTime = c.Control, c.CommandProcessor, now
	if c.Control.Send(c.ctlOut) != nil {
		return progress
	}
	c.ctlTask.End(c)
	c.ctlOut = nil
	c.Env.Progress.Add(1)
	return true
}

// empty reports whether the buffer holds no work: no entry in use, no message
// waiting for a ROP and, in shading-cache mode, no visibility quad under
// look-up, no miss warp open or queued and no part of a split quad held.
func (c *Comp) empty() bool {
	if c.entries.used > 0 || c.stalled.msg != nil {
		return false
	}
	sc := c.cache
	return sc == nil || (!sc.pend.active && sc.cursor == 0 && len(sc.open) == 0 && len(sc.warps) == 0 && len(sc.split) == 0)
}

// flush drops every shading-cache entry (the tiled machine's per-tile cache,
// flushed when the tile ends): every entry must be unreferenced. It counts the
// entries that held shaded quads.
func (sc *shadingCacheMode) flush() error {
	n := sc.tags.Shaded()
	if err := sc.tags.Invalidate(); err != nil {
		return err
	}
	sc.st.entriesFlushed += uint64(n)
	return nil
}
