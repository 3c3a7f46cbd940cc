package convolve

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/sage/internal/present"
	"github.com/gfxsim/gfxsim/functional/filter"
	"github.com/gfxsim/gfxsim/timing"
)

// Activity states (timing.Activity indices) of the filter processor array.
const (
	stateBusy    = iota // filtering a span
	stateStarved        // the next span's source lines are not all in the buffer
	stateBlocked        // the output queue is full: the chain has not taken the earlier spans
	stateIdle           // no frame, or the swath is done
)

var activityNames = [...]string{"busy", "starved", "blocked", "idle"}

// Comp is one convolve chip. See the package documentation.
type Comp struct {
	timing.Unit[Config]

	// Control receives PresentCmd and answers Done at once.
	Control sim.Port
	// ToRoute sends LineRequests to the route network.
	ToRoute sim.Port
	// FromRoute receives SampleSpans for the chip's swath.
	FromRoute sim.Port
	// FromPrev receives the previous chip's VideoSpans (unused on chip 0).
	FromPrev sim.Port
	// ToNext sends VideoSpans to the next chip's FromPrev or, on the last chip,
	// to the video output.
	ToNext sim.Port

	// Route is the route network's FromConvolves port; Next the next chip's
	// FromPrev or the video output's FromConvolve (set by the platform builder).
	Route, Next sim.Port

	routeBuf    sim.Buffer
	prevBuf     sim.Buffer
	step        float64
	outputSpans int

	// Frame geometry: output swath [x0, x1), the first column of the chain's
	// stream, source columns [c0, c1), the source rows the swath needs in
	// request order.
	x0, x1   int
	streamX0 int
	rows     []int
	buf      *lineBuffer

	// Frame progress.
	active    bool   // a frame was started and is not fully sent
	present   string // the frame's PresentCmd ID (its tasks' parent)
	ctl       present.Control
	nextReq   int // rows[nextReq] is the next row to request
	j, i      int // next span to filter starts at output pixel (i, j)
	busy      bool
	busyUntil uint64
	pending   *protocol.VideoSpan
	outQ      []*protocol.VideoSpan
	sendY     int // the output line the chain is assembling
	sendX     int // pixels [streamX0, sendX) of line sendY have been passed on

	starved, blocked bool
	fst              filter.Stats
	st               counters
}

// counters are the unit's statistics, named by their tags (Stats).
type counters struct {
	presents     uint64 `stat:"presents"`
	requests     uint64 `stat:"line_requests"`
	spansIn      uint64 `stat:"spans_in"`
	samplesIn    uint64 `stat:"samples_in"`
	spansOut     uint64 `stat:"spans_out"`
	forwarded    uint64 `stat:"spans_forwarded"`
	filterCycles uint64 `stat:"filter_cycles"`
}

// setFrame computes the swath geometry: the source columns and rows the
// swath's 5x5 windows reach.
func (c *Comp) setFrame() {
	b := c.buf
	c.rows = c.rows[:0]
	if c.x0 == c.x1 {
		b.setColumns(0, 0)
		return
	}
	c0 := max(0, c.pixelOf(c.x0)-filter.Window/2)
	c1 := min(b.srcW, c.pixelOf(c.x1-1)+filter.Window/2+1)
	b.setColumns(c0, c1)
	next := 0
	for j := 0; j < c.Cfg.OutputHeight; j++ {
		lo, hi := c.window(j)
		for r := max(lo, next); r <= hi; r++ {
			c.rows = append(c.rows, r)
		}
		next = max(next, hi+1)
	}
}

// pixelOf is the source pixel holding the centre of output column or row i.
func (c *Comp) pixelOf(i int) int { return int(filter.Centre(i, c.step) >> 8) }

// window returns the source rows [lo, hi] (clipped to the screen) that output
// line j's windows cover.
func (c *Comp) window(j int) (lo, hi int) {
	p := c.pixelOf(j)
	return max(0, p-filter.Window/2), min(c.buf.srcH-1, p+filter.Window/2)
}

// Tick runs the stages from the chain output back to the control port.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cycle := c.Freq.Cycle(now)
	c.starved, c.blocked = false, false
	p := c.sendChain(now)
	p = c.finishSpan(cycle) || p
	p = c.filterSpan(now, cycle) || p
	p = c.receive(now) || p
	p = c.request(now) || p
	p = c.control(now) || p
	c.account(cycle)
	return p
}

// control takes a PresentCmd: it starts the frame and answers Done at once
// (the scan-out continues).
func (c *Comp) control(now sim.VTimeInSec) bool {
	progress, err := c.ctl.Step(now, c.Control, c.active, c.Cfg.Index, c.Env.Progress, func(m *protocol.PresentCmd) error {
		t := m.Target
		if int(t.Width) != c.buf.srcW || int(t.Height) != c.buf.srcH || int(t.Samples) != c.Cfg.Samples {
			return fmt.Errorf("PresentCmd %s: Target %dx%d at %d samples: the chip is built for a %dx%d source at %d",
				m.ID, t.Width, t.Height, t.Samples, c.buf.srcW, c.buf.srcH, c.Cfg.Samples)
		}
		c.st.presents++
		c.present = m.ID
		c.startFrame()
		return nil
	})
	if err != nil {
		c.Fault.Fail(err)
		return false
	}
	return progress
}

func (c *Comp) startFrame() {
	c.active = true
	c.buf.reset()
	c.nextReq, c.j, c.i = 0, 0, c.x0
	if c.x0 == c.x1 {
		c.j = c.Cfg.OutputHeight // nothing to filter: the chip only passes the chain on
	}
	c.busy, c.pending, c.outQ = false, nil, c.outQ[:0]
	c.sendY, c.sendX = 0, c.streamX0
}

// request asks the route for the next source rows, up to requestAhead rows
// below the window of the output line being filtered.
func (c *Comp) request(now sim.VTimeInSec) bool {
	if !c.active || c.j >= c.Cfg.OutputHeight {
		return false
	}
	_, hi := c.window(c.j)
	progress := false
	for c.nextReq < len(c.rows) && c.rows[c.nextReq] <= hi+c.Cfg.RequestAhead {
		m := protocol.NewLineRequest(c.rows[c.nextReq], c.buf.c0, c.buf.c1, c.Cfg.Index)
		m.Src, m.Dst, m.SendTime = c.ToRoute, c.Route, now
		if c.ToRoute.Send(m) != nil {
			break
		}
		c.nextReq++
		c.st.requests++
		c.Env.Progress.Add(1)
		progress = true
	}
	return progress
}

// receive copies arriving samples into their swath line, taking a free line
// for a new row; without one the span waits in the port.
func (c *Comp) receive(now sim.VTimeInSec) bool {
	if !c.active {
		return false
	}
	progress := false
	for {
		m, ok := timing.PeekAs[*protocol.SampleSpan](&c.Fault, c.FromRoute)
		if !ok {
			return progress
		}
		b := c.buf
		if m.Y < 0 || m.Y >= b.srcH || m.X0 < b.c0 || m.X1 > b.c1 || m.X1 <= m.X0 || m.N != c.Cfg.Samples ||
			len(m.Samples) != (m.X1-m.X0)*c.Cfg.Samples || m.Convolve != c.Cfg.Index {
			c.Fault.Fail(fmt.Errorf("SampleSpan %s: line %d pixels [%d, %d) x %d samples (%d carried) for chip %d: "+
				"the chip holds columns [%d, %d) of %d lines at %d samples", m.ID, m.Y, m.X0, m.X1, m.N,
				len(m.Samples), m.Convolve, b.c0, b.c1, b.srcH, c.Cfg.Samples))
			return false
		}
		l := b.slot(m.Y)
		if l == nil {
			return progress
		}
		copy(l.data[(m.X0-b.c0)*c.Cfg.Samples:], m.Samples)
		l.got += len(m.Samples)
		c.FromRoute.Retrieve(now)
		c.st.spansIn++
		c.st.samplesIn += uint64(len(m.Samples))
		progress = true
	}
}

// finishSpan queues the span whose filtering is complete for the chain.
func (c *Comp) finishSpan(cycle uint64) bool {
	if !c.busy || cycle < c.busyUntil {
		return false
	}
	c.outQ = append(c.outQ, c.pending)
	c.pending, c.busy = nil, false
	return true
}

// filterSpan filters the next span of the swath when its source lines are in
// the buffer and the output queue has room. The pixels are computed at once
// (filter.Convolver.Pixel); the span is ready when the processor array would
// have finished them: each pixel costs pixelCycles.
func (c *Comp) filterSpan(now sim.VTimeInSec, cycle uint64) bool {
	if !c.active || c.busy || c.j >= c.Cfg.OutputHeight {
		return false
	}
	lo, hi := c.window(c.j)
	progress := c.buf.evictBelow(lo)
	if len(c.outQ) >= c.outputSpans {
		c.blocked = true
		return progress
	}
	for r := lo; r <= hi; r++ {
		if !c.buf.complete(r) {
			c.starved = true
			return progress
		}
	}
	end := min(c.i+c.Cfg.SpanPixels, c.x1)
	pixels := make([]byte, 4*(end-c.i))
	cy := filter.Centre(c.j, c.step)
	cycles := uint64(0)
	for x := c.i; x < end; x++ {
		before := c.fst.WindowRead
		px := c.Cfg.Convolver.Pixel(filter.Centre(x, c.step), cy, c.Cfg.Positions, c.buf, c.Cfg.Samples, &c.fst)
		cycles += c.pixelCycles(&before)
		o := 4 * (x - c.i)
		pixels[o], pixels[o+1], pixels[o+2], pixels[o+3] = px.R, px.G, px.B, px.A
	}
	if c.buf.missing {
		c.Fault.Fail(fmt.Errorf("output line %d pixels [%d, %d): the filter read a sample the swath-line buffer does not hold", c.j, c.i, end))
		return false
	}
	if c.i == c.x0 && c.NumHooks() > 0 {
		tracing.StartTask(protocol.LineTaskID(c.present, c.j, protocol.SwathSuffix(c.Cfg.Index)),
			protocol.ReqOutTaskID(c.present), c, protocol.KindSwathLine, protocol.TaskWhat("line", uint64(c.j)), nil)
	}
	c.pending = protocol.NewVideoSpan(c.j, c.i, end, pixels)
	c.busy, c.busyUntil = true, cycle+cycles
	c.st.filterCycles += cycles
	c.Waker.WakeIn(now, int(cycles))
	c.i = end
	if c.i == c.x1 {
		c.i, c.j = c.x0, c.j+1
		if c.j == c.Cfg.OutputHeight {
			c.buf.evictBelow(c.buf.srcH)
		}
	}
	return true
}

// pixelCycles is what the pixel just filtered cost the processor array, given
// the filter's per-window-pixel sample counts before it: window pixel k (of
// the 5x5, row-major) is weighed by processor k mod Processors (one pixel per
// processor with the board's 25, section 7), the processors work in parallel
// and their partial sums are added, so the pixel takes the busiest
// processor's ceil(samples / SamplesPerCycle) cycles, at least 1.
func (c *Comp) pixelCycles(before *[filter.Window * filter.Window]uint64) uint64 {
	var load [filter.Window * filter.Window]uint64
	p := c.Cfg.Processors
	for k, v := range c.fst.WindowRead {
		load[k%p] += v - before[k]
	}
	peak := uint64(0)
	for _, v := range load[:p] {
		peak = max(peak, v)
	}
	r := uint64(c.Cfg.SamplesPerCycle)
	return max(1, (peak+r-1)/r)
}

// sendChain passes line sendY down the chain: first the previous chips' spans
// of the line (pixels [streamX0, x0)), then the chip's own ([x0, x1)); section
// 3.7: each chip inserts its portion of the scan line into the aggregate
// stream.
func (c *Comp) sendChain(now sim.VTimeInSec) bool {
	progress := false
	for c.active && c.sendY < c.Cfg.OutputHeight {
		if c.sendX == c.x1 {
			c.sendY, c.sendX = c.sendY+1, c.streamX0
			progress = true
			continue
		}
		var m *protocol.VideoSpan
		own := c.sendX >= c.x0
		if own {
			if len(c.outQ) == 0 {
				break
			}
			m = c.outQ[0]
		} else {
			v, ok := timing.PeekAs[*protocol.VideoSpan](&c.Fault, c.FromPrev)
			if !ok {
				break
			}
			m = v
		}
		if m.Y != c.sendY || m.X0 != c.sendX || m.X1 <= m.X0 || m.X1 > max(c.x1, c.x0) || (!own && m.X1 > c.x0) {
			c.Fault.Fail(fmt.Errorf("VideoSpan %s: line %d pixels [%d, %d): the chain expects line %d from pixel %d",
				m.ID, m.Y, m.X0, m.X1, c.sendY, c.sendX))
			return false
		}
		m.Src, m.Dst, m.SendTime = c.ToNext, c.Next, now
		if c.ToNext.Send(m) != nil {
			break
		}
		if own {
			c.outQ[0] = nil
			c.outQ = c.outQ[1:]
			c.st.spansOut++
			if m.X1 == c.x1 && c.NumHooks() > 0 {
				tracing.EndTask(protocol.LineTaskID(c.present, m.Y, protocol.SwathSuffix(c.Cfg.Index)), c)
			}
		} else {
			c.FromPrev.Retrieve(now)
			c.st.forwarded++
		}
		c.sendX = m.X1
		c.Env.Progress.Add(1)
		progress = true
	}
	if c.active && c.sendY == c.Cfg.OutputHeight && c.j >= c.Cfg.OutputHeight && !c.busy {
		c.active = false // the frame is out; the next PresentCmd may start
		progress = true
	}
	return progress
}

func (c *Comp) account(cycle uint64) {
	s := stateIdle
	switch {
	case c.busy:
		s = stateBusy
	case c.blocked:
		s = stateBlocked
	case c.starved:
		s = stateStarved
	}
	c.Activity.Set(cycle, s)
}

// Swath returns the output columns [x0, x1) the chip filters and the source
// columns [c0, c1) it reads (its swath and the overlap).
func (c *Comp) Swath() (x0, x1, c0, c1 int) { return c.x0, c.x1, c.buf.c0, c.buf.c1 }

// FilterStats returns the convolve arithmetic's counts.
func (c *Comp) FilterStats() filter.Stats { return c.fst }

// Buffers reports the ports, the swath-line buffer and the output queue.
func (c *Comp) Buffers() []timing.BufferState {
	n := c.Name()
	return []timing.BufferState{
		{Name: c.FromRoute.Name(), Len: c.routeBuf.Size(), Cap: c.routeBuf.Capacity()},
		{Name: c.FromPrev.Name(), Len: c.prevBuf.Size(), Cap: c.prevBuf.Capacity()},
		{Name: n + ".SwathLines", Len: c.buf.held(), Cap: len(c.buf.lines)},
		{Name: n + ".OutputSpans", Len: len(c.outQ), Cap: c.outputSpans},
	}
}

// Stats reports the counters (see the package documentation).
func (c *Comp) Stats(add func(name string, v float64)) {
	n := c.Name() + "."
	f := &c.fst
	timing.AddTagged(n, add, &c.st)
	// The filter's counters (functional).
	timing.AddCounters(n, add,
		timing.Counter{Name: "pixels", Value: f.Pixels}, timing.Counter{Name: "samples_read", Value: f.SamplesRead},
		timing.Counter{Name: "macs", Value: f.MACs}, timing.Counter{Name: "negative_clamps", Value: f.NegativeClamps},
		timing.Counter{Name: "overflow_clamps", Value: f.OverflowClamps}, timing.Counter{Name: "nearest", Value: f.Nearest})
	for i, v := range f.NegativeHistogram {
		add(fmt.Sprintf("%snegative_histogram.%d", n, i), float64(v))
	}
	c.Activity.Stats(c.Name(), add)
}
