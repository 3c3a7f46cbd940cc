package filter

import (
	"math"
	"math/bits"
)

// Encode8 truncates u, a squared distance already scaled by (1/R)^2, given as a
// fixed-point number with fracBits fraction bits (fracBits >= 12), to the convolve
// chip's 8-bit float: code = e<<5 | m, 3-bit exponent e, 5-bit mantissa m.
//
//   - e = 1..7 (normalised, hidden bit): [ (32+m) * 2^(e-13), (33+m) * 2^(e-13) ),
//     so e = 7 covers [1/2, 1) and e = 1 covers [2^-7, 2^-6);
//   - e = 0 (denormal, zero): [ m * 2^-12, (m+1) * 2^-12 ).
//
// The 256 codes tile [0, 1) in increasing order. inside is false when u >= 1: the
// sample lies on or beyond the filter radius and its coefficient is 0.
func Encode8(u uint64, fracBits uint) (code uint8, inside bool) {
	if u>>fracBits != 0 {
		return 0, false
	}
	y := u >> (fracBits - 12) // truncate to 12 fraction bits, the denormal step
	if y < 32 {
		return uint8(y), true
	}
	b := bits.Len64(y) // 6..12
	e := b - 5
	m := (y >> (b - 6)) & 31
	return uint8(e<<5 | int(m)), true
}

// Decode8 returns the interval [lo, hi) of scaled squared distances that code
// stands for (see Encode8). Both ends are exact dyadic numbers.
func Decode8(code uint8) (lo, hi float64) {
	e := int(code >> 5)
	m := float64(code & 31)
	if e == 0 {
		return math.Ldexp(m, -12), math.Ldexp(m+1, -12)
	}
	return math.Ldexp(32+m, e-13), math.Ldexp(33+m, e-13)
}

// R2 returns the exact squared distance, in (1/256 pixel)^2, between a point at
// (x, y) and the convolution centre (cx, cy), all in 1/256 pixel.
func R2(x, y, cx, cy int32) uint32 {
	dx := int64(x - cx)
	dy := int64(y - cy)
	return uint32(dx*dx + dy*dy)
}
