package hiz

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/rtcache"
	"github.com/gfxsim/gfxsim/functional/command"
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
	timing.Unit[Config]

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

	hizCfg     fhiz.Config   // Config.HiZ with its defaults
	sender     timing.Sender // sends to the depth unit; Blocked: it did not take a ready result
	lineBytes  uint64
	cacheLine  int
	cacheLines int

	inBuf, fbBuf sim.Buffer
	client       *memclient.Client
	tags         *tagStore
	reads        rtcache.Reads[*int] // line reads in flight; each waiter counts its reads pending
	writes       []uint64            // lines to write back, FIFO
	writeTasks   []string            // tracing: the task that caused each write-back
	cause        string              // tracing: the task the unit works for now
	ctlTask      timing.Task         // tracing: the control command's task
	rate         *timing.Rate
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

	snap    []fhiz.TileState
	tileBuf []int
	encBuf  []byte

	waitMem, rateBlocked bool
	st                   counters
}

// counters are the unit's statistics, named by their tags (Stats).
type counters struct {
	tilesIn         uint64 `stat:"tiles_in"`
	quadsIn         uint64 `stat:"quads_in"`
	tilesOut        uint64 `stat:"tiles_out"`
	quadsOut        uint64 `stat:"quads_out"`
	messagesCulled  uint64 `stat:"messages_culled"`
	passTiles       uint64 `stat:"pass_through_tiles"`
	drawEnds        uint64 `stat:"draw_ends"`
	noHiZTiles      uint64 `stat:"tiles_without_hiz"`
	blurTiles       uint64 `stat:"tiles_5d_passed"`
	hits            uint64 `stat:"cache_hits"`
	misses          uint64 `stat:"cache_misses"`
	merged          uint64 `stat:"cache_misses_merged"`
	clearedFills    uint64 `stat:"cache_cleared_fills"`
	refills         uint64 `stat:"cache_refills"`
	lineReads       uint64 `stat:"cache_line_reads"`
	evictions       uint64 `stat:"cache_evictions"`
	writeBacks      uint64 `stat:"cache_write_backs"`
	bytesRead       uint64 `stat:"bytes_read"`
	bytesWritten    uint64 `stat:"bytes_written"`
	fbMessages      uint64 `stat:"feedback_messages"`
	fbTiles         uint64 `stat:"feedback_tiles"`
	fbDroppedFull   uint64 `stat:"feedback_dropped_full"`
	fbDroppedAbsent uint64 `stat:"feedback_dropped_absent"`
	fbRefetched     uint64 `stat:"feedback_refetched"`
	clears          uint64 `stat:"clears"`
	flushes         uint64 `stat:"flushes"`
	// Feedback ages: cycles and later tests summed over fbAged messages.
	fbAgeCycles, fbDelayTests, fbAged uint64
}

// Tick runs the stages from the back of the unit to its front.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cycle := c.Freq.Cycle(now)
	c.sender.Blocked, c.waitMem, c.rateBlocked = false, false, false
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
			c.Fault.Unexpected(c.FromDepthUnit, msg)
			return false
		}
	}
	if c.ctl != nil || c.ctlAck != nil || len(c.works) >= c.Cfg.Window {
		return progress
	}
	msg := c.FromRasterizers.Peek()
	if msg == nil {
		return progress
	}
	switch m := msg.(type) {
	case *protocol.TileQuads:
		if m.Draw == nil || m.Draw.State == nil || (m.Prim == nil && len(m.Quads) > 0) {
			c.Fault.Fail(fmt.Errorf("FromRasterizers: TileQuads %s without draw or primitive", m.ID))
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
			c.Fault.Fail(fmt.Errorf("FromRasterizers: DrawEnd %s without draw", m.ID))
			return false
		}
		c.FromRasterizers.Retrieve(now)
		c.noteDraw(m.Draw)
		c.st.drawEnds++
		c.works = append(c.works, &work{kind: workDrawEnd, end: m})
	default:
		c.Fault.Unexpected(c.FromRasterizers, msg)
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
	if c.hizCfg.Mode != fhiz.Oracle {
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
		g, err := fhiz.NewGeometry(info.dc.Target, c.hizCfg.TileSamples)
		if err != nil {
			c.Fault.Fail(err)
			return nil
		}
		ts := d.Raster.TileSize
		if ts == 0 {
			ts = raster.DefaultTileSize
		}
		if g.TileW > ts || g.TileH > ts {
			c.Fault.Fail(fmt.Errorf("HiZ tiles of %dx%d pixels (%d samples at %dx) do not fit the %d-pixel raster tiles: raise raster.tile_size or lower hiz.tile_samples",
				g.TileW, g.TileH, g.TileSamples, g.Samples, ts))
			return nil
		}
		info.slot = c.slotFor(d.State.DepthDesc, info.dc.Target)
		if info.slot == nil && c.Fault.Stopped() {
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
	if len(c.slots) >= c.Cfg.MaxTargets {
		c.st.noHiZTiles++
		return nil
	}
	buf, err := fhiz.NewBuffer(c.hizCfg, tg)
	if err != nil {
		c.Fault.Fail(err)
		return nil
	}
	base := c.Cfg.RegionBase + uint64(len(c.slots)*c.Cfg.NumPartitions+c.Cfg.Index)<<regionShift
	tileBits := buf.Config().MemoryTileBits() // a pixel may outgrow tile_samples (see hiz.TileDims)
	lay, err := newLayout(buf.Geometry(), base, c.Cfg.Index, c.Cfg.NumPartitions, c.Cfg.PartitionStride, c.Cfg.PartitionTile, tileBits, int(c.lineBytes))
	if err != nil {
		c.Fault.Fail(err)
		return nil
	}
	buf.SetOracle(c.table)
	s := &slot{addr: t.Addr, buf: buf, lay: lay}
	c.slots = append(c.slots, s)
	return s
}
