package sched

import "github.com/gfxsim/gfxsim/components/protocol"

// entry is one item of a sched FIFO: samples [lo, hi) of a burst, or an order
// marker (burst nil). Entries share the bursts' sample slices; nothing is
// copied between FIFOs.
type entry struct {
	burst  *protocol.SampleBurst
	lo, hi int
	marker *protocol.OrderMarker
}

func (e *entry) samples() int { return e.hi - e.lo }

// fifo is a FIFO of entries whose capacity is counted in samples: markers take
// no room. A burst is admitted when its samples fit, or whole into an empty
// FIFO (a burst larger than the FIFO would otherwise never enter).
type fifo struct {
	q       []entry
	head    int
	samples int
	depth   int
}

func (f *fifo) empty() bool { return f.head == len(f.q) }

func (f *fifo) len() int { return len(f.q) - f.head }

// fits reports whether n more samples may enter.
func (f *fifo) fits(n int) bool { return f.samples+n <= f.depth || f.samples == 0 }

// room returns the samples that may still enter (0 when full).
func (f *fifo) room() int { return max(0, f.depth-f.samples) }

func (f *fifo) push(e entry) {
	if f.head > 0 && f.head == len(f.q) {
		f.q, f.head = f.q[:0], 0
	}
	f.q = append(f.q, e)
	f.samples += e.samples()
}

// peek returns the head entry (the FIFO must not be empty).
func (f *fifo) peek() *entry { return &f.q[f.head] }

// pop drops the head entry.
func (f *fifo) pop() {
	f.samples -= f.q[f.head].samples()
	f.q[f.head] = entry{}
	f.head++
	if f.head == len(f.q) {
		f.q, f.head = f.q[:0], 0
	} else if f.head >= 64 && f.head*2 >= len(f.q) {
		n := copy(f.q, f.q[f.head:])
		clear(f.q[n:])
		f.q, f.head = f.q[:n], 0
	}
}

// take removes up to n samples from the head entry, which must be a burst, and
// returns them as an entry.
func (f *fifo) take(n int) entry {
	h := &f.q[f.head]
	n = min(n, h.samples())
	e := entry{burst: h.burst, lo: h.lo, hi: h.lo + n}
	h.lo += n
	f.samples -= n
	if h.lo == h.hi {
		f.pop()
	}
	return e
}

// at returns the sample i places behind the head, counting samples only, and
// whether there is one.
func (f *fifo) at(i int) (*protocol.SageSample, bool) {
	for k := f.head; k < len(f.q); k++ {
		e := &f.q[k]
		if e.burst == nil {
			continue
		}
		if i < e.samples() {
			return &e.burst.Samples[e.lo+i], true
		}
		i -= e.samples()
	}
	return nil, false
}

// pushSamples appends a run of samples, extending the last entry when the run
// continues it.
func (f *fifo) pushSamples(e entry) {
	if k := len(f.q) - 1; k >= f.head {
		if t := &f.q[k]; t.burst == e.burst && t.hi == e.lo {
			t.hi = e.hi
			f.samples += e.samples()
			return
		}
	}
	f.push(e)
}

// drop removes n samples from the head (entries that run out are popped), or
// the head marker when n is 0.
func (f *fifo) drop(n int) {
	if n == 0 {
		f.pop()
		return
	}
	for n > 0 {
		h := &f.q[f.head]
		k := min(n, h.samples())
		h.lo += k
		f.samples -= k
		n -= k
		if h.lo == h.hi {
			f.pop()
		}
	}
}
