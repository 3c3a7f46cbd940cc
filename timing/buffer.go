package timing

// BufferState describes one buffer of a component, for hang reports and the
// monitor: its name, how many entries it holds and how many it can hold.
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
