package interleave_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/components/sage/interleave"
	"github.com/gfxsim/gfxsim/components/sage/sched"
	"github.com/gfxsim/gfxsim/functional/blend"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/samplebuffer"
	"github.com/gfxsim/gfxsim/timing"
)

// TestSchedToInterleaves: one pipe's blended samples (each sample location
// written several times) go through a real sched to two interleaves; the
// targets equal direct WriteSample calls in the pipe's order, both
// interleaves report the draw done, and the snoop's prefetches are used.
func TestSchedToInterleaves(t *testing.T) {
	const w, h, spp = 16, 8, 4
	tg, err := backendtest.NewTargets(backendtest.TargetSpec{Width: w, Height: h, Samples: spp,
		ColorFormat: framebuffer.RGBA10, ColorLayout: framebuffer.Linear, DepthFormat: depth.D24S8,
		DepthLayout: framebuffer.Linear})
	if err != nil {
		t.Fatal(err)
	}
	want := tg.Clone()
	g := samplebuffer.Geometry{Width: w, Height: h, Samples: spp, Interleaves: 2, ChipsPerInterleave: 2}

	e := sim.NewSerialEngine()
	conn := sim.NewDirectConnection("Conn", e, 100*sim.MHz)
	sc := sched.DefaultConfig()
	sc.Pipes, sc.FirstInterleave, sc.Interleaves, sc.Hysteresis = 1, 0, 2, 0
	sc.SnoopDistance, sc.PrewriteDepth, sc.OutputBurst = 8, 32, 4
	env := timing.Env{Engine: e, Freq: 100 * sim.MHz}
	s := sched.MakeBuilder().WithEnv(env).WithConfig(sc).Build("Sched")
	pipe := backendtest.NewPeer("Pipe", e, 100*sim.MHz, 4)
	cp := backendtest.NewPeer("CP", e, 100*sim.MHz, 4)
	for _, p := range []sim.Port{s.FromPipes[0], s.ToInterleaves, pipe.Port, cp.Port} {
		conn.PlugIn(p, 1)
	}
	var ils []*interleave.Comp
	for i := 0; i < 2; i++ {
		ic := interleave.DefaultConfig()
		ic.Index, ic.Pipes, ic.Geometry, ic.BlocksPerChip, ic.SamplesPerBlock = i, 1, g, 2, 4
		il := interleave.MakeBuilder().WithEnv(env).WithConfig(ic).Build(fmt.Sprintf("Interleave[%d]", i))
		conn.PlugIn(il.FromSched, 1)
		conn.PlugIn(il.Control, 1)
		il.CommandProcessor = cp.Port
		s.Interleaves[i] = il.FromSched
		ils = append(ils, il)
	}

	d, dw := tg.Draw(0, false), want.Draw(0, false)
	for _, x := range []*protocol.Draw{d, dw} {
		x.State.Blend.Targets[0] = blend.Alpha()
		x.State.Depth.DepthEnable = false
	}
	rng := rand.New(rand.NewSource(33))
	var ws pipeline.WriteStats
	for pass := 0; pass < 3; pass++ {
		var per [2][]protocol.SageSample
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				for k := 0; k < spp; k++ {
					smp := protocol.SageSample{X: int32(x), Y: int32(y), S: uint8(k),
						Color: geom.Vec4{rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()}}
					i := g.Interleave(x, y, k)
					per[i] = append(per[i], smp)
					pipeline.WriteSample(dw.State, x, y, k, 0, false, smp.Color, &ws)
				}
			}
		}
		for i := range per {
			for lo := 0; lo < len(per[i]); lo += 32 {
				pipe.SendAt(0, s.FromPipes[0], protocol.NewSampleBurst(d, 0, i, per[i][lo:lo+32], 16))
			}
		}
	}
	pipe.SendAt(0, s.FromPipes[0], protocol.NewOrderMarker(protocol.MarkDrawEnd, d, 0, 0, -1))
	testpeer.Run(t, e)
	if pipe.Pending() > 0 {
		t.Fatalf("%d messages never accepted", pipe.Pending())
	}
	if !bytes.Equal(tg.Image.Bytes(), want.Image.Bytes()) {
		t.Error("the targets differ from direct WriteSample calls in the pipe's order")
	}
	if len(cp.Received) != 2 {
		t.Fatalf("the command processor received %d messages, want a DrawDone from each interleave", len(cp.Received))
	}
	stats := map[string]float64{}
	for _, il := range ils {
		il.Stats(func(n string, v float64) { stats[n] = v })
	}
	for i := 0; i < 2; i++ {
		n := fmt.Sprintf("Interleave[%d].", i)
		if stats[n+"samples_written"] != 3*w*h*spp/2 {
			t.Errorf("%ssamples_written %v, want %d", n, stats[n+"samples_written"], 3*w*h*spp/2)
		}
		if stats[n+"prefetch_hits"] == 0 {
			t.Errorf("%sprefetch_hits 0: the snoop never helped", n)
		}
	}
}
