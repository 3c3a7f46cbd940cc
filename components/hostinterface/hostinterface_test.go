package hostinterface

import (
	"bytes"
	"testing"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memory"
)

// requester sends scripted requests at cycle 1 and records the responses.
type requester struct {
	*sim.TickingComponent
	Port     sim.Port
	reqs     []sim.Msg
	sent     int
	got      []sim.Msg
	times    []uint64
	readFrom uint64 // the cycle it starts taking responses
}

func (r *requester) Tick(now sim.VTimeInSec) bool {
	p := false
	for r.sent < len(r.reqs) {
		m := r.reqs[r.sent]
		m.Meta().SendTime = now
		if r.Port.Send(m) != nil {
			break
		}
		r.sent++
		p = true
	}
	if r.Freq.Cycle(now) < r.readFrom {
		return true
	}
	for m := r.Port.Retrieve(now); m != nil; m = r.Port.Retrieve(now) {
		r.got = append(r.got, m)
		r.times = append(r.times, r.Freq.Cycle(now))
		p = true
	}
	return p
}

// rig connects a requester (a port of portCap responses, taking them from
// cycle readFrom) through a host bus (hostBuf messages from the bridge) to a
// host interface and an ideal memory of channels channels of 10 cycles.
func rig(t *testing.T, channels, portCap, hostBuf int, readFrom uint64) (*sim.SerialEngine, *memory.Memory, *Comp, *requester) {
	t.Helper()
	e := sim.NewSerialEngine()
	m, err := memory.Build(memory.Config{Type: memory.TypeIdeal, NumChannels: channels, InterleaveBytes: 256, Freq: 1 * sim.GHz,
		Ideal: memory.IdealConfig{Latency: 10}}, e, "Mem")
	if err != nil {
		t.Fatal(err)
	}
	h := MakeBuilder().WithEngine(e).Build("Host")
	h.Memory = m.Finder
	r := &requester{readFrom: readFrom}
	r.TickingComponent = sim.NewTickingComponent("Requester", e, 1*sim.GHz, r)
	r.Port = sim.NewLimitNumMsgPort(r, portCap, "Requester.Port")
	hostBus := sim.NewDirectConnection("HostBus", e, 1*sim.GHz)
	hostBus.PlugIn(r.Port, 8)
	hostBus.PlugIn(h.Host, hostBuf)
	memConn := sim.NewDirectConnection("MemConn", e, 1*sim.GHz)
	memConn.PlugIn(h.ToMemory, 8)
	for _, p := range m.Tops {
		memConn.PlugIn(p, 8)
	}
	return e, m, h, r
}

func TestForwardsReadsAndWrites(t *testing.T) {
	e, m, h, r := rig(t, 2, 8, 8, 0)
	img := make([]byte, 4096)
	for i := range img {
		img[i] = byte(i * 7)
	}
	if err := m.LoadImage(0x10000, img); err != nil {
		t.Fatal(err)
	}
	read := mem.ReadReqBuilder{}.WithSrc(r.Port).WithDst(h.Host).WithAddress(0x10100 + 8).WithByteSize(16).Build()
	write := mem.WriteReqBuilder{}.WithSrc(r.Port).WithDst(h.Host).WithAddress(0x10000).WithData([]byte{1, 2, 3, 4}).Build()
	r.reqs = []sim.Msg{read, write}
	r.TickLater(0)
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if len(r.got) != 2 {
		t.Fatalf("%d responses", len(r.got))
	}
	d, ok := r.got[0].(*mem.DataReadyRsp)
	if !ok || d.RespondTo != read.ID || !bytes.Equal(d.Data, img[0x108:0x118]) {
		t.Fatalf("read response %+v", r.got[0])
	}
	if w, ok := r.got[1].(*mem.WriteDoneRsp); !ok || w.RespondTo != write.ID {
		t.Fatalf("write response %+v", r.got[1])
	}
	got := make([]byte, 4)
	m.ReadAt(got, 0x10000)
	if !bytes.Equal(got, []byte{1, 2, 3, 4}) {
		t.Fatalf("memory after the write: %v", got)
	}
	stats := map[string]float64{}
	h.Stats(func(n string, v float64) { stats[n] = v })
	if stats["Host.reads"] != 1 || stats["Host.bytes_read"] != 16 || stats["Host.bytes_written"] != 4 {
		t.Fatalf("stats %v", stats)
	}
	t.Logf("responses at cycles %v", r.times)
}

// A response the host bus refuses (the requester's port is full) is held and
// retried each cycle: those cycles are blocked, not busy.
func TestHeldResponseIsBlocked(t *testing.T) {
	e, _, h, r := rig(t, 1, 1, 1, 200) // the port and the bus hold one response each
	for a := uint64(0); a < 3; a++ {   // the port holds one, the bus one, the third waits
		r.reqs = append(r.reqs, mem.ReadReqBuilder{}.WithSrc(r.Port).WithDst(h.Host).WithAddress(64*a).WithByteSize(16).Build())
	}
	r.TickLater(0) // sends at once, takes responses from readFrom
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if len(r.got) != 3 {
		t.Fatalf("%d responses", len(r.got))
	}
	st := map[string]float64{}
	h.Stats(func(n string, v float64) { st[n] = v })
	// The third response waits from its arrival (about cycle 15) to the
	// requester's first take (cycle 200): some 180 cycles, none busy.
	if st["Host.cycles_blocked"] < 150 || st["Host.cycles_busy"] > 10 {
		t.Errorf("busy %v, blocked %v cycles: a held response's retries count as busy", st["Host.cycles_busy"], st["Host.cycles_blocked"])
	}
}
