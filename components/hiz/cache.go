package hiz

// tagStore is the HiZ cache's tag array: lines of an arbitrary number of sets
// (size/cacheLine/ways sets, rounded down, at least one: for PACKED ZMASK's
// 112-byte lines no power of two, and 16 KB keep 144 of the 146 lines), LRU
// replacement, dirty bits. A line is named by its memory address (a multiple
// of the memory line size).
type tagStore struct {
	sets, ways int
	lineBytes  uint64
	tags       []uint64
	valid      []bool
	dirty      []bool
	lru        []uint64
	clock      uint64
}

func newTagStore(lines, ways int, lineBytes uint64) *tagStore {
	sets := max(1, lines/ways)
	n := sets * ways
	return &tagStore{sets: sets, ways: ways, lineBytes: lineBytes, tags: make([]uint64, n),
		valid: make([]bool, n), dirty: make([]bool, n), lru: make([]uint64, n)}
}

func (t *tagStore) set(line uint64) int { return int((line / t.lineBytes) % uint64(t.sets)) }

func (t *tagStore) find(line uint64) int {
	b := t.set(line) * t.ways
	for w := 0; w < t.ways; w++ {
		if t.valid[b+w] && t.tags[b+w] == line {
			return b + w
		}
	}
	return -1
}

// lookup reports whether line is present and makes it the most recently used.
func (t *tagStore) lookup(line uint64) bool {
	i := t.find(line)
	if i < 0 {
		return false
	}
	t.clock++
	t.lru[i] = t.clock
	return true
}

func (t *tagStore) contains(line uint64) bool { return t.find(line) >= 0 }

// fill allocates line (absent) in the LRU way of its set and returns the
// victim it evicted, if any.
func (t *tagStore) fill(line uint64) (victim uint64, dirty, evicted bool) {
	b := t.set(line) * t.ways
	v := b
	for w := 0; w < t.ways; w++ {
		i := b + w
		if !t.valid[i] {
			v = i
			break
		}
		if t.lru[i] < t.lru[v] {
			v = i
		}
	}
	victim, dirty, evicted = t.tags[v], t.dirty[v], t.valid[v]
	t.clock++
	t.tags[v], t.valid[v], t.dirty[v], t.lru[v] = line, true, false, t.clock
	return victim, dirty && evicted, evicted
}

// setDirty marks a present line dirty.
func (t *tagStore) setDirty(line uint64) {
	if i := t.find(line); i >= 0 {
		t.dirty[i] = true
	}
}

// dropRange invalidates the lines in [lo, hi) without write-back.
func (t *tagStore) dropRange(lo, hi uint64) {
	for i := range t.tags {
		if t.valid[i] && t.tags[i] >= lo && t.tags[i] < hi {
			t.valid[i], t.dirty[i] = false, false
		}
	}
}

// flush appends the dirty lines (in way order) to out and marks them clean.
func (t *tagStore) flush(out []uint64) []uint64 {
	for i := range t.tags {
		if t.valid[i] && t.dirty[i] {
			out = append(out, t.tags[i])
			t.dirty[i] = false
		}
	}
	return out
}
