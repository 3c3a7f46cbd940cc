package timing

import (
	"log"

	"github.com/sarchlab/akita/v3/sim"
)

// Ring is a first-in first-out queue on a circular slice that grows when it
// is full: once it has grown to its working size, pushing and popping
// allocate nothing. The zero Ring is empty and ready to use.
type Ring[T any] struct {
	buf  []T
	head int
	n    int
}

// NewRing returns an empty ring with room for n before it grows.
func NewRing[T any](n int) Ring[T] { return Ring[T]{buf: make([]T, n)} }

// Len returns the number of queued items.
func (q *Ring[T]) Len() int { return q.n }

// Push queues v at the back.
func (q *Ring[T]) Push(v T) {
	if q.n == len(q.buf) {
		nb := make([]T, max(4, 2*len(q.buf)))
		for i := 0; i < q.n; i++ {
			nb[i] = q.buf[(q.head+i)%len(q.buf)]
		}
		q.buf, q.head = nb, 0
	}
	q.buf[(q.head+q.n)%len(q.buf)] = v
	q.n++
}

// Front returns the item at the front, in place (the ring must not be
// empty).
func (q *Ring[T]) Front() *T { return &q.buf[q.head] }

// Pop removes and returns the item at the front (the ring must not be
// empty).
func (q *Ring[T]) Pop() T {
	var zero T
	v := q.buf[q.head]
	q.buf[q.head] = zero
	q.head = (q.head + 1) % len(q.buf)
	q.n--
	return v
}

// Clear empties the ring, keeping its room.
func (q *Ring[T]) Clear() {
	clear(q.buf)
	q.head, q.n = 0, 0
}

// buffer is sim.Buffer on a Ring: Akita's buffer appends to a slice that it
// pops from the front, so every message a port receives sooner or later
// reallocates the slice. It behaves as Akita's does, hooks included (but a
// pop reports HookPosBufPop, where Akita's reports HookPosBufPush).
type buffer struct {
	sim.HookableBase
	name     string
	capacity int
	q        Ring[any]
}

// NewBuffer returns an empty buffer of capacity elements named name: Akita's
// sim.NewBuffer, without an allocation per element once the buffer has held
// its most.
func NewBuffer(name string, capacity int) sim.Buffer {
	sim.NameMustBeValid(name)
	return &buffer{name: name, capacity: capacity}
}

func (b *buffer) Name() string  { return b.name }
func (b *buffer) CanPush() bool { return b.q.Len() < b.capacity }
func (b *buffer) Capacity() int { return b.capacity }
func (b *buffer) Size() int     { return b.q.Len() }
func (b *buffer) Clear()        { b.q.Clear() }

func (b *buffer) Push(e any) {
	if b.q.Len() >= b.capacity {
		log.Panic("buffer overflow")
	}
	b.q.Push(e)
	b.hook(sim.HookPosBufPush, e)
}

func (b *buffer) Pop() any {
	if b.q.Len() == 0 {
		return nil
	}
	e := b.q.Pop()
	b.hook(sim.HookPosBufPop, e)
	return e
}

func (b *buffer) Peek() any {
	if b.q.Len() == 0 {
		return nil
	}
	return *b.q.Front()
}

func (b *buffer) hook(pos *sim.HookPos, e any) {
	if b.NumHooks() > 0 {
		b.InvokeHook(sim.HookCtx{Domain: b, Pos: pos, Item: e})
	}
}
