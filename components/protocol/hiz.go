package protocol

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/command"
)

// HiZTileBounds is the measured range of stored depth keys of one HiZ tile
// (functional/depth/hiz: Tile indexes the target's hiz.Geometry).
type HiZTileBounds struct {
	Tile   int
	Lo, Hi uint32
}

// HiZFeedback carries z-max feedback from a depth unit to its partition's HiZ
// unit: the depth-key bounds of HiZ tiles of the depth target at Target, as
// they were after every primitive up to API position (Draw, Prim) was tested
// (hiz.Pos). Made is when they were measured (for the age statistic).
type HiZFeedback struct {
	sim.MsgMeta
	Target     uint64
	Draw, Prim uint64
	Made       sim.VTimeInSec
	Tiles      []HiZTileBounds
}

func (m *HiZFeedback) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewHiZFeedback builds a HiZFeedback: a 16-byte header and 12 bytes per tile.
func NewHiZFeedback(target, draw, prim uint64, made sim.VTimeInSec, tiles []HiZTileBounds) *HiZFeedback {
	return &HiZFeedback{MsgMeta: meta(16 + 12*len(tiles)), Target: target, Draw: draw, Prim: prim, Made: made, Tiles: tiles}
}

// HiZControl relays a back-end command from a depth unit to its HiZ unit: a
// fast clear of the depth target to depth key Key (Clear), or a flush of the
// HiZ cache's dirty lines at Present (Flush). The HiZ unit answers with a Done
// on its data path to the depth unit once it is carried out.
type HiZControl struct {
	sim.MsgMeta
	Clear, Flush bool
	Target       command.Target
	Key          uint32
}

func (m *HiZControl) Meta() *sim.MsgMeta { return &m.MsgMeta }

// NewHiZClear builds the fast clear of target t to key k.
func NewHiZClear(t command.Target, k uint32) *HiZControl {
	return &HiZControl{MsgMeta: meta(32), Clear: true, Target: t, Key: k}
}

// NewHiZFlush builds a flush.
func NewHiZFlush() *HiZControl { return &HiZControl{MsgMeta: meta(8), Flush: true} }
