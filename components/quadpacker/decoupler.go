package quadpacker

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/pipeline"
)

// decoupler is the decoupling stage of the packer (Ragan-Kelley et al. 2011,
// Fig. 7, "decoupling" after early Z): it maps the live samples of a 5D
// primitive's visibility quads to their shading taps, SamplesPerCycle samples
// per cycle, and sends the quads with their taps to the reorder buffer, whose
// shading cache looks them up.
type decoupler struct {
	samplesPerCycle int // 0: the packer has no decoupling stage

	mapped  int                       // samples of the quad at the packer's cursor mapped so far
	vis     []protocol.VisibilityQuad // the head message's quads mapped so far
	lookups []decouple.Lookup         // their look-ups, in order

	// Statistics, named by their tags (reported only when the stage exists).
	samplesMapped uint64 `stat:"samples_mapped"`
	taps          uint64 `stat:"taps"`
	visQuads      uint64 `stat:"visibility_quads"`
	visMessages   uint64 `stat:"visibility_messages"`
	flushes       uint64 `stat:"flushes_visibility"`             // open 2D warps flushed ahead of a 5D primitive's quads
	cyclesBusy    uint64 `stat:"decouple_cycles_busy"`           // cycles that mapped samples
	cyclesBlocked uint64 `stat:"decouple_cycles_blocked_output"` // cycles a mapped message (or the flush before it) waited for the output register
}

// is5D reports whether m carries the visibility quads of a decoupled draw's 5D
// primitive (the decoupling stage's work).
func is5D(m *protocol.TileQuads) bool { return m.Prim != nil && m.Prim.Blur != nil }

// decouple runs the decoupling stage on the 5D TileQuads messages at the head
// of the input: up to SamplesPerCycle live samples are mapped (a quad's
// look-ups are computed when its last sample is mapped, so a quad may take
// several cycles and several quads may share one); when a message's last quad
// is mapped, its VisibilityQuads enters the output register. An open warp of
// 2D quads is flushed first, so the reorder buffer keeps arrival order.
func (c *Comp) decouple(now sim.VTimeInSec) (progress bool) {
	d := &c.dec
	if d.samplesPerCycle == 0 {
		c.FromDepthUnits.Retrieve(now)
		c.Fault.Fail(fmt.Errorf("the quads of a 5D primitive, but the packer has no decoupling stage (SamplesPerCycle 0)"))
		return true
	}
	budget, blocked, mapped := d.samplesPerCycle, false, false
	for {
		m, ok := c.FromDepthUnits.Peek().(*protocol.TileQuads)
		if !ok || !is5D(m) {
			break
		}
		if len(c.open) > 0 {
			if !c.flushOpen() {
				blocked = true
				break
			}
			d.flushes++
			progress = true
		}
		for c.cursor < len(m.Quads) && budget > 0 {
			q := &m.Quads[c.cursor]
			n := q.Live.Count()
			take := min(budget, n-d.mapped)
			d.mapped += take
			budget -= take
			mapped = true
			if d.mapped < n {
				break
			}
			if d.vis == nil {
				d.start(m)
			}
			first := len(d.lookups)
			d.lookups = pipeline.MapSamples(m.Prim, q.Quad.X, q.Quad.Y, q.Live, d.lookups)
			d.vis = append(d.vis, protocol.VisibilityQuad{X: q.Quad.X, Y: q.Quad.Y, Live: q.Live})
			for i := first; i < len(d.lookups); i++ {
				d.taps += uint64(d.lookups[i].N)
			}
			d.samplesMapped += uint64(n)
			d.visQuads++
			d.mapped = 0
			c.cursor++
		}
		if c.cursor < len(m.Quads) {
			break
		}
		if len(c.outbox) == outboxCap {
			blocked = true
			break
		}
		if len(m.Quads) > 0 {
			c.outbox = append(c.outbox, protocol.NewVisibilityQuads(m.Draw, m.Prim, m.Partition, d.finish()))
			d.visMessages++
		}
		c.FromDepthUnits.Retrieve(now)
		c.cursor = 0
		progress = true
	}
	if mapped {
		d.cyclesBusy++
	} else if blocked {
		d.cyclesBlocked++
	}
	return progress || mapped
}

// start allocates the buffers of message m's visibility quads and look-ups.
func (d *decoupler) start(m *protocol.TileQuads) {
	samples := 0
	for i := range m.Quads {
		samples += m.Quads[i].Live.Count()
	}
	d.vis = make([]protocol.VisibilityQuad, 0, len(m.Quads))
	d.lookups = make([]decouple.Lookup, 0, samples)
}

// finish hands the mapped quads over to a message: each quad's Lookups are its
// samples' run of the look-ups.
func (d *decoupler) finish() []protocol.VisibilityQuad {
	vis, off := d.vis, 0
	for i := range vis {
		n := vis[i].Live.Count()
		vis[i].Lookups = d.lookups[off : off+n : off+n]
		off += n
	}
	d.vis, d.lookups = nil, nil
	return vis
}
