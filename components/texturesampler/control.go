package texturesampler

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/texture"
)

// L1Observer watches the L1's contents for the coherence checker
// (components/coherence): which stored bytes each decoded line is filled
// from, when it is filled and when a lookup hits it. Set Comp.Observer
// before the run; nil (the default) costs nothing.
type L1Observer interface {
	// L1Miss reports that decoded line line is being filled from the stored
	// bytes [dataAddr+Addr, dataAddr+Addr+Size) of every range (ranges are
	// relative to the texture's data address dataAddr; the slice is reused).
	L1Miss(s *Comp, line uint64, ranges []texture.ByteRange, dataAddr uint64)
	// L1Fill reports that line was written into the L1.
	L1Fill(s *Comp, line uint64)
	// L1Hit reports a lookup that hit line.
	L1Hit(s *Comp, line uint64)
}

// control takes a protocol.FlushCmd from Control once no request is in
// flight (the command processor sends it at a sync token, when the pipeline
// has drained): the L1 is read-only, so there is nothing to write back, and
// with Invalidate every line is dropped. The answer, protocol.Done, goes to
// the command's source.
func (c *Comp) control(now sim.VTimeInSec) bool {
	if c.ctlOut != nil {
		c.ctlOut.SendTime = now
		if c.Control.Send(c.ctlOut) != nil {
			return false
		}
		c.ctlOut = nil
		return true
	}
	msg := c.Control.Peek()
	if msg == nil || c.count > 0 || c.inputBuf.Size() > 0 {
		return false
	}
	m, ok := msg.(*protocol.FlushCmd)
	if !ok {
		c.Fault.Unexpected(c.Control, msg)
		return false
	}
	c.Control.Retrieve(now)
	c.stats.flushes++
	if m.Invalidate {
		c.stats.invalidated += uint64(c.l1.Invalidate())
	}
	c.ctlOut = protocol.NewDone(m.ID, 0)
	c.ctlOut.Src, c.ctlOut.Dst = c.Control, m.Src
	c.ctlOut.SendTime = now
	if c.Control.Send(c.ctlOut) == nil {
		c.ctlOut = nil
	}
	return true
}
