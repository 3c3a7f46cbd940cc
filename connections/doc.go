// Package connections models how bytes move between components: buses and
// crossbars with a width in bytes per cycle, a latency, arbitration among
// senders, back-pressure and per-link traffic counters
// (docs/design-timing.md, section 6). Both implement Akita's sim.Connection, so
// components use them through ordinary sim.Port values.
//
// # Hardware
//
// A Bus is a shared medium (the command bus, the host bus): one message is on
// it at a time. A Crossbar connects every plugged-in port to every other one
// (the rasterizer-to-depth-unit and shader-core-to-reorder-buffer networks):
// each destination port has its own output link, and sources contend for a
// destination only with the other sources sending to it. A message's size is
// its msg.Meta().TrafficBytes (set by the protocol constructors from the
// payload); a 0-byte message is charged 1 byte.
//
// # Timing
//
// Cycles are edges of the connection's clock (WithFreq). A message of B bytes
// (charged max(B, 1)) on a link of width W bytes per cycle and latency L
// cycles occupies the link for n = ceil(B/W) cycles. If the link is granted to
// it at cycle g, its last byte goes on the link at cycle g+n-1 and it is
// delivered at
//
//	d = g + n - 1 + L
//
// (the destination port's Recv is called at cycle d, and RecvTime is set to
// that cycle's time), so a receiver on the same clock can take it in its tick
// at cycle d+1. The link can be granted to the next message at cycle g+n:
// messages overlap their latency, not their transfer. A message sent on an
// idle link at cycle c is granted at g = c (connections tick as secondary
// events, after every component's tick of the cycle), so it is delivered at
// c+n-1+L and seen at c+n+L. With L = 0 and one cycle the connection behaves
// like Akita's DirectConnection (seen at c+1); the default latency 1 adds one
// cycle. The connection is clocked: a Send from a component on another clock
// is considered at the connection's first edge at or after the send.
//
// # Queues, arbitration and back-pressure
//
// PlugIn(port, s) gives the port a source queue of s messages (a Bus: one
// FIFO; a Crossbar: one FIFO per destination, virtual output queues, so a busy
// destination does not hold up the source's messages to others). Send fails
// when the queue is full (CanSend reports it first); once a slot frees (the
// message at its head is granted) the connection calls the source port's
// NotifyAvailable, which wakes the component (Akita's NotifyPortFree).
// Crossbar.CanSend(src) is true only when every queue of src has room (a true
// answer is a promise); CanSendTo(src, dst) asks about one destination.
//
// Each cycle a free link is granted to one message, the head of a source queue,
// chosen round-robin among the sources in plug-in order starting after the
// source granted last (for a crossbar: per destination link, among the sources
// with a message for that destination). A crossbar's input side is not a
// limit by default: a source may start transfers to several destinations in
// the same cycle; only the output links are contended. A port plugged in with
// PlugInWithInputBuffer(port, s, n), n > 0, may in addition have at most n
// messages waiting in all its queues together (the buffer at its input of the
// crossbar): Send, CanSend and CanSendTo refuse beyond that, and the source is
// notified when a grant frees a slot. Arbitration runs once per cycle after
// all sends of the cycle, so the outcome does not depend on the order of Send
// calls within a cycle, nor on the engine (serial or parallel).
//
// When a destination port refuses a delivery (its buffer is full), the message
// stays in the connection at the head of that destination's delivery queue,
// and the connection retries when the port calls NotifyAvailable (Akita ports
// do so when the component retrieves a message). Until then no new message is
// granted to that destination: a source whose head message is for it waits
// (its queue is a FIFO, so nothing is reordered), and messages already on
// their way to it (granted before the refusal) wait behind the refused one.
// Messages to other destinations keep flowing, on the bus too: a refusing
// destination stalls only the traffic towards it. Messages between the same
// source and destination are never reordered, and a connection holds at most
// latency+1 granted messages per destination, so buffering stays bounded.
//
// # Sleeping
//
// A connection ticks only at cycles where something can happen: after a Send
// (at the cycle of the send), after a NotifyAvailable, at the cycle a link
// becomes free when messages wait for it, and at the cycle the next message is
// due. Future wake-ups are small secondary events of the connection's own,
// whose handler ticks it within the event (TickWithin: one event, not a
// wake-up and then the tick TickNow would schedule; TickNow with a future
// time would hide an earlier TickLater).
// An idle connection, one waiting only for a latency to elapse and one waiting
// only for refusing destinations schedule nothing in between.
//
// # The watchdog
//
// SetProgress gives a link the platform's timing.Progress: each message it
// delivers counts as progress (Progress.Add), and each granted message
// declares it busy until the message is due (Progress.BusyUntil), so that the
// platform's watchdog does not take work under way for a hang. Texture misses
// served one at a time by an L2 bank of one MSHR, through a memory channel
// that counts no progress of its own, and a queue of transfers to one memory
// channel on a crossbar of 1 byte a cycle kept every unit waiting for more
// than the 1,000-cycle minimum of watchdog_cycles while messages moved. A
// message its destination refuses is neither delivered nor declared past the
// cycle it was due: a link stuck on a refusing destination is reported.
//
// # Counters
//
// Stats reports, per link, under <name> for a Bus and under
// <name>.To<Port> for each output link of a Crossbar (plus the crossbar's sums
// under <name>): messages, bytes (charged bytes), busy_cycles (cycles the link
// was transferring), refused_cycles (cycles during which a delivered-ready
// message waited because its destination refused it; on a bus, the cycles
// during which at least one destination was refusing), and <Kind>.messages and
// <Kind>.bytes for every message kind, the Go type name without its package
// path (TileQuads, ReadReq). Messages and bytes are counted when their
// transfer starts. A port's name inside a connection, <Port>, is the last
// element of its component's name (DepthUnit[1] for GPU.DepthUnit[1]);
// different components whose names end alike are told apart by as many more
// elements of their names as it takes (SAGE's GPU.Pipe[p].InputAssembler on
// GPU.MemoryXbar: Pipe[0].InputAssembler ... Pipe[3].InputAssembler); when a
// component plugs in two ports, the second is told apart by its own last name
// element (GPU.VideoXbar's Convolve[c] and Convolve[c].FromRoute).
//
// Buffers lists the source queues and the per-destination delivery queues for
// hang reports.
//
// # Concurrency
//
// Send, CanSend and NotifyAvailable may be called concurrently (components tick
// in parallel under the parallel engine); every method takes the connection's
// lock. The destination's Recv (and so its NotifyRecv) is called with the lock
// held, so a component must not send on the same connection from NotifyRecv
// (Akita's TickingComponent only schedules a tick there); sources are notified
// after the lock is released.
//
// Akita hooks: HookPosConnStartSend fires when Send accepts a message,
// HookPosConnStartTrans when it is granted the link, HookPosConnDeliver when the
// destination accepts it. Unplug is not supported and panics, as Akita's
// DirectConnection does; so do wiring bugs (a message from or to a port that is
// not plugged in, or to its own source), which never depend on input data.
package connections
