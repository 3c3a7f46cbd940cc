package convolve

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/filter"
	"github.com/gfxsim/gfxsim/timing"
)

// Builder configures and builds a convolve chip. The zero value is not usable;
// start from MakeBuilder.
type Builder struct {
	engine          sim.Engine
	freq            sim.Freq
	halt            *timing.Halt
	progress        *timing.Progress
	index, chips    int
	stream          Stream // Count 0: all the chips over the whole width
	outW, outH      int
	srcW, srcH      int
	samples         int
	convolver       *filter.Convolver
	positions       filter.Positions
	lines           int
	processors      int
	samplesPerCycle int
	requestAhead    int
	spanPixels      int
	outputLines     int
	sampleQueue     int
	prevQueue       int
}

// MakeBuilder returns a builder with the defaults: chip 0 of the board's 4, a
// 1280x1024 output filtered from a 1280x1024 sample buffer (no resizing) at 8
// samples per pixel, the paper's 6 swath lines and 25 filter processors (one
// per window pixel), each taking one sample per cycle (silent in the paper), a
// 250 MHz clock (the paper's only clock figure is its 250 MHz peak video
// output rate, section 10.3; at one sample per processor per cycle a pixel of 8
// samples costs 8 cycles, so a chip filters 31 M pixels/s, above the 26 M its
// quarter of a 1280x1024 76 Hz raster needs), one line requested ahead of the
// filter window (the sixth, filling, line), VideoSpans of 32 pixels, an output
// queue of 2 swath lines (silent in the paper: the chain of section 3.7 needs
// each chip's portion of a scan line ready when the stream reaches its
// columns, so a chip filters line y+1 while line y waits for its turn), and
// room for 4 messages in the FromRoute and FromPrev ports.
// The Convolver and Positions must be set.
func MakeBuilder() Builder {
	return Builder{
		freq:            250 * sim.MHz,
		chips:           4,
		outW:            1280,
		outH:            1024,
		srcW:            1280,
		srcH:            1024,
		samples:         8,
		lines:           6,
		processors:      filter.Window * filter.Window,
		samplesPerCycle: 1,
		requestAhead:    1,
		spanPixels:      32,
		outputLines:     2,
		sampleQueue:     4,
		prevQueue:       4,
	}
}

// WithEngine sets the simulation engine (required).
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the chip's clock.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag.
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter (one unit per message sent).
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithIndex sets the chip's place on the board (0 first) and the number of
// chips on the board: with one chain (the default Stream), chip k filters
// output columns [k*W/chips, (k+1)*W/chips). The index also names the chip to
// the route network.
func (b Builder) WithIndex(k, chips int) Builder { b.index, b.chips = k, chips; return b }

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
		return nil, fmt.Errorf("an output %d pixels wide for %d channels: each channel needs at least one column", width, channels)
	}
	s := make([]Stream, channels)
	for c := range s {
		first := c * chips / channels
		s[c] = Stream{First: first, Count: (c+1)*chips/channels - first, X0: c * width / channels, X1: (c + 1) * width / channels}
	}
	return s, nil
}

// WithStream sets the chain the chip belongs to (a video channel's; see
// Stream). The default, a Stream of Count 0, is one chain of all the chips
// over the whole output width.
func (b Builder) WithStream(s Stream) Builder { b.stream = s; return b }

// WithOutput sets the output (video) resolution in pixels.
func (b Builder) WithOutput(w, h int) Builder { b.outW, b.outH = w, h; return b }

// WithSource sets the resolution of the sample buffer read (section 7.2:
// resizing; the centre step is source/output and must be the same on both
// axes).
func (b Builder) WithSource(w, h int) Builder { b.srcW, b.srcH = w, h; return b }

// WithSamples sets the samples per pixel of the sample buffer (1 to 16).
func (b Builder) WithSamples(n int) Builder { b.samples = n; return b }

// WithConvolver sets the filter arithmetic (required).
func (b Builder) WithConvolver(c *filter.Convolver) Builder { b.convolver = c; return b }

// WithPositions sets the sample positions (the displayed frame's pattern RAM;
// required).
func (b Builder) WithPositions(p filter.Positions) Builder { b.positions = p; return b }

// WithLines sets the swath-line buffer's capacity in source lines (at least
// the 5 of the filter window).
func (b Builder) WithLines(n int) Builder { b.lines = n; return b }

// WithProcessors sets the filter processors and the samples each takes per
// cycle: a pixel costs ceil(samples read / (processors x rate)) cycles.
func (b Builder) WithProcessors(processors, samplesPerCycle int) Builder {
	b.processors, b.samplesPerCycle = processors, samplesPerCycle
	return b
}

// WithRequestAhead sets how many source lines below the window of the output
// line being filtered the chip may have requested (0: only lines it needs now).
func (b Builder) WithRequestAhead(n int) Builder { b.requestAhead = n; return b }

// WithSpanPixels sets the pixels of one VideoSpan: the chip filters and emits
// its swath in spans of this many pixels.
func (b Builder) WithSpanPixels(n int) Builder { b.spanPixels = n; return b }

// WithOutputLines sets how many of the chip's swath lines of filtered pixels
// may wait for their turn in the video chain before the filter stops
// (cycles_blocked).
func (b Builder) WithOutputLines(n int) Builder { b.outputLines = n; return b }

// WithPortQueues sets the capacities, in messages, of the FromRoute and
// FromPrev ports.
func (b Builder) WithPortQueues(fromRoute, fromPrev int) Builder {
	b.sampleQueue, b.prevQueue = fromRoute, fromPrev
	return b
}

// Validate checks the parameters and names the first bad one.
func (b Builder) Validate() error {
	switch {
	case b.engine == nil:
		return fmt.Errorf("convolve: Engine is not set")
	case !(b.freq > 0):
		return fmt.Errorf("convolve: Freq %v must be positive", float64(b.freq))
	case b.chips < 1:
		return fmt.Errorf("convolve: Chips %d must be at least 1", b.chips)
	case b.index < 0 || b.index >= b.chips:
		return fmt.Errorf("convolve: Index %d must be in [0, Chips=%d)", b.index, b.chips)
	case b.outW < 1 || b.outW > filter.MaxDisplay || b.outH < 1 || b.outH > filter.MaxDisplay:
		return fmt.Errorf("convolve: Output %dx%d must be in [1, %d] on each side", b.outW, b.outH, filter.MaxDisplay)
	case b.srcW < 1 || b.srcW > filter.MaxDisplay || b.srcH < 1 || b.srcH > filter.MaxDisplay:
		return fmt.Errorf("convolve: Source %dx%d must be in [1, %d] on each side", b.srcW, b.srcH, filter.MaxDisplay)
	case b.srcW*b.outH != b.srcH*b.outW:
		return fmt.Errorf("convolve: Source %dx%d and Output %dx%d: the step (source/output) must be the same on both axes",
			b.srcW, b.srcH, b.outW, b.outH)
	case float64(b.srcW)/float64(b.outW) > 16:
		return fmt.Errorf("convolve: Source width %d / Output width %d: the step must be at most 16", b.srcW, b.outW)
	case b.samples < 1 || b.samples > filter.MaxSamples:
		return fmt.Errorf("convolve: Samples %d must be in [1, %d]", b.samples, filter.MaxSamples)
	case b.convolver == nil:
		return fmt.Errorf("convolve: Convolver is not set")
	case b.positions == nil:
		return fmt.Errorf("convolve: Positions is not set")
	case b.stream.Count != 0 && (b.stream.First < 0 || b.stream.Count < 1 || b.stream.First+b.stream.Count > b.chips):
		return fmt.Errorf("convolve: Stream chips [%d, %d) must be within the board's [0, Chips=%d)",
			b.stream.First, b.stream.First+b.stream.Count, b.chips)
	case b.stream.Count != 0 && (b.index < b.stream.First || b.index >= b.stream.First+b.stream.Count):
		return fmt.Errorf("convolve: Index %d must be in its Stream's chips [%d, %d)",
			b.index, b.stream.First, b.stream.First+b.stream.Count)
	case b.stream.Count != 0 && (b.stream.X0 < 0 || b.stream.X1 <= b.stream.X0 || b.stream.X1 > b.outW):
		return fmt.Errorf("convolve: Stream columns [%d, %d) must be a non-empty part of the Output width %d",
			b.stream.X0, b.stream.X1, b.outW)
	case b.lines < filter.Window:
		return fmt.Errorf("convolve: Lines %d must be at least the filter window's %d", b.lines, filter.Window)
	case b.requestAhead < 0:
		return fmt.Errorf("convolve: RequestAhead %d must not be negative", b.requestAhead)
	}
	for _, c := range []struct {
		name string
		v    int
	}{
		{"Processors", b.processors},
		{"SamplesPerCycle", b.samplesPerCycle},
		{"SpanPixels", b.spanPixels},
		{"OutputLines", b.outputLines},
		{"FromRouteQueue", b.sampleQueue},
		{"FromPrevQueue", b.prevQueue},
	} {
		if c.v < 1 {
			return fmt.Errorf("convolve: %s %d must be at least 1", c.name, c.v)
		}
	}
	return nil
}

// Build creates the convolve chip named name (for example "GPU.Convolve[2]").
// It panics with the message of Validate when a parameter is invalid.
func (b Builder) Build(name string) *Comp {
	if err := b.Validate(); err != nil {
		panic(err)
	}
	sim.NameMustBeValid(name)
	c := &Comp{
		halt:         b.halt,
		progress:     b.progress,
		index:        b.index,
		conv:         b.convolver,
		pos:          b.positions,
		n:            b.samples,
		outW:         b.outW,
		outH:         b.outH,
		step:         float64(b.srcW) / float64(b.outW),
		perCycle:     b.processors * b.samplesPerCycle,
		requestAhead: b.requestAhead,
		spanPixels:   b.spanPixels,
		activity:     timing.NewActivity(activityNames[:]...),
	}
	st := b.stream
	if st.Count == 0 {
		st = Stream{First: 0, Count: b.chips, X0: 0, X1: b.outW}
	}
	c.streamX0 = st.X0
	c.x0, c.x1 = st.Swath(b.index)
	c.outputSpans = max(1, b.outputLines*((c.x1-c.x0+b.spanPixels-1)/b.spanPixels))
	c.buf = newLineBuffer(b.srcW, b.srcH, b.samples, b.lines)
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.waker = timing.NewWaker(b.engine, b.freq, c)
	c.routeBuf = sim.NewBuffer(name+".FromRoute.Buf", b.sampleQueue)
	c.prevBuf = sim.NewBuffer(name+".FromPrev.Buf", b.prevQueue)
	c.Control = sim.NewLimitNumMsgPort(c, 2, name+".Control")
	c.ToRoute = sim.NewLimitNumMsgPort(c, 1, name+".ToRoute")
	c.FromRoute = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.routeBuf, name+".FromRoute")
	c.FromPrev = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.prevBuf, name+".FromPrev")
	c.ToNext = sim.NewLimitNumMsgPort(c, 1, name+".ToNext")
	for _, p := range []struct {
		name string
		port sim.Port
	}{{"Control", c.Control}, {"ToRoute", c.ToRoute}, {"FromRoute", c.FromRoute},
		{"FromPrev", c.FromPrev}, {"ToNext", c.ToNext}} {
		c.AddPort(p.name, p.port)
	}
	c.setFrame()
	return c
}
