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
	c.activity.Set(cycle, state)
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
	c.waker.WakeForNext(now, cycle, next)
}

// Finish closes the activity accounting at time now.
func (c *Comp) Finish(now sim.VTimeInSec) { c.activity.Finish(c.Freq.Cycle(now)) }

// Buffers reports the input ports, the window, the output pipeline, the
// feedback FIFO and the memory queues.
func (c *Comp) Buffers() []timing.BufferState {
	n := c.Name()
	return []timing.BufferState{
		{Name: c.FromRasterizers.Name(), Len: c.inBuf.Size(), Cap: c.inBuf.Capacity()},
		{Name: c.FromDepthUnit.Name(), Len: c.fbBuf.Size(), Cap: c.fbBuf.Capacity()},
		{Name: n + ".Window", Len: len(c.works), Cap: c.window},
		{Name: n + ".Tests", Len: c.out.Len(), Cap: c.out.Latency * c.out.Width},
		{Name: n + ".Feedback", Len: len(c.fbq) - c.fbHead + len(c.fbWait), Cap: c.fbCap},
		{Name: n + ".HiZCache.WriteQueue", Len: len(c.writes), Cap: c.writeQueue},
		c.client.Buffer(n + ".HiZCache.MemoryRequests"),
	}
}

// Stats reports the counters (see the package documentation).
func (c *Comp) Stats(add func(name string, v float64)) {
	n := c.Name() + "."
	s := &c.st
	var hs fhiz.Stats
	for _, sl := range c.slots {
		hs.Add(sl.buf.Stats())
	}
	rate := timing.Ratio(s.hits, s.hits+s.misses)
	for _, e := range []struct {
		name string
		v    float64
	}{
		{"tiles_in", float64(s.tilesIn)}, {"quads_in", float64(s.quadsIn)},
		{"tiles_out", float64(s.tilesOut)}, {"quads_out", float64(s.quadsOut)},
		{"messages_culled", float64(s.messagesCulled)}, {"pass_through_tiles", float64(s.passTiles)},
		{"tiles_without_hiz", float64(s.noHiZTiles)}, {"draw_ends", float64(s.drawEnds)},
		{"tiles_5d_passed", float64(s.blurTiles)}, {"tiles_forgotten", float64(hs.Forgotten)},
		{"quads_culled", float64(hs.QuadsCulled)},
		{"coarse_tests", float64(hs.Tiles)}, {"tiles_culled", float64(hs.TilesCulled)},
		{"tiles_accepted", float64(hs.TilesAccepted)}, {"tiles_ambiguous", float64(hs.TilesAmbiguous)},
		{"units_tested", float64(hs.Units)}, {"units_culled", float64(hs.UnitsCulled)},
		{"culling_rate", hs.CullingRate()},
		{"samples_tested", float64(hs.Samples)}, {"samples_culled", float64(hs.SamplesCulled)},
		{"samples_accepted", float64(hs.SamplesAccept)}, {"conversions", float64(hs.Conversions)},
		{"packs", float64(hs.Packs)}, {"mask_blocks_forced", float64(hs.BlocksForced)},
		{"cache_hits", float64(s.hits)}, {"cache_misses", float64(s.misses)},
		{"cache_misses_merged", float64(s.merged)}, {"cache_cleared_fills", float64(s.clearedFills)},
		{"cache_refills", float64(s.refills)}, {"cache_line_reads", float64(s.lineReads)},
		{"cache_evictions", float64(s.evictions)}, {"cache_write_backs", float64(s.writeBacks)},
		{"cache_hit_rate", rate}, {"bytes_read", float64(s.bytesRead)}, {"bytes_written", float64(s.bytesWritten)},
		{"feedback_messages", float64(s.fbMessages)}, {"feedback_tiles", float64(s.fbTiles)},
		{"feedback_applied", float64(hs.FeedbackApplied)}, {"feedback_stale", float64(hs.FeedbackStale)},
		{"feedback_dropped_full", float64(s.fbDroppedFull)}, {"feedback_dropped_absent", float64(s.fbDroppedAbsent)},
		{"feedback_refetched", float64(s.fbRefetched)},
		{"feedback_age_cycles", timing.Ratio(s.fbAgeCycles, s.fbAged)}, {"feedback_delay_tests", timing.Ratio(s.fbDelayTests, s.fbAged)},
		{"clears", float64(s.clears)}, {"flushes", float64(s.flushes)},
	} {
		add(n+e.name, e.v)
	}
	c.client.Stats(c.Name()+".memory", add)
	c.activity.Stats(c.Name(), add)
}

// HiZStats returns the coarse depth buffers' counters summed over the targets.
func (c *Comp) HiZStats() fhiz.Stats {
	var hs fhiz.Stats
	for _, sl := range c.slots {
		hs.Add(sl.buf.Stats())
	}
	return hs
}
