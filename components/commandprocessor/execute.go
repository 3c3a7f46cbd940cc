package commandprocessor

import (
	"encoding/binary"
	"fmt"

	"github.com/sarchlab/akita/v3/mem/cache"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/reference"
	"github.com/gfxsim/gfxsim/functional/state"
)

// phase is where the current command is in its execution.
type phase uint8

const (
	phaseDecode  phase = iota // in the decoder (DecodeCycles)
	phaseFetch                // DMA-reading the bytes a binding refers to
	phaseVersion              // a draw waiting for a state version (or for its send)
	phaseDrain                // waiting until every earlier draw is complete
	phaseAck                  // back-end commands sent or to send, waiting for Done
	phaseWrite                // a sync-token write in flight
	phasePassEnd              // tiled machine: the binner renders the pass's tiles
	phaseAuto                 // a DrawAuto: drain, then read its filled-size counter
)

// pending is the command being carried out.
type pending struct {
	lc      command.Located
	readyAt uint64 // cycle at which the decoder is done with it
	phase   phase
	act     state.Action

	// phaseFetch: the byte range still to request and the pieces in flight.
	resNext, resEnd uint64
	resOutstanding  int

	// phaseVersion: the dispatch message, built once.
	dispatch *protocol.DrawDispatch

	// phasePassEnd: the PassEnd was queued.
	passEnded bool

	// A sync token's cache work was done (phaseAck then leads to the write).
	cohered bool

	// phaseAuto: the counter read was issued / has arrived.
	autoIssued, autoDone bool

	// phaseVersion: the draw waits for the stream-out ordering (a streaming
	// draw in flight, or this draw streams out and others are in flight).
	ordering bool

	// phaseWrite.
	writeData   []byte
	writeIssued bool
	writeDone   bool
}

// resource returns the bytes a binding command makes the GPU read: a shader's
// code, a constant block, a texture descriptor.
func resource(cmd command.Command) (addr, size uint64) {
	switch c := cmd.(type) {
	case command.BindShader:
		return c.Addr, uint64(c.Size)
	case command.SetConstants:
		return c.Addr, 16 * uint64(c.Count)
	case command.BindTexture:
		if c.Desc != 0 {
			return c.Desc, command.TextureDescriptorBytes
		}
	}
	return 0, 0
}

// mapped reports whether [addr, addr+size) lies in the memory image. A binding
// that refers to unmapped bytes is not fetched: shader code there is an error
// (a hostile size must not make the DMA engine, or the tracker, read gigabytes);
// constants and descriptors there read as zeros, as in the tracker.
func (c *CommandProcessor) mapped(addr, size uint64) bool {
	_, ok := c.mem.Slice(addr, size)
	return ok
}

// decoded moves decoded command p to its next phase: DrawAuto's counter read,
// the fetch of the bytes it refers to, or its application. It fails the
// command processor and reports false when a shader's code lies outside
// simulated memory.
func (c *CommandProcessor) decoded(p *pending) bool {
	addr, size := resource(p.lc.Command)
	if _, ok := p.lc.Command.(command.BindShader); ok && !c.mapped(addr, size) {
		c.fail(&state.Error{Addr: p.lc.Addr, Op: p.lc.Opcode(), Field: "code",
			Err: fmt.Errorf("%d bytes at 0x%x are outside simulated memory", size, addr)})
		return false
	}
	if _, ok := p.lc.Command.(command.DrawAuto); ok {
		p.phase = phaseAuto
	} else if size > 0 && c.mapped(addr, size) {
		p.resNext, p.resEnd = addr, addr+size
		p.phase = phaseFetch
	} else {
		c.apply(p)
	}
	return true
}

// drain ends the pass of drained command p (sort-middle, once) or finishes p.
func (c *CommandProcessor) drain(p *pending) {
	if c.Binner != nil && !p.passEnded {
		c.endPass(p)
		return
	}
	c.drained(p)
}

// backEndDone moves p on once every back-end command is sent and done: after
// a pass end back to the drain, after the commands to acknowledge to p's
// acknowledgement.
func (c *CommandProcessor) backEndDone(p *pending) {
	if p.phase == phasePassEnd {
		p.phase = phaseDrain
	} else {
		c.acknowledged(p)
	}
}

// execute advances the current command as far as it can go this cycle.
func (c *CommandProcessor) execute(now sim.VTimeInSec, cycle uint64) bool {
	p := c.cur
	if p == nil || c.err != nil {
		return false
	}
	progress := false
	for c.cur == p && c.err == nil {
		var moved bool
		switch p.phase {
		case phaseDecode:
			if cycle < p.readyAt {
				return progress
			}
			if !c.decoded(p) {
				return true
			}
			moved = true
		case phaseFetch:
			moved = c.fetchResource(now, p)
		case phaseVersion:
			moved = c.dispatchDraw(now, p)
		case phaseDrain:
			// Wait until every draw in flight is done.
			moved = len(c.inflight) == 0
			if moved {
				c.drain(p)
			}
		case phasePassEnd, phaseAck:
			// Both wait until every back-end command is sent and done.
			moved = c.outbox.Len() == 0 && len(c.acks) == 0
			if moved {
				c.backEndDone(p)
			}
		case phaseWrite:
			moved = c.writeSync(now, p)
		case phaseAuto:
			moved = c.drawAuto(now, p)
		}
		if !moved {
			break
		}
		progress = true
	}
	return progress
}

// fetchResource issues the DMA reads of the binding's bytes (pieces that do not
// cross a DMAChunkBytes boundary) and applies the command once all arrived.
func (c *CommandProcessor) fetchResource(now sim.VTimeInSec, p *pending) bool {
	progress := false
	cb := uint64(c.cfg.DMAChunkBytes)
	if p.resNext < p.resEnd && c.traced() {
		c.dma.TraceAs(c, protocol.CommandTaskID(p.lc.Addr))
	}
	for p.resNext < p.resEnd {
		end := min(p.resEnd, (p.resNext/cb+1)*cb)
		if end <= p.resNext { // the range reaches the top of the address space
			end = p.resEnd
		}
		if !c.dma.Read(now, p.resNext, end-p.resNext, tagResource) {
			return progress
		}
		c.st.dmaRead += end - p.resNext
		p.resNext = end
		p.resOutstanding++
		progress = true
	}
	if p.resOutstanding > 0 {
		return progress
	}
	c.apply(p)
	return true
}

// apply runs the command through the state tracker and decides what it waits
// for.
func (c *CommandProcessor) apply(p *pending) {
	act, err := c.tracker.Apply(p.lc)
	if err != nil {
		c.fail(err)
		return
	}
	c.commands[p.lc.Opcode()]++
	switch cmd := p.lc.Command.(type) {
	case command.SetColorTarget:
		c.colorDesc[cmd.Slot] = cmd.Target
	case command.SetDepthTarget:
		c.depthDesc = cmd.Target
	}
	p.act = act
	switch act.Kind {
	case state.ActDraw:
		p.phase = phaseVersion
	case state.ActClear, state.ActSync, state.ActPresent, state.ActEnd:
		p.phase = phaseDrain
	default:
		c.complete()
	}
}

// complete ends the current command.
func (c *CommandProcessor) complete() {
	if c.traced() {
		tracing.EndTask(protocol.CommandTaskID(c.cur.lc.Addr), c)
	}
	c.cur = nil
	c.env.Progress.Add(1)
}

// dispatchDraw sends the draw to the input assembler once fewer than
// StateVersions draws are in flight.
func (c *CommandProcessor) dispatchDraw(now sim.VTimeInSec, p *pending) bool {
	if len(c.inflight) >= c.cfg.StateVersions {
		return false
	}
	if p.ordering = c.streamOutOrdering(p.act.Draw); p.ordering {
		return false
	}
	if p.dispatch == nil {
		d := p.act.Draw
		if c.cfg.ForceLateZ {
			d.EarlyZ = false
		}
		if c.cfg.PerSample {
			d.Decoupling = command.DefaultDecoupling()
			d.EarlyZ = false
		}
		pd := &protocol.Draw{Seq: c.drawSeq, State: d}
		pd.Raster = pipeline.RasterConfig(d, c.cfg.RasterOptions)
		if err := pd.Raster.Validate(); err != nil {
			c.fail(fmt.Errorf("command stream @0x%x: %v: %w", p.lc.Addr, p.lc.Opcode(), err))
			return true
		}
		p.dispatch = protocol.NewDrawDispatch(pd)
		p.dispatch.Src, p.dispatch.Dst = c.ToInputAssembler, c.InputAssembler
	}
	p.dispatch.SendTime = now
	if c.ToInputAssembler.Send(p.dispatch) != nil {
		return false
	}
	c.inflight = append(c.inflight, &drawRecord{draw: p.dispatch.Draw, reported: make([]bool, c.cfg.Partitions),
		pending: c.cfg.Partitions})
	c.noteDraw(p.act.Draw)
	if c.traced() {
		seq := p.dispatch.Draw.Seq
		tracing.StartTask(protocol.DrawTaskID(seq), protocol.CommandTaskID(p.lc.Addr), c,
			protocol.KindDraw, protocol.TaskWhat("draw", seq), nil)
	}
	c.drawSeq++
	c.st.draws++
	c.complete()
	return true
}

// endPass asks the tiled machine's binner to render and store the tiles of the
// draws binned so far, before a Clear, SyncToken, Present or End is carried
// out; a Present's PassEnd names the target and display to resolve into.
func (c *CommandProcessor) endPass(p *pending) {
	p.passEnded = true
	var pe *protocol.PassEnd
	if p.act.Kind == state.ActPresent {
		slot := p.lc.Command.(command.Present).Slot
		pe = protocol.NewPresentPassEnd(c.colorDesc[slot], c.display)
	} else {
		pe = protocol.NewPassEnd()
	}
	c.queue(pe, c.Binner)
	c.passEndID = pe.ID
	c.st.passes++
	p.phase = phasePassEnd
}

// drained carries out a Clear, SyncToken, Present or End once every earlier draw
// is complete.
func (c *CommandProcessor) drained(p *pending) {
	act := p.act
	switch act.Kind {
	case state.ActClear:
		c.st.clears++
		reference.Clear(act)
		flags := act.Clear.Flags
		if len(c.DepthUnits) == 0 {
			// One unit per partition holds colour and depth (SAGE's 3DRAM
			// interleaves): one clear command with every flag.
			size := act.Color.SizeBytes()
			for _, rop := range c.ROPs {
				c.queue(protocol.NewClearCmd(flags, c.colorDesc[0], size), rop)
			}
			c.noteClear(c.colorDesc[0], size)
			p.phase = phaseAck
			return
		}
		if flags&command.ClearColor != 0 {
			size := act.Color.SizeBytes()
			for _, rop := range c.ROPs {
				c.queue(protocol.NewClearCmd(command.ClearColor, c.colorDesc[0], size), rop)
			}
			c.noteClear(c.colorDesc[0], size)
		}
		if ds := flags & (command.ClearDepth | command.ClearStencil); ds != 0 {
			size, err := state.DepthTargetSize(act.DepthBuf.Geometry, act.DepthBuf.Format)
			if err != nil {
				c.fail(fmt.Errorf("command stream @0x%x: %v: depth target: %w", p.lc.Addr, p.lc.Opcode(), err))
				return
			}
			for _, du := range c.DepthUnits {
				c.queue(protocol.NewClearCmd(ds, c.depthDesc, size), du)
			}
			c.noteClear(c.depthDesc, size)
		}
		p.phase = phaseAck
	case state.ActSync:
		c.st.syncs++
		p.cohered = true
		if c.syncCoherence(c.Engine.CurrentTime()) {
			p.phase = phaseAck
			return
		}
		c.syncWrite(p)
	case state.ActPresent:
		c.st.presents++
		slot := p.lc.Command.(command.Present).Slot
		for _, rop := range c.ROPs {
			c.queue(protocol.NewPresentCmd(c.colorDesc[slot], c.display), rop)
		}
		for _, du := range c.DepthUnits {
			c.queue(protocol.NewPresentCmd(c.colorDesc[slot], c.display), du)
		}
		for _, v := range c.Video {
			c.queue(protocol.NewPresentCmd(c.colorDesc[slot], c.display), v)
		}
		p.phase = phaseAck
	case state.ActEnd:
		c.finished = true
		c.finishTime = c.Engine.CurrentTime()
		c.complete()
	}
}

// syncWrite writes the sync token's value into the memory image and starts
// its DMA write, or completes the command when the address is 0 or unmapped.
func (c *CommandProcessor) syncWrite(p *pending) {
	s := p.act.Sync
	if s.Addr == 0 {
		c.complete()
		return
	}
	reference.WriteSyncToken(c.mem, s)
	if _, ok := c.mem.Slice(s.Addr, 4); !ok {
		c.complete() // unmapped: nothing is written (as in the reference renderer)
		return
	}
	p.writeData = binary.LittleEndian.AppendUint32(nil, s.Value)
	p.phase = phaseWrite
}

// acknowledged finishes a Clear or Present once every back-end unit answered,
// and moves a sync token from its cache work to its write.
func (c *CommandProcessor) acknowledged(p *pending) {
	switch p.act.Kind {
	case state.ActPresent:
		c.image = p.act.Color.Resolve()
		c.coh.backEndDirty = false // the ROPs and depth units flushed
	case state.ActSync:
		c.syncWrite(p)
		return
	}
	c.complete()
}

// writeSync issues the sync token's DMA write and completes when it is done.
func (c *CommandProcessor) writeSync(now sim.VTimeInSec, p *pending) bool {
	if !p.writeIssued {
		if c.traced() {
			c.dma.TraceAs(c, protocol.CommandTaskID(p.lc.Addr))
		}
		if !c.dma.Write(now, p.act.Sync.Addr, p.writeData, tagSync) {
			return false
		}
		p.writeIssued = true
		c.st.dmaWritten += uint64(len(p.writeData))
		return true
	}
	if !p.writeDone {
		return false
	}
	c.complete()
	return true
}

// queue adds a back-end command for dst to the outbox and expects its Done.
func (c *CommandProcessor) queue(msg sim.Msg, dst sim.Port) {
	m := msg.Meta()
	m.Src, m.Dst = c.ToBackEnd, dst
	c.outbox.Push(msg)
	c.acks = append(c.acks, m.ID)
}

// sendOutbox sends queued back-end commands in order until one is refused.
func (c *CommandProcessor) sendOutbox(now sim.VTimeInSec) bool {
	if !c.traced() {
		return c.outbox.Send(c.ToBackEnd, nil, now, nil)
	}
	return c.outbox.Send(c.ToBackEnd, nil, now, c.traceSent)
}

// traceSent traces the sending of back-end command msg under the current
// command.
func (c *CommandProcessor) traceSent(msg sim.Msg) {
	parent := protocol.SimulationTaskID
	if c.cur != nil {
		parent = protocol.CommandTaskID(c.cur.lc.Addr)
	}
	tracing.TraceReqInitiate(msg, c, parent)
}

// receiveBackEnd takes every DrawDone and Done that has arrived.
func (c *CommandProcessor) receiveBackEnd(now sim.VTimeInSec) bool {
	progress := false
	for c.err == nil {
		msg := c.ToBackEnd.Retrieve(now)
		if msg == nil {
			break
		}
		progress = true
		switch m := msg.(type) {
		case *protocol.DrawDone:
			c.drawDone(m)
		case *protocol.Done:
			c.ackDone(m.RspTo, fmt.Sprintf("partition %d", m.From))
		case *cache.FlushRsp:
			c.ackDone(m.RspTo, m.Src.Name())
		default:
			c.fail(fmt.Errorf("%s: unexpected %T on ToBackEnd", c.Name(), msg))
		}
	}
	return progress
}

func (c *CommandProcessor) drawDone(m *protocol.DrawDone) {
	if m.Draw == nil {
		c.fail(fmt.Errorf("%s: DrawDone without a draw from partition %d", c.Name(), m.Partition))
		return
	}
	for i, r := range c.inflight {
		if r.draw.Seq != m.Draw.Seq {
			continue
		}
		if m.Partition < 0 || m.Partition >= c.cfg.Partitions || r.reported[m.Partition] {
			c.fail(fmt.Errorf("%s: draw %d (command @0x%x): DrawDone from partition %d, which is out of range or reported twice",
				c.Name(), m.Draw.Seq, r.draw.State.Addr, m.Partition))
			return
		}
		r.reported[m.Partition] = true
		r.pending--
		if r.pending == 0 {
			switch {
			case !c.traced():
			case c.Binner != nil:
				// Binned, not yet rendered: the task ends with the pass.
				c.binned = append(c.binned, m.Draw.Seq)
			default:
				tracing.EndTask(protocol.DrawTaskID(m.Draw.Seq), c)
			}
			c.inflight = append(c.inflight[:i], c.inflight[i+1:]...)
			c.env.Progress.Add(1)
		}
		return
	}
	c.fail(fmt.Errorf("%s: DrawDone for draw %d, which is not in flight", c.Name(), m.Draw.Seq))
}

// ackDone takes the acknowledgement (a Done, or an L2 bank's FlushRsp) of the
// back-end command rspTo, from.
func (c *CommandProcessor) ackDone(rspTo, from string) {
	for i, id := range c.acks {
		if id == rspTo {
			if c.traced() {
				tracing.EndTask(protocol.ReqOutTaskID(rspTo), c)
				if rspTo == c.passEndID {
					c.endBinnedDraws()
				}
			}
			c.acks = append(c.acks[:i], c.acks[i+1:]...)
			return
		}
	}
	c.fail(fmt.Errorf("%s: Done (from %s) for %s, which is not awaited", c.Name(), from, rspTo))
}

// endBinnedDraws ends the draw tasks of the pass the binner has just rendered
// and stored (tiled machine): a draw's work is over when its tiles are.
func (c *CommandProcessor) endBinnedDraws() {
	for _, seq := range c.binned {
		tracing.EndTask(protocol.DrawTaskID(seq), c)
	}
	c.binned = c.binned[:0]
}

// streamOutOrdering reports whether draw d must wait before it is dispatched:
// a draw that streams out waits until no draw is in flight (an earlier draw
// may still read the buffers it overwrites), and any draw waits while a
// streaming draw is in flight (it may read what that one writes). A
// streaming draw is complete (DrawDone from every partition) only after its
// stream-out writes and counters are in memory: primitive assembly holds its
// end marker until they are.
func (c *CommandProcessor) streamOutOrdering(d *state.Draw) bool {
	if len(c.inflight) == 0 {
		return false
	}
	if d.StreamOut != nil {
		return true
	}
	for _, r := range c.inflight {
		if r.draw.State.StreamOut != nil {
			return true
		}
	}
	return false
}

// drawAuto carries out a DrawAuto: once no draw is in flight (so the stream-out
// that wrote its counter is complete: see streamOutOrdering), the CP reads
// the 4-byte filled-size counter itself from the GPU's memory (ToLocalMemory;
// no host round trip), then applies the command through the state tracker, which
// computes the vertex count from the counter in the memory image (the bytes
// the read carried) exactly as the reference renderer does.
func (c *CommandProcessor) drawAuto(now sim.VTimeInSec, p *pending) bool {
	if len(c.inflight) > 0 {
		return false
	}
	addr := p.lc.Command.(command.DrawAuto).FilledAddr
	if !p.autoIssued {
		if !c.mapped(addr, 4) {
			p.autoIssued, p.autoDone = true, true // unmapped: the tracker reads zeros or refuses it
			return true
		}
		if c.traced() {
			c.local.TraceAs(c, protocol.CommandTaskID(p.lc.Addr))
		}
		if !c.local.Read(now, addr, 4, 0) {
			return false
		}
		c.st.autoReads++
		p.autoIssued = true
		return true
	}
	if !p.autoDone {
		return false
	}
	c.apply(p)
	return true
}
