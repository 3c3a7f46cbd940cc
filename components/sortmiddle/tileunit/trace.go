package tileunit

import (
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
)

// traced reports whether a tracer is attached: tasks are reported (and their
// IDs built) only then (docs/design-timing.md, section 10).
func (c *TileUnit) traced() bool { return c.NumHooks() > 0 }

// startTileTask starts the screen_tile task of a job that arrived
// ("pass<p>.tile<k>", below the binner's pass task), which ends when its Done
// is sent. Its memory requests, its FlushCmds' req_out tasks and its draws'
// tile_draw tasks hang below it.
func (c *TileUnit) startTileTask(job *protocol.TileJob) {
	seq := job.Pass.Seq
	tracing.StartTask(protocol.ScreenTileTaskID(seq, job.Tile), protocol.PassTaskID(seq), c,
		protocol.KindScreenTile, protocol.ScreenTileWhat(seq, job.Tile), nil)
}

// startDrawTask starts the tile_draw task of draw d in tile t
// ("draw<s>.win<x0>.<y0>", below the screen tile's task) when its first
// primitive is sent to the rasterizer; it ends when the ROP reports the draw
// done. The rasterizer's tasks of the primitives and the quad packer's warps
// hang below it (protocol.WindowDrawTaskID).
func (c *TileUnit) startDrawTask(t *tile, d *protocol.Draw) {
	tracing.StartTask(protocol.WindowDrawTaskID(d.Seq, t.rect), t.task, c, protocol.KindTileDraw,
		protocol.TaskWhat("draw", d.Seq), nil)
}

// traceFront makes the tile in progress (if any) the parent of the memory
// requests that follow.
func (c *TileUnit) traceFront() {
	if c.t != nil {
		c.mem.TraceAs(c, c.t.task)
	}
}
