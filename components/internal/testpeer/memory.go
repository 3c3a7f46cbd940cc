package testpeer

import (
	"fmt"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/timing"
)

// MemReq is one request a Memory took, at the cycle its tick took it.
type MemReq struct {
	Cycle      uint64
	Addr, Size uint64
	Write      bool
}

// Memory answers every request Latency cycles after its tick took it: a
// read with the bytes of Image, a write with an acknowledgement (the data is
// not applied). A ReadOnly memory panics on a write. Log lists the requests.
type Memory struct {
	*timing.TickingComponent
	Top      sim.Port
	Image    command.Memory
	Latency  uint64
	ReadOnly bool
	Log      []MemReq
	pending  []Scripted // answers at their ready cycle
}

// NewMemory returns a memory named "Memory" with port "Memory.Top" (64
// messages).
func NewMemory(e sim.Engine, image command.Memory, latency uint64) *Memory {
	m := &Memory{Image: image, Latency: latency}
	m.TickingComponent = timing.NewTickingComponent("Memory", e, Freq, m)
	m.Top = timing.AddPort(m, "Top", 64)
	return m
}

// Tick takes every request, then sends the answers that are due.
func (m *Memory) Tick(now sim.VTimeInSec) bool {
	cycle := m.Freq.Cycle(now)
	progress := false
	for msg := m.Top.Retrieve(now); msg != nil; msg = m.Top.Retrieve(now) {
		progress = true
		m.take(cycle, msg)
	}
	var sent int
	m.pending, sent = SendDue(m.Top, nil, m.pending, now, cycle)
	return progress || sent > 0 || len(m.pending) > 0
}

func (m *Memory) take(cycle uint64, msg sim.Msg) {
	var rsp sim.Msg
	switch r := msg.(type) {
	case *mem.ReadReq:
		m.Log = append(m.Log, MemReq{Cycle: cycle, Addr: r.Address, Size: r.AccessByteSize})
		data := make([]byte, r.AccessByteSize)
		m.Image.ReadAt(data, r.Address)
		rsp = mem.DataReadyRspBuilder{}.WithSrc(m.Top).WithDst(r.Src).WithRspTo(r.ID).WithData(data).Build()
	case *mem.WriteReq:
		if m.ReadOnly {
			panic(fmt.Sprintf("fake memory: unexpected %T", msg))
		}
		m.Log = append(m.Log, MemReq{Cycle: cycle, Addr: r.Address, Size: uint64(len(r.Data)), Write: true})
		rsp = mem.WriteDoneRspBuilder{}.WithSrc(m.Top).WithDst(r.Src).WithRspTo(r.ID).Build()
	default:
		panic(fmt.Sprintf("fake memory: unexpected %T", msg))
	}
	m.pending = append(m.pending, Scripted{At: cycle + m.Latency, Msg: rsp, Dst: msg.Meta().Src})
}
