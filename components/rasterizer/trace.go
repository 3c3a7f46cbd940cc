package rasterizer

import (
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
)

// tracedPrim is a primitive whose rasterize task is open: it ends once the
// coarse walk is over and every tile it queued has been sent (or found empty).
type tracedPrim struct {
	msg    *protocol.PrimitiveMsg
	id     string
	tiles  int // tiles queued and not yet sent or found empty
	walked bool
}

// traced reports whether a tracer is attached: tasks are reported (and their IDs
// built) only then (docs/design-timing.md, section 10).
func (c *Comp) traced() bool { return c.NumHooks() > 0 }

// primTaken starts the rasterize task of m ("draw<s>.prim<t>.<p>@r<r>", below
// its draw; with a window, "draw<s>.win<x0>.<y0>.prim<t>.<p>@r<r>" below the
// tile unit's task of the draw in that screen tile) when the coarse stage
// takes it.
func (c *Comp) primTaken(m *protocol.PrimitiveMsg) {
	id := protocol.RasterizeTaskID(m.Draw.Seq, m.Window, m.Prim, c.Cfg.Index)
	tracing.StartTask(id, protocol.WindowDrawTaskID(m.Draw.Seq, m.Window), c, protocol.KindRasterize,
		protocol.TaskWhat("triangle", uint64(m.Prim.Source)), nil)
	c.trPrims = append(c.trPrims, tracedPrim{msg: m, id: id})
}

// primWalked notes that the coarse walk of the current primitive is over.
func (c *Comp) primWalked() {
	p := &c.trPrims[len(c.trPrims)-1]
	p.walked = true
	c.primDone(len(c.trPrims) - 1)
}

// primDone ends the task of trPrims[i] when nothing of it is left.
func (c *Comp) primDone(i int) {
	p := &c.trPrims[i]
	if !p.walked || p.tiles > 0 {
		return
	}
	tracing.EndTask(p.id, c)
	c.trPrims = append(c.trPrims[:i], c.trPrims[i+1:]...)
}

// tileLeft counts one tile of msg as done.
func (c *Comp) tileLeft(msg *protocol.PrimitiveMsg) {
	for i := range c.trPrims {
		if c.trPrims[i].msg == msg {
			c.trPrims[i].tiles--
			c.primDone(i)
			return
		}
	}
}

// tileTaken starts the task of a tile the fine rasterizer takes (a tile without
// a covered sample sends nothing and gets no task).
func (c *Comp) tileTaken(f *fineItem, m *protocol.TileQuads) {
	if m == nil {
		c.tileLeft(f.prim)
		return
	}
	tracing.StartTask(protocol.TileTaskID(m.Draw.Seq, m.Window, m.Prim, m.TileX, m.TileY, ""),
		protocol.RasterizeTaskID(m.Draw.Seq, m.Window, m.Prim, c.Cfg.Index), c, protocol.KindTile,
		protocol.Count(len(m.Quads), "quads"), nil)
}

// tileSent ends the task of the tile m was sent for.
func (c *Comp) tileSent(m *protocol.TileQuads) {
	tracing.EndTask(protocol.TileTaskID(m.Draw.Seq, m.Window, m.Prim, m.TileX, m.TileY, ""), c)
	for i := range c.trPrims {
		if p := c.trPrims[i].msg; p.Prim == m.Prim && p.Draw == m.Draw && p.Window == m.Window {
			c.trPrims[i].tiles--
			c.primDone(i)
			return
		}
	}
}

// blurTileTaken starts the tasks of the messages of a 5D tile the fine
// rasterizer takes (one per partition; none when it has no quads of this
// rasterizer).
func (c *Comp) blurTileTaken(f *fineItem, msgs []*protocol.TileQuads) {
	if len(msgs) == 0 {
		c.tileLeft(f.prim)
		return
	}
	for i := range c.trPrims {
		if c.trPrims[i].msg == f.prim {
			c.trPrims[i].tiles += len(msgs) - 1
			break
		}
	}
	for _, m := range msgs {
		tracing.StartTask(protocol.TileTaskID(m.Draw.Seq, m.Window, m.Prim, m.TileX, m.TileY, ""),
			protocol.RasterizeTaskID(m.Draw.Seq, m.Window, m.Prim, c.Cfg.Index), c, protocol.KindTile,
			protocol.Count(len(m.Quads), "quads"), nil)
	}
}
