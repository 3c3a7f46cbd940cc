package timing

// Rate is a per-cycle budget of work units (samples, quads, tests per cycle),
// the throughput limit of a pipelined unit. A step may start whenever the
// budget is positive and may overdraw it; the debt is repaid by the following
// cycles, so steps of n units at a rate of r per cycle start n/r cycles apart
// on average and a run of steps never exceeds r units per cycle.
type Rate struct {
	per    int
	credit int
	last   uint64
}

// NewRate returns a budget of per units per cycle (per >= 1), full.
func NewRate(per int) *Rate { return &Rate{per: per, credit: per} }

// Refill brings the budget to cycle.
func (r *Rate) Refill(cycle uint64) {
	if cycle <= r.last {
		return
	}
	gap := cycle - r.last
	r.last = cycle
	if gap > uint64((r.per-r.credit)/r.per) {
		r.credit = r.per
		return
	}
	r.credit = min(r.per, r.credit+r.per*int(gap))
}

// PerCycle returns the units per cycle.
func (r *Rate) PerCycle() int { return r.per }

// OK reports whether a step may start this cycle.
func (r *Rate) OK() bool { return r.credit > 0 }

// Take spends n units.
func (r *Rate) Take(n int) { r.credit -= n }

// Next returns the first cycle after cycle at which a step may start.
func (r *Rate) Next(cycle uint64) uint64 {
	if r.credit > 0 {
		return cycle + 1
	}
	return cycle + uint64((r.per-r.credit)/r.per)
}
