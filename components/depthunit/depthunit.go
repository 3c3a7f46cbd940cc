package depthunit

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/rtcache"
	"github.com/gfxsim/gfxsim/functional/command"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/timing"
)

// Activity states (timing.Activity indices).
const (
	stateBusy          = iota // accepted, looked up, tested or sent something, or tests are in the pipeline
	stateWaitMemory           // quads wait for depth lines, or a flush waits for its writes
	stateLateZDrain           // an early-Z quad waits for late-Z quads of earlier draws
	stateBlockedOutput        // a finished message waits for the packer (or the ROP, the command processor)
	stateIdle                 // nothing to do
)

var activityNames = [...]string{"busy", "wait_memory", "late_z_drain", "blocked_output", "idle"}

// workKind says what a message in flight through the unit asks for.
type workKind uint8

const (
	workEarly   workKind = iota // tile of an early-Z draw: test, send the survivors
	workPass                    // tile of a late-Z draw: pass through untested
	workDrawEnd                 // a DrawEnd that came from every rasterizer
	workLate                    // a late-Z request from the ROP
)

// work is one message in flight through the unit, from acceptance to output.
type work struct {
	kind   workKind
	draw   *protocol.Draw
	tile   *protocol.TileQuads // workEarly, workPass
	req    *protocol.LateZReq  // workLate
	n      int                 // quads to test
	looked int                 // quads whose lookup finished
	done   int                 // quads with a result
	out    []protocol.QuadLive // workEarly: the survivors, in order
	pass   []raster.SampleMask // workLate: the pass mask of every quad
	task   string              // tracing: the tile or late_z task's ID
}

// quad returns quad i of the work and the samples to test.
func (w *work) quad(i int) (*pipeline.Primitive, raster.Quad, raster.SampleMask) {
	if w.kind == workLate {
		q := &w.req.Quads[i]
		return q.Prim, q.Quad, q.Live
	}
	q := &w.tile.Quads[i]
	return w.tile.Prim, q.Quad, q.Live
}

// quadRec is a quad between its lookup and its test.
type quadRec struct {
	w       *work
	qi      int
	pending int  // line reads it waits for
	next    int  // lines looked up so far (a lookup blocked on memory resumes there)
	looked  bool // every line was looked up
}

// result is a tested quad in the test pipeline.
type result struct {
	w    *work
	qi   int
	mask raster.SampleMask
}

// stream is one of the two request streams: early work from the rasterizers,
// late-Z requests from the ROP. Each has its works in order, a ring of quads
// waiting for their lines and a test pipeline.
type stream struct {
	late  bool
	works []*work
	look  int // works[look] is the first work with quads to look up
	wait  []quadRec
	wHead int
	wLen  int
	pipe  *timing.Pipeline[result]
}

func newStream(late bool, waitQuads, latency, width int) *stream {
	return &stream{late: late, wait: make([]quadRec, waitQuads), pipe: timing.NewPipeline[result](latency, width)}
}

func (s *stream) head() *quadRec {
	if s.wLen == 0 {
		return nil
	}
	return &s.wait[s.wHead]
}

func (s *stream) popWait() {
	s.wait[s.wHead] = quadRec{}
	s.wHead = (s.wHead + 1) % len(s.wait)
	s.wLen--
}

// lookupRec returns the slot and record of the next quad of w to look up: the
// record of a lookup that was blocked, or a new record (-1 when the ring is full).
func (s *stream) lookupRec(w *work) (int, *quadRec) {
	if s.wLen > 0 {
		slot := (s.wHead + s.wLen - 1) % len(s.wait)
		if r := &s.wait[slot]; !r.looked {
			return slot, r
		}
	}
	if s.wLen == len(s.wait) {
		return -1, nil
	}
	slot := (s.wHead + s.wLen) % len(s.wait)
	s.wLen++
	s.wait[slot] = quadRec{w: w, qi: w.looked}
	return slot, &s.wait[slot]
}

// nextLookup returns the first work with quads left to look up.
func (s *stream) nextLookup() *work {
	for s.look < len(s.works) {
		if w := s.works[s.look]; w.looked < w.n {
			return w
		}
		s.look++
	}
	return nil
}

func (s *stream) popWork() {
	copy(s.works, s.works[1:])
	s.works[len(s.works)-1] = nil
	s.works = s.works[:len(s.works)-1]
	if s.look > 0 {
		s.look--
	}
}

func (s *stream) waiting() bool {
	for k := 0; k < s.wLen; k++ {
		if s.wait[(s.wHead+k)%len(s.wait)].pending > 0 {
			return true
		}
	}
	return false
}

// lateBit marks the tokens of the late stream's wait ring.
const lateBit rtcache.Token = 1 << 31

// drawCount counts something per draw (DrawEnd markers received, late-Z quads
// outstanding), in draw order.
type drawCount struct {
	seq uint64
	n   int
}

// counters are the unit's statistics, named by their tags (Stats).
type counters struct {
	tilesIn      uint64 `stat:"tiles_in"`
	quadsIn      uint64 `stat:"quads_in"`
	tilesOut     uint64 `stat:"tiles_out"`
	quadsOut     uint64 `stat:"quads_out"`
	tilesCulled  uint64 `stat:"tiles_culled"`
	passTiles    uint64 `stat:"pass_through_tiles"`
	passQuads    uint64 `stat:"pass_through_quads"`
	bypassed     uint64 `stat:"bypassed"` // earlier draws' work sent past a waiting early-Z tile
	samplesEarly uint64 `stat:"samples_tested_early"`
	samplesLate  uint64 `stat:"samples_tested_late"`
	passed       uint64 `stat:"samples_passed"`
	failed       uint64 `stat:"samples_failed"`
	quadsCulled  uint64 `stat:"quads_culled_early_z"`
	lateRequests uint64 `stat:"late_z_requests"`
	lateQuads    uint64 `stat:"late_z_quads"`
	drawEndsIn   uint64 `stat:"draw_ends_in"`
	drawEndsOut  uint64 `stat:"draw_ends_out"`
	clears       uint64 `stat:"clears"`
	presents     uint64 `stat:"presents"`
	flushes      uint64 `stat:"flushes"`
	fbMessages   uint64 `stat:"feedback_messages"`
	fbTiles      uint64 `stat:"feedback_tiles"`
	fbDropped    uint64 `stat:"feedback_dropped"`
}

// Comp is a depth unit: the depth/stencil block of one partition's render
// back-end. See the package documentation.
type Comp struct {
	timing.Unit[Config]

	// FromRasterizers receives TileQuads and DrawEnd from every rasterizer.
	FromRasterizers sim.Port
	// ToQuadPacker sends the surviving TileQuads and the DrawEnd markers.
	ToQuadPacker sim.Port
	// ROP receives LateZReq from the partition's ROP and sends LateZRsp.
	ROP sim.Port
	// ToMemory sends depth line reads and write-backs.
	ToMemory sim.Port
	// Control receives ClearCmd, PresentCmd and FlushCmd and sends Done.
	Control sim.Port
	// ToHiZ sends HiZFeedback and the relayed HiZControl to the partition's
	// HiZ unit (unused without one).
	ToHiZ sim.Port

	// QuadPacker is the packer's input port (set by the platform builder).
	QuadPacker sim.Port
	// ROPPort is the partition's ROP port that sends late-Z requests.
	ROPPort sim.Port
	// CommandProcessor is the command processor's back-end port.
	CommandProcessor sim.Port
	// Memory finds the memory module of an address.
	Memory mem.LowModuleFinder
	// Image is the simulated memory image (the functional truth); write-backs
	// carry its bytes. Set by the platform builder before the run.
	Image state.Memory
	// HiZ is the HiZ unit's FromDepthUnit port, or nil when the partition has
	// no HiZ unit (then FromRasterizers is fed by the rasterizers directly).
	HiZ sim.Port

	sender         timing.Sender // sends; Blocked: a ready message the receiver did not take
	inBuf, lateBuf sim.Buffer
	cache          *rtcache.Cache
	early, late    *stream
	lookRate       *timing.Rate
	testRate       *timing.Rate
	lineBuf        []uint64
	wakeFn         func(rtcache.Token)

	drawEnds []drawCount // DrawEnd markers received per draw, until all arrived
	lateOut  []drawCount // late-Z quads passed through and not answered, per draw

	ctlMsg  sim.Msg        // the control command being carried out (a flush)
	ctlDone *protocol.Done // the acknowledgement waiting to be sent
	ctlTask timing.Task    // tracing: the control command's task

	hizCfg     fhiz.Config // Mode Off: no HiZ unit
	toHiZ      []sim.Msg   // feedback and relayed control, in order
	hizPending bool        // a relayed control waits for the HiZ unit's Done
	targets    []*target
	maxPos     fhiz.Pos // the latest API position tested
	fbSeen     []int

	// Per-tick conditions for the activity and the wake-ups.
	hazard, lookBlocked, testBlocked bool
	lookRateBlocked, testRateBlocked bool

	st counters
}

// Tick runs the stages from the back of the unit to its front.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cycle := c.Freq.Cycle(now)
	c.hazard, c.lookBlocked, c.testBlocked, c.sender.Blocked = false, false, false, false
	c.lookRateBlocked, c.testRateBlocked = false, false

	p := c.cache.Receive(now, c.wakeFn)
	p = c.drain(cycle) || p
	p = c.output(now) || p
	p = c.sendHiZ(now) || p
	p = c.test(now, cycle) || p
	p = c.cache.Issue(now, c.Image) || p
	p = c.lookup(now, cycle) || p
	p = c.accept(now) || p
	p = c.control(now) || p
	c.account(now, cycle, p)
	return p
}

func (c *Comp) wake(t rtcache.Token) {
	s := c.early
	if t&lateBit != 0 {
		s = c.late
	}
	s.wait[int(t&^lateBit)].pending--
}

// drain moves finished tests out of the pipelines into their works.
func (c *Comp) drain(cycle uint64) bool {
	progress := false
	for _, s := range [2]*stream{c.late, c.early} {
		for {
			r, ok := s.pipe.Peek(cycle)
			if !ok {
				break
			}
			s.pipe.Pop()
			progress = true
			w := r.w
			w.done++
			if s.late {
				w.pass[r.qi] = r.mask
				continue
			}
			if r.mask.Empty() {
				c.st.quadsCulled++
				continue
			}
			w.out = append(w.out, protocol.QuadLive{Quad: w.tile.Quads[r.qi].Quad, Live: r.mask})
		}
	}
	return progress
}

// output sends, in order, the late-Z response at the head of the late stream,
// one message of the early stream, and the control acknowledgement.
func (c *Comp) output(now sim.VTimeInSec) bool {
	progress := false
	if s := c.late; len(s.works) > 0 {
		if w := s.works[0]; w.done == w.n {
			if c.sender.Send(c.ROP, c.ROPPort, protocol.NewLateZRsp(w.req, w.pass), now) {
				c.endTask(w)
				s.popWork()
				c.lateAnswered(w.draw.Seq, w.n)
				progress = true
			}
		}
	}
	for s := c.early; len(s.works) > 0; {
		w := s.works[0]
		if w.kind == workEarly && w.done < w.n {
			return c.bypass(now) || c.sendDone(now) || progress
		}
		if w.kind == workEarly && len(w.out) == 0 {
			c.st.tilesCulled++
			c.endTask(w)
			s.popWork()
			progress = true
			continue
		}
		if !c.sender.Send(c.ToQuadPacker, c.QuadPacker, c.outMsg(w), now) {
			break
		}
		c.sent(w)
		s.popWork()
		progress = true
		break
	}
	return c.sendDone(now) || progress
}

// outMsg returns the message that carries early-stream work w (not an empty
// early tile) to the quad packer.
func (c *Comp) outMsg(w *work) sim.Msg {
	switch w.kind {
	case workEarly:
		t := w.tile
		m := protocol.NewTileQuads(t.Draw, t.Prim, t.TileX, t.TileY, c.Cfg.Index, w.out)
		m.Window = t.Window
		return m
	case workPass:
		t := w.tile
		m := protocol.NewTileQuads(t.Draw, t.Prim, t.TileX, t.TileY, c.Cfg.Index, t.Quads)
		m.Window = t.Window
		return m
	}
	return protocol.NewDrawEnd(w.draw, c.Cfg.Index)
}

// sent counts early-stream work w sent and ends its task.
func (c *Comp) sent(w *work) {
	switch w.kind {
	case workEarly:
		c.st.tilesOut++
		c.st.quadsOut += uint64(len(w.out))
	case workPass:
		c.st.tilesOut++
		c.st.quadsOut += uint64(len(w.tile.Quads))
	case workDrawEnd:
		c.st.drawEndsOut++
	}
	c.endTask(w)
}

// bypass sends, past an early-Z tile at the head of the window that waits for
// the late Z of an earlier draw, the pass-through tiles and DrawEnds of earlier
// draws queued behind it, in order. Without it the frame stalls when one
// rasterizer runs ahead: the later draw's tile, from one rasterizer, fills the
// head of the window while the earlier draw's late-Z tiles, from another, wait
// behind it. The two come from different rasterizers, so they cover different
// raster tiles and the order of each pixel's work is kept.
func (c *Comp) bypass(now sim.VTimeInSec) bool {
	s := c.early
	head := s.works[0]
	if !c.lateBefore(head.draw.Seq) {
		return false
	}
	for i := 1; i < len(s.works); {
		w := s.works[i]
		if w.draw.Seq >= head.draw.Seq || w.kind == workEarly {
			i++
			continue
		}
		if !c.sender.Send(c.ToQuadPacker, c.QuadPacker, c.outMsg(w), now) {
			return false
		}
		c.sent(w)
		c.st.bypassed++
		s.works = append(s.works[:i], s.works[i+1:]...)
		if i < s.look {
			s.look--
		}
		return true // one message per cycle, as from the head
	}
	return false
}

// sendHiZ sends the queued feedback and relayed control to the HiZ unit, in
// order.
func (c *Comp) sendHiZ(now sim.VTimeInSec) bool {
	progress := false
	for len(c.toHiZ) > 0 {
		if !c.sender.Send(c.ToHiZ, c.HiZ, c.toHiZ[0], now) {
			break
		}
		if _, ok := c.toHiZ[0].(*protocol.HiZControl); ok && c.traced() {
			tracing.TraceReqInitiate(c.toHiZ[0], c, c.ctlTask.ID)
		}
		c.toHiZ[0] = nil
		c.toHiZ = c.toHiZ[1:]
		progress = true
	}
	if len(c.toHiZ) == 0 {
		c.toHiZ = nil
	}
	return progress
}

func (c *Comp) sendDone(now sim.VTimeInSec) bool {
	if c.ctlDone == nil || !c.sender.Send(c.Control, c.CommandProcessor, c.ctlDone, now) {
		return false
	}
	c.ctlTask.End(c)
	c.ctlDone = nil
	return true
}

// testApplies reports whether the draw's quads read the depth target.
func testApplies(d *state.Draw) bool {
	return d.DepthBuf != nil && (d.Depth.DepthEnable || d.Depth.StencilEnable)
}

// samplesTested is the test cost of a quad: its samples when the test applies.
func samplesTested(d *state.Draw, mask raster.SampleMask) int {
	if !testApplies(d) {
		return 0
	}
	return mask.Count()
}

// depthLines appends the distinct depth-cache lines the samples in mask of quad
// q read: the depth words (D24S8: with the stencil bytes) when the depth test
// is on or the format interleaves stencil, and the D32F stencil-plane bytes
// when stencil is on.
func (c *Comp) depthLines(d *state.Draw, q raster.Quad, mask raster.SampleMask, out []uint64) []uint64 {
	if !testApplies(d) {
		return out
	}
	db := d.DepthBuf
	base := d.DepthDesc.Addr
	stencilPlane := db.StencilPlaneOffset() != 0
	useDepth := d.Depth.DepthEnable || !stencilPlane
	useStencil := d.Depth.StencilEnable && stencilPlane
	add := func(addr uint64) []uint64 {
		l := c.cache.Line(addr)
		for _, v := range out {
			if v == l {
				return out
			}
		}
		return append(out, l)
	}
	for m := mask; !m.Empty(); {
		pix, s := m.Pop()
		x, y := int(q.X)+pix&1, int(q.Y)+pix>>1
		if x >= db.Width || y >= db.Height || x < 0 || y < 0 {
			continue
		}
		if useDepth {
			out = add(base + db.Address(x, y, s))
		}
		if useStencil {
			out = add(base + db.StencilAddress(x, y, s))
		}
	}
	return out
}

// markWritten marks dirty the lines the test wrote: the depth word of every
// sample that passed when depth writes are on, the depth word (D24S8) or the
// stencil byte (D32F) of every tested sample when the stencil can change.
func (c *Comp) markWritten(d *state.Draw, q raster.Quad, mask, passed raster.SampleMask) {
	if !testApplies(d) {
		return
	}
	db := d.DepthBuf
	base := d.DepthDesc.Addr
	stencilPlane := db.StencilPlaneOffset() != 0
	wd, ws := d.Depth.WritesDepth(), d.Depth.WritesStencil()
	if !wd && !ws {
		return
	}
	for m := mask; !m.Empty(); {
		pix, s := m.Pop()
		x, y := int(q.X)+pix&1, int(q.Y)+pix>>1
		if x >= db.Width || y >= db.Height || x < 0 || y < 0 {
			continue
		}
		if (wd && passed.Has(pix, s)) || (ws && !stencilPlane) {
			c.cache.Write(base + db.Address(x, y, s))
		}
		if ws && stencilPlane {
			c.cache.Write(base + db.StencilAddress(x, y, s))
		}
	}
}

// lookup looks up the lines of the next quads, late requests first, at the
// unit's sample rate.
func (c *Comp) lookup(now sim.VTimeInSec, cycle uint64) bool {
	c.lookRate.Refill(cycle)
	progress := false
	for _, s := range [2]*stream{c.late, c.early} {
		for {
			w := s.nextLookup()
			if w == nil {
				break
			}
			if !c.lookRate.OK() {
				c.lookRateBlocked = true
				break
			}
			if w.kind == workEarly && c.lateBefore(w.draw.Seq) {
				c.hazard = true
				break
			}
			slot, rec := s.lookupRec(w)
			if rec == nil {
				break
			}
			token := rtcache.Token(slot)
			if s.late {
				token |= lateBit
			}
			_, q, mask := w.quad(rec.qi)
			d := w.draw.State
			c.lineBuf = c.depthLines(d, q, mask, c.lineBuf[:0])
			if c.traced() {
				c.cache.SetCause(w.task)
			}
			for rec.next < len(c.lineBuf) {
				r := c.cache.Access(now, c.lineBuf[rec.next], token)
				if r == rtcache.Blocked {
					break
				}
				progress = true
				if r.Pending() {
					rec.pending++
				}
				rec.next++
			}
			if rec.next < len(c.lineBuf) {
				c.lookBlocked = true
				break
			}
			rec.looked = true
			w.looked++
			progress = true
			c.lookRate.Take(samplesTested(d, mask))
		}
	}
	return progress
}

var noOutput pipeline.QuadOutput

// test runs the depth/stencil test of the quads whose lines are present, late
// requests first, at the unit's sample rate; the results leave the pipeline
// TestLatency cycles later.
func (c *Comp) test(now sim.VTimeInSec, cycle uint64) bool {
	c.testRate.Refill(cycle)
	progress := false
	for _, s := range [2]*stream{c.late, c.early} {
		for {
			rec := s.head()
			if rec == nil || !rec.looked || rec.pending > 0 {
				break
			}
			if !c.testRate.OK() {
				c.testRateBlocked = true
				break
			}
			if !s.pipe.CanAccept(cycle) {
				break
			}
			w := rec.w
			prim, q, mask := w.quad(rec.qi)
			d := w.draw.State
			c.lineBuf = c.depthLines(d, q, mask, c.lineBuf[:0])
			if !c.cache.CanWrite(len(c.lineBuf)) {
				c.testBlocked = true
				break
			}
			var ds pipeline.DepthStats
			var res raster.SampleMask
			switch {
			case s.late && prim != nil && prim.Blur != nil:
				// A visibility quad of a 5D primitive: per sample, at its own
				// depth or the shader's.
				res = pipeline.LateDepthSamples(d, prim, q.X, q.Y, mask, w.req.Quads[rec.qi].Depths, &ds)
				c.st.samplesLate += uint64(ds.Passed + ds.Failed)
			case s.late:
				out := w.req.Quads[rec.qi].Out
				if out == nil {
					out = &noOutput
				}
				res = pipeline.LateDepth(d, &w.draw.Raster, prim, q, mask, out, &ds)
				c.st.samplesLate += uint64(ds.Passed + ds.Failed)
			case prim.Blur != nil:
				res = pipeline.EarlyDepthSamples(d, prim, q.X, q.Y, mask, &ds)
				c.st.samplesEarly += uint64(ds.Passed + ds.Failed)
			default:
				tq := q
				tq.Coverage = mask
				res = pipeline.EarlyDepth(d, &w.draw.Raster, prim, tq, &ds)
				c.st.samplesEarly += uint64(ds.Passed + ds.Failed)
			}
			c.st.passed += uint64(ds.Passed)
			c.st.failed += uint64(ds.Failed)
			if c.traced() {
				c.cache.SetCause(w.task)
			}
			c.markWritten(d, q, mask, res)
			if prim != nil {
				if pos := (fhiz.Pos{Draw: w.draw.Seq, Prim: fhiz.PrimOrder(prim.Source, prim.Part)}); c.maxPos.Less(pos) {
					c.maxPos = pos
				}
			}
			if rec.qi == w.n-1 && c.hizCfg.Feedback == fhiz.UpdateFeedback {
				c.updateFeedback(w, now)
			}
			s.pipe.Accept(cycle, result{w: w, qi: rec.qi, mask: res})
			s.popWait()
			c.testRate.Take(samplesTested(d, mask))
			progress = true
		}
	}
	return progress
}

func findCount(list []drawCount, seq uint64) int {
	for i := range list {
		if list[i].seq == seq {
			return i
		}
	}
	return -1
}

// lateBefore reports whether late-Z quads of a draw before seq are outstanding.
func (c *Comp) lateBefore(seq uint64) bool {
	for _, e := range c.lateOut {
		if e.seq < seq && e.n > 0 {
			return true
		}
	}
	return false
}

func (c *Comp) lateAnswered(seq uint64, n int) {
	i := findCount(c.lateOut, seq)
	if i < 0 {
		return
	}
	c.lateOut[i].n -= n
	if c.lateOut[i].n <= 0 {
		c.lateOut = append(c.lateOut[:i], c.lateOut[i+1:]...)
	}
}

// accept takes at most one late-Z request and one message from the rasterizers
// when there is room for them.
func (c *Comp) accept(now sim.VTimeInSec) bool {
	if c.ctlMsg != nil || c.ctlDone != nil {
		return false
	}
	progress := false
	if msg := c.ROP.Peek(); msg != nil && len(c.late.works) < c.Cfg.LateQueue {
		req, ok := msg.(*protocol.LateZReq)
		if !ok || req.Draw == nil {
			c.Fault.Fail(fmt.Errorf("ROP port: unexpected message %T", msg))
			return false
		}
		for i := range req.Quads {
			q := &req.Quads[i]
			if q.Prim == nil && !q.Live.Empty() {
				c.Fault.Fail(fmt.Errorf("LateZReq %s: quad %d has no primitive", req.ID, i))
				return false
			}
			if q.Depths != nil && (q.Prim == nil || q.Prim.Blur == nil || len(q.Depths) != q.Live.Count()) {
				c.Fault.Fail(fmt.Errorf("LateZReq %s: quad %d: %d depths for %d samples of a visibility quad", req.ID, i, len(q.Depths), q.Live.Count()))
				return false
			}
		}
		c.ROP.Retrieve(now)
		n := len(req.Quads)
		c.late.works = append(c.late.works, &work{kind: workLate, draw: req.Draw, req: req, n: n,
			pass: make([]raster.SampleMask, n)})
		if c.traced() {
			c.startLateTask(c.late.works[len(c.late.works)-1])
		}
		c.st.lateRequests++
		c.st.lateQuads += uint64(n)
		progress = true
	}
	msg := c.FromRasterizers.Peek()
	if msg == nil || len(c.early.works) >= c.Cfg.TileWindow {
		return progress
	}
	switch m := msg.(type) {
	case *protocol.TileQuads:
		if m.Draw == nil || m.Draw.State == nil || (m.Prim == nil && len(m.Quads) > 0) {
			c.Fault.Fail(fmt.Errorf("FromRasterizers: TileQuads %s without draw or primitive", m.ID))
			return false
		}
		c.FromRasterizers.Retrieve(now)
		c.target(m.Draw.State)
		n := len(m.Quads)
		c.st.tilesIn++
		c.st.quadsIn += uint64(n)
		w := &work{kind: workEarly, draw: m.Draw, tile: m, n: n, out: make([]protocol.QuadLive, 0, n)}
		if !m.Draw.State.EarlyZ {
			w.kind, w.n, w.out = workPass, 0, nil
			c.st.passTiles++
			c.st.passQuads += uint64(n)
			if i := findCount(c.lateOut, m.Draw.Seq); i >= 0 {
				c.lateOut[i].n += n
			} else if n > 0 {
				c.lateOut = append(c.lateOut, drawCount{seq: m.Draw.Seq, n: n})
			}
		}
		c.early.works = append(c.early.works, w)
		if c.traced() {
			c.startTileTask(w)
		}
		return true
	case *protocol.DrawEnd:
		if m.Draw == nil {
			c.Fault.Fail(fmt.Errorf("FromRasterizers: DrawEnd %s without draw", m.ID))
			return false
		}
		c.FromRasterizers.Retrieve(now)
		c.st.drawEndsIn++
		i := findCount(c.drawEnds, m.Draw.Seq)
		if i < 0 {
			c.drawEnds = append(c.drawEnds, drawCount{seq: m.Draw.Seq})
			i = len(c.drawEnds) - 1
		}
		c.drawEnds[i].n++
		if c.drawEnds[i].n == c.Cfg.NumRasterizers {
			c.drawEnds = append(c.drawEnds[:i], c.drawEnds[i+1:]...)
			c.early.works = append(c.early.works, &work{kind: workDrawEnd, draw: m.Draw})
		}
		return true
	default:
		c.Fault.Unexpected(c.FromRasterizers, msg)
		return false
	}
}

// control carries out clears, presents and flushes once the streams are empty.
func (c *Comp) control(now sim.VTimeInSec) bool {
	if c.ctlMsg != nil {
		progress := false
		if c.hizPending && len(c.toHiZ) == 0 {
			if msg := c.FromRasterizers.Peek(); msg != nil {
				if _, ok := msg.(*protocol.Done); !ok {
					c.Fault.Fail(fmt.Errorf("FromRasterizers: %T while waiting for the HiZ unit's acknowledgement", msg))
					return false
				}
				c.FromRasterizers.Retrieve(now)
				if c.traced() {
					tracing.EndTask(protocol.ReqOutTaskID(msg.(*protocol.Done).RspTo), c)
				}
				c.hizPending = false
				progress = true
			}
		}
		if !c.cache.Idle() || c.hizPending {
			return progress
		}
		if m, ok := c.ctlMsg.(*protocol.FlushCmd); ok && m.Invalidate {
			if _, err := c.cache.Invalidate(); err != nil {
				c.Fault.Fail(fmt.Errorf("FlushCmd %s: %w", m.ID, err))
				return false
			}
		}
		c.ctlDone = protocol.NewDone(c.ctlMsg.Meta().ID, c.Cfg.Index)
		c.ctlMsg = nil
		return true
	}
	if c.ctlDone != nil || len(c.early.works) > 0 || len(c.late.works) > 0 {
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
		c.clear(m)
		c.st.clears++
		if c.HiZ != nil && m.Flags&command.ClearDepth != 0 {
			c.toHiZ = append(c.toHiZ, protocol.NewHiZClear(m.Target, c.clearKey(m.Target)))
			c.hizPending = true
			c.ctlMsg = m
			return true
		}
		c.ctlDone = protocol.NewDone(m.ID, c.Cfg.Index)
	case *protocol.PresentCmd:
		c.st.presents++
		c.beginFlush(now, m, m.ID)
	case *protocol.FlushCmd:
		if c.HiZ != nil && m.Invalidate {
			c.Fault.Fail(fmt.Errorf("Control: FlushCmd %s invalidates with a HiZ unit attached: an invalidating flush at the end of a tile is for the tiled machine's tile units, which run without HiZ", m.ID))
			return false
		}
		c.st.flushes++
		c.beginFlush(now, m, m.ID) // a sync token's flush: the HiZ unit writes back too, as at a Present
	default:
		c.Fault.Unexpected(c.Control, msg)
		return false
	}
	return true
}

// beginFlush takes the control command m (a Present or a Flush, ID id) and
// starts writing back every dirty depth line, and the HiZ unit's lines when
// one is attached; the command is done when both are.
func (c *Comp) beginFlush(now sim.VTimeInSec, m sim.Msg, id string) {
	c.Control.Retrieve(now)
	if c.traced() {
		c.startControlTask(protocol.KindFlush, id)
	}
	c.cache.Flush()
	c.ctlMsg = m
	if c.HiZ != nil {
		c.toHiZ = append(c.toHiZ, protocol.NewHiZFlush())
		c.hizPending = true
	}
}

// account updates the activity and schedules the next wake-up when the unit
// goes to sleep.
func (c *Comp) account(now sim.VTimeInSec, cycle uint64, progress bool) {
	inPipe := c.early.pipe.Len()+c.late.pipe.Len() > 0
	state := stateIdle
	switch {
	case progress:
		state = stateBusy
	case c.sender.Blocked: // a ready result that the receiver did not take
		state = stateBlockedOutput
	case inPipe: // tests still within their latency
		state = stateBusy
	case c.lookBlocked || c.testBlocked || c.early.waiting() || c.late.waiting() || c.ctlMsg != nil:
		state = stateWaitMemory
	case c.hazard:
		state = stateLateZDrain
	}
	c.Activity.Set(cycle, state)
	if progress {
		return
	}
	next := ^uint64(0)
	for _, s := range [2]*stream{c.early, c.late} {
		if r, ok := s.pipe.NextReady(); ok && r < next {
			next = r
		}
	}
	if c.testRateBlocked {
		next = min(next, c.testRate.Next(cycle))
	}
	if c.lookRateBlocked {
		next = min(next, c.lookRate.Next(cycle))
	}
	c.Waker.WakeForNext(now, cycle, next)
}

// Buffers reports the input ports, the works in flight, the quads waiting for
// lines, the test pipelines and the cache's memory queues.
func (c *Comp) Buffers() []timing.BufferState {
	n := c.Name()
	b := []timing.BufferState{
		{Name: c.FromRasterizers.Name(), Len: c.inBuf.Size(), Cap: c.inBuf.Capacity()},
		{Name: n + ".ToHiZQueue", Len: len(c.toHiZ), Cap: c.Cfg.FeedbackQueue},
		{Name: c.ROP.Name(), Len: c.lateBuf.Size(), Cap: c.lateBuf.Capacity()},
		{Name: n + ".TileWindow", Len: len(c.early.works), Cap: c.Cfg.TileWindow},
		{Name: n + ".LateRequests", Len: len(c.late.works), Cap: c.Cfg.LateQueue},
		{Name: n + ".EarlyWait", Len: c.early.wLen, Cap: len(c.early.wait)},
		{Name: n + ".LateWait", Len: c.late.wLen, Cap: len(c.late.wait)},
		{Name: n + ".EarlyTests", Len: c.early.pipe.Len(), Cap: c.early.pipe.Latency * c.early.pipe.Width},
		{Name: n + ".LateTests", Len: c.late.pipe.Len(), Cap: c.late.pipe.Latency * c.late.pipe.Width},
	}
	return append(b, c.cache.Buffers(n+".DepthCache")...)
}

// Stats reports the counters (see the package documentation).
func (c *Comp) Stats(add func(name string, v float64)) {
	timing.AddTagged(c.Name()+".", add, &c.st)
	c.cache.Stats(c.Name(), add)
	c.Activity.Stats(c.Name(), add)
}

// ObserveWrites installs f, called with every line of the unit's cache that
// a write makes dirty (address and size in bytes): the coherence checker's
// view of writes completing in this write-back cache. nil removes it.
func (c *Comp) ObserveWrites(f func(line, size uint64)) { c.cache.SetWriteHook(f) }
