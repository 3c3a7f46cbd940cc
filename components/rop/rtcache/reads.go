package rtcache

import (
	"fmt"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
)

// Fill is a line read in flight: the line, the readers (W) it wakes when it
// arrives, in the order they asked, the trace task whose access sent it and
// whether a prefetch sent it.
type Fill[W any] struct {
	Line     uint64
	Waiters  []W
	Task     string
	Prefetch bool
}

// Reads are the line reads a cache has in flight through its memory client
// (a line at most once): the one home of the bookkeeping of this package's
// Cache and of the HiZ unit's cache. Waiter lists are reused (Spare,
// Recycle), so a cache in its steady state allocates none.
type Reads[W any] struct {
	fills []Fill[W]
	spare [][]W
}

// Len returns the reads in flight.
func (r *Reads[W]) Len() int { return len(r.fills) }

// Find returns the read of line in flight, or nil.
func (r *Reads[W]) Find(line uint64) *Fill[W] {
	for i := range r.fills {
		if r.fills[i].Line == line {
			return &r.fills[i]
		}
	}
	return nil
}

// Spare returns an empty waiter list, reusing a recycled one.
func (r *Reads[W]) Spare() []W {
	var w []W
	if n := len(r.spare); n > 0 {
		w, r.spare = r.spare[n-1][:0], r.spare[:n-1]
	}
	return w
}

// Recycle hands back a finished read's waiter list for Spare.
func (r *Reads[W]) Recycle(w []W) { r.spare = append(r.spare, w[:0]) }

// Add records a read sent (its line not in flight yet).
func (r *Reads[W]) Add(f Fill[W]) { r.fills = append(r.fills, f) }

// Next takes the responses that arrived through client up to the next
// completed line read (completed writes are only taken) and returns that
// read, no longer in flight; arrived reports whether any response was taken,
// ok whether a read completed. A completed read of a line not in flight is an
// error.
func (r *Reads[W]) Next(client *memclient.Client, now sim.VTimeInSec) (f Fill[W], arrived, ok bool, err error) {
	for {
		comp, got := client.Receive(now)
		if !got {
			return f, arrived, false, nil
		}
		arrived = true
		if comp.Write {
			continue
		}
		p := r.Find(comp.Tag)
		if p == nil {
			return f, true, false, fmt.Errorf("a read of line 0x%x completed that was not in flight", comp.Tag)
		}
		f = *p
		last := len(r.fills) - 1
		*p = r.fills[last]
		r.fills[last] = Fill[W]{}
		r.fills = r.fills[:last]
		return f, true, true, nil
	}
}
