package shadercore

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/timing"
)

// Activity states of the core, counted per cycle (timing.Activity).
const (
	actBusy          = iota // the SIMD is executing a warp instruction
	actStallTexture         // every resident warp waits for a texture response
	actStallLatency         // a warp waits for its previous instruction or its inputs
	actBlockedOutput        // every resident warp is finished and its output port is full
	actStarved              // no warp is resident (after the first work arrived)
	actIdle                 // no work has arrived yet
)

var activityNames = [...]string{"busy", "stall_texture", "stall_latency", "blocked_output", "starved", "idle"}

// Comp is a unified shader core: warp slots, a register file, an in-order
// warp scheduler and a SIMD unit shared by vertex and pixel warps. See the
// package documentation.
type Comp struct {
	timing.Unit[Config]

	// FromDispatch receives VertexBatch (input assembler) and PixelWarp
	// (reorder buffer) messages; its buffer is the input queue.
	FromDispatch sim.Port
	// ToPrimitiveAssembly sends ShadedBatch messages.
	ToPrimitiveAssembly sim.Port
	// ToReorderBuffer sends ShadedWarp messages.
	ToReorderBuffer sim.Port
	// Sampler sends TexRequest messages to the core's texture sampler and
	// receives its TexResponse messages.
	Sampler sim.Port

	// PrimitiveAssemblyPort, ReorderBufferPort and SamplerPort are the remote
	// ports, set by the platform builder after building.
	PrimitiveAssemblyPort sim.Port
	ReorderBufferPort     sim.Port
	SamplerPort           sim.Port

	issueCycles int
	sfuCycles   int // issue cycles of a special-function instruction

	inputBuf    sim.Buffer
	responseBuf sim.Buffer

	slots    []warpSlot
	order    []int // resident slots in admission order (oldest first)
	regsUsed int
	nextSeq  uint64
	temps    map[*shader.Program]int // Resources().Temps per program (lookups only)

	issueFreeAt  uint64 // first cycle the SIMD can take another instruction
	interpFreeAt uint64 // first cycle the input loader is free
	texQueue     []texSend
	gotWork      bool

	admitWait admitWait // why the head of the input queue waits

	// The geometry stage: GS warps arrive on ToPrimitiveAssembly (its
	// buffer is the GS input queue) and hold output buffer bytes.
	gsInputBuf sim.Buffer
	gsBufUsed  int
	maxGSWarps int
	gsResident int
	gsWait     admitWait // why the head of the GS input queue waits

	stats stats
}

type admitBlock uint8

const (
	admitFree admitBlock = iota
	admitBlockedSlots
	admitBlockedRegisters
	admitBlockedGSBuffer // GS warps only: the output buffer is full
	admitBlockedGSWarps  // GS warps only: MaxGSWarps are resident
	numAdmitBlocks
)

// admitWait accounts why the head of an input queue waits: from cycle since
// on it is blocked by block, and cycles sums the cycles of each cause.
type admitWait struct {
	block  admitBlock
	since  uint64
	cycles [numAdmitBlocks]uint64
}

// set records that the head waits for b (admitFree: for nothing) from cycle
// cy on.
func (a *admitWait) set(cy uint64, b admitBlock) {
	if cy > a.since {
		if a.block != admitFree {
			a.cycles[a.block] += cy - a.since
		}
		a.since = cy
	}
	a.block = b
}

// stats are the unit's statistics, named by their tags (Stats).
type stats struct {
	vertexWarps       uint64 `stat:"vertex_warps"`
	pixelWarps        uint64 `stat:"pixel_warps"`
	vsInvocations     uint64 `stat:"vs_invocations"`
	psInvocations     uint64 `stat:"ps_invocations"`
	helperPixels      uint64 `stat:"helper_pixels"`
	vs                shader.Stats
	ps                shader.Stats
	gs                shader.Stats
	texMessages       uint64 `stat:"texture_requests"`
	texWaitWarpCycles uint64 `stat:"texture_wait_warp_cycles"`
	maxResident       int    `stat:"max_resident_warps"`
	geometryWarps     uint64 `stat:"gs_warps"`
	gsInvocations     uint64 `stat:"gs_invocations"`
	maxGSBufUsed      int    `stat:"gs_max_output_buffer_bytes"`
	residentIntegral  uint64 // sum over cycles of resident warps
	residentSince     uint64
}

// Tick runs the stages back to front: outputs, texture requests, texture
// responses, issue, admission.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cy := c.Freq.Cycle(now)
	progress := c.sendOutputs(now, cy)
	progress = c.sendTexRequests(now, cy) || progress
	progress = c.receiveTexResponse(now, cy) || progress
	progress = c.issue(cy) || progress
	if c.admitGeometry(now, cy) {
		progress = true
	} else {
		progress = c.admit(now, cy) || progress
	}
	if c.Fault.Stopped() {
		return false
	}
	state := c.classify(cy)
	c.Activity.Set(cy, state)
	if !progress || c.quietAfter(cy, state) {
		c.Waker.WakeForNext(now, cy, c.nextEvent(cy))
		return false
	}
	return true
}

// quietAfter reports whether the tick of cycle cy+1 would do nothing and
// leave the activity in state: no message waits in an input port (a message
// that arrives wakes the core itself), no texture request or output falls
// due and no warp can issue by then. A core that issues a warp instruction
// every few cycles then sleeps from one issue to the next, as it does after
// a tick without progress, instead of spending a tick on the cycle between.
func (c *Comp) quietAfter(cy uint64, state int) bool {
	next := cy + 1
	if c.FromDispatch.Peek() != nil || c.ToPrimitiveAssembly.Peek() != nil || c.Sampler.Peek() != nil {
		return false
	}
	if len(c.texQueue) > 0 && c.texQueue[0].readyAt <= next {
		return false
	}
	for _, i := range c.order {
		s := &c.slots[i]
		switch s.state {
		case slotLoading, slotReady:
			if max(s.readyAt, c.issueFreeAt) <= next {
				return false
			}
		case slotDone:
			if s.readyAt <= next {
				return false
			}
		}
	}
	return c.classify(next) == state
}

// classify returns the activity state from cycle cy on.
func (c *Comp) classify(cy uint64) int {
	if cy < c.issueFreeAt {
		return actBusy
	}
	if len(c.order) == 0 {
		if c.gotWork {
			return actStarved
		}
		return actIdle
	}
	texture := false
	for _, i := range c.order {
		s := &c.slots[i]
		switch s.state {
		case slotLoading, slotReady:
			return actStallLatency
		case slotDone:
			if s.readyAt > cy {
				return actStallLatency
			}
		case slotTexture:
			texture = true
		}
	}
	if texture {
		return actStallTexture
	}
	return actBlockedOutput
}

// nextEvent returns the first cycle after cy at which a timed event may let the
// core make progress (messages wake it on their own), or ^uint64(0).
func (c *Comp) nextEvent(cy uint64) uint64 {
	next := timing.After(cy)
	for _, i := range c.order {
		s := &c.slots[i]
		switch s.state {
		case slotLoading, slotReady:
			next.Consider(max(s.readyAt, c.issueFreeAt))
		case slotDone:
			next.Consider(s.readyAt)
		}
	}
	if len(c.texQueue) > 0 {
		next.Consider(c.texQueue[0].readyAt)
	}
	return next.Cycle()
}

// fail stops the simulation with err (a malformed message or program).

// residentChanged accounts the resident-warp integral before the count changes.
func (c *Comp) residentChanged(cy uint64) {
	st := &c.stats
	if cy > st.residentSince {
		st.residentIntegral += uint64(len(c.order)) * (cy - st.residentSince)
		st.residentSince = cy
	}
}

// Resident returns the number of warps resident now.
func (c *Comp) Resident() int { return len(c.order) }

// IssueCycles returns the issue cycles one warp instruction occupies.
func (c *Comp) IssueCycles() int { return c.issueCycles }

// Stats implements timing.StatsReporter.
func (c *Comp) Stats(add func(name string, v float64)) {
	p := c.Name() + "."
	st := &c.stats
	timing.AddTagged(p, add, st)
	all := st.vs
	all.Add(st.ps)
	all.Add(st.gs)
	add(p+"instructions", float64(all.Instructions))
	add(p+"instructions_alu", float64(all.ALU))
	add(p+"instructions_sfu", float64(all.SFU))
	add(p+"instructions_derivative", float64(all.Derivative))
	add(p+"instructions_texture", float64(all.Texture))
	add(p+"instructions_kill", float64(all.Kill))
	add(p+"lane_instructions", float64(all.LaneInstructions))
	add(p+"vs_instructions", float64(st.vs.Instructions))
	add(p+"ps_instructions", float64(st.ps.Instructions))
	add(p+"vs_lane_instructions", float64(st.vs.LaneInstructions))
	add(p+"ps_lane_instructions", float64(st.ps.LaneInstructions))
	add(p+"texture_lane_requests", float64(all.TexRequests))
	avg := timing.Ratio(st.residentIntegral, c.Activity.Total())
	add(p+"avg_resident_warps", avg)
	add(p+"occupancy", avg/float64(len(c.slots)))
	add(p+"admit_blocked_slots_cycles", float64(c.admitWait.cycles[admitBlockedSlots]))
	add(p+"admit_blocked_registers_cycles", float64(c.admitWait.cycles[admitBlockedRegisters]))
	c.geometryStats(p, add)
	c.Activity.Stats(c.Name(), add)
}

// Buffers implements timing.Buffered.
func (c *Comp) Buffers() []timing.BufferState {
	return []timing.BufferState{
		{Name: c.inputBuf.Name(), Len: c.inputBuf.Size(), Cap: c.inputBuf.Capacity()},
		{Name: c.gsInputBuf.Name(), Len: c.gsInputBuf.Size(), Cap: c.gsInputBuf.Capacity()},
		{Name: c.Name() + ".GSOutputBuffer", Len: c.gsBufUsed, Cap: c.Cfg.GSOutputBuffer},
		{Name: c.Name() + ".WarpSlots", Len: len(c.order), Cap: len(c.slots)},
		{Name: c.Name() + ".Registers", Len: c.regsUsed, Cap: c.Cfg.Registers},
		{Name: c.Name() + ".TexRequestQueue", Len: len(c.texQueue), Cap: len(c.slots)},
		{Name: c.responseBuf.Name(), Len: c.responseBuf.Size(), Cap: c.responseBuf.Capacity()},
	}
}

// Finish closes the activity, occupancy and admission accounting at time now.
func (c *Comp) Finish(now sim.VTimeInSec) {
	cy := c.Freq.Cycle(now)
	c.residentChanged(cy)
	c.admitWait.set(cy, c.admitWait.block)
	c.gsWait.set(cy, c.gsWait.block)
	c.Activity.Finish(cy)
}
