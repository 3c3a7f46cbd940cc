package rop

import (
	"fmt"
	"math/bits"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/rtcache"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/internal/enum"
	"github.com/gfxsim/gfxsim/timing"
)

// Activity states (timing.Activity indices).
const (
	stateBusy          = iota // accepted, looked up, blended, resolved or sent something, or blends are in the pipeline
	stateWaitLateZ            // the next quads wait for their late-Z response
	stateWaitMemory           // quads wait for colour lines, or a flush for its writes
	stateBlockedOutput        // a message waits for the depth unit or the command processor
	stateIdle                 // nothing to do
)

var activityNames = [...]string{"busy", "wait_late_z", "wait_memory", "blocked_output", "idle"}

// record is one message from the reorder buffer in flight through the ROP.
type record struct {
	draw     *protocol.Draw
	msg      *protocol.ShadedQuads   // nil for a DrawEnd marker (and for vis)
	vis      *protocol.ShadedSamples // visibility quads of 5D primitives (decoupled draws)
	live     []raster.SampleMask     // per quad: the samples to write (after the shader's kills and late Z)
	late     bool                    // the draw uses late Z
	req      *protocol.LateZReq      // late: the request, built at acceptance
	sent     bool                    // late: the request left
	answered bool                    // late: the response arrived (live is final)
	n        int                     // quads
	seq      uint64                  // the ROP's sequence number of the first quad (prefetch cursor)
	looked   int                     // quads whose lookup finished (or that need none)
	done     int                     // quads written or dropped
	task     string                  // tracing: the rop_write task's ID
}

func (r *record) final() bool { return !r.late || r.answered }

// drawEnd reports whether the record is a DrawEnd marker.
func (r *record) drawEnd() bool { return r.msg == nil && r.vis == nil }

// band is one row of tiles of the resolve.
type band struct {
	ty     int
	n      int  // quads looked up
	all    bool // every quad of the band was looked up
	done   int  // quads through the resolve pipeline
	lookTX int  // lookup cursor: tile column, quad position in the tile
	lookQX int
	lookQY int
}

// quadRec is a quad between its lookup and its blend (or resolve).
type quadRec struct {
	r       *record // nil for a resolve quad
	qi      int
	b       *band
	x, y    int
	pending int
	next    int
	looked  bool
}

// done is a quad in the blend pipeline.
type done struct {
	r *record
	b *band
}

// controlState is the progress of a PresentCmd or a FlushCmd.
type controlState uint8

const (
	controlNone      controlState = iota
	controlResolving              // a present: looking up and resolving the partition's tiles
	controlFlushing               // a present or a flush: writing back every dirty line
)

var controlStateNames = enum.Names[controlState]{Type: "controlState", Names: []string{"none", "resolving", "flushing"}}

func (s controlState) String() string { return controlStateNames.String(s) }

// counters are the unit's statistics, named by their tags (Stats).
type counters struct {
	messagesIn   uint64 `stat:"messages_in"`
	quadsIn      uint64 `stat:"quads_in"`
	visQuadsIn   uint64 `stat:"visibility_quads_in"`
	lateRequests uint64 `stat:"late_z_requests"`
	lateQuads    uint64 `stat:"late_z_quads"`
	drawEnds     uint64 `stat:"draw_ends"`
	drawDones    uint64 `stat:"draw_dones"`
	clears       uint64 `stat:"clears"`
	presents     uint64 `stat:"presents"`
	flushes      uint64 `stat:"flushes"`
	resolveQuads uint64 `stat:"resolve_quads"`
	resolveLines uint64 `stat:"resolve_lines"`
	resolveBytes uint64 `stat:"resolve_bytes"`
	// Compression tags of the lines the resolves read, after their flush.
	presentLines      uint64 `stat:"present_lines"`
	presentCompressed uint64 `stat:"present_lines_compressed"`
	presentCleared    uint64 `stat:"present_lines_cleared"`
}

// Comp is a ROP: the colour block of one partition's render back-end. See the
// package documentation.
type Comp struct {
	timing.Unit[Config]

	// FromReorderBuffer receives ShadedQuads and DrawEnd in API order.
	FromReorderBuffer sim.Port
	// DepthUnit sends LateZReq to the partition's depth unit and receives LateZRsp.
	DepthUnit sim.Port
	// ToMemory sends colour line reads, write-backs and the resolve's writes.
	ToMemory sim.Port
	// Control receives ClearCmd, PresentCmd and FlushCmd and sends Done and
	// DrawDone.
	Control sim.Port

	// DepthUnitPort is the depth unit's ROP port (set by the platform builder).
	DepthUnitPort sim.Port
	// CommandProcessor is the command processor's back-end port.
	CommandProcessor sim.Port
	// Memory finds the memory module of an address.
	Memory mem.LowModuleFinder
	// Image is the simulated memory image (the functional truth): render targets
	// are views of it, write-backs carry its bytes, and the resolve writes the
	// display buffer into it. Set by the platform builder before the run.
	Image state.Memory

	sender      timing.Sender // sends; Blocked: a ready message the receiver did not take
	inBuf       sim.Buffer
	cache       *rtcache.Cache
	lookRate    *timing.Rate
	blendRate   *timing.Rate
	sampleRate  *timing.Rate // visibility quads' (or, by samples, every quad's) blend rate in samples (nil: one quad's cost each)
	lineBuf     []uint64
	lineSamples []int  // samples of the quad in each line of lineBuf
	displayLine uint64 // bytes per display-line write of the resolve (the memory access unit)
	wakeFn      func(rtcache.Token)

	recs     []*record
	look     int // recs[look] is the first record with quads to look up
	lateSent int // late-Z requests waiting for their response
	wait     []quadRec
	wHead    int
	wLen     int
	pipe     *timing.Pipeline[done]
	quadSeq  uint64 // sequence number of the next quad accepted
	pfSeq    uint64 // the next quad the prefetcher looks at
	pfLine   int    // the next of its lines (a prefetch blocked mid-quad resumes there)

	ctlMsg   sim.Msg     // the command being carried out (a present or a flush)
	ctlOut   sim.Msg     // an acknowledgement waiting to be sent
	ctlTask  timing.Task // tracing: the control command's task
	ctlState controlState
	res      resolver

	// Per-tick conditions for the activity and the wake-ups.
	waitLate, lookBlocked, blendBlocked bool
	lookRateBlocked, blendRateBlocked   bool

	ws pipeline.WriteStats
	st counters
}

// Tick runs the stages from the back of the ROP to its front.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cycle := c.Freq.Cycle(now)
	c.waitLate, c.lookBlocked, c.blendBlocked, c.sender.Blocked = false, false, false, false
	c.lookRateBlocked, c.blendRateBlocked = false, false

	p := c.cache.Receive(now, c.wakeFn)
	p = c.receiveLateZ(now) || p
	p = c.drain(cycle) || p
	p = c.retire(now) || p
	p = c.blend(cycle) || p
	p = c.cache.Issue(now, c.Image) || p
	p = c.lookup(now, cycle) || p
	prefetched := c.prefetch(now)
	p = c.sendLateZ(now) || p
	p = c.accept(now) || p
	p = c.control(now) || p
	c.account(now, cycle, p) // a cycle that only sent prefetches is not busy
	return p || prefetched
}

func (c *Comp) wake(t rtcache.Token) { c.wait[int(t)].pending-- }

// receiveLateZ applies the late-Z responses, which come back in request order.
func (c *Comp) receiveLateZ(now sim.VTimeInSec) bool {
	progress := false
	for {
		msg := c.DepthUnit.Peek()
		if msg == nil {
			return progress
		}
		rsp, ok := msg.(*protocol.LateZRsp)
		if !ok {
			c.Fault.Fail(fmt.Errorf("DepthUnit port: unexpected message %T", msg))
			return false
		}
		var r *record
		for _, x := range c.recs {
			if x.late && x.sent && !x.answered {
				r = x
				break
			}
		}
		if r == nil || rsp.RspTo != r.req.ID || len(rsp.Pass) != r.n {
			c.Fault.Fail(fmt.Errorf("LateZRsp %s (to %s, %d masks) does not answer the oldest late-Z request in flight",
				rsp.ID, rsp.RspTo, len(rsp.Pass)))
			return false
		}
		c.DepthUnit.Retrieve(now)
		if c.traced() {
			tracing.EndTask(protocol.ReqOutTaskID(rsp.RspTo), c)
		}
		for i, pass := range rsp.Pass {
			if r.live[i].Empty() {
				continue // discarded by the shader: counted already
			}
			r.live[i] = r.live[i].And(pass)
			if r.live[i].Empty() {
				c.ws.QuadsLateZCulled++
				r.done++
			}
		}
		r.answered = true
		c.lateSent--
		progress = true
	}
}

// drain moves the quads whose blend (or resolve) finished out of the pipeline.
func (c *Comp) drain(cycle uint64) bool {
	progress := false
	for {
		d, ok := c.pipe.Peek(cycle)
		if !ok {
			return progress
		}
		c.pipe.Pop()
		if d.r != nil {
			d.r.done++
		} else {
			d.b.done++
		}
		progress = true
	}
}

// retire sends DrawDone for a DrawEnd at the head once every earlier quad is
// written, drops finished records, finishes the resolve's bands, and sends the
// control acknowledgement.
func (c *Comp) retire(now sim.VTimeInSec) bool {
	progress := false
	for len(c.recs) > 0 {
		r := c.recs[0]
		if r.drawEnd() {
			if !c.sender.Send(c.Control, c.CommandProcessor, protocol.NewDrawDone(r.draw, c.Cfg.Index), now) {
				break
			}
			c.st.drawDones++
		} else {
			if r.done < r.n || !r.final() {
				break // a late-Z record waits for its answer even when every quad was discarded
			}
			c.sender.Progress.Add(1)
			if r.task != "" {
				tracing.EndTask(r.task, c)
			}
		}
		copy(c.recs, c.recs[1:])
		c.recs[len(c.recs)-1] = nil
		c.recs = c.recs[:len(c.recs)-1]
		if c.look > 0 {
			c.look--
		}
		progress = true
		if r.drawEnd() {
			break // one DrawDone per cycle
		}
	}
	if c.ctlState == controlResolving {
		progress = c.finishBands() || progress
	}
	if c.ctlOut != nil && c.sender.Send(c.Control, c.CommandProcessor, c.ctlOut, now) {
		c.ctlTask.End(c)
		c.ctlOut = nil
		progress = true
	}
	return progress
}

// colorLines appends the distinct colour-cache lines of the samples in mask of
// the quad at (qx, qy), skipping samples outside the target.
func (c *Comp) colorLines(d *state.Draw, qx, qy int, mask raster.SampleMask, out []uint64) []uint64 {
	ct := d.Color
	return c.targetLines(ct.Width, ct.Height, ct.Format.BytesPerSample(), d.ColorDesc.Addr, ct.Address, qx, qy, mask, out)
}

// targetLines appends the distinct lines of the samples in mask (bps bytes
// each) and counts the quad's samples per line in lineSamples. A sample wider
// than a line (RGBA32F in lines under 16 bytes) touches every line it spans.
func (c *Comp) targetLines(w, h, bps int, base uint64, address func(x, y, s int) uint64, qx, qy int, mask raster.SampleMask,
	out []uint64) []uint64 {
	c.lineSamples = c.lineSamples[:0]
	size := c.cache.LineSize()
	for m := mask; !m.Empty(); {
		pix, s := m.Pop()
		x, y := qx+pix&1, qy+pix>>1
		if x < 0 || y < 0 || x >= w || y >= h {
			continue
		}
		a := base + address(x, y, s)
		for l := c.cache.Line(a); l < a+uint64(bps); l += size {
			dup := false
			for i, v := range out {
				if v == l {
					dup = true
					c.lineSamples[i]++
					break
				}
			}
			if !dup {
				out = append(out, l)
				c.lineSamples = append(c.lineSamples, 1)
			}
		}
	}
	return out
}

// quadLines returns the colour lines of the live samples of quad qi of
// record r (in lineBuf, with lineSamples).
func (c *Comp) quadLines(r *record, qi int) []uint64 {
	if r.vis != nil {
		v := &r.vis.Quads[qi]
		c.lineBuf = c.colorLines(r.draw.State, int(v.X), int(v.Y), r.live[qi], c.lineBuf[:0])
		return c.lineBuf
	}
	sq := &r.msg.Quads[qi]
	c.lineBuf = c.colorLines(r.draw.State, int(sq.Quad.X), int(sq.Quad.Y), r.live[qi], c.lineBuf[:0])
	return c.lineBuf
}

// recLines returns the lines of a waiting quad.
func (c *Comp) recLines(q *quadRec) []uint64 {
	if q.r != nil {
		return c.quadLines(q.r, q.qi)
	}
	t := c.res.target
	all := raster.FullPixels(15, t.Samples)
	c.lineBuf = c.targetLines(t.Width, t.Height, t.Format.BytesPerSample(), c.res.cmd.Target.Addr, t.Address, q.x, q.y, all, c.lineBuf[:0])
	return c.lineBuf
}

// lookupRec runs the lookups of a waiting quad's lines; false when it is blocked
// on memory (it resumes where it stopped).
func (c *Comp) lookupRec(now sim.VTimeInSec, slot int, q *quadRec) (bool, bool) {
	lines := c.recLines(q)
	full := c.overwriteSamples(q.r)
	changed := false
	if q.r == nil {
		for _, l := range lines[q.next:] {
			c.res.see(l, c.cache.LineSize())
		}
	}
	for q.next < len(lines) {
		var r rtcache.Result
		if full > 0 && c.lineSamples[q.next] == full {
			r = c.cache.AccessOverwrite(now, lines[q.next], rtcache.Token(slot))
		} else {
			r = c.cache.Access(now, lines[q.next], rtcache.Token(slot))
		}
		if r == rtcache.Blocked {
			return false, changed
		}
		changed = true
		if r.Pending() {
			q.pending++
		}
		q.next++
	}
	q.looked = true
	return true, true
}

// overwriteSamples returns how many of a quad's samples fill a whole colour line
// when the quads of record r overwrite what they write without reading the
// destination (blending off or not reading the destination, every channel
// written), or 0 when their lines must be read (blending, partial write masks,
// the resolve: r nil).
func (c *Comp) overwriteSamples(r *record) int {
	if r == nil {
		return 0
	}
	d := r.draw.State
	bt := &d.Blend.Targets[0]
	if bt.ReadsDestination() || bt.WriteMask&0xf != 0xf {
		return 0
	}
	bps := d.Color.Format.BytesPerSample()
	line := int(c.cache.LineSize())
	if line%bps != 0 {
		return 0
	}
	return line / bps
}

// newRec returns the slot and record of the quad being looked up: the tail when
// its lookup was blocked, else a new record (nil when the ring is full).
func (c *Comp) newRec() (int, *quadRec, bool) {
	if c.wLen > 0 {
		slot := (c.wHead + c.wLen - 1) % len(c.wait)
		if q := &c.wait[slot]; !q.looked {
			return slot, q, true
		}
	}
	if c.wLen == len(c.wait) {
		return -1, nil, false
	}
	slot := (c.wHead + c.wLen) % len(c.wait)
	c.wLen++
	c.wait[slot] = quadRec{}
	return slot, &c.wait[slot], false
}

// claimRec returns the wait-window record for the next look-up (newRec) when
// the look-up rate allows one more this cycle and the window has room; ok
// false ends the cycle's look-ups (lookRateBlocked tells a rate stall).
func (c *Comp) claimRec() (slot int, q *quadRec, resumed, ok bool) {
	if !c.lookRate.OK() {
		c.lookRateBlocked = true
		return -1, nil, false, false
	}
	slot, q, resumed = c.newRec()
	return slot, q, resumed, q != nil
}

// lookRec looks record q up (lookupRec) and, when the cache took it, spends a
// look-up of the cycle's rate; ok false (lookBlocked) ends the cycle's
// look-ups.
func (c *Comp) lookRec(now sim.VTimeInSec, slot int, q *quadRec) (ok, changed bool) {
	ok, changed = c.lookupRec(now, slot, q)
	if !ok {
		c.lookBlocked = true
		return false, changed
	}
	c.lookRate.Take(1)
	return true, changed
}

// lookup brings the colour lines of the next quads into the cache, in order, at
// QuadsPerCycle quads per cycle.
func (c *Comp) lookup(now sim.VTimeInSec, cycle uint64) bool {
	c.lookRate.Refill(cycle)
	if c.ctlState == controlResolving {
		if c.traced() {
			c.cache.SetCause(c.ctlTask.ID)
		}
		return c.lookupResolve(now)
	}
	progress := false
	for c.look < len(c.recs) {
		r := c.recs[c.look]
		if r.looked == r.n {
			c.look++
			continue
		}
		if !r.final() {
			c.waitLate = true
			break
		}
		if r.live[r.looked].Empty() {
			r.looked++
			continue
		}
		slot, q, resumed, ok := c.claimRec()
		if !ok {
			break
		}
		if !resumed {
			q.r, q.qi = r, r.looked
		}
		if c.traced() {
			c.cache.SetCause(q.r.task)
		}
		ok, changed := c.lookRec(now, slot, q)
		progress = progress || changed
		if !ok {
			break
		}
		r.looked++
	}
	return progress
}

// prefetch reads ahead the colour lines of the quad at the lookup cursor and
// of the PrefetchDistance quads after it (in the order they arrived, within
// the window), skipping the lines a quad overwrites whole; a line present,
// being read or fast-cleared needs nothing, and a read is sent only while more
// than PrefetchReserve memory-request slots stay free (rtcache.Cache.Prefetch).
// A prefetch blocked mid-quad resumes at the same line. It reports whether a
// read was sent.
func (c *Comp) prefetch(now sim.VTimeInSec) bool {
	if c.Cfg.PrefetchDistance == 0 || c.ctlState != controlNone || c.look >= len(c.recs) {
		return false
	}
	head := c.recs[c.look]
	start := head.seq + uint64(head.looked)
	if c.pfSeq < start {
		c.pfSeq, c.pfLine = start, 0
	}
	end := start + uint64(c.Cfg.PrefetchDistance) + 1
	progress := false
	i := c.look
	for c.pfSeq < end {
		for i < len(c.recs) && c.recs[i].seq+uint64(c.recs[i].n) <= c.pfSeq {
			i++
		}
		if i == len(c.recs) {
			break // the quad has not arrived yet
		}
		r := c.recs[i]
		if qi := int(c.pfSeq - r.seq); !r.live[qi].Empty() {
			done, issued := c.prefetchQuad(now, r, qi)
			progress = progress || issued
			if !done {
				break
			}
		}
		c.pfSeq++
		c.pfLine = 0
	}
	return progress
}

// prefetchQuad prefetches the lines of quad qi of record r from pfLine on; it
// reports whether it went through them all and whether a read was sent.
func (c *Comp) prefetchQuad(now sim.VTimeInSec, r *record, qi int) (done, issued bool) {
	lines := c.quadLines(r, qi)
	full := c.overwriteSamples(r)
	if c.traced() {
		c.cache.SetCause(r.task)
	}
	for ; c.pfLine < len(lines); c.pfLine++ {
		if full > 0 && c.lineSamples[c.pfLine] == full {
			continue // written whole without a read
		}
		switch c.cache.Prefetch(now, lines[c.pfLine], c.Cfg.PrefetchReserve) {
		case rtcache.PrefetchBlocked:
			return false, issued
		case rtcache.PrefetchIssued:
			issued = true
		}
	}
	return true, issued
}

// blend writes the quads whose lines are present, in order, at QuadsPerCycle
// quads per cycle; they leave the pipeline BlendLatency cycles later.
func (c *Comp) blend(cycle uint64) bool {
	c.blendRate.Refill(cycle)
	if c.sampleRate != nil {
		c.sampleRate.Refill(cycle)
	}
	progress := false
	for c.wLen > 0 {
		q := &c.wait[c.wHead]
		if !q.looked || q.pending > 0 {
			break
		}
		br := c.blendRate
		if c.sampleRate != nil && q.r != nil && (q.r.vis != nil || c.Cfg.Costs.Model == CostBySamples) {
			br = c.sampleRate
		}
		if !br.OK() {
			c.blendRateBlocked = true
			break
		}
		if !c.pipe.CanAccept(cycle) {
			break
		}
		cost := 1
		if q.r != nil {
			r := q.r
			lines := c.recLines(q)
			if !c.cache.CanWrite(len(lines)) {
				c.blendBlocked = true
				break
			}
			d := r.draw.State
			switch {
			case c.Cfg.Costs.Model == CostBySamples:
				cost = c.Cfg.Costs.quadCost(d, r.live[q.qi])
			case br == c.sampleRate:
				cost = r.live[q.qi].Count()
			}
			if r.vis != nil {
				c.blendSamples(d, &r.vis.Quads[q.qi], r.live[q.qi])
			} else {
				sq := &r.msg.Quads[q.qi]
				pipeline.BlendQuad(d, sq.Quad, r.live[q.qi], &sq.Out, &c.ws)
			}
			c.ws.QuadsWritten++
			if d.Blend.Targets[0].WriteMask != 0 {
				if c.traced() {
					c.cache.SetCause(r.task)
				}
				for _, l := range lines {
					c.cache.Write(l)
				}
			}
			c.pipe.Accept(cycle, done{r: r})
		} else {
			c.pipe.Accept(cycle, done{b: q.b})
			c.st.resolveQuads++
		}
		c.wait[c.wHead] = quadRec{}
		c.wHead = (c.wHead + 1) % len(c.wait)
		c.wLen--
		br.Take(cost)
		progress = true
	}
	return progress
}

// blendSamples blends the samples in live of visibility quad v (its kept
// samples that passed late Z), each with its reconstructed colour
// (pipeline.BlendSample), as the reference renderer's writeVisibility.
func (c *Comp) blendSamples(d *state.Draw, v *protocol.ShadedVisibilityQuad, live raster.SampleMask) {
	k := 0
	for pix := 0; pix < 4; pix++ {
		x, y := int(v.X)+pix&1, int(v.Y)+pix>>1
		for m := v.Kept[pix]; m != 0; m &= m - 1 {
			s := bits.TrailingZeros64(m)
			if live[pix]>>uint(s)&1 != 0 {
				pipeline.BlendSample(d, x, y, s, v.Colors[k], &c.ws)
			}
			k++
		}
	}
}

// newRecord points the colour cache at draw's render target and starts the
// record of a message of n quads, with its late-Z quads when the draw tests
// depth after shading.
func (c *Comp) newRecord(draw *protocol.Draw, n int) (*record, []protocol.LateZQuad) {
	d := draw.State
	c.cache.SetSurface(rtcache.Surface{Base: d.ColorDesc.Addr, Size: d.Color.SizeBytes(),
		Samples: d.Color.Samples, BytesPerSample: d.Color.Format.BytesPerSample()})
	r := &record{draw: draw, n: n, live: make([]raster.SampleMask, n), late: !d.EarlyZ}
	var lq []protocol.LateZQuad
	if r.late {
		lq = make([]protocol.LateZQuad, n)
	}
	return r, lq
}

// enqueue finishes record r of message id: its late-Z request (from lq, for
// a late-Z draw), its place in the window, its trace task (n what) and the
// input counters.
func (c *Comp) enqueue(r *record, lq []protocol.LateZQuad, id, what string) {
	if r.late {
		r.req = protocol.NewLateZReq(r.draw, lq)
	}
	r.seq = c.quadSeq
	c.quadSeq += uint64(r.n)
	c.recs = append(c.recs, r)
	if c.traced() {
		r.task = "rop" + id
		tracing.StartTask(r.task, protocol.DrawTaskID(r.draw.Seq), c, protocol.KindROPWrite,
			protocol.Count(r.n, what), nil)
	}
	c.st.messagesIn++
	c.st.quadsIn += uint64(r.n)
}

// sendLateZ sends the next late-Z request, in order, while fewer than
// LateZInFlight wait for their response.
func (c *Comp) sendLateZ(now sim.VTimeInSec) bool {
	if c.lateSent >= c.Cfg.LateZInFlight {
		return false
	}
	for _, r := range c.recs {
		if !r.late || r.sent {
			continue
		}
		if !c.sender.Send(c.DepthUnit, c.DepthUnitPort, r.req, now) {
			return false
		}
		if c.traced() {
			tracing.TraceReqInitiate(r.req, c, r.task)
		}
		r.sent = true
		c.lateSent++
		c.st.lateRequests++
		c.st.lateQuads += uint64(r.n)
		return true
	}
	return false
}

// accept takes one message from the reorder buffer when the window has room:
// the shader's kills are applied (pipeline.Survivors) and, for a late-Z draw, the
// late-Z request is built.
func (c *Comp) accept(now sim.VTimeInSec) bool {
	if c.ctlMsg != nil || c.ctlOut != nil || len(c.recs) >= c.Cfg.Window {
		return false
	}
	msg := c.FromReorderBuffer.Peek()
	if msg == nil {
		return false
	}
	switch m := msg.(type) {
	case *protocol.ShadedQuads:
		if m.Draw == nil || m.Draw.State == nil || m.Draw.State.Color == nil {
			c.Fault.Fail(fmt.Errorf("FromReorderBuffer: ShadedQuads %s without a draw or colour target", m.ID))
			return false
		}
		c.FromReorderBuffer.Retrieve(now)
		n := len(m.Quads)
		r, lq := c.newRecord(m.Draw, n)
		r.msg = m
		for i := range m.Quads {
			q := &m.Quads[i]
			r.live[i] = pipeline.Survivors(q.Live, &q.Out, &c.ws)
			if r.live[i].Empty() {
				c.ws.QuadsDiscarded++
				r.done++
			}
			if r.late {
				lq[i] = protocol.LateZQuad{Prim: q.Prim, Quad: q.Quad, Live: r.live[i], Out: &q.Out}
			}
		}
		c.enqueue(r, lq, m.ID, "quads")
	case *protocol.ShadedSamples:
		if err := checkShadedSamples(m); err != nil {
			c.Fault.Fail(err)
			return false
		}
		c.FromReorderBuffer.Retrieve(now)
		c.acceptSamples(m)
	case *protocol.DrawEnd:
		if m.Draw == nil {
			c.Fault.Fail(fmt.Errorf("FromReorderBuffer: DrawEnd %s without a draw", m.ID))
			return false
		}
		c.FromReorderBuffer.Retrieve(now)
		c.recs = append(c.recs, &record{draw: m.Draw, seq: c.quadSeq})
		c.st.drawEnds++
	default:
		c.Fault.Unexpected(c.FromReorderBuffer, msg)
		return false
	}
	return true
}

// control carries out clears, presents and flushes once every earlier message
// is done.
func (c *Comp) control(now sim.VTimeInSec) bool {
	if c.ctlMsg != nil {
		return c.controlStep()
	}
	if c.ctlOut != nil || len(c.recs) > 0 {
		return false
	}
	msg := c.Control.Peek()
	if msg == nil {
		return false
	}
	switch m := msg.(type) {
	case *protocol.ClearCmd:
		c.Control.Retrieve(now)
		if c.traced() {
			c.startControlTask(protocol.KindClear, m.ID)
		}
		if m.Flags&command.ClearColor != 0 {
			if f := framebuffer.ColorFormat(m.Target.Format); f.Valid() {
				c.cache.SetSurface(rtcache.Surface{Base: m.Target.Addr, Size: m.Size,
					Samples: int(m.Target.Samples), BytesPerSample: f.BytesPerSample()})
			}
			c.cache.Clear(m.Target.Addr, m.Target.Addr+m.Size)
		}
		c.st.clears++
		c.ctlOut = protocol.NewDone(m.ID, c.Cfg.Index)
	case *protocol.PresentCmd:
		if err := c.startResolve(m); err != nil {
			c.Fault.Fail(err)
			return false
		}
		c.Control.Retrieve(now)
		if c.traced() {
			c.startControlTask(protocol.KindResolve, m.ID)
		}
		c.st.presents++
		c.ctlMsg = m
		c.ctlState = controlResolving
	case *protocol.FlushCmd:
		c.Control.Retrieve(now)
		if c.traced() {
			c.startControlTask(protocol.KindFlush, m.ID)
		}
		c.st.flushes++
		c.cache.Flush()
		c.ctlMsg = m
		c.ctlState = controlFlushing
	default:
		c.Fault.Unexpected(c.Control, msg)
		return false
	}
	return true
}

// controlStep moves a present from the resolve to the flush to its Done, and
// a flush to its Done (dropping every colour line first when it invalidates).
func (c *Comp) controlStep() bool {
	switch c.ctlState {
	case controlResolving:
		if !c.res.finished() {
			return false
		}
		if c.traced() {
			c.cache.SetCause(c.ctlTask.ID)
		}
		c.cache.Flush()
		c.ctlState = controlFlushing
		return true
	case controlFlushing:
		if !c.cache.Idle() {
			return false
		}
		switch m := c.ctlMsg.(type) {
		case *protocol.PresentCmd:
			c.countPresentLines()
		case *protocol.FlushCmd:
			if m.Invalidate {
				if _, err := c.cache.Invalidate(); err != nil {
					c.Fault.Fail(fmt.Errorf("FlushCmd %s: %w", m.ID, err))
					return false
				}
			}
		}
		c.ctlOut = protocol.NewDone(c.ctlMsg.Meta().ID, c.Cfg.Index)
		c.ctlMsg = nil
		c.ctlState = controlNone
		c.res = resolver{}
		return true
	}
	return false
}

func (c *Comp) waiting() bool {
	for k := 0; k < c.wLen; k++ {
		if c.wait[(c.wHead+k)%len(c.wait)].pending > 0 {
			return true
		}
	}
	return false
}

// account updates the activity and schedules the next wake-up when the ROP
// goes to sleep.
func (c *Comp) account(now sim.VTimeInSec, cycle uint64, progress bool) {
	state := stateIdle
	switch {
	case progress:
		state = stateBusy
	case c.sender.Blocked: // a ready message that the receiver did not take
		state = stateBlockedOutput
	case c.pipe.Len() > 0: // blends still within their latency
		state = stateBusy
	case c.lookBlocked || c.blendBlocked || c.waiting() || c.ctlState == controlFlushing ||
		(c.ctlState == controlResolving && c.cache.WritesQueued() > 0):
		state = stateWaitMemory
	case c.waitLate:
		state = stateWaitLateZ
	}
	c.Activity.Set(cycle, state)
	if progress {
		return
	}
	next := ^uint64(0)
	if r, ok := c.pipe.NextReady(); ok {
		next = r
	}
	if c.blendRateBlocked {
		next = min(next, c.blendRate.Next(cycle))
		if c.sampleRate != nil {
			next = min(next, c.sampleRate.Next(cycle))
		}
	}
	if c.lookRateBlocked {
		next = min(next, c.lookRate.Next(cycle))
	}
	c.Waker.WakeForNext(now, cycle, next)
}

// Buffers reports the input port, the messages in flight, the quads waiting for
// lines, the blend pipeline and the cache's memory queues.
func (c *Comp) Buffers() []timing.BufferState {
	n := c.Name()
	b := []timing.BufferState{
		{Name: c.FromReorderBuffer.Name(), Len: c.inBuf.Size(), Cap: c.inBuf.Capacity()},
		{Name: n + ".Window", Len: len(c.recs), Cap: c.Cfg.Window},
		{Name: n + ".LateZRequests", Len: c.lateSent, Cap: c.Cfg.LateZInFlight},
		{Name: n + ".Wait", Len: c.wLen, Cap: len(c.wait)},
		{Name: n + ".Blends", Len: c.pipe.Len(), Cap: c.pipe.Latency * c.pipe.Width},
	}
	return append(b, c.cache.Buffers(n+".ColorCache")...)
}

// WriteStats returns the output merger's counts, as pipeline.WriteQuad counts
// them (Passed and Failed stay zero: the depth unit tests).
func (c *Comp) WriteStats() pipeline.WriteStats { return c.ws }

// Stats reports the counters (see the package documentation).
func (c *Comp) Stats(add func(name string, v float64)) {
	n := c.Name() + "."
	s := &c.st
	timing.AddTagged(n, add, s)
	// The output merger's counts, as pipeline.WriteQuad counts them.
	add(n+"samples_killed", float64(c.ws.Killed))
	add(n+"samples_written", float64(c.ws.Written))
	add(n+"samples_blended", float64(c.ws.Blended))
	add(n+"quads_written", float64(c.ws.QuadsWritten))
	add(n+"quads_discarded", float64(c.ws.QuadsDiscarded))
	add(n+"quads_late_z_culled", float64(c.ws.QuadsLateZCulled))
	add(n+"present_compressed_fraction", timing.Ratio(s.presentCompressed, s.presentLines))
	timing.AddTagged(n+"prefetch_", add, c.cache.PrefetchCounters())
	c.cache.Stats(c.Name(), add)
	c.Activity.Stats(c.Name(), add)
}

// ObserveWrites installs f, called with every line of the unit's cache that
// a write makes dirty (address and size in bytes): the coherence checker's
// view of writes completing in this write-back cache. nil removes it.
func (c *Comp) ObserveWrites(f func(line, size uint64)) { c.cache.SetWriteHook(f) }
