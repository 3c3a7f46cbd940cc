package protocol

import "github.com/sarchlab/akita/v3/sim"

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
