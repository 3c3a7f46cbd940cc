package hiz

// The HiZ unit: the depth units' feedback (FEEDBACK and INSTANT FEEDBACK).

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/timing"
)

// feedback applies the feedback whose delay is over (and refetched lines).
func (c *Comp) feedback(now sim.VTimeInSec) bool {
	progress := false
	if c.traced() {
		c.cause = protocol.SimulationTaskID // feedback belongs to no task
	}
	keep := c.fbWait[:0]
	for _, e := range c.fbWait {
		if e.pending > 0 {
			keep = append(keep, e)
			continue
		}
		c.applyFeedback(now, e)
		progress = true
	}
	clear(c.fbWait[len(keep):])
	c.fbWait = keep
	for c.fbHead < len(c.fbq) {
		e := &c.fbq[c.fbHead]
		if e.arrived+uint64(c.hizCfg.FeedbackDelay) > c.tests {
			break
		}
		line := e.slot.lay.line(e.tile)
		switch {
		case c.tags.lookup(line):
			c.applyFeedback(now, e)
		case !c.Cfg.FeedbackRefetch:
			c.st.fbDroppedAbsent++
		default:
			ent := *e
			if !c.access(now, e.slot, line, &ent.pending) {
				c.waitMem = true
				return progress
			}
			c.st.fbRefetched++
			c.fbWait = append(c.fbWait, &ent)
		}
		c.fbHead++
		progress = true
	}
	c.fbq, c.fbHead = timing.Compact(c.fbq, c.fbHead, 256)
	return progress
}

func (c *Comp) applyFeedback(now sim.VTimeInSec, e *fbEntry) {
	line := e.slot.lay.line(e.tile)
	before := e.slot.buf.Tile(e.tile)
	if e.slot.buf.ApplyFeedback(e.tile, e.lo, e.hi, e.pos) && e.slot.buf.Tile(e.tile) != before {
		if !c.tags.contains(line) {
			c.allocate(line)
		}
		c.tags.setDirty(line)
	}
	c.st.fbAged++
	c.st.fbAgeCycles += c.Freq.Cycle(now) - c.Freq.Cycle(e.made)
	c.st.fbDelayTests += c.tests - e.arrived
}

// takeFeedback queues a feedback message's tiles (dropping what does not fit).
func (c *Comp) takeFeedback(m *protocol.HiZFeedback) {
	c.st.fbMessages++
	var s *slot
	for _, x := range c.slots {
		if x.addr == m.Target {
			s = x
		}
	}
	for _, t := range m.Tiles {
		c.st.fbTiles++
		if s == nil || t.Tile < 0 || t.Tile >= s.buf.Geometry().Tiles() {
			c.st.fbDroppedFull++
			continue
		}
		if len(c.fbq)-c.fbHead >= c.Cfg.FeedbackQueue {
			c.st.fbDroppedFull++
			continue
		}
		c.fbq = append(c.fbq, fbEntry{slot: s, tile: t.Tile, lo: t.Lo, hi: t.Hi,
			pos: fhiz.Pos{Draw: m.Draw, Prim: m.Prim}, made: m.Made, arrived: c.tests})
	}
}
