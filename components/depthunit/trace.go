package depthunit

import (
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
)

// traced reports whether a tracer is attached: tasks are reported (and their IDs
// built) only then (docs/design-timing.md, section 10).
func (c *Comp) traced() bool { return c.NumHooks() > 0 }

// startTileTask starts the tile task of an accepted TileQuads
// ("<primitive>.tile<tx>.<ty>@du", below the rasterizer's tile task), which ends
// when the survivors are sent to the packer or early Z culled them all. The
// depth-cache reads of its lookups and the write-backs its tests cause hang
// below it.
func (c *Comp) startTileTask(w *work) {
	t := w.tile
	w.task = protocol.TileTaskID(t.Draw.Seq, t.Window, t.Prim, t.TileX, t.TileY, protocol.AtDU)
	tracing.StartTask(w.task, protocol.TileTaskID(t.Draw.Seq, t.Window, t.Prim, t.TileX, t.TileY, ""), c,
		protocol.KindTile, protocol.Count(len(t.Quads), "quads"), nil)
}

// startLateTask starts the late_z task of a LateZReq ("latez<msg ID>", below the
// ROP's req_out task of the request), which ends when the response is sent.
func (c *Comp) startLateTask(w *work) {
	w.task = "latez" + w.req.ID
	tracing.StartTask(w.task, protocol.ReqOutTaskID(w.req.ID), c, protocol.KindLateZ,
		protocol.Count(w.n, "quads"), nil)
}

// endTask ends w's task (a DrawEnd has none).
func (c *Comp) endTask(w *work) {
	if w.task != "" {
		tracing.EndTask(w.task, c)
	}
}

// startControlTask starts the task of a ClearCmd ("clear<msg ID>"), a
// PresentCmd or a FlushCmd ("flush<msg ID>": the depth cache's flush) below the
// sender's req_out task of the message, until the Done is sent. The flush's
// write-backs and the HiZControl relayed to the HiZ unit hang below it.
func (c *Comp) startControlTask(kind, msgID string) {
	c.ctlTask.Start(c, kind+msgID, protocol.ReqOutTaskID(msgID), kind, kind)
	c.cache.SetCause(c.ctlTask.ID)
}
