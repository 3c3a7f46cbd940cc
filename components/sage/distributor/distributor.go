package distributor

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/timing"
)

// The activity states (timing.Activity).
const (
	stateBusy        = iota // a draw was taken or a message sent
	stateLatency            // a planned draw waits for the dispatch latency
	stateBlockedPipe        // a chunk was refused (a pipe's input is full)
	stateBlockedFill        // a DrawPlan was refused
	stateIdle               // no draw
	numStates
)

var stateNames = [numStates]string{"busy", "latency", "blocked_pipe", "blocked_sample_fill", "idle"}

// Distributor is the SAGE master chip's distribution of draws over the render
// pipes (Deering & Naegle 2002, §3.2): see the package documentation.
type Distributor struct {
	timing.Unit[Config]

	// FromCommandProcessor receives protocol.DrawDispatch (whole draws).
	FromCommandProcessor sim.Port
	// ToPipes sends each pipe's chunk (a protocol.DrawDispatch) to Pipes[p].
	ToPipes sim.Port
	// ToSampleFills sends each draw's protocol.DrawPlan to SampleFills[p].
	ToSampleFills sim.Port
	// FromSampleFills receives protocol.DrawEnd{Draw, From: pipe}: pipe From
	// finished its chunk of Draw (its load goes down).
	FromSampleFills sim.Port

	// Peers, set by the platform builder: pipe p's input assembler
	// (FromCommandProcessor) and sample fill (FromDistributor).
	Pipes       []sim.Port
	SampleFills []sim.Port

	wait timing.WaitReason // why the send stage could not finish

	cur             *plan         // the draw being sent
	outstanding     [][]chunkLoad // per pipe, the chunks not yet reported done, in order
	load            []int         // per pipe, the triangles of outstanding
	haveClass       bool          // a draw was distributed before
	lastOrdered     bool          // the class of the previous draw
	lastOrderedPipe int           // the pipe of the previous order-dependent draw, or -1
	barrierSeq      uint64        // the next barrier's number

	// Statistics.
	st                              counters
	trianglesPerPipe, chunksPerPipe []uint64
}

// chunkLoad is a chunk sent to a pipe and not yet reported done.
type chunkLoad struct {
	draw      *protocol.Draw
	triangles int
}

// plan is a draw's distribution: per pipe the triangle range [first, end).
type plan struct {
	draw       *protocol.Draw
	first, end []int
	barrier    bool
	seq        uint64
	soPipe     int    // the pipe that streams the draw out (-1: the draw does not)
	readyAt    uint64 // the cycle the messages may leave
	chunks     []*protocol.DrawDispatch
	plans      []*protocol.DrawPlan
	chunkSent  []bool
	planSent   []bool
	unsent     int
}

// counters are the unit's statistics, named by their tags (Stats).
type counters struct {
	draws          uint64 `stat:"draws"`
	orderedDraws   uint64 `stat:"ordered_draws"`
	streamingDraws uint64 `stat:"streaming_draws"` // draws with stream-out (whole to one pipe)
	chunks         uint64 `stat:"chunks"`
	emptyChunks    uint64 `stat:"empty_chunks"`
	barriers       uint64 `stat:"barriers"`
	returns        uint64 `stat:"returns"`
}

// Load returns the outstanding triangles of pipe p (sent, not reported done).
func (c *Distributor) Load(p int) int { return c.load[p] }

// Stats reports, under "<name>.": draws, ordered_draws (order-dependent draws),
// chunks (chunks of chunk_triangles, and whole order-dependent draws, sent to a
// pipe), empty_chunks (dispatches without triangles), barriers, returns
// (DrawEnd reports taken), triangles_p<p> and chunks_p<p> per pipe, load_p<p>
// (outstanding triangles at the end), and the activity cycles (cycles_busy,
// cycles_latency, cycles_blocked_pipe, cycles_blocked_sample_fill, cycles_idle)
// and utilization.
func (c *Distributor) Stats(add func(name string, v float64)) {
	p := c.Name() + "."
	timing.AddTagged(p, add, &c.st)
	for i := 0; i < c.Cfg.Pipes; i++ {
		add(fmt.Sprintf("%striangles_p%d", p, i), float64(c.trianglesPerPipe[i]))
		add(fmt.Sprintf("%schunks_p%d", p, i), float64(c.chunksPerPipe[i]))
		add(fmt.Sprintf("%sload_p%d", p, i), float64(c.load[i]))
	}
	c.Activity.Stats(c.Name(), add)
}

// Buffers describes the input queue, the draw being sent and the outstanding
// chunks per pipe.
func (c *Distributor) Buffers() []timing.BufferState {
	n := c.Name()
	cur, unsent := 0, 0
	if c.cur != nil {
		cur, unsent = 1, c.cur.unsent
	}
	bs := []timing.BufferState{
		timing.PeekState(c.FromCommandProcessor, c.Cfg.InputQueue),
		{Name: n + ".Draw", Len: cur, Cap: 1},
		{Name: n + ".Unsent", Len: unsent, Cap: 2 * c.Cfg.Pipes},
	}
	for p := range c.outstanding {
		bs = append(bs, timing.BufferState{Name: fmt.Sprintf("%s.Outstanding[%d]", n, p), Len: len(c.outstanding[p])})
	}
	return bs
}

// Tick takes the sample fills' reports, sends the current draw's messages, then
// takes the next draw.
func (c *Distributor) Tick(now sim.VTimeInSec) bool {
	if c.Fault.Stopped() {
		return false
	}
	cy := c.Freq.Cycle(now)
	progress := c.receiveReturns(now)
	progress = c.sendStage(now, cy) || progress
	progress = c.takeStage(now, cy) || progress
	otherwise := stateIdle
	if c.cur != nil {
		otherwise = stateLatency // the draw's dispatch latency
	}
	c.Activity.Set(cy, c.wait.End(progress, stateBusy, otherwise))
	return progress
}

// receiveReturns takes the DrawEnd reports: pipe From finished its oldest
// outstanding chunk, which must be of the same draw.
func (c *Distributor) receiveReturns(now sim.VTimeInSec) bool {
	progress := false
	for c.Fault.Err() == nil {
		m, ok := timing.TakeAs[*protocol.DrawEnd](&c.Fault, c.FromSampleFills, now)
		if !ok {
			return progress
		}
		progress = true
		p := m.From
		if p < 0 || p >= c.Cfg.Pipes || len(c.outstanding[p]) == 0 || c.outstanding[p][0].draw != m.Draw {
			c.Fault.Fail(fmt.Errorf("DrawEnd from pipe %d for a draw it has no outstanding chunk of", p))
			break
		}
		if c.NumHooks() > 0 {
			tracing.EndTask(protocol.DrawChunkTaskID(m.Draw.Seq, p), c)
		}
		c.load[p] -= c.outstanding[p][0].triangles
		c.outstanding[p] = c.outstanding[p][1:]
		c.st.returns++
	}
	return progress
}

// takeStage takes the next draw when none is being sent and plans it.
func (c *Distributor) takeStage(now sim.VTimeInSec, cy uint64) bool {
	if c.cur != nil {
		return false
	}
	dd, ok := protocol.PeekDrawDispatch(&c.Fault, c.FromCommandProcessor)
	switch {
	case !ok:
		return false
	case dd.First != 0 || dd.End != 0:
		c.Fault.Fail(fmt.Errorf("draw %d: DrawDispatch.First/End: the command processor sends whole draws, got [%d, %d)",
			dd.Draw.Seq, dd.First, dd.End))
		return false
	case len(c.Pipes) != c.Cfg.Pipes || len(c.SampleFills) != c.Cfg.Pipes:
		c.Fault.Fail(fmt.Errorf("Pipes (%d ports) and SampleFills (%d ports) must list the %d pipes",
			len(c.Pipes), len(c.SampleFills), c.Cfg.Pipes))
		return false
	}
	c.FromCommandProcessor.Retrieve(now)
	c.cur = c.plan(dd.Draw)
	c.cur.readyAt = cy + uint64(c.Cfg.DispatchLatency)
	c.Waker.WakeAt(c.cycleTime(c.cur.readyAt))
	return true
}

func (c *Distributor) cycleTime(cy uint64) sim.VTimeInSec {
	return sim.VTimeInSec(float64(cy) / float64(c.Freq))
}

// plan distributes draw d: the pipe ranges, the barrier, the messages.
func (c *Distributor) plan(d *protocol.Draw) *plan {
	n := d.State.Stream.NumPrimitives()
	pl := &plan{draw: d, first: make([]int, c.Cfg.Pipes), end: make([]int, c.Cfg.Pipes), soPipe: -1}
	// A draw that streams out goes whole to one pipe, as an order-dependent
	// one: stream-out is in API order and its buffers are global.
	streams := d.State.StreamOut != nil
	ordered := c.Cfg.Mode == Ordered || streams || !pipeline.OrderIndependent(d.State)
	counts := make([]int, c.Cfg.Pipes)
	if ordered {
		p := c.orderedPipe()
		counts[p] = n
		if streams {
			pl.soPipe = p
			c.st.streamingDraws++
		}
		pl.barrier = c.haveClass && (!c.lastOrdered || p != c.lastOrderedPipe)
		c.lastOrderedPipe = p
		c.st.orderedDraws++
		c.st.chunks++
		c.chunksPerPipe[p]++
	} else {
		c.splitChunks(n, counts)
		pl.barrier = c.haveClass && c.lastOrdered
	}
	if c.Cfg.Mode == BarrierPerDraw {
		pl.barrier = true
	}
	c.haveClass, c.lastOrdered = true, ordered
	if pl.barrier {
		pl.seq = c.barrierSeq
		c.barrierSeq++
		c.st.barriers++
	}
	c.st.draws++
	c.layout(d, n, counts, pl)
	return pl
}

// orderedPipe is the least-loaded pipe; among equals the previous
// order-dependent draw's pipe (no barrier needed), else the lowest index.
func (c *Distributor) orderedPipe() int {
	best := 0
	for p := 1; p < c.Cfg.Pipes; p++ {
		if c.load[p] < c.load[best] {
			best = p
		}
	}
	if l := c.lastOrderedPipe; l >= 0 && c.load[l] == c.load[best] {
		return l
	}
	return best
}

// splitChunks cuts n triangles into chunks of ChunkTriangles and gives each,
// in order, to the pipe with the least load (outstanding triangles plus the
// chunks given so far; ties to the lowest index), adding the chunk's
// triangles to counts.
func (c *Distributor) splitChunks(n int, counts []int) {
	for first := 0; first < n; first += c.Cfg.ChunkTriangles {
		size := min(c.Cfg.ChunkTriangles, n-first)
		best := 0
		for p := 1; p < c.Cfg.Pipes; p++ {
			if c.load[p]+counts[p] < c.load[best]+counts[best] {
				best = p
			}
		}
		counts[best] += size
		c.st.chunks++
		c.chunksPerPipe[best]++
	}
}

// layout turns the per-pipe counts into contiguous ranges in pipe order (a
// pipe takes one dispatch per draw: its chunks of the draw are merged), and
// builds the messages. An empty range is [n, n) (End == 0 would mean the
// whole draw), or [0, 0) for a draw without triangles.
func (c *Distributor) layout(d *protocol.Draw, n int, counts []int, pl *plan) {
	pl.chunks = make([]*protocol.DrawDispatch, c.Cfg.Pipes)
	pl.plans = make([]*protocol.DrawPlan, c.Cfg.Pipes)
	pl.chunkSent = make([]bool, c.Cfg.Pipes)
	pl.planSent = make([]bool, c.Cfg.Pipes)
	pl.unsent = 2 * c.Cfg.Pipes
	next := 0
	for p := 0; p < c.Cfg.Pipes; p++ {
		first, end := next, next+counts[p]
		if counts[p] == 0 {
			first, end = n, n
			c.st.emptyChunks++
		}
		next += counts[p]
		pl.first[p], pl.end[p] = first, end
		pl.chunks[p] = protocol.NewDrawChunk(d, first, end)
		pl.chunks[p].SkipStreamOut = pl.soPipe >= 0 && p != pl.soPipe
		pl.plans[p] = protocol.NewDrawPlan(d, pl.barrier, pl.seq)
		c.trianglesPerPipe[p] += uint64(counts[p])
		c.load[p] += counts[p]
		c.outstanding[p] = append(c.outstanding[p], chunkLoad{draw: d, triangles: counts[p]})
		if c.NumHooks() > 0 {
			tracing.StartTask(protocol.DrawChunkTaskID(d.Seq, p), protocol.DrawTaskID(d.Seq), c,
				protocol.KindDrawChunk, protocol.Count(counts[p], "triangles"), nil)
		}
	}
}

// sendStage sends the current draw's chunks and plans once its latency has
// passed, every message the ports accept this cycle, pipe by pipe.
func (c *Distributor) sendStage(now sim.VTimeInSec, cy uint64) bool {
	pl := c.cur
	if pl == nil || cy < pl.readyAt {
		return false
	}
	progress := false
	for p := 0; p < c.Cfg.Pipes; p++ {
		progress = c.sendOnce(now, c.ToPipes, c.Pipes[p], pl.chunks[p], &pl.chunkSent[p], stateBlockedPipe) || progress
		progress = c.sendOnce(now, c.ToSampleFills, c.SampleFills[p], pl.plans[p], &pl.planSent[p], stateBlockedFill) ||
			progress
	}
	if pl.unsent == 0 {
		c.cur = nil
	}
	return progress
}

// sendOnce sends msg, one of the current draw's, through port to dst unless
// *sent; a refused send makes blocked the cycle's wait reason unless one is
// set. It reports whether it sent msg.
func (c *Distributor) sendOnce(now sim.VTimeInSec, port, dst sim.Port, msg sim.Msg, sent *bool, blocked int) bool {
	switch {
	case *sent:
		return false
	case c.send(now, port, dst, msg):
		*sent = true
		c.cur.unsent--
		return true
	}
	c.wait.Record(blocked)
	return false
}

func (c *Distributor) send(now sim.VTimeInSec, port, dst sim.Port, msg sim.Msg) bool {
	m := msg.Meta()
	m.Src, m.Dst, m.SendTime = port, dst, now
	if port.Send(msg) != nil {
		return false
	}
	c.Env.Progress.Add(1)
	return true
}

// Compile-time check.
var _ protocol.Unit = (*Distributor)(nil)
