package route

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/sage/internal/present"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/samplebuffer"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/timing"
)

// Activity states (timing.Activity indices) of the video pins.
const (
	stateBusy     = iota // a span is being read off the video pins
	stateFIFOFull        // the next span waits for room in its output FIFO
	stateIdle            // no burst to read
)

var activityNames = [...]string{"busy", "fifo_full", "idle"}

// output is the FIFO of one convolve chip: spans read and waiting to leave, and
// the samples they (and the span being read for it) occupy.
type output struct {
	queue []*protocol.SampleSpan
	used  int // samples queued or reserved by the read in flight
}

// read is the span the video pins are reading: pixels [x0, x1) of the current
// burst, into the FIFO of convolve chip dst, complete at cycle done.
type read struct {
	x0, x1 int
	done   uint64
}

// counters are the unit's statistics, named by their tags (Stats).
type counters struct {
	presents    uint64 `stat:"presents"`
	requests    uint64 `stat:"line_requests"`
	bursts      uint64 `stat:"bursts"`
	spans       uint64 `stat:"spans"`
	samples     uint64 `stat:"samples_read"`
	pixels      uint64 `stat:"pixels_read"`
	bytes       uint64 `stat:"bytes_out"`
	sendRefused uint64 `stat:"send_refused"`
}

// Comp is the route network: the paper's 10 route chips as one unit. See the
// package documentation.
type Comp struct {
	timing.Unit[Config]

	// FromConvolves receives LineRequests from the convolve chips.
	FromConvolves sim.Port
	// ToConvolves sends SampleSpans to the convolve chips.
	ToConvolves sim.Port
	// Control receives PresentCmd (the frame to display) and sends Done.
	Control sim.Port

	// Convolves are the convolve chips' FromRoute ports, by chip index (set by
	// the platform builder).
	Convolves []sim.Port
	// Image is the simulated memory image: the displayed colour target is a view
	// of it. Set by the platform builder before the run.
	Image state.Memory

	inBuf    sim.Buffer
	geometry samplebuffer.Geometry // the sample buffer holding the displayed target (its raster)

	target  *framebuffer.ColorTarget
	samples int // samples per pixel of the displayed target
	ctl     present.Control

	burst    *protocol.LineRequest // the burst being read (nil: none)
	burstX   int                   // next pixel of the burst to read
	burstAt  uint64                // cycle the burst's first span started
	stalled  uint64                // cycles the burst waited for FIFO room
	inFlight *read
	outs     []output

	full timing.WaitReason // this tick: the next span had no FIFO room (stateFIFOFull)
	st   counters
}

// Tick completes the span on the video pins, drains the FIFOs, takes the next
// burst and starts the next span.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cycle := c.Freq.Cycle(now)
	p := c.complete(cycle)
	p = c.send(now) || p
	p = c.control(now) || p
	p = c.accept(now, cycle) || p
	p = c.startRead(now, cycle) || p
	c.account(cycle)
	return p
}

// complete queues the span whose read finished in its convolve chip's FIFO.
func (c *Comp) complete(cycle uint64) bool {
	r := c.inFlight
	if r == nil || cycle < r.done {
		return false
	}
	b := c.burst
	n := c.samples
	data := make([][4]uint16, (r.x1-r.x0)*n)
	for x := r.x0; x < r.x1; x++ {
		for s := 0; s < n; s++ {
			data[(x-r.x0)*n+s], _ = c.target.Sample(x, b.Y, s)
		}
	}
	span := protocol.NewSampleSpan(b.Y, r.x0, r.x1, n, b.Convolve, data)
	o := &c.outs[b.Convolve]
	o.queue = append(o.queue, span)
	c.st.spans++
	c.st.samples += uint64(len(data))
	c.st.pixels += uint64(r.x1 - r.x0)
	c.inFlight = nil
	if c.burstX == b.X1 {
		c.burst = nil
	}
	return true
}

// send moves the head of every FIFO to its convolve chip while the link takes it.
func (c *Comp) send(now sim.VTimeInSec) bool {
	progress := false
	for k := range c.outs {
		o := &c.outs[k]
		for len(o.queue) > 0 {
			m := o.queue[0]
			m.Src, m.Dst, m.SendTime = c.ToConvolves, c.Convolves[k], now
			if c.ToConvolves.Send(m) != nil {
				c.st.sendRefused++
				break
			}
			c.st.bytes += uint64(m.TrafficBytes)
			o.used -= len(m.Samples)
			o.queue[0] = nil
			o.queue = o.queue[1:]
			c.Env.Progress.Add(1)
			progress = true
		}
	}
	return progress
}

// control takes a PresentCmd: the displayed target for the following bursts.
func (c *Comp) control(now sim.VTimeInSec) bool {
	progress, err := c.ctl.Step(now, c.Control, c.burst != nil, 0, c.Env.Progress, func(m *protocol.PresentCmd) error {
		t, err := colorTarget(c.Image, m.Target)
		if err != nil {
			return fmt.Errorf("PresentCmd %s: %w", m.ID, err)
		}
		if err := c.geometry.SetRaster(t.Width, t.Height, t.Samples); err != nil {
			return fmt.Errorf("PresentCmd %s: the sample buffer cannot hold the target: %w", m.ID, err)
		}
		c.target, c.samples = t, t.Samples
		c.st.presents++
		return nil
	})
	if err != nil {
		c.Fault.Fail(err)
		return false
	}
	return progress
}

// colorTarget is the RGBA10 colour target t as a view of the memory image.
func colorTarget(img state.Memory, t command.Target) (*framebuffer.ColorTarget, error) {
	if f := framebuffer.ColorFormat(t.Format); f != framebuffer.RGBA10 {
		return nil, fmt.Errorf("Target.Format: %d: the sample buffer holds RGBA10 (%d)", t.Format, framebuffer.RGBA10)
	}
	if img == nil {
		return nil, fmt.Errorf("the route has no memory image")
	}
	return state.ColorTargetView(img, t)
}

// accept takes the next LineRequest once the previous burst is wholly read or
// in flight.
func (c *Comp) accept(now sim.VTimeInSec, cycle uint64) bool {
	if c.burst != nil || c.target == nil {
		return false
	}
	m, ok := timing.PeekAs[*protocol.LineRequest](&c.Fault, c.FromConvolves)
	if !ok {
		return false
	}
	switch {
	case m.Convolve < 0 || m.Convolve >= len(c.outs):
		c.Fault.Fail(fmt.Errorf("LineRequest %s: Convolve %d: must be in [0, %d)", m.ID, m.Convolve, len(c.outs)))
		return false
	case c.Convolves[m.Convolve] == nil:
		c.Fault.Fail(fmt.Errorf("LineRequest %s: Convolves[%d] is not connected", m.ID, m.Convolve))
		return false
	case m.Y < 0 || m.Y >= c.target.Height:
		c.Fault.Fail(fmt.Errorf("LineRequest %s: Y %d: must be in [0, %d)", m.ID, m.Y, c.target.Height))
		return false
	case m.X0 < 0 || m.X1 <= m.X0 || m.X1 > c.target.Width:
		c.Fault.Fail(fmt.Errorf("LineRequest %s: pixels [%d, %d): must be a non-empty part of [0, %d)", m.ID, m.X0, m.X1, c.target.Width))
		return false
	case c.samples > c.Cfg.FIFOSamples:
		c.Fault.Fail(fmt.Errorf("FIFOSamples %d: must hold one pixel's %d samples", c.Cfg.FIFOSamples, c.samples))
		return false
	}
	c.FromConvolves.Retrieve(now)
	c.burst, c.burstX, c.burstAt, c.stalled = m, m.X0, cycle, 0
	c.st.requests++
	c.st.bursts++
	return true
}

// startRead puts the next span of the burst on the video pins when its FIFO
// has room. Spans complete on the burst's own schedule: the burst's pixels
// [X0, x) are in by reads(x) cycles after it started (plus the cycles it
// waited for room).
func (c *Comp) startRead(now sim.VTimeInSec, cycle uint64) bool {
	b := c.burst
	if b == nil || c.inFlight != nil || c.burstX == b.X1 {
		return false
	}
	n := c.samples
	o := &c.outs[b.Convolve]
	px := min(c.Cfg.SpanPixels, b.X1-c.burstX, (c.Cfg.FIFOSamples-o.used)/n)
	if px < 1 {
		c.full.Record(stateFIFOFull)
		return false
	}
	if px < min(c.Cfg.SpanPixels, b.X1-c.burstX) && o.used > 0 {
		// Wait for room for a whole span rather than dribble pixels.
		c.full.Record(stateFIFOFull)
		return false
	}
	start := c.burstAt + c.stalled + c.reads(c.burstX)
	if cycle > start {
		c.stalled += cycle - start
	}
	done := c.burstAt + c.stalled + c.reads(c.burstX+px)
	c.inFlight = &read{x0: c.burstX, x1: c.burstX + px, done: done}
	c.burstX += px
	o.used += px * n
	c.Waker.WakeForNext(now, cycle, done)
	return true
}

// reads is the video-read clocks the burst's pixels [X0, x) take: the chips
// read in lock step, each SamplesPerChip samples a clock of those it holds, so
// the busiest chip sets the time.
func (c *Comp) reads(x int) uint64 {
	n, per := c.geometry.BusiestChip(c.burst.Y, c.burst.X0, x), int64(c.Cfg.SamplesPerChip)
	return uint64((n + per - 1) / per)
}

func (c *Comp) account(cycle uint64) {
	c.Activity.Set(cycle, c.full.End(c.inFlight != nil, stateBusy, stateIdle))
}

// Buffers reports the request port and the FIFO of every convolve output.
func (c *Comp) Buffers() []timing.BufferState {
	b := []timing.BufferState{{Name: c.FromConvolves.Name(), Len: c.inBuf.Size(), Cap: c.inBuf.Capacity()}}
	for k := range c.outs {
		b = append(b, timing.BufferState{Name: fmt.Sprintf("%s.FIFO[%d]", c.Name(), k),
			Len: c.outs[k].used, Cap: c.Cfg.FIFOSamples})
	}
	return b
}

// Stats reports the counters (see the package documentation).
func (c *Comp) Stats(add func(name string, v float64)) {
	timing.AddTagged(c.Name()+".", add, &c.st)
	c.Activity.Stats(c.Name(), add)
}
