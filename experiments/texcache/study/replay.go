package study

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/texturesampler"
	"github.com/gfxsim/gfxsim/configs"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/state"
	"github.com/gfxsim/gfxsim/timing"
)

// feeder sends a sampler the requests recorded in a timed run, each no
// earlier than the cycle it arrived then, one per cycle, in order (an open
// loop: the responses are taken and dropped).
type feeder struct {
	*timing.TickingComponent
	port   sim.Port
	dst    sim.Port
	arr    []Arrival
	rebind func(*state.TextureBinding) *state.TextureBinding
	next   int
	got    int
	waker  *timing.Waker
}

func (f *feeder) Tick(now sim.VTimeInSec) bool {
	cy := f.Freq.Cycle(now)
	progress := false
	for f.port.Retrieve(now) != nil {
		f.got++
		progress = true
	}
	if f.next < len(f.arr) {
		a := f.arr[f.next]
		if a.Cycle > cy {
			f.waker.WakeIn(now, int(a.Cycle-cy))
		} else {
			b := a.Req.Binding
			if f.rebind != nil {
				b = f.rebind(b)
			}
			msg := protocol.NewTexRequest(a.Req.Draw, a.Req.Warp, b, a.Req.Lanes)
			msg.Src, msg.Dst, msg.SendTime = f.port, f.dst, now
			if f.port.Send(msg) == nil {
				f.next++
				progress = true
			}
		}
	}
	return progress
}

// Replay feeds the requests recorded in run to samplers, a texture L2 and a
// memory built by configs from cfg (its texture_sampler, l2, memory, buses.l2 and
// buses.memory sections; the machine must have as many samplers as run's),
// loaded with run's memory image, and returns every statistic of the
// samplers, the L2 banks, the memory channels and the texture traffic, plus
// "replay.cycles". rebind, when not nil, replaces each request's binding (to
// sample with another filter).
func Replay(run *Frame, cfg *configs.Config, rebind func(*state.TextureBinding) *state.TextureBinding) (map[string]float64, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n := cfg.Samplers()
	if n != len(run.Arrivals) {
		return nil, fmt.Errorf("replay: the machine has %d samplers, the run recorded %d", n, len(run.Arrivals))
	}
	e := timing.NewSerialEngine()
	freq := sim.Freq(cfg.Clocks.CoreMHz * 1e6)
	halt := &timing.Halt{}
	m, l2, err := cfg.BuildMemorySystem(e)
	if err != nil {
		return nil, err
	}
	traffic := configs.WatchTextureTraffic(l2)
	traffic.SetTextures(configs.TrafficTextures(run.Frame))
	samplers := make([]*texturesampler.Comp, n)
	feeders := make([]*feeder, n)
	l2Ports := append([]sim.Port{}, l2.Tops...)
	for i := range samplers {
		s := cfg.BuildTextureSampler(e, halt, nil, i)
		f := &feeder{arr: run.Arrivals[i], rebind: rebind}
		f.TickingComponent = timing.NewTickingComponent(fmt.Sprintf("Feeder[%d]", i), e, freq, f)
		f.port = sim.NewLimitNumMsgPort(f, 64, fmt.Sprintf("Feeder[%d].Port", i))
		f.waker = timing.NewWaker(e, freq, f)
		f.dst = s.Core
		c := sim.NewDirectConnection(fmt.Sprintf("Feeder[%d].Conn", i), e, freq)
		c.PlugIn(f.port, 4)
		c.PlugIn(s.Core, 4)
		s.CorePort, s.L2, s.Image = f.port, l2.Finder, run.Frame.Memory
		l2Ports = append(l2Ports, s.ToL2)
		samplers[i], feeders[i] = s, f
	}
	configs.BuildCrossbar(e, "GPU.L2Xbar", cfg.Buses.L2, freq, l2Ports...)
	configs.BuildCrossbar(e, "GPU.MemoryXbar", cfg.Buses.Memory, freq, append(append([]sim.Port{}, m.Tops...), l2.Bottoms...)...)
	if err := m.LoadImage(command.BaseAddress, run.Frame.Memory.Bytes()); err != nil {
		return nil, err
	}
	for _, f := range feeders {
		f.TickLater(0)
	}
	if err := e.Run(); err != nil {
		return nil, err
	}
	if err := halt.Reason(); err != nil {
		return nil, err
	}
	end := e.CurrentTime()
	st := map[string]float64{}
	add := func(k string, v float64) { st[k] = v }
	for i, s := range samplers {
		if feeders[i].got != len(feeders[i].arr) {
			return nil, fmt.Errorf("replay: sampler %d answered %d of %d requests", i, feeders[i].got, len(feeders[i].arr))
		}
		s.Finish(end)
		s.Stats(add)
	}
	l2.Stats(add)
	m.Stats(add)
	traffic.Stats(add)
	add("replay.cycles", float64(freq.Cycle(end)))
	return st, nil
}
