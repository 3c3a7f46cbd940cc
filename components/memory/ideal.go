package memory

import (
	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/timing"
)

// limitedIdeal is the ideal controller with a bandwidth and a concurrency
// limit (IdealConfig.BytesPerCycle, IdealConfig.MaxOutstanding), built when
// either is set; without limits the channel is Akita's idealmemcontroller,
// whose timing it reproduces: a request taken in cycle t is answered in cycle
// t+Latency (its bytes read from or written to the storage then).
//
// Each cycle it first sends the responses that are due, in the order the
// requests were taken (a refused send waits for the port), then takes up to
// Width requests from its Top port while fewer than MaxOutstanding are in
// flight and the bandwidth allows: the channel moves BytesPerCycle bytes per
// cycle, a request's bytes (AccessByteSize for a read, the data for a write)
// occupy it after those of the requests taken before, and a request is taken
// in cycle t only when its bytes start moving within cycle t. So N requests of
// S bytes take ceil(N*S/BytesPerCycle) cycles to be taken in the long run, and
// N requests with a limit of k in flight finish in ceil(N/k) waves of Latency
// cycles.
type limitedIdeal struct {
	*timing.TickingComponent
	top      sim.Port
	storage  *mem.Storage
	conv     mem.AddressConverter
	cfg      IdealConfig
	waker    *timing.Waker
	progress *timing.Progress // nil: declares nothing (Memory.SetProgress)

	inFlight []idealEntry // taken, in order; due cycles ascend
	busyTo   uint64       // bytes x cycles: the channel is busy until busyTo/BytesPerCycle
}

type idealEntry struct {
	req mem.AccessReq
	due uint64 // cycle of the response
}

func (m *Memory) buildLimitedIdeal(engine sim.Engine, name string) *limitedIdeal {
	c := &limitedIdeal{storage: m.Storage, conv: storageConverter{m}, cfg: m.Config.Ideal}
	c.TickingComponent = timing.NewTickingComponent(name, engine, m.Config.Freq, c)
	c.top = timing.AddPort(c, "Top", c.cfg.TopBufferSize)
	c.waker = timing.NewWaker(engine, m.Config.Freq, c)
	return c
}

// Tick sends the due responses, then takes requests; when it did neither it
// asks for a tick at the next cycle a response falls due or the bandwidth
// frees.
func (c *limitedIdeal) Tick(now sim.VTimeInSec) bool {
	cycle := c.Freq.Cycle(now)
	progress := c.respond(now, cycle)
	progress = c.take(now, cycle) || progress
	if !progress {
		c.sleep(now, cycle)
	}
	return progress
}

func (c *limitedIdeal) respond(now sim.VTimeInSec, cycle uint64) bool {
	n := 0
	for n < len(c.inFlight) && c.inFlight[n].due <= cycle {
		if !c.send(now, c.inFlight[n].req) {
			break
		}
		n++
	}
	if n > 0 {
		c.inFlight = append(c.inFlight[:0], c.inFlight[n:]...)
	}
	return n > 0
}

// send applies req to the storage and sends its response; false when the
// port refused it (nothing applied).
func (c *limitedIdeal) send(now sim.VTimeInSec, req mem.AccessReq) bool {
	addr := c.conv.ConvertExternalToInternal(req.GetAddress())
	var rsp sim.Msg
	switch r := req.(type) {
	case *mem.ReadReq:
		data, err := c.storage.Read(addr, r.AccessByteSize)
		if err != nil {
			panic(err) // the storage is unbounded (Build)
		}
		rsp = mem.DataReadyRspBuilder{}.WithSendTime(now).WithSrc(c.top).WithDst(r.Src).WithRspTo(r.ID).
			WithData(data).Build()
	case *mem.WriteReq:
		rsp = mem.WriteDoneRspBuilder{}.WithSendTime(now).WithSrc(c.top).WithDst(r.Src).WithRspTo(r.ID).Build()
	}
	if c.top.Send(rsp) != nil {
		return false
	}
	if w, ok := req.(*mem.WriteReq); ok {
		c.write(addr, w)
	}
	if c.NumHooks() > 0 { // the task's IDs are built only for a tracer
		tracing.TraceReqComplete(req, c)
	}
	return true
}

// write applies a write's bytes (only the dirty ones when it has a mask).
func (c *limitedIdeal) write(addr uint64, w *mem.WriteReq) {
	if w.DirtyMask == nil {
		_ = c.storage.Write(addr, w.Data) // unbounded storage: no error
		return
	}
	data, _ := c.storage.Read(addr, uint64(len(w.Data)))
	for i, dirty := range w.DirtyMask {
		if dirty && i < len(data) {
			data[i] = w.Data[i]
		}
	}
	_ = c.storage.Write(addr, data)
}

func (c *limitedIdeal) take(now sim.VTimeInSec, cycle uint64) bool {
	progress := false
	for i := 0; i < c.cfg.Width && c.canTake(); i++ {
		msg := c.top.Peek()
		if msg == nil {
			break
		}
		req, ok := msg.(mem.AccessReq)
		if !ok {
			panic("memory: the ideal controller got a message that is not a memory request")
		}
		if b := uint64(c.cfg.BytesPerCycle); b > 0 {
			if c.busyTo >= (cycle+1)*b {
				break
			}
			c.busyTo = max(c.busyTo, cycle*b) + requestBytes(req)
		}
		c.top.Retrieve(now)
		if c.NumHooks() > 0 {
			tracing.TraceReqReceive(req, c)
		}
		due := cycle + uint64(c.cfg.Latency)
		c.inFlight = append(c.inFlight, idealEntry{req: req, due: due})
		progress = true
		// Busy until the response, and while the request's bytes occupy the channel.
		if b := uint64(c.cfg.BytesPerCycle); b > 0 {
			due = max(due, (c.busyTo+b-1)/b)
		}
		c.progress.BusyUntil(c.Freq.NCyclesLater(int(due-cycle), now))
	}
	return progress
}

func (c *limitedIdeal) canTake() bool {
	return c.cfg.MaxOutstanding == 0 || len(c.inFlight) < c.cfg.MaxOutstanding
}

func requestBytes(req mem.AccessReq) uint64 {
	if w, ok := req.(*mem.WriteReq); ok {
		return uint64(len(w.Data))
	}
	return req.(*mem.ReadReq).AccessByteSize
}

// sleep asks for a tick at the next cycle something can happen without a
// port event: the oldest response falls due, or the bandwidth lets a waiting
// request in. A refused send or an arriving request wakes the component
// through its port.
func (c *limitedIdeal) sleep(now sim.VTimeInSec, cycle uint64) {
	next := uint64(0)
	if len(c.inFlight) > 0 && c.inFlight[0].due > cycle {
		next = c.inFlight[0].due
	}
	if b := uint64(c.cfg.BytesPerCycle); b > 0 && c.canTake() && c.top.Peek() != nil {
		if free := c.busyTo / b; free > cycle && (next == 0 || free < next) {
			next = free
		}
	}
	c.waker.WakeForNext(now, cycle, next)
}
