package reorderbuffer

import (
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// EntryState is where an entry is in its life: free, allocated to a quad being
// shaded, or ready to retire.
type EntryState uint8

// The entry states.
const (
	EntryFree    EntryState = iota // not in use
	EntryShading                   // allocated to a dispatched warp's quad; its output is not back yet
	EntryReady                     // shaded (or a DrawEnd marker): retires when it reaches the head
)

var entryStateNames = enum.Names[EntryState]{Type: "EntryState", Names: []string{"free", "shading", "ready"}}

// String returns the state's name.
func (s EntryState) String() string { return entryStateNames.String(s) }

// Entry is one slot of the reorder buffer: one quad of a pixel warp, the
// DrawEnd marker of one partition of a draw, or a visibility record.
type Entry struct {
	State  EntryState
	Marker bool // a DrawEnd marker (no quad)
	// Visibility: a visibility record of a 5D primitive (shading-cache mode),
	// whose samples and cache references are record Record of the cache mode;
	// it is ready when every cache entry it references is shaded.
	Visibility bool
	Record     int
	Draw       *protocol.Draw
	Partition  int    // the ROP partition the quad (or marker) goes to
	Warp       uint64 // the warp the quad belongs to (not for markers)
	Prim       *pipeline.Primitive
	Quad       raster.Quad
	Live       raster.SampleMask   // samples alive before shading
	Out        pipeline.QuadOutput // the shader's outputs, once Ready
}

// ring is the circular FIFO of entries: allocated in order at the tail, filled in
// any order, released in order from the head.
type ring struct {
	e    []Entry
	head int // index of the oldest entry in use
	used int
}

func newRing(n int) ring { return ring{e: make([]Entry, n)} }

func (r *ring) size() int { return len(r.e) }

func (r *ring) free() int { return len(r.e) - r.used }

// tail is the index the next allocation starts at.
func (r *ring) tail() int { return (r.head + r.used) % len(r.e) }

// at returns the entry at index i (taken modulo the size).
func (r *ring) at(i int) *Entry { return &r.e[i%len(r.e)] }

// fromHead returns the k-th entry in use, counting from the head (k < used).
func (r *ring) fromHead(k int) *Entry { return &r.e[(r.head+k)%len(r.e)] }

// alloc takes n entries at the tail (the caller checked free() >= n) and returns
// the index of the first.
func (r *ring) alloc(n int) int {
	first := r.tail()
	r.used += n
	return first
}

// release frees the n entries at the head.
func (r *ring) release(n int) {
	for k := 0; k < n; k++ {
		*r.fromHead(k) = Entry{}
	}
	r.head = (r.head + n) % len(r.e)
	r.used -= n
}
