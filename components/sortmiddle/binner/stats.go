package binner

import (
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/timing"
)

// Stats reports, under "<name>.": primitives (binned), bin_entries,
// bin_spread (entries per primitive), bin_spread_max, draws, passes,
// empty_passes, clears and presents (the ClearCmds and PresentCmds taken),
// chunks, bin_bytes_written (entries and links),
// parameter_bytes_written, the activity cycles and utilization, and the memory
// client's counters under "<name>.memory.".
func (c *Binner) Stats(add func(name string, v float64)) {
	p := c.Name() + "."
	timing.AddTagged(p, add, &c.st)
	add(p+"bin_spread", timing.Ratio(c.st.entries, c.st.prims))
	c.Activity.Stats(c.Name(), add)
	c.mem.Stats(p+"memory", add)
}

// Buffers describes the input queue, the queued writes and the memory
// requests in flight.
func (c *Binner) Buffers() []timing.BufferState {
	n := c.Name()
	pe := 0
	if c.passEnd != nil {
		pe = 1
	}
	return []timing.BufferState{
		timing.PeekState(c.FromPrimitiveAssembly, c.Cfg.InputQueue),
		{Name: n + ".Writes", Len: len(c.writes)},
		{Name: n + ".PassEnd", Len: pe, Cap: 1},
		c.mem.Buffer(n + ".Memory"),
	}
}

var _ protocol.Unit = (*Binner)(nil)
