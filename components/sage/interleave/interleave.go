package interleave

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/timing"
)

// Activity states (timing.Activity indices).
const (
	stateBusy          = iota // the bus carries a sample write or a prefetch
	stateWaitChip             // the bus waits for a chip's fill, write-back or page miss, or a DrawDone for the last writes
	stateClear                // fast clear
	stateFlush                // the present's write-backs
	stateBlockedOutput        // a DrawDone or Done waits for the command processor
	stateIdle                 // nothing to do
)

var activityNames = [...]string{"busy", "wait_chip", "clear", "flush", "blocked_output", "idle"}

// chip is one 3DRAM of the interleave: the tags of its pixel buffer (the
// controller keeps them), the open page of each bank, the cycle it is free.
type chip struct {
	tags       *timing.TagArray
	open       []int64  // per bank: the open page, -1 for none
	free       uint64   // first cycle the chip takes a new operation
	prefetched []uint64 // blocks brought in by a Prefetch and not written since
}

// output is a message waiting for its cycle.
type output struct {
	msg   sim.Msg
	ready uint64
	task  string // the clear or flush task the message ends (traced only)
}

// counters are the unit's statistics, named by their tags (Stats).
type counters struct {
	samplesIn         uint64 `stat:"samples_in"`
	bursts            uint64 `stat:"bursts"`
	hits              uint64 `stat:"cache_hits"`
	misses            uint64 `stat:"cache_misses"`
	fills             uint64 `stat:"fills"`
	writeBacks        uint64 `stat:"write_backs"`
	pageMisses        uint64 `stat:"page_misses"`
	prefetches        uint64 `stat:"prefetches"`
	prefetchHits      uint64 `stat:"prefetch_hits"`
	prefetchRedundant uint64 `stat:"prefetches_redundant"`
	clears            uint64 `stat:"clears"`
	clearCycles       uint64 `stat:"clear_cycles"`
	presents          uint64 `stat:"presents"`
	flips             uint64 `stat:"flips"`
	flushWriteBacks   uint64 `stat:"flush_write_backs"`
	drawEnds          uint64 `stat:"draw_ends"`
	drawDones         uint64 `stat:"draw_dones"`
	barriers          uint64 `stat:"barriers"`
}

// Comp is an interleave of the SAGE sample buffer: ChipsPerInterleave 3DRAM
// chips on one bus. See the package documentation.
type Comp struct {
	timing.Unit[Config]

	// FromSched receives SampleBurst, OrderMarker and Prefetch from the sched.
	FromSched sim.Port
	// Control receives ClearCmd and PresentCmd and sends Done and DrawDone.
	Control sim.Port

	// CommandProcessor is the command processor's back-end port (set by the
	// platform builder).
	CommandProcessor sim.Port

	inBuf sim.Buffer

	spb, banks, perPage              uint64
	write, fill, writeBack, pageMiss uint64
	clearRate                        uint64
	chips                            []chip
	busFree                          uint64 // first cycle the bus takes a new operation
	horizon                          uint64 // the activity is accounted up to here (may be ahead of now)
	drawEnds                         map[uint64]int
	out                              []output
	blockedOut                       bool
	flushBuf                         []uint64
	ws                               pipeline.WriteStats
	st                               counters
}

// Tick sends what is due, then carries out the next operations whose turn has
// come on the bus.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cycle := c.Freq.Cycle(now)
	c.blockedOut = false
	p := c.sendOut(now, cycle)
	p = c.stream(now, cycle) || p
	p = c.control(now, cycle) || p
	return c.account(now, cycle, p)
}

// sendOut sends the DrawDone and Done messages whose cycle has come, in order.
func (c *Comp) sendOut(now sim.VTimeInSec, cycle uint64) bool {
	progress := false
	for len(c.out) > 0 && c.out[0].ready <= cycle {
		m := c.out[0].msg
		meta := m.Meta()
		meta.Src, meta.Dst, meta.SendTime = c.Control, c.CommandProcessor, now
		if c.Control.Send(m) != nil {
			c.blockedOut = true
			return progress
		}
		c.Env.Progress.Add(1)
		if t := c.out[0].task; t != "" {
			tracing.EndTask(t, c)
		}
		c.out[0] = output{}
		c.out = c.out[1:]
		progress = true
	}
	return progress
}

// mark accounts the activity from cycle at on as state s; at must not be
// before the horizon.
func (c *Comp) mark(at uint64, s int) {
	c.Activity.Set(at, s)
	c.horizon = at
}

// stream takes the messages from the sched whose turn has come: a burst is
// scheduled on the bus sample by sample when it is taken (and written
// functionally in that order), so the next message waits until the bus is
// free after its last sample.
func (c *Comp) stream(now sim.VTimeInSec, cycle uint64) bool {
	progress := false
	for c.busFree <= cycle {
		msg := c.FromSched.Peek()
		if msg == nil {
			return progress
		}
		if c.busFree < cycle {
			c.busFree = cycle
		}
		var err error
		switch m := msg.(type) {
		case *protocol.SampleBurst:
			err = c.burst(m)
		case *protocol.Prefetch:
			err = c.prefetch(m)
		case *protocol.OrderMarker:
			err = c.marker(m)
		default:
			c.Fault.Unexpected(c.FromSched, msg)
			return false
		}
		if err != nil {
			c.Fault.Fail(err)
			return false
		}
		c.FromSched.Retrieve(now)
		c.Env.Progress.Add(1)
		progress = true
	}
	return progress
}

// locate returns the sample's chip within the interleave and its block (the
// address of its first sample in the chip), checking that it belongs here.
func (c *Comp) locate(x, y, s int) (int, uint64, error) {
	g := &c.Cfg.Geometry
	if x < 0 || y < 0 || x >= g.Width || y >= g.Height || s < 0 || s >= g.Samples {
		return 0, 0, fmt.Errorf("sample (%d, %d, %d) outside the %dx%d sample buffer at %d samples", x, y, s,
			g.Width, g.Height, g.Samples)
	}
	if i := g.Interleave(x, y, s); i != c.Cfg.Index {
		return 0, 0, fmt.Errorf("sample (%d, %d, %d) belongs to interleave %d", x, y, s, i)
	}
	row := uint64(g.Row(x, y, s))
	return g.ChipInInterleave(x, y, s), row / c.spb * c.spb, nil
}

// access is a DRAM access of block on chip k: a page miss when its bank has
// another page open. It returns the cycles.
func (c *Comp) access(k *chip, block uint64) uint64 {
	page := block / c.spb / c.perPage
	bank := page % c.banks
	if k.open[bank] == int64(page) {
		return 0
	}
	k.open[bank] = int64(page)
	c.st.pageMisses++
	return c.pageMiss
}

// load brings block into chip k's pixel buffer: the write-back of a dirty
// victim, then the fill. It returns the cycles.
func (c *Comp) load(k *chip, block uint64) uint64 {
	cost := uint64(0)
	if v, evicted := k.tags.Fill(block); evicted {
		k.forget(v.Line)
		if v.Dirty {
			c.st.writeBacks++
			cost += c.access(k, v.Line) + c.writeBack
		}
	}
	c.st.fills++
	return cost + c.access(k, block) + c.fill
}

func (k *chip) forget(block uint64) {
	for i, b := range k.prefetched {
		if b == block {
			k.prefetched[i] = k.prefetched[len(k.prefetched)-1]
			k.prefetched = k.prefetched[:len(k.prefetched)-1]
			return
		}
	}
}

// issue schedules an operation of cost cycles on chip k: the bus waits until
// the chip is free, carries the command for one cycle, and the chip is busy
// for cost cycles.
func (c *Comp) issue(k *chip, cost uint64) {
	at := max(c.busFree, k.free)
	if at > c.busFree {
		c.mark(c.busFree, stateWaitChip)
	}
	c.mark(at, stateBusy)
	k.free = at + cost
	c.busFree = at + 1
	c.mark(c.busFree, stateIdle)
}

// burst writes the burst's samples in order: per sample the block is looked
// up in its chip's pixel buffer (a miss loads it), then written by
// pipeline.WriteSample (z compare and blend in the 3DRAM).
func (c *Comp) burst(m *protocol.SampleBurst) error {
	if m.Interleave != c.Cfg.Index {
		return fmt.Errorf("FromSched: SampleBurst for interleave %d", m.Interleave)
	}
	d := m.Draw.State
	c.st.bursts++
	done := uint64(0) // the cycle the last of the burst's writes completes
	for i := range m.Samples {
		s := &m.Samples[i]
		kc, block, err := c.locate(int(s.X), int(s.Y), int(s.S))
		if err != nil {
			return fmt.Errorf("FromSched: %w", err)
		}
		k := &c.chips[kc]
		cost := c.write
		if k.tags.Lookup(block) {
			c.st.hits++
			if k.wasPrefetched(block) {
				c.st.prefetchHits++
				k.forget(block)
			}
		} else {
			c.st.misses++
			cost += c.load(k, block)
		}
		c.issue(k, cost)
		done = max(done, k.free)
		if pipeline.WriteSample(d, int(s.X), int(s.Y), int(s.S), s.Z, s.BackFacing, s.Color, &c.ws) {
			k.tags.MarkDirty(block)
		}
	}
	c.st.samplesIn += uint64(len(m.Samples))
	if c.NumHooks() > 0 && len(m.Samples) > 0 {
		id := protocol.MessageTaskID("write", m.ID)
		tracing.StartTask(id, protocol.DrawTaskID(m.Draw.Seq), c, protocol.KindSampleWrite,
			protocol.Count(len(m.Samples), "samples"), nil)
		protocol.EndTaskAt(id, c, sim.VTimeInSec(float64(done)/float64(c.Freq)))
	}
	return nil
}

func (k *chip) wasPrefetched(block uint64) bool {
	for _, b := range k.prefetched {
		if b == block {
			return true
		}
	}
	return false
}

// prefetch loads the block of the sample when it is absent (the controller's
// tags tell; a present block costs nothing).
func (c *Comp) prefetch(m *protocol.Prefetch) error {
	kc, block, err := c.locate(int(m.X), int(m.Y), int(m.S))
	if err != nil {
		return fmt.Errorf("FromSched: Prefetch: %w", err)
	}
	c.st.prefetches++
	k := &c.chips[kc]
	if k.tags.Contains(block) {
		c.st.prefetchRedundant++
		return nil
	}
	c.issue(k, c.load(k, block))
	k.prefetched = append(k.prefetched, block)
	return nil
}

// marker counts a draw's DrawEnd markers and queues DrawDone after the last
// pipe's, once every write issued so far has completed.
func (c *Comp) marker(m *protocol.OrderMarker) error {
	switch m.Kind {
	case protocol.MarkBarrier:
		c.st.barriers++
		return nil
	case protocol.MarkDrawEnd:
	default:
		return fmt.Errorf("FromSched: OrderMarker of unknown kind %d", m.Kind)
	}
	c.st.drawEnds++
	seq := m.Draw.Seq
	c.drawEnds[seq]++
	if c.drawEnds[seq] < c.Cfg.Pipes {
		return nil
	}
	delete(c.drawEnds, seq)
	c.queue(protocol.NewDrawDone(m.Draw, c.Cfg.Index), c.chipsFree())
	c.st.drawDones++
	return nil
}

func (c *Comp) chipsFree() uint64 {
	t := c.busFree
	for i := range c.chips {
		t = max(t, c.chips[i].free)
	}
	return t
}

func (c *Comp) queue(m sim.Msg, ready uint64) { c.out = append(c.out, output{msg: m, ready: ready}) }

// control carries out a ClearCmd or PresentCmd once the bus is free.
func (c *Comp) control(now sim.VTimeInSec, cycle uint64) bool {
	if c.busFree > cycle {
		return false
	}
	msg := c.Control.Peek()
	if msg == nil {
		return false
	}
	start := max(cycle, c.chipsFree())
	switch m := msg.(type) {
	case *protocol.ClearCmd:
		n := c.clearSamples(m.Target)
		cycles := (n + c.clearRate - 1) / c.clearRate
		c.mark(max(cycle, c.horizon), stateWaitChip)
		c.mark(start, stateClear)
		c.busFree = start + cycles
		for i := range c.chips {
			k := &c.chips[i]
			k.tags.Invalidate()
			k.prefetched = k.prefetched[:0]
			k.free = c.busFree
		}
		c.mark(c.busFree, stateIdle)
		c.st.clears++
		c.st.clearCycles += cycles
		c.queue(protocol.NewDone(m.ID, c.Cfg.Index), c.busFree)
		c.startControlTask(protocol.KindClear, m.ID)
	case *protocol.PresentCmd:
		c.st.presents++
		c.st.flips++
		c.mark(max(cycle, c.horizon), stateWaitChip)
		c.mark(start, stateFlush)
		end := start
		for i := range c.chips {
			k := &c.chips[i]
			c.flushBuf = k.tags.Flush(c.flushBuf[:0])
			t := start
			for _, b := range c.flushBuf {
				t += c.access(k, b) + c.writeBack
			}
			c.st.flushWriteBacks += uint64(len(c.flushBuf))
			k.free = t
			end = max(end, t)
		}
		c.busFree = end
		c.mark(end, stateIdle)
		c.queue(protocol.NewDone(m.ID, c.Cfg.Index), end)
		c.startControlTask(protocol.KindFlush, m.ID)
	default:
		c.Fault.Unexpected(c.Control, msg)
		return false
	}
	c.Control.Retrieve(now)
	c.Env.Progress.Add(1)
	return true
}

// startControlTask starts, when traced, the task of the ClearCmd or PresentCmd
// msgID ("clear<msg ID>", "flush<msg ID>": the present's write-backs) below
// the command processor's req_out task of the message; the Done just queued
// ends it when it is sent.
func (c *Comp) startControlTask(kind, msgID string) {
	if c.NumHooks() == 0 {
		return
	}
	o := &c.out[len(c.out)-1]
	o.task = protocol.MessageTaskID(kind, msgID)
	tracing.StartTask(o.task, protocol.ReqOutTaskID(msgID), c, kind, kind, nil)
}

// clearSamples returns the samples of target t that live in this interleave
// (samplebuffer.Geometry.InterleaveSamples of t's raster under the map).
func (c *Comp) clearSamples(t command.Target) uint64 {
	g := c.Cfg.Geometry
	g.Width, g.Height, g.Samples = int(t.Width), int(t.Height), max(int(t.Samples), 1)
	return uint64(g.InterleaveSamples(c.Cfg.Index))
}

// account sets the activity from this cycle on (unless an operation already
// accounted it further) and, unless the next cycle's tick is wanted (it
// returns true then), schedules the next wake-up.
func (c *Comp) account(now sim.VTimeInSec, cycle uint64, progress bool) bool {
	if cycle >= c.horizon {
		state := stateIdle
		switch {
		case c.blockedOut:
			state = stateBlockedOutput
		case len(c.out) > 0:
			state = stateWaitChip
		}
		c.mark(cycle, state)
	}
	if progress && !c.quietAfter(cycle) {
		return true
	}
	next := ^uint64(0)
	if c.busFree > cycle && (c.FromSched.Peek() != nil || c.Control.Peek() != nil) {
		next = c.busFree
	}
	if len(c.out) > 0 && c.out[0].ready > cycle {
		next = min(next, c.out[0].ready)
	}
	if next != ^uint64(0) && next > cycle {
		// The chips' fills, write-backs and flushes run until next: long
		// 3DRAM timings are work, not a hang, for the watchdog.
		c.Env.Progress.BusyUntil(c.Freq.NCyclesLater(int(next-cycle), now))
	}
	c.Waker.WakeForNext(now, cycle, next)
	return false
}

// quietAfter reports whether a tick at cycle+1 would do nothing: no message
// due to the command processor, the bus still busy or no message from the
// sched (one that arrives wakes the interleave itself), no command, and the
// activity already marked past it. The interleave then sleeps from a burst to
// the cycle its bus frees instead of spending a tick on the cycle after it.
func (c *Comp) quietAfter(cycle uint64) bool {
	next := cycle + 1
	return next < c.horizon && c.Control.Peek() == nil && (len(c.out) == 0 || c.out[0].ready > next) &&
		(c.busFree > next || c.FromSched.Peek() == nil)
}

// Finish closes the activity accounting at time now.
func (c *Comp) Finish(now sim.VTimeInSec) {
	cycle := c.Freq.Cycle(now)
	c.Activity.Finish(max(cycle, c.horizon))
}

// WriteStats returns the sample writes' counts, as pipeline.WriteSample
// counts them.
func (c *Comp) WriteStats() pipeline.WriteStats { return c.ws }

// Buffers reports the input port and the messages waiting to be sent.
func (c *Comp) Buffers() []timing.BufferState {
	return []timing.BufferState{
		{Name: c.FromSched.Name(), Len: c.inBuf.Size(), Cap: c.inBuf.Capacity()},
		{Name: c.Name() + ".Outbox", Len: len(c.out), Cap: max(len(c.out), 1)},
	}
}

// Stats reports the counters (see the package documentation).
func (c *Comp) Stats(add func(name string, v float64)) {
	n := c.Name() + "."
	s := &c.st
	timing.AddTagged(n, add, s)
	// The sample writes' counts, as pipeline.WriteSample counts them.
	add(n+"samples_written", float64(c.ws.Written))
	add(n+"samples_blended", float64(c.ws.Blended))
	add(n+"z_passed", float64(c.ws.Passed))
	add(n+"z_failed", float64(c.ws.Failed))
	add(n+"cache_hit_rate", timing.Ratio(s.hits, s.hits+s.misses))
	c.Activity.Stats(c.Name(), add)
}

// SetRaster sets the raster the sample buffer holds for the frame (the
// render target's size and samples per pixel; the platform calls it before
// the run), which decides the map from samples to chips and rows.
func (c *Comp) SetRaster(width, height, samples int) error {
	if err := c.Cfg.Geometry.SetRaster(width, height, samples); err != nil {
		return fmt.Errorf("%s: %w", c.Name(), err)
	}
	return nil
}
