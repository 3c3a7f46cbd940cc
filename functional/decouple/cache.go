package decouple

import "fmt"

// CacheStats counts the look-ups of a shading cache model.
type CacheStats struct {
	Hits, Misses, Evictions int64
}

// Lookups returns Hits + Misses.
func (s CacheStats) Lookups() int64 { return s.Hits + s.Misses }

// Add adds o to s.
func (s *CacheStats) Add(o CacheStats) {
	s.Hits += o.Hits
	s.Misses += o.Misses
	s.Evictions += o.Evictions
}

// Cache is a functional model of a shading cache whose entries are shading
// quads. Lookup reports whether tag was present and, on a miss, inserts it at
// once (the paper's 3.1: a miss shades and updates the cache immediately).
// Clear empties the cache; the statistics are kept.
type Cache interface {
	Lookup(tag Tag) bool
	Clear()
	Stats() CacheStats
}

// Memo is unbounded memoization: every tag looked up since the last Clear is
// present, so misses = distinct tags. Clear it per primitive (tags of different
// primitives never match) or per draw. The zero Memo is ready to use; it
// allocates only while it grows.
type Memo struct {
	t     table
	stats CacheStats
}

// NewMemo returns an empty Memo sized for about capacity tags.
func NewMemo(capacity int) *Memo { return &Memo{t: newTable(2 * capacity)} }

// Lookup reports whether tag is present and inserts it when it is not.
func (m *Memo) Lookup(tag Tag) bool {
	if m.t.keys == nil {
		m.t = newTable(0)
	}
	k := tagKey(tag)
	if _, ok := m.t.find(k); ok {
		m.stats.Hits++
		return true
	}
	m.stats.Misses++
	m.t.insert(k, 0)
	return false
}

// Slot looks tag up like Lookup and also returns its slot: the number of tags
// inserted before it since the last Clear (0, 1, 2, ... in order of first
// look-up), so a caller can keep the memoized values in a slice it truncates on
// Clear.
func (m *Memo) Slot(tag Tag) (slot int32, hit bool) {
	if m.t.keys == nil {
		m.t = newTable(0)
	}
	k := tagKey(tag)
	if i, ok := m.t.find(k); ok {
		m.stats.Hits++
		return m.t.vals[i], true
	}
	m.stats.Misses++
	slot = int32(m.t.n)
	m.t.insert(k, slot)
	return slot, false
}

// Find returns tag's slot without inserting it and without counting a look-up.
func (m *Memo) Find(tag Tag) (slot int32, ok bool) {
	if m.t.keys == nil {
		return 0, false
	}
	i, ok := m.t.find(tagKey(tag))
	if !ok {
		return 0, false
	}
	return m.t.vals[i], true
}

// Clear forgets every tag in O(1).
func (m *Memo) Clear() {
	if m.t.keys != nil {
		m.t.clear()
	}
}

// Len returns the number of tags present.
func (m *Memo) Len() int { return m.t.n }

// Stats returns the counts since the Memo was made.
func (m *Memo) Stats() CacheStats { return m.stats }

// LRU is a functional model of the paper's bounded shading cache (3.1, 4.2):
// Entries shading quads, full associativity, least-recently-looked-up
// replacement, a miss inserting at once and evicting the LRU entry when full.
// It has no reference counts and no ready flags: in this purely functional model
// an entry is consumed the moment it is looked up, so every entry is always
// evictable and nothing stalls (the timed reorder buffer models both). Each
// look-up is O(1).
type LRU struct {
	entries    int
	t          table   // tag -> entry
	tags       []key   // entry -> tag
	prev, next []int32 // recency list, head = most recent
	head, tail int32
	used       int
	stats      CacheStats
}

// NewLRU returns an empty LRU cache of entries shading quads.
func NewLRU(entries int) (*LRU, error) {
	if entries < 1 || entries > 1<<28 {
		return nil, fmt.Errorf("decouple: LRU entries: %d: must be in [1, 2^28]", entries)
	}
	return &LRU{entries: entries, t: newTable(2 * entries), tags: make([]key, entries),
		prev: make([]int32, entries), next: make([]int32, entries), head: -1, tail: -1}, nil
}

// Entries returns the capacity in shading quads.
func (c *LRU) Entries() int { return c.entries }

// Len returns the number of entries in use.
func (c *LRU) Len() int { return c.used }

// Stats returns the counts since the cache was made.
func (c *LRU) Stats() CacheStats { return c.stats }

// Lookup reports whether tag is present and makes it the most recently used; on
// a miss it inserts tag, evicting the least recently used entry when full.
func (c *LRU) Lookup(tag Tag) bool {
	k := tagKey(tag)
	i, ok := c.t.find(k)
	if ok {
		c.stats.Hits++
		e := c.t.vals[i]
		if e != c.head {
			c.unlink(e)
			c.pushFront(e)
		}
		return true
	}
	c.stats.Misses++
	var e int32
	if c.used < c.entries {
		e = int32(c.used)
		c.used++
	} else {
		e = c.tail
		c.unlink(e)
		c.t.remove(c.tags[e])
		c.stats.Evictions++
		i, _ = c.t.find(k)
	}
	c.tags[e] = k
	c.t.insertAt(i, k, e)
	c.pushFront(e)
	return false
}

func (c *LRU) unlink(e int32) {
	p, n := c.prev[e], c.next[e]
	if p >= 0 {
		c.next[p] = n
	} else {
		c.head = n
	}
	if n >= 0 {
		c.prev[n] = p
	} else {
		c.tail = p
	}
}

func (c *LRU) pushFront(e int32) {
	c.prev[e], c.next[e] = -1, c.head
	if c.head >= 0 {
		c.prev[c.head] = e
	} else {
		c.tail = e
	}
	c.head = e
}

// Clear empties the cache (no evictions are counted).
func (c *LRU) Clear() {
	c.t.clear()
	c.used = 0
	c.head, c.tail = -1, -1
}
