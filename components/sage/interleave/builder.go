package interleave

import (
	"fmt"

	"github.com/gfxsim/gfxsim/functional/samplebuffer"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// Config is an interleave's configuration (sage.sample_buffer; configs gives
// each its index).
type Config struct {
	Index    int                   // the interleave's index in the sample buffer (its Partition in DrawDone and Done)
	Pipes    int                   // the render pipes: the MarkDrawEnd markers a draw needs
	Geometry samplebuffer.Geometry // the sample buffer's map (raster, density, interleaves and chips per interleave, Map)
	// BlocksPerChip and SamplesPerBlock (a power of two) are each chip's
	// pixel-buffer cache.
	BlocksPerChip, SamplesPerBlock int
	// BanksPerChip is each chip's DRAM banks, BlocksPerPage the blocks of one
	// page.
	BanksPerChip, BlocksPerPage int
	WriteCycles                 int // chip cycles of one sample write on a cache hit
	FillCycles                  int // cycles to load one block into the pixel buffer
	WriteBackCycles             int // cycles to write one dirty block back to DRAM
	PageMissCycles              int // cycles to close a bank's page and open another
	ClearSamplesPerCycle        int // the fast-clear rate of the interleave
	InputQueue                  int // the FromSched port's capacity in messages
}

// DefaultConfig is interleave 0 of the board's sample buffer (1280x1024 at 8
// samples, 8 interleaves of 4 chips), 4 pipes; per chip the FBRAM/3D-RAM pixel
// buffer of 8 blocks of 8 samples (2048 bits as eight 256-bit blocks, 32-bit
// words; Deering et al. 1994 and the 3D-RAM data sheet), fully associative
// with LRU (the controller keeps the tags), 4 DRAM banks with pages of 40
// blocks (10 Kbit); one cycle per sample write on a hit (the 100 MHz pixel
// port: 400 M pixels/s over 4 interleaved chips), 2 cycles per block fill and
// per write-back, 6 cycles for a page miss, a fast clear of 16 samples per
// cycle (one 256-bit block per chip every 2 cycles), 2 messages in the input
// port. Its clock (the Env's) is 100 MHz in sage.yaml. The block, page and
// clear cycles are chosen (the sources found do not give them); see the
// package documentation.
func DefaultConfig() Config {
	return Config{Pipes: 4,
		Geometry: samplebuffer.Geometry{Width: 1280, Height: 1024, Samples: 8,
			Interleaves: samplebuffer.DefaultInterleaves, ChipsPerInterleave: samplebuffer.DefaultChipsPerInterleave},
		BlocksPerChip: 8, SamplesPerBlock: 8, BanksPerChip: 4, BlocksPerPage: 40, WriteCycles: 1, FillCycles: 2,
		WriteBackCycles: 2, PageMissCycles: 6, ClearSamplesPerCycle: 16, InputQueue: 2}
}

// Validate names the first bad field.
func (c Config) Validate() error {
	r := check.For("interleave")
	if err := c.Geometry.Validate(1 << 62); err != nil {
		r.Wrap(fmt.Errorf("Geometry: %w", err))
	}
	return r.Index("Index", c.Index, "Geometry.Interleaves", c.Geometry.Interleaves).
		FieldsAtLeast(1, c,
			"Pipes", "BlocksPerChip", "SamplesPerBlock", "BanksPerChip", "BlocksPerPage", "WriteCycles",
			"ClearSamplesPerCycle", "InputQueue").
		NotNegative("FillCycles", c.FillCycles).
		NotNegative("WriteBackCycles", c.WriteBackCycles).
		NotNegative("PageMissCycles", c.PageMissCycles).
		That(c.SamplesPerBlock&(c.SamplesPerBlock-1) == 0, "SamplesPerBlock %d must be a power of two", c.SamplesPerBlock).
		Err()
}

// Builder builds an Interleave: MakeBuilder().WithEnv(env).WithConfig(cfg).
// Build(name), for example "GPU.Interleave[3]" (timing.Builder). The Env's
// clock is the interleave's bus and 3DRAM clock; protocol errors are reported
// through its halt (without one they panic). Build panics on a bad Env or
// Config (configs validates first).
type Builder = timing.Builder[Config, *Comp]

// MakeBuilder returns a builder with DefaultConfig.
func MakeBuilder() Builder { return timing.NewBuilder("interleave", DefaultConfig(), build) }

// build makes the unit named name from a checked Env and Config.
func build(name string, env timing.Env, cfg Config) *Comp {
	c := &Comp{
		spb:       uint64(cfg.SamplesPerBlock),
		banks:     uint64(cfg.BanksPerChip),
		perPage:   uint64(cfg.BlocksPerPage),
		write:     uint64(cfg.WriteCycles),
		fill:      uint64(cfg.FillCycles),
		writeBack: uint64(cfg.WriteBackCycles),
		pageMiss:  uint64(cfg.PageMissCycles),
		clearRate: uint64(cfg.ClearSamplesPerCycle),
		drawEnds:  map[uint64]int{},
	}
	c.chips = make([]chip, cfg.Geometry.ChipsPerInterleave)
	for i := range c.chips {
		tags, err := timing.NewTagArray(cfg.BlocksPerChip*cfg.SamplesPerBlock, cfg.BlocksPerChip, cfg.SamplesPerBlock)
		if err != nil {
			panic(fmt.Errorf("interleave: Cache: %w", err))
		}
		c.chips[i] = chip{tags: tags, open: make([]int64, cfg.BanksPerChip)}
		for k := range c.chips[i].open {
			c.chips[i].open[k] = -1
		}
	}
	c.Unit = timing.NewUnit(name, env, cfg, c, activityNames[:]...)
	c.FromSched, c.inBuf = timing.AddBufferedPort(c, "FromSched", cfg.InputQueue)
	c.Control = timing.AddPort(c, "Control", 2)
	return c
}
