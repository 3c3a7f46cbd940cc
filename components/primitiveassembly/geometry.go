package primitiveassembly

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/functional/state"
)

// geometryStage is primitive assembly's geometry stage: the GS warps waiting
// to be sent to the cores, the finished warps' outputs waiting for their turn
// in API order (the reorder stage, keyed by batch and warp number), the output
// being read back, and the stream-out unit's write queue.
type geometryStage struct {
	sendQ    []*protocol.GeometryWarp   // GS warps not yet accepted by a core, in order
	done     []*protocol.ShadedGeometry // finished warps not yet read back (any order)
	lastCore int                        // round-robin position of the GS warp dispatch
	warp     int                        // current batch: the GS warp being read back
	out      *pipeline.GeometryOutput   // its output (or the pass-through output)
	prim     int                        // its next primitive
	pass     pipeline.GeometryOutput    // pass-through output of a stream-out draw without GS
	soQ      []soWrite                  // stream-out writes waiting to be issued, in order
	soNext   uint64                     // bytes of soQ[0] already issued
	soOut    int                        // stream-out writes in flight
	client   *memclient.Client          // the stream-out unit's memory interface

	// Statistics (the tagged fields are reported as they are named).
	warpsSent uint64 `stat:"gs_warps_sent"`      // GS warps sent
	warpsDone uint64 `stat:"gs_warps_returned"`  // returned
	reordered uint64 `stat:"gs_warps_reordered"` // returned before their turn
	outPrims  uint64 `stat:"gs_primitives"`      // primitives read back from GS output
	so        pipeline.StreamOutStats
	soWrites  uint64 `stat:"so_write_requests"`
	soBytes   uint64 `stat:"so_write_bytes"`
}

// soWrite is a byte range the stream-out unit writes to memory (a primitive's
// vertices in one buffer, or a counter).
type soWrite struct{ addr, size uint64 }

// stepResult says what geometryStep did with the current batch.
type stepResult uint8

const (
	stepMoved    stepResult = iota // one output primitive went through
	stepHeld                       // ... and the clipper holds it
	stepFinished                   // the batch had no more primitives: its slot was freed
)

// active reports whether the geometry stage has work in its queues.
func (g *geometryStage) active() bool {
	return len(g.sendQ) > 0 || len(g.soQ) > 0 || g.soOut > 0
}

// startBatch starts reading back the output of the current batch.
func (g *geometryStage) startBatch() { g.warp, g.out, g.prim = 0, nil, 0 }

// SetMemory gives the unit the functional memory image the stream-out
// writes go to (and the filled-size counters are read from).
func (c *Comp) SetMemory(m state.Memory) { c.mem = m }

// warpsOf returns the number of GS warps of a shaded batch: its invocations
// (pipeline.GSInvocations, a primitive per instance of the shader), at most
// shader.MaxLanes a warp, as pipeline.ShadeGeometry cuts them.
func warpsOf(sb *protocol.ShadedBatch) int {
	return (pipeline.GSInvocations(sb.Draw.State, sb.Batch.NumPrimitives()) + shader.MaxLanes - 1) / shader.MaxLanes
}

// queueGeometryWarps queues the GS warps of a shaded batch of a draw with a
// geometry shader: one lane per invocation, shader.MaxLanes per warp; the
// batch's first primitive is FirstTriangle in the draw.
func (c *Comp) queueGeometryWarps(sb *protocol.ShadedBatch) {
	ni := pipeline.GSInvocations(sb.Draw.State, sb.Batch.NumPrimitives())
	for k := 0; k < warpsOf(sb); k++ {
		first := k * shader.MaxLanes
		n := min(ni-first, shader.MaxLanes)
		w := protocol.NewGeometryWarp(sb, k, first, n, sb.Batch.FirstTriangle)
		w.Src = c.FromShaderCores
		c.gs.sendQ = append(c.gs.sendQ, w)
	}
}

// shadedGeometry takes a finished GS warp's output into the reorder stage.
func (c *Comp) shadedGeometry(sg *protocol.ShadedGeometry) error {
	if sg.Warp == nil || sg.Warp.Batch == nil || sg.Out == nil {
		return fmt.Errorf("ShadedGeometry: missing warp, batch or output")
	}
	sb := sg.Warp.Batch
	if c.findSlot(sb.Draw, sb.Seq) != sb {
		return fmt.Errorf("ShadedGeometry: draw %d batch %d warp %d: the batch is not held", sb.Draw.Seq, sb.Seq, sg.Warp.Warp)
	}
	c.gs.warpsDone++
	if c.cur != sb || c.gs.warp != sg.Warp.Warp {
		c.gs.reordered++
	}
	c.gs.done = append(c.gs.done, sg)
	return nil
}

// geometryIO sends the next GS warp to a core (round-robin from the core after
// the last one used; a core whose GS input queue is full is skipped), issues
// the next stream-out write and takes the finished ones.
func (c *Comp) geometryIO(now sim.VTimeInSec) bool {
	progress := false
	if g := &c.gs; len(g.sendQ) > 0 {
		n := len(c.ShaderCores)
		if n == 0 {
			c.Fault.Fail(fmt.Errorf("ShaderCores: not set (the cores GS warps go to)"))
			return false
		}
		w := g.sendQ[0]
		for i := 1; i <= n; i++ {
			k := (g.lastCore + i) % n
			w.Dst, w.SendTime = c.ShaderCores[k], now
			if c.FromShaderCores.Send(w) != nil {
				continue
			}
			g.lastCore = k
			g.sendQ[0] = nil
			g.sendQ = g.sendQ[1:]
			g.warpsSent++
			c.Env.Progress.Add(1)
			progress = true
			break
		}
	}
	if c.gs.client != nil {
		progress = c.streamOutIO(now) || progress
	}
	return progress
}

// streamOutIO takes completed stream-out writes and issues the next one: the
// head of the queue, one request per cycle, each inside one 64-byte line.
func (c *Comp) streamOutIO(now sim.VTimeInSec) bool {
	g := &c.gs
	done := len(g.client.ReceiveAll(now))
	g.soOut -= done
	progress := done > 0
	if len(g.soQ) == 0 {
		return progress
	}
	w := g.soQ[0]
	addr := w.addr + g.soNext
	size := min(w.addr+w.size-addr, soLineBytes-addr%soLineBytes)
	src, ok := c.mem.Slice(addr, size)
	if !ok {
		return progress
	}
	if !g.client.Write(now, addr, append([]byte(nil), src...), 0) {
		return progress
	}
	g.soOut++
	g.soWrites++
	g.soBytes += size
	g.soNext += size
	if g.soNext == w.size {
		g.soQ = g.soQ[1:]
		g.soNext = 0
	}
	c.Env.Progress.Add(1)
	return true
}

// soLineBytes is the granule of a stream-out write request.
const soLineBytes = 64

// beginGeometry starts the geometry stage of draw ds when it becomes the
// current draw: the stream-out unit takes each buffer's write position (its
// bind offset, or the filled-size counter the previous stream-out left in
// memory: primitive assembly takes draws in API order, so that write is done).
func (c *Comp) beginGeometry(ds *drawState) {
	ds.begun = true
	d := ds.d.State
	ds.rasterize = d.StreamOut == nil || d.StreamOut.Rasterize
	if d.StreamOut == nil || ds.skipSO {
		return
	}
	if c.mem == nil {
		c.Fault.Fail(fmt.Errorf("draw %d streams out but SetMemory was not called", ds.d.Seq))
		return
	}
	if c.gs.client == nil {
		if c.Memory == nil {
			c.Fault.Fail(fmt.Errorf("Memory: not set (the stream-out writes' LowModuleFinder)"))
			return
		}
		cl, err := memclient.New(c.ToMemory, c.Memory, c.Freq, memclient.Config{MaxOutstanding: c.Cfg.StreamOutWrites})
		if err != nil {
			c.Fault.Fail(err)
			return
		}
		c.gs.client = cl
	}
	ds.so = pipeline.BeginStreamOut(d, c.mem)
}

// endStreamOut writes draw ds's filled-size counters and statistics (once)
// and reports whether all its stream-out writes are done: the draw's end
// marker, and so its DrawEnd and DrawDone, wait for them.
func (c *Comp) endStreamOut(ds *drawState) bool {
	if !ds.soEnded {
		if len(c.gs.soQ)+len(ds.d.State.StreamOut.Buffers)+1 > c.Cfg.StreamOutQueue && len(c.gs.soQ) > 0 {
			return false
		}
		ds.soEnded = true
		ds.so.End()
		c.gs.so.Add(ds.so.Stats)
		so := ds.d.State.StreamOut
		for _, b := range so.Buffers {
			c.queueWrite(b.FilledAddr, 4)
		}
		if so.StatsAddr != 0 {
			c.queueWrite(so.StatsAddr, 8)
		}
	}
	return len(c.gs.soQ) == 0 && c.gs.soOut == 0
}

// queueWrite queues a stream-out write of the mapped bytes [addr, addr+size).
func (c *Comp) queueWrite(addr, size uint64) {
	if _, ok := c.mem.Slice(addr, size); ok && size > 0 {
		c.gs.soQ = append(c.gs.soQ, soWrite{addr: addr, size: size})
	}
}

// geometryStep moves one output primitive of the current batch of a draw
// with a geometry stage: from the GS warps' outputs in API order (warp 0's
// primitives, then warp 1's, ...; a warp that has not come back stalls the
// stage) or the pass-through primitives, through stream-out, then clip, cull
// and setup when the draw is rasterized. moved is false when it must wait.
func (c *Comp) geometryStep(cyc uint64, ds *drawState) (bool, stepResult) {
	out, ok := c.currentOutput(ds)
	if !ok {
		c.waitGS = true
		return false, stepMoved
	}
	if out == nil {
		c.finishBatch(ds)
		return true, stepFinished
	}
	g := &c.gs
	v := out.Vertices(g.prim)
	if so := ds.so; so != nil {
		bufs := ds.d.State.StreamOut.Buffers
		if len(g.soQ)+len(bufs) > c.Cfg.StreamOutQueue && len(g.soQ) > 0 {
			c.waitSO = true
			return false, stepMoved
		}
		var pos [4]uint32
		for i := range bufs {
			pos[i] = so.Filled(i)
		}
		written := so.Stats.PrimitivesWritten
		so.Primitive(v, out.Corners)
		if so.Stats.PrimitivesWritten > written {
			for i, b := range bufs {
				c.queueWrite(b.Addr+uint64(pos[i]), uint64(out.Corners)*uint64(b.Stride))
			}
		}
	}
	g.prim++
	if ds.d.State.GS != nil {
		g.outPrims++
	}
	source := ds.source
	ds.source++
	if !ds.rasterize {
		return true, stepMoved
	}
	clipped := c.geo.Clipped
	it := c.newSetupItem(ds, ds.geo.Triangle(source, v, nil, &c.geo))
	if c.geo.Clipped != clipped && c.Cfg.ClipCycles > 0 {
		c.clipping, c.clipItem, c.clipDone = true, it, cyc+uint64(c.Cfg.ClipCycles)
		return true, stepHeld
	}
	if it != nil {
		c.setup.Accept(cyc, it)
	}
	return true, stepMoved
}

// currentOutput returns the output holding the current batch's next
// primitive (nil when the batch has none left), or false while the GS warp
// next in API order has not come back.
func (c *Comp) currentOutput(ds *drawState) (*pipeline.GeometryOutput, bool) {
	g := &c.gs
	sb := c.cur
	for {
		if g.out != nil {
			if g.prim < len(g.out.Prims) {
				return g.out, true
			}
			g.out = nil
			g.warp++
		}
		d := ds.d.State
		if d.GS == nil {
			if g.warp > 0 {
				return nil, true
			}
			g.pass.Reset(d.OutputPrimitive().Vertices())
			pipeline.PassThrough(d, sb.Batch, sb.Outputs, &g.pass)
			g.out, g.prim = &g.pass, 0
			continue
		}
		if g.warp >= warpsOf(sb) {
			return nil, true
		}
		i := c.findGeometry(sb, g.warp)
		if i < 0 {
			return nil, false
		}
		g.out, g.prim = g.done[i].Out, 0
		g.done = append(g.done[:i], g.done[i+1:]...)
	}
}

// findGeometry returns the index in the reorder stage of warp w of batch sb's
// output, or -1.
func (c *Comp) findGeometry(sb *protocol.ShadedBatch, w int) int {
	for i, sg := range c.gs.done {
		if sg.Warp.Batch == sb && sg.Warp.Warp == w {
			return i
		}
	}
	return -1
}

// geometryStats reports the geometry stage's counters that are not tagged (Stats
// reports the tagged ones).
func (c *Comp) geometryStats(p string, add func(string, float64)) {
	g := &c.gs
	add(p+"so_primitives_written", float64(g.so.PrimitivesWritten))
	add(p+"so_primitives_needed", float64(g.so.PrimitivesNeeded))
	add(p+"so_bytes_written", float64(g.so.BytesWritten))
	if g.client != nil {
		g.client.Stats(p+"stream_out", add)
	}
}
