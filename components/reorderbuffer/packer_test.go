package reorderbuffer

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/quadpacker"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/timing"
)

// TestFullBufferStallsRealPacker puts the real quad packer in front of an
// 8-entry buffer: each 8-quad warp needs the whole buffer, so a warp is
// dispatched only when the previous one retired, and the packer, whose warps
// back up into the buffer's port and the connection, alternates between sending
// and being blocked.
func TestFullBufferStallsRealPacker(t *testing.T) {
	a := testDraw(0)
	var script []scripted
	for i := 0; i < 4; i++ {
		qs := make([]protocol.QuadLive, 8)
		for k := range qs {
			qs[k] = protocol.QuadLive{Quad: raster.Quad{X: int32(2 * k), Coverage: raster.SampleMask{1}}, Live: raster.SampleMask{1}}
		}
		script = append(script, scripted{At: 0, Msg: protocol.NewTileQuads(a, nil, 0, 0, 0, qs)})
	}
	script = append(script, scripted{At: 0, Msg: protocol.NewDrawEnd(a, 0)})

	b := MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.Entries, c.InputQueue = 8, 1 }))
	bn := newBench(b, benchConfig{cores: 1, rops: 1, latency: func(*protocol.PixelWarp) uint64 { return 50 }}, nil)
	packer := quadpacker.MakeBuilder().WithEnv(timing.Env{Engine: bn.engine, Freq: testpeer.Freq, Halt: bn.halt}).Build("GPU.QuadPacker")
	packer.ReorderBufferPort = bn.rob.FromQuadPacker
	toPacker := sim.NewDirectConnection("DepthUnitToPacker", bn.engine, 1*sim.GHz)
	bn.packer.Dst = packer.FromDepthUnits
	bn.packer.Script = script
	// Re-plug the buffer's input: the real packer replaces the fake one.
	toROB := sim.NewDirectConnection("RealPackerToROB", bn.engine, 1*sim.GHz)
	toROB.PlugIn(packer.ToReorderBuffer, 1)
	toROB.PlugIn(bn.rob.FromQuadPacker, 1)
	toPacker.PlugIn(bn.packer.Out, 8)
	toPacker.PlugIn(packer.FromDepthUnits, 1)
	bn.run(t)
	packer.Finish(bn.engine.CurrentTime() + 1e-9)

	var dispatchedAt []uint64
	for _, d := range bn.cores[0].got {
		dispatchedAt = append(dispatchedAt, d.Cycle)
	}
	// Warp 0 is dispatched at 4, back at 55, filled at 56, retired at 57, when warp
	// 1 takes the entries; and so on every 53 cycles. The marker follows warp 3.
	if want := []uint64{4, 57, 110, 163}; !reflect.DeepEqual(dispatchedAt, want) {
		t.Fatalf("warps dispatched at %v, want %v", dispatchedAt, want)
	}
	var retiredAt []uint64
	for _, r := range records(bn.rops[0]) {
		retiredAt = append(retiredAt, r.At)
	}
	if want := []uint64{57, 110, 163, 216, 217}; !reflect.DeepEqual(retiredAt, want) {
		t.Fatalf("retired at %v, want %v", retiredAt, want)
	}
	st := map[string]float64{}
	packer.Stats(func(n string, v float64) { st[n] = v })
	// Packer: busy 1-9 (a warp every 2 cycles, sent the cycle after: warp 0 at 3
	// into the buffer's port, warp 1 at 5 into the port once warp 0 is dispatched,
	// warp 2 at 7 into the connection; warp 3's Send fails at 9 and the DrawEnd
	// joins it), blocked 10-57, busy 58 (warp 3 leaves when warp 1 is taken),
	// blocked 59-110, busy 111 (the DrawEnd leaves when warp 2 is taken).
	if st["GPU.QuadPacker.cycles_busy"] != 11 || st["GPU.QuadPacker.cycles_blocked_output"] != 100 {
		t.Fatalf("packer busy %v, blocked %v cycles, want 11 and 100",
			st["GPU.QuadPacker.cycles_busy"], st["GPU.QuadPacker.cycles_blocked_output"])
	}
}
