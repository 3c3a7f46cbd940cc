package connections

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"
)

// LinkBuilder builds a connection of type L: a *Bus (BusBuilder) or a
// *Crossbar (CrossbarBuilder). It is a value: every WithX returns a modified
// copy.
type LinkBuilder[L any] struct {
	kind    string
	newLink func(name string, engine sim.Engine, freq sim.Freq, width, latency int) L
	engine  sim.Engine
	freq    sim.Freq
	width   int
	latency int
}

func makeLinkBuilder[L any](kind string, newLink func(string, sim.Engine, sim.Freq, int, int) L) LinkBuilder[L] {
	return LinkBuilder[L]{kind: kind, newLink: newLink, freq: 1 * sim.GHz, width: 32, latency: 1}
}

// WithEngine sets the engine the link schedules its ticks on.
func (b LinkBuilder[L]) WithEngine(e sim.Engine) LinkBuilder[L] { b.engine = e; return b }

// WithFreq sets the link clock.
func (b LinkBuilder[L]) WithFreq(f sim.Freq) LinkBuilder[L] { b.freq = f; return b }

// WithWidth sets how many bytes the link moves per cycle (at least 1).
func (b LinkBuilder[L]) WithWidth(bytesPerCycle int) LinkBuilder[L] {
	b.width = bytesPerCycle
	return b
}

// WithLatency sets the cycles between the last byte of a message going on the
// link and its delivery (0 or more).
func (b LinkBuilder[L]) WithLatency(cycles int) LinkBuilder[L] { b.latency = cycles; return b }

// Validate reports an invalid parameter (no engine, a frequency, width or
// latency out of range), naming it.
func (b LinkBuilder[L]) Validate() error {
	return checkParams(b.kind, b.engine, b.freq, b.width, b.latency)
}

// Build creates the link. It panics when Validate fails or when name is not a
// valid Akita name: both are wiring bugs, configurations are validated earlier.
func (b LinkBuilder[L]) Build(name string) L {
	if err := b.Validate(); err != nil {
		panic(fmt.Sprintf("connections: %s: %v", name, err))
	}
	return b.newLink(name, b.engine, b.freq, b.width, b.latency)
}
