package timing

import "github.com/sarchlab/akita/v3/sim"

// IsTick reports whether e is a tick event: of a TickingComponent or of
// Akita's. A test hook that logs when a unit ticks matches its events with
// IsTick and Handler (the unit's *TickingComponent).
func IsTick(e sim.Event) bool {
	switch e.(type) {
	case tickEvent, sim.TickEvent:
		return true
	}
	return false
}
