package filter

import (
	"math"
	"testing"
)

// interval returns code c's interval in units of 2^-12.
func interval12(c uint8) (lo, hi uint64) {
	e, m := uint64(c>>5), uint64(c&31)
	if e == 0 {
		return m, m + 1
	}
	return (32 + m) << (e - 1), (33 + m) << (e - 1)
}

func TestDecode8TilesUnitInterval(t *testing.T) {
	if lo, _ := Decode8(0); lo != 0 {
		t.Fatalf("code 0 starts at %v, want 0", lo)
	}
	if _, hi := Decode8(255); hi != 1 {
		t.Fatalf("code 255 ends at %v, want 1", hi)
	}
	for c := 0; c < Entries; c++ {
		lo, hi := Decode8(uint8(c))
		l12, h12 := interval12(uint8(c))
		if lo != math.Ldexp(float64(l12), -12) || hi != math.Ldexp(float64(h12), -12) {
			t.Fatalf("code %d: Decode8 [%v, %v), want [%d, %d) * 2^-12", c, lo, hi, l12, h12)
		}
		if c < Entries-1 {
			if next, _ := Decode8(uint8(c + 1)); next != hi {
				t.Fatalf("code %d ends at %v, code %d starts at %v", c, hi, c+1, next)
			}
		}
		if e := c >> 5; e > 0 {
			base := math.Ldexp(1, e-8) // the binade [2^(e-8), 2^(e-7))
			if lo < base || hi > 2*base || (hi-lo)/base != 1.0/32 {
				t.Fatalf("code %d: [%v, %v) is not 1/32 of binade %v", c, lo, hi, base)
			}
		}
	}
}

// TestEncode8Exhaustive feeds every 16-fraction-bit value in [0, 1 + 2^-6]: each
// lands in its code's interval (exact integer comparison), codes never decrease,
// and 1 and above are outside.
func TestEncode8Exhaustive(t *testing.T) {
	const frac = 16
	prev := uint8(0)
	for x := uint64(0); x <= 1<<frac+1<<10; x++ {
		code, in := Encode8(x, frac)
		if in != (x < 1<<frac) {
			t.Fatalf("x=%d/2^16: inside=%v", x, in)
		}
		if !in {
			continue
		}
		lo, hi := interval12(code)
		if x < lo<<(frac-12) || x >= hi<<(frac-12) {
			t.Fatalf("x=%d/2^16: code %d covers [%d, %d)/2^12", x, code, lo, hi)
		}
		if code < prev {
			t.Fatalf("x=%d/2^16: code %d after %d", x, code, prev)
		}
		prev = code
	}
	if prev != 255 {
		t.Fatalf("last code inside is %d, want 255", prev)
	}
}

func TestEncode8Edges(t *testing.T) {
	const frac = 32
	one := uint64(1) << frac
	tests := []struct {
		name string
		u    uint64
		code uint8
		in   bool
	}{
		{"zero", 0, 0, true},
		{"below the denormal step", one>>12 - 1, 0, true},
		{"denormal step", one >> 12, 1, true},
		{"largest denormal", one>>7 - 1, 31, true},
		{"smallest normal", one >> 7, 32, true},
		{"half", one / 2, 224, true},
		{"just below half", one/2 - 1, 223, true},
		{"largest inside", one - 1, 255, true},
		{"radius", one, 0, false},
		{"far", math.MaxUint64, 0, false},
	}
	for _, tc := range tests {
		code, in := Encode8(tc.u, frac)
		if code != tc.code || in != tc.in {
			t.Errorf("%s: Encode8(%d) = %d, %v; want %d, %v", tc.name, tc.u, code, in, tc.code, tc.in)
		}
	}
}

// TestEncode8Distances runs every squared distance a 5x5 window can produce,
// r2 = 0 .. 2*767^2 in (1/256 px)^2, through the scale of several radii: the
// scaled fixed-point value lands in its code's interval, codes never decrease, and
// the code's interval is within one scale rounding of the exact r2/R^2.
func TestEncode8Distances(t *testing.T) {
	p := DefaultParams()
	T := p.ScaledFracBits()
	const maxR2 = 2 * 767 * 767
	for _, radius := range []float64{2.5, 2, 1.3, 0.5, MinRadius} {
		scale, err := p.Scale(radius)
		if err != nil {
			t.Fatal(err)
		}
		relScale := math.Abs(float64(scale)/math.Ldexp(1, p.ScaleFracBits)*radius*radius - 1)
		prev := uint8(0)
		worst := 0.0
		for r2 := uint64(0); r2 <= maxR2; r2++ {
			u := r2 * scale
			code, in := Encode8(u, T)
			if in != (u < 1<<T) {
				t.Fatalf("R=%v r2=%d: inside=%v", radius, r2, in)
			}
			if !in {
				continue
			}
			lo, hi := interval12(code)
			if u < lo<<(T-12) || u >= hi<<(T-12) {
				t.Fatalf("R=%v r2=%d: u=%d/2^%d outside code %d", radius, r2, u, T, code)
			}
			if code < prev {
				t.Fatalf("R=%v r2=%d: code %d after %d", radius, r2, code, prev)
			}
			prev = code
			exact := float64(r2) / 65536 / (radius * radius)
			l, h := Decode8(code)
			if d := max(l-exact, exact-h, 0) / max(exact, 1e-300); d > worst {
				worst = d
			}
		}
		if worst > relScale*1.000001 {
			t.Errorf("R=%v: exact r2/R^2 lies %v (relative) outside its code, scale rounding is %v", radius, worst, relScale)
		}
	}
}
