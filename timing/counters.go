package timing

import "github.com/sarchlab/akita/v3/sim"

// Counter is one statistic of a unit: its name under the unit's prefix and its
// value.
type Counter struct {
	Name  string
	Value uint64
}

// AddCounters reports each counter as prefix+c.Name through add, in order: the
// one home of the table of counters every unit's Stats method reports.
func AddCounters(prefix string, add func(string, float64), cs ...Counter) {
	for _, c := range cs {
		add(prefix+c.Name, float64(c.Value))
	}
}

// WakeForNext asks w for a tick at cycle next when it lies after cycle (now is
// cycle's time); next == ^uint64(0) means nothing is due. The last step of a
// unit's tick that made no progress: sleep until the earliest cycle at which
// something can happen without a port event.
func (w *Waker) WakeForNext(now sim.VTimeInSec, cycle, next uint64) {
	if next != ^uint64(0) && next > cycle {
		w.WakeIn(now, int(next-cycle))
	}
}
