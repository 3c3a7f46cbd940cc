package hiz

// The HiZ unit: control messages (clears, invalidations, draw ends) and the oracle table.

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/depth"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
)

// SetOracle gives an Oracle-mode unit the frame's exact verdicts (recorded by
// a reference render with hiz.OracleRecorder); without a table the Oracle
// uses its per-sample replica of the depth buffer, which does not know what
// pixel shaders discard. Call it before the run.
func (c *Comp) SetOracle(t *fhiz.OracleTable) {
	c.table = t
	for _, s := range c.slots {
		s.buf.SetOracle(t)
	}
}

// control carries out a clear or a flush once the window is empty.
func (c *Comp) control(now sim.VTimeInSec) bool {
	if c.ctl == nil || len(c.works) > 0 {
		return false
	}
	m := c.ctl
	if m.Clear {
		c.st.clears++
		t := m.Target
		tg := fhiz.Target{Width: int(t.Width), Height: int(t.Height), Samples: int(t.Samples), Format: fhizFormat(t.Format)}
		if s := c.slotFor(t, tg); s != nil {
			pos := fhiz.Pos{}
			if c.seen {
				pos.Draw = c.maxSeq + 1
			}
			s.buf.Clear(m.Key, pos)
			hi := s.lay.base + s.lay.lines*s.lay.lineBytes
			c.tags.dropRange(s.lay.base, hi)
			keep := c.writes[:0]
			keepTasks := c.writeTasks[:0]
			for i, l := range c.writes {
				if !s.lay.contains(l) {
					keep = append(keep, l)
					if c.traced() {
						keepTasks = append(keepTasks, c.writeTasks[i])
					}
				}
			}
			c.writes = keep
			if c.traced() {
				clear(c.writeTasks[len(keepTasks):])
				c.writeTasks = keepTasks
			}
			s.cleared = make([]uint64, (s.lay.lines+63)/64)
			for i := range s.cleared {
				s.cleared[i] = ^uint64(0)
			}
		}
		c.ctl, c.ctlAck = nil, protocol.NewDone(m.ID, c.Cfg.Index)
		return true
	}
	if m.Flush {
		if !c.flushing {
			c.st.flushes++
			c.flushing = true
			if c.traced() {
				c.cause = c.ctlTask.ID
			}
			for _, l := range c.tags.flush(nil) {
				c.pack(l)
				c.queueWrite(l)
			}
			return true
		}
		if len(c.writes) > 0 || !c.client.Idle() || c.reads.Len() > 0 {
			c.waitMem = true
			return false
		}
		c.flushing = false
		c.ctl, c.ctlAck = nil, protocol.NewDone(m.ID, c.Cfg.Index)
		return true
	}
	c.ctl, c.ctlAck = nil, protocol.NewDone(m.ID, c.Cfg.Index)
	return true
}

func fhizFormat(f uint32) depth.Format { return depth.Format(f) }
