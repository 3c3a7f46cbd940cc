package shadercore

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
)

// sendTexRequests sends the oldest queued texture request once its issue
// latency has elapsed (one per cycle, in issue order); a refused send is
// retried when the port frees up.
func (c *Comp) sendTexRequests(now sim.VTimeInSec, cy uint64) bool {
	if len(c.texQueue) == 0 || c.texQueue[0].readyAt > cy {
		return false
	}
	if c.SamplerPort == nil {
		c.Fault.Fail(fmt.Errorf("SamplerPort is not set"))
		return false
	}
	msg := c.texQueue[0].msg
	msg.Src, msg.Dst, msg.SendTime = c.Sampler, c.SamplerPort, now
	if c.Sampler.Send(msg) != nil {
		return false
	}
	if c.traced() {
		tracing.TraceReqInitiate(msg, c, c.slots[c.texQueue[0].slot].task)
	}
	copy(c.texQueue, c.texQueue[1:])
	c.texQueue = c.texQueue[:len(c.texQueue)-1]
	c.stats.texMessages++
	c.Env.Progress.Add(1)
	return true
}

// receiveTexResponse takes one texture response: the results are written to
// the warp's registers (Warp.CompleteTex) and the warp may issue from the next
// cycle on.
func (c *Comp) receiveTexResponse(now sim.VTimeInSec, cy uint64) bool {
	msg := c.Sampler.Peek()
	rsp, ok := msg.(*protocol.TexResponse)
	if !c.Fault.Expect(ok, c.Sampler, msg) {
		return false
	}
	if rsp.Warp >= uint64(len(c.slots)) || c.slots[rsp.Warp].state != slotTexture ||
		c.slots[rsp.Warp].texID != rsp.RspTo {
		c.Fault.Fail(fmt.Errorf("Sampler: TexResponse for warp slot %d answers no outstanding request (%s)",
			rsp.Warp, rsp.RspTo))
		return false
	}
	c.Sampler.Retrieve(now)
	if c.traced() {
		tracing.EndTask(protocol.ReqOutTaskID(rsp.RspTo), c)
	}
	s := &c.slots[rsp.Warp]
	s.warp.CompleteTex(rsp.Results)
	s.texID = ""
	c.stats.texWaitWarpCycles += cy - s.texIssued
	s.readyAt = cy + 1
	if s.warp.Done() {
		c.finished(s)
	} else {
		s.state = slotReady
	}
	return true
}
