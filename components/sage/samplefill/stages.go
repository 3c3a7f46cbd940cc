package samplefill

import (
	"fmt"
	"math/bits"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/timing"
)

// formStage takes the rasterizer's messages in order: the first message of a
// draw takes the draw's DrawPlan (a barrier becomes a marker entry); a
// TileQuads is expanded into sample quads packed into warps (at most one warp
// closed per cycle); a DrawEnd closes the partial warp and adds a DrawEnd
// entry.
func (c *SampleFill) formStage(now sim.VTimeInSec) bool {
	msg := c.FromRasterizer.Peek()
	if msg == nil {
		return false
	}
	var d *protocol.Draw
	switch m := msg.(type) {
	case *protocol.TileQuads:
		d = m.Draw
	case *protocol.DrawEnd:
		d = m.Draw
	default:
		c.Fault.Unexpected(c.FromRasterizer, msg)
		return false
	}
	progress := false
	if c.cur == nil || c.cur.d != d {
		if c.cur != nil {
			c.Fault.Fail(fmt.Errorf("work of draw %d before the DrawEnd of draw %d", d.Seq, c.cur.d.Seq))
			return false
		}
		if !c.takePlan(now, d) {
			return false
		}
		progress = true
	}
	switch m := msg.(type) {
	case *protocol.TileQuads:
		return c.formWarps(now, m) || progress
	case *protocol.DrawEnd:
		if len(c.open) > 0 && !c.closeWarp() {
			return progress
		}
		c.rob = append(c.rob, &entry{kind: entryDrawEnd, draw: c.cur})
		c.FromRasterizer.Retrieve(now)
		c.cur = nil
		return true
	}
	return progress
}

// takePlan takes draw d's DrawPlan, which must be the next one.
func (c *SampleFill) takePlan(now sim.VTimeInSec, d *protocol.Draw) bool {
	pl, ok := timing.PeekAs[*protocol.DrawPlan](&c.Fault, c.FromDistributor)
	switch {
	case !ok:
		c.stall(stateWaitPlan)
		return false
	case pl.Draw != d:
		c.Fault.Fail(fmt.Errorf("the rasterizer sends draw %d but the next DrawPlan is for draw %d", d.Seq, pl.Draw.Seq))
		return false
	case d.State == nil || d.State.PS == nil:
		c.Fault.Fail(fmt.Errorf("draw %d has no pixel shader", d.Seq))
		return false
	case d.Raster.Samples.Count != c.Cfg.Geometry.Samples:
		c.Fault.Fail(fmt.Errorf("draw %d has %d samples per pixel, the sample buffer geometry %d", d.Seq,
			d.Raster.Samples.Count, c.Cfg.Geometry.Samples))
		return false
	}
	c.FromDistributor.Retrieve(now)
	c.cur = &drawInfo{d: d, rate: pipeline.PixelRateLinks(d.State, c.Cfg.PixelRate), tex: d.State.PSResources.TexFetches}
	c.stats.draws++
	if pl.Barrier {
		c.rob = append(c.rob, &entry{kind: entryBarrier, draw: c.cur, seq: pl.BarrierSeq})
	}
	return true
}

// formWarps appends the sample quads of m (from the current quad on) to the
// open warp: for each quad, sample s of its four pixels for every s live in
// some pixel, ascending (as the reference's flushPerSample). A full warp is
// closed before the next sample quad, once per cycle.
func (c *SampleFill) formWarps(now sim.VTimeInSec, m *protocol.TileQuads) bool {
	progress, closed := false, false
	for c.qi < len(m.Quads) {
		q := &m.Quads[c.qi]
		if !c.started {
			c.rest, c.started = q.Live[0]|q.Live[1]|q.Live[2]|q.Live[3], true
		}
		if c.rest == 0 {
			c.qi, c.started = c.qi+1, false
			continue
		}
		if len(c.open) == c.Cfg.QuadsPerWarp {
			if closed || !c.closeWarp() {
				return progress
			}
			closed = true
		}
		s := bits.TrailingZeros64(c.rest)
		c.rest &= c.rest - 1
		c.open = append(c.open, protocol.WarpQuad{Prim: m.Prim, Quad: q.Quad, Live: q.Live, Partition: c.Cfg.Pipe, Sample: int8(s)})
		c.stats.sampleQuads++
		progress = true
	}
	c.FromRasterizer.Retrieve(now)
	c.qi, c.started = 0, false
	return true
}

// closeWarp turns the open warp into a reorder-buffer entry; false when every
// warp slot is in flight.
func (c *SampleFill) closeWarp() bool {
	if c.warps >= c.Cfg.WarpsInFlight {
		c.stall(stateFull)
		return false
	}
	d := c.cur
	w := protocol.NewPixelWarp(d.d, c.nextID, c.open)
	w.PixelRate, w.ReturnTo = d.rate, c.FromShaderCore
	c.nextID++
	if c.NumHooks() > 0 {
		tracing.StartTask(protocol.SampleWarpTaskID(c.Cfg.Pipe, w.ID, protocol.AtFill), protocol.DrawTaskID(d.d.Seq), c,
			protocol.KindSampleWarp, protocol.Count(len(c.open), "sample quads"), nil)
	}
	c.rob = append(c.rob, &entry{kind: entryWarp, draw: d, warp: w})
	c.warps++
	c.stats.warps++
	c.stats.texMerged += uint64((len(c.open) - distinctQuads(c.open)) * 4 * d.tex)
	c.open = make([]protocol.WarpQuad, 0, c.Cfg.QuadsPerWarp)
	return true
}

// distinctQuads counts the pixel quads of a warp's sample quads (a quad's
// sample quads are consecutive).
func distinctQuads(qs []protocol.WarpQuad) int {
	n := 0
	for i := range qs {
		if i == 0 || qs[i].Prim != qs[i-1].Prim || qs[i].Quad.X != qs[i-1].Quad.X || qs[i].Quad.Y != qs[i-1].Quad.Y {
			n++
		}
	}
	return n
}

// dispatchStage sends the oldest warp not yet sent to the shader core.
func (c *SampleFill) dispatchStage(now sim.VTimeInSec) bool {
	for _, e := range c.rob {
		if e.kind != entryWarp || e.sent {
			continue
		}
		if c.ShaderCore == nil {
			c.Fault.Fail(fmt.Errorf("ShaderCore: not set"))
			return false
		}
		e.warp.Src, e.warp.Dst, e.warp.SendTime = c.ToShaderCore, c.ShaderCore, now
		if c.ToShaderCore.Send(e.warp) != nil {
			c.stall(stateBlockedCore)
			return false
		}
		e.sent = true
		c.Env.Progress.Add(1)
		return true
	}
	return false
}

// receiveStage takes the shaded warps, in any order.
func (c *SampleFill) receiveStage(now sim.VTimeInSec) bool {
	progress := false
	for c.Fault.Err() == nil {
		sw, ok := timing.TakeAs[*protocol.ShadedWarp](&c.Fault, c.FromShaderCore, now)
		if !ok {
			return progress
		}
		progress = true
		e := c.findWarp(sw.Warp)
		if e == nil || len(sw.Outputs) != len(sw.Warp.Quads) {
			c.Fault.Fail(fmt.Errorf("a ShadedWarp for a warp not in flight, or with %d outputs for %d quads",
				len(sw.Outputs), len(sw.Warp.Quads)))
			break
		}
		e.out = sw.Outputs
	}
	return progress
}

func (c *SampleFill) findWarp(w *protocol.PixelWarp) *entry {
	for _, e := range c.rob {
		if e.kind == entryWarp && e.warp == w && e.sent && e.out == nil {
			return e
		}
	}
	return nil
}

// retireStage retires the reorder buffer in order, samplesPerCycle samples
// per cycle: a warp's surviving samples go into their interleaves' bursts; a
// barrier becomes a MarkBarrier in both sched streams; a DrawEnd flushes the
// bursts, puts a MarkDrawEnd in both streams and reports the draw to the
// distributor.
func (c *SampleFill) retireStage(now sim.VTimeInSec) bool {
	progress := false
	budget := c.Cfg.SamplesPerCycle
	for len(c.rob) > 0 && budget > 0 {
		e := c.rob[0]
		switch e.kind {
		case entryBarrier:
			if !c.pushMarkers(protocol.MarkBarrier, e.draw.d, e.seq) {
				return progress
			}
		case entryDrawEnd:
			if !c.retireDrawEnd(now, e) {
				return progress
			}
		case entryWarp:
			if e.out == nil {
				c.stall(stateWaitShader)
				return progress
			}
			moved := c.retireWarp(e, &budget)
			progress = progress || moved
			if e.quad < len(e.warp.Quads) {
				return progress
			}
			if c.NumHooks() > 0 {
				tracing.EndTask(protocol.SampleWarpTaskID(c.Cfg.Pipe, e.warp.ID, protocol.AtFill), c)
			}
			c.warps--
		}
		c.rob[0] = nil
		c.rob = c.rob[1:]
		progress = true
	}
	return progress
}

// retireWarp moves e's surviving samples into bursts within budget; it
// reports whether any moved.
func (c *SampleFill) retireWarp(e *entry, budget *int) bool {
	moved := false
	d := e.draw.d
	for e.quad < len(e.warp.Quads) {
		wq := &e.warp.Quads[e.quad]
		o := &e.out[e.quad]
		s := int(wq.Sample)
		if !e.started {
			e.left = pipeline.Survivors(wq.Live.And(pipeline.SampleBits(s)), o, &c.ws)
			e.started = true
		}
		for !e.left.Empty() {
			if *budget == 0 {
				return moved
			}
			l := e.left
			pix, _ := l.Pop()
			x, y := int(wq.Quad.X)+pix&1, int(wq.Quad.Y)+pix>>1
			smp := protocol.SageSample{X: int32(x), Y: int32(y), S: uint8(s), BackFacing: wq.Prim.Triangle.BackFacing,
				Z: pipeline.SampleZ(d.State, &d.Raster, wq.Prim, x, y, s, pix, o), Color: o.Color[pix]}
			if !c.addSample(d, smp) {
				return moved
			}
			e.left = l
			*budget--
			moved = true
		}
		e.quad++
		e.started = false
	}
	return moved
}

// retireDrawEnd flushes the draw's bursts, queues its MarkDrawEnd markers and
// reports the draw to the distributor.
func (c *SampleFill) retireDrawEnd(now sim.VTimeInSec, e *entry) bool {
	if !e.flushed {
		if !c.flushBursts() || !c.pushMarkers(protocol.MarkDrawEnd, e.draw.d, 0) {
			return false
		}
		e.flushed = true
	}
	if c.Distributor == nil {
		return true
	}
	r := protocol.NewDrawEnd(e.draw.d, c.Cfg.Pipe)
	r.Src, r.Dst, r.SendTime = c.ToDistributor, c.Distributor, now
	if c.ToDistributor.Send(r) != nil {
		c.stall(stateBlockedSched)
		return false
	}
	return true
}
