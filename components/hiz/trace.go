package hiz

import (
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
)

// traced reports whether a tracer is attached: tasks are reported (and their IDs
// built) only then (docs/design-timing.md, section 10).
func (c *Comp) traced() bool { return c.NumHooks() > 0 }

// queueWrite queues the write-back of line, caused (for the trace) by the task
// the unit works for now.
func (c *Comp) queueWrite(line uint64) {
	c.writes = append(c.writes, line)
	if c.traced() {
		c.writeTasks = append(c.writeTasks, c.cause)
	}
}

// startTileTask starts the tile task of an accepted TileQuads
// ("<primitive>.tile<tx>.<ty>@hiz", below the rasterizer's tile task); it ends
// when the surviving quads are sent, or when HiZ culled them all. The HiZ line
// reads of its lookups and the write-backs its tests cause hang below it.
func (c *Comp) startTileTask(w *work) {
	t := w.tq
	w.task = protocol.TileTaskID(t.Draw.Seq, t.Window, t.Prim, t.TileX, t.TileY, protocol.AtHiZ)
	tracing.StartTask(w.task, protocol.TileTaskID(t.Draw.Seq, t.Window, t.Prim, t.TileX, t.TileY, ""), c,
		protocol.KindTile, protocol.Count(len(t.Quads), "quads"), nil)
}

// startControlTask starts the task of a HiZControl from the depth unit: a clear
// ("clear<msg ID>") or a flush ("flush<msg ID>"), below the depth unit's req_out
// task of the message, until the Done is sent. A flush's write-backs hang below
// it.
func (c *Comp) startControlTask(m *protocol.HiZControl) {
	kind := protocol.KindFlush
	if m.Clear {
		kind = protocol.KindClear
	}
	c.ctlTask.Start(c, kind+m.ID, protocol.ReqOutTaskID(m.ID), kind, kind)
}
