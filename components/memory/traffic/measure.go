package traffic

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memory"
	"github.com/gfxsim/gfxsim/timing"
)

// GeneratorFreq is the clock of the generator Measure builds: latencies and
// cycles of its Result are nanoseconds.
const GeneratorFreq = 1 * sim.GHz

// Measurement is one run of Measure.
type Measurement struct {
	Result Result
	// Stats are the memory's counters (memory.Memory.Stats) after the run.
	Stats map[string]float64
}

// Measure builds the memory mc (components/memory.Build, channels named
// GPU.Memory.Channel[i]) on a serial engine, connects one generator of
// traffic gc (clock GeneratorFreq) to every channel's Top port on one direct
// connection, runs until the engine has no more events, and returns what the
// generator measured and the memory's statistics. It fails when a request did
// not complete.
func Measure(mc memory.Config, gc Config) (Measurement, error) {
	engine := timing.NewSerialEngine()
	m, err := memory.Build(mc, engine, "GPU.Memory")
	if err != nil {
		return Measurement{}, err
	}
	g, err := New(engine, "GPU.Traffic", GeneratorFreq, m.Finder, gc)
	if err != nil {
		return Measurement{}, err
	}
	conn := sim.NewDirectConnection("GPU.Conn", engine, GeneratorFreq)
	for _, p := range m.Tops {
		conn.PlugIn(p, 64)
	}
	conn.PlugIn(g.Port, gc.WithDefaults().MaxOutstanding)
	g.TickNow(0)
	if err := engine.Run(); err != nil {
		return Measurement{}, err
	}
	if !g.Done() {
		return Measurement{}, fmt.Errorf("traffic: %d of %d requests completed", g.Result().Requests, g.cfg.Requests)
	}
	st := map[string]float64{}
	m.Stats(func(n string, v float64) { st[n] = v })
	return Measurement{Result: g.Result(), Stats: st}, nil
}
