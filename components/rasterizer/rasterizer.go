package rasterizer

import (
	"fmt"
	"slices"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/raster5d"
	"github.com/gfxsim/gfxsim/timing"
)

var _ protocol.Unit = (*Comp)(nil)

// TileFilter is the seam for hierarchical Z (issue 5): when set, the coarse
// rasterizer consults it for every owned tile it did not find outside the
// primitive, in API order, before the tile goes to fine raster.
type TileFilter interface {
	// KeepTile reports whether tile (tx, ty) of primitive p of draw d, which the
	// coarse test classified as class (raster.TilePartial or raster.TileInside),
	// may still have visible samples. false drops the tile: it is neither fine
	// rasterized nor sent (it costs its coarse test only). The filter may keep
	// state (e.g. a HiZ buffer updated by the depth units); it is called from the
	// rasterizer's tick, so it must be safe under the parallel engine if it shares
	// that state with other components.
	KeepTile(d *protocol.Draw, p *pipeline.Primitive, tx, ty int, class raster.TileClass) bool
}

// Activity states (timing.Activity indices).
const (
	stateBusy = iota
	stateBlockedOutput
	stateIdle
)

var activityNames = []string{"busy", "blocked_output", "idle"}

// Comp is one rasterizer: coarse raster of the tiles it owns, fine raster into
// quads, one protocol.TileQuads per non-empty tile to the depth unit owning the
// tile. See the package documentation.
type Comp struct {
	timing.Unit[Config]

	// FromPrimitiveAssembly receives protocol.PrimitiveMsg and protocol.DrawEnd.
	FromPrimitiveAssembly sim.Port
	// ToDepthUnits sends protocol.TileQuads and protocol.DrawEnd.
	ToDepthUnits sim.Port

	// DepthUnits are the depth units' input ports, indexed by partition.
	DepthUnits []sim.Port
	// TileFilter, when non-nil, is consulted per coarse tile (hierarchical Z).
	TileFilter TileFilter

	inBuf sim.Buffer

	// Coarse stage: the primitive being walked.
	prim   *protocol.PrimitiveMsg
	walk   tileWalk
	tileQ  timing.Ring[fineItem]
	qcache []raster.Quad // fine raster scratch

	// The 5D primitive being walked: its 32x32 tiles (raster5d.Triangle.Tiles)
	// and the next one; fine raster scratch.
	blurTiles []raster.TilePos
	blurNext  int
	q5        []raster5d.Quad
	partCount []int

	// Fine stage.
	fineBusy uint64 // the fine rasterizer is busy before this cycle
	pending  bool   // pend was fine-rasterized but waits for output room
	pend     fineItem
	pendMsg  *protocol.TileQuads
	pendMsgs []*protocol.TileQuads // a 5D tile's messages, one per partition
	pendCost uint64                // a 5D tile's fine cycles
	outQ     timing.Ring[outItem]

	blocked bool // this tick: the output could not take or send a message

	trPrims []tracedPrim // tracing: primitives whose rasterize task is open, in order

	cnt Counters
}

// Counters are the rasterizer's statistics; the tags name them in Stats.
type Counters struct {
	Primitives     uint64 `stat:"primitives"`   // primitives received
	DrawEnds       uint64 `stat:"draw_ends"`    // DrawEnd markers received (each forwarded to every depth unit)
	TilesTested    uint64 `stat:"tiles_tested"` // owned tiles of the primitives' tile ranges, each one coarse test
	TilesOutside   uint64 `stat:"tiles_outside"`
	TilesPartial   uint64 `stat:"tiles_partial"`
	TilesInside    uint64 `stat:"tiles_inside"`
	TilesFiltered  uint64 `stat:"tiles_filtered"`  // dropped by the TileFilter
	TilesEmpty     uint64 `stat:"tiles_empty"`     // fine-rasterized tiles without a covered sample
	TilesEmitted   uint64 `stat:"tiles_emitted"`   // TileQuads messages
	Quads          uint64 `stat:"quads"`           // quads emitted (inside the primitive's window, if any)
	CoveredSamples uint64 `stat:"covered_samples"` // covered samples of the quads emitted
	FineCycles     uint64 `stat:"fine_cycles"`     // cycles the fine rasterizer spent on tiles

	// 5D primitives of decoupled draws (raster5d). Triangles5D counts them by
	// case in the rasterizer that owns the first tile of their range;
	// SampleTests and SamplesCovered count each 32x32 tile once, in the
	// rasterizer owning its first pixel (protocol.BlurTilePrimary), so their
	// sums over the rasterizers are the reference renderer's
	// Counters.Decoupled.Triangles and .Raster (without windows; package
	// doc, "Windows").
	Triangles5D    [raster5d.NumCases]uint64
	Tiles5D        uint64 `stat:"tiles_5d"`        // 32x32 tiles this rasterizer fine-rasterized
	SampleTests    uint64 `stat:"sample_tests"`    // tests done (a tile is tested once per window that meets it)
	SamplesCovered uint64 `stat:"samples_covered"` // covered samples of the tile's quads inside the window, if any
}

type fineItem struct {
	prim  *protocol.PrimitiveMsg // nil: end marker of draw end
	end   *protocol.Draw
	tx    int
	ty    int
	class raster.TileClass
	blur  bool // a 32x32 tile of a 5D primitive
}

type outItem struct {
	tiles *protocol.TileQuads   // nil: msgs, or DrawEnd of draw end to every depth unit
	msgs  []*protocol.TileQuads // a 5D tile's messages, sent in order
	end   *protocol.Draw
	next  int    // next depth unit to get the DrawEnd, or next of msgs
	ready uint64 // cycle from which it may be sent
}

// Tick runs the stages back to front: send, fine raster, coarse raster.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cyc := c.Freq.Cycle(now)
	c.blocked = false
	progress := c.send(now, cyc)
	progress = c.fine(cyc) || progress
	progress = c.coarse(now, cyc) || progress
	c.account(now, cyc, progress)
	return progress
}

// send sends the ready messages at the head of the output queue, in order.
func (c *Comp) send(now sim.VTimeInSec, cyc uint64) bool {
	progress := false
	for c.outQ.Len() > 0 {
		it := c.outQ.Front()
		if it.ready > cyc {
			break
		}
		if it.tiles != nil {
			if !c.sendTiles(now, it.tiles) {
				return progress
			}
			progress = true
		} else if it.msgs != nil {
			for it.next < len(it.msgs) {
				if !c.sendTiles(now, it.msgs[it.next]) {
					return progress
				}
				it.msgs[it.next] = nil
				it.next++
				progress = true
			}
		} else {
			for it.next < c.Cfg.NumPartitions {
				m := protocol.NewDrawEnd(it.end, c.Cfg.Index)
				m.Src, m.Dst, m.SendTime = c.ToDepthUnits, c.DepthUnits[it.next], now
				if err := c.ToDepthUnits.Send(m); err != nil {
					c.blocked = true
					return progress
				}
				it.next++
				c.Env.Progress.Add(1)
				progress = true
			}
		}
		c.outQ.Pop()
	}
	return progress
}

// sendTiles sends one TileQuads to its depth unit.
func (c *Comp) sendTiles(now sim.VTimeInSec, m *protocol.TileQuads) bool {
	m.Src, m.Dst, m.SendTime = c.ToDepthUnits, c.DepthUnits[m.Partition], now
	if err := c.ToDepthUnits.Send(m); err != nil {
		c.blocked = true
		return false
	}
	c.Env.Progress.Add(1)
	if c.traced() {
		c.tileSent(m)
	}
	return true
}

// fine rasterizes the tile at the head of the tile queue: a tile with k quads
// keeps the fine rasterizer busy max(1, ceil(k/QuadsPerCycle)) cycles, and its
// TileQuads can be sent when they are over. An end marker takes one cycle.
func (c *Comp) fine(cyc uint64) bool {
	if cyc < c.fineBusy {
		return false
	}
	progress := false
	if !c.pending {
		if c.tileQ.Len() == 0 {
			return false
		}
		c.pend = *c.tileQ.Front()
		c.tileQ.Pop()
		c.pending, c.pendMsg, c.pendMsgs = true, nil, nil
		progress = true
		switch {
		case c.pend.blur:
			c.pendMsgs, c.pendCost = c.rasterize5D(&c.pend)
			if c.traced() {
				c.blurTileTaken(&c.pend, c.pendMsgs)
			}
		case c.pend.prim != nil:
			c.pendMsg = c.rasterize(&c.pend)
			if c.traced() {
				c.tileTaken(&c.pend, c.pendMsg)
			}
		}
	}
	cost := uint64(1)
	switch {
	case c.pend.blur:
		cost = c.pendCost
	case c.pend.prim != nil && c.pendMsg != nil:
		k := uint64(len(c.pendMsg.Quads))
		cost = max(1, (k+uint64(c.Cfg.QuadsPerCycle)-1)/uint64(c.Cfg.QuadsPerCycle))
	}
	if (c.pend.prim == nil || c.pendMsg != nil || len(c.pendMsgs) > 0) && c.outQ.Len() >= c.Cfg.OutputQueue {
		c.blocked = true
		return progress
	}
	switch {
	case c.pend.prim == nil:
		c.outQ.Push(outItem{end: c.pend.end, ready: cyc + cost})
	case c.pendMsg != nil:
		c.outQ.Push(outItem{tiles: c.pendMsg, ready: cyc + cost})
		c.cnt.TilesEmitted++
	case len(c.pendMsgs) > 0:
		c.outQ.Push(outItem{msgs: c.pendMsgs, ready: cyc + cost})
		c.cnt.TilesEmitted += uint64(len(c.pendMsgs))
	}
	if c.pend.prim != nil {
		c.cnt.FineCycles += cost
	}
	c.fineBusy = cyc + cost
	c.pending, c.pend, c.pendMsg, c.pendMsgs = false, fineItem{}, nil, nil
	return true
}

// rasterize runs the fine rasterizer over one tile and returns its TileQuads
// message, or nil when no sample is covered.
func (c *Comp) rasterize(f *fineItem) *protocol.TileQuads {
	d, p := f.prim.Draw, f.prim.Prim
	c.qcache = p.Triangle.TileQuads(&d.Raster, f.tx, f.ty, c.qcache[:0])
	if w := f.prim.Window; !w.Empty() {
		c.qcache = slices.DeleteFunc(c.qcache, func(q raster.Quad) bool { return outsideWindow(w, q.X, q.Y) })
	}
	if len(c.qcache) == 0 {
		c.cnt.TilesEmpty++
		return nil
	}
	quads := make([]protocol.QuadLive, len(c.qcache))
	for i, q := range c.qcache {
		quads[i] = protocol.QuadLive{Quad: q, Live: q.Coverage}
		c.cnt.CoveredSamples += uint64(q.Coverage.Count())
	}
	c.cnt.Quads += uint64(len(quads))
	part := protocol.TileOwner(f.tx/c.Cfg.PartitionTileRatio, f.ty/c.Cfg.PartitionTileRatio, c.Cfg.PartitionStride, c.Cfg.NumPartitions)
	m := protocol.NewTileQuads(d, p, f.tx, f.ty, part, quads)
	m.Window = f.prim.Window
	return m
}

// coarse walks the owned tiles of the current primitive, TilesPerCycle per
// cycle, putting the tiles that are not outside (and that the TileFilter keeps)
// into the tile queue. A new primitive (or a DrawEnd) is taken at the start of
// a cycle when the previous one is done, so a primitive occupies the coarse
// stage max(1, ceil(owned tiles / TilesPerCycle)) cycles.
func (c *Comp) coarse(now sim.VTimeInSec, cyc uint64) bool {
	progress := false
	if c.prim == nil {
		m := c.FromPrimitiveAssembly.Peek()
		if m == nil {
			return false
		}
		switch m := m.(type) {
		case *protocol.PrimitiveMsg:
			if m.Draw == nil || m.Prim == nil {
				c.Fault.Fail(fmt.Errorf("PrimitiveMsg without draw or primitive"))
				return false
			}
			if w := m.Window; !w.Empty() && (w.X0|w.Y0|w.X1|w.Y1)&1 != 0 {
				c.Fault.Fail(fmt.Errorf("PrimitiveMsg.Window %+v: corners must be even (quads are 2x2 at even pixels)", w))
				return false
			}
			c.FromPrimitiveAssembly.Retrieve(now)
			c.prim = m
			c.cnt.Primitives++
			if c.traced() {
				c.primTaken(m)
			}
			if m.Prim.Blur != nil {
				c.startBlur(m)
				progress = true
				break
			}
			tx0, ty0, tx1, ty1 := m.Prim.Triangle.TileRange(&m.Draw.Raster)
			if !m.Window.Empty() {
				tx0, ty0, tx1, ty1 = clampToWindow(tx0, ty0, tx1, ty1, m.Window, rasterTileSize(m.Draw))
			}
			c.walk.init(m.Draw.Raster.TileOrder, tx0, ty0, tx1, ty1, c.Cfg.Index, c.Cfg.NumRasterizers, c.Cfg.RasterStride)
			progress = true
		case *protocol.DrawEnd:
			if m.Draw == nil {
				c.Fault.Fail(fmt.Errorf("DrawEnd without draw"))
				return false
			}
			if c.tileQ.Len() >= c.Cfg.TileQueue {
				return false
			}
			c.FromPrimitiveAssembly.Retrieve(now)
			c.tileQ.Push(fineItem{end: m.Draw})
			c.cnt.DrawEnds++
			return true
		default:
			c.Fault.Fail(fmt.Errorf("unexpected %T on FromPrimitiveAssembly", m))
			return false
		}
	}
	if c.prim.Prim.Blur != nil {
		return c.coarseBlur() || progress
	}
	d, p := c.prim.Draw, c.prim.Prim
	for budget := c.Cfg.TilesPerCycle; budget > 0 && !c.walk.done(); budget-- {
		if c.tileQ.Len() >= c.Cfg.TileQueue {
			return progress
		}
		tx, ty := c.walk.take()
		c.cnt.TilesTested++
		progress = true
		class := p.Triangle.TestTile(&d.Raster, tx, ty)
		switch class {
		case raster.TileOutside:
			c.cnt.TilesOutside++
			continue
		case raster.TileInside:
			c.cnt.TilesInside++
		default:
			c.cnt.TilesPartial++
		}
		if c.TileFilter != nil && !c.TileFilter.KeepTile(d, p, tx, ty, class) {
			c.cnt.TilesFiltered++
			continue
		}
		c.tileQ.Push(fineItem{prim: c.prim, tx: tx, ty: ty, class: class})
		if c.traced() {
			c.trPrims[len(c.trPrims)-1].tiles++
		}
	}
	if c.walk.done() {
		if c.traced() {
			c.primWalked()
		}
		c.prim = nil
		progress = true
	}
	return progress
}

// account sets the activity state from cycle cyc on and schedules the wake-up
// when the rasterizer sleeps with timed work pending.
func (c *Comp) account(now sim.VTimeInSec, cyc uint64, progress bool) {
	var wake uint64
	if c.fineBusy > cyc {
		wake = c.fineBusy
	}
	if c.outQ.Len() > 0 {
		if r := c.outQ.Front().ready; r > cyc && (wake == 0 || r < wake) {
			wake = r
		}
	}
	s := stateIdle
	switch {
	case progress:
		s = stateBusy
	case c.blocked:
		s = stateBlockedOutput
	case c.prim != nil || wake > cyc:
		s = stateBusy
	}
	c.Activity.Set(cyc, s)
	if !progress && wake > cyc {
		c.Waker.WakeIn(now, int(wake-cyc))
	}
}
