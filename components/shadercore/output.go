package shadercore

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/pipeline"
)

// sendOutputs sends the results of finished warps whose last instruction's
// latency has elapsed, oldest first, at most one message per output port per
// cycle. A warp whose send is refused keeps its slot and registers and is
// retried when the port frees up; the other port is not blocked by it.
func (c *Comp) sendOutputs(now sim.VTimeInSec, cy uint64) bool {
	progress := false
	var usedPA, usedROB bool
	for k := 0; k < len(c.order); {
		s := &c.slots[c.order[k]]
		if s.state != slotDone || s.readyAt > cy {
			k++
			continue
		}
		port, dst, used := c.ToReorderBuffer, c.ReorderBufferPort, &usedROB
		switch {
		case s.vertex != nil || s.geometry != nil:
			port, dst, used = c.ToPrimitiveAssembly, c.PrimitiveAssemblyPort, &usedPA
		case s.pixel != nil && s.pixel.ReturnTo != nil:
			dst = s.pixel.ReturnTo // the warp's sender (SAGE: the pipe's sample fill; a tile unit's reorder buffer)
		case s.shade != nil && s.shade.ReturnTo != nil:
			dst = s.shade.ReturnTo
		}
		if *used {
			k++
			continue
		}
		*used = true
		if dst == nil {
			c.Fault.Fail(fmt.Errorf("%s: no destination port set", port.Name()))
			return false
		}
		if s.out == nil {
			s.out = c.buildOutput(s)
		}
		m := s.out.Meta()
		m.Src, m.Dst, m.SendTime = port, dst, now
		if port.Send(s.out) != nil {
			k++
			continue
		}
		c.Env.Progress.Add(1)
		if c.traced() {
			tracing.EndTask(s.task, c)
		}
		c.release(cy, k)
		progress = true
	}
	return progress
}

// buildOutput reads the results of a finished warp into its output message.
func (c *Comp) buildOutput(s *warpSlot) sim.Msg {
	if v := s.vertex; v != nil {
		out := make([]pipeline.VertexOut, s.lanes)
		pipeline.StoreVertices(s.warp, s.lanes, out)
		return protocol.NewShadedBatch(s.draw, v.Seq, &v.Batch, out)
	}
	if g := s.geometry; g != nil {
		return c.geometryOutput(s, g)
	}
	if sw := s.shade; sw != nil {
		lanes := make([]pipeline.ShadingLanes, len(sw.Quads))
		for q := range lanes {
			lanes[q] = pipeline.ReadShadingQuad(s.draw.State, s.warp, 4*q)
		}
		return protocol.NewShadedLanes(sw, lanes)
	}
	out := make([]pipeline.QuadOutput, len(s.pixel.Quads))
	for q := range out {
		out[q] = pipeline.ReadQuad(s.draw.State, s.warp, 4*q)
	}
	return protocol.NewShadedWarp(s.pixel, out)
}
