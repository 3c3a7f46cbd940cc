package video

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/internal/enum"
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

var modeNames = enum.Names[Mode]{Type: "Mode", What: "mode", Names: []string{"elastic", "strict"}, OneOf: true, CaseOnly: true}

func (m Mode) String() string { return modeNames.String(m) }

// ParseMode parses "elastic" or "strict".
func ParseMode(s string) (Mode, error) { return modeNames.Parse(s) }

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

// Config is a video output's configuration (sage.video; configs gives each
// channel its own size, origin and totals).
type Config struct {
	Width, Height  int     // the active raster in pixels
	HTotal, VTotal int     // pixels per line and lines per frame, blanking included; 0, 0: DefaultTotals of the size
	Refresh        float64 // refresh rate in Hz; the pixel clock is HTotal x VTotal x Refresh
	// OriginX, OriginY is the frame pixel shown at the raster's pixel (0, 0):
	// the output shows frame columns [x, x+Width) of lines [y, y+Height), and
	// the VideoSpans it takes carry frame coordinates. A channel showing the
	// right half of a frame W wide has origin (W/2, 0).
	OriginX, OriginY int
	// Channel is the output's channel of the board's Channels (1 or 2;
	// section 7.1). With two, the output's scan_line tasks carry the suffix
	// protocol.ChannelSuffix(Channel), so that the two channels' lines have
	// distinct IDs.
	Channel, Channels int
	Mode              Mode // elastic or strict timing
	FIFOPixels        int  // the pixels the output may hold ahead of the raster
	InputQueue        int  // the capacity, in messages, of the FromConvolve port
}

// DefaultConfig is the paper's design point, section 10.3: 1280x1024 at 76
// Hz with VESA 1280x1024 at 75 Hz's totals (1688 x 1066; the pixel clock is
// then 1688 x 1066 x 76 = 136.755 MHz), one channel, elastic mode, a
// 2048-pixel FIFO (silent in the paper) and room for 4 messages in the
// FromConvolve port.
func DefaultConfig() Config {
	return Config{Width: vesaWidth, Height: vesaHeight, Refresh: defaultRefresh, Channels: 1, Mode: Elastic,
		FIFOPixels: defaultFIFOPixels, InputQueue: defaultInputQueue}
}

// Totals returns the horizontal and vertical totals: HTotal and VTotal, or
// DefaultTotals of the size when both are 0.
func (c Config) Totals() (hTotal, vTotal int) {
	if c.HTotal == 0 && c.VTotal == 0 {
		return DefaultTotals(c.Width, c.Height)
	}
	return c.HTotal, c.VTotal
}

// PixelClock returns the pixel clock the configuration gives, in Hz.
func (c Config) PixelClock() float64 {
	h, v := c.Totals()
	return float64(h) * float64(v) * c.Refresh
}

// Validate names the first bad field.
func (c Config) Validate() error {
	h, v := c.Totals()
	return check.For("video").
		That(c.Width >= 1 && c.Width <= maxSide && c.Height >= 1 && c.Height <= maxSide,
			"Size %dx%d must be in [1, %d] on each side", c.Width, c.Height, maxSide).
		That(h >= c.Width && h <= maxTotalOverActiveRatio*c.Width,
			"HTotal %d must be in [Width=%d, %d]", h, c.Width, maxTotalOverActiveRatio*c.Width).
		That(v >= c.Height && v <= maxTotalOverActiveRatio*c.Height,
			"VTotal %d must be in [Height=%d, %d]", v, c.Height, maxTotalOverActiveRatio*c.Height).
		That(c.Refresh > 0 && c.Refresh <= maxRefresh, "Refresh %v Hz must be in (0, %d]", c.Refresh, maxRefresh).
		That(c.OriginX >= 0 && c.OriginY >= 0 && c.OriginX <= maxSide && c.OriginY <= maxSide,
			"Origin (%d, %d) must be in [0, %d] on each axis", c.OriginX, c.OriginY, maxSide).
		That(c.Channels >= 1 && c.Channels <= 2, "Channels %d must be 1 or 2 (section 7.1)", c.Channels).
		Index("Channel", c.Channel, "Channels", c.Channels).
		That(modeNames.Valid(c.Mode), "Mode %d must be elastic or strict", c.Mode).
		AtLeast("FIFOPixels", c.FIFOPixels, 1).
		AtLeast("InputQueue", c.InputQueue, 1).
		Err()
}

// Builder builds a video output: MakeBuilder().WithEnv(env).WithConfig(cfg).
// Build(name), for example "GPU.Video[0]" (timing.Builder). Its clock is the
// configuration's pixel clock, not the Env's (a refresh of 0: "Env: the clock
// must be positive"); the progress counts one unit per span taken. Build
// panics on a bad Env or Config (configs validates first).
type Builder = timing.Builder[Config, *Comp]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder {
	return timing.NewClockedBuilder("video", DefaultConfig(), pixelClock, build)
}

// pixelClock is the output's clock: the configuration's pixel clock.
func pixelClock(c Config) sim.Freq { return sim.Freq(c.PixelClock()) }

// build makes the unit named name from a checked Env and Config.
func build(name string, env timing.Env, cfg Config) *Comp {
	h, v := cfg.Totals()
	c := &Comp{
		hTotal: h,
		vTotal: v,
	}
	if cfg.Channels > 1 {
		c.taskSuffix = protocol.ChannelSuffix(cfg.Channel)
	}
	c.Unit = timing.NewUnit(name, env, cfg, c)
	c.FromConvolve, c.inBuf = timing.AddBufferedPort(c, "FromConvolve", cfg.InputQueue)
	c.Control = timing.AddPort(c, "Control", 2)
	return c
}
