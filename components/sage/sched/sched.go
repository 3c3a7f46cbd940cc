package sched

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/timing"
)

// Activity states (timing.Activity indices).
const (
	stateBusy          = iota // moved or sent something
	stateBlockedOutput        // a pre-write queue is full or the output port refused a message
	stateWaitBarrier          // sources are held at a barrier and nothing else moves
	stateIdle                 // nothing to do
)

var activityNames = [...]string{"busy", "blocked_output", "wait_barrier", "idle"}

// lane is everything the sched keeps for one of its interleaves: the
// second-stage FIFOs (one per pipe), the switch and the pre-write queue.
type lane struct {
	second   []fifo
	prewrite fifo

	cur   int  // the source the switch lets flow
	sent  int  // samples the current grant sent while another source waited
	fresh bool // the current grant has sent no sample yet

	usedCycle uint64 // the cycle of the width budget below
	used      int    // samples moved in usedCycle

	barrierSince int64              // cycle since which a source is held at a barrier; -1: none
	prefetch     *protocol.Prefetch // the snoop's Prefetch waiting for the port

	st laneCounters
}

// laneCounters are a lane's statistics; the sched reports their sums.
type laneCounters struct {
	samples     uint64 `stat:"samples_out"`
	bursts      uint64 `stat:"bursts_out"`
	switches    uint64 `stat:"switches"`
	holds       uint64 `stat:"hysteresis_holds"`
	barriers    uint64 `stat:"barriers"`
	barrierWait uint64 `stat:"barrier_wait_cycles"`
	drawEnds    uint64 `stat:"draw_ends"`
	prefetches  uint64 `stat:"prefetches"`
}

// Comp is a sched chip: input FIFOs, second-stage FIFOs, load-balancing
// switches and pre-write queues. See the package documentation.
type Comp struct {
	timing.Unit[Config]

	// FromPipes[p] receives SampleBurst and OrderMarker from pipe p's
	// sample fill.
	FromPipes []sim.Port
	// ToInterleaves sends SampleBurst, OrderMarker and Prefetch to the
	// interleaves.
	ToInterleaves sim.Port

	// Interleaves are the interleaves' FromSched ports, by local index (set
	// by the platform builder).
	Interleaves []sim.Port

	input      []fifo
	lanes      []lane
	sendNext   int   // the lane whose output goes first (round robin)
	stallSince int64 // cycle since which the port's head waits for a full input FIFO; -1: none

	blockedOut timing.WaitReason // this tick: an output refused (stateBlockedOutput)
	samplesIn  uint64
	inputStall uint64
}

// Tick runs the stages from the back of the chip to its front, so that an
// item moves at most one stage per cycle.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cycle := c.Freq.Cycle(now)
	p := c.send(now)
	p = c.switchAll(cycle) || p
	p = c.route() || p
	p = c.accept(now, cycle) || p
	c.account(cycle, p)
	return p
}

// accept takes messages from each pipe's port into that pipe's input FIFO
// while it has room; a full FIFO stops its own port (back-pressure to that
// pipe's output bus only: each rasterize output has its own input FIFO and
// pins, so one pipe waiting at a barrier cannot block another's samples).
func (c *Comp) accept(now sim.VTimeInSec, cycle uint64) bool {
	progress, stalled := false, false
	for pipe, port := range c.FromPipes {
		for {
			msg := port.Peek()
			if msg == nil {
				break
			}
			e, from, err := c.entryOf(msg)
			if err != nil {
				c.Fault.Fail(err)
				return false
			}
			if from != pipe {
				c.Fault.Fail(fmt.Errorf("%s: a message of pipe %d", port.Name(), from))
				return false
			}
			f := &c.input[pipe]
			if !f.fits(e.samples()) {
				stalled = true
				break
			}
			port.Retrieve(now)
			if e.burst != nil && e.samples() == 0 {
				continue // an empty burst carries nothing
			}
			f.push(e)
			if e.burst != nil && c.NumHooks() > 0 {
				tracing.StartTask(protocol.MessageTaskID("burst", e.burst.ID), protocol.DrawTaskID(e.burst.Draw.Seq), c,
					protocol.KindSampleBurst, protocol.Count(e.samples(), "samples"), nil)
			}
			c.samplesIn += uint64(e.samples())
			progress = true
		}
	}
	if stalled {
		if c.stallSince < 0 {
			c.stallSince = int64(cycle)
		}
	} else {
		c.endStall(cycle)
	}
	return progress
}

func (c *Comp) endStall(cycle uint64) {
	if c.stallSince >= 0 {
		c.inputStall += cycle - uint64(c.stallSince)
		c.stallSince = -1
	}
}

// entryOf checks an incoming message and returns it as a FIFO entry with its
// pipe.
func (c *Comp) entryOf(msg sim.Msg) (entry, int, error) {
	switch m := msg.(type) {
	case *protocol.SampleBurst:
		if m.Pipe < 0 || m.Pipe >= len(c.input) {
			return entry{}, 0, fmt.Errorf("FromPipes: SampleBurst from pipe %d, want [0, %d)", m.Pipe, len(c.input))
		}
		if j := m.Interleave - c.Cfg.FirstInterleave; j < 0 || j >= len(c.lanes) {
			return entry{}, 0, fmt.Errorf("FromPipes: SampleBurst for interleave %d, this sched serves [%d, %d)",
				m.Interleave, c.Cfg.FirstInterleave, c.Cfg.FirstInterleave+len(c.lanes))
		}
		return entry{burst: m, hi: len(m.Samples)}, m.Pipe, nil
	case *protocol.OrderMarker:
		if m.Pipe < 0 || m.Pipe >= len(c.input) {
			return entry{}, 0, fmt.Errorf("FromPipes: OrderMarker from pipe %d, want [0, %d)", m.Pipe, len(c.input))
		}
		if j := m.Interleave - c.Cfg.FirstInterleave; m.Interleave != -1 && (j < 0 || j >= len(c.lanes)) {
			return entry{}, 0, fmt.Errorf("FromPipes: OrderMarker for interleave %d, this sched serves [%d, %d) (or -1 for all)",
				m.Interleave, c.Cfg.FirstInterleave, c.Cfg.FirstInterleave+len(c.lanes))
		}
		return entry{marker: m}, m.Pipe, nil
	}
	return entry{}, 0, fmt.Errorf("FromPipes: unexpected message %T", msg)
}

// route moves the head of each input FIFO (one entry per pipe per cycle) into
// the second-stage FIFO of its interleave; a marker for every interleave goes
// into each of the pipe's second-stage FIFOs.
func (c *Comp) route() bool {
	progress := false
	for p := range c.input {
		f := &c.input[p]
		if f.empty() {
			continue
		}
		e := *f.peek()
		if e.burst != nil {
			dst := &c.lanes[e.burst.Interleave-c.Cfg.FirstInterleave].second[p]
			if !dst.fits(e.samples()) {
				continue
			}
			dst.push(e)
		} else if e.marker.Interleave == -1 {
			for j := range c.lanes {
				c.lanes[j].second[p].push(e)
			}
		} else {
			c.lanes[e.marker.Interleave-c.Cfg.FirstInterleave].second[p].push(e)
		}
		f.pop()
		progress = true
	}
	return progress
}

// switchAll runs every interleave's switch for one cycle.
func (c *Comp) switchAll(cycle uint64) bool {
	progress := false
	for j := range c.lanes {
		if c.switchLane(j, cycle) {
			progress = true
		}
	}
	return progress
}

// ready reports whether source p of lane l has a sample at its head (not a
// marker).
func ready(l *lane, p int) bool {
	f := &l.second[p]
	return !f.empty() && f.peek().burst != nil
}

// othersWaiting reports whether a source other than l.cur is ready.
func othersWaiting(l *lane) bool {
	for p := range l.second {
		if p != l.cur && ready(l, p) {
			return true
		}
	}
	return false
}

// nextReady returns the first ready source after l.cur in round-robin order
// (l.cur itself last), or -1.
func nextReady(l *lane) int {
	n := len(l.second)
	for k := 1; k <= n; k++ {
		if p := (l.cur + k) % n; ready(l, p) {
			return p
		}
	}
	return -1
}

// switchLane moves markers and up to the width's samples of one cycle from the
// second-stage FIFOs of lane j into its pre-write queue.
func (c *Comp) switchLane(j int, cycle uint64) bool {
	l := &c.lanes[j]
	if l.usedCycle != cycle {
		l.usedCycle, l.used = cycle, 0
	}
	progress := c.markers(l, cycle)
	for l.used < c.Cfg.SamplesPerCycle && l.prewrite.room() > 0 {
		waiting := othersWaiting(l)
		if !ready(l, l.cur) || (waiting && !l.fresh && l.sent >= c.Cfg.Hysteresis) {
			p := nextReady(l)
			if p < 0 {
				break
			}
			if p != l.cur {
				l.st.switches++
				l.cur = p
			}
			l.sent, l.fresh = 0, true
			waiting = othersWaiting(l)
		}
		limit := min(c.Cfg.SamplesPerCycle-l.used, l.prewrite.room())
		if waiting {
			limit = min(limit, max(1, c.Cfg.Hysteresis-l.sent))
		}
		e := l.second[l.cur].take(limit)
		n := e.samples()
		l.prewrite.pushSamples(e)
		if waiting {
			l.sent += n
			if l.fresh {
				l.st.holds += uint64(n - 1)
			} else {
				l.st.holds += uint64(n)
			}
		}
		l.fresh = false
		l.used += n
		l.st.samples += uint64(n)
		progress = true
		c.markers(l, cycle)
	}
	if !progress && l.prewrite.room() == 0 {
		c.blockedOut.Record(stateBlockedOutput)
	}
	return progress
}

// markers forwards the DrawEnd markers at the heads of the sources and
// releases a barrier that every source has reached.
func (c *Comp) markers(l *lane, cycle uint64) bool {
	progress := false
	held, all := 0, true
	var seq uint64
	for p := range l.second {
		f := &l.second[p]
		for !f.empty() && f.peek().burst == nil && f.peek().marker.Kind == protocol.MarkDrawEnd {
			l.prewrite.push(*f.peek())
			f.pop()
			l.st.drawEnds++
			progress = true
		}
		if f.empty() || f.peek().burst != nil {
			all = false
			continue
		}
		m := f.peek().marker
		if held > 0 && m.Seq != seq {
			c.Fault.Fail(fmt.Errorf("interleave %d: pipe %d holds barrier %d while another pipe holds barrier %d",
				c.Cfg.FirstInterleave+c.laneIndex(l), p, m.Seq, seq))
			return false
		}
		seq = m.Seq
		held++
	}
	if held > 0 && all {
		e := *l.second[0].peek()
		for p := range l.second {
			l.second[p].pop()
		}
		l.prewrite.push(e)
		l.st.barriers++
		progress = true
		if l.barrierSince >= 0 {
			l.st.barrierWait += cycle - uint64(l.barrierSince)
		}
		l.barrierSince = -1
		return c.markers(l, cycle) || progress
	}
	if held > 0 && l.barrierSince < 0 {
		l.barrierSince = int64(cycle)
	}
	return progress
}

func (c *Comp) laneIndex(l *lane) int {
	for j := range c.lanes {
		if &c.lanes[j] == l {
			return j
		}
	}
	return -1
}

// send sends, for each interleave in round-robin order, first its pending
// Prefetch, then the head of its pre-write queue: one marker, or one burst of
// up to OutputBurst samples of one draw. After a burst the snoop prepares a
// Prefetch for the sample SnoopDistance places behind the new head. A refused
// message stops the stage for this cycle.
func (c *Comp) send(now sim.VTimeInSec) bool {
	progress := false
	n := len(c.lanes)
	for k := 0; k < n; k++ {
		j := (c.sendNext + k) % n
		l := &c.lanes[j]
		if l.prefetch != nil {
			if !c.sendTo(now, j, l.prefetch) {
				c.blockedOut.Record(stateBlockedOutput)
				break
			}
			l.prefetch = nil
			l.st.prefetches++
			progress = true
		}
		if l.prewrite.empty() {
			continue
		}
		msg, samples := c.head(l, j)
		if !c.sendTo(now, j, msg) {
			c.blockedOut.Record(stateBlockedOutput)
			break
		}
		if samples > 0 && c.NumHooks() > 0 {
			c.endBursts(&l.prewrite, samples)
		}
		l.prewrite.drop(samples)
		progress = true
		if samples == 0 {
			continue
		}
		l.st.bursts++
		if c.Cfg.SnoopDistance > 0 {
			if s, ok := l.prewrite.at(c.Cfg.SnoopDistance); ok {
				l.prefetch = protocol.NewPrefetch(s.X, s.Y, s.S)
				if !c.sendTo(now, j, l.prefetch) {
					c.blockedOut.Record(stateBlockedOutput)
					break
				}
				l.prefetch = nil
				l.st.prefetches++
			}
		}
	}
	c.sendNext = (c.sendNext + 1) % n
	return progress
}

// endBursts ends the sample_burst task of every incoming burst whose last
// sample is among the n samples at the head of f, which are being sent.
func (c *Comp) endBursts(f *fifo, n int) {
	for k := f.head; k < len(f.q) && n > 0; k++ {
		e := &f.q[k]
		if e.burst == nil {
			continue
		}
		if e.samples() <= n && e.hi == len(e.burst.Samples) {
			tracing.EndTask(protocol.MessageTaskID("burst", e.burst.ID), c)
		}
		n -= e.samples()
	}
}

func (c *Comp) sendTo(now sim.VTimeInSec, j int, msg sim.Msg) bool {
	m := msg.Meta()
	m.Src, m.Dst, m.SendTime = c.ToInterleaves, c.Interleaves[j], now
	if c.ToInterleaves.Send(msg) != nil {
		return false
	}
	c.Env.Progress.Add(1)
	return true
}

// head builds the message for the head of lane j's pre-write queue and
// returns it with the samples it carries.
func (c *Comp) head(l *lane, j int) (sim.Msg, int) {
	h := l.prewrite.peek()
	if h.burst == nil {
		m := h.marker
		pipe := m.Pipe
		if m.Kind == protocol.MarkBarrier {
			pipe = -1
		}
		return protocol.NewOrderMarker(m.Kind, m.Draw, m.Seq, pipe, c.Cfg.FirstInterleave+j), 0
	}
	d := h.burst.Draw
	n, runs := 0, 0
	for k := l.prewrite.head; k < len(l.prewrite.q) && n < c.Cfg.OutputBurst; k++ {
		e := &l.prewrite.q[k]
		if e.burst == nil || e.burst.Draw != d {
			break
		}
		n += min(e.samples(), c.Cfg.OutputBurst-n)
		runs++
	}
	var samples []protocol.SageSample
	if runs == 1 {
		samples = h.burst.Samples[h.lo : h.lo+n]
	} else {
		samples = make([]protocol.SageSample, 0, n)
		for k := l.prewrite.head; len(samples) < n; k++ {
			e := &l.prewrite.q[k]
			samples = append(samples, e.burst.Samples[e.lo:e.lo+min(e.samples(), n-len(samples))]...)
		}
	}
	return protocol.NewSampleBurst(d, h.burst.Pipe, c.Cfg.FirstInterleave+j, samples, c.packetBytes(h.burst)), n
}

// packetBytes recovers the packet size of the incoming burst (its bytes less
// the 8-byte header, per sample), so that the outgoing burst is charged alike.
func (c *Comp) packetBytes(b *protocol.SampleBurst) int {
	if len(b.Samples) == 0 {
		return 0
	}
	return (b.TrafficBytes - 8) / len(b.Samples)
}

// account sets the activity for the cycles from this one on.
func (c *Comp) account(cycle uint64, progress bool) {
	otherwise := stateIdle
	if c.barrierHeld() {
		otherwise = stateWaitBarrier
	}
	c.Activity.Set(cycle, c.blockedOut.End(progress, stateBusy, otherwise))
}

func (c *Comp) barrierHeld() bool {
	for j := range c.lanes {
		if c.lanes[j].barrierSince >= 0 {
			return true
		}
	}
	return false
}

// Finish closes the activity accounting and the open stall intervals at time
// now.
func (c *Comp) Finish(now sim.VTimeInSec) {
	cycle := c.Freq.Cycle(now)
	c.Activity.Finish(cycle)
	c.endStall(cycle)
	for j := range c.lanes {
		if l := &c.lanes[j]; l.barrierSince >= 0 {
			l.st.barrierWait += cycle - uint64(l.barrierSince)
			l.barrierSince = int64(cycle)
		}
	}
}

// Buffers reports the input port, the input FIFOs, the second-stage FIFOs and
// the pre-write queues (in samples; markers count as one entry when a FIFO
// holds no sample).
func (c *Comp) Buffers() []timing.BufferState {
	n := c.Name()
	var b []timing.BufferState
	for p := range c.input {
		b = append(b, fifoState(fmt.Sprintf("%s.Input[%d]", n, p), &c.input[p]))
	}
	for j := range c.lanes {
		l := &c.lanes[j]
		for p := range l.second {
			b = append(b, fifoState(fmt.Sprintf("%s.Interleave[%d].Second[%d]", n, c.Cfg.FirstInterleave+j, p), &l.second[p]))
		}
		b = append(b, fifoState(fmt.Sprintf("%s.Interleave[%d].Prewrite", n, c.Cfg.FirstInterleave+j), &l.prewrite))
	}
	return b
}

func fifoState(name string, f *fifo) timing.BufferState {
	return timing.BufferState{Name: name, Len: max(f.samples, min(f.len(), 1)), Cap: f.depth}
}

// Stats reports the counters (see the package documentation).
func (c *Comp) Stats(add func(name string, v float64)) {
	n := c.Name() + "."
	var t laneCounters
	for j := range c.lanes {
		l := &c.lanes[j].st
		t.samples += l.samples
		t.switches += l.switches
		t.holds += l.holds
		t.prefetches += l.prefetches
		t.barrierWait += l.barrierWait
		t.barriers += l.barriers
		t.drawEnds += l.drawEnds
		t.bursts += l.bursts
		add(fmt.Sprintf("%sinterleave%d_samples", n, c.Cfg.FirstInterleave+j), float64(l.samples))
	}
	add(n+"samples_in", float64(c.samplesIn))
	add(n+"input_stall_cycles", float64(c.inputStall))
	timing.AddTagged(n, add, &t)
	c.Activity.Stats(c.Name(), add)
}
