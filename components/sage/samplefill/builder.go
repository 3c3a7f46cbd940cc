package samplefill

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/samplebuffer"
	"github.com/gfxsim/gfxsim/timing"
)

// Builder configures and builds a SampleFill. Start from MakeBuilder.
type Builder struct {
	engine              sim.Engine
	freq                sim.Freq
	halt                *timing.Halt
	progress            *timing.Progress
	pipe                int
	quadsPerWarp        int
	warpsInFlight       int
	samplesPerCycle     int
	packetBytes         int
	burstSamples        int
	geometry            samplebuffer.Geometry
	interleavesPerSched int
	pixelRate           []string
	inputQueue          int
	outputQueue         int
}

// MakeBuilder returns a builder with the defaults: 1 GHz, pipe 0, 8 sample
// quads per warp (32 lanes), 8 warps in flight, 8 samples out per cycle, 16-byte
// sample packets (the document's RGBAZ + x, y + sample index, assumed 16 B),
// bursts of at most 16 samples, the board's sample buffer (1280x1024 at 8
// samples over 8 interleaves of 4 chips) with 4 interleaves per sched,
// texture coordinates at pixel rate (pipeline.DefaultPixelRate), 8 messages in
// the rasterizer input queue and 4 messages queued per sched bus.
func MakeBuilder() Builder {
	return Builder{
		freq:            1 * sim.GHz,
		quadsPerWarp:    8,
		warpsInFlight:   8,
		samplesPerCycle: 8,
		packetBytes:     16,
		burstSamples:    16,
		geometry: samplebuffer.Geometry{Width: 1280, Height: 1024, Samples: 8,
			Interleaves: samplebuffer.DefaultInterleaves, ChipsPerInterleave: samplebuffer.DefaultChipsPerInterleave},
		interleavesPerSched: samplebuffer.DefaultInterleaves / 2,
		pixelRate:           pipeline.DefaultPixelRate,
		inputQueue:          8,
		outputQueue:         4,
	}
}

// WithEngine sets the simulation engine (required).
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the clock frequency.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag (protocol errors stop the run through it).
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter.
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithPipe sets the index of the pipe the sample fill belongs to (the Pipe of
// its bursts and markers, the From of its load reports).
func (b Builder) WithPipe(p int) Builder { b.pipe = p; return b }

// WithQuadsPerWarp sets the sample quads per pixel warp (4 lanes each; at
// most 16, shader.MaxLanes / 4).
func (b Builder) WithQuadsPerWarp(n int) Builder { b.quadsPerWarp = n; return b }

// WithWarpsInFlight sets the warps sent to the shader core and not yet retired
// (the reorder buffer's size).
func (b Builder) WithWarpsInFlight(n int) Builder { b.warpsInFlight = n; return b }

// WithSamplesPerCycle sets how many shaded samples per cycle are packed into
// bursts (the fill rate toward the scheds).
func (b Builder) WithSamplesPerCycle(n int) Builder { b.samplesPerCycle = n; return b }

// WithPacketBytes sets the size of one sample packet on a sched bus.
func (b Builder) WithPacketBytes(n int) Builder { b.packetBytes = n; return b }

// WithBurstSamples sets the most samples in one SampleBurst.
func (b Builder) WithBurstSamples(n int) Builder { b.burstSamples = n; return b }

// WithGeometry sets the sample buffer's organisation (which interleave holds a
// sample); its Samples must be the draws' sample count.
func (b Builder) WithGeometry(g samplebuffer.Geometry) Builder { b.geometry = g; return b }

// WithInterleavesPerSched sets how many interleaves a sched serves: interleave
// i goes to sched i / n (two scheds: n >= Interleaves / 2).
func (b Builder) WithInterleavesPerSched(n int) Builder { b.interleavesPerSched = n; return b }

// WithPixelRate sets the semantics of the shader inputs interpolated at the
// pixel centre (pipeline.PixelRateLinks; nil: pipeline.DefaultPixelRate).
func (b Builder) WithPixelRate(semantics []string) Builder { b.pixelRate = semantics; return b }

// WithInputQueue sets the capacity, in messages, of FromRasterizer.
func (b Builder) WithInputQueue(n int) Builder { b.inputQueue = n; return b }

// WithOutputQueue sets the messages (bursts and markers) queued per sched bus.
func (b Builder) WithOutputQueue(n int) Builder { b.outputQueue = n; return b }

// Validate checks the parameters; the error names the parameter.
func (b Builder) Validate() error {
	g := b.geometry
	switch {
	case b.engine == nil:
		return fmt.Errorf("samplefill: engine: not set")
	case b.freq <= 0:
		return fmt.Errorf("samplefill: freq: %v must be positive", b.freq)
	case b.pipe < 0:
		return fmt.Errorf("samplefill: pipe: %d is negative", b.pipe)
	case b.quadsPerWarp < 1 || b.quadsPerWarp > 16:
		return fmt.Errorf("samplefill: quads_per_warp: %d outside [1, 16] (64 lanes at most)", b.quadsPerWarp)
	case b.warpsInFlight < 1:
		return fmt.Errorf("samplefill: warps_in_flight: %d, want at least 1", b.warpsInFlight)
	case b.samplesPerCycle < 1:
		return fmt.Errorf("samplefill: samples_per_cycle: %d, want at least 1", b.samplesPerCycle)
	case b.packetBytes < 1:
		return fmt.Errorf("samplefill: packet_bytes: %d, want at least 1", b.packetBytes)
	case b.burstSamples < 1:
		return fmt.Errorf("samplefill: burst_samples: %d, want at least 1", b.burstSamples)
	case b.inputQueue < 1:
		return fmt.Errorf("samplefill: input_queue: %d, want at least 1", b.inputQueue)
	case b.outputQueue < 1:
		return fmt.Errorf("samplefill: output_queue: %d, want at least 1", b.outputQueue)
	}
	if err := g.Validate(int64(g.Width) * int64(g.Height) * int64(g.Samples)); err != nil {
		return fmt.Errorf("samplefill: geometry: %w", err)
	}
	if b.interleavesPerSched < 1 || g.Interleaves > Scheds*b.interleavesPerSched {
		return fmt.Errorf("samplefill: interleaves_per_sched: %d does not cover %d interleaves with %d scheds",
			b.interleavesPerSched, g.Interleaves, Scheds)
	}
	return nil
}

// Build validates the parameters and builds the sample fill named name (it
// panics on invalid parameters: call Validate first to get the error).
func (b Builder) Build(name string) *SampleFill {
	if err := b.Validate(); err != nil {
		panic(err)
	}
	sim.NameMustBeValid(name)
	rate := b.pixelRate
	if rate == nil {
		rate = pipeline.DefaultPixelRate
	}
	c := &SampleFill{params: params{pipe: b.pipe, quadsPerWarp: b.quadsPerWarp, warpsInFlight: b.warpsInFlight,
		samplesPerCycle: b.samplesPerCycle, packetBytes: b.packetBytes, burstSamples: b.burstSamples,
		geometry: b.geometry, interleavesPerSched: b.interleavesPerSched, pixelRate: rate,
		inputQueue: b.inputQueue, outputQueue: b.outputQueue},
		halt: b.halt, progress: b.progress}
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.createPorts(name)
	c.activity = timing.NewActivity(stateNames[:]...)
	c.bursts = make([]burst, b.geometry.Interleaves)
	return c
}

func (c *SampleFill) createPorts(name string) {
	c.FromRasterizer = sim.NewLimitNumMsgPort(c, c.inputQueue, name+".FromRasterizer")
	c.FromDistributor = sim.NewLimitNumMsgPort(c, c.inputQueue, name+".FromDistributor")
	c.ToShaderCore = sim.NewLimitNumMsgPort(c, 1, name+".ToShaderCore")
	c.FromShaderCore = sim.NewLimitNumMsgPort(c, c.warpsInFlight, name+".FromShaderCore")
	c.ToDistributor = sim.NewLimitNumMsgPort(c, 1, name+".ToDistributor")
	c.AddPort("FromRasterizer", c.FromRasterizer)
	c.AddPort("FromDistributor", c.FromDistributor)
	c.AddPort("ToShaderCore", c.ToShaderCore)
	c.AddPort("FromShaderCore", c.FromShaderCore)
	c.AddPort("ToDistributor", c.ToDistributor)
	for k := range c.ToScheds {
		port := fmt.Sprintf("ToScheds[%d]", k)
		c.ToScheds[k] = sim.NewLimitNumMsgPort(c, 1, name+"."+port)
		c.AddPort(port, c.ToScheds[k])
	}
}
