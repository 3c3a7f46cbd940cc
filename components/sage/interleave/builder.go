package interleave

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/samplebuffer"
	"github.com/gfxsim/gfxsim/timing"
)

// Builder configures and builds an Interleave. The zero value is not usable;
// start from MakeBuilder.
type Builder struct {
	engine          sim.Engine
	freq            sim.Freq
	halt            *timing.Halt
	progress        *timing.Progress
	index           int
	pipes           int
	geometry        samplebuffer.Geometry
	blocksPerChip   int
	samplesPerBlock int
	banksPerChip    int
	blocksPerPage   int
	writeCycles     int
	fillCycles      int
	writeBackCycles int
	pageMissCycles  int
	clearRate       int
	inputQueue      int
}

// MakeBuilder returns a builder with the defaults: interleave 0 of the board's
// sample buffer (1280x1024 at 8 samples, 8 interleaves of 4 chips), 4 pipes;
// per chip the FBRAM/3D-RAM pixel buffer of 8 blocks of 8 samples (2048 bits as
// eight 256-bit blocks, 32-bit words; Deering et al. 1994 and the 3D-RAM data
// sheet), fully associative with LRU (the controller keeps the tags), 4 DRAM
// banks with pages of 40 blocks (10 Kbit); one cycle per sample write on a hit
// (the 100 MHz pixel port: 400 M pixels/s over 4 interleaved chips), 2 cycles
// per block fill and per write-back, 6 cycles for a page miss, a fast clear of
// 16 samples per cycle (one 256-bit block per chip every 2 cycles), 2
// messages in the input port, 100 MHz. The block, page and clear cycles are
// chosen (the sources found do not give them); see the package documentation.
func MakeBuilder() Builder {
	return Builder{
		freq:  100 * sim.MHz,
		pipes: 4,
		geometry: samplebuffer.Geometry{Width: 1280, Height: 1024, Samples: 8,
			Interleaves: samplebuffer.DefaultInterleaves, ChipsPerInterleave: samplebuffer.DefaultChipsPerInterleave},
		blocksPerChip:   8,
		samplesPerBlock: 8,
		banksPerChip:    4,
		blocksPerPage:   40,
		writeCycles:     1,
		fillCycles:      2,
		writeBackCycles: 2,
		pageMissCycles:  6,
		clearRate:       16,
		inputQueue:      2,
	}
}

// WithEngine sets the simulation engine (required).
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the clock frequency (the interleave's bus and 3DRAM clock).
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag (protocol errors are reported through
// it; without one they panic).
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter.
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithIndex sets the interleave's index in the sample buffer (its Partition in
// DrawDone and Done).
func (b Builder) WithIndex(i int) Builder { b.index = i; return b }

// WithPipes sets the render pipes: the MarkDrawEnd markers a draw needs.
func (b Builder) WithPipes(n int) Builder { b.pipes = n; return b }

// WithGeometry sets the sample buffer's map (raster, density, interleaves and
// chips per interleave).
func (b Builder) WithGeometry(g samplebuffer.Geometry) Builder { b.geometry = g; return b }

// WithCache sets each chip's pixel-buffer cache: blocks, and samples per block
// (a power of two).
func (b Builder) WithCache(blocks, samplesPerBlock int) Builder {
	b.blocksPerChip, b.samplesPerBlock = blocks, samplesPerBlock
	return b
}

// WithPages sets each chip's DRAM banks and the blocks of one page.
func (b Builder) WithPages(banks, blocksPerPage int) Builder {
	b.banksPerChip, b.blocksPerPage = banks, blocksPerPage
	return b
}

// WithWriteCycles sets the chip cycles of one sample write on a cache hit.
func (b Builder) WithWriteCycles(n int) Builder { b.writeCycles = n; return b }

// WithFillCycles sets the cycles to load one block into the pixel buffer.
func (b Builder) WithFillCycles(n int) Builder { b.fillCycles = n; return b }

// WithWriteBackCycles sets the cycles to write one dirty block back to DRAM.
func (b Builder) WithWriteBackCycles(n int) Builder { b.writeBackCycles = n; return b }

// WithPageMissCycles sets the cycles to close a bank's page and open another.
func (b Builder) WithPageMissCycles(n int) Builder { b.pageMissCycles = n; return b }

// WithClearSamplesPerCycle sets the fast-clear rate of the interleave.
func (b Builder) WithClearSamplesPerCycle(n int) Builder { b.clearRate = n; return b }

// WithInputQueue sets the FromSched port's capacity in messages.
func (b Builder) WithInputQueue(n int) Builder { b.inputQueue = n; return b }

// Validate checks the parameters and names the first bad one.
func (b Builder) Validate() error {
	switch {
	case b.engine == nil:
		return fmt.Errorf("interleave: Engine is not set")
	case !(b.freq > 0):
		return fmt.Errorf("interleave: Freq %v must be positive", float64(b.freq))
	}
	if err := b.geometry.Validate(1 << 62); err != nil {
		return fmt.Errorf("interleave: Geometry: %w", err)
	}
	if b.index < 0 || b.index >= b.geometry.Interleaves {
		return fmt.Errorf("interleave: Index %d must be in [0, Geometry.Interleaves=%d)", b.index, b.geometry.Interleaves)
	}
	for _, c := range []struct {
		name string
		v    int
	}{
		{"Pipes", b.pipes}, {"BlocksPerChip", b.blocksPerChip}, {"SamplesPerBlock", b.samplesPerBlock},
		{"BanksPerChip", b.banksPerChip}, {"BlocksPerPage", b.blocksPerPage}, {"WriteCycles", b.writeCycles},
		{"ClearSamplesPerCycle", b.clearRate}, {"InputQueue", b.inputQueue},
	} {
		if c.v < 1 {
			return fmt.Errorf("interleave: %s %d must be at least 1", c.name, c.v)
		}
	}
	for _, c := range []struct {
		name string
		v    int
	}{{"FillCycles", b.fillCycles}, {"WriteBackCycles", b.writeBackCycles}, {"PageMissCycles", b.pageMissCycles}} {
		if c.v < 0 {
			return fmt.Errorf("interleave: %s %d must not be negative", c.name, c.v)
		}
	}
	if b.samplesPerBlock&(b.samplesPerBlock-1) != 0 {
		return fmt.Errorf("interleave: SamplesPerBlock %d must be a power of two", b.samplesPerBlock)
	}
	return nil
}

// Build creates the interleave named name (for example "GPU.Interleave[3]").
// It panics with the message of Validate when a parameter is invalid (callers
// validate first).
func (b Builder) Build(name string) *Comp {
	if err := b.Validate(); err != nil {
		panic(err)
	}
	sim.NameMustBeValid(name)
	c := &Comp{
		halt:      b.halt,
		progress:  b.progress,
		index:     b.index,
		pipes:     b.pipes,
		geom:      b.geometry,
		spb:       uint64(b.samplesPerBlock),
		banks:     uint64(b.banksPerChip),
		perPage:   uint64(b.blocksPerPage),
		write:     uint64(b.writeCycles),
		fill:      uint64(b.fillCycles),
		writeBack: uint64(b.writeBackCycles),
		pageMiss:  uint64(b.pageMissCycles),
		clearRate: uint64(b.clearRate),
		drawEnds:  map[uint64]int{},
		activity:  timing.NewActivity(activityNames[:]...),
	}
	c.chips = make([]chip, b.geometry.ChipsPerInterleave)
	for i := range c.chips {
		tags, err := timing.NewTagArray(b.blocksPerChip*b.samplesPerBlock, b.blocksPerChip, b.samplesPerBlock)
		if err != nil {
			panic(fmt.Errorf("interleave: Cache: %w", err))
		}
		c.chips[i] = chip{tags: tags, open: make([]int64, b.banksPerChip)}
		for k := range c.chips[i].open {
			c.chips[i].open[k] = -1
		}
	}
	c.TickingComponent = sim.NewTickingComponent(name, b.engine, b.freq, c)
	c.waker = timing.NewWaker(b.engine, b.freq, c)
	c.inBuf = sim.NewBuffer(name+".FromSched.Buf", b.inputQueue)
	c.FromSched = sim.NewLimitNumMsgPortWithExternalBuffer(c, c.inBuf, name+".FromSched")
	c.Control = sim.NewLimitNumMsgPort(c, 2, name+".Control")
	c.AddPort("FromSched", c.FromSched)
	c.AddPort("Control", c.Control)
	return c
}
