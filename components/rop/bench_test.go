package rop_test

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// bench is a ROP wired to fake peers on one direct connection.
type bench struct {
	*backendtest.Rig
	rop              *rop.Comp
	rob, du, cp      *backendtest.Peer
	name             string
	lateZRspDelay    uint64
	lateZPass        func(req *protocol.LateZReq) []raster.SampleMask
	lateZRequestedAt []uint64
}

func newBench(t *testing.T, cfg rop.Config, spec backendtest.TargetSpec, memLatency int) *bench {
	t.Helper()
	r := backendtest.NewRig(t, spec, memLatency)
	bn := &bench{Rig: r, name: "GPU.ROP[0]", lateZRspDelay: 10}
	bn.rop = rop.MakeBuilder().WithEnv(r.Env()).WithConfig(cfg).Build(bn.name)
	bn.rob, bn.du, bn.cp = r.Peer("ReorderBuffer"), r.Peer("DepthUnit"), r.Peer("CommandProcessor")
	r.Plug(bn.rop.FromReorderBuffer, bn.rop.DepthUnit, bn.rop.ToMemory, bn.rop.Control,
		bn.rob.Port, bn.du.Port, bn.cp.Port, r.Mem.Top)
	bn.rop.DepthUnitPort = bn.du.Port
	bn.rop.CommandProcessor = bn.cp.Port
	bn.rop.Memory = r.Mem
	bn.rop.Image = r.TG.Image
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

// sendDraw sends the shaded quads of draw d from the reorder buffer at
// cycle, then the draw's DrawEnd.
func (b *bench) sendDraw(cycle uint64, d *protocol.Draw, quads ...protocol.ShadedQuad) {
	b.rob.SendAt(cycle, b.rop.FromReorderBuffer, protocol.NewShadedQuads(d, quads))
	b.rob.SendAt(cycle, b.rop.FromReorderBuffer, protocol.NewDrawEnd(d, 0))
}

func (b *bench) run() {
	b.T.Helper()
	b.Run(b.rop)
}

func (b *bench) stat(name string) float64 {
	b.T.Helper()
	return b.Stat(b.rop, name)
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
