package primitiveassembly

import (
	"fmt"
	"math/bits"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/timing"
)

var _ protocol.Unit = (*Comp)(nil)

// Activity states (timing.Activity indices).
const (
	stateBusy = iota
	stateWaitBatch
	stateBlockedOutput
	stateWaitGSWarp    // the next GS warp in API order has not come back
	stateWaitStreamOut // the stream-out write queue is full, or a draw's writes drain
	stateIdle          // last: timing.Activity starts in it
)

var activityNames = []string{"busy", "wait_batch", "blocked_output", "wait_gs_warp", "wait_stream_out", "idle"}

// Comp is the primitive assembly unit: it restores the API order of shaded vertex
// batches, assembles their triangles, clips, culls and sets them up
// (pipeline.Geometry), and sends each primitive to the rasterizers owning a tile
// of its bounding box. See the package documentation.
type Comp struct {
	timing.Unit[Config]

	// FromShaderCores receives protocol.ShadedBatch.
	FromShaderCores sim.Port
	// InputAssembler receives protocol.BatchInfo and sends protocol.BatchCredit.
	InputAssembler sim.Port
	// ToRasterizers sends protocol.PrimitiveMsg and protocol.DrawEnd.
	ToRasterizers sim.Port

	// InputAssemblerPort is the input assembler's port credits are sent to.
	InputAssemblerPort sim.Port
	// Rasterizers are the rasterizers' input ports, indexed by rasterizer.
	Rasterizers []sim.Port
	// ShaderCores are the ports GS warps go to (each core's
	// ToPrimitiveAssembly), sent from FromShaderCores.
	ShaderCores []sim.Port
	// ToMemory sends the stream-out unit's writes to the port Memory finds
	// for each address.
	ToMemory sim.Port
	Memory   mem.LowModuleFinder

	mem state.Memory // the functional memory image (SetMemory)

	coresBuf, iaBuf sim.Buffer

	draws []*drawState // draws with work left, in order; draws[0] is current
	// nextSeq is the draw that comes next: every draw of the frame passes
	// through the unit (an empty one as a BatchInfo of 0 batches), numbered
	// from 0 (protocol.Draw.Seq), so a later draw waits while an earlier one's
	// BatchInfo is still on its way.
	nextSeq uint64
	slots   []*protocol.ShadedBatch // shaded batches held, in arrival order

	cur     *protocol.ShadedBatch // batch being assembled (still in slots)
	nextTri int                   // its next triangle

	clipping bool       // a triangle is in the clipper (or in 5D setup)
	clipItem *setupItem // its primitives (nil when none survived)
	clipDone uint64     // cycle at which it leaves the clipper

	patterns pipeline.PatternCache // 5D sample patterns of the decoupled draws
	nextID   uint32                // primitive numbers of the frame's 5D-path triangles

	setup    *timing.Pipeline[*setupItem]
	headNext int        // next primitive of the setup pipeline's head item to distribute
	out      []msgQueue // per rasterizer
	credits  int        // batch slots freed whose credit is not sent yet

	// Per-tick observations for the activity accounting.
	waitBatch, blocked bool
	waitGS, waitSO     bool

	gs geometryStage // GS warps, their reordering and stream-out

	traceLast *setupItem   // tracing: the current batch's latest item
	traceEnds []pendingEnd // tracing: tasks that end when their primitives are sent

	geo   pipeline.GeometryStats
	st    counters
	sent  []uint64          // primitive messages per rasterizer
	mapSt decouple.MapStats // the decoupling maps of the 5D primitives set up
}

// counters are the unit's statistics, named by their tags (Stats).
type counters struct {
	prims   uint64 `stat:"primitives"`
	ends    uint64 `stat:"draw_ends"`
	batches uint64 `stat:"batches"`
	drawsN  uint64 `stat:"draws"`
	credRet uint64 `stat:"credits_returned"`
	tri5D   uint64 `stat:"triangles_5d"` // API triangles of decoupled draws that took the 5D path
}

// drawState is primitive assembly's bookkeeping for one draw.
type drawState struct {
	d       *protocol.Draw
	geo     *pipeline.Geometry
	dd      *pipeline.Decoupled // nil unless the draw is decoupled
	info    bool                // its BatchInfo arrived
	batches uint64              // from BatchInfo
	next    uint64              // next batch sequence number to assemble
	prims   uint64              // primitives numbered so far

	// The geometry stage (draws with a geometry shader or stream-out).
	geoStage  bool
	skipSO    bool                      // BatchInfo.SkipStreamOut: another pipe streams the draw out
	begun     bool                      // BeginStreamOut was called
	so        *pipeline.StreamOutWriter // nil unless the draw streams out
	soEnded   bool                      // its counters were written
	rasterize bool                      // its output primitives go on to setup
	source    int                       // output primitives so far (the reference's source)
}

func (ds *drawState) started() bool { return ds.next > 0 }

// setupItem is one entry of the setup pipeline: the primitives of one API
// triangle, or a draw's end marker.
type setupItem struct {
	draw   *protocol.Draw
	prims  []pipeline.Primitive
	owners []uint64 // rasterizer mask of each primitive
	first  uint64   // index of prims[0] in the draw
	end    bool

	// Tracing: the primitive_assembly task that ends when this item's last
	// primitive is queued, and whether that happened.
	endTask     string
	distributed bool
}

// msgQueue is a bounded FIFO of messages.
type msgQueue struct {
	buf            []sim.Msg
	head, size     int
	pushed, popped uint64 // messages ever pushed and popped (tracing)
}

func newMsgQueue(n int) msgQueue { return msgQueue{buf: make([]sim.Msg, n)} }

func (q *msgQueue) full() bool     { return q.size == len(q.buf) }
func (q *msgQueue) peek() sim.Msg  { return q.buf[q.head] }
func (q *msgQueue) push(m sim.Msg) { q.buf[(q.head+q.size)%len(q.buf)] = m; q.size++; q.pushed++ }
func (q *msgQueue) pop() {
	q.popped++
	q.buf[q.head] = nil
	q.head = (q.head + 1) % len(q.buf)
	q.size--
}

// Tick runs the stages back to front: send, return credits, distribute,
// assemble, receive.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cyc := c.Freq.Cycle(now)
	c.waitBatch, c.blocked = false, false
	c.waitGS, c.waitSO = false, false
	work := c.send(now)
	credit := c.sendCredits(now)
	if c.gs.active() {
		credit = c.geometryIO(now) || credit
	}
	work = c.distribute(cyc) || work
	work = c.assemble(cyc) || work
	recv := c.receive(now)
	progress := work || credit || recv
	c.account(now, cyc, work, progress)
	return progress
}

// send sends the head of every rasterizer's queue (one message per rasterizer
// per cycle).
func (c *Comp) send(now sim.VTimeInSec) bool {
	progress := false
	for r := range c.out {
		q := &c.out[r]
		if q.size == 0 {
			continue
		}
		m := q.peek()
		meta := m.Meta()
		meta.Src, meta.Dst, meta.SendTime = c.ToRasterizers, c.Rasterizers[r], now
		if err := c.ToRasterizers.Send(m); err != nil {
			c.blocked = true
			continue
		}
		switch m.(type) {
		case *protocol.PrimitiveMsg:
			c.sent[r]++
		case *protocol.DrawEnd:
			c.st.ends++
		}
		q.pop()
		c.Env.Progress.Add(1)
		progress = true
	}
	if progress && len(c.traceEnds) > 0 {
		c.endSent()
	}
	return progress
}

// sendCredits returns the freed batch slots to the input assembler.
func (c *Comp) sendCredits(now sim.VTimeInSec) bool {
	if c.credits == 0 {
		return false
	}
	m := protocol.NewBatchCredit(c.credits)
	m.Src, m.Dst, m.SendTime = c.InputAssembler, c.InputAssemblerPort, now
	if err := c.InputAssembler.Send(m); err != nil {
		c.blocked = true
		return false
	}
	c.st.credRet += uint64(c.credits)
	c.credits = 0
	c.Env.Progress.Add(1)
	return true
}

// distribute moves up to TrianglesPerCycle primitives (or end markers) from the
// head of the setup pipeline into the queues of their rasterizers. A primitive
// moves only when every rasterizer it goes to has room.
func (c *Comp) distribute(cyc uint64) bool {
	progress := false
	for budget := c.Cfg.TrianglesPerCycle; budget > 0; {
		it, ok := c.setup.Peek(cyc)
		if !ok {
			break
		}
		if it.end {
			for r := range c.out {
				if c.out[r].full() {
					c.blocked = true
					return progress
				}
			}
			for r := range c.out {
				c.out[r].push(protocol.NewDrawEnd(it.draw, 0))
			}
			c.setup.Pop()
			budget--
			progress = true
			continue
		}
		for c.headNext < len(it.prims) && budget > 0 {
			mask := it.owners[c.headNext]
			for m := mask; m != 0; m &= m - 1 {
				if c.out[bits.TrailingZeros64(m)].full() {
					c.blocked = true
					return progress
				}
			}
			p := &it.prims[c.headNext]
			idx := it.first + uint64(c.headNext)
			for m := mask; m != 0; m &= m - 1 {
				c.out[bits.TrailingZeros64(m)].push(protocol.NewPrimitiveMsg(it.draw, p, idx))
			}
			c.st.prims++
			c.headNext++
			budget--
			progress = true
		}
		if c.headNext < len(it.prims) {
			break
		}
		if c.traced() {
			c.itemQueued(it)
		}
		c.setup.Pop()
		c.headNext = 0
	}
	return progress
}

// assemble takes up to TrianglesPerCycle API triangles of the current batch, in
// order, through clip, cull and setup (functionally now; the result enters the
// setup pipeline). A triangle that needs clipping holds the stage ClipCycles
// more cycles. When a draw's last batch is done, its end marker follows.
func (c *Comp) assemble(cyc uint64) bool {
	progress := false
	budget := c.Cfg.TrianglesPerCycle
	if c.clipping {
		if cyc < c.clipDone {
			return false
		}
		if c.clipItem != nil {
			if !c.setup.CanAccept(cyc) {
				return false
			}
			c.setup.Accept(cyc, c.clipItem)
		}
		c.clipping, c.clipItem = false, nil
		budget--
		progress = true
	}
	for budget > 0 {
		if len(c.draws) == 0 {
			break
		}
		ds := c.draws[0]
		if ds.d.Seq != c.nextSeq {
			c.waitBatch = true // an earlier draw has not arrived yet
			break
		}
		if ds.geoStage && !ds.begun {
			c.beginGeometry(ds)
		}
		if c.cur == nil {
			c.cur = c.findSlot(ds.d, ds.next)
			if c.cur == nil {
				if ds.info && ds.next == ds.batches {
					if ds.so != nil && !c.endStreamOut(ds) {
						c.waitSO = true
						break
					}
					if !c.setup.CanAccept(cyc) {
						break
					}
					c.setup.Accept(cyc, &setupItem{draw: ds.d, end: true})
					c.draws = c.draws[1:]
					c.nextSeq = ds.d.Seq + 1
					c.st.drawsN++
					budget--
					progress = true
					continue
				}
				c.waitBatch = true
				break
			}
			c.nextTri = 0
			if c.traced() {
				c.startBatchTask(c.cur)
			}
			if ds.geoStage {
				c.gs.startBatch()
			} else if len(c.cur.Batch.Triangles) == 0 {
				c.finishBatch(ds)
				progress = true
				continue
			}
		}
		if !c.setup.CanAccept(cyc) {
			break
		}
		if ds.geoStage {
			moved, hold := c.geometryStep(cyc, ds)
			if !moved {
				break
			}
			progress = true
			if hold == stepFinished {
				continue
			}
			budget--
			if hold == stepHeld {
				break
			}
			continue
		}
		sb := c.cur
		t := sb.Batch.Triangles[c.nextTri]
		v := [3]*pipeline.VertexOut{&sb.Outputs[t[0]], &sb.Outputs[t[1]], &sb.Outputs[t[2]]}
		clipped := c.geo.Clipped
		source := sb.Batch.FirstTriangle + c.nextTri
		var prims []pipeline.Primitive
		blur := false
		if ds.dd != nil {
			if p0, p1 := ds.dd.Positions(v); ds.dd.Takes5D(&p0, &p1) {
				// Every 5D-path triangle takes a primitive number, rejected
				// ones too, as in the reference renderer.
				blur = true
				c.st.tri5D++
				id := c.nextID
				c.nextID++
				prims = ds.geo.Triangle5D(ds.dd, source, id, v, nil, &c.geo, &c.mapSt)
			}
		}
		if !blur {
			prims = ds.geo.Triangle(source, v, nil, &c.geo)
		}
		it := c.newSetupItem(ds, prims)
		c.nextTri++
		budget--
		progress = true
		if c.nextTri == len(sb.Batch.Triangles) {
			c.finishBatch(ds)
		}
		if c.geo.Clipped != clipped && c.Cfg.ClipCycles > 0 {
			// The clipper holds the triangle; it enters setup ClipCycles later.
			c.clipping, c.clipItem, c.clipDone = true, it, cyc+uint64(c.Cfg.ClipCycles)
			break
		}
		if blur && c.Cfg.Setup5DCycles > 0 {
			// 5D setup (raster5d.Setup, decouple.NewMap) holds the triangle
			// Setup5DCycles more cycles, as the clipper does.
			c.clipping, c.clipItem, c.clipDone = true, it, cyc+uint64(c.Cfg.Setup5DCycles)
			break
		}
		if it != nil {
			c.setup.Accept(cyc, it)
		}
	}
	return progress
}

// newSetupItem makes the setup-pipeline item of one API primitive's set-up
// primitives (nil when none survived), numbering them in the draw.
func (c *Comp) newSetupItem(ds *drawState, prims []pipeline.Primitive) *setupItem {
	if len(prims) == 0 {
		return nil
	}
	it := &setupItem{draw: ds.d, prims: prims, owners: make([]uint64, len(prims)), first: ds.prims}
	for i := range prims {
		it.owners[i] = c.primOwners(&prims[i], &ds.d.Raster)
	}
	ds.prims += uint64(len(prims))
	if c.traced() {
		c.traceLast = it
	}
	return it
}

// finishBatch frees the current batch's slot and schedules its credit.
func (c *Comp) finishBatch(ds *drawState) {
	if c.traced() {
		c.endBatchTask(c.cur)
	}
	for i, sb := range c.slots {
		if sb == c.cur {
			copy(c.slots[i:], c.slots[i+1:])
			c.slots[len(c.slots)-1] = nil
			c.slots = c.slots[:len(c.slots)-1]
			break
		}
	}
	c.cur = nil
	c.credits++
	c.st.batches++
	ds.next++
}

func (c *Comp) findSlot(d *protocol.Draw, seq uint64) *protocol.ShadedBatch {
	for _, sb := range c.slots {
		if sb.Draw == d && sb.Seq == seq {
			return sb
		}
	}
	return nil
}

// primOwners returns the rasterizers primitive p goes to: for a 5D primitive
// those owning a raster tile that a 32x32 tile of its raster5d tile range
// overlaps (protocol.BlurOwners), else those owning a tile of its tile range.
func (c *Comp) primOwners(p *pipeline.Primitive, cfg *raster.Config) uint64 {
	if p.Blur != nil {
		tx0, ty0, tx1, ty1 := p.Blur.Tri.TileRange()
		return protocol.BlurOwners(tx0, ty0, tx1, ty1, rasterTileSize(cfg), c.Cfg.RasterStride, c.Cfg.NumRasterizers)
	}
	return c.owners(&p.Triangle, cfg)
}

// rasterTileSize is the raster tile edge of cfg (raster.DefaultTileSize when unset).
func rasterTileSize(cfg *raster.Config) int {
	if cfg.TileSize > 0 {
		return cfg.TileSize
	}
	return raster.DefaultTileSize
}

// owners returns the set of rasterizers owning at least one tile of t's tile
// range: the range is walked row by row (at most NumRasterizers tiles per row,
// which cover every owner of that row) until every rasterizer was found.
func (c *Comp) owners(t *raster.Triangle, cfg *raster.Config) uint64 {
	n := c.Cfg.NumRasterizers
	all := ^uint64(0) >> (64 - n)
	tx0, ty0, tx1, ty1 := t.TileRange(cfg)
	var m uint64
	for ty := ty0; ty < ty1 && m != all; ty++ {
		for tx := tx0; tx < tx1 && tx < tx0+n; tx++ {
			m |= 1 << protocol.TileOwner(tx, ty, c.Cfg.RasterStride, n)
		}
	}
	return m
}

// receive takes every BatchInfo, and shaded batches while a slot is free.
func (c *Comp) receive(now sim.VTimeInSec) bool {
	progress := false
	for c.InputAssembler.Peek() != nil {
		m := c.InputAssembler.Retrieve(now)
		progress = true
		bi, ok := m.(*protocol.BatchInfo)
		if !ok {
			c.Fault.Fail(fmt.Errorf("unexpected %T on InputAssembler", m))
			return progress
		}
		if err := c.batchInfo(bi); err != nil {
			c.Fault.Fail(err)
			return progress
		}
	}
	for {
		m := c.FromShaderCores.Peek()
		if m == nil {
			break
		}
		if sg, ok := m.(*protocol.ShadedGeometry); ok {
			// A GS warp's output always has room: its batch holds a slot.
			c.FromShaderCores.Retrieve(now)
			progress = true
			if err := c.shadedGeometry(sg); err != nil {
				c.Fault.Fail(err)
				return progress
			}
			continue
		}
		if len(c.slots) >= c.Cfg.BatchSlots {
			break
		}
		c.FromShaderCores.Retrieve(now)
		progress = true
		sb, ok := m.(*protocol.ShadedBatch)
		if !ok {
			c.Fault.Fail(fmt.Errorf("unexpected %T on FromShaderCores", m))
			return progress
		}
		if err := c.shadedBatch(sb); err != nil {
			c.Fault.Fail(err)
			return progress
		}
	}
	return progress
}

func (c *Comp) batchInfo(bi *protocol.BatchInfo) error {
	if bi.Draw == nil || bi.Batches < 0 {
		return fmt.Errorf("BatchInfo: invalid draw or batch count %d", bi.Batches)
	}
	ds := c.draw(bi.Draw)
	if ds.info {
		return fmt.Errorf("BatchInfo: second BatchInfo for draw %d", bi.Draw.Seq)
	}
	ds.info, ds.batches = true, uint64(bi.Batches)
	if bi.SkipStreamOut {
		if ds.next > 0 || ds.so != nil {
			return fmt.Errorf("BatchInfo: draw %d skips stream-out, but this unit has assembled its batches or begun its stream-out", bi.Draw.Seq)
		}
		ds.skipSO = true
	}
	if ds.next > ds.batches {
		return fmt.Errorf("BatchInfo: draw %d has %d batches but %d were assembled", bi.Draw.Seq, bi.Batches, ds.next)
	}
	for _, sb := range c.slots {
		if sb.Draw == bi.Draw && sb.Seq >= ds.batches {
			return fmt.Errorf("BatchInfo: draw %d has %d batches but batch %d arrived", bi.Draw.Seq, bi.Batches, sb.Seq)
		}
	}
	return nil
}

func (c *Comp) shadedBatch(sb *protocol.ShadedBatch) error {
	if sb.Draw == nil || sb.Draw.State == nil || sb.Batch == nil {
		return fmt.Errorf("ShadedBatch: missing draw, state or batch")
	}
	for i := 0; i < sb.Batch.NumPrimitives(); i++ {
		slots, n := sb.Batch.Primitive(i)
		for k, v := range slots[:n] {
			if int(v) >= len(sb.Outputs) {
				return fmt.Errorf("ShadedBatch draw %d batch %d: primitive %d vertex %d: slot %d beyond %d outputs", sb.Draw.Seq, sb.Seq, i, k, v, len(sb.Outputs))
			}
		}
	}
	ds := c.draw(sb.Draw)
	if sb.Seq < ds.next || c.findSlot(sb.Draw, sb.Seq) != nil || (ds.info && sb.Seq >= ds.batches) {
		return fmt.Errorf("ShadedBatch: draw %d batch %d is duplicated or beyond the draw", sb.Draw.Seq, sb.Seq)
	}
	c.slots = append(c.slots, sb)
	if sb.Draw.State.GS != nil {
		c.queueGeometryWarps(sb)
	}
	return nil
}

// draw returns the state of draw d, creating it on d's first message. Draws are
// kept in draw order: a draw that arrives after a later-numbered one is put
// before it (protocol.Draw.Seq). That happens when an empty draw's BatchInfo
// is overtaken by a shaded batch of the next draw (a slow batch bus); the
// later draw does not start meanwhile (nextSeq).
func (c *Comp) draw(d *protocol.Draw) *drawState {
	for _, ds := range c.draws {
		if ds.d == d {
			return ds
		}
	}
	ds := &drawState{d: d, geo: pipeline.NewGeometry(d.State, &d.Raster)}
	ds.geoStage = d.State.GS != nil || d.State.StreamOut != nil
	dd, err := pipeline.NewDecoupled(d.State, &d.Raster, &c.patterns, c.Cfg.PatternSeed)
	if err != nil {
		c.Fault.Fail(fmt.Errorf("draw %d: decoupled sampling: %w", d.Seq, err))
	}
	ds.dd = dd
	i := len(c.draws)
	for i > 0 && c.draws[i-1].d.Seq > d.Seq && !(i == 1 && (c.draws[0].started() || c.cur != nil)) {
		i--
	}
	c.draws = append(c.draws, nil)
	copy(c.draws[i+1:], c.draws[i:])
	c.draws[i] = ds
	return ds
}

// account sets the activity state from cycle cyc on and, when the unit goes to
// sleep with timed work pending, schedules the wake-up. work says whether a
// primitive or marker moved (taking in batches and returning credits alone
// leave a unit waiting for its next batch in the wait_batch state).
func (c *Comp) account(now sim.VTimeInSec, cyc uint64, work, progress bool) {
	var wake uint64
	if c.clipping {
		wake = c.clipDone
	}
	if r, ok := c.setup.NextReady(); ok && r > cyc && (wake == 0 || r < wake) {
		wake = r
	}
	s := stateIdle
	switch {
	case work:
		s = stateBusy
	case c.blocked:
		s = stateBlockedOutput
	case c.clipping || c.setup.Len() > 0:
		s = stateBusy
	case c.waitGS:
		s = stateWaitGSWarp
	case c.waitSO:
		s = stateWaitStreamOut
	case c.waitBatch:
		s = stateWaitBatch
	}
	c.Activity.Set(cyc, s)
	if !progress && wake > cyc {
		c.Waker.WakeIn(now, int(wake-cyc))
	}
}
