package timing

// Compact drops the consumed entries q[:head] of a queue read from head on
// and returns the queue and its new head: emptied (keeping its array) once
// every entry is consumed, moved to the front once more than min entries and
// over half of q are consumed, else unchanged. Each entry is copied at most
// once per time it moves, so reading a queue this way costs O(1) per entry
// and allocates nothing once the array is large enough.
func Compact[T any](q []T, head, min int) ([]T, int) {
	if head == len(q) {
		return q[:0], 0
	}
	if head > min && 2*head > len(q) {
		n := copy(q, q[head:])
		return q[:n], 0
	}
	return q, head
}
