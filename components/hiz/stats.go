package hiz

// The HiZ unit: activity, buffers and statistics.

import (
	"github.com/sarchlab/akita/v3/sim"

	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/timing"
)

// account updates the activity and schedules the next wake-up when the unit
// goes to sleep.
func (c *Comp) account(now sim.VTimeInSec, cycle uint64, progress bool) {
	inPipe := c.out.Len() > 0
	state := stateIdle
	switch {
	case progress:
		state = stateBusy
	case c.sender.Blocked: // a result ready in the pipeline that the depth unit did not take
		state = stateBlockedOutput
	case inPipe: // results still within the test latency
		state = stateBusy
	case c.waitMem || c.reads.Len() > 0 && c.tested < len(c.works):
		state = stateWaitMemory
	}
	c.Activity.Set(cycle, state)
	if progress {
		return
	}
	next := ^uint64(0)
	if r, ok := c.out.NextReady(); ok {
		next = r
	}
	if c.rateBlocked {
		next = min(next, c.rate.Next(cycle))
	}
	c.Waker.WakeForNext(now, cycle, next)
}

// Buffers reports the input ports, the window, the output pipeline, the
// feedback FIFO and the memory queues.
func (c *Comp) Buffers() []timing.BufferState {
	n := c.Name()
	return []timing.BufferState{
		{Name: c.FromRasterizers.Name(), Len: c.inBuf.Size(), Cap: c.inBuf.Capacity()},
		{Name: c.FromDepthUnit.Name(), Len: c.fbBuf.Size(), Cap: c.fbBuf.Capacity()},
		{Name: n + ".Window", Len: len(c.works), Cap: c.Cfg.Window},
		{Name: n + ".Tests", Len: c.out.Len(), Cap: c.out.Latency * c.out.Width},
		{Name: n + ".Feedback", Len: len(c.fbq) - c.fbHead + len(c.fbWait), Cap: c.Cfg.FeedbackQueue},
		{Name: n + ".HiZCache.WriteQueue", Len: len(c.writes), Cap: c.Cfg.WriteQueue},
		c.client.Buffer(n + ".HiZCache.MemoryRequests"),
	}
}

// Stats reports the counters (see the package documentation).
func (c *Comp) Stats(add func(name string, v float64)) {
	n := c.Name() + "."
	s := &c.st
	timing.AddTagged(n, add, s)
	add(n+"cache_hit_rate", timing.Ratio(s.hits, s.hits+s.misses))
	add(n+"feedback_age_cycles", timing.Ratio(s.fbAgeCycles, s.fbAged))
	add(n+"feedback_delay_tests", timing.Ratio(s.fbDelayTests, s.fbAged))
	// The coarse depth buffers' counters (functional, summed over the targets).
	hs := c.HiZStats()
	timing.AddCounters(n, add,
		timing.Counter{Name: "tiles_forgotten", Value: hs.Forgotten},
		timing.Counter{Name: "quads_culled", Value: hs.QuadsCulled},
		timing.Counter{Name: "coarse_tests", Value: hs.Tiles},
		timing.Counter{Name: "tiles_culled", Value: hs.TilesCulled},
		timing.Counter{Name: "tiles_accepted", Value: hs.TilesAccepted},
		timing.Counter{Name: "tiles_ambiguous", Value: hs.TilesAmbiguous},
		timing.Counter{Name: "units_tested", Value: hs.Units},
		timing.Counter{Name: "units_culled", Value: hs.UnitsCulled},
		timing.Counter{Name: "samples_tested", Value: hs.Samples},
		timing.Counter{Name: "samples_culled", Value: hs.SamplesCulled},
		timing.Counter{Name: "samples_accepted", Value: hs.SamplesAccept},
		timing.Counter{Name: "conversions", Value: hs.Conversions},
		timing.Counter{Name: "packs", Value: hs.Packs},
		timing.Counter{Name: "mask_blocks_forced", Value: hs.BlocksForced},
		timing.Counter{Name: "feedback_applied", Value: hs.FeedbackApplied},
		timing.Counter{Name: "feedback_stale", Value: hs.FeedbackStale})
	add(n+"culling_rate", hs.CullingRate())
	c.client.Stats(c.Name()+".memory", add)
	c.Activity.Stats(c.Name(), add)
}

// HiZStats returns the coarse depth buffers' counters summed over the targets.
func (c *Comp) HiZStats() fhiz.Stats {
	var hs fhiz.Stats
	for _, sl := range c.slots {
		hs.Add(sl.buf.Stats())
	}
	return hs
}
