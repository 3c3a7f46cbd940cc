package sched_test

import (
	"fmt"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/components/sage/sched"
	"github.com/gfxsim/gfxsim/timing"
)

// bench is a sched between scripted pipes and recording interleaves, all on
// one direct connection (a message sent at cycle c is seen at c+1).
type bench struct {
	t      *testing.T
	engine sim.Engine
	sched  *sched.Comp
	pipes  []*backendtest.Peer
	inter  []*backendtest.Peer
	draw   *protocol.Draw
}

// newBench builds the sched from DefaultConfig changed by set (nil: none).
func newBench(t *testing.T, set func(*sched.Config), pipes, interleaves int) *bench {
	t.Helper()
	e := sim.NewSerialEngine()
	cfg := sched.DefaultConfig()
	if set != nil {
		set(&cfg)
	}
	cfg.Pipes, cfg.FirstInterleave, cfg.Interleaves = pipes, 0, interleaves
	s := sched.MakeBuilder().WithEnv(timing.Env{Engine: e, Freq: 100 * sim.MHz}).WithConfig(cfg).Build("Sched")
	conn := sim.NewDirectConnection("Conn", e, 100*sim.MHz)
	for _, port := range s.FromPipes {
		conn.PlugIn(port, 1)
	}
	conn.PlugIn(s.ToInterleaves, 1)
	bn := &bench{t: t, engine: e, sched: s, draw: &protocol.Draw{Seq: 7}}
	for p := 0; p < pipes; p++ {
		peer := backendtest.NewPeer(fmt.Sprintf("Pipe[%d]", p), e, 100*sim.MHz, 1)
		conn.PlugIn(peer.Port, 1)
		bn.pipes = append(bn.pipes, peer)
	}
	for i := 0; i < interleaves; i++ {
		peer := backendtest.NewPeer(fmt.Sprintf("Interleave[%d]", i), e, 100*sim.MHz, 2)
		conn.PlugIn(peer.Port, 1)
		bn.inter = append(bn.inter, peer)
		s.Interleaves[i] = peer.Port
	}
	return bn
}

// burst returns a burst of n samples of pipe p for interleave i; sample k is
// at pixel (first+k, p).
func (b *bench) burst(p, i, first, n int) *protocol.SampleBurst {
	s := make([]protocol.SageSample, n)
	for k := range s {
		s[k] = protocol.SageSample{X: int32(first + k), Y: int32(p)}
	}
	return protocol.NewSampleBurst(b.draw, p, i, s, 16)
}

func (b *bench) send(cycle uint64, p int, msg sim.Msg) {
	b.pipes[p].SendAt(cycle, b.sched.FromPipes[p], msg)
}

func (b *bench) run() {
	b.t.Helper()
	testpeer.RunAndFinish(b.t, b.engine, b.sched)
	for p, peer := range b.pipes {
		if peer.Pending() > 0 {
			b.t.Fatalf("pipe %d: %d messages never accepted", p, peer.Pending())
		}
	}
}

func (b *bench) stats() map[string]float64 {
	m := map[string]float64{}
	b.sched.Stats(func(name string, v float64) { m[name] = v })
	return m
}

func (b *bench) stat(name string) float64 {
	v, ok := b.stats()["Sched."+name]
	if !ok {
		b.t.Fatalf("no statistic %s", name)
	}
	return v
}

// arrival is one item the fake interleave received: a sample (its pixel) or
// a marker.
type arrival struct {
	x, y   int32
	marker protocol.OrderMarkerKind
	isMark bool
	cycle  uint64
}

// log returns what interleave i received, sample by sample, and the prefetches
// apart.
func (b *bench) log(i int) (items []arrival, prefetches []*protocol.Prefetch) {
	for _, r := range b.inter[i].Received {
		switch m := r.Msg.(type) {
		case *protocol.SampleBurst:
			if m.Interleave != i {
				b.t.Errorf("interleave %d received a burst for %d", i, m.Interleave)
			}
			for _, s := range m.Samples {
				items = append(items, arrival{x: s.X, y: s.Y, cycle: r.Cycle})
			}
		case *protocol.OrderMarker:
			if m.Interleave != i {
				b.t.Errorf("interleave %d received a marker for %d", i, m.Interleave)
			}
			items = append(items, arrival{marker: m.Kind, isMark: true, cycle: r.Cycle})
		case *protocol.Prefetch:
			prefetches = append(prefetches, m)
		default:
			b.t.Fatalf("interleave %d received %T", i, r.Msg)
		}
	}
	return items, prefetches
}
