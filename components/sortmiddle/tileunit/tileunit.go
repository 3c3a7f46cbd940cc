package tileunit

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/binning"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// Config is a tile unit's configuration (sortmiddle.tile_unit).
type Config struct {
	Index                int  // the unit's number (Done.From)
	StoreResolved        bool // a presenting pass stores only the resolved pixels
	LineBytes            int  // bytes of one load, store or bin read (the memory's access unit)
	PrimitivesPerCycle   int  // primitives sent to the rasterizer per cycle
	MaxOutstandingMemory int  // memory requests in flight
	MemoryLatency        int  // tile memory: cycles from request to answer
	MemoryBytesPerCycle  int  // tile memory: bytes taken per cycle
	MemoryBytes          int  // tile memory: the bytes of one tile buffer (the budget the tile size follows)
	InputQueue           int  // tile memory requests waiting
	// TileBuffers is how many tiles the tile memory holds: 1, or more to
	// store finished tiles while the next tile loads and renders (see the
	// package documentation, "Double buffering").
	TileBuffers int
}

// Validate names the first bad field.
func (c Config) Validate() error {
	return check.For("tile unit").
		That(c.LineBytes >= 4 && c.LineBytes&(c.LineBytes-1) == 0, "LineBytes %d must be a power of two of at least 4", c.LineBytes).
		FieldsAtLeast(1, c,
			"PrimitivesPerCycle", "MaxOutstandingMemory", "MemoryLatency", "MemoryBytesPerCycle",
			"MemoryBytes", "InputQueue", "TileBuffers").
		That(c.TileBuffers <= MaxTileBuffers, "TileBuffers %d must be at most %d", c.TileBuffers, MaxTileBuffers).
		Err()
}

// MaxTileBuffers bounds Config.TileBuffers.
const MaxTileBuffers = 8

// handOff moves the tile in progress, finished and flushed, to the tiles
// storing behind the next one (double buffering), and begins the next job.
func (c *TileUnit) handOff(cy uint64) {
	c.storing = append(c.storing, c.t)
	c.nextJob(cy)
}

// nextJob retires the tile in progress from the jobs (its store is done, or
// goes on behind) and begins the next job, if any.
func (c *TileUnit) nextJob(cy uint64) {
	c.jobs = c.jobs[1:]
	c.t = nil
	if len(c.jobs) > 0 {
		if err := c.begin(c.jobs[0], cy); err != nil {
			c.Fault.Fail(err)
		}
	}
}

// residentBytes is the colour and depth bytes of the tiles in the tile
// memory: the tile in progress and those storing behind it (a tile whose
// stores are all answered, waiting only to send its Done after older tiles',
// holds no buffer).
func (c *TileUnit) residentBytes() int {
	n := 0
	if c.t != nil {
		n = c.t.bytes
	}
	for _, t := range c.storing {
		if !t.stored() {
			n += t.bytes
		}
	}
	return n
}

// buffersStoring is how many tile buffers the tiles storing behind the tile
// in progress hold: those with stores not yet answered.
func (c *TileUnit) buffersStoring() int {
	n := 0
	for _, t := range c.storing {
		if !t.stored() {
			n++
		}
	}
	return n
}

// The activity states.
const (
	stateBusy = iota
	stateLoad
	stateWaitBin
	stateRender
	stateFlush
	stateStore
	stateIdle
	numStates
)

var stateNames = [numStates]string{"busy", "load", "wait_bin", "render", "flush", "store", "idle"}

// The phases of a tile.
type phase uint8

const (
	phaseFetch  phase = iota // loading the tile, reading the bin, sending primitives
	phaseRender              // every primitive sent; waiting for the ROP's DrawDones
	phaseFlush               // FlushCmd sent to the back end; waiting for Done
	phaseStore               // writing the tile
)

// Memory request tags: the kind in the top byte.
const (
	tagLoad = iota << 56
	tagBin
	tagParam
	tagStore
	tagMask = 0xff << 56
)

// TileUnit is the tiled machine's tile unit: see the package documentation.
type TileUnit struct {
	timing.Unit[Config]

	// FromScheduler receives protocol.TileJob and sends Done.
	FromScheduler sim.Port
	// ToRasterizer sends the tile's primitives (PrimitiveMsg with Window) and
	// DrawEnds.
	ToRasterizer sim.Port
	// Control sends FlushCmd to the ROP, the depth unit and the reorder
	// buffer; receives their Done and the ROP's DrawDone.
	Control sim.Port
	// ToMemory reads bins, primitives and tiles and writes tiles.
	ToMemory sim.Port
	// TileMemory serves the ROP's and the depth unit's line reads and
	// write-backs: the on-chip tile memory.
	TileMemory sim.Port

	// Peers, set by the platform builder.
	Scheduler, Rasterizer, ROP, DepthUnit, ReorderBuffer sim.Port
	Memory                                               mem.LowModuleFinder
	// Image is the simulated memory image (the functional truth).
	Image state.Memory

	mem *memclient.Client

	jobs         []*protocol.TileJob // tiles taken, in order; jobs[0] is in progress
	t            *tile               // the tile in progress
	storing      []*tile             // finished tiles whose stores drain behind it, oldest first (TileBuffers > 1)
	tiles        uint64              // tiles begun: the next tile's seq
	out          timing.Outbox       // Dones for the scheduler
	outTasks     []string            // their screen tiles' tasks (traced only)
	tm           []tmReq             // tile memory requests being served, in order
	pendingFlush timing.Outbox       // FlushCmds to send

	st stats
}

type tmReq struct {
	req   sim.Msg
	ready uint64
}

// tile is the state of the tile in progress.
type tile struct {
	seq   uint64 // the unit's count of tiles begun before it (its store requests' tag)
	job   *protocol.TileJob
	task  string // its screen_tile task (traced only)
	pass  *protocol.BinnedPass
	bin   *protocol.Bin
	rect  raster.Rect
	start uint64
	phase phase

	loads    []uint64 // lines to load
	loadNext int
	loadLeft int // loads not yet arrived

	binReads  []binRead
	binNext   int
	binOK     int // entries whose bin bytes arrived (a prefix)
	binCursor int // the first bin read not known arrived, in order

	paramNext int   // next entry whose record to read
	piece     int   // its next piece
	paramLeft []int // per entry, record pieces not yet arrived
	sendNext  int   // next entry to send to the rasterizer

	lastDraw  *protocol.Draw
	drawEnds  []*protocol.Draw // DrawEnds sent, DrawDone not yet received
	flushIDs  []string
	stores    []uint64
	storeNext int
	storeLeft int
	display   []uint64
	presented *framebuffer.ColorTarget // the colour target a presenting pass resolves
	bytes     int                      // colour and depth bytes of the tile
}

// binRead is one read of a bin's bytes: entries [first, end) of the bin,
// and the chunk's link when it ends at the link. after is the read holding
// the link to this read's chunk (-1 for the first chunk).
type binRead struct {
	addr, size uint64
	first, end int
	after      int
	arrived    bool
}

// Tick serves the tile memory, takes memory and back-end answers, and moves
// the tile in progress on.
func (c *TileUnit) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cy := c.Freq.Cycle(now)
	progress := c.serve(now, cy)
	progress = c.receiveMemory(now) || progress
	progress = c.receiveControl(now) || progress
	progress = c.sendDone(now) || progress
	progress = c.takeJobs(now, cy) || progress
	state := stateIdle
	if c.t != nil {
		var p bool
		p, state = c.step(now, cy)
		progress = p || progress
	}
	// The tiles storing behind take the memory requests the tile in progress
	// left this cycle, oldest first; a finished tile waiting for a buffer
	// stores in place with what they leave.
	if len(c.storing) > 0 {
		progress = c.drainStores(now, cy) || progress
		if c.t == nil {
			state = stateStore
		} else if c.t.phase == phaseStore && c.Cfg.TileBuffers > 1 {
			progress = c.issueStores(now, c.t) || progress
		}
	}
	if progress {
		state = stateBusy
	}
	c.Activity.Set(cy, state)
	return progress
}

func (c *TileUnit) takeJobs(now sim.VTimeInSec, cy uint64) bool {
	progress := false
	for {
		job, ok := timing.PeekAs[*protocol.TileJob](&c.Fault, c.FromScheduler)
		if !ok {
			break
		}
		if job.Pass == nil || job.Tile < 0 || job.Tile >= len(job.Pass.Bins) {
			c.Fault.Fail(fmt.Errorf("FromScheduler: TileJob for tile %d, not a tile of its pass", job.Tile))
			return false
		}
		c.FromScheduler.Retrieve(now)
		c.jobs = append(c.jobs, job)
		if c.traced() {
			c.startTileTask(job)
		}
		progress = true
	}
	if c.t == nil && len(c.jobs) > 0 {
		if err := c.begin(c.jobs[0], cy); err != nil {
			c.Fault.Fail(err)
			return false
		}
		progress = true
	}
	return progress
}

// begin starts tile job: the lines to load and the bin reads.
func (c *TileUnit) begin(job *protocol.TileJob, cy uint64) error {
	p := job.Pass
	t := &tile{seq: c.tiles, job: job, pass: p, bin: &p.Bins[job.Tile], rect: p.Grid.Rect(job.Tile), start: cy}
	c.tiles++
	line := uint64(c.Cfg.LineBytes)
	n := len(t.bin.Entries)
	var colour, depth []uint64
	if p.HasColor {
		ct, err := state.ColorTargetView(c.Image, p.Color)
		if err != nil {
			return fmt.Errorf("tile %d: colour target: %w", job.Tile, err)
		}
		colour = binning.ColorLines(nil, ct, p.Color.Addr, t.rect, line)
	}
	if p.HasDepth {
		dt, err := state.DepthTargetView(c.Image, p.Depth)
		if err != nil {
			return fmt.Errorf("tile %d: depth target: %w", job.Tile, err)
		}
		depth = binning.DepthLines(nil, dt, p.Depth.Addr, t.rect, line)
	}
	t.bytes = (len(colour) + len(depth)) * c.Cfg.LineBytes
	c.st.peak = max(c.st.peak, uint64(t.bytes+c.residentBytes()))
	if t.bytes > c.Cfg.MemoryBytes {
		c.st.overBudget++
	}
	if p.LoadColor && (n > 0 || p.Present) {
		t.loads = append(t.loads, colour...)
	}
	if p.LoadDepth && n > 0 {
		t.loads = append(t.loads, depth...)
	}
	t.loadLeft = len(t.loads)
	if n > 0 || p.StoreAll {
		if !(p.Present && c.Cfg.StoreResolved) {
			t.stores = append(t.stores, colour...)
			t.stores = append(t.stores, depth...)
		}
	}
	if p.Present {
		if err := c.present(t); err != nil {
			return fmt.Errorf("tile %d: present: %w", job.Tile, err)
		}
	}
	c.binReads(t)
	t.paramLeft = make([]int, n)
	if c.traced() {
		t.task = protocol.ScreenTileTaskID(p.Seq, job.Tile)
		c.mem.TraceAs(c, t.task)
	}
	c.t = t
	return nil
}

// binReads lists the reads of tile t's bin: each chunk's entries, in
// line-sized pieces of whole entries (one 8-byte entry a read when the line
// is smaller: with 4-byte lines, a line held no entry and the list grew
// without end). A chunk followed by another ends with the link that holds
// the next chunk's address: it is read with the chunk's last entries when
// they share a line, else on its own, and the next chunk's reads wait for it.
func (c *TileUnit) binReads(t *tile) {
	p := t.pass
	n := len(t.bin.Entries)
	line := uint64(c.Cfg.LineBytes)
	per := binning.EntriesPerChunk(p.ChunkBytes)
	perLine := max(1, c.Cfg.LineBytes/binning.EntryBytes)
	link := -1 // the read holding the current chunk's address
	for k, ch := range t.bin.Chunks {
		first, end := k*per, min(n, (k+1)*per)
		own := len(t.binReads)
		for e := first; e < end; e += perLine {
			f := min(end, e+perLine)
			t.binReads = append(t.binReads, binRead{addr: ch + uint64((e-first)*binning.EntryBytes),
				size: uint64((f - e) * binning.EntryBytes), first: e, end: f, after: link})
		}
		if k+1 == len(t.bin.Chunks) {
			break
		}
		la := ch + uint64(p.ChunkBytes-binning.LinkBytes)
		last := &t.binReads[len(t.binReads)-1]
		if len(t.binReads) > own && last.addr+last.size == la && last.addr/line == (la+binning.LinkBytes-1)/line {
			last.size += binning.LinkBytes
		} else {
			t.binReads = append(t.binReads, binRead{addr: la, size: binning.LinkBytes, first: end, end: end, after: link})
		}
		link = len(t.binReads) - 1
	}
}

// present prepares the resolve of tile t: the presented colour target and
// the lines of the display buffer (RGBA8, Width*4 bytes a row, linear) that
// the tile's pixels cover.
func (c *TileUnit) present(t *tile) error {
	p := t.pass
	ct, err := state.ColorTargetView(c.Image, p.Color)
	if err != nil {
		return err
	}
	w, h := ct.Width, ct.Height
	if _, ok := c.Image.Slice(p.Display, uint64(w*h*4)); !ok {
		return fmt.Errorf("Display: the %dx%d display buffer at 0x%x is outside the memory image", w, h, p.Display)
	}
	t.presented = ct
	line := uint64(c.Cfg.LineBytes)
	for y := t.rect.Y0; y < min(h, t.rect.Y1); y++ {
		start := p.Display + uint64(y*w+t.rect.X0)*4
		end := p.Display + uint64(y*w+min(w, t.rect.X1))*4
		for l := start &^ (line - 1); l < end; l += line {
			if len(t.display) == 0 || t.display[len(t.display)-1] != l {
				t.display = append(t.display, l)
			}
		}
	}
	return nil
}

// resolve writes tile t's resolved pixels (ColorTarget.ResolvePixel) into
// the display buffer of the memory image: when the tile is stored, after its
// draws are done and the back end flushed.
func (c *TileUnit) resolve(t *tile) {
	ct, p := t.presented, t.pass
	w, h := ct.Width, ct.Height
	img, _ := c.Image.Slice(p.Display, uint64(w*h*4)) // checked by present
	for y := t.rect.Y0; y < min(h, t.rect.Y1); y++ {
		for x := t.rect.X0; x < min(w, t.rect.X1); x++ {
			px := ct.ResolvePixel(x, y)
			copy(img[(y*w+x)*4:], px[:])
		}
	}
}

// store starts tile t's store phase, resolving it first on a presenting
// pass.
func (c *TileUnit) store(t *tile) {
	if t.presented != nil {
		c.resolve(t)
	}
	t.phase = phaseStore
}

// step moves the tile in progress on and returns its activity state.
func (c *TileUnit) step(now sim.VTimeInSec, cy uint64) (bool, int) {
	t := c.t
	switch t.phase {
	case phaseFetch:
		progress := c.issueLoads(now)
		progress = c.issueBinReads(now) || progress
		progress = c.issueParamReads(now) || progress
		progress = c.sendPrimitives(now) || progress
		if t.sendNext == len(t.bin.Entries) && t.loadLeft == 0 && t.loadNext == len(t.loads) {
			if t.lastDraw != nil {
				if !c.sendDrawEnd(now, t.lastDraw) {
					return progress, stateRender
				}
				t.lastDraw = nil
			}
			t.phase = phaseRender
			progress = true
		}
		if t.loadLeft > 0 {
			return progress, stateLoad
		}
		return progress, stateWaitBin
	case phaseRender:
		if len(t.drawEnds) > 0 {
			return false, stateRender
		}
		if len(t.bin.Entries) == 0 {
			c.store(t)
			return true, stateStore
		}
		for _, dst := range []sim.Port{c.ROP, c.DepthUnit, c.ReorderBuffer} {
			f := protocol.NewFlushCmd(true)
			f.Src, f.Dst = c.Control, dst
			t.flushIDs = append(t.flushIDs, f.ID)
			c.pendingFlush.Push(f)
		}
		t.phase = phaseFlush
		return true, stateFlush
	case phaseFlush:
		p := c.sendFlushes(now)
		if len(t.flushIDs) > 0 {
			return p, stateFlush
		}
		c.store(t)
		return true, stateStore
	case phaseStore:
		if c.Cfg.TileBuffers > 1 {
			if c.buffersStoring() >= c.Cfg.TileBuffers-1 && !t.stored() {
				// Every other buffer is still storing: the tile stores in
				// place meanwhile (Tick: with what the older tiles' stores
				// leave), and hands off once a buffer is free or its own
				// stores are all answered (its Done follows the older
				// tiles').
				return false, stateStore
			}
			c.handOff(cy)
			return true, stateBusy
		}
		p := c.issueStores(now, t)
		if !t.stored() {
			return p, stateStore
		}
		c.finishTile(t, cy)
		c.nextJob(cy)
		return true, stateBusy
	}
	return false, stateIdle
}
