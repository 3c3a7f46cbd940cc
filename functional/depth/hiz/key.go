package hiz

import (
	"math"

	"github.com/gfxsim/gfxsim/functional/depth"
)

// A key is a stored depth as an unsigned integer whose order is the order of
// the depth comparison: the 24-bit value of a D24S8 sample, or the IEEE bits of
// a D32F sample. The pipeline only ever writes quantized depths (depth.Quantize:
// [0, 1], never NaN, never -0), for which the unsigned order of the bits is the
// float order. Bounds that are not known use the sentinels below.
const (
	// KeyMin is the smallest key (depth 0): the lower bound of a tile about
	// which nothing is known.
	KeyMin uint32 = 0
	// KeyUnknown is larger than every key: the upper bound of a tile about
	// which nothing is known (a D32F buffer written by other means may hold
	// values outside [0, 1] or NaN; HiZ never claims anything about them).
	KeyUnknown uint32 = math.MaxUint32
)

// MaxKey returns the key of depth 1.0 in format f.
func MaxKey(f depth.Format) uint32 { return depth.Quantize(1, f) }

// StoredKey returns the key of a stored depth word (D24S8: its low 24 bits) and
// whether it lies in the range HiZ tracks: a D32F value that is NaN, negative,
// -0 or above 1 is not (HiZ treats such samples as unknown).
func StoredKey(v uint32, f depth.Format) (uint32, bool) {
	if f == depth.D24S8 {
		return v & depth.MaxD24, true
	}
	return v, v <= MaxKey(depth.D32F)
}

// Pos is a position in API order: a draw's sequence number and a primitive
// within it (Prim = PrimOrder(source, part)). HiZ stamps every event that can
// make older feedback wrong (a clear, a form conversion, a write that can move
// depth away from the viewer) with the position that caused it, and feedback
// computed at an older position is dropped (see ApplyFeedback).
type Pos struct {
	Draw uint64
	Prim uint64
}

// PrimOrder orders the primitives of a draw: API triangle source, then the part
// of a clipped triangle (fewer than 256 parts: a clipped polygon has at most 28
// vertices).
func PrimOrder(source, part int) uint64 { return uint64(source)<<8 | uint64(part&0xFF) }

// Less reports whether p comes before q in API order.
func (p Pos) Less(q Pos) bool {
	if p.Draw != q.Draw {
		return p.Draw < q.Draw
	}
	return p.Prim < q.Prim
}

// Reduced-precision depth values of PACKED ZMASK (Andersson et al. 2015,
// section 5): an unsigned float with 4 exponent bits and 11 mantissa bits
// covering [0, 1]. Code c = e<<11 | m: e = 0 is denormal (m * 2^-25), otherwise
// (1 + m/2^11) * 2^(e-15); depth 1.0 is e = 15, m = 0. The code 0x7FFF (all
// ones, about 1.9995) stands for KeyUnknown.
const (
	ReducedBits     = 15
	reducedMantissa = 11
	reducedUnknown  = 1<<ReducedBits - 1
)

// reducedValue returns the value of code c (c < reducedUnknown).
func reducedValue(c uint32) float64 {
	e, m := c>>reducedMantissa, c&(1<<reducedMantissa-1)
	if e == 0 {
		return math.Ldexp(float64(m), -14-reducedMantissa)
	}
	return math.Ldexp(float64(m|1<<reducedMantissa), int(e)-15-reducedMantissa)
}

// reducedDown returns the largest code whose value is <= v (v >= 0, v < 2).
func reducedDown(v float64) uint32 {
	if !(v > 0) {
		return 0
	}
	// Start from the code of v's binade and correct by at most a step or two.
	frac, exp := math.Frexp(v) // v = frac * 2^exp, frac in [0.5, 1)
	e := exp - 1 + 15          // v in [2^(exp-1), 2^exp): biased exponent
	var c uint32
	switch {
	case e <= 0:
		c = uint32(math.Floor(math.Ldexp(v, 14+reducedMantissa)))
	case e >= 16:
		c = reducedUnknown - 1
	default:
		m := uint32(math.Floor((frac*2 - 1) * (1 << reducedMantissa)))
		c = uint32(e)<<reducedMantissa | m
	}
	for c > 0 && reducedValue(c) > v {
		c--
	}
	for c+1 < reducedUnknown && reducedValue(c+1) <= v {
		c++
	}
	return c
}

// keyValue returns the depth of key k (k <= MaxKey(f)) exactly as a float64
// rational: D24S8 k/(2^24-1) is returned as the pair (k, 2^24-1); D32F as (v, 1).
func keyValue(k uint32, f depth.Format) (num, den float64) {
	if f == depth.D24S8 {
		return float64(k), depth.MaxD24
	}
	return float64(math.Float32frombits(k)), 1
}

// ReduceKey rounds the depth key k of format f to the reduced 15-bit float,
// downwards (up = false, for a lower bound) or upwards (for an upper bound),
// and returns the code: the largest code whose ExpandKey downwards is <= k, or
// the smallest whose ExpandKey upwards is >= k. For D24S8 the expansion rounds
// to whole keys, so the comparison is v*(2^24-1) < k+1 (downwards) or
// v*(2^24-1) > k-1 (upwards); this makes Pack idempotent: a key that came out
// of ExpandKey reduces to the same code again. KeyUnknown maps to the unknown
// code when rounding up (to the code of depth 1 when rounding down).
func ReduceKey(k uint32, f depth.Format, up bool) uint32 {
	if k > MaxKey(f) {
		if up {
			return reducedUnknown
		}
		k = MaxKey(f)
	}
	num, den := keyValue(k, f)
	// Reduced values times den are exact in float64 (12 significant bits
	// times 2^24-1).
	var below func(c uint32) bool // c's expansion stays <= k (downwards)
	if f == depth.D24S8 {
		if up {
			below = func(c uint32) bool { return reducedValue(c)*den <= num-1 }
		} else {
			below = func(c uint32) bool { return reducedValue(c)*den < num+1 }
		}
	} else if up {
		below = func(c uint32) bool { return reducedValue(c) < num }
	} else {
		below = func(c uint32) bool { return reducedValue(c) <= num }
	}
	c := reducedDown(num / den)
	for c > 0 && !below(c) {
		c--
	}
	for c+1 < reducedUnknown && below(c+1) {
		c++
	}
	if up && below(c) {
		c++ // the smallest code that is not below
	}
	return c
}

// ExpandKey converts a reduced code back to a key of format f, rounding
// downwards (a lower bound) or upwards (an upper bound) so that the bound stays
// conservative: ExpandKey(ReduceKey(k, f, false), f, false) <= k and
// ExpandKey(ReduceKey(k, f, true), f, true) >= k.
func ExpandKey(c uint32, f depth.Format, up bool) uint32 {
	if c >= reducedUnknown {
		return KeyUnknown
	}
	v := reducedValue(c)
	if f == depth.D24S8 {
		x := v * depth.MaxD24 // exact
		if up {
			x = math.Ceil(x)
		} else {
			x = math.Floor(x)
		}
		if x > depth.MaxD24 {
			if up {
				return KeyUnknown
			}
			return depth.MaxD24
		}
		return uint32(x)
	}
	if v > 1 {
		if up {
			return KeyUnknown
		}
		return MaxKey(depth.D32F)
	}
	return math.Float32bits(float32(v)) // exact: 12 significant bits
}

// RoundBound rounds bound k of format f to reduced precision and back:
// downwards for a lower bound, upwards for an upper bound. In a greater-form
// tile (negated keys, see Tile) the directions swap, which this handles when
// negated is true.
func RoundBound(k uint32, f depth.Format, upper, negated bool) uint32 {
	if negated {
		return ^RoundBound(^k, f, !upper, false)
	}
	return ExpandKey(ReduceKey(k, f, upper), f, upper)
}
