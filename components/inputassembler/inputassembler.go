package inputassembler

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/vertex"
	"github.com/gfxsim/gfxsim/timing"
)

// The activity states (timing.Activity).
const (
	stateBusy       = iota // a stage moved work this cycle
	stateWaitMemory        // a batch waits for index or vertex lines, or a read cannot be issued
	stateWaitCredit        // a fetched batch waits for a primitive-assembly credit
	stateWaitCore          // every shader core refused the batch
	stateWaitSend          // BatchInfo could not be sent to primitive assembly
	stateIdle              // no work
	numStates
)

var stateNames = [numStates]string{"busy", "wait_memory", "wait_credit", "wait_core", "wait_send", "idle"}

// InputAssembler is the first stage of the 3D pipeline: it reads the indices of
// each draw through an index cache, cuts the triangles into batches of unique
// vertices, fetches the vertices' attributes through a vertex cache and sends
// each batch to a shader core (see the package documentation).
type InputAssembler struct {
	timing.Unit[Config]

	// FromCommandProcessor receives DrawDispatch messages.
	FromCommandProcessor sim.Port
	// ToMemory carries the index and vertex line reads.
	ToMemory sim.Port
	// ToShaderCores carries VertexBatch messages.
	ToShaderCores sim.Port
	// PrimitiveAssembly sends BatchInfo and receives BatchCredit.
	PrimitiveAssembly sim.Port

	// Peers, set by the platform builder.
	ShaderCores           []sim.Port          // the cores' vertex-work ports
	PrimitiveAssemblyPort sim.Port            // primitive assembly's port for this unit
	Memory                mem.LowModuleFinder // where line reads go

	client *memclient.Client
	mem    command.Memory

	batcher     *vertex.Batcher
	fetcher     vertex.Fetcher
	indexCache  *timing.TagArray
	vertexCache *timing.TagArray
	credits     *timing.Credits

	draw       *drawState // the draw being cut into batches
	cur        *job       // the batch whose indices are being read
	fetchQ     []*job     // batches whose vertices are to be fetched
	dispatchQ  []*job     // batches to send (and end-of-draw markers)
	inflight   []request  // line reads in flight
	nextReq    uint64
	lastCore   int
	waitReason timing.WaitReason // why the dispatch stage could not send

	st counters
}

// counters are the unit's statistics, named by their tags (Stats).
type counters struct {
	draws            uint64 `stat:"draws"`
	batches          uint64 `stat:"batches"`
	vertices         uint64 `stat:"vertices"`
	tagHits          uint64 `stat:"batch_tag_hits"`
	tagMisses        uint64 `stat:"batch_tag_misses"`
	indexReads       uint64 `stat:"index_reads"`
	indexHits        uint64 `stat:"index_cache_hits"`
	indexMisses      uint64 `stat:"index_cache_misses"`
	indexOutOfBounds uint64 `stat:"index_out_of_bounds"`
	vertexHits       uint64 `stat:"vertex_cache_hits"`
	vertexMisses     uint64 `stat:"vertex_cache_misses"`
	vertexOutOfBds   uint64 `stat:"vertex_out_of_bounds"`
	bytesRead        uint64 `stat:"bytes_read"`
}

// drawState is the draw being cut into batches.
type drawState struct {
	d       *protocol.Draw
	stream  vertex.Stream // the draw's stream, cut after the dispatch's last triangle
	first   int           // first triangle of the next batch
	batches int           // batches formed so far
	nextPos uint32        // the first stream position whose index has not been read
	skipSO  bool          // DrawDispatch.SkipStreamOut, passed on in the BatchInfo
}

// job is a batch (or a draw's end marker) moving through the stages.
type job struct {
	draw    *protocol.Draw
	marker  bool // the end of the draw: send BatchInfo
	batches int  // marker: the draw's batch count
	skipSO  bool // marker: the draw's DrawDispatch.SkipStreamOut
	seq     uint64
	batch   vertex.Batch

	step, steps int // index stage: tag lookups done / to do (corners per primitive)
	corners     int // vertices per primitive (3: triangles)
	sub         int // lines of the current index or vertex already looked up
	vtx         int // vertex stage: vertices looked up
	indexReady  bool
	needs       []uint64 // line reads the batch waits for

	info *protocol.BatchInfo
	msg  *protocol.VertexBatch
	task string // the vertex_batch task's ID, when traced
}

// Cache kinds of a line read.
const (
	kindIndex = iota
	kindVertex
)

type request struct {
	id   uint64
	kind int
	line uint64
}

// SetMemory gives the functional memory image of the frame: indices and vertices
// are read from it (the component models the traffic). The platform calls it
// before the first draw arrives.
func (c *InputAssembler) SetMemory(m command.Memory) { c.mem = m }

// CreditsAvailable returns the primitive-assembly credits held.
func (c *InputAssembler) CreditsAvailable() int { return c.credits.Available() }

// Stats reports the counters under "<name>.": draws, batches, vertices (vertex
// shader invocations), batch_tag_hits, batch_tag_misses, batch_tag_hit_rate,
// index_reads, index_cache_hits, index_cache_misses, index_out_of_bounds (reads
// past the index buffer: 0 without a memory access), vertex_cache_hits,
// vertex_cache_misses, vertex_out_of_bounds (vertices outside the vertex
// buffer: zeros without a memory access), bytes_read, credits_available, the
// activity cycles (cycles_busy, cycles_wait_memory, cycles_wait_credit,
// cycles_wait_core, cycles_wait_send, cycles_idle) and utilization, and the
// memory client's counters under "<name>.memory.".
func (c *InputAssembler) Stats(add func(name string, v float64)) {
	p := c.Name() + "."
	timing.AddTagged(p, add, &c.st)
	add(p+"batch_tag_hit_rate", timing.Ratio(c.st.tagHits, c.st.tagHits+c.st.tagMisses))
	add(p+"credits_available", float64(c.credits.Available()))
	c.Activity.Stats(c.Name(), add)
	if c.client != nil {
		c.client.Stats(p+"memory", add)
	}
}

// Buffers describes the index stage, the two batch queues, the line reads in
// flight and the credits in use.
func (c *InputAssembler) Buffers() []timing.BufferState {
	n := c.Name()
	cur := 0
	if c.cur != nil {
		cur = 1
	}
	reads := timing.BufferState{Name: n + ".MemoryReads", Cap: c.Cfg.MaxOutstandingMemory}
	if c.client != nil {
		reads = c.client.Buffer(n + ".MemoryReads")
	}
	return []timing.BufferState{
		{Name: n + ".IndexStage", Len: cur, Cap: 1},
		{Name: n + ".FetchQueue", Len: len(c.fetchQ), Cap: c.Cfg.BatchQueue},
		{Name: n + ".DispatchQueue", Len: len(c.dispatchQ), Cap: c.Cfg.BatchQueue},
		reads,
		{Name: n + ".Credits", Len: c.credits.Max() - c.credits.Available(), Cap: c.credits.Max()},
	}
}

// Tick takes memory responses and credits, then runs the stages back to front:
// dispatch, vertex fetch, index fetch.
func (c *InputAssembler) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	progress := c.receiveMemory(now)
	progress = c.receiveCredits(now) || progress
	progress = c.dispatchStage(now) || progress
	progress = c.vertexStage(now) || progress
	progress = c.indexStage(now) || progress
	c.Activity.Set(c.Freq.Cycle(now), c.status(progress))
	return progress
}

func (c *InputAssembler) status(progress bool) int {
	otherwise := stateIdle
	if c.cur != nil || len(c.fetchQ) > 0 || len(c.dispatchQ) > 0 {
		otherwise = stateWaitMemory
	}
	s := c.waitReason.End(progress, stateBusy, otherwise)
	if c.Fault.Stopped() {
		return stateIdle
	}
	return s
}

// receiveMemory takes the line reads that completed.
func (c *InputAssembler) receiveMemory(now sim.VTimeInSec) bool {
	if c.client == nil {
		return false
	}
	arrived := c.client.ReceiveAll(now)
	for _, done := range arrived {
		for i, r := range c.inflight {
			if r.id == done.Tag {
				c.inflight = append(c.inflight[:i], c.inflight[i+1:]...)
				break
			}
		}
	}
	return len(arrived) > 0
}

// receiveCredits takes the BatchCredit messages primitive assembly sent.
func (c *InputAssembler) receiveCredits(now sim.VTimeInSec) bool {
	progress := false
	for c.Fault.Err() == nil {
		m, ok := timing.TakeAs[*protocol.BatchCredit](&c.Fault, c.PrimitiveAssembly, now)
		if !ok {
			break
		}
		progress = true
		if m.Slots < 0 || m.Slots > c.credits.Max()-c.credits.Available() {
			c.Fault.Fail(fmt.Errorf("BatchCredit returns %d slots with %d of %d credits in use", m.Slots,
				c.credits.Max()-c.credits.Available(), c.credits.Max()))
			break
		}
		c.credits.Give(m.Slots)
	}
	return progress
}

// ready reports whether every line read j waits for has completed (and forgets
// those that have).
func (c *InputAssembler) ready(j *job) bool {
	n := 0
	for _, id := range j.needs {
		for _, r := range c.inflight {
			if r.id == id {
				j.needs[n] = id
				n++
				break
			}
		}
	}
	j.needs = j.needs[:n]
	return n == 0
}

// pending returns the read in flight for line in the cache of kind.
func (c *InputAssembler) pending(kind int, line uint64) (uint64, bool) {
	for _, r := range c.inflight {
		if r.kind == kind && r.line == line {
			return r.id, true
		}
	}
	return 0, false
}

// access looks up the line holding addr in the cache of kind. A hit on a line
// still being read makes j wait for that read; a miss allocates the line and
// reads it from memory. It returns false, changing nothing, when the read cannot
// be issued (all reads in flight, or the port is busy).
func (c *InputAssembler) access(now sim.VTimeInSec, kind int, addr uint64, j *job) bool {
	cache, hits, misses := c.indexCache, &c.st.indexHits, &c.st.indexMisses
	if kind == kindVertex {
		cache, hits, misses = c.vertexCache, &c.st.vertexHits, &c.st.vertexMisses
	}
	line := cache.Line(addr)
	if cache.Lookup(line) {
		*hits++
		if id, ok := c.pending(kind, line); ok {
			j.needs = append(j.needs, id)
		}
		return true
	}
	size := uint64(cache.LineSize())
	if c.traced() {
		c.client.TraceAs(c, j.task)
	}
	if !c.client.Read(now, line, size, c.nextReq) {
		return false
	}
	*misses++
	cache.Fill(line)
	c.inflight = append(c.inflight, request{id: c.nextReq, kind: kind, line: line})
	j.needs = append(j.needs, c.nextReq)
	c.nextReq++
	c.st.bytesRead += size
	return true
}

// traced reports whether a tracer is attached: tasks are reported (and their IDs
// built) only then (docs/design-timing.md, section 10).
func (c *InputAssembler) traced() bool { return c.NumHooks() > 0 }

// Compile-time check.
var _ protocol.Unit = (*InputAssembler)(nil)
