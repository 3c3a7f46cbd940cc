package reorderbuffer

import (
	"fmt"

	"github.com/gfxsim/gfxsim/internal/enum"
)

// CacheResult is the outcome of a ShadingCache look-up.
type CacheResult uint8

// The look-up outcomes. Hit and Miss take a reference on the entry; the stalls
// change nothing and the requester must try again later.
const (
	// CacheHit: the tag is in the cache (shading or ready); a reference was taken.
	CacheHit CacheResult = iota
	// CacheMiss: the tag was not in the cache; the least recently used entry
	// without references was given to it (state shading, one reference) and the
	// requester must have it shaded.
	CacheMiss
	// CacheStallAllReferenced: a miss found every entry referenced: nothing can be
	// evicted until a reference is released.
	CacheStallAllReferenced
	// CacheStallRefOverflow: a hit found the entry's reference count at the
	// largest value its RefBits can hold.
	CacheStallRefOverflow
)

var cacheResultNames = enum.Names[CacheResult]{Type: "CacheResult",
	Names: []string{"hit", "miss", "stall_all_referenced", "stall_ref_overflow"}}

// String returns the outcome's name.
func (r CacheResult) String() string { return cacheResultNames.String(r) }

// CacheStats counts the look-ups of a ShadingCache; the tags name them in the
// reorder buffer's statistics.
type CacheStats struct {
	Hits         uint64 `stat:"cache_hits"`           // look-ups that found their tag (HitsInFlight included)
	HitsInFlight uint64 `stat:"cache_hits_in_flight"` // of which found the entry still shading (not ready)
	Misses       uint64 `stat:"cache_misses"`
	Evictions    uint64 `stat:"cache_evictions"` // misses that replaced a tag (not a never-used entry)
	// Stalled look-ups (each retried look-up counts again).
	StallsAllReferenced uint64
	StallsRefOverflow   uint64
}

// ShadingCache is the bookkeeping of the reorder buffer's shading cache in
// decoupled sampling (Ragan-Kelley et al. 2011, sections 4.2 and 4.3): entries
// tagged with a shading index, each with a state (free, shading, ready: shaders
// finish out of order, so a hit may find an entry whose shading is still in
// flight), a reference count of RefBits bits (visibility samples waiting to read
// it), and the time of its last look-up. A miss takes the least recently looked-up
// entry that has no references; when every entry is referenced, new shading
// requests stall. Entries stay after their first use, so later samples that map
// to the same shading quad hit.
//
// It holds no shaded values: the component keeps them in a slice indexed like the
// entries. Every operation is O(log Entries) and allocation-free after
// construction. K is the tag type (a comparable shading index).
type ShadingCache[K comparable] struct {
	tag     []K
	state   []EntryState
	refs    []uint32
	lastUse []uint64
	used    []bool // the entry holds a tag
	index   map[K]int32
	maxRefs uint32
	clock   uint64
	// free is a min-heap of the unreferenced entries, ordered by (lastUse, index):
	// never-used entries (lastUse 0) first, then the least recently looked up.
	free    []int32
	heapPos []int32 // position in free, -1 when referenced
	Stats   CacheStats
}

// NewShadingCache returns a cache of entries entries with refBits-bit reference
// counts (1..32).
func NewShadingCache[K comparable](entries, refBits int) (*ShadingCache[K], error) {
	if entries < 1 {
		return nil, fmt.Errorf("shading cache: entries %d: must be at least 1", entries)
	}
	if refBits < 1 || refBits > 32 {
		return nil, fmt.Errorf("shading cache: ref_bits %d: must be in [1, 32]", refBits)
	}
	c := &ShadingCache[K]{
		tag:     make([]K, entries),
		state:   make([]EntryState, entries),
		refs:    make([]uint32, entries),
		lastUse: make([]uint64, entries),
		used:    make([]bool, entries),
		index:   make(map[K]int32, entries),
		maxRefs: uint32(uint64(1)<<uint(refBits) - 1),
		free:    make([]int32, entries),
		heapPos: make([]int32, entries),
	}
	for i := range c.free {
		c.free[i] = int32(i) // (0, i) is already a valid heap order
		c.heapPos[i] = int32(i)
	}
	return c, nil
}

// Entries returns the number of entries.
func (c *ShadingCache[K]) Entries() int { return len(c.tag) }

// Referenced returns the number of entries with at least one reference.
func (c *ShadingCache[K]) Referenced() int { return len(c.tag) - len(c.free) }

// Lookup looks tag k up. On a hit or a miss it takes a reference on the entry it
// returns (on a miss the entry is in state shading and holds k); on a stall it
// returns -1 and changes nothing but the statistics.
func (c *ShadingCache[K]) Lookup(k K) (int, CacheResult) {
	if i, ok := c.index[k]; ok {
		if c.refs[i] == c.maxRefs {
			c.Stats.StallsRefOverflow++
			return -1, CacheStallRefOverflow
		}
		c.Stats.Hits++
		if c.state[i] != EntryReady {
			c.Stats.HitsInFlight++
		}
		c.acquire(int(i))
		return int(i), CacheHit
	}
	if len(c.free) == 0 {
		c.Stats.StallsAllReferenced++
		return -1, CacheStallAllReferenced
	}
	i := int(c.free[0])
	if c.used[i] {
		c.Stats.Evictions++
		delete(c.index, c.tag[i])
	}
	c.Stats.Misses++
	c.tag[i], c.used[i], c.state[i] = k, true, EntryShading
	c.index[k] = int32(i)
	c.acquire(i)
	return i, CacheMiss
}

// acquire takes a reference on entry i and records the look-up time.
func (c *ShadingCache[K]) acquire(i int) {
	if c.refs[i] == 0 {
		c.heapRemove(int(c.heapPos[i]))
	}
	c.refs[i]++
	c.clock++
	c.lastUse[i] = c.clock
}

// Filled marks entry i shaded: its outputs are in place and readers may use them.
func (c *ShadingCache[K]) Filled(i int) { c.state[i] = EntryReady }

// Ready reports whether entry i has been shaded.
func (c *ShadingCache[K]) Ready(i int) bool { return c.state[i] == EntryReady }

// State returns entry i's state.
func (c *ShadingCache[K]) State(i int) EntryState { return c.state[i] }

// Refs returns entry i's reference count.
func (c *ShadingCache[K]) Refs(i int) int { return int(c.refs[i]) }

// Tag returns the tag entry i holds (the zero K when it never held one).
func (c *ShadingCache[K]) Tag(i int) K { return c.tag[i] }

// Release drops one reference on entry i. An entry whose last reference goes
// becomes a candidate for replacement, ordered by its last look-up. Releasing an
// entry with no reference is a caller error, reported as an error.
func (c *ShadingCache[K]) Release(i int) error {
	if c.refs[i] == 0 {
		return fmt.Errorf("shading cache: release of entry %d with no reference", i)
	}
	c.refs[i]--
	if c.refs[i] == 0 {
		c.heapPush(int32(i))
	}
	return nil
}

// Shaded returns the number of entries that hold a shaded tag.
func (c *ShadingCache[K]) Shaded() int {
	n := 0
	for i, u := range c.used {
		if u && c.state[i] == EntryReady {
			n++
		}
	}
	return n
}

// Invalidate forgets every tag (at the end of a screen tile in the tiled
// machine, or of a draw whose primitive IDs will be reused); it requires that
// no entry is referenced. The statistics stay.
func (c *ShadingCache[K]) Invalidate() error {
	if len(c.free) != len(c.tag) {
		return fmt.Errorf("shading cache: invalidate with %d referenced entries", c.Referenced())
	}
	clear(c.index)
	var zero K
	for i := range c.tag {
		c.tag[i], c.used[i], c.state[i], c.lastUse[i] = zero, false, EntryFree, 0
		c.free[i], c.heapPos[i] = int32(i), int32(i)
	}
	return nil
}

// less orders heap entries by (lastUse, index).
func (c *ShadingCache[K]) less(a, b int32) bool {
	if c.lastUse[a] != c.lastUse[b] {
		return c.lastUse[a] < c.lastUse[b]
	}
	return a < b
}

func (c *ShadingCache[K]) heapSwap(i, j int) {
	c.free[i], c.free[j] = c.free[j], c.free[i]
	c.heapPos[c.free[i]] = int32(i)
	c.heapPos[c.free[j]] = int32(j)
}

func (c *ShadingCache[K]) heapUp(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !c.less(c.free[i], c.free[p]) {
			return
		}
		c.heapSwap(i, p)
		i = p
	}
}

func (c *ShadingCache[K]) heapDown(i int) {
	n := len(c.free)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && c.less(c.free[r], c.free[l]) {
			m = r
		}
		if !c.less(c.free[m], c.free[i]) {
			return
		}
		c.heapSwap(i, m)
		i = m
	}
}

func (c *ShadingCache[K]) heapPush(e int32) {
	c.free = append(c.free, e)
	c.heapPos[e] = int32(len(c.free) - 1)
	c.heapUp(len(c.free) - 1)
}

// heapRemove removes the element at heap position i.
func (c *ShadingCache[K]) heapRemove(i int) {
	last := len(c.free) - 1
	e := c.free[i]
	if i != last {
		c.heapSwap(i, last)
	}
	c.free = c.free[:last]
	c.heapPos[e] = -1
	if i < last {
		c.heapDown(i)
		c.heapUp(i)
	}
}
