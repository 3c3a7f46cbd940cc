package filter

import (
	"fmt"
	"math"
)

// Params are the convolve chip's number formats: the choices the paper leaves open.
// DefaultParams gives the documented defaults; Validate checks a Params.
type Params struct {
	// ScaleFracBits is the number of fraction bits of the scale register (1/R)^2, R in
	// pixels: Scale = round(2^ScaleFracBits / R^2). Default 16, range [8, 24].
	ScaleFracBits int
	// CoeffExponentBits and CoeffMantissaBits split the signed coefficient float
	// (sign, exponent, mantissa with a hidden bit; bias 2^CoeffExponentBits - 2, so
	// magnitudes below 4). Defaults 4 and 9: the paper's 14 bits with the sign.
	// Ranges [2, 6] and [1, 20].
	CoeffExponentBits int
	CoeffMantissaBits int
	// ProductBits is the width of the signed fixed-point product of a coefficient and
	// a 10-bit colour: 1 sign bit, 12 integer bits (colour < 2^10 times coefficient <
	// 4) and ProductBits-13 fraction bits. Default 27 (the paper's), range [16, 30].
	ProductBits int
	// ReciprocalMantissaBits is the mantissa width (below the hidden bit) of the
	// reciprocal of the coefficient sum, rounded to nearest. Default 16, range
	// [11, 20] (11 bits keep a flat field exact: 1023 * 2^-12 < 1/2).
	ReciprocalMantissaBits int
	// Gamma of the output LUT: 8-bit out = round(255 * (v/1023)^(1/Gamma)) for R, G
	// and B; alpha is linear. Default 1.0 (identity, as our other machines); 2.2 is
	// a CRT's. Range (0, 10].
	Gamma float64
}

// DefaultParams returns the documented defaults.
func DefaultParams() Params {
	return Params{
		ScaleFracBits:          16,
		CoeffExponentBits:      4,
		CoeffMantissaBits:      9,
		ProductBits:            27,
		ReciprocalMantissaBits: 16,
		Gamma:                  1,
	}
}

// Validate reports the first field out of range.
func (p Params) Validate() error {
	ranges := []struct {
		name   string
		v      int
		lo, hi int
	}{
		{"ScaleFracBits", p.ScaleFracBits, 8, 24},
		{"CoeffExponentBits", p.CoeffExponentBits, 2, 6},
		{"CoeffMantissaBits", p.CoeffMantissaBits, 1, 20},
		{"ProductBits", p.ProductBits, 16, 30},
		{"ReciprocalMantissaBits", p.ReciprocalMantissaBits, 11, 20},
	}
	for _, r := range ranges {
		if r.v < r.lo || r.v > r.hi {
			return fmt.Errorf("filter: Params.%s: %d: must be in [%d, %d]", r.name, r.v, r.lo, r.hi)
		}
	}
	if !(p.Gamma > 0 && p.Gamma <= 10) {
		return fmt.Errorf("filter: Params.Gamma: %v: must be in (0, 10]", p.Gamma)
	}
	return nil
}

// r2FracBits is the number of fraction bits of r2 = dx*dx + dy*dy in pixels^2
// (dx, dy in 1/256 pixel).
const r2FracBits = 16

// ScaledFracBits is the number of fraction bits of the scaled squared distance
// r2 * Scale: 16 from r2 plus ScaleFracBits.
func (p Params) ScaledFracBits() uint { return uint(r2FracBits + p.ScaleFracBits) }

// productFracBits is the binary point of the 27-bit product and of the
// coefficient sum.
func (p Params) productFracBits() int { return p.ProductBits - 13 }

// coeffBias is the exponent bias of the coefficient float.
func (p Params) coeffBias() int { return 1<<p.CoeffExponentBits - 2 }

// MinRadius and MaxRadius bound a hardware filter's radius in pixels: the support
// must fit the 5x5 window (2.5 pixels from a pixel centre), and 1/16 pixel keeps
// the scale register within 32 bits.
const (
	MinRadius = 1.0 / 16
	MaxRadius = 2.5
)

// Scale returns the scale register for a filter of radius r pixels:
// round(2^ScaleFracBits / r^2).
func (p Params) Scale(r float64) (uint64, error) {
	if err := checkRadius("radius", r); err != nil {
		return 0, err
	}
	return uint64(math.Round(math.Ldexp(1, p.ScaleFracBits) / (r * r))), nil
}

func checkRadius(field string, r float64) error {
	if !(r >= MinRadius && r <= MaxRadius) {
		return fmt.Errorf("filter: %s: %v pixels: must be in [%v, %v] (the 5x5 window)", field, r, MinRadius, MaxRadius)
	}
	return nil
}
