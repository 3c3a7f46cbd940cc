package quadpacker

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/timing"
)

// fakeSource plays the depth unit: it sends its script (Dst ignored) through Out
// to Dst.
type (
	fakeSource = testpeer.Source
	scripted   = testpeer.Scripted
)

// fakeSink plays the reorder buffer: it takes every message from In, from cycle
// AcceptFrom on.
type fakeSink = testpeer.Peer

// bench is a packer between depth-unit fakes and a sink, on direct connections.
type bench struct {
	engine  *sim.SerialEngine
	packer  *Comp
	sources []*fakeSource
	sink    *fakeSink
	ticks   *testpeer.TickLog // the packer's ticks
}

// newBench builds the bench; sinkCap is the sink's port capacity, bufOut the
// packer's source-side buffer on the output connection.
func newBench(b Builder, scripts [][]scripted, sinkCap, bufOut int) *bench {
	e := sim.NewSerialEngine()
	bn := &bench{engine: e}
	b = b.WithEnv(timing.Env{Engine: e, Freq: testpeer.Freq, Halt: b.Env().Halt})
	bn.packer = b.Build("GPU.QuadPacker")
	bn.sink = testpeer.NewSink("ReorderBuffer", e, sinkCap)
	bn.packer.ReorderBufferPort = bn.sink.Port
	in := sim.NewDirectConnection("DepthToPacker", e, 1*sim.GHz)
	for i, sc := range scripts {
		s := testpeer.NewSource(fmt.Sprintf("DepthUnit[%d]", i), e, sc)
		s.Dst = bn.packer.FromDepthUnits
		in.PlugIn(s.Out, 4)
		bn.sources = append(bn.sources, s)
	}
	in.PlugIn(bn.packer.FromDepthUnits, 1)
	out := sim.NewDirectConnection("PackerToROB", e, 1*sim.GHz)
	out.PlugIn(bn.packer.ToReorderBuffer, bufOut)
	out.PlugIn(bn.sink.Port, 1)
	bn.ticks = &testpeer.TickLog{Comp: bn.packer.TickingComponent}
	e.AcceptHook(bn.ticks)
	return bn
}

func (bn *bench) run() {
	for _, s := range bn.sources {
		s.TickNow(0)
	}
	if err := bn.engine.Run(); err != nil {
		panic(err)
	}
}

func testDraw(seq uint64) *protocol.Draw {
	return &protocol.Draw{Seq: seq, State: &state.Draw{}, Raster: raster.Config{Samples: raster.SamplePattern{Count: 1}}}
}

// tileQuads makes a TileQuads of n quads of draw d from partition p; quad i is at
// (2*(first+i), 2*p) with live mask 1+i.
func tileQuads(d *protocol.Draw, p, first, n int) *protocol.TileQuads {
	qs := make([]protocol.QuadLive, n)
	for i := range qs {
		qs[i] = protocol.QuadLive{Quad: raster.Quad{X: int32(2 * (first + i)), Y: int32(2 * p), Coverage: raster.SampleMask{uint64(1 + first + i)}},
			Live: raster.SampleMask{uint64(1 + first + i)}}
	}
	return protocol.NewTileQuads(d, nil, 0, 0, p, qs)
}

// describe renders a received message as "w<id> d<seq> [p:x ...]" or "end d<seq> p".
func describe(m sim.Msg) string {
	switch m := m.(type) {
	case *protocol.PixelWarp:
		s := fmt.Sprintf("w%d d%d [", m.ID, m.Draw.Seq)
		for i, q := range m.Quads {
			if i > 0 {
				s += " "
			}
			s += fmt.Sprintf("%d:%d", q.Partition, q.Quad.X/2)
		}
		return s + "]"
	case *protocol.DrawEnd:
		return fmt.Sprintf("end d%d %d", m.Draw.Seq, m.From)
	}
	return fmt.Sprintf("%T", m)
}
