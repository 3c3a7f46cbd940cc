package shadercore

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/shader"
)

// job is what admission needs to know about an input message.
type job struct {
	draw   *protocol.Draw
	vertex *protocol.VertexBatch
	pixel  *protocol.PixelWarp
	shade  *protocol.ShadingWarp
	prog   *shader.Program
	lanes  int
	widths int // warp widths the lanes occupy (1 unless lanes > WarpSize)
	regs   int
	load   int // cycles of the input loader
}

// admit moves the head of the input queue into a free warp slot when the slot
// and its registers are available (strictly in arrival order), and loads its
// inputs functionally. The loader is a shared unit: the warp becomes ready when
// its load, queued behind earlier loads, completes.
func (c *Comp) admit(now sim.VTimeInSec, cy uint64) bool {
	msg := c.FromDispatch.Peek()
	if msg == nil {
		c.admitWait.set(cy, admitFree)
		return false
	}
	c.gotWork = true
	j, err := c.describe(msg)
	if err != nil {
		c.Fault.Fail(err)
		return false
	}
	free := c.freeSlot()
	b := c.blocked(free, &j)
	if c.admitWait.set(cy, b); b != admitFree {
		return false
	}
	c.FromDispatch.Retrieve(now)

	s := &c.slots[free]
	w := s.warp
	if j.vertex != nil {
		pipeline.LoadVertices(j.draw.State, j.vertex.Attrs, j.lanes, w)
	} else if j.pixel != nil {
		d := j.draw.State
		w.Reset(d.PS, j.lanes, d.PSConstants)
		for q := range j.pixel.Quads {
			wq := &j.pixel.Quads[q]
			if wq.Sample >= 0 {
				pipeline.LoadPerSampleQuad(d, &j.draw.Raster, wq.Prim, wq.Quad, int(wq.Sample), wq.Live,
					j.pixel.PixelRate, w, 4*q)
			} else {
				pipeline.LoadQuad(d, &j.draw.Raster, wq.Prim, wq.Quad, wq.Live, w, 4*q)
			}
		}
		c.stats.helperPixels += uint64(bits.OnesCount64(w.Helper))
	} else {
		loadShadingWarp(j.draw, j.shade, w)
		c.stats.helperPixels += uint64(bits.OnesCount64(w.Helper))
	}
	if !c.loaded(w, j.draw) {
		return false
	}
	c.occupy(free, cy, j, warpSlot{draw: j.draw, vertex: j.vertex, pixel: j.pixel, shade: j.shade})
	return true
}

// occupy makes slot free resident at cycle cy with its loaded warp: slot
// names the work (draw, and the vertex, pixel, shading or geometry work it
// belongs to), job j its lanes, registers, issue widths and input load; the
// slot waits for the interpolators, then issues. An empty program finishes at
// once.
func (c *Comp) occupy(free int, cy uint64, j job, slot warpSlot) {
	s := &c.slots[free]
	w := s.warp
	c.residentChanged(cy)
	start := max(cy, c.interpFreeAt)
	c.interpFreeAt = start + uint64(j.load)
	slot.state, slot.seq, slot.warp, slot.lanes, slot.regs = slotLoading, c.nextSeq, w, j.lanes, j.regs
	slot.issueCycles, slot.sfuCycles = j.widths*c.issueCycles, j.widths*c.sfuCycles
	slot.readyAt, slot.texLanes = c.interpFreeAt, s.texLanes[:0]
	*s = slot
	c.nextSeq++
	if c.traced() {
		c.startWarpTask(s)
	}
	c.order = append(c.order, free)
	c.regsUsed += j.regs
	c.stats.maxResident = max(c.stats.maxResident, len(c.order))
	if w.Done() { // an empty program
		c.finished(s)
	}
}

// describe checks an input message and computes its resource needs.
func (c *Comp) describe(msg sim.Msg) (job, error) {
	var j job
	switch m := msg.(type) {
	case *protocol.VertexBatch:
		j.draw, j.vertex, j.lanes = m.Draw, m, len(m.Batch.Vertices)
		if m.Draw == nil || m.Draw.State == nil || m.Draw.State.VS == nil {
			return j, fmt.Errorf("VertexBatch %d: no draw state or vertex shader", m.Seq)
		}
		if len(m.Attrs) < j.lanes {
			return j, fmt.Errorf("draw %d: VertexBatch %d: %d vertices but %d attribute sets",
				m.Draw.Seq, m.Seq, j.lanes, len(m.Attrs))
		}
		j.prog = m.Draw.State.VS
		j.load = loadCycles((j.lanes+3)/4, len(j.prog.Inputs), c.Cfg.InterpolationCycles)
	case *protocol.PixelWarp:
		j.draw, j.pixel, j.lanes = m.Draw, m, 4*len(m.Quads)
		if m.Draw == nil || m.Draw.State == nil || m.Draw.State.PS == nil {
			return j, fmt.Errorf("PixelWarp %d: no draw state or pixel shader", m.ID)
		}
		for q := range m.Quads {
			if m.Quads[q].Prim == nil {
				return j, fmt.Errorf("draw %d: PixelWarp %d: quad %d has no primitive", m.Draw.Seq, m.ID, q)
			}
			if s := int(m.Quads[q].Sample); s >= m.Draw.Raster.Samples.Count {
				return j, fmt.Errorf("draw %d: PixelWarp %d: quad %d: Sample %d outside the draw's %d samples",
					m.Draw.Seq, m.ID, q, s, m.Draw.Raster.Samples.Count)
			}
		}
		j.prog = m.Draw.State.PS
		j.load = loadCycles(len(m.Quads), m.Draw.State.PSResources.Interpolants, c.Cfg.InterpolationCycles)
	case *protocol.ShadingWarp:
		j.draw, j.shade, j.lanes = m.Draw, m, 4*len(m.Quads)
		if m.Draw == nil || m.Draw.State == nil || m.Draw.State.PS == nil {
			return j, fmt.Errorf("ShadingWarp %d: no draw state or pixel shader", m.ID)
		}
		for q := range m.Quads {
			if p := m.Quads[q].Prim; p == nil || p.Blur == nil || (m.Supersample && p.Blur.Decoupled == nil) {
				return j, fmt.Errorf("draw %d: ShadingWarp %d: quad %d has no 5D primitive", m.Draw.Seq, m.ID, q)
			}
		}
		j.prog = m.Draw.State.PS
		j.load = loadCycles(len(m.Quads), m.Draw.State.PSResources.Interpolants, c.Cfg.InterpolationCycles)
	default:
		return j, fmt.Errorf("FromDispatch: unexpected message %T", msg)
	}
	if j.lanes > shader.MaxLanes {
		return j, fmt.Errorf("draw %d: a warp of %d lanes exceeds %d", j.draw.Seq, j.lanes, shader.MaxLanes)
	}
	return j, c.size(&j)
}

// size sets the issue widths and registers of job j; a program the register
// file cannot hold is an error.
func (c *Comp) size(j *job) error {
	j.widths = max(1, (j.lanes+c.Cfg.WarpSize-1)/c.Cfg.WarpSize)
	j.regs = c.programTemps(j.prog) * c.Cfg.WarpSize * j.widths
	if j.regs > c.Cfg.Registers {
		return fmt.Errorf("draw %d: program %q needs %d registers per warp, the core has %d",
			j.draw.Seq, j.prog.Name, j.regs, c.Cfg.Registers)
	}
	return nil
}

// blocked returns why a job j cannot be admitted into slot free (-1: none
// free), or admitFree.
func (c *Comp) blocked(free int, j *job) admitBlock {
	switch {
	case free < 0:
		return admitBlockedSlots
	case c.regsUsed+j.regs > c.Cfg.Registers:
		return admitBlockedRegisters
	}
	return admitFree
}

// loaded checks the inputs just loaded into warp w for draw d: a load error
// fails the core; otherwise the warp's counters start from zero.
func (c *Comp) loaded(w *shader.Warp, d *protocol.Draw) bool {
	if err := w.Err(); err != nil {
		c.Fault.Fail(fmt.Errorf("draw %d: %w", d.Seq, err))
		return false
	}
	w.Stats = shader.Stats{}
	return true
}

// loadCycles is the input loader's time for groups of four lanes with n
// inputs each at cost cycles per group per input, rounded up.
func loadCycles(groups, inputs int, cost float64) int {
	return int(math.Ceil(float64(groups) * float64(inputs) * cost))
}

// programTemps returns the temporaries a warp of p allocates (at least one).
func (c *Comp) programTemps(p *shader.Program) int {
	if t, ok := c.temps[p]; ok {
		return t
	}
	t := max(1, p.Resources().Temps)
	c.temps[p] = t
	return t
}

// loadShadingWarp loads the shading quads of a shading-cache miss warp into w
// as the reference renderer does: pipeline.LoadShadingQuad per quad, or
// pipeline.LoadSampleQuad in supersample mode.
func loadShadingWarp(d *protocol.Draw, sw *protocol.ShadingWarp, w *shader.Warp) {
	ds := d.State
	w.Reset(ds.PS, 4*len(sw.Quads), ds.PSConstants)
	for q := range sw.Quads {
		sq := &sw.Quads[q]
		if sw.Supersample {
			pipeline.LoadSampleQuad(ds, sq.Prim.Blur.Decoupled, sq.Prim, sq.Tag.QuadX, sq.Tag.QuadY, int(sq.Tag.Sample), sq.Live, w, 4*q)
		} else {
			pipeline.LoadShadingQuad(ds, sq.Prim, sq.Tag, w, 4*q)
		}
	}
}
