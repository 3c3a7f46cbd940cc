package hiz

import "github.com/gfxsim/gfxsim/functional/depth"

// TileState is one coarse depth tile, in its form's domain.
//
// Less form (Greater false), for the "less" depth functions: every sample's
// stored key d satisfies Lo <= d, and d <= Hi[i] for the layer i whose mask
// Layer[i] holds the sample. Greater form (Greater true), for the "greater"
// functions: the same structure over the negated keys ^d (so Lo = ^(the tile's
// z-max) and Hi[i] = ^(layer i's z-min)): in both forms the depth function is
// "less" in the tile's domain and one code serves both. The layer masks
// partition the tile's valid samples; an empty layer has Hi 0. A tile that is
// not Known (no clear reached it yet) says nothing: the memory may hold
// anything, HiZ neither culls nor accepts there.
//
// Barrier is the position of the last event after which feedback computed
// earlier in API order is wrong (a clear, a conversion between forms, a write
// by NotEqual or Always).
type TileState struct {
	Known   bool
	Greater bool
	Lo      uint32
	Hi      [MaxLayers]uint32
	Layer   [MaxLayers]Mask
	Barrier Pos
}

// Outcome is the result of the coarse test of one primitive on one tile.
type Outcome struct {
	// Fail holds the covered samples that surely fail the depth test; they
	// are culled (removed from the quads' live masks). It is empty when the
	// draw's stencil state forbids culling.
	Fail Mask
	// Accept: every covered sample surely passes (the tile is trivially
	// accepted; the depth unit still tests and writes it).
	Accept bool
}

// cmpKind is a depth function in a tile's domain.
type cmpKind uint8

const (
	cmpLT cmpKind = iota // Less, or Greater in a greater-form tile
	cmpLE                // LessEqual, GreaterEqual in a greater-form tile
	cmpEQ
	cmpNE
	cmpAlways
	cmpNever
)

func kindOf(f depth.CompareFunc) cmpKind {
	switch f {
	case depth.Less, depth.Greater:
		return cmpLT
	case depth.LessEqual, depth.GreaterEqual:
		return cmpLE
	case depth.Equal:
		return cmpEQ
	case depth.NotEqual:
		return cmpNE
	case depth.Always:
		return cmpAlways
	}
	return cmpNever
}

// formOf returns the form a depth function needs (greater or not) and false
// when it works with either form.
func formOf(f depth.CompareFunc) (greater, needed bool) {
	switch f {
	case depth.Less, depth.LessEqual:
		return false, true
	case depth.Greater, depth.GreaterEqual:
		return true, true
	}
	return false, false
}

// surelyFails reports whether every fragment key in [fmin, fmax] fails against
// every stored key in [lo, hi] (tile domain).
func surelyFails(k cmpKind, fmin, fmax, lo, hi uint32) bool {
	switch k {
	case cmpLT:
		return fmin >= hi
	case cmpLE:
		return fmin > hi
	case cmpEQ:
		return fmin > hi || fmax < lo
	case cmpNE:
		return fmin == fmax && lo == hi && fmin == lo
	case cmpNever:
		return true
	}
	return false
}

// surelyPasses reports whether every fragment key in [fmin, fmax] passes
// against every stored key in [lo, hi].
func surelyPasses(k cmpKind, fmin, fmax, lo, hi uint32) bool {
	switch k {
	case cmpLT:
		return fmax < lo
	case cmpLE:
		return fmax <= lo
	case cmpEQ:
		return fmin == fmax && lo == hi && fmin == lo
	case cmpNE:
		return fmax < lo || fmin > hi
	case cmpAlways:
		return true
	}
	return false
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// layers returns the layer count in use (1 for Forward and Oracle tiles).
func (b *Buffer) layers() int { return b.cfg.Layers }

// test runs the coarse test of tile t (already in the draw's form) for a
// primitive whose depth keys lie in [tmin, tmax] (tile domain).
func (b *Buffer) test(t *TileState, k cmpKind, tmin, tmax uint32, cover Mask) Outcome {
	var o Outcome
	if !t.Known {
		return o
	}
	L := b.layers()
	if b.cfg.Placement == IntervalOnly {
		h := uint32(0)
		for i := 0; i < L; i++ {
			if !t.Layer[i].Empty() {
				h = max(h, t.Hi[i])
			}
		}
		if surelyFails(k, tmin, tmax, t.Lo, h) {
			o.Fail = cover
		}
	} else {
		for i := 0; i < L; i++ {
			if m := t.Layer[i].And(cover); !m.Empty() && surelyFails(k, tmin, tmax, t.Lo, t.Hi[i]) {
				o.Fail = o.Fail.Or(m)
			}
		}
	}
	if o.Fail.Empty() {
		// Trivial accept uses the tile's lower bound (the paper's z-min).
		o.Accept = surelyPasses(k, tmin, tmax, t.Lo, KeyUnknown)
	}
	return o
}

// update applies a primitive's surviving covered samples surv (depth keys in
// [tmin, tmax], tile domain) to tile t: the z-min update, and the ZMASK layer
// update and merge. guaranteed says whether every passing sample is written
// with its interpolated depth.
func (b *Buffer) update(t *TileState, k cmpKind, tmin, tmax uint32, surv Mask, guaranteed bool, pos Pos) {
	if !t.Known || surv.Empty() {
		return
	}
	L := b.layers()
	var moved Mask
	switch k {
	case cmpEQ, cmpNever:
		return // Equal stores the value already there
	case cmpLT, cmpLE:
		t.Lo = min(t.Lo, tmin)
		if !guaranteed {
			return // stored values only decrease: the layers still hold
		}
		// Every covered sample ends at most max(stored, fragment) when it fails
		// and at the fragment when it passes: at most tmax. Move the samples
		// of layers whose z-max is farther to the primitive's layer.
		for i := 0; i < L; i++ {
			if m := t.Layer[i].And(surv); !m.Empty() && tmax < t.Hi[i] {
				moved = moved.Or(m)
				t.Layer[i] = t.Layer[i].AndNot(m)
			}
		}
	case cmpNE, cmpAlways:
		// The stored values may move away from the viewer.
		t.Lo = min(t.Lo, tmin)
		t.Barrier = pos
		if !guaranteed {
			for i := 0; i < L; i++ {
				if t.Layer[i].Intersects(surv) {
					t.Hi[i] = max(t.Hi[i], tmax)
				}
			}
			return
		}
		// NotEqual and Always store the fragment whenever it is tested.
		for i := 0; i < L; i++ {
			if m := t.Layer[i].And(surv); !m.Empty() {
				moved = moved.Or(m)
				t.Layer[i] = t.Layer[i].AndNot(m)
			}
		}
	}
	if !moved.Empty() {
		b.insert(t, moved, tmax)
	}
	for i := 0; i < L; i++ {
		if t.Layer[i].Empty() {
			t.Hi[i] = 0
		}
	}
}

// insert adds the primitive's layer (samples m, z-max z) to tile t: into an
// empty layer when there is one (the lowest), else by merging the closest pair
// among the primitive's layer and the tile's layers (the paper's Listing 4
// generalized to L layers). Distances are |z_a - z_b| between keys (for
// D32F, float bit patterns: see the package documentation); candidates in the order
// (T,0), (T,1), ..., (T,L-1), (0,1), (0,2), ..., (L-2,L-1), the first smallest
// wins. Merging T into layer i sets z_i = max(z, z_i); merging layers i < j
// stores their union in i with the larger z-max and puts T in j. With two
// layers this is exactly the paper's rule: d_T0 smallest, d_T1 smallest, else
// layers 0 and 1 merge and T becomes layer 1.
func (b *Buffer) insert(t *TileState, m Mask, z uint32) {
	L := b.layers()
	for i := 0; i < L; i++ {
		if t.Layer[i].Empty() {
			t.Layer[i], t.Hi[i] = m, z
			return
		}
	}
	bi, bj := -1, 0 // bi == -1: T with layer bj
	best := absDiff(z, t.Hi[0])
	for i := 1; i < L; i++ {
		if d := absDiff(z, t.Hi[i]); d < best {
			best, bj = d, i
		}
	}
	for i := 0; i < L; i++ {
		for j := i + 1; j < L; j++ {
			if d := absDiff(t.Hi[i], t.Hi[j]); d < best {
				best, bi, bj = d, i, j
			}
		}
	}
	if bi < 0 {
		t.Layer[bj] = t.Layer[bj].Or(m)
		t.Hi[bj] = max(t.Hi[bj], z)
		return
	}
	t.Layer[bi] = t.Layer[bi].Or(t.Layer[bj])
	t.Hi[bi] = max(t.Hi[bi], t.Hi[bj])
	t.Layer[bj], t.Hi[bj] = m, z
}

// convert switches tile t to the other form, conservatively: the new lower
// bound is the negated largest z-max, the single new layer's bound the negated
// z-min, and the selection mask is cleared (the paper's section 4, "Switching
// depth functions").
func (b *Buffer) convert(t *TileState, valid Mask, pos Pos) {
	if t.Known {
		h := uint32(0)
		for i := 0; i < b.layers(); i++ {
			if !t.Layer[i].Empty() {
				h = max(h, t.Hi[i])
			}
		}
		lo := t.Lo
		*t = TileState{Known: true, Greater: t.Greater, Lo: ^h}
		t.Hi[0], t.Layer[0] = ^lo, valid
	}
	t.Greater = !t.Greater
	t.Barrier = pos
}

// applyFeedback lowers the layers' z-max of tile t to the tile's true maximum
// fmax (greater form: raises their z-min to fmin) measured at position pos. It
// returns false, changing nothing, when the feedback is stale: an event at or
// after pos may have moved the stored values away from the viewer since.
func applyFeedback(t *TileState, L int, fmin, fmax uint32, pos Pos) bool {
	if !t.Known || pos.Less(t.Barrier) {
		return false
	}
	z := fmax
	if t.Greater {
		z = ^fmin
	}
	for i := 0; i < L; i++ {
		if !t.Layer[i].Empty() {
			t.Hi[i] = min(t.Hi[i], z)
		}
	}
	return true
}
