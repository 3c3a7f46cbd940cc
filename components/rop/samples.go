package rop

import (
	"fmt"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// checkShadedSamples validates a ShadedSamples from the reorder buffer.
func checkShadedSamples(m *protocol.ShadedSamples) error {
	if m.Draw == nil || m.Draw.State == nil || m.Draw.State.Color == nil {
		return fmt.Errorf("FromReorderBuffer: ShadedSamples %s without a draw or colour target", m.ID)
	}
	for i := range m.Quads {
		v := &m.Quads[i]
		n := v.Kept.Count()
		switch {
		case v.Prim == nil || v.Prim.Blur == nil:
			return fmt.Errorf("FromReorderBuffer: ShadedSamples %s: quad %d is not of a 5D primitive", m.ID, i)
		case !v.Kept.AndNot(v.Live).Empty():
			return fmt.Errorf("FromReorderBuffer: ShadedSamples %s: quad %d keeps samples that are not live", m.ID, i)
		case len(v.Colors) != n:
			return fmt.Errorf("FromReorderBuffer: ShadedSamples %s: quad %d has %d colours for %d kept samples", m.ID, i, len(v.Colors), n)
		case v.Depths != nil && len(v.Depths) != n:
			return fmt.Errorf("FromReorderBuffer: ShadedSamples %s: quad %d has %d depths for %d kept samples", m.ID, i, len(v.Depths), n)
		}
	}
	return nil
}

// acceptSamples takes the visibility quads of a ShadedSamples (decoupled
// draws' 5D primitives), as the reference renderer's writeVisibility: the
// samples the shader did not keep are dropped (samples_killed; a quad with
// none kept is discarded), and for a late-Z draw the kept samples go to the
// depth unit, each at its own depth or at the shader's (Depths).
func (c *Comp) acceptSamples(m *protocol.ShadedSamples) {
	n := len(m.Quads)
	r, lq := c.newRecord(m.Draw, n)
	r.vis = m
	for i := range m.Quads {
		v := &m.Quads[i]
		r.live[i] = v.Kept
		c.ws.Killed += v.Live.Count() - v.Kept.Count()
		if v.Kept.Empty() {
			c.ws.QuadsDiscarded++
			r.done++
		}
		if r.late {
			lq[i] = protocol.LateZQuad{Prim: v.Prim, Quad: raster.Quad{X: v.X, Y: v.Y}, Live: v.Kept, Depths: v.Depths}
		}
	}
	c.enqueue(r, lq, m.ID, "visibility quads")
	c.st.visQuadsIn += uint64(n)
}
