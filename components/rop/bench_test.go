package rop_test

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/timing"
)

// bench is a ROP wired to fake peers on one direct connection.
type bench struct {
	t                *testing.T
	e                sim.Engine
	rop              *rop.Comp
	rob, du, cp      *backendtest.Peer
	mem              *backendtest.Memory
	tg               *backendtest.Targets
	halt             *timing.Halt
	name             string
	lateZRspDelay    uint64
	lateZPass        func(req *protocol.LateZReq) []raster.SampleMask
	lateZRequestedAt []uint64
}

func defaultSpec() backendtest.TargetSpec {
	return backendtest.TargetSpec{Width: 16, Height: 8, Samples: 1, ColorFormat: framebuffer.RGBA8,
		ColorLayout: framebuffer.Linear, DepthFormat: depth.D24S8, DepthLayout: framebuffer.Linear}
}

func newBench(t *testing.T, cfg rop.Config, spec backendtest.TargetSpec, memLatency int) *bench {
	t.Helper()
	tg, err := backendtest.NewTargets(spec)
	if err != nil {
		t.Fatal(err)
	}
	e := sim.NewSerialEngine()
	f := 1 * sim.GHz
	h := &timing.Halt{}
	bn := &bench{t: t, e: e, tg: tg, halt: h, name: "GPU.ROP[0]", lateZRspDelay: 10}
	bn.rop = rop.MakeBuilder().WithEnv(timing.Env{Engine: e, Freq: f, Halt: h}).WithConfig(cfg).Build(bn.name)
	bn.rob = backendtest.NewPeer("ReorderBuffer", e, f, 4)
	bn.du = backendtest.NewPeer("DepthUnit", e, f, 4)
	bn.cp = backendtest.NewPeer("CommandProcessor", e, f, 4)
	bn.mem = backendtest.NewMemory("Memory", e, f, memLatency)
	bn.mem.Image = tg.Image
	conn := sim.NewDirectConnection("Conn", e, f)
	for _, p := range []sim.Port{bn.rop.FromReorderBuffer, bn.rop.DepthUnit, bn.rop.ToMemory, bn.rop.Control,
		bn.rob.Port, bn.du.Port, bn.cp.Port, bn.mem.Top} {
		conn.PlugIn(p, 4)
	}
	bn.rop.DepthUnitPort = bn.du.Port
	bn.rop.CommandProcessor = bn.cp.Port
	bn.rop.Memory = bn.mem
	bn.rop.Image = tg.Image
	// The fake depth unit answers every request lateZRspDelay cycles later,
	// with lateZPass's masks (all live samples pass by default).
	bn.du.OnRecv = func(p *backendtest.Peer, cycle uint64, msg sim.Msg) {
		req := msg.(*protocol.LateZReq)
		bn.lateZRequestedAt = append(bn.lateZRequestedAt, cycle)
		pass := make([]raster.SampleMask, len(req.Quads))
		for i, q := range req.Quads {
			pass[i] = q.Live
		}
		if bn.lateZPass != nil {
			if p := bn.lateZPass(req); p != nil {
				pass = p
			}
		}
		p.SendAt(cycle+bn.lateZRspDelay, bn.rop.DepthUnit, protocol.NewLateZRsp(req, pass))
	}
	return bn
}

func (b *bench) run() {
	b.t.Helper()
	if err := b.e.Run(); err != nil {
		b.t.Fatal(err)
	}
	if b.halt.Stopped() {
		b.t.Fatalf("halted: %v", b.halt.Reason())
	}
	b.rop.Finish(b.e.CurrentTime())
}

func (b *bench) stat(name string) float64 {
	b.t.Helper()
	var v float64
	found := false
	b.rop.Stats(func(n string, x float64) {
		if n == b.name+"."+name {
			v, found = x, true
		}
	})
	if !found {
		b.t.Fatalf("no statistic %q", name)
	}
	return v
}

// shaded returns a ShadedQuad of quad (x, y) of primitive p with every sample
// live, colour c in every pixel, the pixels in store storing.
func shaded(d *protocol.Draw, p *pipeline.Primitive, x, y int32, c geom.Vec4, store uint8) protocol.ShadedQuad {
	full := raster.FullPixels(15, d.Raster.Samples.Count)
	return protocol.ShadedQuad{Prim: p, Quad: raster.Quad{X: x, Y: y, Coverage: full}, Live: full,
		Out: pipeline.QuadOutput{Color: [4]geom.Vec4{c, c, c, c}, Store: store}}
}

// expectWrites runs pipeline.WriteQuad over the messages in order on a copy of
// the targets, with late Z done by pass (nil: every sample passes).
func expectWrites(tg *backendtest.Targets, msgs []*protocol.ShadedQuads) (*backendtest.Targets, pipeline.WriteStats) {
	ref := tg.Clone()
	var st pipeline.WriteStats
	for _, m := range msgs {
		sd := *m.Draw.State
		sd.Color = ref.Color
		sd.DepthBuf = ref.Depth
		for _, q := range m.Quads {
			o := q.Out
			pipeline.WriteQuad(&sd, &m.Draw.Raster, q.Prim, q.Quad, q.Live, &o, &st)
		}
	}
	return ref, st
}
