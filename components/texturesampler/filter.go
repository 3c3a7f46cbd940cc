package texturesampler

import (
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
)

// filter starts filtering the oldest request that has not entered the filter,
// in request order, once all its lines are present. The filter takes
// LanesPerCycle lanes per cycle (or, by texel quads, TexelQuadsPerCycle of
// its cost) into a FilterLatency-deep pipeline: a request of n lanes occupies
// it for ceil(n/LanesPerCycle) cycles and its response is ready FilterLatency
// cycles after its last lanes entered.
func (c *Comp) filter(cy uint64) bool {
	if cy < c.filterFreeAt || c.filtering == c.count {
		return false
	}
	r := c.at(c.filtering)
	if r.addrDone > cy || r.looked < len(r.lines) || r.pending > 0 || r.dataReady > cy {
		return false
	}
	n := c.filterCycles(r)
	r.filtering = true
	r.done = cy + n - 1 + c.filterLatency
	c.filterFreeAt = cy + n
	c.filtering++
	return true
}

// respond sends the oldest request's response once it is ready; responses
// leave in request order. A refused response is retried when the port frees.
func (c *Comp) respond(now sim.VTimeInSec, cy uint64) bool {
	if c.count == 0 {
		return false
	}
	r := c.at(0)
	if !r.filtering || r.done > cy {
		return false
	}
	if r.rsp == nil {
		r.rsp = protocol.NewTexResponse(r.msg, r.results)
	}
	dst := c.CorePort
	if dst == nil {
		dst = r.msg.Src
	}
	r.rsp.Src, r.rsp.Dst, r.rsp.SendTime = c.Core, dst, now
	if c.Core.Send(r.rsp) != nil {
		c.outputBlocked = true
		return false
	}
	if c.traced() {
		tracing.EndTask("tex"+r.msg.ID, c)
	}
	lat := cy - min(cy, r.arrival)
	c.stats.responses++
	c.stats.latencySum += lat
	c.stats.latencyMax = max(c.stats.latencyMax, lat)
	r.msg, r.rsp, r.results = nil, nil, nil
	c.head = (c.head + 1) % len(c.ring)
	c.count--
	c.filtering--
	c.Env.Progress.Add(1)
	return true
}
