package shadercore

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/shader"
)

// issue lets the scheduler issue one instruction of the oldest ready warp when
// the SIMD is free. The instruction occupies the SIMD for the warp's issue
// cycles; the warp may issue again when the instruction's class latency has
// elapsed (in-order warps, no scoreboard). A texture instruction queues the
// warp's lane requests for the sampler and parks the warp until the response
// arrives; every other instruction executes functionally at issue.
func (c *Comp) issue(cy uint64) bool {
	if cy < c.issueFreeAt {
		return false
	}
	slot := -1
	for _, i := range c.order {
		s := &c.slots[i]
		if (s.state == slotReady || s.state == slotLoading) && s.readyAt <= cy {
			slot = i
			break
		}
	}
	if slot < 0 {
		return false
	}
	s := &c.slots[slot]
	w := s.warp
	in := &w.Program().Code[w.PC()]
	class := in.Op.Class()
	lat := uint64(c.Cfg.Latencies.Of(class))
	cycles := s.issueCycles
	if class == shader.ClassSFU {
		cycles = s.sfuCycles
	}
	c.issueFreeAt = cy + uint64(cycles)
	if class == shader.ClassTexture {
		s.texLanes = w.TexRequests(s.texLanes[:0])
		bindings := &s.draw.State.PSTextures
		if s.vertex != nil {
			bindings = &s.draw.State.VSTextures
		} else if s.geometry != nil {
			bindings = &s.draw.State.GSTextures
		}
		msg := protocol.NewTexRequest(s.draw, uint64(slot), &bindings[in.Sampler], s.texLanes)
		s.state, s.texID, s.texIssued = slotTexture, msg.ID, cy
		c.texQueue = append(c.texQueue, texSend{slot: slot, msg: msg, readyAt: cy + lat})
		return true
	}
	w.Step(nil)
	s.readyAt = cy + lat
	// The SIMD and the warp are busy until then with nothing to send: with a
	// narrow SIMD (warp_size / simd_width cycles an instruction) one warp's
	// program can outlast the watchdog's limit (timing.Progress.BusyUntil).
	c.Env.Progress.BusyUntil(sim.VTimeInSec(float64(max(c.issueFreeAt, s.readyAt)) / float64(c.Freq)))
	if w.Done() {
		c.finished(s)
	} else {
		s.state = slotReady
	}
	return true
}
