package hostinterface

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/timing"
)

// Comp is the host interface.
type Comp struct {
	*timing.TickingComponent
	Host     sim.Port
	ToMemory sim.Port
	// Memory finds the memory channel of an address (set by the platform).
	Memory mem.LowModuleFinder

	halt           *timing.Halt
	progress       *timing.Progress
	maxOutstanding int
	inflight       map[string]pending // forwarded request ID -> original
	pendingRsp     sim.Msg            // a response waiting for the host bus
	pendingOrig    sim.Msg            // tracing: the request pendingRsp answers
	act            *timing.Activity

	st counters
}

// counters are the unit's statistics, named by their tags (Stats).
type counters struct {
	reads        uint64 `stat:"reads"`
	writes       uint64 `stat:"writes"`
	bytesRead    uint64 `stat:"bytes_read"`
	bytesWritten uint64 `stat:"bytes_written"`
}

type pending struct {
	orig sim.Msg
	src  sim.Port
}

const (
	stBusy = iota
	stBlocked
	stIdle
)

// Builder builds host interfaces.
type Builder struct {
	engine         sim.Engine
	freq           sim.Freq
	halt           *timing.Halt
	progress       *timing.Progress
	maxOutstanding int
	bufferSize     int
}

// MakeBuilder returns a builder with the defaults: 1 GHz, 16 outstanding requests,
// port buffers of 8 messages.
func MakeBuilder() Builder {
	return Builder{freq: 1 * sim.GHz, maxOutstanding: 16, bufferSize: 8}
}

// WithEngine sets the engine.
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithFreq sets the clock.
func (b Builder) WithFreq(f sim.Freq) Builder { b.freq = f; return b }

// WithHalt sets the platform's halt flag.
func (b Builder) WithHalt(h *timing.Halt) Builder { b.halt = h; return b }

// WithProgress sets the platform's progress counter.
func (b Builder) WithProgress(p *timing.Progress) Builder { b.progress = p; return b }

// WithMaxOutstanding sets the requests in flight towards memory.
func (b Builder) WithMaxOutstanding(n int) Builder { b.maxOutstanding = n; return b }

// Build builds the host interface.
func (b Builder) Build(name string) *Comp {
	if b.engine == nil {
		panic("hostinterface: no engine")
	}
	if b.maxOutstanding < 1 {
		panic(fmt.Sprintf("hostinterface: max outstanding %d, must be at least 1", b.maxOutstanding))
	}
	c := &Comp{halt: b.halt, progress: b.progress, maxOutstanding: b.maxOutstanding,
		inflight: map[string]pending{}, act: timing.NewActivity("busy", "blocked", "idle")}
	c.TickingComponent = timing.NewTickingComponent(name, b.engine, b.freq, c)
	c.Host = timing.AddPort(c, "Host", b.bufferSize)
	c.ToMemory = timing.AddPort(c, "ToMemory", b.bufferSize)
	return c
}

// Tick forwards one response and one request.
func (c *Comp) Tick(now sim.VTimeInSec) bool {
	if c.halt.Stopped() {
		return false
	}
	p := c.respond(now)
	p = c.forward(now) || p
	cyc := c.Freq.Cycle(now)
	switch {
	case p:
		c.act.Set(cyc, stBusy)
	case c.pendingRsp != nil || len(c.inflight) > 0:
		c.act.Set(cyc, stBlocked)
	default:
		c.act.Set(cyc, stIdle)
	}
	return p || c.pendingRsp != nil // a held response is retried every cycle
}

// respond takes a response from memory and sends it to the host, or sends
// the one held since the host bus refused it; it reports whether anything
// moved (a response taken or sent: a retry the bus refuses again is a
// blocked cycle).
func (c *Comp) respond(now sim.VTimeInSec) bool {
	took := false
	if c.pendingRsp == nil {
		took = true
		msg := c.ToMemory.Peek()
		if msg == nil {
			return false
		}
		rsp, ok := msg.(mem.AccessRsp)
		if !ok {
			c.fail(fmt.Errorf("%s: unexpected %T from memory", c.Name(), msg))
			return false
		}
		p, ok := c.inflight[rsp.GetRspTo()]
		if !ok {
			c.fail(fmt.Errorf("%s: response to unknown request %s", c.Name(), rsp.GetRspTo()))
			return false
		}
		c.ToMemory.Retrieve(now)
		delete(c.inflight, rsp.GetRspTo())
		if c.traced() {
			tracing.EndTask(rsp.GetRspTo()+"_req_out", c)
			c.pendingOrig = p.orig
		}
		switch r := msg.(type) {
		case *mem.DataReadyRsp:
			c.pendingRsp = mem.DataReadyRspBuilder{}.WithSrc(c.Host).WithDst(p.src).
				WithRspTo(p.orig.Meta().ID).WithData(r.Data).WithSendTime(now).Build()
		default:
			c.pendingRsp = mem.WriteDoneRspBuilder{}.WithSrc(c.Host).WithDst(p.src).
				WithRspTo(p.orig.Meta().ID).WithSendTime(now).Build()
		}
	}
	c.pendingRsp.Meta().SendTime = now
	if err := c.Host.Send(c.pendingRsp); err != nil {
		return took // held: retried next cycle
	}
	c.pendingRsp = nil
	if c.pendingOrig != nil {
		tracing.TraceReqComplete(c.pendingOrig, c)
		c.pendingOrig = nil
	}
	c.progress.Add(1)
	return true
}

func (c *Comp) forward(now sim.VTimeInSec) bool {
	if len(c.inflight) >= c.maxOutstanding {
		return false
	}
	msg := c.Host.Peek()
	if msg == nil {
		return false
	}
	var out sim.Msg
	switch r := msg.(type) {
	case *mem.ReadReq:
		out = mem.ReadReqBuilder{}.WithSrc(c.ToMemory).WithDst(c.Memory.Find(r.Address)).
			WithAddress(r.Address).WithByteSize(r.AccessByteSize).WithSendTime(now).Build()
	case *mem.WriteReq:
		out = mem.WriteReqBuilder{}.WithSrc(c.ToMemory).WithDst(c.Memory.Find(r.Address)).
			WithAddress(r.Address).WithData(r.Data).WithDirtyMask(r.DirtyMask).WithSendTime(now).Build()
	default:
		c.fail(fmt.Errorf("%s: unexpected %T from the host bus", c.Name(), msg))
		return false
	}
	if err := c.ToMemory.Send(out); err != nil {
		return false
	}
	c.Host.Retrieve(now)
	c.inflight[out.Meta().ID] = pending{orig: msg, src: msg.Meta().Src}
	if c.traced() {
		tracing.TraceReqReceive(msg, c)
		tracing.TraceReqInitiate(out, c, tracing.MsgIDAtReceiver(msg, c))
	}
	switch r := msg.(type) {
	case *mem.ReadReq:
		c.st.reads++
		c.st.bytesRead += r.AccessByteSize
	case *mem.WriteReq:
		c.st.writes++
		c.st.bytesWritten += uint64(len(r.Data))
	}
	return true
}

// traced reports whether a tracer is attached. A forwarded request is then
// recorded as Akita's req_in task ("<ID>@<name>", below the command processor's
// req_out task) from its arrival to its response, with the request to memory
// (a req_out task) below it (docs/design-timing.md, section 10).
func (c *Comp) traced() bool { return c.NumHooks() > 0 }

func (c *Comp) fail(err error) { c.halt.Fail(err) }

// Stats implements timing.StatsReporter.
func (c *Comp) Stats(add func(string, float64)) {
	n := c.Name()
	timing.AddTagged(n+".", add, &c.st)
	c.act.Stats(n, add)
}

// Buffers implements timing.Buffered.
func (c *Comp) Buffers() []timing.BufferState {
	rsp := 0
	if c.pendingRsp != nil {
		rsp = 1
	}
	return []timing.BufferState{
		{Name: c.Name() + ".Inflight", Len: len(c.inflight), Cap: c.maxOutstanding},
		{Name: c.Name() + ".PendingResponse", Len: rsp, Cap: 1},
	}
}

// Finish closes the activity accounting.
func (c *Comp) Finish(now sim.VTimeInSec) { c.act.Finish(c.Freq.Cycle(now)) }
