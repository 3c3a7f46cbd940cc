package timing

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

// scriptTicker makes progress on the cycles listed in progress and, on the
// cycles listed in now and later, asks for more ticks through its component;
// it records the cycles of its ticks.
type scriptTicker struct {
	comp interface {
		TickNow(sim.VTimeInSec)
		TickLater(sim.VTimeInSec)
	}
	freq     sim.Freq
	progress map[uint64]bool
	ticks    []uint64
}

func (s *scriptTicker) Tick(now sim.VTimeInSec) bool {
	c := s.freq.Cycle(now)
	s.ticks = append(s.ticks, c)
	if c == 3 {
		s.comp.TickNow(now)   // already ticking now: no new event
		s.comp.TickLater(now) // merged with the progress tick below
	}
	return s.progress[c]
}

// TestTickingComponentMatchesAkita runs the same scripts on Akita's
// TickingComponent and on timing's, on Akita's serial engine, and compares the
// cycles of the ticks and the number of events. The second script keeps
// Akita's quirk: a tick scheduled far ahead (a message at cycle 7) hides the
// earlier progress ticks (cycles 2 to 7 do not tick).
func TestTickingComponentMatchesAkita(t *testing.T) {
	for _, c := range []struct {
		name     string
		progress []uint64
		notifyAt []int // cycles of messages received, before the run
		want     []uint64
	}{
		{"progress, TickNow and TickLater within a tick", []uint64{0, 1, 2, 3}, nil, []uint64{0, 1, 2, 3, 4}},
		{"a later tick hides earlier ones", []uint64{0, 1, 3, 8, 9}, []int{0, 7}, []uint64{0, 1, 8, 9, 10}},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := func(ours, secondary bool) ([]uint64, int) {
				e := sim.NewSerialEngine()
				events := 0
				e.AcceptHook(countEvents{&events})
				s := &scriptTicker{freq: 1 * sim.GHz, progress: map[uint64]bool{}}
				for _, p := range c.progress {
					s.progress[p] = true
				}
				var comp interface {
					TickNow(sim.VTimeInSec)
					TickLater(sim.VTimeInSec)
					NotifyRecv(sim.VTimeInSec, sim.Port)
				}
				switch {
				case ours && secondary:
					comp = NewSecondaryTickingComponent("C", e, 1*sim.GHz, s)
				case ours:
					comp = NewTickingComponent("C", e, 1*sim.GHz, s)
				case secondary:
					comp = sim.NewSecondaryTickingComponent("C", e, 1*sim.GHz, s)
				default:
					comp = sim.NewTickingComponent("C", e, 1*sim.GHz, s)
				}
				s.comp = comp
				comp.TickNow(0)
				for _, n := range c.notifyAt {
					comp.NotifyRecv(s.freq.NCyclesLater(n, 0), nil)
				}
				if err := e.Run(); err != nil {
					t.Fatal(err)
				}
				return s.ticks, events
			}
			for _, secondary := range []bool{false, true} {
				akTicks, akEvents := run(false, secondary)
				ourTicks, ourEvents := run(true, secondary)
				if !reflect.DeepEqual(ourTicks, akTicks) || ourEvents != akEvents {
					t.Fatalf("secondary %v: timing.TickingComponent ticked at %v in %d events, Akita's at %v in %d",
						secondary, ourTicks, ourEvents, akTicks, akEvents)
				}
				if !reflect.DeepEqual(ourTicks, c.want) {
					t.Fatalf("secondary %v: ticks at %v, want %v", secondary, ourTicks, c.want)
				}
			}
		})
	}
}
