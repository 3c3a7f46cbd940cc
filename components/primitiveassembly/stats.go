package primitiveassembly

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/timing"
)

// Stats reports the unit's counters as "<name>.<counter>":
//
//	triangles, rejected, clipped, clip_output, culled, set_up   pipeline.GeometryStats
//	primitives               set-up primitives distributed
//	primitives_sent_r<i>     PrimitiveMsg sent to rasterizer i
//	draw_ends                DrawEnd messages sent (one per draw per rasterizer)
//	batches, draws           shaded batches and draws consumed
//	credits_returned         batch slots returned to the input assembler
//	triangles_5d             API triangles of decoupled draws that took the 5D path (each numbered)
//	maps, map_degenerate_t1, map_degenerate_barycentric   decouple.MapStats of the 5D primitives set up
//	gs_warps_sent, gs_warps_returned, gs_warps_reordered   GS warps sent to the cores, returned, returned before primitive assembly reached them (held in the reorder stage)
//	gs_primitives            primitives the strips of GS output were cut into, read back in API order
//	so_primitives_written, so_primitives_needed, so_bytes_written   pipeline.StreamOutStats
//	so_write_requests, so_write_bytes   stream-out memory writes (vertices and counters), and stream_out.* (memclient)
//	cycles_busy, cycles_wait_batch, cycles_blocked_output, cycles_idle,
//	cycles_wait_gs_warp, cycles_wait_stream_out, utilization
func (c *Comp) Stats(add func(name string, v float64)) {
	n := c.Name() + "."
	g := c.geo
	add(n+"triangles", float64(g.Triangles))
	add(n+"rejected", float64(g.Rejected))
	add(n+"clipped", float64(g.Clipped))
	add(n+"clip_output", float64(g.ClipOutput))
	add(n+"culled", float64(g.Culled))
	add(n+"set_up", float64(g.SetUp))
	timing.AddTagged(n, add, &c.st)
	for r, v := range c.sent {
		add(fmt.Sprintf("%sprimitives_sent_r%d", n, r), float64(v))
	}
	add(n+"maps", float64(c.mapSt.Triangles))
	add(n+"map_degenerate_t1", float64(c.mapSt.DegenerateT1))
	add(n+"map_degenerate_barycentric", float64(c.mapSt.DegenerateBarycentric))
	timing.AddTagged(n, add, &c.gs)
	c.geometryStats(n, add)
	c.Activity.Stats(c.Name(), add)
}

// GeometryStats returns the clip/cull/setup counters (the reference renderer's
// Counters.GeometryStats for the same draws).
func (c *Comp) GeometryStats() pipeline.GeometryStats { return c.geo }

// MapStats returns the decoupling-map counters of the 5D primitives set up
// (the reference renderer's Counters.Decoupled.Map).
func (c *Comp) MapStats() decouple.MapStats { return c.mapSt }

// PrimitivesSent returns the number of PrimitiveMsg sent to rasterizer r.
func (c *Comp) PrimitivesSent(r int) uint64 { return c.sent[r] }

// Buffers describes the unit's queues for hang reports.
func (c *Comp) Buffers() []timing.BufferState {
	n := c.Name()
	clip := 0
	if c.clipping {
		clip = 1
	}
	b := []timing.BufferState{
		{Name: n + ".FromShaderCores", Len: c.coresBuf.Size(), Cap: c.coresBuf.Capacity()},
		{Name: n + ".InputAssembler", Len: c.iaBuf.Size(), Cap: c.iaBuf.Capacity()},
		{Name: n + ".BatchSlots", Len: len(c.slots), Cap: c.Cfg.BatchSlots},
		{Name: n + ".Clipper", Len: clip, Cap: 1},
		{Name: n + ".Setup", Len: c.setup.Len(), Cap: max(1, c.setup.Latency) * c.setup.Width},
		{Name: n + ".GSWarpQueue", Len: len(c.gs.sendQ), Cap: len(c.gs.sendQ)},
		{Name: n + ".GSReorder", Len: len(c.gs.done), Cap: len(c.gs.done)},
		{Name: n + ".StreamOutQueue", Len: len(c.gs.soQ), Cap: c.Cfg.StreamOutQueue},
	}
	for r := range c.out {
		b = append(b, timing.BufferState{Name: fmt.Sprintf("%s.Output[%d]", n, r), Len: c.out[r].size, Cap: c.Cfg.OutputQueue})
	}
	return b
}
