package tileunit

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
)

// issueLoads reads the tile's lines into the tile memory, once no earlier
// tile is storing behind it (double buffering: a load must not overtake the
// store of a line it reads; loads are rare, since frames clear their
// targets, so the unit waits rather than compare lines).
func (c *TileUnit) issueLoads(now sim.VTimeInSec) bool {
	t := c.t
	if len(c.storing) > 0 {
		return false
	}
	line := uint64(c.Cfg.LineBytes)
	return issueEach(&t.loadNext, len(t.loads), func(i int) bool {
		return c.mem.Read(now, t.loads[i], line, tagLoad|uint64(i))
	})
}

// issueEach issues requests *next, *next+1, ... below end, advancing *next,
// while issue succeeds (the memory client took the request, or the request
// may go); it reports whether any did.
func issueEach(next *int, end int, issue func(i int) bool) bool {
	progress := false
	for ; *next < end && issue(*next); *next++ {
		progress = true
	}
	return progress
}

func (c *TileUnit) issueBinReads(now sim.VTimeInSec) bool {
	t := c.t
	return issueEach(&t.binNext, len(t.binReads), func(i int) bool {
		r := &t.binReads[i]
		// A chunk's reads wait for the link that holds its address.
		return (r.after < 0 || t.binReads[r.after].arrived) && c.mem.Read(now, r.addr, r.size, tagBin|uint64(i))
	})
}

// issueParamReads reads the records of the entries whose bin bytes arrived,
// in line-aligned pieces.
func (c *TileUnit) issueParamReads(now sim.VTimeInSec) bool {
	t := c.t
	progress := false
	line := uint64(c.Cfg.LineBytes)
	for t.paramNext < t.binOK {
		e := t.paramNext
		bp := &t.pass.Prims[t.bin.Entries[e]]
		start, end := bp.Addr, bp.Addr+uint64(bp.Bytes)
		pieces := int((end-1)/line - start/line + 1)
		if t.piece == 0 {
			t.paramLeft[e] = pieces
		}
		for t.piece < pieces {
			a := max(start, (start/line+uint64(t.piece))*line)
			b := min(end, (a/line+1)*line)
			if !c.mem.Read(now, a, b-a, tagParam|uint64(e)) {
				return progress
			}
			t.piece++
			progress = true
		}
		t.piece = 0
		t.paramNext++
	}
	return progress
}

// sendPrimitives sends the entries whose records arrived, in bin order,
// PrimitivesPerCycle per cycle, once the tile is loaded; a DrawEnd goes
// between the primitives of two draws.
func (c *TileUnit) sendPrimitives(now sim.VTimeInSec) bool {
	t := c.t
	if t.loadLeft > 0 || t.loadNext < len(t.loads) {
		return false
	}
	progress := false
	for k := 0; k < c.Cfg.PrimitivesPerCycle && t.sendNext < t.paramNext && t.paramLeft[t.sendNext] == 0; k++ {
		bp := &t.pass.Prims[t.bin.Entries[t.sendNext]]
		if t.lastDraw != nil && t.lastDraw != bp.Draw {
			if !c.sendDrawEnd(now, t.lastDraw) {
				return progress
			}
			t.lastDraw = nil
		}
		m := protocol.NewPrimitiveMsg(bp.Draw, bp.Prim, bp.Index)
		m.Window = t.rect.Quads()
		m.Src, m.Dst, m.SendTime = c.ToRasterizer, c.Rasterizer, now
		if c.ToRasterizer.Send(m) != nil {
			return progress
		}
		if t.lastDraw != bp.Draw && c.traced() {
			c.startDrawTask(t, bp.Draw)
		}
		t.lastDraw = bp.Draw
		t.sendNext++
		c.st.prims++
		progress = true
	}
	return progress
}

func (c *TileUnit) sendDrawEnd(now sim.VTimeInSec, d *protocol.Draw) bool {
	m := protocol.NewDrawEnd(d, 0)
	m.Src, m.Dst, m.SendTime = c.ToRasterizer, c.Rasterizer, now
	if c.ToRasterizer.Send(m) != nil {
		return false
	}
	c.t.drawEnds = append(c.t.drawEnds, d)
	c.st.drawEnds++
	return true
}

func (c *TileUnit) sendFlushes(now sim.VTimeInSec) bool {
	return c.pendingFlush.Send(c.Control, nil, now, func(f sim.Msg) {
		if c.traced() {
			tracing.TraceReqInitiate(f, c, c.t.task)
		}
	})
}

// issueStores writes tile t's colour and depth lines and its display lines,
// each with the image's bytes. Traced, a tile storing behind the tile in
// progress issues its stores below its own screen_tile task.
func (c *TileUnit) issueStores(now sim.VTimeInSec, t *tile) bool {
	if c.traced() && t != c.t {
		c.mem.TraceAs(c, t.task)
		defer c.traceFront()
	}
	progress := false
	n := uint64(c.Cfg.LineBytes)
	for t.storeNext < len(t.stores)+len(t.display) {
		var l uint64
		display := t.storeNext >= len(t.stores)
		if display {
			l = t.display[t.storeNext-len(t.stores)]
		} else {
			l = t.stores[t.storeNext]
		}
		data, ok := c.Image.Slice(l, n)
		if !ok {
			data = make([]byte, n)
			c.Image.ReadAt(data, l)
		}
		if !c.mem.Write(now, l, data, tagStore|t.seq&^tagMask) {
			return progress
		}
		if display {
			c.st.displayBytes += n
		} else {
			c.st.storeBytes += n
		}
		t.storeNext++
		t.storeLeft++
		progress = true
	}
	return progress
}

// stored reports whether every store of the tile was issued and answered.
func (t *tile) stored() bool {
	return t.storeNext == len(t.stores)+len(t.display) && t.storeLeft == 0
}

// drainStores issues the stores of the tiles storing behind the tile in
// progress, oldest first, and finishes those whose stores are all answered,
// in order.
func (c *TileUnit) drainStores(now sim.VTimeInSec, cy uint64) bool {
	progress := false
	for _, t := range c.storing {
		progress = c.issueStores(now, t) || progress
	}
	for len(c.storing) > 0 && c.storing[0].stored() {
		c.finishTile(c.storing[0], cy)
		c.storing = c.storing[1:]
		progress = true
	}
	return progress
}

// finishTile counts tile t done and queues its Done for the scheduler.
func (c *TileUnit) finishTile(t *tile, cy uint64) {
	cycles := cy - t.start
	c.st.tiles++
	c.st.tileCycles += cycles
	c.st.tileCyclesMax = max(c.st.tileCyclesMax, cycles)
	if len(t.bin.Entries) == 0 {
		c.st.emptyTiles++
	}
	c.out.Push(protocol.NewDone(t.job.ID, c.Cfg.Index))
	if c.traced() {
		c.outTasks = append(c.outTasks, t.task)
	}
}

func (c *TileUnit) sendDone(now sim.VTimeInSec) bool {
	return c.out.Send(c.FromScheduler, c.Scheduler, now, func(sim.Msg) {
		if len(c.outTasks) > 0 {
			tracing.EndTask(c.outTasks[0], c)
			c.outTasks = c.outTasks[1:]
		}
	})
}

// receiveMemory takes the memory's answers.
func (c *TileUnit) receiveMemory(now sim.VTimeInSec) bool {
	arrived := c.mem.ReceiveAll(now)
	t := c.t
	for _, cp := range arrived {
		idx := int(cp.Tag &^ tagMask)
		if cp.Tag&tagMask == tagStore {
			if s := c.storingTile(cp.Tag &^ tagMask); s != nil {
				s.storeLeft--
				continue
			}
		}
		if t == nil {
			c.Fault.Fail(fmt.Errorf("a memory answer without a tile in progress"))
			return true
		}
		switch cp.Tag & tagMask {
		case tagLoad:
			t.loadLeft--
			c.st.loadBytes += cp.Size
		case tagBin:
			t.binReads[idx].arrived = true
			c.st.binBytes += cp.Size
			// The arrived prefix of the bin's reads, in entry order (a read
			// of a link alone holds no entry and gates nothing).
			for t.binCursor < len(t.binReads) {
				r := &t.binReads[t.binCursor]
				if r.first < r.end {
					if !r.arrived {
						break
					}
					t.binOK = r.end
				}
				t.binCursor++
			}
		case tagParam:
			t.paramLeft[idx]--
			c.st.paramBytes += cp.Size
		case tagStore:
			t.storeLeft--
		}
	}
	return len(arrived) > 0
}

// storingTile returns the tile storing behind the tile in progress whose
// seq's low 56 bits are seq (nil: none).
func (c *TileUnit) storingTile(seq uint64) *tile {
	for _, t := range c.storing {
		if t.seq&^tagMask == seq {
			return t
		}
	}
	return nil
}

// receiveControl takes the ROP's DrawDone and the back end's Done.
func (c *TileUnit) receiveControl(now sim.VTimeInSec) bool {
	progress := false
	for {
		msg := c.Control.Retrieve(now)
		if msg == nil {
			return progress
		}
		progress = true
		t := c.t
		switch m := msg.(type) {
		case *protocol.DrawDone:
			if err := drawDone(t, m); err != nil {
				c.Fault.Fail(err)
				return progress
			}
			t.drawEnds = t.drawEnds[1:]
			if c.traced() {
				tracing.EndTask(protocol.WindowDrawTaskID(m.Draw.Seq, t.rect), c)
			}
		case *protocol.Done:
			if t == nil || len(t.flushIDs) == 0 || !removeID(&t.flushIDs, m.RspTo) {
				c.Fault.Fail(fmt.Errorf("Done for a FlushCmd the tile did not send"))
				return progress
			}
			if c.traced() {
				tracing.EndTask(protocol.ReqOutTaskID(m.RspTo), c)
			}
		default:
			c.Fault.Unexpected(c.Control, msg)
			return progress
		}
	}
}

// drawDone checks that the ROP's DrawDone m reports the oldest draw of tile
// t still at the ROP.
func drawDone(t *tile, m *protocol.DrawDone) error {
	name := "a DrawDone without a draw"
	if m.Draw != nil {
		name = fmt.Sprintf("DrawDone for draw %d", m.Draw.Seq)
	}
	switch {
	case t == nil:
		return fmt.Errorf("%s with no tile in progress", name)
	case len(t.drawEnds) == 0:
		return fmt.Errorf("%s: tile %d has no draw at the ROP", name, t.job.Tile)
	case t.drawEnds[0] != m.Draw:
		return fmt.Errorf("%s: tile %d waits for draw %d first", name, t.job.Tile, t.drawEnds[0].Seq)
	}
	return nil
}

func removeID(ids *[]string, id string) bool {
	for i, v := range *ids {
		if v == id {
			*ids = append((*ids)[:i], (*ids)[i+1:]...)
			return true
		}
	}
	return false
}

// serve is the tile memory: it takes the back end's line requests,
// MemoryBytesPerCycle bytes per cycle (at least one request), and answers
// each MemoryLatency cycles later, in order.
func (c *TileUnit) serve(now sim.VTimeInSec, cy uint64) bool {
	progress := false
	for len(c.tm) > 0 && c.tm[0].ready <= cy {
		r := c.tm[0].req
		var rsp sim.Msg
		switch req := r.(type) {
		case *mem.ReadReq:
			data, ok := c.Image.Slice(req.Address, req.AccessByteSize)
			if !ok {
				data = make([]byte, req.AccessByteSize)
				c.Image.ReadAt(data, req.Address)
			}
			rsp = mem.DataReadyRspBuilder{}.WithSendTime(now).WithSrc(c.TileMemory).WithDst(req.Src).
				WithRspTo(req.ID).WithData(data).Build()
		case *mem.WriteReq:
			rsp = mem.WriteDoneRspBuilder{}.WithSendTime(now).WithSrc(c.TileMemory).WithDst(req.Src).
				WithRspTo(req.ID).Build()
		}
		if c.TileMemory.Send(rsp) != nil {
			break
		}
		if c.traced() {
			tracing.TraceReqComplete(r, c)
		}
		c.tm = c.tm[1:]
		progress = true
	}
	taken := 0
	for {
		msg := c.TileMemory.Peek()
		if msg == nil {
			break
		}
		var size int
		read := false
		switch req := msg.(type) {
		case *mem.ReadReq:
			size, read = int(req.AccessByteSize), true
		case *mem.WriteReq:
			size = len(req.Data)
		default:
			c.Fault.Unexpected(c.TileMemory, msg)
			return progress
		}
		if taken > 0 && taken+size > c.Cfg.MemoryBytesPerCycle {
			c.Waker.WakeIn(now, 1)
			break
		}
		c.TileMemory.Retrieve(now)
		if c.traced() {
			tracing.TraceReqReceive(msg, c)
		}
		if read {
			c.st.tmReads++
			c.st.tmBytesRead += uint64(size)
		} else {
			c.st.tmWrites++
			c.st.tmBytesWritten += uint64(size)
		}
		taken += size
		ready := cy + uint64(c.Cfg.MemoryLatency)
		c.tm = append(c.tm, tmReq{req: msg, ready: ready})
		c.Waker.WakeIn(now, c.Cfg.MemoryLatency)
		progress = true
	}
	return progress
}
