package hiz

// rate is a per-cycle budget (samples per cycle). A step may start whenever the
// budget is positive and may overdraw it; the debt is repaid by the following
// cycles, so a step of n units at a rate of r per cycle occupies ceil(n/r)
// cycles on average and a run of steps never exceeds r units per cycle.
type rate struct {
	per    int
	credit int
	last   uint64
}

func newRate(per int) *rate { return &rate{per: per, credit: per} }

// refill brings the budget to cycle.
func (r *rate) refill(cycle uint64) {
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

// ok reports whether a step may start this cycle.
func (r *rate) ok() bool { return r.credit > 0 }

// take spends n units.
func (r *rate) take(n int) { r.credit -= n }

// next returns the first cycle after cycle at which a step may start.
func (r *rate) next(cycle uint64) uint64 {
	if r.credit > 0 {
		return cycle + 1
	}
	return cycle + uint64((r.per-r.credit)/r.per)
}
