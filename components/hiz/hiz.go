package hiz

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/timing"
)

var _ protocol.Unit = (*Comp)(nil)

// Activity states (timing.Activity indices).
const (
	stateBusy          = iota // accepted, looked up, tested or sent something, or tests are in the pipeline
	stateWaitMemory           // a message or feedback waits for HiZ lines, or a flush for its writes
	stateBlockedOutput        // a message waits for the depth unit's port
	stateIdle
)

var activityNames = [...]string{"busy", "wait_memory", "blocked_output", "idle"}

type workKind uint8

const (
	workTiles   workKind = iota // a TileQuads HiZ tests
	workPass                    // a TileQuads of a draw HiZ does not apply to
	workDrawEnd                 // a DrawEnd, forwarded in order
	workBlur                    // a TileQuads of a 5D primitive: untested, its tiles forgotten
)

// drawInfo is what the unit keeps per draw.
type drawInfo struct {
	draw *protocol.Draw
	dc   fhiz.DrawContext
	slot *slot
}

// work is one message from the rasterizers in flight through the unit.
type work struct {
	kind     workKind
	info     *drawInfo
	tq       *protocol.TileQuads
	end      *protocol.DrawEnd
	quads    []raster.Quad
	live     []raster.SampleMask
	tiles    []int    // HiZ tiles touched
	lines    []uint64 // their lines
	next     int      // lines looked up so far
	pending  int      // line reads waited for
	out      sim.Msg  // the message to send (nil: every quad was culled)
	coarseNs int      // coarse tests
	task     string   // tracing: the tile task's ID
}

// slot is the HiZ buffer of one depth target.
type slot struct {
	addr    uint64
	buf     *fhiz.Buffer
	lay     *layout
	cleared []uint64 // one bit per line of the region: fast-cleared, no read needed
}

func (s *slot) lineIndex(line uint64) uint64 { return (line - s.lay.base) / s.lay.lineBytes }

func (s *slot) isCleared(line uint64) bool {
	if s.cleared == nil {
		return false
	}
	i := s.lineIndex(line)
	return s.cleared[i/64]&(1<<(i%64)) != 0
}

func (s *slot) unsetCleared(line uint64) {
	if s.cleared != nil {
		i := s.lineIndex(line)
		s.cleared[i/64] &^= 1 << (i % 64)
	}
}

// fill is a line read in flight with the counters waiting for it.
type fill struct {
	line    uint64
	waiters []*int
	task    string // tracing: the task whose access sent the read
}

// fbEntry is feedback for one tile, waiting in the feedback FIFO.
type fbEntry struct {
	slot    *slot
	tile    int
	lo, hi  uint32
	pos     fhiz.Pos
	made    sim.VTimeInSec
	arrived uint64 // coarse tests done when it arrived
	pending int    // refetch: line reads waited for
}

// Comp is a HiZ unit: the coarse depth buffer of one screen partition, with its
// HiZ cache. See the package documentation.
type Comp struct {
	*sim.TickingComponent

	// FromRasterizers receives protocol.TileQuads and protocol.DrawEnd from
	// every rasterizer (the tiles of this partition).
	FromRasterizers sim.Port
	// FromDepthUnit receives protocol.HiZFeedback and protocol.HiZControl from
	// the partition's depth unit.
	FromDepthUnit sim.Port
	// ToDepthUnit sends the surviving TileQuads, the DrawEnd markers and the
	// acknowledgements (protocol.Done) of HiZControl.
	ToDepthUnit sim.Port
	// ToMemory reads and writes HiZ cache lines.
	ToMemory sim.Port

	// DepthUnit is the depth unit's input port (set by the platform builder).
	DepthUnit sim.Port
	// Memory finds the memory module of an address.
	Memory mem.LowModuleFinder

	cfg            fhiz.Config
	halt           *timing.Halt
	progress       *timing.Progress
	waker          *timing.Waker
	index, np      int
	stride         int
	ptPixels       int
	lineBytes      uint64
	cacheLine      int
	cacheLines     int
	window         int
	fbCap          int
	refetch        bool
	regionBase     uint64
	maxTargets     int
	writeQueue     int
	maxOutstanding int

	inBuf, fbBuf sim.Buffer
	client       *memclient.Client
	tags         *tagStore
	fills        []fill
	writes       []uint64 // lines to write back, FIFO
	writeTasks   []string // tracing: the task that caused each write-back
	cause        string   // tracing: the task the unit works for now
	ctlTask      string   // tracing: the control command's task
	rate         *rate
	out          *timing.Pipeline[*work]

	slots  []*slot
	table  *fhiz.OracleTable
	info   *drawInfo
	works  []*work // the window, in order
	look   int     // works[look] is the next to look up
	tested int     // works[:tested] are tested
	fbq    []fbEntry
	fbHead int
	fbWait []*fbEntry
	tests  uint64 // coarse tests done (the feedback delay's clock)
	maxSeq uint64
	seen   bool

	ctl      *protocol.HiZControl
	ctlAck   *protocol.Done
	flushing bool

	scratchTiles []int
	snap         []fhiz.TileState
	tileBuf      []int
	encBuf       []byte

	blocked, waitMem, rateBlocked bool
	activity                      *timing.Activity
	st                            counters
}

type counters struct {
	tilesIn, quadsIn, tilesOut, quadsOut, messagesCulled, passTiles, drawEnds uint64
	noHiZTiles, blurTiles                                                     uint64
	hits, misses, merged, clearedFills, refills, lineReads, evictions         uint64
	writeBacks, bytesRead, bytesWritten                                       uint64
	fbMessages, fbTiles, fbDroppedFull, fbDroppedAbsent, fbRefetched          uint64
	fbAgeCycles, fbDelayTests, fbAged                                         uint64
	clears, flushes                                                           uint64
}

func (c *Comp) fail(err error) { c.halt.Fail(fmt.Errorf("%s: %w", c.Name(), err)) }

// Tick runs the stages from the back of the unit to its front.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.halt.Stopped() {
		return false
	}
	cycle := c.Freq.Cycle(now)
	c.blocked, c.waitMem, c.rateBlocked = false, false, false
	p := c.receive(now)
	p = c.output(now, cycle) || p
	p = c.feedback(now) || p
	p = c.test(now, cycle) || p
	p = c.issue(now) || p
	p = c.lookup(now) || p
	p = c.accept(now) || p
	p = c.control(now) || p
	c.account(now, cycle, p)
	return p
}

// receive handles memory responses: a line read fills its line and wakes its
// waiters.
func (c *Comp) receive(now sim.VTimeInSec) bool {
	progress := false
	for {
		comp, ok := c.client.Receive(now)
		if !ok {
			return progress
		}
		progress = true
		if comp.Write {
			continue
		}
		i := c.findFill(comp.Tag)
		if i < 0 {
			c.fail(fmt.Errorf("a read of line 0x%x completed that was not in flight", comp.Tag))
			return false
		}
		f := c.fills[i]
		c.fills = append(c.fills[:i], c.fills[i+1:]...)
		if c.traced() {
			c.cause = f.task
		}
		if c.tags.lookup(f.line) {
			// already there (re-allocated by a test meanwhile)
		} else {
			c.allocate(f.line)
		}
		for _, w := range f.waiters {
			*w--
		}
	}
}

func (c *Comp) findFill(line uint64) int {
	for i := range c.fills {
		if c.fills[i].line == line {
			return i
		}
	}
	return -1
}

// slotOf returns the slot whose region holds line.
func (c *Comp) slotOf(line uint64) *slot {
	for _, s := range c.slots {
		if s.lay.contains(line) {
			return s
		}
	}
	return nil
}

// allocate puts line in the cache; a dirty victim is packed (PACKED ZMASK
// stores its tiles in their memory form) and queued for write-back.
func (c *Comp) allocate(line uint64) {
	victim, dirty, evicted := c.tags.fill(line)
	if !evicted {
		return
	}
	c.st.evictions++
	if dirty {
		c.pack(victim)
		c.queueWrite(victim)
	}
}

// pack applies PACKED ZMASK's memory form to the tiles of line.
func (c *Comp) pack(line uint64) {
	if !c.cfg.Packed {
		return
	}
	s := c.slotOf(line)
	if s == nil {
		return
	}
	c.tileBuf = s.lay.tiles(line, c.tileBuf[:0])
	for _, ti := range c.tileBuf {
		s.buf.Pack(ti)
	}
}

// access looks up line for a reader counting its pending reads in *waiter.
// It returns false when the line is absent and no read can be issued now.
func (c *Comp) access(now sim.VTimeInSec, s *slot, line uint64, waiter *int) bool {
	if c.tags.lookup(line) {
		c.st.hits++
		return true
	}
	if i := c.findFill(line); i >= 0 {
		c.fills[i].waiters = append(c.fills[i].waiters, waiter)
		*waiter++
		c.st.misses++
		c.st.merged++
		return true
	}
	if len(c.writes) >= c.writeQueue {
		return false
	}
	if s.isCleared(line) {
		c.allocate(line)
		c.st.misses++
		c.st.clearedFills++
		return true
	}
	if c.traced() {
		c.client.TraceAs(c, c.cause)
	}
	if c.client.Outstanding() >= c.maxOutstanding || !c.client.Read(now, line, c.lineBytes, line) {
		return false
	}
	c.fills = append(c.fills, fill{line: line, waiters: []*int{waiter}, task: c.cause})
	*waiter++
	c.st.misses++
	c.st.lineReads++
	c.st.bytesRead += c.lineBytes
	return true
}

// output sends the tested message at the head of the pipeline, and a control
// acknowledgement once the window is empty.
func (c *Comp) output(now sim.VTimeInSec, cycle uint64) bool {
	progress := false
	for {
		w, ok := c.out.Peek(cycle)
		if !ok {
			break
		}
		if w.out != nil {
			if !c.send(w.out, now) {
				return progress
			}
			if w.task != "" {
				tracing.EndTask(w.task, c)
			}
			switch m := w.out.(type) {
			case *protocol.TileQuads:
				c.st.tilesOut++
				c.st.quadsOut += uint64(len(m.Quads))
			}
		} else if w.kind == workTiles {
			c.st.messagesCulled++
			if w.task != "" {
				tracing.EndTask(w.task, c)
			}
		}
		c.out.Pop()
		c.popWork()
		progress = true
	}
	if c.ctlAck != nil && len(c.works) == 0 && c.send(c.ctlAck, now) {
		if c.ctlTask != "" {
			tracing.EndTask(c.ctlTask, c)
			c.ctlTask = ""
		}
		c.ctlAck = nil
		progress = true
	}
	return progress
}

func (c *Comp) send(msg sim.Msg, now sim.VTimeInSec) bool {
	m := msg.Meta()
	m.Src, m.Dst, m.SendTime = c.ToDepthUnit, c.DepthUnit, now
	if c.ToDepthUnit.Send(msg) != nil {
		c.blocked = true
		return false
	}
	c.progress.Add(1)
	return true
}

func (c *Comp) popWork() {
	copy(c.works, c.works[1:])
	c.works[len(c.works)-1] = nil
	c.works = c.works[:len(c.works)-1]
	c.look--
	c.tested--
}

// feedback applies the feedback whose delay is over (and refetched lines).
func (c *Comp) feedback(now sim.VTimeInSec) bool {
	progress := false
	if c.traced() {
		c.cause = protocol.SimulationTaskID // feedback belongs to no task
	}
	keep := c.fbWait[:0]
	for _, e := range c.fbWait {
		if e.pending > 0 {
			keep = append(keep, e)
			continue
		}
		c.applyFeedback(now, e)
		progress = true
	}
	clear(c.fbWait[len(keep):])
	c.fbWait = keep
	for c.fbHead < len(c.fbq) {
		e := &c.fbq[c.fbHead]
		if e.arrived+uint64(c.cfg.FeedbackDelay) > c.tests {
			break
		}
		line := e.slot.lay.line(e.tile)
		switch {
		case c.tags.lookup(line):
			c.applyFeedback(now, e)
		case !c.refetch:
			c.st.fbDroppedAbsent++
		default:
			ent := *e
			if !c.access(now, e.slot, line, &ent.pending) {
				c.waitMem = true
				return progress
			}
			c.st.fbRefetched++
			c.fbWait = append(c.fbWait, &ent)
		}
		c.fbHead++
		progress = true
	}
	if c.fbHead == len(c.fbq) {
		c.fbq, c.fbHead = c.fbq[:0], 0
	} else if c.fbHead > 256 && 2*c.fbHead > len(c.fbq) {
		n := copy(c.fbq, c.fbq[c.fbHead:])
		c.fbq, c.fbHead = c.fbq[:n], 0
	}
	return progress
}

func (c *Comp) applyFeedback(now sim.VTimeInSec, e *fbEntry) {
	line := e.slot.lay.line(e.tile)
	before := e.slot.buf.Tile(e.tile)
	if e.slot.buf.ApplyFeedback(e.tile, e.lo, e.hi, e.pos) && e.slot.buf.Tile(e.tile) != before {
		if !c.tags.contains(line) {
			c.allocate(line)
		}
		c.tags.setDirty(line)
	}
	c.st.fbAged++
	c.st.fbAgeCycles += c.Freq.Cycle(now) - c.Freq.Cycle(e.made)
	c.st.fbDelayTests += c.tests - e.arrived
}

// test runs HiZ on the messages whose lines are present, in order, at
// TestsPerCycle coarse tests per cycle; the results leave Latency cycles later.
func (c *Comp) test(now sim.VTimeInSec, cycle uint64) bool {
	c.rate.refill(cycle)
	progress := false
	for c.tested < c.look {
		w := c.works[c.tested]
		if w.pending > 0 || len(c.fbWait) > 0 {
			c.waitMem = true
			return progress
		}
		if w.kind == workTiles && !c.rate.ok() {
			c.rateBlocked = true
			return progress
		}
		if !c.out.CanAccept(cycle) {
			return progress
		}
		switch w.kind {
		case workTiles:
			if c.traced() {
				c.cause = w.task
			}
			c.runTiles(w)
			c.rate.take(w.coarseNs)
		case workPass:
			t := w.tq
			w.out = protocol.NewTileQuads(t.Draw, t.Prim, t.TileX, t.TileY, t.Partition, t.Quads)
		case workBlur:
			c.forget(w)
			t := w.tq
			w.out = protocol.NewTileQuads(t.Draw, t.Prim, t.TileX, t.TileY, t.Partition, t.Quads)
		case workDrawEnd:
			w.out = protocol.NewDrawEnd(w.end.Draw, w.end.From)
		}
		c.out.Accept(cycle, w)
		c.tested++
		progress = true
	}
	return progress
}

// forget passes a 5D primitive's quads untested (HiZ bounds a primitive's
// depths by its plane; a stochastically rasterized one has none) and makes the
// HiZ tiles their samples cover unknown until the next clear
// (hiz.Buffer.Forget), so that no later primitive is culled against bounds
// the 5D samples' writes may have broken. The forgotten state is an on-chip
// bit per tile (as the fast-clear tags): it costs no HiZ-cache access.
func (c *Comp) forget(w *work) {
	t := w.tq
	pos := fhiz.Pos{Draw: t.Draw.Seq, Prim: fhiz.PrimOrder(t.Prim.Source, t.Prim.Part)}
	for i := range t.Quads {
		q := &t.Quads[i]
		w.info.slot.buf.Forget(&w.info.dc, q.Quad.X, q.Quad.Y, q.Live, pos)
	}
}

// runTiles runs the coarse tests of one message and builds its output.
func (c *Comp) runTiles(w *work) {
	s, t := w.info.slot, w.tq
	b := s.buf
	c.snap = c.snap[:0]
	for _, ti := range w.tiles {
		c.snap = append(c.snap, b.Tile(ti))
	}
	before := b.Count()
	pos := fhiz.Pos{Draw: t.Draw.Seq, Prim: fhiz.PrimOrder(t.Prim.Source, t.Prim.Part)}
	b.ProcessQuads(&w.info.dc, &t.Draw.Raster, t.Prim, w.quads, w.live, pos)
	w.coarseNs = int(b.Count() - before)
	c.tests += uint64(w.coarseNs)
	if c.cfg.Mode != fhiz.Oracle {
		for i, ti := range w.tiles {
			if b.Tile(ti) == c.snap[i] {
				continue
			}
			line := s.lay.line(ti)
			for k := 0; k < s.lay.linesPerTile; k++ {
				l := line + uint64(k)*c.lineBytes
				if !c.tags.contains(l) {
					c.allocate(l) // evicted since its lookup: the unit holds its data
					c.st.refills++
				}
				c.tags.setDirty(l)
			}
		}
	}
	kept := make([]protocol.QuadLive, 0, len(w.quads))
	for i, q := range t.Quads {
		if !w.live[i].Empty() {
			kept = append(kept, protocol.QuadLive{Quad: q.Quad, Live: w.live[i]})
		}
	}
	if len(kept) > 0 {
		w.out = protocol.NewTileQuads(t.Draw, t.Prim, t.TileX, t.TileY, t.Partition, kept)
	}
}

// issue sends queued write-backs, oldest first: the tiles' memory encoding.
func (c *Comp) issue(now sim.VTimeInSec) bool {
	progress := false
	for len(c.writes) > 0 {
		line := c.writes[0]
		if c.client.Outstanding() >= c.maxOutstanding {
			break
		}
		data := c.encode(line)
		if c.traced() {
			c.client.TraceAs(c, c.writeTasks[0])
		}
		if !c.client.Write(now, line, data, line) {
			break
		}
		if s := c.slotOf(line); s != nil {
			s.unsetCleared(line)
		}
		c.writes = c.writes[1:]
		if c.traced() {
			c.writeTasks[0] = ""
			c.writeTasks = c.writeTasks[1:]
		}
		c.st.writeBacks++
		c.st.bytesWritten += uint64(len(data))
		progress = true
	}
	if len(c.writes) == 0 {
		c.writes, c.writeTasks = nil, nil
	}
	return progress
}

// encode returns the memory bytes of line: its tiles' encodings, zero-padded
// to the line size.
func (c *Comp) encode(line uint64) []byte {
	data := make([]byte, 0, c.lineBytes)
	if s := c.slotOf(line); s != nil {
		if s.lay.linesPerTile > 1 {
			ti := s.lay.tiles(line, c.tileBuf[:0])
			if len(ti) > 0 {
				enc := s.buf.Encode(ti[0], c.encBuf[:0])
				k := int(s.lineIndex(line) % uint64(s.lay.linesPerTile))
				lo := min(len(enc), k*int(c.lineBytes))
				data = append(data, enc[lo:min(len(enc), lo+int(c.lineBytes))]...)
				c.encBuf = enc
			}
		} else {
			c.tileBuf = s.lay.tiles(line, c.tileBuf[:0])
			for _, ti := range c.tileBuf {
				data = s.buf.Encode(ti, data)
			}
		}
	}
	if uint64(len(data)) > c.lineBytes {
		data = data[:c.lineBytes]
	}
	for uint64(len(data)) < c.lineBytes {
		data = append(data, 0)
	}
	return data
}

// lookup looks up the lines of the next messages, up to TestsPerCycle lines
// per cycle.
func (c *Comp) lookup(now sim.VTimeInSec) bool {
	progress := false
	budget := c.rate.per
	for c.look < len(c.works) && budget > 0 {
		w := c.works[c.look]
		if c.traced() {
			c.cause = w.task
		}
		for w.next < len(w.lines) && budget > 0 {
			if !c.access(now, w.info.slot, w.lines[w.next], &w.pending) {
				c.waitMem = true
				return progress
			}
			w.next++
			budget--
			progress = true
		}
		if w.next < len(w.lines) {
			return progress
		}
		c.look++
		progress = true
	}
	return progress
}

// accept takes a message from the rasterizers when the window has room, and
// feedback or a control command from the depth unit.
func (c *Comp) accept(now sim.VTimeInSec) bool {
	progress := false
	if msg := c.FromDepthUnit.Peek(); msg != nil {
		switch m := msg.(type) {
		case *protocol.HiZFeedback:
			c.FromDepthUnit.Retrieve(now)
			c.takeFeedback(m)
			progress = true
		case *protocol.HiZControl:
			if c.ctl == nil && c.ctlAck == nil {
				c.FromDepthUnit.Retrieve(now)
				c.ctl = m
				if c.traced() {
					c.startControlTask(m)
				}
				progress = true
			}
		default:
			c.fail(fmt.Errorf("FromDepthUnit: unexpected message %T", msg))
			return false
		}
	}
	if c.ctl != nil || c.ctlAck != nil || len(c.works) >= c.window {
		return progress
	}
	msg := c.FromRasterizers.Peek()
	if msg == nil {
		return progress
	}
	switch m := msg.(type) {
	case *protocol.TileQuads:
		if m.Draw == nil || m.Draw.State == nil || (m.Prim == nil && len(m.Quads) > 0) {
			c.fail(fmt.Errorf("FromRasterizers: TileQuads %s without draw or primitive", m.ID))
			return false
		}
		w := c.newTileWork(m)
		if w == nil {
			return false
		}
		c.FromRasterizers.Retrieve(now)
		c.works = append(c.works, w)
		if c.traced() {
			c.startTileTask(w)
		}
	case *protocol.DrawEnd:
		if m.Draw == nil {
			c.fail(fmt.Errorf("FromRasterizers: DrawEnd %s without draw", m.ID))
			return false
		}
		c.FromRasterizers.Retrieve(now)
		c.noteDraw(m.Draw)
		c.st.drawEnds++
		c.works = append(c.works, &work{kind: workDrawEnd, end: m})
	default:
		c.fail(fmt.Errorf("FromRasterizers: unexpected message %T", msg))
		return false
	}
	return true
}

func (c *Comp) noteDraw(d *protocol.Draw) {
	if !c.seen || d.Seq > c.maxSeq {
		c.maxSeq, c.seen = d.Seq, true
	}
}

// newTileWork prepares the work of a TileQuads (nil after a fatal error).
func (c *Comp) newTileWork(m *protocol.TileQuads) *work {
	c.noteDraw(m.Draw)
	c.st.tilesIn++
	c.st.quadsIn += uint64(len(m.Quads))
	info := c.drawInfo(m.Draw)
	if info == nil {
		return nil
	}
	if m.Prim != nil && m.Prim.Blur != nil {
		c.st.blurTiles++
		if info.slot != nil {
			return &work{kind: workBlur, info: info, tq: m}
		}
	}
	if info.slot == nil || len(m.Quads) == 0 {
		c.st.passTiles++
		return &work{kind: workPass, info: info, tq: m}
	}
	w := &work{kind: workTiles, info: info, tq: m, quads: make([]raster.Quad, len(m.Quads)), live: make([]raster.SampleMask, len(m.Quads))}
	for i, q := range m.Quads {
		w.quads[i], w.live[i] = q.Quad, q.Live
	}
	s := info.slot
	w.tiles = s.buf.Touched(w.quads, w.live, nil)
	if c.cfg.Mode != fhiz.Oracle {
		for _, ti := range w.tiles {
			line := s.lay.line(ti)
			for k := 0; k < s.lay.linesPerTile; k++ {
				l := line + uint64(k)*c.lineBytes
				if !containsLine(w.lines, l) {
					w.lines = append(w.lines, l)
				}
			}
		}
	}
	return w
}

func containsLine(s []uint64, v uint64) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// drawInfo returns the unit's view of draw d (nil after a fatal error).
func (c *Comp) drawInfo(d *protocol.Draw) *drawInfo {
	if c.info != nil && c.info.draw == d {
		return c.info
	}
	info := &drawInfo{draw: d, dc: fhiz.NewDrawContext(d.State)}
	if info.dc.Active {
		g, err := fhiz.NewGeometry(info.dc.Target, c.cfg.TileSamples)
		if err != nil {
			c.fail(err)
			return nil
		}
		ts := d.Raster.TileSize
		if ts == 0 {
			ts = raster.DefaultTileSize
		}
		if g.TileW > ts || g.TileH > ts {
			c.fail(fmt.Errorf("HiZ tiles of %dx%d pixels (%d samples at %dx) do not fit the %d-pixel raster tiles: raise raster.tile_size or lower hiz.tile_samples",
				g.TileW, g.TileH, g.TileSamples, g.Samples, ts))
			return nil
		}
		info.slot = c.slotFor(d.State.DepthDesc, info.dc.Target)
		if info.slot == nil && c.halt.Stopped() {
			return nil
		}
	}
	c.info = info
	return info
}

// slotFor returns the HiZ buffer of the depth target at t.Addr, creating it
// when there is room (nil: the target gets no HiZ).
func (c *Comp) slotFor(t command.Target, tg fhiz.Target) *slot {
	for _, s := range c.slots {
		if s.addr == t.Addr {
			return s
		}
	}
	if len(c.slots) >= c.maxTargets {
		c.st.noHiZTiles++
		return nil
	}
	buf, err := fhiz.NewBuffer(c.cfg, tg)
	if err != nil {
		c.fail(err)
		return nil
	}
	base := c.regionBase + uint64(len(c.slots)*c.np+c.index)<<regionShift
	tileBits := buf.Config().MemoryTileBits() // a pixel may outgrow tile_samples (see hiz.TileDims)
	lay, err := newLayout(buf.Geometry(), base, c.index, c.np, c.stride, c.ptPixels, tileBits, int(c.lineBytes))
	if err != nil {
		c.fail(err)
		return nil
	}
	buf.SetOracle(c.table)
	s := &slot{addr: t.Addr, buf: buf, lay: lay}
	c.slots = append(c.slots, s)
	return s
}

// SetOracle gives an Oracle-mode unit the frame's exact verdicts (recorded by
// a reference render with hiz.OracleRecorder); without a table the Oracle
// uses its per-sample replica of the depth buffer, which does not know what
// pixel shaders discard. Call it before the run.
func (c *Comp) SetOracle(t *fhiz.OracleTable) {
	c.table = t
	for _, s := range c.slots {
		s.buf.SetOracle(t)
	}
}

// takeFeedback queues a feedback message's tiles (dropping what does not fit).
func (c *Comp) takeFeedback(m *protocol.HiZFeedback) {
	c.st.fbMessages++
	var s *slot
	for _, x := range c.slots {
		if x.addr == m.Target {
			s = x
		}
	}
	for _, t := range m.Tiles {
		c.st.fbTiles++
		if s == nil || t.Tile < 0 || t.Tile >= s.buf.Geometry().Tiles() {
			c.st.fbDroppedFull++
			continue
		}
		if len(c.fbq)-c.fbHead >= c.fbCap {
			c.st.fbDroppedFull++
			continue
		}
		c.fbq = append(c.fbq, fbEntry{slot: s, tile: t.Tile, lo: t.Lo, hi: t.Hi,
			pos: fhiz.Pos{Draw: m.Draw, Prim: m.Prim}, made: m.Made, arrived: c.tests})
	}
}

// control carries out a clear or a flush once the window is empty.
func (c *Comp) control(now sim.VTimeInSec) bool {
	if c.ctl == nil || len(c.works) > 0 {
		return false
	}
	m := c.ctl
	if m.Clear {
		c.st.clears++
		t := m.Target
		tg := fhiz.Target{Width: int(t.Width), Height: int(t.Height), Samples: int(t.Samples), Format: fhizFormat(t.Format)}
		if s := c.slotFor(t, tg); s != nil {
			pos := fhiz.Pos{}
			if c.seen {
				pos.Draw = c.maxSeq + 1
			}
			s.buf.Clear(m.Key, pos)
			hi := s.lay.base + s.lay.lines*s.lay.lineBytes
			c.tags.dropRange(s.lay.base, hi)
			keep := c.writes[:0]
			keepTasks := c.writeTasks[:0]
			for i, l := range c.writes {
				if !s.lay.contains(l) {
					keep = append(keep, l)
					if c.traced() {
						keepTasks = append(keepTasks, c.writeTasks[i])
					}
				}
			}
			c.writes = keep
			if c.traced() {
				clear(c.writeTasks[len(keepTasks):])
				c.writeTasks = keepTasks
			}
			s.cleared = make([]uint64, (s.lay.lines+63)/64)
			for i := range s.cleared {
				s.cleared[i] = ^uint64(0)
			}
		}
		c.ctl, c.ctlAck = nil, protocol.NewDone(m.ID, c.index)
		return true
	}
	if m.Flush {
		if !c.flushing {
			c.st.flushes++
			c.flushing = true
			if c.traced() {
				c.cause = c.ctlTask
			}
			for _, l := range c.tags.flush(nil) {
				c.pack(l)
				c.queueWrite(l)
			}
			return true
		}
		if len(c.writes) > 0 || !c.client.Idle() || len(c.fills) > 0 {
			c.waitMem = true
			return false
		}
		c.flushing = false
		c.ctl, c.ctlAck = nil, protocol.NewDone(m.ID, c.index)
		return true
	}
	c.ctl, c.ctlAck = nil, protocol.NewDone(m.ID, c.index)
	return true
}

func fhizFormat(f uint32) depth.Format { return depth.Format(f) }

// account updates the activity and schedules the next wake-up when the unit
// goes to sleep.
func (c *Comp) account(now sim.VTimeInSec, cycle uint64, progress bool) {
	inPipe := c.out.Len() > 0
	state := stateIdle
	switch {
	case progress:
		state = stateBusy
	case c.blocked: // a result ready in the pipeline that the depth unit did not take
		state = stateBlockedOutput
	case inPipe: // results still within the test latency
		state = stateBusy
	case c.waitMem || len(c.fills) > 0 && c.tested < len(c.works):
		state = stateWaitMemory
	}
	c.activity.Set(cycle, state)
	if progress {
		return
	}
	next := ^uint64(0)
	if r, ok := c.out.NextReady(); ok {
		next = r
	}
	if c.rateBlocked {
		next = min(next, c.rate.next(cycle))
	}
	if next != ^uint64(0) && next > cycle {
		c.waker.WakeIn(now, int(next-cycle))
	}
}

// Finish closes the activity accounting at time now.
func (c *Comp) Finish(now sim.VTimeInSec) { c.activity.Finish(c.Freq.Cycle(now)) }

// Buffers reports the input ports, the window, the output pipeline, the
// feedback FIFO and the memory queues.
func (c *Comp) Buffers() []timing.BufferState {
	n := c.Name()
	return []timing.BufferState{
		{Name: c.FromRasterizers.Name(), Len: c.inBuf.Size(), Cap: c.inBuf.Capacity()},
		{Name: c.FromDepthUnit.Name(), Len: c.fbBuf.Size(), Cap: c.fbBuf.Capacity()},
		{Name: n + ".Window", Len: len(c.works), Cap: c.window},
		{Name: n + ".Tests", Len: c.out.Len(), Cap: c.out.Latency * c.out.Width},
		{Name: n + ".Feedback", Len: len(c.fbq) - c.fbHead + len(c.fbWait), Cap: c.fbCap},
		{Name: n + ".HiZCache.WriteQueue", Len: len(c.writes), Cap: c.writeQueue},
		c.client.Buffer(n + ".HiZCache.MemoryRequests"),
	}
}

// Stats reports the counters (see the package documentation).
func (c *Comp) Stats(add func(name string, v float64)) {
	n := c.Name() + "."
	s := &c.st
	var hs fhiz.Stats
	for _, sl := range c.slots {
		hs.Add(sl.buf.Stats())
	}
	rate := 0.0
	if a := s.hits + s.misses; a > 0 {
		rate = float64(s.hits) / float64(a)
	}
	mean := func(sum, n uint64) float64 {
		if n == 0 {
			return 0
		}
		return float64(sum) / float64(n)
	}
	for _, e := range []struct {
		name string
		v    float64
	}{
		{"tiles_in", float64(s.tilesIn)}, {"quads_in", float64(s.quadsIn)},
		{"tiles_out", float64(s.tilesOut)}, {"quads_out", float64(s.quadsOut)},
		{"messages_culled", float64(s.messagesCulled)}, {"pass_through_tiles", float64(s.passTiles)},
		{"tiles_without_hiz", float64(s.noHiZTiles)}, {"draw_ends", float64(s.drawEnds)},
		{"tiles_5d_passed", float64(s.blurTiles)}, {"tiles_forgotten", float64(hs.Forgotten)},
		{"quads_culled", float64(hs.QuadsCulled)},
		{"coarse_tests", float64(hs.Tiles)}, {"tiles_culled", float64(hs.TilesCulled)},
		{"tiles_accepted", float64(hs.TilesAccepted)}, {"tiles_ambiguous", float64(hs.TilesAmbiguous)},
		{"units_tested", float64(hs.Units)}, {"units_culled", float64(hs.UnitsCulled)},
		{"culling_rate", hs.CullingRate()},
		{"samples_tested", float64(hs.Samples)}, {"samples_culled", float64(hs.SamplesCulled)},
		{"samples_accepted", float64(hs.SamplesAccept)}, {"conversions", float64(hs.Conversions)},
		{"packs", float64(hs.Packs)}, {"mask_blocks_forced", float64(hs.BlocksForced)},
		{"cache_hits", float64(s.hits)}, {"cache_misses", float64(s.misses)},
		{"cache_misses_merged", float64(s.merged)}, {"cache_cleared_fills", float64(s.clearedFills)},
		{"cache_refills", float64(s.refills)}, {"cache_line_reads", float64(s.lineReads)},
		{"cache_evictions", float64(s.evictions)}, {"cache_write_backs", float64(s.writeBacks)},
		{"cache_hit_rate", rate}, {"bytes_read", float64(s.bytesRead)}, {"bytes_written", float64(s.bytesWritten)},
		{"feedback_messages", float64(s.fbMessages)}, {"feedback_tiles", float64(s.fbTiles)},
		{"feedback_applied", float64(hs.FeedbackApplied)}, {"feedback_stale", float64(hs.FeedbackStale)},
		{"feedback_dropped_full", float64(s.fbDroppedFull)}, {"feedback_dropped_absent", float64(s.fbDroppedAbsent)},
		{"feedback_refetched", float64(s.fbRefetched)},
		{"feedback_age_cycles", mean(s.fbAgeCycles, s.fbAged)}, {"feedback_delay_tests", mean(s.fbDelayTests, s.fbAged)},
		{"clears", float64(s.clears)}, {"flushes", float64(s.flushes)},
	} {
		add(n+e.name, e.v)
	}
	c.client.Stats(c.Name()+".memory", add)
	c.activity.Stats(c.Name(), add)
}

// HiZStats returns the coarse depth buffers' counters summed over the targets.
func (c *Comp) HiZStats() fhiz.Stats {
	var hs fhiz.Stats
	for _, sl := range c.slots {
		hs.Add(sl.buf.Stats())
	}
	return hs
}
