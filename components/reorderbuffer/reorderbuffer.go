package reorderbuffer

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/timing"
)

// Activity states (timing.Activity indices), in the order a non-busy cycle is
// attributed: the first that applies wins.
const (
	stateBusy            = iota // allocated, dispatched, filled or retired something
	stateFull                   // the packer's next message waits for free entries
	stateBlockedOutput          // a ROP refused the next retiring message
	stateBlockedDispatch        // every shader core refused the next warp
	stateHeadNotReady           // entries in use, the oldest still being shaded
	stateIdle                   // empty, nothing to do
)

var activityNames = [...]string{"busy", "full", "blocked_output", "blocked_dispatch", "head_not_ready", "idle"}

// dispatchWait is why the dispatch stage stopped.
type dispatchWait int

const (
	waitNone  dispatchWait = iota
	waitFull               // not enough free entries
	waitCores              // no shader core accepted the warp
)

// retiring is a message to a ROP with the number of head entries it retires.
type retiring struct {
	msg        sim.Msg
	entries    int
	marker     bool
	visibility bool // visibility records (ShadedSamples)
}

// counters are the unit's statistics, named by their tags (Stats).
type counters struct {
	warps          uint64 `stat:"warps"`
	quads          uint64 `stat:"quads"`
	markers        uint64 `stat:"markers"`
	shadedWarps    uint64 `stat:"shaded_warps"`
	retiredQuads   uint64 `stat:"retired_quads"`
	retiredMarkers uint64 `stat:"retired_markers"`
	ropMessages    uint64 `stat:"rop_messages"`
	flushes        uint64 `stat:"flushes"`
}

// Comp is the reorder buffer between the pixel shaders and the ROPs. See the
// package documentation.
type Comp struct {
	timing.Unit[Config]

	// FromQuadPacker receives PixelWarp and DrawEnd messages from the quad packer.
	FromQuadPacker sim.Port
	// ToShaderCores dispatches PixelWarps (with Entry set) to ShaderCores.
	ToShaderCores sim.Port
	// FromShaderCores receives ShadedWarps.
	FromShaderCores sim.Port
	// ToROPs sends ShadedQuads and DrawEnd messages to ROPs.
	ToROPs sim.Port
	// Control receives FlushCmd and sends Done (the tiled machine's tile unit;
	// the sort-last machine leaves it unconnected).
	Control sim.Port

	// ShaderCores are the cores' pixel-dispatch ports, tried round-robin (set by
	// the platform builder).
	ShaderCores []sim.Port
	// ROPs are the ROPs' input ports, one per partition (set by the platform
	// builder; its length must be NumPartitions).
	ROPs []sim.Port
	// CommandProcessor is the port of the unit that sends FlushCmd (in the
	// tiled machine, the tile unit), which gets the Done; nil when Control is
	// not connected.
	CommandProcessor sim.Port

	inBuf     sim.Buffer
	shadedBuf sim.Buffer
	ctlBuf    sim.Buffer

	entries  ring
	cache    *shadingCacheMode // nil: no shading cache (no decoupled sampling)
	nextCore int
	stalled  retiring       // a message a ROP refused (msg nil when none)
	ctlOut   *protocol.Done // the answer to a FlushCmd waiting to be sent
	ctlTask  timing.Task    // tracing: the flush's task

	st      counters
	occSum  uint64 // entry-cycles in use up to occLast
	occLast uint64
	occMax  int
}

// Tick runs the stages back to front: retire, fill, control, dispatch.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cycle := c.Freq.Cycle(now)
	retired, blocked := c.retire(now, cycle)
	filled := c.fill(now)
	controlled := c.control(now)
	dispatched, wait := c.dispatch(now, cycle)
	progress := retired || filled || controlled || dispatched

	switch {
	case progress:
		c.Activity.Set(cycle, stateBusy)
	case wait == waitFull:
		c.Activity.Set(cycle, stateFull)
	case blocked:
		c.Activity.Set(cycle, stateBlockedOutput)
	case wait == waitCores:
		c.Activity.Set(cycle, stateBlockedDispatch)
	case c.entries.used > 0:
		c.Activity.Set(cycle, stateHeadNotReady)
	default:
		c.Activity.Set(cycle, stateIdle)
	}
	return progress
}

// retire sends ready entries from the head to their ROPs, in order, up to
// RetirePerCycle entries; blocked reports that a ROP refused.
func (c *Comp) retire(now sim.VTimeInSec, cycle uint64) (progress, blocked bool) {
	for budget := c.Cfg.RetirePerCycle; budget > 0; {
		r := c.stalled
		if r.msg == nil {
			if c.entries.used == 0 || !c.ready(c.entries.fromHead(0)) {
				break
			}
			if h := c.entries.fromHead(0); h.Visibility && c.cache.records[h.Record].more {
				// An earlier part of a split visibility quad: absorbed, its
				// references released; it leaves with the quad's last part.
				c.cache.absorbPart(&c.cache.records[h.Record])
				c.releaseRecords(1)
				c.entries.release(1)
				budget--
				progress = true
				continue
			}
			var ok bool
			if r, ok = c.nextRetiring(budget); !ok {
				return progress, true
			}
		}
		r.msg.Meta().SendTime = now
		if err := c.ToROPs.Send(r.msg); err != nil {
			c.stalled = r
			return progress, true
		}
		c.stalled = retiring{}
		c.occupancy(cycle)
		if c.traced() && !r.marker && !r.visibility {
			c.endWarpTasks(r.entries)
		}
		if r.visibility {
			c.releaseRecords(r.entries)
		}
		c.entries.release(r.entries)
		switch {
		case r.marker:
			c.st.retiredMarkers++
		case r.visibility: // counted by releaseRecords
		default:
			c.st.retiredQuads += uint64(r.entries)
		}
		c.st.ropMessages++
		c.Env.Progress.Add(1)
		budget -= r.entries
		progress = true
	}
	return progress, false
}

// nextRetiring builds the message for the ready entries at the head: a DrawEnd
// for a marker, else one ShadedQuads for the longest run (at most budget) of
// ready quads of the same draw and partition.
func (c *Comp) nextRetiring(budget int) (retiring, bool) {
	if len(c.ROPs) != c.Cfg.NumPartitions {
		c.Fault.Fail(fmt.Errorf("%d ROP ports for NumPartitions %d", len(c.ROPs), c.Cfg.NumPartitions))
		return retiring{}, false
	}
	h := c.entries.fromHead(0)
	dst := c.ROPs[h.Partition]
	if h.Marker {
		m := protocol.NewDrawEnd(h.Draw, h.Partition)
		m.Src, m.Dst = c.ToROPs, dst
		return retiring{msg: m, entries: 1, marker: true}, true
	}
	if h.Visibility {
		return c.visibilityRun(budget), true
	}
	n := 1
	for n < budget && n < c.entries.used {
		e := c.entries.fromHead(n)
		if e.State != EntryReady || e.Marker || e.Draw != h.Draw || e.Partition != h.Partition {
			break
		}
		n++
	}
	quads := make([]protocol.ShadedQuad, n)
	for k := range quads {
		e := c.entries.fromHead(k)
		quads[k] = protocol.ShadedQuad{Prim: e.Prim, Quad: e.Quad, Live: e.Live, Out: e.Out}
	}
	m := protocol.NewShadedQuads(h.Draw, quads)
	m.Src, m.Dst = c.ToROPs, dst
	return retiring{msg: m, entries: n}, true
}

// fill writes up to FillPerCycle shaded warps into their entries. A shaded warp
// always has its entries waiting, so this stage never stalls.
func (c *Comp) fill(now sim.VTimeInSec) (progress bool) {
	for i := 0; i < c.Cfg.FillPerCycle; i++ {
		msg := c.FromShaderCores.Peek()
		if msg == nil {
			break
		}
		c.FromShaderCores.Retrieve(now)
		progress = true
		if sl, ok := msg.(*protocol.ShadedLanes); ok {
			if err := c.fillShading(sl); err != nil {
				c.Fault.Fail(err)
				return progress
			}
			continue
		}
		sw, ok := msg.(*protocol.ShadedWarp)
		if !ok {
			c.Fault.Fail(fmt.Errorf("unexpected %T on FromShaderCores", msg))
			return progress
		}
		if err := c.checkShaded(sw); err != nil {
			c.Fault.Fail(err)
			return progress
		}
		w := sw.Warp
		for k := range w.Quads {
			e := c.entries.at(int(w.Entry) + k)
			e.Out = sw.Outputs[k]
			e.State = EntryReady
		}
		c.st.shadedWarps++
	}
	return progress
}

// checkShaded verifies that a shaded warp's entries are the ones allocated to it.
func (c *Comp) checkShaded(sw *protocol.ShadedWarp) error {
	w := sw.Warp
	if w == nil {
		return fmt.Errorf("ShadedWarp without its warp")
	}
	if len(sw.Outputs) != len(w.Quads) {
		return fmt.Errorf("shaded warp %d has %d outputs for %d quads", w.ID, len(sw.Outputs), len(w.Quads))
	}
	if w.Entry >= uint64(c.entries.size()) {
		return fmt.Errorf("shaded warp %d: entry %d out of range [0, %d)", w.ID, w.Entry, c.entries.size())
	}
	for k := range w.Quads {
		e := c.entries.at(int(w.Entry) + k)
		if e.State != EntryShading || e.Marker || e.Visibility || e.Warp != w.ID || e.Draw != w.Draw {
			return fmt.Errorf("shaded warp %d: entry %d (%v) is not allocated to it", w.ID,
				(int(w.Entry)+k)%c.entries.size(), e.State)
		}
	}
	return nil
}

// dispatch allocates entries for up to DispatchPerCycle messages from the packer
// and dispatches the warps to the shader cores.
func (c *Comp) dispatch(now sim.VTimeInSec, cycle uint64) (progress bool, wait dispatchWait) {
	budget := 0
	if c.cache != nil {
		progress = c.sendMissWarps(now)
		budget = c.cache.lookupsPerCycle
		defer c.cacheIdle(cycle, &progress, &wait)
	}
	for i := 0; i < c.Cfg.DispatchPerCycle; i++ {
		msg := c.FromQuadPacker.Peek()
		if msg == nil {
			return progress, waitNone
		}
		switch m := msg.(type) {
		case *protocol.VisibilityQuads:
			done, p, w := c.dispatchVisibility(now, cycle, m, &budget)
			progress = progress || p
			if !done {
				return progress, w
			}
		case *protocol.DrawEnd:
			if m.From < 0 || m.From >= c.Cfg.NumPartitions {
				c.FromQuadPacker.Retrieve(now)
				c.Fault.Fail(fmt.Errorf("DrawEnd from partition %d of %d", m.From, c.Cfg.NumPartitions))
				return true, waitNone
			}
			if c.entries.free() < 1 {
				return progress, waitFull
			}
			c.occupancy(cycle)
			*c.entries.at(c.entries.alloc(1)) = Entry{State: EntryReady, Marker: true, Draw: m.Draw, Partition: m.From}
			c.noteMax()
			c.st.markers++
		case *protocol.PixelWarp:
			if err := c.checkWarp(m); err != nil {
				c.FromQuadPacker.Retrieve(now)
				c.Fault.Fail(err)
				return true, waitNone
			}
			n := len(m.Quads)
			if c.entries.free() < n {
				return progress, waitFull
			}
			if !c.sendToCore(now, m) {
				return progress, waitCores
			}
			c.occupancy(cycle)
			first := c.entries.alloc(n)
			for k := range m.Quads {
				q := &m.Quads[k]
				*c.entries.at(first + k) = Entry{State: EntryShading, Draw: m.Draw, Partition: q.Partition,
					Warp: m.ID, Prim: q.Prim, Quad: q.Quad, Live: q.Live}
			}
			c.noteMax()
			if c.traced() {
				tracing.StartTask(protocol.WarpTaskID(m.ID, protocol.AtROB), protocol.WarpTaskID(m.ID, ""), c,
					protocol.KindPixelWarp, protocol.Count(n, "quads"), nil)
			}
			c.st.warps++
			c.st.quads += uint64(n)
		default:
			c.FromQuadPacker.Retrieve(now)
			c.Fault.Fail(fmt.Errorf("unexpected %T on FromQuadPacker", msg))
			return true, waitNone
		}
		c.FromQuadPacker.Retrieve(now)
		progress = true
	}
	return progress, waitNone
}

// checkWarp verifies that a warp can ever be allocated and retired.
func (c *Comp) checkWarp(w *protocol.PixelWarp) error {
	if len(w.Quads) == 0 || len(w.Quads) > c.entries.size() {
		return fmt.Errorf("warp %d has %d quads; it needs 1 to Entries (%d)", w.ID, len(w.Quads), c.entries.size())
	}
	for k := range w.Quads {
		if p := w.Quads[k].Partition; p < 0 || p >= c.Cfg.NumPartitions {
			return fmt.Errorf("warp %d quad %d: partition %d of %d", w.ID, k, p, c.Cfg.NumPartitions)
		}
	}
	return nil
}

// sendToCore dispatches a copy of w, with Entry set to the first entry it will
// occupy, to the next shader core that accepts it (round-robin).
func (c *Comp) sendToCore(now sim.VTimeInSec, w *protocol.PixelWarp) bool {
	fw := *w
	fw.MsgMeta = sim.MsgMeta{ID: sim.GetIDGenerator().Generate(), Src: c.ToShaderCores, SendTime: now,
		TrafficBytes: w.TrafficBytes}
	fw.Entry = uint64(c.entries.tail())
	fw.ReturnTo = c.FromShaderCores // several reorder buffers share the cores on the tiled machine
	return c.sendRoundRobin(&fw)
}

// sendRoundRobin sends m (Src and SendTime set) to the next shader core that
// accepts it.
func (c *Comp) sendRoundRobin(m sim.Msg) bool {
	n := len(c.ShaderCores)
	if n == 0 {
		c.Fault.Fail(fmt.Errorf("no ShaderCores to dispatch to"))
		return false
	}
	for k := 0; k < n; k++ {
		i := (c.nextCore + k) % n
		m.Meta().Dst = c.ShaderCores[i]
		if c.ToShaderCores.Send(m) == nil {
			c.nextCore = (i + 1) % n
			c.Env.Progress.Add(1)
			return true
		}
	}
	return false
}

// occupancy accounts the entries in use up to cycle; call it before a change.
func (c *Comp) occupancy(cycle uint64) {
	if cycle > c.occLast {
		c.occSum += uint64(c.entries.used) * (cycle - c.occLast)
		c.occLast = cycle
	}
}

func (c *Comp) noteMax() { c.occMax = max(c.occMax, c.entries.used) }

// Finish closes the activity and occupancy accounting at time now.
func (c *Comp) Finish(now sim.VTimeInSec) {
	cycle := c.Freq.Cycle(now)
	c.Activity.Finish(cycle)
	c.occupancy(cycle)
	if c.cache != nil {
		c.cache.stalls.Finish(cycle)
	}
}

// Buffers reports the input ports, the entries in use and the output register,
// and the Control port when it is connected (CommandProcessor set).
func (c *Comp) Buffers() []timing.BufferState {
	stalled := 0
	if c.stalled.msg != nil {
		stalled = 1
	}
	b := []timing.BufferState{
		{Name: c.FromQuadPacker.Name(), Len: c.inBuf.Size(), Cap: c.inBuf.Capacity()},
		{Name: c.FromShaderCores.Name(), Len: c.shadedBuf.Size(), Cap: c.shadedBuf.Capacity()},
		{Name: c.Name() + ".Entries", Len: c.entries.used, Cap: c.entries.size()},
		{Name: c.ToROPs.Name(), Len: stalled, Cap: 1},
	}
	if c.CommandProcessor != nil {
		b = append(b, timing.BufferState{Name: c.Control.Name(), Len: c.ctlBuf.Size(), Cap: c.ctlBuf.Capacity()})
	}
	return b
}

// Stats reports the counters (see the package documentation).
func (c *Comp) Stats(add func(name string, v float64)) {
	n := c.Name()
	timing.AddTagged(n+".", add, &c.st)
	add(n+".occupancy_average", timing.Ratio(c.occSum, c.occLast))
	add(n+".occupancy_max", float64(c.occMax))
	c.cacheStats(n, add)
	c.Activity.Stats(n, add)
}

// traced reports whether a tracer is attached: tasks are reported (and their IDs
// built) only then (docs/design-timing.md, section 10).
func (c *Comp) traced() bool { return c.NumHooks() > 0 }

// endWarpTasks ends the pixel_warp task ("warp<id>@rob", started at allocation)
// of every warp whose last entry is among the n head entries about to retire.
func (c *Comp) endWarpTasks(n int) {
	for k := 0; k < n; k++ {
		e := c.entries.fromHead(k)
		if e.Marker || e.Visibility {
			continue
		}
		if k+1 < c.entries.used {
			if next := c.entries.fromHead(k + 1); !next.Marker && !next.Visibility && next.Warp == e.Warp {
				continue
			}
		}
		tracing.EndTask(protocol.WarpTaskID(e.Warp, protocol.AtROB), c)
	}
}
