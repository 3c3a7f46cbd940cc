package video

import (
	"fmt"
	"image"
	"math"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/sage/internal/present"
	"github.com/gfxsim/gfxsim/timing"
)

// held is a span in the output FIFO: its pixels leave when the last is scanned
// out, at cycle end.
type held struct {
	end uint64
	n   int
}

// counters are the unit's statistics, named by their tags (Stats).
type counters struct {
	presents    uint64 `stat:"presents"`
	spans       uint64 `stat:"spans"`
	pixels      uint64 `stat:"pixels"`
	underruns   uint64 `stat:"underruns"`
	stallCycles uint64 `stat:"stall_cycles"`
	lateSpans   uint64 `stat:"late_spans"`
}

// Comp is a video output. See the package documentation.
type Comp struct {
	timing.Unit[Config]

	// FromConvolve receives the last convolve chip's VideoSpans in raster order.
	FromConvolve sim.Port
	// Control receives PresentCmd (the frame to expect) and answers Done at once.
	Control sim.Port

	inBuf          sim.Buffer
	hTotal, vTotal int
	taskSuffix     string

	ctl      present.Control
	active   bool   // a frame is expected and not complete
	present  string // the frame's PresentCmd ID (its tasks' parent)
	start    uint64 // the cycle of pixel (0, 0)'s slot, before stalls
	shift    uint64 // elastic: cycles the pixel clock waited so far
	received int    // pixels of the frame taken, in raster order
	fifo     []held
	occupied int
	lastScan uint64
	img      *image.RGBA
	finished bool
	finish   uint64 // the cycle after the frame's last pixel was scanned out

	st counters
}

// Tick scans out what the raster has passed, takes spans while the FIFO has
// room and starts a frame on a PresentCmd.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cycle := c.edge(now)
	p := c.control(now, cycle)
	p = c.receive(now, cycle) || p
	if p {
		c.Env.Progress.BusyUntil(c.Freq.NextTick(now)) // the next tick, one pixel clock on
	}
	return p
}

// edge returns the pixel clock's first edge at or after now, in pixel
// clocks: a tick off the edges (a PresentCmd taken as it arrives, NotifyRecv)
// acts at the next edge. The tolerance (a millionth of a pixel clock) absorbs
// the rounding of an edge's time; sim.Freq.ThisTick's tenth of a cycle would
// put a PresentCmd 82,000 core cycles after an edge of a 304 Hz pixel clock
// (1x1) at that edge.
func (c *Comp) edge(now sim.VTimeInSec) uint64 {
	return uint64(math.Ceil(float64(now)*float64(c.Freq) - 1e-6))
}

// NotifyRecv ticks the output at its next pixel clock edge and declares it
// busy until then: the pixel clock can be far slower than the core clock the
// watchdog counts (a 16x8 raster at 1 Hz ticks every 2.5 million cycles of a
// 500 MHz core), and a span waiting for that edge is modelled work, not a
// hang (timing.Progress.BusyUntil). A PresentCmd that finds no frame in
// progress is taken when it arrives, not at the next edge: the Control port is
// the board's command interface, not the raster, and its Done must not wait
// for the pixel clock (at 1x1, totals 2 x 2 at 76 Hz, an edge every 3.3 ms;
// the frame itself starts at the next edge, control).
func (c *Comp) NotifyRecv(now sim.VTimeInSec, p sim.Port) {
	if p == c.Control && !c.active {
		c.TickNow(now)
		return
	}
	c.Env.Progress.BusyUntil(c.Freq.NextTick(now))
	c.TickingComponent.NotifyRecv(now, p)
}

// control takes a PresentCmd when no frame is in progress: the raster's first
// active pixel comes a vertical blanking (vTotal - height lines) after cycle,
// the pixel clock's first edge at or after the PresentCmd, the convolve chips'
// time to fill their line buffers. Done is sent at once (present.Control).
func (c *Comp) control(now sim.VTimeInSec, cycle uint64) bool {
	progress, err := c.ctl.Step(now, c.Control, c.active, 0, c.Env.Progress, func(m *protocol.PresentCmd) error {
		c.st.presents++
		c.present = m.ID
		c.active, c.finished = true, false
		c.start = cycle + uint64(c.vTotal-c.Cfg.Height)*uint64(c.hTotal)
		c.shift, c.received, c.fifo, c.occupied = 0, 0, c.fifo[:0], 0
		c.img = image.NewRGBA(image.Rect(0, 0, c.Cfg.Width, c.Cfg.Height))
		return nil
	})
	if err != nil {
		c.Fault.Fail(err)
		return false
	}
	return progress
}

// receive takes the next spans of the raster while the FIFO has room (a span
// larger than the FIFO enters an empty one).
func (c *Comp) receive(now sim.VTimeInSec, cycle uint64) bool {
	if !c.active {
		return false
	}
	progress := false
	for {
		for len(c.fifo) > 0 && c.fifo[0].end <= cycle {
			c.occupied -= c.fifo[0].n
			c.fifo = c.fifo[1:]
		}
		m, ok := timing.PeekAs[*protocol.VideoSpan](&c.Fault, c.FromConvolve)
		if !ok {
			return progress
		}
		next := c.received
		y, x0, x1 := m.Y-c.Cfg.OriginY, m.X0-c.Cfg.OriginX, m.X1-c.Cfg.OriginX
		if y != next/c.Cfg.Width || x0 != next%c.Cfg.Width || x1 <= x0 || x1 > c.Cfg.Width || len(m.Pixels) != 4*(x1-x0) {
			c.Fault.Fail(fmt.Errorf("VideoSpan %s: line %d pixels [%d, %d) (%d bytes): the raster expects line %d from pixel %d of [%d, %d)",
				m.ID, m.Y, m.X0, m.X1, len(m.Pixels), next/c.Cfg.Width+c.Cfg.OriginY, next%c.Cfg.Width+c.Cfg.OriginX, c.Cfg.OriginX, c.Cfg.OriginX+c.Cfg.Width))
			return false
		}
		n := x1 - x0
		if c.occupied > 0 && c.occupied+n > c.Cfg.FIFOPixels {
			// The FIFO drains at the pixel clock: busy until its
			// oldest span is scanned out.
			c.Waker.WakeIn(now, int(c.fifo[0].end-cycle))
			c.Env.Progress.BusyUntil(c.Freq.NCyclesLater(int(c.fifo[0].end-cycle), now))
			return progress
		}
		c.FromConvolve.Retrieve(now)
		c.scan(m, y, x0, n, cycle)
		progress = true
		c.Env.Progress.Add(1)
		if !c.active {
			return progress
		}
	}
}

// scan places span m, n pixels from raster pixel (x0, y), arriving at cycle on
// the raster.
func (c *Comp) scan(m *protocol.VideoSpan, y, x0, n int, cycle uint64) {
	due := c.start + c.shift + uint64(y)*uint64(c.hTotal) + uint64(x0)
	last := due + uint64(n) - 1
	if cycle > due {
		c.st.lateSpans++
		late := cycle - due
		if c.Cfg.Mode == Elastic {
			c.shift += late
			c.st.stallCycles += late
			last += late
		} else {
			c.st.underruns += min(late, uint64(n))
			last = max(last, cycle)
		}
	}
	if c.NumHooks() > 0 {
		c.traceLine(y, x0, n, last+1)
	}
	c.fifo = append(c.fifo, held{end: last + 1, n: n})
	c.occupied += n
	c.lastScan = last
	copy(c.img.Pix[y*c.img.Stride+4*x0:], m.Pixels)
	c.received += n
	c.st.spans++
	c.st.pixels += uint64(n)
	if c.received == c.Cfg.Width*c.Cfg.Height {
		c.active, c.finished, c.finish = false, true, last+1
	}
}

// traceLine starts the scan_line task of raster line y ("<present>.line<y>"
// and, with two channels, the channel's suffix; below the command processor's
// req_out task of the PresentCmd) when the span of n pixels from x0 is its
// first, and ends it at cycle end, when its last pixel is scanned out, when
// the span is its last.
func (c *Comp) traceLine(y, x0, n int, end uint64) {
	if x0 == 0 {
		tracing.StartTask(protocol.LineTaskID(c.present, y, c.taskSuffix), protocol.ReqOutTaskID(c.present), c,
			protocol.KindScanLine, protocol.TaskWhat("line", uint64(y)), nil)
	}
	if x0+n == c.Cfg.Width {
		protocol.EndTaskAt(protocol.LineTaskID(c.present, y, c.taskSuffix), c, sim.VTimeInSec(float64(end)/float64(c.Freq)))
	}
}

// Image returns the raster assembled from the spans, its pixel (0, 0) being
// the frame's pixel at the origin (nil before a PresentCmd).
func (c *Comp) Image() *image.RGBA { return c.img }

// Taken returns the pixels of the current frame taken from the convolve
// chips, in raster order, and the raster's pixels (its progress, for the
// progress display).
func (c *Comp) Taken() (pixels, raster int) { return c.received, c.Cfg.Width * c.Cfg.Height }

// Finished reports whether the frame's every pixel has arrived.
func (c *Comp) Finished() bool { return c.finished }

// FinishTime returns when the frame's last pixel was scanned out.
func (c *Comp) FinishTime() sim.VTimeInSec {
	return sim.VTimeInSec(float64(c.finish) / float64(c.Freq))
}

// PixelClock returns the pixel clock in Hz.
func (c *Comp) PixelClock() float64 { return float64(c.Freq) }

// DeliveredPixelRate is the pixel rate the raster achieved over the frame: the
// pixel clock scaled by the nominal scan time of the active raster (first to
// last active pixel) over the actual one (longer by the stalls, or by a late
// last pixel in strict mode). 0 before the frame is complete.
func (c *Comp) DeliveredPixelRate() float64 {
	if !c.finished {
		return 0
	}
	nominal := float64((c.Cfg.Height-1)*c.hTotal + c.Cfg.Width)
	actual := float64(c.finish - c.start)
	return c.PixelClock() * nominal / actual
}

// Buffers reports the input port and the FIFO.
func (c *Comp) Buffers() []timing.BufferState {
	return []timing.BufferState{
		{Name: c.FromConvolve.Name(), Len: c.inBuf.Size(), Cap: c.inBuf.Capacity()},
		{Name: c.Name() + ".FIFO", Len: c.occupied, Cap: c.Cfg.FIFOPixels},
	}
}

// Stats reports the counters (see the package documentation).
func (c *Comp) Stats(add func(name string, v float64)) {
	n := c.Name() + "."
	timing.AddTagged(n, add, &c.st)
	add(n+"required_pixel_rate", c.PixelClock())
	add(n+"delivered_pixel_rate", c.DeliveredPixelRate())
	frame := 0.0
	if c.finished {
		frame = float64(c.finish - c.start)
	}
	add(n+"frame_cycles", frame)
}
