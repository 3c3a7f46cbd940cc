package video

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/timing"
)

// Mode says what the pixel clock does when a pixel is late.
type Mode uint8

// Modes.
const (
	// Elastic: the pixel clock waits for a late pixel (stall_cycles); nothing is
	// ever shown late.
	Elastic Mode = iota
	// Strict: the raster runs on time; a pixel that arrives after its slot is an
	// underrun (counted; the image keeps the pixel, so it stays exact).
	Strict
)

var modeNames = [...]string{"elastic", "strict"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ParseMode parses "elastic" or "strict".
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if s == n {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("video mode %q: must be elastic or strict", s)
}

// VESA 1280x1024 at 75 Hz (VESA DMT: 135 MHz pixel clock, 1688 x 1066 total).
const (
	vesaWidth, vesaHeight   = 1280, 1024
	vesaHTotal, vesaVTotal  = 1688, 1066
	defaultRefresh          = 76
	defaultFIFOPixels       = 2048
	defaultInputQueue       = 4
	maxSide                 = 1 << 14
	maxRefresh              = 1000
	maxTotalOverActiveRatio = 4
)

// DefaultTotals returns the horizontal and vertical totals (active plus
// blanking, in pixels and lines) used when none are given: VESA 1280x1024 at
// 75 Hz's blanking (408 pixels, 42 lines) scaled in proportion to the active
// size, rounded up; exactly 1688 x 1066 at 1280x1024.
func DefaultTotals(w, h int) (hTotal, vTotal int) {
	return w + (w*(vesaHTotal-vesaWidth)+vesaWidth-1)/vesaWidth,
		h + (h*(vesaVTotal-vesaHeight)+vesaHeight-1)/vesaHeight
}

// Builder configures and builds a video output. The zero value is not usable;
// start from MakeBuilder.
type Builder struct {
	engine         sim.Engine
	halt           *timing.Halt
	progress       *timing.Progress
	width, height  int
	hTotal, vTotal int // 0: DefaultTotals
	refresh        float64
	originX        int // the frame column shown at the raster's pixel (0, 0)
	originY        int
	channel        int
	channels       int
	mode           Mode
	fifoPixels     int
	inputQueue     int
}

// MakeBuilder returns a builder with the defaults: 1280x1024 at 76 Hz (the
// paper's design point, section 10.3) with VESA 1280x1024 at 75 Hz's totals
// (1688 x 1066; the pixel clock is then 1688 x 1066 x 76 = 136.755 MHz), one
// channel, elastic mode, a 2048-pixel FIFO (silent in the paper) and room for
// 4 messages in the FromConvolve port.
func MakeBuilder() Builder {
	return Builder{
		width:      vesaWidth,
		height:     vesaHeight,
		refresh:    defaultRefresh,
		channels:   1,
		mode:       Elastic,
		fifoPixels: defaultFIFOPixels,
		inputQueue: defaultInputQueue,
	}
}

// WithEngine sets the simulation engine (required).
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithHalt sets the platform's halt flag.
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter (one unit per span taken).
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithSize sets the active raster in pixels.
func (b Builder) WithSize(w, h int) Builder { b.width, b.height = w, h; return b }

// WithTotals sets the horizontal total (pixels per line, blanking included) and
// the vertical total (lines per frame); 0, 0 takes DefaultTotals of the size.
func (b Builder) WithTotals(h, v int) Builder { b.hTotal, b.vTotal = h, v; return b }

// WithRefresh sets the refresh rate in Hz; the pixel clock is hTotal x vTotal
// x refresh.
func (b Builder) WithRefresh(hz float64) Builder { b.refresh = hz; return b }

// WithOrigin sets the frame pixel shown at the raster's pixel (0, 0): the
// output shows frame columns [x, x+width) of lines [y, y+height), and the
// VideoSpans it takes carry frame coordinates. A channel showing the right
// half of a frame W wide has origin (W/2, 0).
func (b Builder) WithOrigin(x, y int) Builder { b.originX, b.originY = x, y; return b }

// WithChannel sets the output's channel c of the board's channels (1 or 2;
// section 7.1). With two, the output's scan_line tasks carry the suffix
// protocol.ChannelSuffix(c), so that the two channels' lines have distinct IDs.
func (b Builder) WithChannel(c, channels int) Builder { b.channel, b.channels = c, channels; return b }

// WithMode sets elastic or strict timing.
func (b Builder) WithMode(m Mode) Builder { b.mode = m; return b }

// WithFIFOPixels sets the pixels the output may hold ahead of the raster.
func (b Builder) WithFIFOPixels(n int) Builder { b.fifoPixels = n; return b }

// WithInputQueue sets the capacity, in messages, of the FromConvolve port.
func (b Builder) WithInputQueue(n int) Builder { b.inputQueue = n; return b }

func (b Builder) totals() (int, int) {
	if b.hTotal == 0 && b.vTotal == 0 {
		return DefaultTotals(b.width, b.height)
	}
	return b.hTotal, b.vTotal
}

// PixelClock returns the pixel clock the parameters give, in Hz.
func (b Builder) PixelClock() float64 {
	h, v := b.totals()
	return float64(h) * float64(v) * b.refresh
}

// Validate checks the parameters and names the first bad one.
func (b Builder) Validate() error {
	h, v := b.totals()
	switch {
	case b.engine == nil:
		return fmt.Errorf("video: Engine is not set")
	case b.width < 1 || b.width > maxSide || b.height < 1 || b.height > maxSide:
		return fmt.Errorf("video: Size %dx%d must be in [1, %d] on each side", b.width, b.height, maxSide)
	case h < b.width || h > maxTotalOverActiveRatio*b.width:
		return fmt.Errorf("video: HTotal %d must be in [Width=%d, %d]", h, b.width, maxTotalOverActiveRatio*b.width)
	case v < b.height || v > maxTotalOverActiveRatio*b.height:
		return fmt.Errorf("video: VTotal %d must be in [Height=%d, %d]", v, b.height, maxTotalOverActiveRatio*b.height)
	case !(b.refresh > 0 && b.refresh <= maxRefresh):
		return fmt.Errorf("video: Refresh %v Hz must be in (0, %d]", b.refresh, maxRefresh)
	case b.originX < 0 || b.originY < 0 || b.originX > maxSide || b.originY > maxSide:
		return fmt.Errorf("video: Origin (%d, %d) must be in [0, %d] on each axis", b.originX, b.originY, maxSide)
	case b.channels < 1 || b.channels > 2:
		return fmt.Errorf("video: Channels %d must be 1 or 2 (section 7.1)", b.channels)
	case b.channel < 0 || b.channel >= b.channels:
		return fmt.Errorf("video: Channel %d must be in [0, Channels=%d)", b.channel, b.channels)
	case b.mode != Elastic && b.mode != Strict:
		return fmt.Errorf("video: Mode %d must be elastic or strict", b.mode)
	case b.fifoPixels < 1:
		return fmt.Errorf("video: FIFOPixels %d must be at least 1", b.fifoPixels)
	case b.inputQueue < 1:
		return fmt.Errorf("video: InputQueue %d must be at least 1", b.inputQueue)
	}
	return nil
}

// Build creates the video output named name (for example "GPU.Video[0]"). Its
// clock is the pixel clock. It panics with the message of Validate when a
// parameter is invalid.
func (b Builder) Build(name string) *Comp {
	if err := b.Validate(); err != nil {
		panic(err)
	}
	sim.NameMustBeValid(name)
	h, v := b.totals()
	c := &Comp{
		halt:       b.halt,
		progress:   b.progress,
		width:      b.width,
		height:     b.height,
		hTotal:     h,
		vTotal:     v,
		mode:       b.mode,
		fifoPixels: b.fifoPixels,
		originX:    b.originX,
		originY:    b.originY,
	}
	if b.channels > 1 {
		c.taskSuffix = protocol.ChannelSuffix(b.channel)
	}
	freq := sim.Freq(b.PixelClock())
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, freq, c)
	c.waker = timing.NewWaker(b.engine, freq, c)
	c.inBuf = sim.NewBuffer(name+".FromConvolve.Buf", b.inputQueue)
	c.FromConvolve = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.inBuf, name+".FromConvolve")
	c.Control = sim.NewLimitNumMsgPort(c, 2, name+".Control")
	c.AddPort("FromConvolve", c.FromConvolve)
	c.AddPort("Control", c.Control)
	return c
}
