package primitiveassembly

import (
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
)

// traced reports whether a tracer is attached: tasks are reported (and their IDs
// built) only then (docs/design-timing.md, section 10).
func (c *Comp) traced() bool { return c.NumHooks() > 0 }

// startBatchTask starts the primitive_assembly task of batch sb
// ("draw<s>.t<first>.batch<b>@pa", below the input assembler's batch) when its first
// triangle is taken.
func (c *Comp) startBatchTask(sb *protocol.ShadedBatch) {
	tracing.StartTask(protocol.BatchTaskID(sb.Draw.Seq, sb.Seq, sb.Batch.FirstTriangle, protocol.AtPA),
		protocol.BatchTaskID(sb.Draw.Seq, sb.Seq, sb.Batch.FirstTriangle, ""), c, protocol.KindPrimitiveAssembly,
		protocol.Count(len(sb.Batch.Triangles), "triangles"), nil)
	c.traceLast = nil
}

// endBatchTask is called when the last triangle of sb was assembled: its task
// ends when the last primitive it produced is queued for the rasterizers (now,
// when none is left in the clipper or the setup pipeline).
func (c *Comp) endBatchTask(sb *protocol.ShadedBatch) {
	id := protocol.BatchTaskID(sb.Draw.Seq, sb.Seq, sb.Batch.FirstTriangle, protocol.AtPA)
	if it := c.traceLast; it != nil && !it.distributed {
		it.endTask = id
	} else {
		tracing.EndTask(id, c)
	}
	c.traceLast = nil
}

// itemQueued notes that every primitive of it was queued.
func (c *Comp) itemQueued(it *setupItem) {
	it.distributed = true
	if it.endTask != "" {
		tracing.EndTask(it.endTask, c)
	}
}
