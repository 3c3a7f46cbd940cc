package decouple

// key is a table key: a Tag, a grid cell, or a (grid cell, pixel) pair packed
// into 128 bits.
type key [2]uint64

func tagKey(t Tag) key {
	return key{uint64(t.Prim)<<32 | uint64(uint32(t.QuadX)), uint64(t.Sample)<<32 | uint64(uint32(t.QuadY))}
}

// table is an open-addressing hash table (linear probing, power-of-two size)
// from key to int32. A slot is live when its stamp equals the table's epoch, so
// clear is O(1); remove shifts the following run back (no tombstones). It
// allocates only when it grows.
type table struct {
	keys  []key
	vals  []int32
	stamp []uint32
	epoch uint32
	n     int
	mask  uint64
}

func newTable(capacity int) table {
	c := 8
	for c < capacity {
		c *= 2
	}
	return table{keys: make([]key, c), vals: make([]int32, c), stamp: make([]uint32, c), epoch: 1, mask: uint64(c - 1)}
}

func (t *table) home(k key) uint64 {
	h := k[0]*0x9e3779b97f4a7c15 ^ (k[1]+0x632be59bd9b4e019)*0xbf58476d1ce4e5b9
	h ^= h >> 31
	h *= 0x94d049bb133111eb
	h ^= h >> 29
	return h & t.mask
}

func (t *table) live(i uint64) bool { return t.stamp[i] == t.epoch }

// find returns the slot holding k, or the empty slot where it would go.
func (t *table) find(k key) (uint64, bool) {
	i := t.home(k)
	for t.live(i) {
		if t.keys[i] == k {
			return i, true
		}
		i = (i + 1) & t.mask
	}
	return i, false
}

// insertAt stores k at the empty slot i returned by find.
func (t *table) insertAt(i uint64, k key, v int32) {
	t.keys[i], t.vals[i], t.stamp[i] = k, v, t.epoch
	t.n++
}

// insert adds k (absent) with value v, growing the table to keep it at most
// half full.
func (t *table) insert(k key, v int32) {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	i, _ := t.find(k)
	t.insertAt(i, k, v)
}

func (t *table) grow() {
	old := *t
	*t = newTable(2 * len(old.keys))
	for i := range old.keys {
		if old.live(uint64(i)) {
			j, _ := t.find(old.keys[i])
			t.insertAt(j, old.keys[i], old.vals[i])
		}
	}
}

// remove deletes k if present (backward-shift deletion).
func (t *table) remove(k key) {
	i, ok := t.find(k)
	if !ok {
		return
	}
	for j := (i + 1) & t.mask; t.live(j); j = (j + 1) & t.mask {
		h := t.home(t.keys[j])
		// The entry at j may move to the hole at i unless its home lies
		// cyclically in (i, j].
		if (i < j && (h <= i || h > j)) || (i > j && h <= i && h > j) {
			t.keys[i], t.vals[i] = t.keys[j], t.vals[j]
			i = j
		}
	}
	t.stamp[i] = 0
	t.n--
}

// clear empties the table in O(1) (O(size) once every 2^32 clears).
func (t *table) clear() {
	t.epoch++
	if t.epoch == 0 {
		clear(t.stamp)
		t.epoch = 1
	}
	t.n = 0
}
