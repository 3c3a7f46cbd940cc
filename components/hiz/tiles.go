package hiz

// The HiZ unit: the test stage and the output of tested tiles.

import (
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
)

// output sends the tested message at the head of the pipeline, and a control
// acknowledgement once the window is empty.
func (c *Comp) output(now sim.VTimeInSec, cycle uint64) bool {
	progress := false
	for {
		w, ok := c.out.Peek(cycle)
		if !ok {
			break
		}
		if w.out != nil {
			if !c.sender.Send(c.ToDepthUnit, c.DepthUnit, w.out, now) {
				return progress
			}
			if w.task != "" {
				tracing.EndTask(w.task, c)
			}
			switch m := w.out.(type) {
			case *protocol.TileQuads:
				c.st.tilesOut++
				c.st.quadsOut += uint64(len(m.Quads))
			}
		} else if w.kind == workTiles {
			c.st.messagesCulled++
			if w.task != "" {
				tracing.EndTask(w.task, c)
			}
		}
		c.out.Pop()
		c.popWork()
		progress = true
	}
	if c.ctlAck != nil && len(c.works) == 0 && c.sender.Send(c.ToDepthUnit, c.DepthUnit, c.ctlAck, now) {
		c.ctlTask.End(c)
		c.ctlAck = nil
		progress = true
	}
	return progress
}

func (c *Comp) popWork() {
	copy(c.works, c.works[1:])
	c.works[len(c.works)-1] = nil
	c.works = c.works[:len(c.works)-1]
	c.look--
	c.tested--
}

// test runs HiZ on the messages whose lines are present, in order, at
// TestsPerCycle coarse tests per cycle; the results leave Latency cycles later.
func (c *Comp) test(now sim.VTimeInSec, cycle uint64) bool {
	c.rate.Refill(cycle)
	progress := false
	for c.tested < c.look {
		w := c.works[c.tested]
		if w.pending > 0 || len(c.fbWait) > 0 {
			c.waitMem = true
			return progress
		}
		if w.kind == workTiles && !c.rate.OK() {
			c.rateBlocked = true
			return progress
		}
		if !c.out.CanAccept(cycle) {
			return progress
		}
		switch w.kind {
		case workTiles:
			if c.traced() {
				c.cause = w.task
			}
			c.runTiles(w)
			c.rate.Take(w.coarseNs)
		case workPass:
			w.out = passOn(w.tq, w.tq.Quads)
		case workBlur:
			c.forget(w)
			w.out = passOn(w.tq, w.tq.Quads)
		case workDrawEnd:
			w.out = protocol.NewDrawEnd(w.end.Draw, w.end.From)
		}
		c.out.Accept(cycle, w)
		c.tested++
		progress = true
	}
	return progress
}

// forget passes a 5D primitive's quads untested (HiZ bounds a primitive's
// depths by its plane; a stochastically rasterized one has none) and makes the
// HiZ tiles their samples cover unknown until the next clear
// (hiz.Buffer.Forget), so that no later primitive is culled against bounds
// the 5D samples' writes may have broken. The forgotten state is an on-chip
// bit per tile (as the fast-clear tags): it costs no HiZ-cache access.
func (c *Comp) forget(w *work) {
	t := w.tq
	pos := fhiz.Pos{Draw: t.Draw.Seq, Prim: fhiz.PrimOrder(t.Prim.Source, t.Prim.Part)}
	for i := range t.Quads {
		q := &t.Quads[i]
		w.info.slot.buf.Forget(&w.info.dc, q.Quad.X, q.Quad.Y, q.Live, pos)
	}
}

// runTiles runs the coarse tests of one message and builds its output.
func (c *Comp) runTiles(w *work) {
	s, t := w.info.slot, w.tq
	b := s.buf
	c.snap = c.snap[:0]
	for _, ti := range w.tiles {
		c.snap = append(c.snap, b.Tile(ti))
	}
	before := b.Count()
	pos := fhiz.Pos{Draw: t.Draw.Seq, Prim: fhiz.PrimOrder(t.Prim.Source, t.Prim.Part)}
	b.ProcessQuads(&w.info.dc, &t.Draw.Raster, t.Prim, w.quads, w.live, pos)
	w.coarseNs = int(b.Count() - before)
	c.tests += uint64(w.coarseNs)
	if c.hizCfg.Mode != fhiz.Oracle {
		for i, ti := range w.tiles {
			if b.Tile(ti) == c.snap[i] {
				continue
			}
			line := s.lay.line(ti)
			for k := 0; k < s.lay.linesPerTile; k++ {
				l := line + uint64(k)*c.lineBytes
				if !c.tags.contains(l) {
					c.allocate(l) // evicted since its lookup: the unit holds its data
					c.st.refills++
				}
				c.tags.setDirty(l)
			}
		}
	}
	kept := make([]protocol.QuadLive, 0, len(w.quads))
	for i, q := range t.Quads {
		if !w.live[i].Empty() {
			kept = append(kept, protocol.QuadLive{Quad: q.Quad, Live: w.live[i]})
		}
	}
	if len(kept) > 0 {
		w.out = passOn(t, kept)
	}
}

// passOn returns the TileQuads that sends quads of tile t on to the depth
// unit.
func passOn(t *protocol.TileQuads, quads []protocol.QuadLive) *protocol.TileQuads {
	m := protocol.NewTileQuads(t.Draw, t.Prim, t.TileX, t.TileY, t.Partition, quads)
	m.Window = t.Window
	return m
}
