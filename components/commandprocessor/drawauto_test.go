package commandprocessor

import (
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/command"
)

// TestDrawAutoReadsCounterFromMemory: a draw streams out (rasterization off);
// the next draw, which only reads, waits for it to complete (stream-out
// ordering); a DrawAuto then drains, reads the 4-byte filled-size counter from
// the GPU's memory with a read of its own (ToLocalMemory; after the streaming draw's DrawDone,
// never before), and draws counter / stride vertices.
func TestDrawAutoReadsCounterFromMemory(t *testing.T) {
	r := newResources(t)
	soBuf := r.img.Alloc(256, 64)
	counter := r.img.Alloc(4, 64)
	cmds := append(r.setup(),
		command.BindStreamOut{Slot: 0, Addr: soBuf, Size: 256, Stride: 16, Offset: 0, FilledAddr: counter,
			Elements: []command.StreamOutElement{{Register: 0, Components: 4, Offset: 0}}},
		command.SetStreamOut{Flags: command.StreamOutEnable | command.StreamOutNoRasterizer},
		command.Draw{VertexCount: 3},
		command.SetStreamOut{},
		command.Draw{VertexCount: 3},
		command.BindVertexBuffer{Addr: soBuf, Size: 256},
		command.DrawAuto{FilledAddr: counter},
		command.End{})
	stream, size, _ := r.put(cmds)

	const drawLatency = 200
	b := newBench(t, r.img, benchConfig{memLatency: 7, drawLatency: drawLatency, ackLatency: 3})
	// The "pipeline" streams out the first draw's triangle when it arrives:
	// 3 vertices of 16 bytes (its DrawDone follows drawLatency cycles later).
	var dispatched []uint64
	b.pipe.render = func(d *protocol.Draw) {
		dispatched = append(dispatched, b.pipe.Freq.Cycle(b.engine.CurrentTime()))
		if d.State.StreamOut != nil {
			buf, _ := r.img.Slice(counter, 4)
			binary.LittleEndian.PutUint32(buf, 48)
		}
	}
	b.run(t, r.img, stream, size)
	if err := b.cp.Err(); err != nil {
		t.Fatal(err)
	}
	got := dispatches(b.pipe)
	if len(got) != 3 {
		t.Fatalf("%d draws dispatched, want 3", len(got))
	}
	if got[0].Draw.State.StreamOut == nil || got[1].Draw.State.StreamOut != nil {
		t.Errorf("draws 0 and 1: stream-out %v, %v; want on, off", got[0].Draw.State.StreamOut, got[1].Draw.State.StreamOut)
	}
	if s := got[2].Draw.State.Stream; s.Count != 3 || s.Start != 0 || s.Indexed {
		t.Errorf("DrawAuto's stream %+v, want 3 vertices from 0, not indexed", s)
	}
	// Draw 0 reaches the pipe at cycle 40, its DrawDone is sent at 240 and
	// taken at 241, when draw 1 is dispatched (it reaches the pipe at 242:
	// it waited for the streaming draw). Draw 1's DrawDone is taken at 443:
	// the DrawAuto's counter read leaves then (the memory takes it at 444
	// and answers 7 cycles later, taken at 452), and the DrawAuto is
	// dispatched at once (at the pipe at 453).
	if want := []uint64{40, 242, 453}; !reflect.DeepEqual(dispatched, want) {
		t.Errorf("draws reached the pipe at %v, want %v", dispatched, want)
	}
	var reads []testpeer.MemReq
	for _, q := range b.memory.Log {
		if q.Addr == counter {
			reads = append(reads, q)
		}
	}
	if want := []testpeer.MemReq{{Cycle: 444, Addr: counter, Size: 4}}; !reflect.DeepEqual(reads, want) {
		t.Errorf("counter accesses %+v, want %+v", reads, want)
	}
	st := map[string]float64{}
	b.cp.Stats(func(n string, v float64) { st[n] = v })
	if st["GPU.CommandProcessor.draw_auto_reads"] != 1 || st["GPU.CommandProcessor.draws"] != 3 {
		t.Errorf("draw_auto_reads %v, draws %v; want 1, 3", st["GPU.CommandProcessor.draw_auto_reads"], st["GPU.CommandProcessor.draws"])
	}
	// The counter is read through ToLocalMemory, not the DMA's host-bus port.
	if l, d := st["GPU.CommandProcessor.local.bytes_read"], st["GPU.CommandProcessor.dma.bytes_read"]; l != 4 || d != st["GPU.CommandProcessor.dma_bytes_read"] {
		t.Errorf("local.bytes_read %v, want 4; dma.bytes_read %v, want the DMA's dma_bytes_read %v", l, d, st["GPU.CommandProcessor.dma_bytes_read"])
	}
}
