package timing

// BufferState describes one buffer of a component, for hang reports, the
// monitor and the metrics' buffer occupancy: its name, how many entries it
// holds and how many it can hold. Cap 0 means unbounded (no fixed capacity).
// A write queue whose capacity is a soft limit reports that limit as Cap and
// may hold more: the render-target caches (rtcache) and the HiZ unit stop
// taking misses at WriteQueue queued write-backs, but a flush queues every
// dirty line at once.
type BufferState struct {
	Name     string
	Len, Cap int
}

// Buffered is implemented by components that can describe their buffers.
type Buffered interface {
	Buffers() []BufferState
}

// StatsReporter is implemented by everything that keeps statistics. add is called
// once per counter with its full name, "<component name>.<counter>".
type StatsReporter interface {
	Stats(add func(name string, value float64))
}
