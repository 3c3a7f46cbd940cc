package vertexcache

import (
	"encoding/binary"
	"fmt"

	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/vertex"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// Policy is the replacement policy of a post-transform cache.
type Policy uint8

// Policies.
const (
	FIFO Policy = iota // evict the oldest insertion; hits do not reorder
	LRU                // evict the least recently used
)

var policyNames = enum.Names[Policy]{Type: "Policy", Names: []string{"FIFO", "LRU"}}

func (p Policy) String() string { return policyNames.String(p) }

// Counts are the vertex shader invocations of an index buffer under one scheme.
type Counts struct {
	Triangles   int
	Invocations int // vertex shader invocations (cache misses, batch slots)
	Batches     int // vertex batches (the batch scheme only)
}

// ACMR returns invocations per triangle (0 for no triangle).
func (c Counts) ACMR() float64 {
	if c.Triangles == 0 {
		return 0
	}
	return float64(c.Invocations) / float64(c.Triangles)
}

// Add returns the sum of c and d.
func (c Counts) Add(d Counts) Counts {
	return Counts{Triangles: c.Triangles + d.Triangles, Invocations: c.Invocations + d.Invocations,
		Batches: c.Batches + d.Batches}
}

// checkList refuses an index list that is not a whole number of triangles.
func checkList(indices []uint32) error {
	if len(indices)%3 != 0 {
		return fmt.Errorf("indices: %d indices is not a whole number of triangles", len(indices))
	}
	return nil
}

// Batches returns the invocations of the input assembler's batching scheme
// for one draw of the triangle list indices, with batchVertices unique
// vertices per batch: the batches vertex.Batcher forms (as
// components/inputassembler does), each vertex of a batch shaded once.
func Batches(indices []uint32, batchVertices int) (Counts, error) {
	if err := checkList(indices); err != nil {
		return Counts{}, err
	}
	b, err := vertex.NewBatcher(batchVertices)
	if err != nil {
		return Counts{}, fmt.Errorf("batch vertices: %w", err)
	}
	mem := command.NewImage()
	buf := make([]byte, 0, 4*len(indices))
	for _, v := range indices {
		buf = binary.LittleEndian.AppendUint32(buf, v)
	}
	s := vertex.Stream{Indexed: true, Count: uint32(len(indices)), Topology: command.TriangleList,
		Index: vertex.IndexBuffer{Addr: mem.Put(buf, 16), Format: 32, Size: uint32(len(buf))}}
	c := Counts{Triangles: s.NumTriangles()}
	var batch vertex.Batch
	for first := 0; b.Next(mem, &s, first, &batch); first += batch.NumTriangles() {
		c.Batches++
		c.Invocations += len(batch.Vertices)
	}
	return c, nil
}

// Cache returns the invocations of a post-transform cache of entries
// vertices with policy p for one draw of the triangle list indices, starting
// empty.
func Cache(indices []uint32, p Policy, entries int) (Counts, error) {
	if err := checkList(indices); err != nil {
		return Counts{}, err
	}
	if entries < 1 {
		return Counts{}, fmt.Errorf("cache entries: %d, want at least 1", entries)
	}
	if p != FIFO && p != LRU {
		return Counts{}, fmt.Errorf("cache policy: %v, want FIFO or LRU", p)
	}
	c := newCache(p, entries)
	for _, v := range indices {
		c.lookup(v)
	}
	return Counts{Triangles: len(indices) / 3, Invocations: c.misses}, nil
}

// cache is a fully associative cache of vertex tags. For FIFO, tags is a ring
// and next the slot of the oldest entry; for LRU, tags is ordered from the
// least to the most recently used.
type cache struct {
	policy Policy
	tags   []uint32
	size   int
	next   int
	misses int
}

func newCache(p Policy, entries int) *cache {
	return &cache{policy: p, tags: make([]uint32, 0, entries), size: entries}
}

func (c *cache) find(v uint32) int {
	for i, t := range c.tags {
		if t == v {
			return i
		}
	}
	return -1
}

// lookup looks v up, shading and inserting it on a miss.
func (c *cache) lookup(v uint32) {
	i := c.find(v)
	if c.policy == LRU {
		c.touchLRU(i, v)
		return
	}
	if i >= 0 {
		return
	}
	c.misses++
	if len(c.tags) < c.size {
		c.tags = append(c.tags, v)
		return
	}
	c.tags[c.next] = v
	c.next = (c.next + 1) % c.size
}

// touchLRU moves entry i (a hit) or a new entry for v (a miss, i < 0) to the
// most recently used end, evicting the least recently used when full.
func (c *cache) touchLRU(i int, v uint32) {
	if i < 0 {
		c.misses++
		if len(c.tags) < c.size {
			c.tags = append(c.tags, v)
			return
		}
		i = 0 // evict the least recently used
	}
	copy(c.tags[i:], c.tags[i+1:])
	c.tags[len(c.tags)-1] = v
}
