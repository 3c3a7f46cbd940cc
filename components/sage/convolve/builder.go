package convolve

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/filter"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// Config is a convolve chip's configuration (sage.convolve; configs gives each
// chip its index, stream and the frame's sizes).
type Config struct {
	// Index is the chip's place on the board (0 first) of Chips: with one
	// chain (the default Stream), chip k filters output columns [k*W/Chips,
	// (k+1)*W/Chips). The index also names the chip to the route network.
	Index, Chips int
	// Stream is the chain the chip belongs to (a video channel's). The
	// default, a Stream of Count 0, is one chain of all the chips over the
	// whole output width.
	Stream                    Stream
	OutputWidth, OutputHeight int // the output (video) resolution in pixels
	// SourceWidth, SourceHeight is the resolution of the sample buffer read
	// (section 7.2: resizing; the centre step is source/output and must be the
	// same on both axes).
	SourceWidth, SourceHeight int
	Samples                   int               // samples per pixel of the sample buffer (1 to 16)
	Convolver                 *filter.Convolver // the filter arithmetic (required)
	Positions                 filter.Positions  // the sample positions: the displayed frame's pattern RAM (required)
	Lines                     int               // the swath-line buffer's capacity in source lines (at least the filter window's 5)
	// Processors (1 to 25) filter in parallel, each weighing SamplesPerCycle
	// samples a cycle: window pixel k of the 5x5 (row-major) is processor k
	// mod Processors's, so with the board's 25 each processor weighs one
	// window pixel's samples (section 7) and a pixel costs the busiest
	// processor's ceil(samples / SamplesPerCycle) cycles, at least 1: n
	// cycles at n samples and one sample per cycle.
	Processors, SamplesPerCycle int
	// RequestAhead is how many source lines below the window of the output
	// line being filtered the chip may have requested (0: only lines it needs
	// now).
	RequestAhead int
	SpanPixels   int // the pixels of one VideoSpan: the chip filters and emits its swath in spans of this many
	// OutputLines is how many of the chip's swath lines of filtered pixels may
	// wait for their turn in the video chain before the filter stops
	// (cycles_blocked).
	OutputLines                   int
	FromRouteQueue, FromPrevQueue int // capacities, in messages, of the FromRoute and FromPrev ports
}

// DefaultConfig is chip 0 of the board's 4, a 1280x1024 output filtered from a
// 1280x1024 sample buffer (no resizing) at 8 samples per pixel, the paper's 6
// swath lines and 25 filter processors (one per window pixel), each taking one
// sample per cycle (silent in the paper), one line requested ahead of the
// filter window (the sixth, filling, line), VideoSpans of 32 pixels, an output
// queue of 2 swath lines (silent in the paper: the chain of section 3.7 needs
// each chip's portion of a scan line ready when the stream reaches its
// columns, so a chip filters line y+1 while line y waits for its turn), and
// room for 4 messages in the FromRoute and FromPrev ports. The Convolver and
// Positions must be set. Its clock (the Env's) is 250 MHz in sage.yaml (the
// paper's only clock figure is its 250 MHz peak video output rate, section
// 10.3; at one sample per processor per cycle a pixel of 8 samples costs 8
// cycles, so a chip filters 31 M pixels/s, above the 26 M its quarter of a
// 1280x1024 76 Hz raster needs).
func DefaultConfig() Config {
	return Config{Chips: 4, OutputWidth: 1280, OutputHeight: 1024, SourceWidth: 1280, SourceHeight: 1024,
		Samples: 8, Lines: 6, Processors: filter.Window * filter.Window, SamplesPerCycle: 1, RequestAhead: 1,
		SpanPixels: 32, OutputLines: 2, FromRouteQueue: 4, FromPrevQueue: 4}
}

// Stream is one video channel's chain (section 7.1): chips [First,
// First+Count) of the board, in chain order, build the video stream of output
// columns [X0, X1); the chain's last chip feeds the channel's video output.
type Stream struct {
	First, Count int
	X0, X1       int
}

// Swath returns the output columns [x0, x1) that chip k of the stream filters:
// the stream's columns split evenly, [X0 + j*w/Count, X0 + (j+1)*w/Count)
// with j = k - First and w = X1 - X0.
func (s Stream) Swath(k int) (x0, x1 int) {
	j, w := k-s.First, s.X1-s.X0
	return s.X0 + j*w/s.Count, s.X0 + (j+1)*w/s.Count
}

// SplitVertical returns the streams of channels video channels (1 or 2) over
// chips convolve chips and an output width: channel c takes chips [c*chips/
// channels, (c+1)*chips/channels) and output columns [c*width/channels,
// (c+1)*width/channels): with two channels, the left and right halves of the
// frame (two tiled displays), the board's four chips 2 + 2. An error says
// which count leaves a channel without a chip or a column.
func SplitVertical(chips, channels, width int) ([]Stream, error) {
	switch {
	case channels < 1 || channels > 2:
		return nil, fmt.Errorf("%d channels: SAGE has 1 or 2 video channels", channels)
	case chips < channels:
		return nil, fmt.Errorf("%d convolve chips for %d channels: each channel needs at least one chip", chips, channels)
	case width < channels:
		return nil, fmt.Errorf("a %d-pixel-wide output for %d channels: each channel needs at least one column", width, channels)
	}
	s := make([]Stream, channels)
	for c := range s {
		first := c * chips / channels
		s[c] = Stream{First: first, Count: (c+1)*chips/channels - first, X0: c * width / channels, X1: (c + 1) * width / channels}
	}
	return s, nil
}

// Validate names the first bad field.
func (c Config) Validate() error {
	ow, oh, sw, sh, st := c.OutputWidth, c.OutputHeight, c.SourceWidth, c.SourceHeight, c.Stream
	chained := st.Count != 0
	return check.For("convolve").
		AtLeast("Chips", c.Chips, 1).
		Index("Index", c.Index, "Chips", c.Chips).
		That(ow >= 1 && ow <= filter.MaxDisplay && oh >= 1 && oh <= filter.MaxDisplay,
			"Output %dx%d must be in [1, %d] on each side", ow, oh, filter.MaxDisplay).
		That(sw >= 1 && sw <= filter.MaxDisplay && sh >= 1 && sh <= filter.MaxDisplay,
			"Source %dx%d must be in [1, %d] on each side", sw, sh, filter.MaxDisplay).
		That(sw*oh == sh*ow, "Source %dx%d and Output %dx%d: the step (source/output) must be the same on both axes",
			sw, sh, ow, oh).
		That(float64(sw)/float64(ow) <= filter.MaxStep, "Source width %d / Output width %d: the step must be at most %d", sw, ow, filter.MaxStep).
		InRange("Samples", c.Samples, 1, filter.MaxSamples).
		That(c.Convolver != nil, "Convolver is not set").
		That(c.Positions != nil, "Positions is not set").
		That(!chained || st.First >= 0 && st.Count >= 1 && st.First+st.Count <= c.Chips,
			"Stream chips [%d, %d) must be within the board's [0, Chips=%d)", st.First, st.First+st.Count, c.Chips).
		That(!chained || c.Index >= st.First && c.Index < st.First+st.Count,
			"Index %d must be in its Stream's chips [%d, %d)", c.Index, st.First, st.First+st.Count).
		That(!chained || st.X0 >= 0 && st.X1 > st.X0 && st.X1 <= ow,
			"Stream columns [%d, %d) must be a non-empty part of the Output width %d", st.X0, st.X1, ow).
		That(c.Lines >= filter.Window, "Lines %d must be at least the filter window's %d", c.Lines, filter.Window).
		NotNegative("RequestAhead", c.RequestAhead).
		InRange("Processors", c.Processors, 1, filter.Window*filter.Window).
		FieldsAtLeast(1, c,
			"SamplesPerCycle", "SpanPixels", "OutputLines", "FromRouteQueue",
			"FromPrevQueue").
		Err()
}

// Builder builds a convolve chip: MakeBuilder().WithEnv(env).WithConfig(cfg).
// Build(name), for example "GPU.Convolve[2]" (timing.Builder). The Env gives
// the chip's clock, the halt and the progress (one unit per message sent).
// Build panics on a bad Env or Config (configs validates first).
type Builder = timing.Builder[Config, *Comp]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("convolve", DefaultConfig(), build) }

// build makes the unit named name from a checked Env and Config.
func build(name string, env timing.Env, cfg Config) *Comp {
	c := &Comp{
		step: float64(cfg.SourceWidth) / float64(cfg.OutputWidth),
	}
	st := cfg.Stream
	if st.Count == 0 {
		st = Stream{First: 0, Count: cfg.Chips, X0: 0, X1: cfg.OutputWidth}
	}
	c.streamX0 = st.X0
	c.x0, c.x1 = st.Swath(cfg.Index)
	c.outputSpans = max(1, cfg.OutputLines*((c.x1-c.x0+cfg.SpanPixels-1)/cfg.SpanPixels))
	c.buf = newLineBuffer(cfg.SourceWidth, cfg.SourceHeight, cfg.Samples, cfg.Lines)
	c.Unit = timing.NewUnit(name, env, cfg, c, activityNames[:]...)
	c.Control = timing.AddPort(c, "Control", 2)
	c.ToRoute = timing.AddPort(c, "ToRoute", 1)
	c.FromRoute, c.routeBuf = timing.AddBufferedPort(c, "FromRoute", cfg.FromRouteQueue)
	c.FromPrev, c.prevBuf = timing.AddBufferedPort(c, "FromPrev", cfg.FromPrevQueue)
	c.ToNext = timing.AddPort(c, "ToNext", 1)
	c.setFrame()
	return c
}
