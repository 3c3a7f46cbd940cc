package reorderbuffer

import (
	"fmt"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/timing"
)

// fakeSource plays the quad packer: it sends its script (Dst ignored) through Out
// to Dst.
type (
	fakeSource = testpeer.Source
	scripted   = testpeer.Scripted
)

// dispatched is a warp a fake core received.
type dispatched struct {
	Warp  *protocol.PixelWarp
	Cycle uint64 // cycle it entered the core's port
}

// shadingDispatched is a shading warp a fake core received.
type shadingDispatched struct {
	Warp  *protocol.ShadingWarp
	Cycle uint64
}

// fakeCore plays a shader core: it takes every warp the cycle after it arrives
// and returns it Latency(warp) cycles later (in order of readiness). The output
// of quad k of warp w has Color[0] = (w.ID, k, 0, 0) and stores every pixel.
type fakeCore struct {
	*sim.TickingComponent
	In      sim.Port
	Out     sim.Port
	ROB     sim.Port
	Latency func(w *protocol.PixelWarp) uint64
	// ShadeLatency is the latency of shading warps (10 when nil); Discard
	// tells which lanes of a shading quad the shader discards.
	ShadeLatency func(w *protocol.ShadingWarp) uint64
	Discard      func(q *protocol.ShadingQuad) uint8
	got          []dispatched
	shading      []shadingDispatched
	pending      testpeer.Delayed
}

func newFakeCore(name string, e sim.Engine, latency func(*protocol.PixelWarp) uint64) *fakeCore {
	c := &fakeCore{Latency: latency}
	c.TickingComponent = sim.NewTickingComponent(name, e, 1*sim.GHz, c)
	c.In = sim.NewLimitNumMsgPort(c, 4, name+".In")
	c.Out = sim.NewLimitNumMsgPort(c, 1, name+".Out")
	c.AddPort("In", c.In)
	c.AddPort("Out", c.Out)
	return c
}

func (c *fakeCore) Tick(now sim.VTimeInSec) bool {
	cycle := c.Freq.Cycle(now)
	// Send the ready warps, earliest first (stable for equal times).
	progress := c.pending.Send(now, cycle, c.Out, c.ROB)
	for msg := c.In.Peek(); msg != nil; msg = c.In.Peek() {
		c.In.Retrieve(now)
		progress = true
		if sw, ok := msg.(*protocol.ShadingWarp); ok {
			c.shading = append(c.shading, shadingDispatched{sw, c.Freq.Cycle(sw.RecvTime)})
			lat := uint64(10)
			if c.ShadeLatency != nil {
				lat = c.ShadeLatency(sw)
			}
			c.pending.Add(cycle+lat, c.shade(sw))
			continue
		}
		w := msg.(*protocol.PixelWarp)
		c.got = append(c.got, dispatched{w, c.Freq.Cycle(w.RecvTime)})
		c.pending.Add(cycle+c.Latency(w), shadeWarp(w))
	}
	return progress || c.pending.Len() > 0
}

// shadeWarp returns a pixel warp's outputs: quad k of warp w has Color[0] =
// (w.ID, k, 0, 0) and stores every pixel.
func shadeWarp(w *protocol.PixelWarp) *protocol.ShadedWarp {
	out := make([]pipeline.QuadOutput, len(w.Quads))
	for k := range out {
		out[k].Color[0] = geom.V4(float32(w.ID), float32(k), 0, 0)
		out[k].Store = 0xf
	}
	return protocol.NewShadedWarp(w, out)
}

// shade returns a shading warp's lanes: lane l of the quad with tag T has the
// colour (T.QuadX, T.QuadY, l, T.Sample) and stores unless Discard says so.
func (c *fakeCore) shade(sw *protocol.ShadingWarp) *protocol.ShadedLanes {
	lanes := make([]pipeline.ShadingLanes, len(sw.Quads))
	for k := range lanes {
		q := &sw.Quads[k]
		for l := 0; l < 4; l++ {
			lanes[k].Color[l] = geom.V4(float32(q.Tag.QuadX), float32(q.Tag.QuadY), float32(l), float32(q.Tag.Sample))
			lanes[k].Depth[l] = float32(l) / 4
		}
		lanes[k].Store = 0xf
		if c.Discard != nil {
			lanes[k].Store &^= c.Discard(q)
		}
	}
	return protocol.NewShadedLanes(sw, lanes)
}

// ropRecord is a message a fake ROP received: "q<warp>.<k>..." for ShadedQuads
// (quads identified by the fake core's outputs) or "end d<seq>".
type ropRecord struct {
	What string
	At   uint64 // cycle it entered the ROP's port
}

// fakeROP records what it receives, taking messages from cycle AcceptFrom on.
type fakeROP = testpeer.Peer

// records describes what ROP r received (describeROP), with the cycles the
// messages entered its port.
func records(r *fakeROP) []ropRecord {
	out := make([]ropRecord, len(r.Got))
	for i, a := range r.Got {
		out[i] = ropRecord{describeROP(a.Msg), a.Arrived}
	}
	return out
}

func describeROP(m sim.Msg) string {
	switch m := m.(type) {
	case *protocol.ShadedQuads:
		s := fmt.Sprintf("d%d", m.Draw.Seq)
		for _, q := range m.Quads {
			s += fmt.Sprintf(" %v.%v", q.Out.Color[0][0], q.Out.Color[0][1])
		}
		return s
	case *protocol.DrawEnd:
		return fmt.Sprintf("end d%d", m.Draw.Seq)
	case *protocol.ShadedSamples:
		// "v d<seq> (x,y) live/kept [colours]"
		s := fmt.Sprintf("v d%d", m.Draw.Seq)
		for _, q := range m.Quads {
			s += fmt.Sprintf(" (%d,%d) %x/%x", q.X, q.Y, q.Live[0], q.Kept[0])
			for _, c := range q.Colors {
				s += fmt.Sprintf(" %v", c)
			}
		}
		return s
	}
	return fmt.Sprintf("%T", m)
}

// bench wires a packer fake, the reorder buffer, fake cores and fake ROPs with
// direct connections (or conn for the dispatch path when set).
type bench struct {
	engine *sim.SerialEngine
	halt   *timing.Halt
	// ownHalt: the test gave the builder its Halt and looks at the error itself.
	ownHalt bool
	rob     *Comp
	packer  *fakeSource
	cores   []*fakeCore
	rops    []*fakeROP
	// fromCores is the connection into FromShaderCores (tests may plug more
	// sources into it).
	fromCores *sim.DirectConnection
}

type benchConfig struct {
	cores    int
	rops     int
	ropCap   int // ROP port capacity (default 4)
	ropBuf   int // the buffer's source-side buffer towards the ROPs (default 8)
	latency  func(*protocol.PixelWarp) uint64
	dispatch func(e sim.Engine) sim.Connection // connection from the buffer to the cores (default direct)
}

func newBench(b Builder, cfg benchConfig, script []scripted) *bench {
	e := sim.NewSerialEngine()
	bn := &bench{engine: e, halt: b.Env().Halt, ownHalt: b.Env().Halt != nil}
	if bn.halt == nil {
		bn.halt = &timing.Halt{}
	}
	bn.rob = b.WithEnv(timing.Env{Engine: e, Freq: testpeer.Freq, Halt: bn.halt}).
		WithConfig(testpeer.Edit(b.Config(), func(c *Config) { c.NumPartitions = cfg.rops })).Build("GPU.ReorderBuffer")
	bn.packer = testpeer.NewSource("QuadPacker", e, script)
	bn.packer.Dst = bn.rob.FromQuadPacker
	in := sim.NewDirectConnection("PackerToROB", e, 1*sim.GHz)
	in.PlugIn(bn.packer.Out, 16)
	in.PlugIn(bn.rob.FromQuadPacker, 1)

	var toCores sim.Connection = sim.NewDirectConnection("ROBToCores", e, 1*sim.GHz)
	if cfg.dispatch != nil {
		toCores = cfg.dispatch(e)
	}
	fromCores := sim.NewDirectConnection("CoresToROB", e, 1*sim.GHz)
	bn.fromCores = fromCores
	toCores.PlugIn(bn.rob.ToShaderCores, 4)
	fromCores.PlugIn(bn.rob.FromShaderCores, 1)
	if cfg.latency == nil {
		cfg.latency = func(*protocol.PixelWarp) uint64 { return 10 }
	}
	for i := 0; i < cfg.cores; i++ {
		c := newFakeCore(fmt.Sprintf("ShaderCore[%d]", i), e, cfg.latency)
		c.ROB = bn.rob.FromShaderCores
		toCores.PlugIn(c.In, 1)
		fromCores.PlugIn(c.Out, 4)
		bn.cores = append(bn.cores, c)
		bn.rob.ShaderCores = append(bn.rob.ShaderCores, c.In)
	}
	if cfg.ropCap == 0 {
		cfg.ropCap = 4
	}
	if cfg.ropBuf == 0 {
		cfg.ropBuf = 8
	}
	toROPs := sim.NewDirectConnection("ROBToROPs", e, 1*sim.GHz)
	toROPs.PlugIn(bn.rob.ToROPs, cfg.ropBuf)
	for i := 0; i < cfg.rops; i++ {
		r := testpeer.NewSink(fmt.Sprintf("ROP[%d]", i), e, cfg.ropCap)
		toROPs.PlugIn(r.Port, 1)
		bn.rops = append(bn.rops, r)
		bn.rob.ROPs = append(bn.rob.ROPs, r.Port)
	}
	return bn
}

// run runs the simulation; a protocol error fails the test unless the test
// passed its own Halt to the builder (to look at the error).
func (bn *bench) run(t *testing.T) {
	t.Helper()
	testpeer.Run(t, bn.engine, bn.packer)
	if err := bn.halt.Reason(); err != nil && !bn.ownHalt {
		t.Fatalf("halted: %v", err)
	}
}

// probe calls fn at a given time (to look at the buffer in the middle of a run).
type probe struct {
	fn func()
}

type probeEvent struct {
	*sim.EventBase
}

func (p *probe) Handle(sim.Event) error { p.fn(); return nil }

func (bn *bench) at(cycle uint64, fn func()) {
	bn.engine.Schedule(probeEvent{sim.NewEventBase(sim.VTimeInSec(float64(cycle)*1e-9), &probe{fn})})
}

func testDraw(seq uint64) *protocol.Draw {
	return &protocol.Draw{Seq: seq, State: &state.Draw{}, Raster: raster.Config{Samples: raster.SamplePattern{Count: 1}}}
}

// warp makes warp id of draw d with one quad per listed partition.
func warp(d *protocol.Draw, id uint64, partitions ...int) *protocol.PixelWarp {
	qs := make([]protocol.WarpQuad, len(partitions))
	for k, p := range partitions {
		qs[k] = protocol.WarpQuad{Quad: raster.Quad{X: int32(2 * k), Coverage: raster.SampleMask{1}}, Live: raster.SampleMask{1}, Partition: p, Sample: protocol.PerPixel}
	}
	return protocol.NewPixelWarp(d, id, qs)
}
