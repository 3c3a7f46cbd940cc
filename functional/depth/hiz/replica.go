package hiz

import "github.com/gfxsim/gfxsim/functional/depth"

// replica is an exact per-sample copy of the depth buffer as HiZ can know it:
// for every sample an interval [lo, hi] of keys holding its stored depth (a
// single value when every write to it was certain; an interval after a write
// that may or may not have happened: a discarding shader, a stencil test that
// may fail, a shader-written depth). lo > hi marks a sample nothing is known
// about (before the first clear). It serves the Oracle mode and the ideal
// feedback. Tiles are materialized on first use; until then every sample of a
// tile holds the last clear value.
type replica struct {
	geo      *Geometry
	known    bool
	clearKey uint32
	lo, hi   [][]uint32
}

func newReplica(g *Geometry) *replica {
	return &replica{geo: g, lo: make([][]uint32, g.Tiles()), hi: make([][]uint32, g.Tiles())}
}

// clear sets every sample to key k.
func (r *replica) clear(k uint32) {
	r.known, r.clearKey = true, k
	for i := range r.lo {
		r.lo[i], r.hi[i] = nil, nil
	}
}

// tile returns the intervals of tile ti's samples, materializing them.
func (r *replica) tile(ti int) (lo, hi []uint32) {
	if r.lo[ti] == nil {
		n := r.geo.TileSamples
		r.lo[ti], r.hi[ti] = make([]uint32, n), make([]uint32, n)
		a, b := r.clearKey, r.clearKey
		if !r.known {
			a, b = 1, 0
		}
		for i := 0; i < n; i++ {
			r.lo[ti][i], r.hi[ti][i] = a, b
		}
	}
	return r.lo[ti], r.hi[ti]
}

// bounds returns the smallest and largest key of tile ti's valid samples,
// false when a sample is unknown.
func (r *replica) bounds(ti int, valid Mask) (lo, hi uint32, ok bool) {
	if r.lo[ti] == nil {
		return r.clearKey, r.clearKey, r.known
	}
	a, b := r.lo[ti], r.hi[ti]
	lo, hi = KeyUnknown, 0
	for i := range a {
		if !valid.Has(i) {
			continue
		}
		if a[i] > b[i] {
			return 0, 0, false
		}
		lo, hi = min(lo, a[i]), max(hi, b[i])
	}
	return lo, hi, lo <= hi
}

// sampleFails reports whether a fragment with a key in [fa, fb] surely fails
// fn against a sample holding a key in [lo, hi] (depth domain).
func sampleFails(fn depth.CompareFunc, fa, fb, lo, hi uint32) bool {
	if lo > hi {
		return false
	}
	if g, _ := formOf(fn); g {
		return surelyFails(kindOf(fn), ^fb, ^fa, ^hi, ^lo)
	}
	return surelyFails(kindOf(fn), fa, fb, lo, hi)
}

// samplePasses reports whether such a fragment surely passes.
func samplePasses(fn depth.CompareFunc, fa, fb, lo, hi uint32) bool {
	if lo > hi {
		return fn == depth.Always
	}
	if g, _ := formOf(fn); g {
		return surelyPasses(kindOf(fn), ^fb, ^fa, ^hi, ^lo)
	}
	return surelyPasses(kindOf(fn), fa, fb, lo, hi)
}

// sampleWrite returns a sample's interval after a fragment in [fa, fb] was
// tested with fn and, when it passed, written; guaranteed says whether a pass
// is surely written (otherwise the old value may stay).
func sampleWrite(fn depth.CompareFunc, fa, fb, lo, hi uint32, guaranteed bool) (uint32, uint32) {
	if lo > hi {
		if guaranteed && (fn == depth.Always || fn == depth.NotEqual) {
			return fa, fb
		}
		return lo, hi
	}
	var a, b uint32
	switch fn {
	case depth.Less, depth.LessEqual:
		a, b = min(lo, fa), min(hi, fb)
	case depth.Greater, depth.GreaterEqual:
		a, b = max(lo, fa), max(hi, fb)
	case depth.Always, depth.NotEqual:
		a, b = fa, fb
	default: // Equal stores the value already there; Never stores nothing
		return lo, hi
	}
	if !guaranteed {
		a, b = min(a, lo), max(b, hi)
	}
	return a, b
}
