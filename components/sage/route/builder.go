package route

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/timing"
)

// Builder configures and builds the route network. The zero value is not
// usable; start from MakeBuilder.
type Builder struct {
	engine         sim.Engine
	freq           sim.Freq
	halt           *timing.Halt
	progress       *timing.Progress
	chips          int
	samplesPerChip int
	convolves      int
	fifoSamples    int
	spanPixels     int
	requestQueue   int
}

// MakeBuilder returns a builder with the defaults: the paper's 32 3DRAM chips,
// each delivering one 40-bit sample per video-read clock (20 video pins,
// double-pumped: section 3.5), a 50 MHz video-read clock (silent in the paper;
// chosen so that 32 samples a clock give its 1.6 G samples/s peak video
// bandwidth, section 10.3), 4 convolve chips, a 4096-sample FIFO per convolve
// output (silent: more than one 8-sample burst of 324 pixels), SampleSpans of
// at most 32 pixels and room for 8 LineRequests in the input port.
func MakeBuilder() Builder {
	return Builder{
		freq:           50 * sim.MHz,
		chips:          32,
		samplesPerChip: 1,
		convolves:      4,
		fifoSamples:    4096,
		spanPixels:     32,
		requestQueue:   8,
	}
}

// WithEngine sets the simulation engine (required).
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the video-read clock of the 3DRAMs' video pins.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag: the route stops at its next tick once
// it is set, and reports protocol errors through it.
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter (one unit per message sent).
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithChips sets the number of 3DRAM chips whose video pins feed the route
// chips (32 on the board).
func (b Builder) WithChips(n int) Builder { b.chips = n; return b }

// WithSamplesPerChip sets the samples each 3DRAM chip delivers per video-read
// clock (1: 40 bits on 20 double-pumped pins).
func (b Builder) WithSamplesPerChip(n int) Builder { b.samplesPerChip = n; return b }

// WithConvolves sets the number of convolve chips (outputs) the route feeds.
func (b Builder) WithConvolves(n int) Builder { b.convolves = n; return b }

// WithFIFOSamples sets the depth, in samples, of the FIFO of each convolve
// output. It must hold at least one pixel's samples.
func (b Builder) WithFIFOSamples(n int) Builder { b.fifoSamples = n; return b }

// WithSpanPixels sets the most pixels one SampleSpan carries: a burst leaves
// the FIFO in spans of this many pixels (fewer when the FIFO is shallower).
func (b Builder) WithSpanPixels(n int) Builder { b.spanPixels = n; return b }

// WithRequestQueue sets the capacity, in messages, of the FromConvolves port.
func (b Builder) WithRequestQueue(n int) Builder { b.requestQueue = n; return b }

// Validate checks the parameters and names the first bad one.
func (b Builder) Validate() error {
	if b.engine == nil {
		return fmt.Errorf("route: Engine is not set")
	}
	if !(b.freq > 0) {
		return fmt.Errorf("route: Freq %v must be positive", float64(b.freq))
	}
	for _, c := range []struct {
		name string
		v    int
	}{
		{"Chips", b.chips},
		{"SamplesPerChip", b.samplesPerChip},
		{"Convolves", b.convolves},
		{"FIFOSamples", b.fifoSamples},
		{"SpanPixels", b.spanPixels},
		{"RequestQueue", b.requestQueue},
	} {
		if c.v < 1 {
			return fmt.Errorf("route: %s %d must be at least 1", c.name, c.v)
		}
	}
	return nil
}

// Build creates the route network named name (for example "GPU.Route"). It
// panics with the message of Validate when a parameter is invalid.
func (b Builder) Build(name string) *Comp {
	if err := b.Validate(); err != nil {
		panic(err)
	}
	sim.NameMustBeValid(name)
	c := &Comp{
		halt:        b.halt,
		progress:    b.progress,
		rate:        b.chips * b.samplesPerChip,
		fifoSamples: b.fifoSamples,
		spanPixels:  b.spanPixels,
		outs:        make([]output, b.convolves),
		Convolves:   make([]sim.Port, b.convolves),
		activity:    timing.NewActivity(activityNames[:]...),
	}
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.waker = timing.NewWaker(b.engine, b.freq, c)
	c.inBuf = sim.NewBuffer(name+".FromConvolves.Buf", b.requestQueue)
	c.FromConvolves = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.inBuf, name+".FromConvolves")
	c.ToConvolves = sim.NewLimitNumMsgPort(c, 1, name+".ToConvolves")
	c.Control = sim.NewLimitNumMsgPort(c, 2, name+".Control")
	c.AddPort("FromConvolves", c.FromConvolves)
	c.AddPort("ToConvolves", c.ToConvolves)
	c.AddPort("Control", c.Control)
	return c
}
