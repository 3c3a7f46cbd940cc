package rop

import "github.com/gfxsim/gfxsim/components/protocol"

// traced reports whether a tracer is attached: tasks are reported (and their IDs
// built) only then (docs/design-timing.md, section 10).
func (c *Comp) traced() bool { return c.NumHooks() > 0 }

// startControlTask starts the task of a ClearCmd ("clear<msg ID>"), a
// PresentCmd ("resolve<msg ID>": the resolve of the partition and the colour
// cache's flush) or a FlushCmd ("flush<msg ID>": the colour cache's flush)
// below the sender's req_out task of the message, until the Done is sent. The
// resolve's and the flush's reads and writes hang below it.
func (c *Comp) startControlTask(kind, msgID string) {
	c.ctlTask.Start(c, kind+msgID, protocol.ReqOutTaskID(msgID), kind, kind)
	c.cache.SetCause(c.ctlTask.ID)
}
