package hiz

import (
	"fmt"
	"math/bits"

	"github.com/gfxsim/gfxsim/internal/enum"
)

// Mode is the coarse depth buffer's algorithm.
type Mode uint8

// Modes (Andersson, Hasselgren and Akenine-Möller, "Masked Depth Culling for
// Graphics Hardware", 2015, section 5).
const (
	// Off: no hierarchical Z.
	Off Mode = iota
	// Oracle: the HiZ unit knows every sample's depth (an exact per-sample
	// replica of the depth buffer, with intervals where a draw may or may not
	// write): the upper bound of culling.
	Oracle
	// Forward: one z-min and one z-max per tile, updated feed-forward only;
	// z-max only when a primitive covers the whole tile. With Feedback it is
	// the classic FEEDBACK design.
	Forward
	// ZMask: one z-min, Layers z-max values and a per-sample selection mask
	// (the paper's ZMASK; PACKED ZMASK with Config.Packed).
	ZMask
	numModes
)

var modeNames = enum.Names[Mode]{Type: "Mode", What: "HiZ mode", OneOf: true, CaseOnly: true, Names: []string{"off", "oracle", "forward", "zmask"}}

func (m Mode) String() string { return modeNames.String(m) }

// ParseMode parses a mode name (case-insensitive).
func ParseMode(s string) (Mode, error) { return modeNames.Parse(s) }

// Placement is where the coarse depth test sits relative to per-sample coverage.
type Placement uint8

const (
	// WithCoverage: the test runs after per-sample coverage and uses it: the
	// covered samples of each layer fail or not separately (the paper's
	// Listing 1); failed samples are removed even when the tile is not culled.
	WithCoverage Placement = iota
	// IntervalOnly: the test compares the primitive's depth interval with
	// [z-min, max of the layers' z-max] and culls or keeps all of a tile's
	// covered samples (the paper's Listing 2, which may run before coverage).
	IntervalOnly
	numPlacements
)

var placementNames = enum.Names[Placement]{Type: "Placement", What: "HiZ placement", CaseOnly: true, Names: []string{"coverage", "interval"}}

func (p Placement) String() string { return placementNames.String(p) }

// ParsePlacement parses "coverage" or "interval".
func ParsePlacement(s string) (Placement, error) { return placementNames.Parse(s) }

// FeedbackSource says where z-max feedback comes from.
type FeedbackSource uint8

const (
	// NoFeedback: feed-forward updates only.
	NoFeedback FeedbackSource = iota
	// IdealFeedback: the tile's true bounds are recomputed inside the HiZ unit
	// after every update (from an exact per-sample replica, so with no pipeline
	// latency), then delayed by Config.FeedbackDelay tiles: the paper's INSTANT
	// FEEDBACK (delay 0) and its FIFO-delayed FEEDBACK.
	IdealFeedback
	// UpdateFeedback: the depth unit recomputes the bounds of the HiZ tiles it
	// just tested and sends them back (timed model only).
	UpdateFeedback
	// EvictFeedback: the depth unit sends the bounds of a HiZ tile when one of
	// its lines leaves the depth cache (timed model only).
	EvictFeedback
	numFeedback
)

var feedbackNames = enum.Names[FeedbackSource]{Type: "FeedbackSource", What: "HiZ feedback source", OneOf: true, CaseOnly: true, Names: []string{"none", "ideal", "update", "evict"}}

func (f FeedbackSource) String() string { return feedbackNames.String(f) }

// ParseFeedbackSource parses a feedback source name.
func ParseFeedbackSource(s string) (FeedbackSource, error) { return feedbackNames.Parse(s) }

// MaxLayers is the largest number of z-max layers of a ZMASK tile.
const MaxLayers = 4

// Config is a coarse depth buffer configuration. Zero fields take the mode's
// defaults (WithDefaults).
type Config struct {
	Mode Mode
	// TileSamples is the tile size in samples (a power of two in [16, 256]):
	// 16 for Oracle and Forward, 32 for ZMask, 128 for packed ZMask by default.
	TileSamples int
	// Layers is the number of z-max layers of a ZMask tile (2 by default; 3 or
	// 4 as an option; 2 when Packed). Forward uses 1.
	Layers    int
	Placement Placement
	// Packed selects PACKED ZMASK: tiles are stored in memory with 15-bit
	// reduced-precision values rounded conservatively and a selection mask
	// compressed by blocks, lossy towards the farther layer (Pack).
	Packed bool
	// MaskBlock is the block size b of the packed selection mask (default 8).
	MaskBlock int
	// PackedBits is the size of a packed tile in memory (default TileSamples:
	// one bit per sample, the paper's 128 bits for 128 samples).
	PackedBits int
	// Feedback and FeedbackDelay (in HiZ tiles processed) select z-max feedback.
	Feedback      FeedbackSource
	FeedbackDelay int
}

// ValueBits is the size of an uncompressed depth value in a tile.
const ValueBits = 32

// WithDefaults fills in the zero fields.
func (c Config) WithDefaults() Config {
	if c.TileSamples == 0 {
		switch {
		case c.Mode == ZMask && c.Packed:
			c.TileSamples = 128
		case c.Mode == ZMask:
			c.TileSamples = 32
		default:
			c.TileSamples = 16
		}
	}
	if c.Layers == 0 {
		c.Layers = 2
		if c.Mode != ZMask {
			c.Layers = 1
		}
	}
	if c.Packed {
		if c.MaskBlock == 0 {
			c.MaskBlock = 8
		}
		if c.PackedBits == 0 {
			c.PackedBits = c.TileSamples
		}
	}
	return c
}

// Validate checks a configuration (after WithDefaults), naming the bad field.
func (c Config) Validate() error {
	switch {
	case c.Mode >= numModes:
		return fmt.Errorf("hiz: Mode %d is not a mode", uint8(c.Mode))
	case c.Placement >= numPlacements:
		return fmt.Errorf("hiz: Placement %d is not a placement", uint8(c.Placement))
	case c.Feedback >= numFeedback:
		return fmt.Errorf("hiz: Feedback %d is not a feedback source", uint8(c.Feedback))
	case c.Mode == Off:
		return nil
	case c.TileSamples < 16 || c.TileSamples > MaxTileSamples || bits.OnesCount(uint(c.TileSamples)) != 1:
		return fmt.Errorf("hiz: TileSamples %d is not a power of two in [16, %d]", c.TileSamples, MaxTileSamples)
	case c.Mode == ZMask && (c.Layers < 2 || c.Layers > MaxLayers):
		return fmt.Errorf("hiz: Layers %d is outside [2, %d]", c.Layers, MaxLayers)
	case c.Mode != ZMask && c.Layers != 1:
		return fmt.Errorf("hiz: Layers %d: mode %v has one z-max per tile", c.Layers, c.Mode)
	case c.FeedbackDelay < 0 || c.FeedbackDelay > 1<<20:
		return fmt.Errorf("hiz: FeedbackDelay %d is outside [0, %d]", c.FeedbackDelay, 1<<20)
	case c.Mode == Oracle && c.Feedback != NoFeedback:
		return fmt.Errorf("hiz: Feedback %v: the oracle needs no feedback", c.Feedback)
	case c.Packed && c.Mode != ZMask:
		return fmt.Errorf("hiz: Packed: only ZMask tiles are packed")
	}
	if c.Packed {
		switch {
		case c.Layers != 2:
			return fmt.Errorf("hiz: Layers %d: packed tiles have 2 layers", c.Layers)
		case c.MaskBlock < 2 || c.MaskBlock > c.TileSamples || bits.OnesCount(uint(c.MaskBlock)) != 1:
			return fmt.Errorf("hiz: MaskBlock %d is not a power of two in [2, TileSamples]", c.MaskBlock)
		case c.MaskBudget() < 2*c.TileSamples/c.MaskBlock:
			return fmt.Errorf("hiz: PackedBits %d leaves %d bits for the selection mask, fewer than the %d of %d uniform blocks",
				c.PackedBits, c.MaskBudget(), 2*c.TileSamples/c.MaskBlock, c.TileSamples/c.MaskBlock)
		}
	}
	return nil
}

// packedHeaderBits is what a packed tile spends besides its selection mask:
// a form bit and three reduced-precision values.
const packedHeaderBits = 1 + 3*ReducedBits

// MaskBudget returns the bits a packed tile has for its compressed selection
// mask: PackedBits minus the form bit and three 15-bit values (82 bits for
// 128-bit tiles, as in the paper).
func (c Config) MaskBudget() int { return c.PackedBits - packedHeaderBits }

// LayerBits returns the selection-mask bits per sample: ceil(log2(Layers)).
func (c Config) LayerBits() int { return bits.Len(uint(c.Layers - 1)) }

// TileBits returns the size of an uncompressed tile (as held in the HiZ cache):
// (1 + Layers) 32-bit values and LayerBits per sample. FORWARD: 64 bits per 16
// samples; ZMASK: 128 bits per 32 samples (both 4 bits per sample); a 128-sample
// ZMASK tile 224 bits (28 bytes).
func (c Config) TileBits() int { return (1+c.Layers)*ValueBits + c.TileSamples*c.LayerBits() }

// MemoryTileBits returns the size of a tile in memory: PackedBits when packed,
// else TileBits.
func (c Config) MemoryTileBits() int {
	if c.Packed {
		return c.PackedBits
	}
	return c.TileBits()
}
