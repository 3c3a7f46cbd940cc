package shadercore

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/shader"
)

// admitGeometry moves the head of the GS input queue (GS warps from primitive
// assembly, on ToPrimitiveAssembly) into a free warp slot when the slot, its
// registers, its output buffer bytes and a GS warp place are available, and
// loads its primitives (pipeline.LoadPrimitives). GS warps go before the
// dispatch queue: their primitives are older than any vertex batch waiting
// there, and primitive assembly waits for them in API order.
func (c *Comp) admitGeometry(now sim.VTimeInSec, cy uint64) bool {
	msg := c.ToPrimitiveAssembly.Peek()
	if msg == nil {
		return false
	}
	c.gotWork = true
	g, ok := msg.(*protocol.GeometryWarp)
	if !ok {
		c.Fault.Unexpected(c.ToPrimitiveAssembly, msg)
		return false
	}
	j, bytes, err := c.describeGeometry(g)
	if err != nil {
		c.Fault.Fail(err)
		return false
	}
	free := c.freeSlot()
	b := c.blocked(free, &j)
	switch {
	case b != admitFree:
	case c.gsResident >= c.maxGSWarps:
		b = admitBlockedGSWarps
	case c.gsBufUsed+bytes > c.Cfg.GSOutputBuffer:
		b = admitBlockedGSBuffer
	}
	if c.gsWait.set(cy, b); b != admitFree {
		return false
	}
	c.ToPrimitiveAssembly.Retrieve(now)

	s := &c.slots[free]
	w := s.warp
	d := g.Draw.State
	pipeline.LoadPrimitives(d, g.Batch.Batch, g.First, g.Lanes, g.PrimitiveID, g.Batch.Outputs, w)
	if !c.loaded(w, g.Draw) {
		return false
	}
	c.gsBufUsed += bytes
	c.gsResident++
	c.stats.maxGSBufUsed = max(c.stats.maxGSBufUsed, c.gsBufUsed)
	c.occupy(free, cy, j, warpSlot{draw: g.Draw, geometry: g, gsBytes: bytes})
	return true
}

// describeGeometry checks a GS warp and computes its resource needs: its
// registers (as any warp's) and its output buffer bytes, lanes x
// OutputScalars x 4.
func (c *Comp) describeGeometry(g *protocol.GeometryWarp) (job, int, error) {
	var j job
	if g.Draw == nil || g.Draw.State == nil || g.Draw.State.GS == nil || g.Batch == nil || g.Batch.Batch == nil {
		return j, 0, fmt.Errorf("GeometryWarp: no draw state, geometry shader or batch")
	}
	b := g.Batch.Batch
	if ni := pipeline.GSInvocations(g.Draw.State, b.NumPrimitives()); g.Lanes < 1 || g.Lanes > shader.MaxLanes || g.First < 0 || g.First+g.Lanes > ni {
		return j, 0, fmt.Errorf("draw %d: GeometryWarp %d of batch %d: invocations [%d, %d) outside the batch's %d (at most %d lanes)",
			g.Draw.Seq, g.Warp, g.Batch.Seq, g.First, g.First+g.Lanes, ni, shader.MaxLanes)
	}
	d := g.Draw.State
	j.draw, j.lanes, j.prog = g.Draw, g.Lanes, d.GS
	corners := 3
	if len(b.Prims) > 0 {
		corners = b.Corners
	}
	j.load = loadCycles((g.Lanes*corners+3)/4, len(d.GS.Inputs), c.Cfg.InterpolationCycles)
	if err := c.size(&j); err != nil {
		return j, 0, err
	}
	bytes := g.Lanes * d.GS.OutputScalars() * 4
	if bytes > c.Cfg.GSOutputBuffer {
		return j, 0, fmt.Errorf("draw %d: geometry shader %q: a warp of %d invocations needs %d bytes of output buffer (%d vertices x %d output registers x 16 bytes each), more than the core's %d (shader_core.gs_output_buffer_kb)",
			g.Draw.Seq, d.GS.Name, g.Lanes, bytes, d.GS.Geometry.MaxVertices, d.GS.NumOutputRegisters(), c.Cfg.GSOutputBuffer)
	}
	return j, bytes, nil
}

// freeSlot returns the first free warp slot, or -1.
func (c *Comp) freeSlot() int {
	for i := range c.slots {
		if c.slots[i].state == slotFree {
			return i
		}
	}
	return -1
}

// geometryOutput reads a finished GS warp's output buffer: the second
// primitive assembly's strip cutting (pipeline.AssembleEmitted) lane by lane,
// in API order, into a ShadedGeometry for primitive assembly.
func (c *Comp) geometryOutput(s *warpSlot, g *protocol.GeometryWarp) sim.Msg {
	gs := s.draw.State.GS
	out := &pipeline.GeometryOutput{}
	out.Reset(gs.Geometry.Output.Vertices())
	for lane := 0; lane < s.lanes; lane++ {
		pipeline.AssembleEmitted(s.warp, lane, gs.Geometry.Output, out)
	}
	return protocol.NewShadedGeometry(g, out, min(gs.NumOutputRegisters(), shader.MaxOutputs))
}

// geometryStats reports the geometry shader counters that are not tagged
// (Stats reports the tagged ones).
func (c *Comp) geometryStats(p string, add func(string, float64)) {
	st := &c.stats
	add(p+"gs_instructions", float64(st.gs.Instructions))
	add(p+"gs_lane_instructions", float64(st.gs.LaneInstructions))
	add(p+"gs_emits", float64(st.gs.Emits))
	add(p+"gs_emits_dropped", float64(st.gs.EmitsDropped))
	add(p+"gs_admit_blocked_slots_cycles", float64(c.gsWait.cycles[admitBlockedSlots]))
	add(p+"gs_admit_blocked_registers_cycles", float64(c.gsWait.cycles[admitBlockedRegisters]))
	add(p+"gs_admit_blocked_output_buffer_cycles", float64(c.gsWait.cycles[admitBlockedGSBuffer]))
	add(p+"gs_admit_blocked_warps_cycles", float64(c.gsWait.cycles[admitBlockedGSWarps]))
}
