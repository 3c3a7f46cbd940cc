package shadercore

import (
	"strconv"

	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
)

// traced reports whether a tracer is attached: tasks are reported (and their IDs
// built) only then (docs/design-timing.md, section 10).
func (c *Comp) traced() bool { return c.NumHooks() > 0 }

// startWarpTask starts the task of the warp just admitted into slot s: a
// vertex_warp "draw<s>.t<first>.batch<b>@core" below the input assembler's batch, or a
// pixel_warp "warp<id>@core" below the reorder buffer's warp, or a sample_warp
// "pipe<p>.warp<id>@core" below the SAGE sample fill's warp. It ends when the
// warp's output is sent; the warp's texture requests hang below it.
func (c *Comp) startWarpTask(s *warpSlot) {
	if v := s.vertex; v != nil {
		s.task = protocol.BatchTaskID(s.draw.Seq, v.Seq, v.Batch.FirstTriangle, protocol.AtCore)
		tracing.StartTask(s.task, protocol.BatchTaskID(s.draw.Seq, v.Seq, v.Batch.FirstTriangle, ""), c, protocol.KindVertexWarp,
			protocol.Count(s.lanes, "vertices"), nil)
		return
	}
	if g := s.geometry; g != nil {
		b := g.Batch
		s.task = protocol.BatchTaskID(s.draw.Seq, b.Seq, b.Batch.FirstTriangle, ".gs"+strconv.Itoa(g.Warp)+protocol.AtCore)
		tracing.StartTask(s.task, protocol.DrawTaskID(s.draw.Seq), c, protocol.KindGeometryWarp,
			protocol.Count(s.lanes, "primitives"), nil)
		return
	}
	if sw := s.shade; sw != nil {
		s.task = protocol.ShadingWarpTaskID(sw.ID)
		tracing.StartTask(s.task, protocol.DrawTaskID(s.draw.Seq), c, protocol.KindPixelWarp,
			protocol.Count(len(sw.Quads), "shading quads"), nil)
		return
	}
	if q := s.pixel.Quads; len(q) > 0 && q[0].Sample >= 0 {
		// A SAGE sample fill's warp of sample quads, numbered per pipe.
		pipe := q[0].Partition
		s.task = protocol.SampleWarpTaskID(pipe, s.pixel.ID, protocol.AtCore)
		tracing.StartTask(s.task, protocol.SampleWarpTaskID(pipe, s.pixel.ID, protocol.AtFill), c,
			protocol.KindSampleWarp, protocol.Count(len(q), "sample quads"), nil)
		return
	}
	s.task = protocol.WarpTaskID(s.pixel.ID, protocol.AtCore)
	tracing.StartTask(s.task, protocol.WarpTaskID(s.pixel.ID, protocol.AtROB), c, protocol.KindPixelWarp,
		protocol.Count(len(s.pixel.Quads), "quads"), nil)
}
