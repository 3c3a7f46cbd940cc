package samplefill

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/timing"
)

// Scheds is the number of sched chips, and of output buses (the board's 2).
const Scheds = 2

// The activity states (timing.Activity).
const (
	stateBusy         = iota // a stage moved work
	stateBlockedSched        // shaded samples or markers wait for room toward a sched
	stateWaitShader          // the oldest warp is not shaded yet
	stateBlockedCore         // the shader core refused a warp
	stateWaitPlan            // the rasterizer's next draw has no DrawPlan yet
	stateFull                // every warp slot is in flight
	stateIdle                // no work
	numStates
)

var stateNames = [numStates]string{"busy", "blocked_sched", "wait_shader", "blocked_core", "wait_plan", "full", "idle"}

// SampleFill is the per-sample stage of a SAGE rasterize chip: see the package
// documentation.
type SampleFill struct {
	timing.Unit[Config]

	// FromRasterizer receives the pipe rasterizer's TileQuads and DrawEnd.
	FromRasterizer sim.Port
	// FromDistributor receives the DrawPlan of every draw, in draw order.
	FromDistributor sim.Port
	// ToShaderCore sends sample-quad PixelWarps to ShaderCore.
	ToShaderCore sim.Port
	// FromShaderCore receives their ShadedWarps (the warps' ReturnTo).
	FromShaderCore sim.Port
	// ToScheds[k] sends SampleBursts and OrderMarkers to Scheds[k] (bus k).
	ToScheds [Scheds]sim.Port
	// ToDistributor reports each draw done (protocol.DrawEnd) to Distributor.
	ToDistributor sim.Port

	// Peers, set by the platform builder. Distributor may be nil (no load
	// reports).
	ShaderCore  sim.Port
	Scheds      [Scheds]sim.Port
	Distributor sim.Port

	why     timing.WaitReason // the stall found by a stage this cycle
	changed bool              // a message was queued toward a sched this cycle

	cur     *drawInfo           // the draw the rasterizer is sending
	open    []protocol.WarpQuad // the warp being formed
	qi      int                 // the next quad of the head TileQuads
	rest    uint64              // its samples not yet in a warp
	started bool                // rest holds the quad's samples
	nextID  uint64
	rob     []*entry // warps and markers in order
	warps   int      // warp entries in rob
	bursts  []burst  // per interleave, the open burst
	queues  [Scheds][]sim.Msg
	ws      pipeline.WriteStats // Survivors' kill count

	stats stats
}

// stats are the unit's statistics, named by their tags (Stats).
type stats struct {
	samplesOut  uint64 `stat:"samples_out"`
	sampleQuads uint64 `stat:"sample_quads"`
	warps       uint64 `stat:"warps"`
	texMerged   uint64 `stat:"texture_requests_merged"`
	bursts      uint64 `stat:"bursts"`
	markers     uint64 `stat:"markers"`
	draws       uint64 `stat:"draws"`
}

// drawInfo is a draw in the sample fill.
type drawInfo struct {
	d    *protocol.Draw
	rate uint64 // pipeline.PixelRateLinks
	tex  int    // texture fetches of the pixel shader
}

type entryKind uint8

const (
	entryWarp entryKind = iota
	entryBarrier
	entryDrawEnd
)

// entry is a reorder-buffer entry: a warp, or a marker behind the warps
// before it.
type entry struct {
	kind entryKind
	draw *drawInfo
	seq  uint64

	warp *protocol.PixelWarp
	out  []pipeline.QuadOutput // nil until shaded
	sent bool

	quad    int               // the next sample quad to retire
	left    raster.SampleMask // its surviving samples not yet out
	started bool              // left is set
	flushed bool              // DrawEnd: bursts flushed, markers queued
}

// burst is the open burst of one interleave.
type burst struct {
	draw    *protocol.Draw
	samples []protocol.SageSample
}

// Stats reports, under "<name>.": samples_out (samples sent in bursts),
// sample_quads, warps, texture_requests_merged, killed_samples, bursts,
// markers, draws, and the activity cycles (cycles_busy, cycles_blocked_sched,
// cycles_wait_shader, cycles_blocked_core, cycles_wait_plan, cycles_full,
// cycles_idle) and utilization.
func (c *SampleFill) Stats(add func(name string, v float64)) {
	p := c.Name() + "."
	timing.AddTagged(p, add, &c.stats)
	add(p+"killed_samples", float64(c.ws.Killed)) // as pipeline.Survivors counts them
	c.Activity.Stats(c.Name(), add)
}

// Buffers describes the input queues, the open warp, the reorder buffer and
// the sched queues.
func (c *SampleFill) Buffers() []timing.BufferState {
	n := c.Name()
	bs := []timing.BufferState{
		timing.PeekState(c.FromRasterizer, c.Cfg.InputQueue),
		timing.PeekState(c.FromDistributor, c.Cfg.InputQueue),
		{Name: n + ".OpenWarp", Len: len(c.open), Cap: c.Cfg.QuadsPerWarp},
		{Name: n + ".ReorderBuffer", Len: c.warps, Cap: c.Cfg.WarpsInFlight},
	}
	for k := range c.queues {
		bs = append(bs, timing.BufferState{Name: fmt.Sprintf("%s.SchedQueue[%d]", n, k), Len: len(c.queues[k]), Cap: c.Cfg.OutputQueue})
	}
	return bs
}

// Tick runs the stages back to front: send to the scheds, retire, take shaded
// warps, dispatch, form warps.
func (c *SampleFill) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	c.changed = false
	progress := c.sendStage(now)
	progress = c.retireStage(now) || progress
	progress = c.receiveStage(now) || progress
	progress = c.dispatchStage(now) || progress
	progress = c.formStage(now) || progress || c.changed
	c.Activity.Set(c.Freq.Cycle(now), c.why.End(progress, stateBusy, stateIdle))
	return progress
}

// stall records why a stage could not move (the first reason of the cycle,
// which is the stage nearest the output).
func (c *SampleFill) stall(s int) {
	c.why.Record(s)
}

// sendStage sends the head message of each sched queue, one per bus per cycle.
func (c *SampleFill) sendStage(now sim.VTimeInSec) bool {
	progress := false
	for k := range c.queues {
		if len(c.queues[k]) == 0 {
			continue
		}
		msg := c.queues[k][0]
		m := msg.Meta()
		m.Src, m.Dst, m.SendTime = c.ToScheds[k], c.Scheds[k], now
		if c.ToScheds[k].Send(msg) != nil {
			c.stall(stateBlockedSched)
			continue
		}
		if b, ok := msg.(*protocol.SampleBurst); ok {
			c.stats.samplesOut += uint64(len(b.Samples))
			c.stats.bursts++
		} else {
			c.stats.markers++
		}
		c.queues[k][0] = nil
		c.queues[k] = c.queues[k][1:]
		c.Env.Progress.Add(1)
		progress = true
	}
	return progress
}

// sched returns the sched serving interleave i.
func (c *SampleFill) sched(i int) int { return i / c.Cfg.InterleavesPerSched }

// push queues msg toward sched k; false when its queue is full.
func (c *SampleFill) push(k int, msg sim.Msg) bool {
	if len(c.queues[k]) >= c.Cfg.OutputQueue {
		c.stall(stateBlockedSched)
		return false
	}
	c.queues[k] = append(c.queues[k], msg)
	c.changed = true
	return true
}

// pushMarkers queues an order marker into both sched streams, or neither.
func (c *SampleFill) pushMarkers(kind protocol.OrderMarkerKind, d *protocol.Draw, seq uint64) bool {
	for k := range c.queues {
		if len(c.queues[k]) >= c.Cfg.OutputQueue {
			c.stall(stateBlockedSched)
			return false
		}
	}
	for k := range c.queues {
		c.queues[k] = append(c.queues[k], protocol.NewOrderMarker(kind, d, seq, c.Cfg.Pipe, -1))
	}
	c.changed = true
	return true
}

// flushBurst queues interleave i's open burst; false when its sched queue is
// full.
func (c *SampleFill) flushBurst(i int) bool {
	b := &c.bursts[i]
	if len(b.samples) == 0 {
		return true
	}
	if !c.push(c.sched(i), protocol.NewSampleBurst(b.draw, c.Cfg.Pipe, i, b.samples, c.Cfg.PacketBytes)) {
		return false
	}
	b.samples = nil
	return true
}

// flushBursts queues every open burst, as far as the queues take them.
func (c *SampleFill) flushBursts() bool {
	for i := range c.bursts {
		if !c.flushBurst(i) {
			return false
		}
	}
	return true
}

// addSample puts s into its interleave's burst, queueing the burst first when
// it is full; false (nothing changed) when its sched queue is full.
func (c *SampleFill) addSample(d *protocol.Draw, s protocol.SageSample) bool {
	i := c.Cfg.Geometry.Interleave(int(s.X), int(s.Y), int(s.S))
	b := &c.bursts[i]
	if len(b.samples) == c.Cfg.BurstSamples && !c.flushBurst(i) {
		return false
	}
	if b.samples == nil {
		b.draw, b.samples = d, make([]protocol.SageSample, 0, c.Cfg.BurstSamples)
	}
	b.samples = append(b.samples, s)
	return true
}

// Compile-time check.
var _ protocol.Unit = (*SampleFill)(nil)

// SetRaster sets the raster of the frame's sample buffer (the render target's
// size and samples per pixel; the platform calls it before the run), which
// decides each sample's interleave.
func (c *SampleFill) SetRaster(width, height, samples int) error {
	if err := c.Cfg.Geometry.SetRaster(width, height, samples); err != nil {
		return fmt.Errorf("%s: %w", c.Name(), err)
	}
	return nil
}
