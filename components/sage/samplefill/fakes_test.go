package samplefill_test

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/shader"
	"github.com/gfxsim/gfxsim/timing"
)

// fakeCore shades each PixelWarp functionally (shadeWarp) when it arrives and
// answers it to its ReturnTo delay(ID) cycles later, so that answers overtake
// each other.
type fakeCore struct {
	*sim.TickingComponent
	Port    sim.Port
	delay   func(id uint64) uint64
	waker   *timing.Waker
	pending []reply
	got     int
}

type reply struct {
	at  uint64
	msg *protocol.ShadedWarp
}

func newFakeCore(e sim.Engine, f sim.Freq, delay func(uint64) uint64) *fakeCore {
	c := &fakeCore{delay: delay}
	c.TickingComponent = sim.NewTickingComponent("Core", e, f, c)
	c.Port = sim.NewLimitNumMsgPort(c, 2, "Core.Port")
	c.waker = timing.NewWaker(e, f, c)
	return c
}

func (c *fakeCore) Tick(now sim.VTimeInSec) bool {
	cy := c.Freq.Cycle(now)
	progress := false
	for {
		msg := c.Port.Retrieve(now)
		if msg == nil {
			break
		}
		w := msg.(*protocol.PixelWarp)
		at := cy + c.delay(w.ID)
		c.pending = append(c.pending, reply{at: at, msg: protocol.NewShadedWarp(w, shadeWarp(w))})
		c.waker.WakeIn(now, int(at-cy))
		c.got++
		progress = true
	}
	for i := 0; i < len(c.pending); {
		r := c.pending[i]
		if r.at > cy {
			i++
			continue
		}
		r.msg.Src, r.msg.Dst, r.msg.SendTime = c.Port, r.msg.Warp.ReturnTo, now
		if c.Port.Send(r.msg) != nil {
			break
		}
		c.pending = append(c.pending[:i], c.pending[i+1:]...)
		progress = true
	}
	return progress || len(c.pending) > 0 && c.pending[0].at <= cy
}

// shadeWarp runs w as the shader core does: pipeline.LoadPerSampleQuad per
// sample quad, then ReadQuad.
func shadeWarp(w *protocol.PixelWarp) []pipeline.QuadOutput {
	d := w.Draw.State
	sw := shader.NewWarp(shader.MaxLanes)
	sw.Reset(d.PS, 4*len(w.Quads), d.PSConstants)
	for i, q := range w.Quads {
		pipeline.LoadPerSampleQuad(d, &w.Draw.Raster, q.Prim, q.Quad, int(q.Sample), q.Live, w.PixelRate, sw, 4*i)
	}
	sw.Run(&pipeline.TextureUnits{Bindings: &d.PSTextures})
	out := make([]pipeline.QuadOutput, len(w.Quads))
	for i := range out {
		out[i] = pipeline.ReadQuad(d, sw, 4*i)
	}
	return out
}
