package texturesampler

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/texture"
	"github.com/gfxsim/gfxsim/timing"
)

// Activity states of the sampler, counted per cycle (timing.Activity).
const (
	actBusy           = iota // a stage is working on a request
	actStallMissQueue        // the tag stage waits for a free miss-queue entry
	actWaitMemory            // every request in flight waits for L2 lines
	actBlockedOutput         // the next response is refused by the core's port
	actIdle                  // no request in the sampler
)

var activityNames = [...]string{"busy", "stall_miss_queue", "wait_memory", "blocked_output", "idle"}

// Comp is a texture sampler: an in-order pipeline of address generation, L1
// tag lookup with a miss queue to the L2, and filtering. See the package
// documentation.
type Comp struct {
	timing.Unit[Config]

	// Core receives TexRequest messages from the shader core and sends the
	// TexResponse messages back; its buffer is the input queue.
	Core sim.Port
	// ToL2 sends line reads to the L2 and receives the data.
	ToL2 sim.Port
	// Control receives protocol.FlushCmd from the command processor (with
	// Invalidate: drop every L1 line) and sends protocol.Done.
	Control sim.Port

	// CorePort is the shader core's port the responses go to (when nil, the
	// request's source). L2 finds the L2 bank of an address. Image is the
	// memory image the texture descriptors are read from (to learn a
	// texture's data address). All three are set by the platform builder.
	CorePort sim.Port
	L2       mem.LowModuleFinder
	Image    command.Memory
	// Observer, when set, is told of the L1's misses, fills and hits (the
	// coherence checker).
	Observer L1Observer

	client *memclient.Client

	l1            *timing.TagArray
	lineSize      uint64
	fetchBytes    uint64
	l1Latency     uint64
	filterLatency uint64

	inputBuf sim.Buffer

	// The requests in flight, oldest first: ring[(head+i) % len(ring)] for i
	// in [0, count). filtering counts the requests from the head that have
	// entered the filter.
	ring      []request
	head      int
	count     int
	filtering int
	nextSeq   uint64

	misses     []missEntry
	freeMisses []int
	unsent     []pendingRead // reads not sent yet, in allocation order
	fillQueue  []int         // entries whose reads all returned, waiting for the fill path
	ranges     []texture.ByteRange

	addrFreeAt   uint64 // first cycle the address stage can take a request
	filterFreeAt uint64 // first cycle the filter can take a request

	taps     []texture.Tap
	descAddr uint64 // the last descriptor read and its texture data address
	dataAddr uint64
	descOK   bool

	ctlOut *protocol.Done // the answer to a FlushCmd not sent yet

	// Per-tick flags for the activity.
	tagStalled, tagWorked, outputBlocked bool

	stats stats
}

// stats are the unit's statistics, named by their tags (Stats).
type stats struct {
	requests     uint64 `stat:"requests"`
	lanes        uint64 `stat:"lanes"`
	texels       uint64 `stat:"texels"`
	borderTexels uint64 `stat:"border_texels"`
	footprints   uint64 `stat:"footprints"`
	texelQuads   uint64 `stat:"texel_quads"`
	unbound      uint64 `stat:"unbound_requests"`
	lookups      uint64 `stat:"l1_lookups"`
	hits         uint64 `stat:"l1_hits"`
	misses       uint64 `stat:"l1_misses"`
	merged       uint64 `stat:"merged_misses"`
	texelHits    uint64 `stat:"texel_hits"`
	l2Reads      uint64 `stat:"l2_reads"`
	l2Bytes      uint64 `stat:"bytes_read_l2"`
	fillLines    uint64 `stat:"fill_lines"`
	fillUnits    uint64 `stat:"fill_units"`
	fillDecodes  uint64 `stat:"fill_decodes"`
	responses    uint64 `stat:"responses"`
	flushes      uint64 `stat:"flushes"`
	invalidated  uint64 `stat:"l1_invalidated_lines"`
	latencyMax   uint64 `stat:"max_request_latency"`
	latencySum   uint64
}

// Tick runs the stages back to front: response, filter, fill, miss send, tag
// lookup, address.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cy := c.Freq.Cycle(now)
	c.tagStalled, c.tagWorked, c.outputBlocked = false, false, false
	progress := c.control(now)
	progress = c.respond(now, cy) || progress
	progress = c.filter(cy) || progress
	progress = c.fill(now, cy) || progress
	progress = c.sendMisses(now) || progress
	progress = c.lookup(cy) || progress
	progress = c.accept(now, cy) || progress
	if c.Fault.Stopped() {
		return false
	}
	c.Activity.Set(cy, c.classify(cy))
	if progress && !c.quietAfter(cy) {
		return true
	}
	c.Waker.WakeForNext(now, cy, c.nextEvent(cy))
	return false
}

// quietAfter reports whether the tick of cycle cy+1 would do nothing and
// leave the activity in its state: no message waits in a port the sampler reads
// (a message that arrives wakes the sampler itself), no miss waits to be sent
// or filled, and no stage falls due by then. The sampler then sleeps through
// a multi-cycle address or filter step, as the shader core does between
// issues, instead of spending a tick on the cycle after it.
func (c *Comp) quietAfter(cy uint64) bool {
	next := cy + 1
	switch {
	case c.ctlOut != nil, c.Control.Peek() != nil, len(c.unsent) > 0, len(c.fillQueue) > 0, c.client.Waiting():
		return false // control, sendMisses or fill may progress
	case next >= c.addrFreeAt && c.count < len(c.ring) && c.Core.Peek() != nil:
		return false // accept may take a request
	case c.count > 0 && c.at(0).filtering && c.at(0).done <= next:
		return false // respond may send the oldest response
	}
	if next >= c.filterFreeAt && c.filtering < c.count {
		if r := c.at(c.filtering); r.addrDone <= next && r.looked == len(r.lines) && r.pending == 0 && r.dataReady <= next {
			return false // filter may start the next request
		}
	}
	for i := c.filtering; i < c.count; i++ {
		if r := c.at(i); r.looked < len(r.lines) {
			if r.addrDone <= next {
				return false // lookup may look its lines up
			}
			break
		}
	}
	// The state a tick at cy+1 would record: its stages would set none of
	// this tick's conditions (the next Tick resets them anyway).
	c.tagStalled, c.tagWorked, c.outputBlocked = false, false, false
	return c.classify(next) == c.Activity.State()
}

// at returns the i-th request in flight (0 is the oldest).
func (c *Comp) at(i int) *request { return &c.ring[(c.head+i)%len(c.ring)] }

// bySeq returns the request in flight with sequence number seq.
func (c *Comp) bySeq(seq uint64) *request {
	r := c.at(int(seq - c.at(0).seq))
	if r.seq != seq {
		panic(fmt.Sprintf("%s: request %d is not in flight", c.Name(), seq))
	}
	return r
}

// classify returns the activity state from cycle cy on.
func (c *Comp) classify(cy uint64) int {
	if c.tagStalled {
		return actStallMissQueue
	}
	if c.tagWorked || cy < c.addrFreeAt || cy < c.filterFreeAt {
		return actBusy
	}
	waiting := false
	for i := 0; i < c.count; i++ {
		r := c.at(i)
		switch {
		case r.filtering:
			if r.done > cy {
				return actBusy // in the filter pipeline
			}
		case r.pending > 0:
			waiting = true
		case r.addrDone > cy || r.looked < len(r.lines) || r.dataReady > cy:
			return actBusy // address generation, tag lookups or the L1 hit latency
		}
	}
	switch {
	case c.outputBlocked:
		return actBlockedOutput
	case waiting:
		return actWaitMemory
	case c.count > 0:
		return actBusy
	}
	return actIdle
}

// nextEvent returns the first cycle after cy at which a stage may progress
// without a message arriving, or ^uint64(0).
func (c *Comp) nextEvent(cy uint64) uint64 {
	next := timing.After(cy)
	if c.inputBuf.Size() > 0 {
		next.Consider(c.addrFreeAt)
	}
	for i := 0; i < c.count; i++ {
		r := c.at(i)
		next.Consider(r.addrDone)
		if r.filtering {
			next.Consider(r.done)
		} else if r.pending == 0 && r.looked == len(r.lines) {
			next.Consider(max(r.dataReady, c.filterFreeAt))
		}
	}
	return next.Cycle()
}

// fail stops the simulation with err (a malformed request or missing wiring).

// Stats implements timing.StatsReporter.
func (c *Comp) Stats(add func(name string, v float64)) {
	p := c.Name() + "."
	st := &c.stats
	timing.AddTagged(p, add, st)
	add(p+"hit_rate_line", timing.Ratio(st.hits, st.lookups))
	add(p+"hit_rate_texel", timing.Ratio(st.texelHits, st.texels))
	add(p+"misses_per_request", timing.Ratio(st.misses, st.requests))
	add(p+"misses_per_lane", timing.Ratio(st.misses, st.lanes))
	add(p+"misses_per_footprint", timing.Ratio(st.misses, st.footprints))
	add(p+"fill_bytes", float64(st.fillLines*c.lineSize))
	add(p+"avg_request_latency", timing.Ratio(st.latencySum, st.responses))
	c.Activity.Stats(c.Name(), add)
	c.client.Stats(c.Name()+".l2", add)
}

// Buffers implements timing.Buffered.
func (c *Comp) Buffers() []timing.BufferState {
	return []timing.BufferState{
		{Name: c.inputBuf.Name(), Len: c.inputBuf.Size(), Cap: c.inputBuf.Capacity()},
		{Name: c.Name() + ".Requests", Len: c.count, Cap: len(c.ring)},
		{Name: c.Name() + ".MissQueue", Len: len(c.misses) - len(c.freeMisses), Cap: len(c.misses)},
		{Name: c.Name() + ".UnsentReads", Len: len(c.unsent), Cap: 0},
		c.client.Buffer(c.Name() + ".ToL2Requests"),
	}
}

// Finish closes the activity accounting at time now.
func (c *Comp) Finish(now sim.VTimeInSec) {
	c.Activity.Finish(c.Freq.Cycle(now))
}

// traced reports whether a tracer is attached: tasks are reported (and their IDs
// built) only then (docs/design-timing.md, section 10). A texture_request task
// ("tex<msg ID>", below the core's req_out task of the TexRequest) spans a
// request from its acceptance to its response; the L2 reads of the miss-queue
// entries it allocated hang below it.
func (c *Comp) traced() bool { return c.NumHooks() > 0 }
