package timing

// Pipeline is a fixed-latency pipeline of a given width: at most Width items enter
// per cycle, and an item that entered at cycle c leaves at cycle c+Latency or later
// (items leave in order; a stalled head holds the items behind it). It is driven by
// cycle numbers, so a component need not tick while items are in flight: NextReady
// says when to wake up.
type Pipeline[T any] struct {
	Latency  int
	Width    int
	Capacity int // maximum items in flight; 0 means Latency*Width (a full pipeline)

	items     []pipeEntry[T]
	head      int
	lastCycle uint64
	enteredIn int // items that entered in lastCycle
}

type pipeEntry[T any] struct {
	ready uint64
	item  T
}

// NewPipeline returns a pipeline with the given latency (cycles, >= 0) and width
// (items per cycle, >= 1).
func NewPipeline[T any](latency, width int) *Pipeline[T] {
	if width < 1 {
		width = 1
	}
	if latency < 0 {
		latency = 0
	}
	return &Pipeline[T]{Latency: latency, Width: width}
}

func (p *Pipeline[T]) capacity() int {
	if p.Capacity > 0 {
		return p.Capacity
	}
	return max(1, p.Latency) * p.Width
}

// Len returns the number of items in flight.
func (p *Pipeline[T]) Len() int { return len(p.items) - p.head }

// CanAccept reports whether an item can enter at cycle now.
func (p *Pipeline[T]) CanAccept(now uint64) bool {
	if p.Len() >= p.capacity() {
		return false
	}
	return now != p.lastCycle || p.enteredIn < p.Width
}

// Accept puts item in at cycle now; the caller checked CanAccept.
func (p *Pipeline[T]) Accept(now uint64, item T) {
	if now != p.lastCycle {
		p.lastCycle, p.enteredIn = now, 0
	}
	p.enteredIn++
	if p.head > 0 && p.head == len(p.items) {
		p.items, p.head = p.items[:0], 0
	}
	p.items = append(p.items, pipeEntry[T]{ready: now + uint64(p.Latency), item: item})
}

// Peek returns the head item if it is ready at cycle now.
func (p *Pipeline[T]) Peek(now uint64) (T, bool) {
	var zero T
	if p.Len() == 0 || p.items[p.head].ready > now {
		return zero, false
	}
	return p.items[p.head].item, true
}

// Pop removes the head item (after a successful Peek).
func (p *Pipeline[T]) Pop() {
	var zero T
	p.items[p.head].item = zero
	p.head++
	if p.head > 64 && p.head*2 > len(p.items) {
		n := copy(p.items, p.items[p.head:])
		p.items, p.head = p.items[:n], 0
	}
}

// NextReady returns the cycle at which the head item is ready, and false when the
// pipeline is empty.
func (p *Pipeline[T]) NextReady() (uint64, bool) {
	if p.Len() == 0 {
		return 0, false
	}
	return p.items[p.head].ready, true
}
