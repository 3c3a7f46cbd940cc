package binner

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/binning"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/internal/check"
	"github.com/gfxsim/gfxsim/timing"
)

// Config is the binner's configuration (sortmiddle.binner).
type Config struct {
	EntriesPerCycle      int // bin entries appended per cycle
	ChunkBytes           int // bytes of one bin chunk (entries and the link)
	LineBytes            int // bytes of one memory write (the write-combining line)
	MaxOutstandingMemory int // writes in flight
	InputQueue           int // capacity of FromPrimitiveAssembly
}

// Validate names the first bad field.
func (c Config) Validate() error {
	return check.For("binner").
		AtLeast("EntriesPerCycle", c.EntriesPerCycle, 1).
		That(c.LineBytes >= binning.EntryBytes && c.LineBytes&(c.LineBytes-1) == 0,
			"LineBytes %d must be a power of two of at least %d", c.LineBytes, binning.EntryBytes).
		That(c.ChunkBytes >= 2*binning.EntryBytes && (c.ChunkBytes%c.LineBytes == 0 || c.LineBytes%c.ChunkBytes == 0),
			"ChunkBytes %d must hold an entry and a link and align with LineBytes (%d)", c.ChunkBytes, c.LineBytes).
		AtLeast("MaxOutstandingMemory", c.MaxOutstandingMemory, 1).
		AtLeast("InputQueue", c.InputQueue, 1).
		Err()
}

// The activity states.
const (
	stateBusy = iota
	stateBinning
	stateWaitMemory
	stateWaitTiles
	stateBlockedSend
	stateIdle
	numStates
)

var stateNames = [numStates]string{"busy", "binning", "wait_memory", "wait_tiles", "blocked_send", "idle"}

// Binner is the tiled machine's binner: see the package documentation.
type Binner struct {
	timing.Unit[Config]

	// FromPrimitiveAssembly receives protocol.PrimitiveMsg and protocol.DrawEnd.
	FromPrimitiveAssembly sim.Port
	// Control receives PassEnd, ClearCmd and PresentCmd from the command
	// processor and sends it Done and DrawDone.
	Control sim.Port
	// ToMemory writes the bins and the parameter buffer.
	ToMemory sim.Port
	// ToScheduler sends BinnedPass and receives the scheduler's Done.
	ToScheduler sim.Port

	// Peers, set by the platform builder.
	CommandProcessor sim.Port
	Scheduler        sim.Port
	Memory           mem.LowModuleFinder

	mem *memclient.Client

	grid       binning.Grid
	regionBase uint64 // the parameter buffer; chunks from chunkBase
	chunkBase  uint64

	// The pass being binned.
	pass      *protocol.BinnedPass
	passSeq   uint64 // the next pass's number
	paramNext uint64 // next free byte of the parameter buffer
	paramLine uint64 // the parameter-buffer line being filled (written when left)
	paramOpen bool
	chunkNext uint64          // next free chunk
	fill      []int           // per bin, entries in its current chunk
	unwritten []int           // per bin, entries of its current line not yet written
	cleared   map[uint64]bool // targets cleared and not stored since
	clears    []clearTarget   // the ClearCmds since the last pass

	cur      *protocol.PrimitiveMsg // the primitive being binned
	curTask  string                 // its bin task (traced only)
	curTiles [4]int                 // its tile range
	curNext  int                    // tiles of it binned so far
	writes   []write                // queued memory writes
	out      timing.Outbox          // messages to the command processor
	passEnd  *protocol.PassEnd      // the pass end being carried out
	sent     bool                   // the pass went to the scheduler
	zero     []byte

	st counters
}

// counters are the unit's statistics, named by their tags (Stats).
type counters struct {
	prims       uint64 `stat:"primitives"`
	entries     uint64 `stat:"bin_entries"`
	maxSpread   uint64 `stat:"bin_spread_max"`
	draws       uint64 `stat:"draws"`
	passes      uint64 `stat:"passes"`
	emptyPasses uint64 `stat:"empty_passes"`
	clears      uint64 `stat:"clears"`
	presents    uint64 `stat:"presents"`
	chunks      uint64 `stat:"chunks"`
	binBytes    uint64 `stat:"bin_bytes_written"`
	paramBytes  uint64 `stat:"parameter_bytes_written"`
}

type write struct {
	addr uint64
	data []byte
	kind int
}

const (
	kindBin = iota
	kindParam
)

// SetFrame sets the frame's tile grid and the memory region above the frame's
// image where the parameter buffer and the bins go.
func (c *Binner) SetFrame(g binning.Grid, regionBase uint64) {
	c.grid = g
	c.regionBase = regionBase
	c.chunkBase = regionBase + 1<<32
	c.cleared = map[uint64]bool{}
	c.reset()
}

func (c *Binner) reset() {
	c.pass = nil
	c.paramNext = c.regionBase
	c.paramOpen = false
	c.chunkNext = c.chunkBase
	n := c.grid.Count()
	c.fill = make([]int, n)
	c.unwritten = make([]int, n)
}

// Tick answers the command processor, writes what is queued, bins the current
// primitive and takes the next message.
func (c *Binner) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cy := c.Freq.Cycle(now)
	progress := c.receiveMemory(now)
	progress = c.sendControl(now) || progress
	progress = c.issueWrites(now) || progress
	progress = c.receiveScheduler(now) || progress
	state := stateIdle
	switch {
	case c.passEnd != nil:
		progress = c.endPass(now) || progress
		state = stateWaitTiles
		if !c.sent {
			state = stateWaitMemory
		}
	case c.cur != nil:
		progress = c.bin() || progress
		state = stateBinning
	default:
		progress = c.take(now) || progress
	}
	if len(c.writes) > 0 && !progress {
		state = stateWaitMemory
	}
	if progress && state == stateIdle {
		state = stateBusy
	}
	c.Activity.Set(cy, state)
	return progress
}

func (c *Binner) receiveMemory(now sim.VTimeInSec) bool {
	return len(c.mem.ReceiveAll(now)) > 0
}

func (c *Binner) sendControl(now sim.VTimeInSec) bool {
	return c.out.Send(c.Control, c.CommandProcessor, now, nil)
}

func (c *Binner) issueWrites(now sim.VTimeInSec) bool {
	progress := false
	for len(c.writes) > 0 {
		w := c.writes[0]
		if !c.mem.Write(now, w.addr, w.data, uint64(w.kind)) {
			return progress
		}
		if w.kind == kindBin {
			c.st.binBytes += uint64(len(w.data))
		} else {
			c.st.paramBytes += uint64(len(w.data))
		}
		c.writes = c.writes[1:]
		progress = true
	}
	return progress
}

// take takes the next primitive or draw end, or a command processor's
// message.
func (c *Binner) take(now sim.VTimeInSec) bool {
	if m := c.Control.Peek(); m != nil {
		return c.control(now, m)
	}
	msg := c.FromPrimitiveAssembly.Peek()
	if msg == nil {
		return false
	}
	switch m := msg.(type) {
	case *protocol.PrimitiveMsg:
		if !c.admit(now, m.Draw, m.Draw != nil && m.Prim != nil, "PrimitiveMsg without draw or primitive") {
			return false
		}
		c.start(m)
	case *protocol.DrawEnd:
		if !c.admit(now, m.Draw, m.Draw != nil, "DrawEnd without draw") {
			return false
		}
		c.st.draws++
		c.out.Push(protocol.NewDrawDone(m.Draw, 0))
		c.Env.Progress.Add(1)
	default:
		c.Fault.Unexpected(c.FromPrimitiveAssembly, msg)
		return false
	}
	return true
}

// admit takes the message at the head of FromPrimitiveAssembly, of draw d,
// when it is whole (else the binner fails with the error missing) and d
// joins the open pass (joinPass; else the binner fails with its error). It
// reports whether it took the message.
func (c *Binner) admit(now sim.VTimeInSec, d *protocol.Draw, whole bool, missing string) bool {
	if !whole {
		c.Fault.Fail(errors.New(missing))
		return false
	}
	if err := c.joinPass(d); err != nil {
		c.Fault.Fail(err)
		return false
	}
	c.FromPrimitiveAssembly.Retrieve(now)
	return true
}

// joinPass opens the pass with d's targets, or checks that d renders to the
// open pass's targets (a change of target inside a pass is not modelled).
func (c *Binner) joinPass(d *protocol.Draw) error {
	st := d.State
	hasColor, hasDepth := st.Color != nil, st.DepthBound
	if c.pass == nil {
		p := c.newPass()
		p.HasColor, p.HasDepth = hasColor, hasDepth
		p.Color, p.Depth = st.ColorDesc, st.DepthDesc
		return nil
	}
	p := c.pass
	if p.HasColor != hasColor || p.HasDepth != hasDepth || hasColor && p.Color != st.ColorDesc ||
		hasDepth && p.Depth != st.DepthDesc {
		return fmt.Errorf("draw %d renders to other targets than the earlier draws of its pass; the tiled "+
			"machine keeps one colour and one depth target per pass (end the pass with a Clear or Present first)", d.Seq)
	}
	return nil
}

// newPass opens the next pass, with empty bins and no targets, and starts its
// pass task (below the Simulation task; the bins' and the parameter buffer's
// writes hang below it).
func (c *Binner) newPass() *protocol.BinnedPass {
	p := protocol.NewBinnedPass()
	p.Seq = c.passSeq
	c.passSeq++
	p.Grid, p.ParamBase = c.grid, c.regionBase
	p.Bins = make([]protocol.Bin, c.grid.Count())
	p.ChunkBytes = c.Cfg.ChunkBytes
	c.pass = p
	if c.traced() {
		id := protocol.PassTaskID(p.Seq)
		tracing.StartTask(id, protocol.SimulationTaskID, c, protocol.KindPass, protocol.TaskWhat("pass", p.Seq), nil)
		c.mem.TraceAs(c, id)
	}
	return p
}

// traced reports whether a tracer is attached: tasks are reported (and their
// IDs built) only then (docs/design-timing.md, section 10).
func (c *Binner) traced() bool { return c.NumHooks() > 0 }

// start begins binning primitive m: its record goes to the parameter buffer.
func (c *Binner) start(m *protocol.PrimitiveMsg) {
	p := c.pass
	size := binning.RecordBytes(len(m.Draw.State.Link))
	p.Prims = append(p.Prims, protocol.BinnedPrim{Draw: m.Draw, Prim: m.Prim, Index: m.Index, Addr: c.paramNext, Bytes: size})
	c.st.prims++
	c.appendParam(uint64(size))
	tx0, ty0, tx1, ty1 := c.grid.Range(binning.Box(m.Prim))
	c.cur = m
	c.curTiles = [4]int{tx0, ty0, tx1, ty1}
	c.curNext = 0
	spread := uint64(max(0, tx1-tx0) * max(0, ty1-ty0))
	c.st.maxSpread = max(c.st.maxSpread, spread)
	if c.traced() {
		c.curTask = protocol.PrimTaskID(m.Draw.Seq, m.Prim, protocol.AtBin)
		tracing.StartTask(c.curTask, protocol.DrawTaskID(m.Draw.Seq), c, protocol.KindBin,
			protocol.Count(int(spread), "tiles"), nil)
	}
}

// appendParam adds n bytes to the parameter buffer, writing each line as it
// is left.
func (c *Binner) appendParam(n uint64) {
	line := uint64(c.Cfg.LineBytes)
	end := c.paramNext + n
	for a := c.paramNext; a < end; {
		l := a &^ (line - 1)
		if c.paramOpen && l != c.paramLine {
			c.queue(c.paramLine, line, kindParam)
		}
		c.paramLine, c.paramOpen = l, true
		a = min(end, l+line)
	}
	c.paramNext = end
}

func (c *Binner) queue(addr, n uint64, kind int) {
	c.writes = append(c.writes, write{addr: addr, data: c.zero[:n], kind: kind})
}

// bin appends EntriesPerCycle entries of the current primitive to its tiles'
// bins, in row-major tile order.
func (c *Binner) bin() bool {
	t := c.curTiles
	w, h := t[2]-t[0], t[3]-t[1]
	total := max(0, w) * max(0, h)
	p := c.pass
	idx := uint32(len(p.Prims) - 1)
	nx, _ := c.grid.Tiles()
	for k := 0; k < c.Cfg.EntriesPerCycle && c.curNext < total; k++ {
		tx, ty := t[0]+c.curNext%w, t[1]+c.curNext/w
		c.appendEntry(ty*nx+tx, idx)
		c.curNext++
	}
	if c.curNext >= total {
		c.cur = nil
		if c.curTask != "" {
			tracing.EndTask(c.curTask, c)
			c.curTask = ""
		}
	}
	return true
}

// appendEntry appends one entry to bin b, starting a chunk (and writing the
// full chunk's link) when needed, and writes the entries of a line when the
// line or the chunk is full.
func (c *Binner) appendEntry(b int, prim uint32) {
	per := binning.EntriesPerChunk(c.Cfg.ChunkBytes)
	bin := &c.pass.Bins[b]
	if len(bin.Chunks) == 0 || c.fill[b] == per {
		chunk := c.chunkNext
		c.chunkNext += uint64(c.Cfg.ChunkBytes)
		if len(bin.Chunks) > 0 {
			// The link in the full chunk's last 8 bytes.
			prev := bin.Chunks[len(bin.Chunks)-1]
			data := binary.LittleEndian.AppendUint64(nil, chunk)
			c.writes = append(c.writes, write{addr: prev + uint64(c.Cfg.ChunkBytes-binning.LinkBytes), data: data, kind: kindBin})
		}
		bin.Chunks = append(bin.Chunks, chunk)
		c.fill[b] = 0
		c.st.chunks++
	}
	bin.Entries = append(bin.Entries, prim)
	c.fill[b]++
	c.unwritten[b]++
	c.st.entries++
	if c.fill[b]*binning.EntryBytes%c.Cfg.LineBytes == 0 || c.fill[b] == per {
		c.flushBin(b)
	}
}

// flushBin writes bin b's unwritten entries (they lie in one line of its
// current chunk): the primitive's index and its draw, 4 bytes each.
func (c *Binner) flushBin(b int) {
	n := c.unwritten[b]
	if n == 0 {
		return
	}
	bin := &c.pass.Bins[b]
	first := c.fill[b] - n
	chunk := bin.Chunks[len(bin.Chunks)-1]
	data := make([]byte, 0, n*binning.EntryBytes)
	for _, e := range bin.Entries[len(bin.Entries)-n:] {
		data = binary.LittleEndian.AppendUint32(data, e)
		data = binary.LittleEndian.AppendUint32(data, uint32(c.pass.Prims[e].Draw.Seq))
	}
	c.writes = append(c.writes, write{addr: chunk + uint64(first*binning.EntryBytes), data: data, kind: kindBin})
	c.unwritten[b] = 0
}

// control takes a command processor's message.
func (c *Binner) control(now sim.VTimeInSec, msg sim.Msg) bool {
	switch m := msg.(type) {
	case *protocol.PassEnd:
		c.Control.Retrieve(now)
		c.passEnd = m
		c.sent = false
		c.finishPass()
	case *protocol.ClearCmd:
		c.Control.Retrieve(now)
		c.cleared[m.Target.Addr] = true
		c.clears = append(c.clears, clearTarget{flags: m.Flags, target: m.Target})
		c.st.clears++
		c.out.Push(protocol.NewDone(m.ID, 0))
	case *protocol.PresentCmd:
		c.Control.Retrieve(now)
		c.st.presents++
		c.out.Push(protocol.NewDone(m.ID, 0))
	default:
		c.Fault.Unexpected(c.Control, msg)
		return false
	}
	return true
}

type clearTarget struct {
	flags  uint32
	target command.Target
}

// finishPass writes every partly filled line, the bins' and the parameter
// buffer's, and completes the pass's descriptor. A pass without draws exists
// when something was cleared (the cleared tiles are stored) or presented.
func (c *Binner) finishPass() {
	pe := c.passEnd
	if c.pass == nil && (len(c.clears) > 0 || pe.Present) {
		p := c.newPass()
		for _, ct := range c.clears {
			if ct.flags&command.ClearColor != 0 {
				p.HasColor, p.Color = true, ct.target
			} else {
				p.HasDepth, p.Depth = true, ct.target
			}
		}
	}
	if c.pass == nil {
		return
	}
	for b := range c.pass.Bins {
		c.flushBin(b)
	}
	if c.paramOpen {
		c.queue(c.paramLine, uint64(c.Cfg.LineBytes), kindParam)
		c.paramOpen = false
	}
	p := c.pass
	if pe.Present && (!p.HasColor || p.Color != pe.Target) {
		p.HasColor, p.Color = true, pe.Target
	}
	p.LoadColor = p.HasColor && !c.cleared[p.Color.Addr]
	p.LoadDepth = p.HasDepth && !c.cleared[p.Depth.Addr]
	p.StoreAll = p.HasColor && c.cleared[p.Color.Addr] || p.HasDepth && c.cleared[p.Depth.Addr]
	p.Present, p.Display = pe.Present, pe.Display
}

// endPass sends the binned pass to the scheduler once its writes are done,
// and answers the command processor when the scheduler is done with it.
func (c *Binner) endPass(now sim.VTimeInSec) bool {
	if c.sent {
		return false
	}
	if c.pass == nil {
		c.st.emptyPasses++
		c.done(c.passEnd)
		return true
	}
	if len(c.writes) > 0 || !c.mem.Idle() {
		return false
	}
	p := c.pass
	p.Src, p.Dst, p.SendTime = c.ToScheduler, c.Scheduler, now
	if c.ToScheduler.Send(p) != nil {
		return false
	}
	c.sent = true
	return true
}

func (c *Binner) receiveScheduler(now sim.VTimeInSec) bool {
	d, ok := timing.TakeAs[*protocol.Done](&c.Fault, c.ToScheduler, now)
	if !ok {
		return false
	}
	if c.passEnd == nil || !c.sent || d.RspTo != c.pass.ID {
		c.Fault.Fail(fmt.Errorf("ToScheduler: Done for %s, not for the pass sent", d.RspTo))
		return false
	}
	p := c.pass
	if p.HasColor {
		delete(c.cleared, p.Color.Addr)
	}
	if p.HasDepth {
		delete(c.cleared, p.Depth.Addr)
	}
	c.st.passes++
	if c.traced() {
		tracing.EndTask(protocol.PassTaskID(p.Seq), c)
	}
	c.done(c.passEnd)
	return true
}

// done answers pass end pe and starts a new pass.
func (c *Binner) done(pe *protocol.PassEnd) {
	c.out.Push(protocol.NewDone(pe.ID, 0))
	c.passEnd = nil
	c.sent = false
	c.clears = c.clears[:0]
	c.reset()
}
