package inputassembler

import (
	"fmt"
	"slices"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/vertex"
)

// startDraw takes the next DrawDispatch, if any.
func (c *InputAssembler) startDraw(now sim.VTimeInSec) bool {
	dd, ok := protocol.PeekDrawDispatch(&c.Fault, c.FromCommandProcessor)
	switch {
	case !ok:
		return false
	case c.mem == nil:
		c.Fault.Fail(fmt.Errorf("draw %d arrived before SetMemory", dd.Draw.Seq))
		return false
	}
	if c.client == nil {
		if c.Memory == nil {
			c.Fault.Fail(fmt.Errorf("Memory: not set (the line reads' LowModuleFinder)"))
			return false
		}
		cl, err := memclient.New(c.ToMemory, c.Memory, c.Freq, memclient.Config{MaxOutstanding: c.Cfg.MaxOutstandingMemory})
		if err != nil {
			c.Fault.Fail(err)
			return false
		}
		c.client = cl
	}
	if len(c.ShaderCores) == 0 || c.PrimitiveAssemblyPort == nil {
		c.Fault.Fail(fmt.Errorf("ShaderCores (%d ports) or PrimitiveAssemblyPort not set", len(c.ShaderCores)))
		return false
	}
	ds := &drawState{d: dd.Draw, stream: dd.Draw.State.Stream, skipSO: dd.SkipStreamOut}
	first, end, err := dd.Triangles(ds.stream.NumPrimitives())
	if err != nil {
		c.Fault.Fail(fmt.Errorf("draw %d: %w", dd.Draw.Seq, err))
		return false
	}
	truncate(&ds.stream, end)
	ds.first = first
	if first > 0 && first < end { // a chunk reads its indices from its first primitive's
		pos, n := ds.stream.PrimitivePositions(first)
		ds.nextPos = slices.Min(pos[:n])
	}
	c.FromCommandProcessor.Retrieve(now)
	c.draw = ds
	c.st.draws++
	return true
}

// truncate cuts s after primitive end-1 (after its last stream position), so
// that the batcher stops at end (primitive numbers are unchanged: they count
// from the stream's start, across a strip's cuts).
func truncate(s *vertex.Stream, end int) {
	if end >= s.NumPrimitives() {
		return
	}
	if end == 0 {
		s.Count = 0
		return
	}
	pos, n := s.PrimitivePositions(end - 1)
	s.Count = slices.Max(pos[:n]) + 1
}

// indexStage forms the next batch of the current draw (functionally, with
// vertex.Batcher) and spends IndicesPerCycle batch tag lookups per cycle on it;
// each lookup of a stream position whose index was not read yet reads it through
// the index cache (out-of-bounds positions read 0 without a memory access).
func (c *InputAssembler) indexStage(now sim.VTimeInSec) bool {
	progress := false
	if c.cur == nil {
		if c.draw == nil {
			if !c.startDraw(now) {
				return false
			}
			progress = true
		}
		if len(c.fetchQ) >= c.Cfg.BatchQueue {
			return progress
		}
		ds := c.draw
		j := &job{draw: ds.d}
		if !c.batcher.Next(c.mem, &ds.stream, ds.first, &j.batch) {
			// A cut strip's indices after its last triangle (cuts, a strip
			// too short for one) are read too; no batch waits for them.
			before := ds.nextPos
			for ds.stream.Cuts && ds.nextPos < ds.stream.Count && c.readIndex(now, &ds.stream, ds.nextPos, j) {
			}
			if ds.nextPos < ds.stream.Count && ds.stream.Cuts {
				return progress || ds.nextPos != before
			}
			j.marker, j.batches, j.skipSO = true, ds.batches, ds.skipSO
			c.fetchQ = append(c.fetchQ, j)
			c.draw = nil
			return true
		}
		j.seq = uint64(ds.batches)
		j.corners = 3
		if len(j.batch.Prims) > 0 {
			j.corners = j.batch.Corners
		}
		j.steps = j.corners * j.batch.NumPrimitives()
		c.cur = j
		if c.traced() {
			j.task = protocol.BatchTaskID(ds.d.Seq, j.seq, j.batch.FirstTriangle, "")
			tracing.StartTask(j.task, protocol.DrawTaskID(ds.d.Seq), c, protocol.KindVertexBatch,
				protocol.Count(len(j.batch.Vertices), "vertices"), nil)
		}
		progress = true
	}
	j, ds := c.cur, c.draw
	s := &ds.stream
	for budget := c.Cfg.IndicesPerCycle; budget > 0 && j.step < j.steps; budget-- {
		var pos uint32
		if j.corners == 3 {
			pos = s.TrianglePositions(ds.first + j.step/3)[j.step%3]
		} else {
			p, _ := s.PrimitivePositions(ds.first + j.step/j.corners)
			pos = p[j.step%j.corners]
		}
		// Every position up to pos is read, in order: those no primitive
		// uses too (a strip's cut indices, a strip too short for a
		// triangle), as the hardware reads them to find the cuts.
		before := ds.nextPos
		for ds.nextPos <= pos && c.readIndex(now, s, ds.nextPos, j) {
		}
		if ds.nextPos != before {
			progress = true
		}
		if ds.nextPos <= pos {
			break
		}
		j.step++
		progress = true
	}
	if progress {
		c.Env.Progress.Add(1) // index reads move work too (the watchdog's measure)
	}
	if j.step == j.steps && len(c.fetchQ) < c.Cfg.BatchQueue {
		ds.first += j.batch.NumPrimitives()
		ds.batches++
		c.st.tagHits += uint64(j.batch.Hits)
		c.st.tagMisses += uint64(j.batch.Misses)
		j.sub = 0
		c.fetchQ = append(c.fetchQ, j)
		c.cur = nil
		progress = true
	}
	return progress
}

// readIndex reads the index at stream position pos through the index cache (an
// index may straddle two lines). It returns false when a line read cannot be
// issued; j.sub remembers the lines already looked up.
func (c *InputAssembler) readIndex(now sim.VTimeInSec, s *vertex.Stream, pos uint32, j *job) bool {
	if !s.Indexed {
		c.draw.nextPos = pos + 1
		return true
	}
	addr, size, ok := s.IndexAddress(pos)
	if ok {
		ls := uint64(c.indexCache.LineSize())
		first, last := c.indexCache.Line(addr), c.indexCache.Line(addr+uint64(size)-1)
		for line := first + uint64(j.sub)*ls; line <= last; line += ls {
			if !c.access(now, kindIndex, line, j) {
				return false
			}
			j.sub++
		}
	} else {
		c.st.indexOutOfBounds++
	}
	c.st.indexReads++
	j.sub = 0
	c.draw.nextPos = pos + 1
	return true
}

// vertexStage fetches the vertices of the oldest batch whose indices have
// arrived, VerticesPerCycle per cycle, through the vertex cache (a vertex
// outside the vertex buffer reads zeros without a memory access).
func (c *InputAssembler) vertexStage(now sim.VTimeInSec) bool {
	if len(c.fetchQ) == 0 {
		return false
	}
	j := c.fetchQ[0]
	progress := false
	if !j.marker {
		if !j.indexReady {
			if !c.ready(j) {
				return false
			}
			j.indexReady = true
		}
		d := j.draw.State
		ls := uint64(c.vertexCache.LineSize())
		for budget := c.Cfg.VerticesPerCycle; budget > 0 && j.vtx < len(j.batch.Vertices); budget-- {
			addr, size, ok := vertex.VertexAddress(d.VB, &d.Layout, j.batch.Vertices[j.vtx])
			if !ok {
				c.st.vertexOutOfBds++
			} else if size > 0 {
				first, last := c.vertexCache.Line(addr), c.vertexCache.Line(addr+uint64(size)-1)
				for line := first + uint64(j.sub)*ls; line <= last; line += ls {
					if !c.access(now, kindVertex, line, j) {
						return progress
					}
					j.sub++
				}
			}
			j.sub = 0
			j.vtx++
			progress = true
			c.Env.Progress.Add(1)
		}
		if j.vtx < len(j.batch.Vertices) {
			return progress
		}
	}
	if len(c.dispatchQ) >= c.Cfg.BatchQueue {
		return progress
	}
	c.fetchQ[0] = nil
	c.fetchQ = c.fetchQ[1:]
	c.dispatchQ = append(c.dispatchQ, j)
	return true
}

// dispatchStage sends the oldest batch, once its vertices have arrived and a
// credit is held, to a shader core: round-robin from the core after the last one
// used, trying the next core when one refuses (it is busy), all in one cycle. A
// draw's end marker sends BatchInfo to primitive assembly.
func (c *InputAssembler) dispatchStage(now sim.VTimeInSec) bool {
	if len(c.dispatchQ) == 0 {
		return false
	}
	j := c.dispatchQ[0]
	if j.marker {
		if j.info == nil {
			j.info = protocol.NewBatchInfo(j.draw, j.batches)
			j.info.SkipStreamOut = j.skipSO
			j.info.Src, j.info.Dst = c.PrimitiveAssembly, c.PrimitiveAssemblyPort
		}
		j.info.SendTime = now
		if c.PrimitiveAssembly.Send(j.info) != nil {
			c.waitReason.Record(stateWaitSend)
			return false
		}
		c.popDispatch()
		c.Env.Progress.Add(1)
		return true
	}
	if !c.ready(j) {
		return false
	}
	if c.credits.Available() == 0 {
		c.waitReason.Record(stateWaitCredit)
		return false
	}
	if j.msg == nil {
		attrs := make([]vertex.Attributes, len(j.batch.Vertices))
		pipeline.FetchBatch(j.draw.State, c.mem, &j.batch, &c.fetcher, attrs)
		j.msg = protocol.NewVertexBatch(j.draw, j.seq, j.batch, attrs)
		j.msg.Src = c.ToShaderCores
	}
	n := len(c.ShaderCores)
	for i := 1; i <= n; i++ {
		k := (c.lastCore + i) % n
		j.msg.Dst, j.msg.SendTime = c.ShaderCores[k], now
		if c.ToShaderCores.Send(j.msg) != nil {
			continue
		}
		c.lastCore = k
		if c.traced() {
			tracing.EndTask(j.task, c)
		}
		c.credits.Take(1)
		c.st.batches++
		c.st.vertices += uint64(len(j.batch.Vertices))
		c.popDispatch()
		c.Env.Progress.Add(1)
		return true
	}
	c.waitReason.Record(stateWaitCore)
	return false
}

func (c *InputAssembler) popDispatch() {
	c.dispatchQ[0] = nil
	c.dispatchQ = c.dispatchQ[1:]
}
