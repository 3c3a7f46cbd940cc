package timing

import (
	"fmt"
	"math/bits"
)

// TagArray is the tag store of a small set-associative cache with LRU
// replacement: the model the index and vertex caches, the depth and colour caches
// and the texture L1 use. It holds tags and state bits only (the data is in the
// functional model). Lines are identified by their aligned address.
type TagArray struct {
	sets, ways int
	lineShift  uint
	setMask    uint64
	tags       []uint64 // sets*ways, tag = line address
	flags      []uint8
	lru        []uint64
	clock      uint64
}

const (
	lineValid uint8 = 1 << iota
	lineDirty
	linePrefetched // filled by a prefetch and not used since
)

// NewTagArray returns a cache of size bytes, ways ways and lineSize-byte lines;
// lineSize and the number of sets must be powers of two.
func NewTagArray(size, ways, lineSize int) (*TagArray, error) {
	if lineSize <= 0 || bits.OnesCount(uint(lineSize)) != 1 {
		return nil, fmt.Errorf("line size %d is not a power of two", lineSize)
	}
	if ways <= 0 || size <= 0 || size%(ways*lineSize) != 0 {
		return nil, fmt.Errorf("size %d is not a positive multiple of ways (%d) x line size (%d)", size, ways, lineSize)
	}
	sets := size / (ways * lineSize)
	if bits.OnesCount(uint(sets)) != 1 {
		return nil, fmt.Errorf("%d sets (size %d / (%d ways x %d-byte lines)) is not a power of two", sets, size, ways, lineSize)
	}
	n := sets * ways
	return &TagArray{sets: sets, ways: ways, lineShift: uint(bits.TrailingZeros(uint(lineSize))),
		setMask: uint64(sets - 1), tags: make([]uint64, n), flags: make([]uint8, n), lru: make([]uint64, n)}, nil
}

// LineSize returns the line size in bytes.
func (t *TagArray) LineSize() int { return 1 << t.lineShift }

// Line returns the aligned address of the line holding addr.
func (t *TagArray) Line(addr uint64) uint64 { return addr >> t.lineShift << t.lineShift }

func (t *TagArray) set(line uint64) int { return int((line >> t.lineShift) & t.setMask) }

func (t *TagArray) find(line uint64) int {
	base := t.set(line) * t.ways
	for w := 0; w < t.ways; w++ {
		i := base + w
		if t.flags[i]&lineValid != 0 && t.tags[i] == line {
			return i
		}
	}
	return -1
}

// Lookup reports whether the line holding addr is present, and makes it the most
// recently used when it is.
func (t *TagArray) Lookup(addr uint64) bool {
	i := t.find(t.Line(addr))
	if i < 0 {
		return false
	}
	t.clock++
	t.lru[i] = t.clock
	return true
}

// Contains reports whether the line holding addr is present, without touching LRU.
func (t *TagArray) Contains(addr uint64) bool { return t.find(t.Line(addr)) >= 0 }

// Victim describes a line evicted by Fill.
type Victim struct {
	Line  uint64
	Dirty bool
	// Prefetched: the line was filled by a prefetch and never used
	// (MarkPrefetched, not taken back by UsePrefetched).
	Prefetched bool
}

// Fill inserts the line holding addr (which must be absent) as the most recently
// used, evicting the least recently used line of its set when the set is full.
func (t *TagArray) Fill(addr uint64) (Victim, bool) {
	line := t.Line(addr)
	base := t.set(line) * t.ways
	victim := -1
	for w := 0; w < t.ways; w++ {
		i := base + w
		if t.flags[i]&lineValid == 0 {
			victim = i
			break
		}
		if victim < 0 || t.lru[i] < t.lru[victim] {
			victim = i
		}
	}
	var v Victim
	evicted := t.flags[victim]&lineValid != 0
	if evicted {
		f := t.flags[victim]
		v = Victim{Line: t.tags[victim], Dirty: f&lineDirty != 0, Prefetched: f&linePrefetched != 0}
	}
	t.clock++
	t.tags[victim], t.flags[victim], t.lru[victim] = line, lineValid, t.clock
	return v, evicted
}

// MarkDirty marks the (present) line holding addr dirty; it reports false when the
// line is absent.
func (t *TagArray) MarkDirty(addr uint64) bool { return t.mark(addr, lineDirty) }

// MarkPrefetched marks the (present) line holding addr as filled by a
// prefetch and not used yet; it reports false when the line is absent.
func (t *TagArray) MarkPrefetched(addr uint64) bool { return t.mark(addr, linePrefetched) }

// mark sets flag on the (present) line holding addr; it reports false when
// the line is absent.
func (t *TagArray) mark(addr uint64, flag uint8) bool {
	i := t.find(t.Line(addr))
	if i < 0 {
		return false
	}
	t.flags[i] |= flag
	return true
}

// UsePrefetched takes the prefetch mark off the line holding addr and reports
// whether it had one (the first use of a prefetched line).
func (t *TagArray) UsePrefetched(addr uint64) bool {
	i := t.find(t.Line(addr))
	if i < 0 || t.flags[i]&linePrefetched == 0 {
		return false
	}
	t.flags[i] &^= linePrefetched
	return true
}

// DropPrefetched takes the prefetch mark off every present line inside
// [lo, hi) and returns how many had one (prefetched lines never used, before a
// flush or an invalidation).
func (t *TagArray) DropPrefetched(lo, hi uint64) int {
	n := 0
	for i, f := range t.flags {
		if f&lineValid != 0 && f&linePrefetched != 0 && t.tags[i] >= lo && t.tags[i] < hi {
			t.flags[i] &^= linePrefetched
			n++
		}
	}
	return n
}

// Dirty reports whether the line holding addr is present and dirty.
func (t *TagArray) Dirty(addr uint64) bool {
	i := t.find(t.Line(addr))
	return i >= 0 && t.flags[i]&lineDirty != 0
}

// Flush marks every line clean and appends the dirty ones (in set/way order) to out.
func (t *TagArray) Flush(out []uint64) []uint64 {
	for i, f := range t.flags {
		if f&lineValid != 0 && f&lineDirty != 0 {
			out = append(out, t.tags[i])
			t.flags[i] &^= lineDirty
		}
	}
	return out
}

// Invalidate empties the cache (dirty data is dropped: flush first) and
// returns how many lines were present. Tags and LRU ages are reset, so the
// array is as new.
func (t *TagArray) Invalidate() int {
	n := 0
	for i, f := range t.flags {
		if f&lineValid != 0 {
			n++
		}
		t.flags[i], t.tags[i], t.lru[i] = 0, 0, 0
	}
	return n
}

// DirtyLines returns the number of present dirty lines.
func (t *TagArray) DirtyLines() int {
	n := 0
	for _, f := range t.flags {
		if f&lineValid != 0 && f&lineDirty != 0 {
			n++
		}
	}
	return n
}

// InvalidateRange drops every line inside [lo, hi), dirty or not, and returns how many.
func (t *TagArray) InvalidateRange(lo, hi uint64) int {
	n := 0
	for i, f := range t.flags {
		if f&lineValid != 0 && t.tags[i] >= lo && t.tags[i] < hi {
			t.flags[i] = 0
			n++
		}
	}
	return n
}

// ClearTags is the on-chip tag memory of a fast clear: one bit per line of a
// surface saying "this line holds the clear value and memory is stale". A read of a
// cleared line needs no memory read; writing the line back clears the bit.
type ClearTags struct {
	base, size uint64
	lineShift  uint
	bits       []uint64
}

// NewClearTags covers the surface [base, base+size) with lines of lineSize bytes
// (a power of two).
func NewClearTags(base, size uint64, lineSize int) *ClearTags {
	shift := uint(bits.TrailingZeros(uint(lineSize)))
	n := (size + uint64(lineSize) - 1) >> shift
	return &ClearTags{base: base, size: size, lineShift: shift, bits: make([]uint64, (n+63)/64)}
}

func (c *ClearTags) index(addr uint64) (int, uint64, bool) {
	if addr < c.base || addr >= c.base+c.size {
		return 0, 0, false
	}
	l := (addr - c.base) >> c.lineShift
	return int(l / 64), 1 << (l % 64), true
}

// SetAll marks every line cleared.
func (c *ClearTags) SetAll() {
	for i := range c.bits {
		c.bits[i] = ^uint64(0)
	}
}

// Cleared reports whether the line holding addr is in the cleared state.
func (c *ClearTags) Cleared(addr uint64) bool {
	w, b, ok := c.index(addr)
	return ok && c.bits[w]&b != 0
}

// Unset takes the line holding addr out of the cleared state.
func (c *ClearTags) Unset(addr uint64) {
	if w, b, ok := c.index(addr); ok {
		c.bits[w] &^= b
	}
}

// Count returns the number of cleared lines.
func (c *ClearTags) Count() int {
	n := 0
	for _, w := range c.bits {
		n += bits.OnesCount64(w)
	}
	return n
}
