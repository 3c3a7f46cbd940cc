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
// ends when the last primitive it produced is sent to the rasterizers (the
// tiled machine: the binner), which may wait in the output queues; now, when
// none is left in the clipper, the setup pipeline or the queues.
func (c *Comp) endBatchTask(sb *protocol.ShadedBatch) {
	id := protocol.BatchTaskID(sb.Draw.Seq, sb.Seq, sb.Batch.FirstTriangle, protocol.AtPA)
	switch it := c.traceLast; {
	case it == nil:
		tracing.EndTask(id, c)
	case !it.distributed:
		it.endTask = id
	default:
		c.endWhenSent(id, it)
	}
	c.traceLast = nil
}

// itemQueued notes that every primitive of it was queued.
func (c *Comp) itemQueued(it *setupItem) {
	it.distributed = true
	if it.endTask != "" {
		c.endWhenSent(it.endTask, it)
	}
}

// pendingEnd is a task that ends once each output queue has sent upTo[r]
// messages (0: no wait on queue r).
type pendingEnd struct {
	id   string
	upTo []uint64
}

// endWhenSent ends task id once the primitives of it, all queued, are sent:
// once every queue it went to has sent what it holds now.
func (c *Comp) endWhenSent(id string, it *setupItem) {
	var mask uint64
	for _, m := range it.owners {
		mask |= m
	}
	var upTo []uint64
	for r := range c.out {
		if mask>>r&1 == 1 && c.out[r].size > 0 {
			if upTo == nil {
				upTo = make([]uint64, len(c.out))
			}
			upTo[r] = c.out[r].pushed
		}
	}
	if upTo == nil {
		tracing.EndTask(id, c)
		return
	}
	c.traceEnds = append(c.traceEnds, pendingEnd{id: id, upTo: upTo})
}

// endSent ends the tasks whose primitives were all sent.
func (c *Comp) endSent() {
	keep := c.traceEnds[:0]
	for _, p := range c.traceEnds {
		sent := true
		for r, n := range p.upTo {
			if c.out[r].popped < n {
				sent = false
				break
			}
		}
		if sent {
			tracing.EndTask(p.id, c)
		} else {
			keep = append(keep, p)
		}
	}
	c.traceEnds = keep
}
