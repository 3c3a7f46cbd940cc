package quadpacker

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/timing"
)

// FlushReason is why a warp left the packer.
type FlushReason int

// The flush reasons.
const (
	FlushFull       FlushReason = iota // the warp reached QuadsPerWarp quads
	FlushDrawChange                    // a quad of another draw arrived
	FlushDrawEnd                       // a DrawEnd of the warp's draw arrived
	FlushTimeout                       // FlushCycles cycles passed without a new quad
	numFlushReasons
)

var flushNames = [numFlushReasons]string{"full", "draw_change", "draw_end", "timeout"}

// String returns the reason's snake_case name (as used in the statistics).
func (r FlushReason) String() string {
	if r < 0 || r >= numFlushReasons {
		return fmt.Sprintf("FlushReason(%d)", int(r))
	}
	return flushNames[r]
}

// Activity states (timing.Activity indices).
const (
	stateBusy          = iota // packed a quad, flushed or sent a warp
	stateBlockedOutput        // a message waits for the reorder buffer
	stateIdle                 // nothing to do (possibly an open warp waiting for its timeout)
)

var activityNames = [...]string{"busy", "blocked_output", "idle"}

// outboxCap is the number of messages the output register holds: a flushed warp
// and the DrawEnd behind it, or a full warp and the next one.
const outboxCap = 2

// counters are the unit's statistics, named by their tags (Stats).
type counters struct {
	quads    uint64 `stat:"quads"`
	warps    uint64 `stat:"warps"`
	drawEnds uint64 `stat:"draw_ends"`
}

// Comp is the quad packer: it gathers the surviving quads of the depth units
// into pixel warps for the reorder buffer. See the package documentation.
type Comp struct {
	timing.Unit[Config]

	// FromDepthUnits receives TileQuads (surviving quads) and DrawEnd markers
	// from every depth unit.
	FromDepthUnits sim.Port
	// ToReorderBuffer sends PixelWarp and DrawEnd messages.
	ToReorderBuffer sim.Port
	// ReorderBufferPort is the reorder buffer's FromQuadPacker port (set by the
	// platform builder).
	ReorderBufferPort sim.Port

	flushCycles uint64
	inBuf       sim.Buffer

	cursor     int                 // next quad of the TileQuads at the head of FromDepthUnits
	open       []protocol.WarpQuad // the open warp
	openDraw   *protocol.Draw
	lastQuad   uint64 // cycle the open warp's last quad entered it
	nextWarpID uint64
	outbox     []sim.Msg // messages waiting to be sent, in order

	st      counters
	flushes [numFlushReasons]uint64

	dec decoupler
}

// Tick runs the stages back to front: send, timeout, pack.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cycle := c.Freq.Cycle(now)
	sent, blocked := c.send(now)
	timedOut := c.timeout(cycle)
	packed := c.pack(now, cycle)
	progress := sent || timedOut || packed

	switch {
	case progress:
		c.Activity.Set(cycle, stateBusy)
	case blocked:
		c.Activity.Set(cycle, stateBlockedOutput)
	default:
		c.Activity.Set(cycle, stateIdle)
	}
	if !progress && len(c.open) > 0 && len(c.open) < c.Cfg.QuadsPerWarp {
		if deadline := c.lastQuad + c.flushCycles; deadline > cycle {
			c.Waker.WakeIn(now, int(deadline-cycle))
		}
	}
	return progress
}

// send sends the waiting messages in order; blocked reports that the reorder
// buffer refused one.
func (c *Comp) send(now sim.VTimeInSec) (progress, blocked bool) {
	for len(c.outbox) > 0 {
		if c.ReorderBufferPort == nil {
			c.Fault.Fail(fmt.Errorf("ReorderBufferPort is not set"))
			return progress, true
		}
		m := c.outbox[0]
		meta := m.Meta()
		meta.Src, meta.Dst, meta.SendTime = c.ToReorderBuffer, c.ReorderBufferPort, now
		if err := c.ToReorderBuffer.Send(m); err != nil {
			return progress, true
		}
		if w, ok := m.(*protocol.PixelWarp); ok && c.traced() {
			tracing.EndTask(protocol.WarpTaskID(w.ID, ""), c)
		}
		n := copy(c.outbox, c.outbox[1:])
		c.outbox[n] = nil
		c.outbox = c.outbox[:n]
		c.Env.Progress.Add(1)
		progress = true
	}
	return progress, false
}

// timeout flushes a partial warp FlushCycles cycles after its last quad.
func (c *Comp) timeout(cycle uint64) bool {
	if len(c.open) == 0 || len(c.open) >= c.Cfg.QuadsPerWarp || cycle < c.lastQuad+c.flushCycles {
		return false
	}
	return c.flush(FlushTimeout)
}

// pack takes up to QuadsPerCycle quads or markers from the input.
func (c *Comp) pack(now sim.VTimeInSec, cycle uint64) (progress bool) {
	for budget := c.Cfg.QuadsPerCycle; budget > 0; {
		if len(c.open) == c.Cfg.QuadsPerWarp {
			if !c.flush(FlushFull) {
				return progress
			}
			progress = true
		}
		msg := c.FromDepthUnits.Peek()
		if msg == nil {
			return progress
		}
		switch m := msg.(type) {
		case *protocol.TileQuads:
			if is5D(m) { // the decoupling stage's work; it stops this cycle's packing
				return c.decouple(now) || progress
			}
			if c.cursor >= len(m.Quads) { // an empty message
				c.FromDepthUnits.Retrieve(now)
				c.cursor = 0
				progress = true
				continue
			}
			if len(c.open) > 0 && c.openDraw != m.Draw {
				if !c.flush(FlushDrawChange) {
					return progress
				}
			}
			q := &m.Quads[c.cursor]
			if len(c.open) == 0 && c.traced() {
				c.startWarpTask(m)
			}
			c.open = append(c.open, protocol.WarpQuad{Prim: m.Prim, Quad: q.Quad, Live: q.Live, Partition: m.Partition, Sample: protocol.PerPixel})
			c.openDraw = m.Draw
			c.lastQuad = cycle
			c.st.quads++
			c.cursor++
			if c.cursor == len(m.Quads) {
				c.FromDepthUnits.Retrieve(now)
				c.cursor = 0
			}
			if len(c.open) == c.Cfg.QuadsPerWarp {
				c.flush(FlushFull) // retried at the top when the outbox is full
			}
		case *protocol.DrawEnd:
			if len(c.open) > 0 && c.openDraw == m.Draw {
				if !c.flush(FlushDrawEnd) {
					return progress
				}
				progress = true
			}
			if len(c.outbox) == outboxCap {
				return progress
			}
			c.FromDepthUnits.Retrieve(now)
			c.outbox = append(c.outbox, protocol.NewDrawEnd(m.Draw, m.From))
			c.st.drawEnds++
		default:
			c.FromDepthUnits.Retrieve(now)
			c.Fault.Fail(fmt.Errorf("unexpected %T on FromDepthUnits", msg))
			return true
		}
		budget--
		progress = true
	}
	return progress
}

// flush moves the open warp to the outbox for reason r; false when the outbox
// is full.
func (c *Comp) flush(r FlushReason) bool {
	if !c.flushOpen() {
		return false
	}
	c.flushes[r]++
	return true
}

// flushOpen moves the open warp to the outbox; false when the outbox is full.
func (c *Comp) flushOpen() bool {
	if len(c.outbox) == outboxCap {
		return false
	}
	w := protocol.NewPixelWarp(c.openDraw, c.nextWarpID, c.open)
	c.outbox = append(c.outbox, w)
	c.nextWarpID++
	c.st.warps++
	c.open = make([]protocol.WarpQuad, 0, c.Cfg.QuadsPerWarp)
	c.openDraw = nil
	return true
}

// Buffers reports the input port, the open warp and the output register.
func (c *Comp) Buffers() []timing.BufferState {
	return []timing.BufferState{
		{Name: c.FromDepthUnits.Name(), Len: c.inBuf.Size(), Cap: c.inBuf.Capacity()},
		{Name: c.Name() + ".OpenWarp", Len: len(c.open), Cap: c.Cfg.QuadsPerWarp},
		{Name: c.Name() + ".Outbox", Len: len(c.outbox), Cap: outboxCap},
	}
}

// Stats reports the counters (see the package documentation).
func (c *Comp) Stats(add func(name string, v float64)) {
	n := c.Name()
	timing.AddTagged(n+".", add, &c.st)
	add(n+".quads_per_warp", timing.Ratio(c.st.quads-uint64(len(c.open)), c.st.warps))
	for r := FlushReason(0); r < numFlushReasons; r++ {
		add(n+".flushes_"+r.String(), float64(c.flushes[r]))
	}
	if c.dec.samplesPerCycle != 0 { // the decoupling stage exists
		timing.AddTagged(n+".", add, &c.dec)
	}
	c.Activity.Stats(n, add)
}

// traced reports whether a tracer is attached: tasks are reported (and their IDs
// built) only then (docs/design-timing.md, section 10).
func (c *Comp) traced() bool { return c.NumHooks() > 0 }

// startWarpTask starts the pixel_warp task of the warp that the next quad, of
// m, opens ("warp<id>", below its draw; on the tiled machine "tu<k>.warp<n>",
// below the tile unit's task of the draw in m's screen tile,
// protocol.WindowDrawTaskID), which ends when the warp is sent to the reorder
// buffer.
func (c *Comp) startWarpTask(m *protocol.TileQuads) {
	d := m.Draw
	tracing.StartTask(protocol.WarpTaskID(c.nextWarpID, ""), protocol.WindowDrawTaskID(d.Seq, m.Window), c,
		protocol.KindPixelWarp, protocol.TaskWhat("draw", d.Seq), nil)
}
