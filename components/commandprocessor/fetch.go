package commandprocessor

import (
	"errors"
	"fmt"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
)

// Tags of the DMA requests.
const (
	tagChunk    uint64 = 1 // a chunk of the command stream
	tagResource uint64 = 2 // bytes a binding command refers to
	tagSync     uint64 = 3 // a sync-token write
)

// receiveMemory takes every DMA completion that has arrived, and the
// DrawAuto counter read's.
func (c *CommandProcessor) receiveMemory(now sim.VTimeInSec) bool {
	arrived := c.dma.ReceiveAll(now)
	for _, done := range arrived {
		switch done.Tag {
		case tagChunk:
			c.chunkArrived(done.Addr)
		case tagResource:
			if c.cur != nil {
				c.cur.resOutstanding--
			}
		case tagSync:
			if c.cur != nil {
				c.cur.writeDone = true
			}
		}
	}
	counters := c.local.ReceiveAll(now)
	if len(counters) > 0 && c.cur != nil {
		c.cur.autoDone = true // the DrawAuto's filled-size counter (one read at a time)
	}
	return len(arrived)+len(counters) > 0
}

// chunkArrived marks the chunk at addr arrived and takes its bytes from the
// functional memory image (the bytes the DMA carried).
func (c *CommandProcessor) chunkArrived(addr uint64) {
	for i := 0; i < c.numChunks; i++ {
		ch := &c.chunks[(c.chunkHead+i)%len(c.chunks)]
		if ch.addr == addr && ch.state == chunkRequested {
			ch.state = chunkArrived
			c.mem.ReadAt(ch.data[:ch.size], ch.addr)
			return
		}
	}
	// A chunk released after End was decoded: nothing waits for it.
}

// prefetch requests the next chunks of the stream while the prefetch buffer has
// a free slot and the DMA engine takes requests. Chunks are aligned to
// DMAChunkBytes (the first and last may be partial).
func (c *CommandProcessor) prefetch(now sim.VTimeInSec) bool {
	progress := false
	for !c.ended && c.err == nil && c.nextFetch < c.streamEnd && c.numChunks < len(c.chunks) {
		cb := uint64(c.cfg.DMAChunkBytes)
		end := min(c.streamEnd, (c.nextFetch/cb+1)*cb)
		size := end - c.nextFetch
		if c.traced() {
			c.dma.TraceAs(c, protocol.SimulationTaskID) // stream bytes: no command yet
		}
		if !c.dma.Read(now, c.nextFetch, size, tagChunk) {
			break
		}
		ch := &c.chunks[(c.chunkHead+c.numChunks)%len(c.chunks)]
		ch.addr, ch.size, ch.state = c.nextFetch, int(size), chunkRequested
		c.numChunks++
		c.nextFetch = end
		c.st.dmaRead += size
		progress = true
	}
	return progress
}

// fetched copies the contiguous arrived bytes from decodeAddr (at most
// MaxCommandBytes) into the window and returns them.
func (c *CommandProcessor) fetched() []byte {
	w := c.window[:0]
	for i := 0; i < c.numChunks && len(w) < MaxCommandBytes; i++ {
		ch := &c.chunks[(c.chunkHead+i)%len(c.chunks)]
		if ch.state != chunkArrived {
			break
		}
		lo := uint64(0)
		if c.decodeAddr > ch.addr {
			lo = c.decodeAddr - ch.addr
		}
		w = append(w, ch.data[lo:ch.size]...)
	}
	if len(w) > MaxCommandBytes {
		w = w[:MaxCommandBytes]
	}
	return w
}

// releaseChunks frees the chunks the decoder has moved past.
func (c *CommandProcessor) releaseChunks() {
	for c.numChunks > 0 {
		ch := &c.chunks[c.chunkHead]
		if ch.state != chunkArrived || ch.addr+uint64(ch.size) > c.decodeAddr {
			return
		}
		c.chunkHead = (c.chunkHead + 1) % len(c.chunks)
		c.numChunks--
	}
}

// moreComing reports whether stream bytes beyond those arrived are still to be
// requested or on their way.
func (c *CommandProcessor) moreComing() bool {
	if c.nextFetch < c.streamEnd {
		return true
	}
	for i := 0; i < c.numChunks; i++ {
		if c.chunks[(c.chunkHead+i)%len(c.chunks)].state != chunkArrived {
			return true
		}
	}
	return false
}

// decode decodes the next command once the current one is done and its bytes
// have arrived. The command is carried out DecodeCycles cycles later.
func (c *CommandProcessor) decode(now sim.VTimeInSec, cycle uint64) bool {
	if c.cur != nil || c.ended || c.err != nil {
		return false
	}
	if c.decodeAddr >= c.streamEnd {
		c.fail(&command.DecodeError{Offset: c.decodeAddr, Op: command.OpEnd, Msg: "stream ends without an End command"})
		return true
	}
	buf := c.fetched()
	cmd, size, err := command.DecodeOne(buf, c.decodeAddr)
	if errors.Is(err, command.ErrIncomplete) {
		if c.moreComing() {
			return false
		}
		op := command.OpNop
		if len(buf) > 0 {
			op = command.Opcode(buf[0])
		}
		c.fail(&command.DecodeError{Offset: c.decodeAddr, Op: op, Field: "length",
			Msg: fmt.Sprintf("command runs past the end of the stream (%d bytes left)", c.streamEnd-c.decodeAddr)})
		return true
	}
	if err != nil {
		c.fail(err)
		return true
	}
	c.cur = &pending{lc: command.Located{Addr: c.decodeAddr, Command: cmd}, readyAt: cycle + uint64(c.cfg.DecodeCycles)}
	if c.traced() {
		tracing.StartTask(protocol.CommandTaskID(c.decodeAddr), protocol.SimulationTaskID, c,
			protocol.KindCommand, c.cur.lc.Opcode().String(), nil)
	}
	c.decodeAddr += uint64(size)
	c.releaseChunks()
	if _, ok := cmd.(command.End); ok {
		c.ended = true
	}
	if c.cfg.DecodeCycles > 1 {
		c.waker.WakeIn(now, c.cfg.DecodeCycles)
	}
	return true
}
