package timing

import (
	"math/rand"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

// orderEvent is a test event: its number, time and kind.
type orderEvent struct {
	n         int
	t         sim.VTimeInSec
	secondary bool
	h         sim.Handler
}

func (e orderEvent) Time() sim.VTimeInSec { return e.t }
func (e orderEvent) Handler() sim.Handler { return e.h }
func (e orderEvent) IsSecondary() bool    { return e.secondary }
func (e orderEvent) String() string       { return "" }
func (e *orderRecorder) Handle(ev sim.Event) error {
	oe := ev.(orderEvent)
	e.order = append(e.order, oe.n)
	// Some events schedule more, at the same time or later, as components do.
	for k := 0; k < e.rng.Intn(3); k++ {
		e.schedule(oe.t + sim.VTimeInSec(e.rng.Intn(4))*1e-9)
	}
	return nil
}

// orderRecorder records the order in which an engine runs its events.
type orderRecorder struct {
	engine sim.Engine
	rng    *rand.Rand
	order  []int
	made   int
	limit  int
}

func (e *orderRecorder) schedule(t sim.VTimeInSec) {
	if e.made >= e.limit {
		return
	}
	e.made++
	e.engine.Schedule(orderEvent{n: e.made, t: t, secondary: e.rng.Intn(4) == 0, h: e})
}

func runOrder(engine sim.Engine, seed int64) []int {
	r := &orderRecorder{engine: engine, rng: rand.New(rand.NewSource(seed)), limit: 20000}
	for i := 0; i < 500; i++ {
		// Few distinct times: many events share one.
		r.schedule(sim.VTimeInSec(r.rng.Intn(50)) * 1e-9)
	}
	if err := engine.Run(); err != nil {
		panic(err)
	}
	return r.order
}

// TestSerialEngineOrder: SerialEngine runs the events of a seeded random
// workload (500 initial events at 50 distinct times, a quarter secondary,
// each handler scheduling up to two more at the same time or later; 20,000
// in all) in exactly the order of Akita's sim.SerialEngine, ties included.
func TestSerialEngineOrder(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		want := runOrder(sim.NewSerialEngine(), seed)
		got := runOrder(NewSerialEngine(), seed)
		if len(got) != len(want) {
			t.Fatalf("seed %d: %d events run, Akita's engine ran %d", seed, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("seed %d: event %d is #%d, Akita's engine ran #%d", seed, i, got[i], want[i])
			}
		}
	}
}

// handlerFunc is a sim.Handler made of a function.
type handlerFunc func(sim.Event) error

func (f handlerFunc) Handle(e sim.Event) error { return f(e) }

// TestSerialEngineRefusesThePast: an event before the current time panics.
func TestSerialEngineRefusesThePast(t *testing.T) {
	e := NewSerialEngine()
	r := &orderRecorder{engine: e, rng: rand.New(rand.NewSource(1)), limit: 0}
	e.Schedule(orderEvent{t: 2e-9, h: handlerFunc(func(sim.Event) error {
		defer func() {
			if recover() == nil {
				t.Error("an event in the past was accepted")
			}
		}()
		e.Schedule(orderEvent{t: 1e-9, h: r})
		return nil
	})})
	if err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if e.CurrentTime() != 2e-9 {
		t.Errorf("current time %v", e.CurrentTime())
	}
}
