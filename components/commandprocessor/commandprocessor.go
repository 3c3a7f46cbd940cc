package commandprocessor

import (
	"fmt"
	"image"
	"strings"
	"unicode"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/timing"
)

// The activity states (timing.Activity): every cycle is busy, or waits for one
// reason, or is idle.
const (
	stateBusy             = iota // decoding or carrying out a command
	stateWaitDMA                 // waiting for stream bytes, resource bytes or a sync-token write
	stateWaitDrain               // a Clear, SyncToken, Present or End waits for the draws in flight (on the tiled machine, for their tiles)
	stateWaitStateVersion        // a draw waits for a free state version
	stateWaitAck                 // waiting for Done from the back end
	stateWaitSend                // a message could not be sent (the peer's link is full)
	stateIdle                    // not started, finished or halted
	numStates
)

var stateNames = [numStates]string{"busy", "wait_dma", "wait_drain", "wait_state_version", "wait_ack", "wait_send", "idle"}

// CommandProcessor is the GPU's front end: it fetches the command stream by DMA,
// decodes and carries out its commands in order, dispatches draws to the input
// assembler and synchronizes with the back end (see the package documentation).
type CommandProcessor struct {
	*timing.TickingComponent
	cfg Config
	env timing.Env // its halt stops the unit; its progress counts work done

	// ToMemory carries the DMA reads (stream chunks, resource bytes) and the
	// sync-token writes, across the host bus.
	ToMemory sim.Port
	// ToLocalMemory carries DrawAuto's counter reads to the GPU's memory
	// directly: the stream-out wrote the counter there.
	ToLocalMemory sim.Port
	// ToInputAssembler carries DrawDispatch messages.
	ToInputAssembler sim.Port
	// ToBackEnd sends ClearCmd and PresentCmd to the ROPs and depth units and
	// receives their Done, and DrawDone from the ROPs.
	ToBackEnd sim.Port

	// Peers, set by the platform builder before Start.
	InputAssembler sim.Port            // the input assembler's FromCommandProcessor port
	Memory         mem.LowModuleFinder // where DMA requests go
	LocalMemory    mem.LowModuleFinder // where DrawAuto's counter reads go (the memory channels)
	ROPs           []sim.Port          // one per partition
	DepthUnits     []sim.Port          // one per partition, or none when the ROPs hold depth too (SAGE's interleaves: one ClearCmd with every flag)
	// Binner is the tiled machine's binner (nil on the other machines): it
	// gets a PassEnd before every Clear, SyncToken, Present and End once the
	// draws before it are binned, and answers Done when their tiles are stored.
	Binner sim.Port
	Video  []sim.Port // units also sent PresentCmd (SAGE's convolve chips and video output), each answering Done
	// Samplers are the texture samplers' Control ports and L2Controls the
	// texture L2 banks' Control ports: a sync token invalidates them when a
	// target written since the last sync token may be cached stale (see
	// coherence.go). Empty: no texture cache is invalidated.
	Samplers, L2Controls []sim.Port
	// FenceObserver, when set, is called at every sync token once the draws
	// before it are complete, before its cache work (the coherence checker's
	// fence).
	FenceObserver func(now sim.VTimeInSec)

	waker    *timing.Waker
	activity *timing.Activity
	dma      *memclient.Client
	local    *memclient.Client // DrawAuto's counter reads (ToLocalMemory)

	// The frame.
	mem        state.Memory
	tracker    *state.Tracker
	streamBase uint64
	streamEnd  uint64
	display    uint64
	started    bool
	finished   bool
	finishTime sim.VTimeInSec
	err        error
	image      *image.RGBA

	// Prefetch: a ring of chunks in stream order, from chunkHead.
	chunks    []chunk
	chunkHead int
	numChunks int
	nextFetch uint64 // address of the next chunk to request
	window    []byte // scratch: the fetched bytes at decodeAddr
	// Decode.
	decodeAddr uint64
	ended      bool // End decoded: no more fetching or decoding
	cur        *pending
	// Bound targets (for the back-end commands): colour slots and depth.
	colorDesc [8]command.Target
	depthDesc command.Target

	// Draws in flight, in dispatch order.
	drawSeq  uint64
	inflight []*drawRecord
	// Back-end commands waiting to be sent, and the IDs of those sent whose Done
	// has not arrived.
	outbox timing.Outbox
	acks   []string
	// Tiled machine, traced: the draws binned whose draw task ends with their
	// pass (when the binner answers the PassEnd passEndID).
	binned    []uint64
	passEndID string

	coh coherence

	// Statistics.
	commands [command.NumOpcodes]uint64
	st       counters
}

// counters are the command processor's statistics, named by their tags (Stats).
type counters struct {
	draws      uint64 `stat:"draws"`
	clears     uint64 `stat:"clears"`
	presents   uint64 `stat:"presents"`
	syncs      uint64 `stat:"sync_tokens"`
	dmaRead    uint64 `stat:"dma_bytes_read"`
	autoReads  uint64 `stat:"draw_auto_reads"` // DrawAuto counter reads
	dmaWritten uint64 `stat:"dma_bytes_written"`
	passes     uint64 // PassEnds sent to the binner (tiled machine; reported there only)
}

type chunkState uint8

const (
	chunkRequested chunkState = iota
	chunkArrived
)

// chunk is one slot of the prefetch buffer.
type chunk struct {
	addr  uint64
	size  int
	state chunkState
	data  []byte
}

type drawRecord struct {
	draw     *protocol.Draw
	reported []bool
	pending  int
}

// Start begins the frame whose command stream is the streamBytes bytes at
// streamAddr in mem (the functional memory image; the component models the DMA
// traffic and reads the bytes from mem when they arrive). display is the address
// of the resolve buffer given to the ROPs at Present. It reports an error when a
// peer is missing or the frame was already started.
func (c *CommandProcessor) Start(m state.Memory, streamAddr, streamBytes uint64, display uint64) error {
	switch {
	case c.started:
		return fmt.Errorf("%s: Start: already started", c.Name())
	case m == nil:
		return fmt.Errorf("%s: Start: no memory image", c.Name())
	case c.Memory == nil:
		return fmt.Errorf("%s: Memory: not set (the DMA's LowModuleFinder)", c.Name())
	case c.LocalMemory == nil:
		return fmt.Errorf("%s: LocalMemory: not set (the LowModuleFinder of DrawAuto's counter reads)", c.Name())
	case c.InputAssembler == nil:
		return fmt.Errorf("%s: InputAssembler: not set", c.Name())
	case len(c.ROPs) != c.cfg.Partitions:
		return fmt.Errorf("%s: ROPs: %d ports for %d partitions", c.Name(), len(c.ROPs), c.cfg.Partitions)
	case len(c.DepthUnits) != c.cfg.Partitions && len(c.DepthUnits) != 0:
		return fmt.Errorf("%s: DepthUnits: %d ports for %d partitions", c.Name(), len(c.DepthUnits), c.cfg.Partitions)
	case streamAddr+streamBytes < streamAddr:
		return fmt.Errorf("%s: Start: stream of %d bytes at 0x%x wraps around", c.Name(), streamBytes, streamAddr)
	}
	dma, err := memclient.New(c.ToMemory, c.Memory, c.Freq, memclient.Config{MaxOutstanding: c.cfg.MaxOutstandingDMA})
	if err != nil {
		return fmt.Errorf("%s: %w", c.Name(), err)
	}
	c.dma = dma
	// DrawAuto reads one counter at a time (the CP drains first).
	local, err := memclient.New(c.ToLocalMemory, c.LocalMemory, c.Freq, memclient.Config{MaxOutstanding: 1})
	if err != nil {
		return fmt.Errorf("%s: %w", c.Name(), err)
	}
	c.local = local
	c.mem = m
	c.tracker = state.NewTracker(m)
	c.streamBase, c.streamEnd, c.display = streamAddr, streamAddr+streamBytes, display
	c.nextFetch, c.decodeAddr = streamAddr, streamAddr
	c.started = true
	now := c.Engine.CurrentTime()
	c.activity.Set(c.Freq.Cycle(now), stateWaitDMA)
	c.TickLater(now)
	return nil
}

// Finished reports whether the End command has been carried out (every draw
// complete, every back-end command acknowledged).
func (c *CommandProcessor) Finished() bool { return c.finished }

// FinishTime returns the time the End command was carried out.
func (c *CommandProcessor) FinishTime() sim.VTimeInSec { return c.finishTime }

// Image returns the resolved colour target at the last Present (nil before one).
func (c *CommandProcessor) Image() *image.RGBA { return c.image }

// Err returns the error that stopped the run (a malformed command, a state error
// or a protocol violation by a peer), naming the command's address; nil if none.
func (c *CommandProcessor) Err() error { return c.err }

// DrawsInFlight returns the number of draws dispatched and not yet complete.
func (c *CommandProcessor) DrawsInFlight() int { return len(c.inflight) }

// fail stops the run with err.
func (c *CommandProcessor) fail(err error) {
	if c.err == nil {
		c.err = err
	}
	if c.env.Halt != nil {
		c.env.Halt.Stop(err)
	}
}

// Stats reports the counters: commands and commands_<opcode> (snake case) for
// every opcode, draws, clears, presents, sync_tokens, dma_bytes_read,
// dma_bytes_written, draws_in_flight, the activity cycles (cycles_busy,
// cycles_wait_dma, cycles_wait_drain, cycles_wait_state_version,
// cycles_wait_ack, cycles_wait_send, cycles_idle) and utilization, the DMA
// client's counters under dma and the DrawAuto counter reads' under local.
func (c *CommandProcessor) Stats(add func(name string, v float64)) {
	p := c.Name() + "."
	var total uint64
	for _, n := range c.commands {
		total += n
	}
	add(p+"commands", float64(total))
	for op, n := range c.commands {
		add(p+"commands_"+snake(command.Opcode(op).String()), float64(n))
	}
	timing.AddTagged(p, add, &c.st)
	if c.Binner != nil {
		add(p+"passes", float64(c.st.passes))
	}
	timing.AddTagged(p, add, &c.coh)
	add(p+"draws_in_flight", float64(len(c.inflight)))
	c.activity.Stats(c.Name(), add)
	if c.dma != nil {
		c.dma.Stats(p+"dma", add)
		c.local.Stats(p+"local", add)
	}
}

// snake converts a CamelCase name to snake_case.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Buffers describes the prefetch buffer, the DMA requests in flight, the
// DrawAuto counter read in flight, the command being carried out, the draws
// in flight (capacity: the state versions), the back-end commands waiting to
// be sent and those waiting for Done.
func (c *CommandProcessor) Buffers() []timing.BufferState {
	n := c.Name()
	cur := 0
	if c.cur != nil {
		cur = 1
	}
	dma := timing.BufferState{Name: n + ".DMARequests", Cap: c.cfg.MaxOutstandingDMA}
	local := timing.BufferState{Name: n + ".LocalRequests", Cap: 1}
	if c.dma != nil {
		dma, local = c.dma.Buffer(n+".DMARequests"), c.local.Buffer(n+".LocalRequests")
	}
	return []timing.BufferState{
		{Name: n + ".Prefetch", Len: c.numChunks, Cap: c.cfg.MaxOutstandingDMA},
		dma,
		local,
		{Name: n + ".Command", Len: cur, Cap: 1},
		{Name: n + ".DrawsInFlight", Len: len(c.inflight), Cap: c.cfg.StateVersions},
		{Name: n + ".Outbox", Len: c.outbox.Len(), Cap: 2 * c.cfg.Partitions},
		{Name: n + ".Acks", Len: len(c.acks), Cap: 2 * c.cfg.Partitions},
	}
}

// Finish closes the activity accounting at time now.
func (c *CommandProcessor) Finish(now sim.VTimeInSec) {
	c.activity.Finish(c.Freq.Cycle(now))
}

// Tick runs the stages back to front: take memory responses and back-end
// messages, carry out the current command, send queued back-end commands, decode
// the next command, and prefetch the stream.
func (c *CommandProcessor) Tick(now sim.VTimeInSec) bool {
	if c.env.Halt.Stopped() || !c.started {
		return false
	}
	cycle := c.Freq.Cycle(now)
	progress := c.receiveMemory(now)
	progress = c.receiveBackEnd(now) || progress
	progress = c.execute(now, cycle) || progress
	progress = c.sendOutbox(now) || progress
	progress = c.decode(now, cycle) || progress
	progress = c.prefetch(now) || progress
	if !c.finished || cycle <= c.Freq.Cycle(c.finishTime) {
		c.activity.Set(cycle, c.status()) // the cycles after End are not the frame's
	}
	return progress
}

// status is the activity state the component is in after this cycle's work.
func (c *CommandProcessor) status() int {
	if c.err != nil || c.finished || c.env.Halt.Stopped() {
		return stateIdle
	}
	p := c.cur
	if p == nil {
		return stateWaitDMA // the decoder waits for stream bytes
	}
	switch p.phase {
	case phaseDecode:
		return stateBusy
	case phaseFetch:
		return stateWaitDMA
	case phaseAuto:
		if len(c.inflight) > 0 {
			return stateWaitDrain
		}
		return stateWaitDMA
	case phaseVersion:
		if p.ordering && len(c.inflight) < c.cfg.StateVersions {
			return stateWaitDrain
		}
		if len(c.inflight) >= c.cfg.StateVersions {
			return stateWaitStateVersion
		}
		return stateWaitSend
	case phaseDrain:
		return stateWaitDrain
	case phasePassEnd:
		// The tiled machine's draws are still in flight in their tiles.
		if c.outbox.Len() > 0 {
			return stateWaitSend
		}
		return stateWaitDrain
	case phaseAck:
		if c.outbox.Len() > 0 {
			return stateWaitSend
		}
		return stateWaitAck
	case phaseWrite:
		return stateWaitDMA
	}
	return stateBusy
}

// traced reports whether a tracer is attached: tasks are reported (and their IDs
// built) only then (docs/design-timing.md, section 10).
func (c *CommandProcessor) traced() bool { return c.NumHooks() > 0 }

// Compile-time check.
var _ protocol.Unit = (*CommandProcessor)(nil)
