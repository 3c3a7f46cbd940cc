package protocol

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/command"
)

// FlushCmd ends a screen tile of the tiled sort-middle machine in one of the
// tile unit's back-end units (configs/sortmiddle.yaml): a ROP or a depth unit
// writes back every dirty line of its cache to the tile memory and, with
// Invalidate, drops every line, so that the next tile starts with an empty
// cache; a reorder buffer in shading-cache mode drops every shading-cache entry
// (the document's per-tile local cache, flushed when the tile ends). The unit
// answers protocol.Done once it is done. It is sent only when every draw of the
// tile has been reported done by the ROP, so the units hold no work.
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
