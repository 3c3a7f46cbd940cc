package protocol

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/binning"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/pipeline"
)

// FlushCmd asks a unit to write back (and, with Invalidate, drop) its cache.
// It ends a screen tile of the tiled sort-middle machine in one of the tile
// unit's back-end units (configs/sortmiddle.yaml): a ROP or a depth unit
// writes back every dirty line of its cache to the tile memory and, with
// Invalidate, drops every line, so that the next tile starts with an empty
// cache; a reorder buffer in shading-cache mode drops every shading-cache entry
// (the document's per-tile local cache, flushed when the tile ends). The
// command processor sends it at a sync token: without Invalidate to the
// sort-last machine's ROPs and depth units (write back, so that a later pass
// reads what this one wrote), with Invalidate to the texture samplers (drop
// every L1 line). The unit answers protocol.Done once it is done. It is sent
// only when every earlier draw has been reported done, so the units hold no
// work.
type FlushCmd struct {
	sim.MsgMeta
	Invalidate bool
}

func (m *FlushCmd) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewFlushCmd builds a FlushCmd.
func NewFlushCmd(invalidate bool) *FlushCmd {
	return &FlushCmd{MsgMeta: meta(8), Invalidate: invalidate}
}

// PassEnd ends a render pass of the tiled sort-middle machine: the command
// processor sends it to the binner once every draw before a Clear, SyncToken,
// Present or End has been binned, and the binner answers Done when every
// screen tile of the pass has been rendered and stored in memory. A pass that
// ends with a Present carries the presented colour target and the display
// address: the tile units resolve each tile as they store it.
type PassEnd struct {
	sim.MsgMeta
	Present bool
	Target  command.Target
	Display uint64
}

func (m *PassEnd) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewPassEnd builds a PassEnd without a present.
func NewPassEnd() *PassEnd { return &PassEnd{MsgMeta: meta(8)} }

// NewPresentPassEnd builds the PassEnd of a pass that ends with presenting
// target t at display.
func NewPresentPassEnd(t command.Target, display uint64) *PassEnd {
	return &PassEnd{MsgMeta: meta(32), Present: true, Target: t, Display: display}
}

// BinnedPrim is one primitive of a pass's parameter buffer: its draw, the
// set-up primitive (the functional contents of its record) and its number in
// the draw.
type BinnedPrim struct {
	Draw  *Draw
	Prim  *pipeline.Primitive
	Index uint64
	Addr  uint64 // its record's address in the parameter buffer
	Bytes int    // its record's size
}

// Bin is one screen tile's bin: the parameter-buffer indices of its
// primitives in API order, and the addresses of its chunks in memory.
type Bin struct {
	Entries []uint32
	Chunks  []uint64
}

// BinnedPass is a render pass of the tiled machine, binned: the binner sends
// it to the tile scheduler when the command processor ends the pass. The bins
// and the parameter buffer are in memory (the tile units read them there);
// the message carries the pass's descriptor and, as functional truth, what
// those bytes hold.
type BinnedPass struct {
	sim.MsgMeta
	Seq        uint64 // the pass's number, counted by the binner from 0 (its trace tasks' IDs)
	Grid       binning.Grid
	Prims      []BinnedPrim
	Bins       []Bin // one per tile of Grid, row-major
	ParamBase  uint64
	ChunkBytes int

	// The pass's targets: HasColor/HasDepth say which it renders to, Load*
	// whether a tile must be read from memory first (not cleared since it was
	// last stored), StoreAll that every tile is stored even without
	// primitives (a target was cleared).
	HasColor, HasDepth   bool
	Color, Depth         command.Target
	LoadColor, LoadDepth bool
	StoreAll             bool

	// Present, Display: the pass ends with presenting Color at Display.
	Present bool
	Display uint64
}

func (m *BinnedPass) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewBinnedPass builds a BinnedPass; the caller fills the fields.
func NewBinnedPass() *BinnedPass { return &BinnedPass{MsgMeta: meta(64)} }

// TileJob hands screen tile Tile of Pass to a tile unit, which answers Done
// once the tile is stored.
type TileJob struct {
	sim.MsgMeta
	Pass *BinnedPass
	Tile int
}

func (m *TileJob) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewTileJob builds a TileJob.
func NewTileJob(p *BinnedPass, tile int) *TileJob {
	return &TileJob{MsgMeta: meta(16), Pass: p, Tile: tile}
}
