package filter

import (
	"fmt"
	"math"
)

// Entries is the number of coefficient table entries: one per 8-bit code.
const Entries = 256

// Table is the convolve chip's coefficient RAM for one filter: 256 signed
// coefficient floats indexed by the 8-bit code of the scaled squared distance,
// plus the scale register (1/R)^2. Fixed holds each coefficient aligned to the
// product's binary point (what the multiplier sees).
type Table struct {
	params Params
	radius float64
	scale  uint64
	codes  [Entries]uint16
	fixed  [Entries]int32
}

// NewTable builds the table of kernel k: entry c is k at the radius of the centre
// of code c's interval, R * sqrt((lo+hi)/2), rounded to the coefficient float.
func NewTable(k Kernel, p Params) (*Table, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := CheckKernel(k); err != nil {
		return nil, err
	}
	values := make([]float64, Entries)
	for c := range values {
		values[c] = k.At(k.Radius() * math.Sqrt(CodeCentre(uint8(c))))
	}
	return TableFrom(values, k.Radius(), p)
}

// CodeCentre is the centre of code c's interval of scaled squared distance.
func CodeCentre(c uint8) float64 {
	lo, hi := Decode8(c)
	return (lo + hi) / 2
}

// TableFrom builds a table from 256 coefficient values (entry c for code c) and a
// filter radius in pixels.
func TableFrom(values []float64, radius float64, p Params) (*Table, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if len(values) != Entries {
		return nil, fmt.Errorf("filter: coefficient table: %d entries: must be exactly %d", len(values), Entries)
	}
	scale, err := p.Scale(radius)
	if err != nil {
		return nil, err
	}
	t := &Table{params: p, radius: radius, scale: scale}
	for c, v := range values {
		code, err := EncodeCoeff(v, p)
		if err != nil {
			return nil, fmt.Errorf("filter: coefficient table entry %d: %w", c, err)
		}
		t.codes[c] = code
		t.fixed[c] = int32(coeffFixed(code, p))
	}
	return t, nil
}

// Params are the formats the table was built with.
func (t *Table) Params() Params { return t.params }

// Radius is the filter radius in pixels.
func (t *Table) Radius() float64 { return t.radius }

// Scale is the scale register round(2^ScaleFracBits / R^2).
func (t *Table) Scale() uint64 { return t.scale }

// Code returns entry c as the coefficient float's bits.
func (t *Table) Code(c uint8) uint16 { return t.codes[c] }

// Coefficient returns entry c's value.
func (t *Table) Coefficient(c uint8) float64 { return DecodeCoeff(t.codes[c], t.params) }

// Fixed returns entry c aligned (truncated toward zero) to the product's binary
// point: Coefficient(c) * 2^(ProductBits-13), as an integer.
func (t *Table) Fixed(c uint8) int32 { return t.fixed[c] }

// Lookup returns the fixed coefficient for a squared distance r2 in (1/256 px)^2,
// and false (coefficient 0) at or beyond the radius.
func (t *Table) Lookup(r2 uint32) (int32, bool) {
	code, in := Encode8(uint64(r2)*t.scale, t.params.ScaledFracBits())
	if !in {
		return 0, false
	}
	return t.fixed[code], true
}

// EncodeCoeff rounds v to nearest (ties to even) in the coefficient float: sign
// bit, CoeffExponentBits of exponent with bias 2^CoeffExponentBits-2, and
// CoeffMantissaBits with a hidden bit; exponent 0 is zero and the denormals
// m * 2^(1-bias-M). There is no infinity: a magnitude that rounds to 4 or more is an
// error, as is NaN.
func EncodeCoeff(v float64, p Params) (uint16, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%v: not a finite number", v)
	}
	mBits, eBits, bias := p.CoeffMantissaBits, p.CoeffExponentBits, p.coeffBias()
	var sign uint64
	a := v
	if v < 0 {
		sign, a = 1, -v
	}
	var mag uint64
	if a != 0 {
		f, x := math.Frexp(a) // a = f * 2^x, f in [1/2, 1)
		e := x - 1 + bias     // a = 2f * 2^(e-bias)
		if e >= 1 {
			mag = uint64(e)<<mBits + uint64(math.RoundToEven(math.Ldexp(2*f-1, mBits)))
		} else {
			mag = uint64(math.RoundToEven(math.Ldexp(a, bias+mBits-1)))
		}
	}
	if mag >= 1<<(eBits+mBits) {
		return 0, fmt.Errorf("%v: magnitude beyond the coefficient format's %v", v, MaxCoeff(p))
	}
	return uint16(sign<<(eBits+mBits) | mag), nil
}

// MaxCoeff is the largest coefficient magnitude: (2 - 2^-M) * 2.
func MaxCoeff(p Params) float64 {
	return DecodeCoeff(uint16(1<<(p.CoeffExponentBits+p.CoeffMantissaBits)-1), p)
}

// coeffParts splits a coefficient code into sign, integer mantissa (hidden bit
// included) and the power of two it is scaled by.
func coeffParts(code uint16, p Params) (neg bool, mant int64, exp int) {
	mBits, eBits := p.CoeffMantissaBits, p.CoeffExponentBits
	neg = code>>(eBits+mBits)&1 != 0
	e := int(code>>mBits) & (1<<eBits - 1)
	mant = int64(code) & (1<<mBits - 1)
	if e == 0 {
		return neg, mant, 1 - p.coeffBias() - mBits
	}
	return neg, mant | 1<<mBits, e - p.coeffBias() - mBits
}

// DecodeCoeff returns the value of a coefficient code.
func DecodeCoeff(code uint16, p Params) float64 {
	neg, mant, exp := coeffParts(code, p)
	v := math.Ldexp(float64(mant), exp)
	if neg {
		return -v
	}
	return v
}

// coeffFixed aligns a coefficient to the product's binary point, truncating the
// magnitude.
func coeffFixed(code uint16, p Params) int64 {
	neg, mant, exp := coeffParts(code, p)
	shift := exp + p.productFracBits()
	var f int64
	if shift >= 0 {
		f = mant << shift
	} else {
		f = mant >> -shift
	}
	if neg {
		return -f
	}
	return f
}
