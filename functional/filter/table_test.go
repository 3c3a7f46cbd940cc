package filter

import (
	"math"
	"strings"
	"testing"
)

func TestEncodeCoeffValues(t *testing.T) {
	p := DefaultParams() // sign, 4-bit exponent (bias 14), 9-bit mantissa
	tests := []struct {
		v    float64
		code uint16
	}{
		{0, 0},
		{1, 14 << 9},
		{-1, 1<<13 | 14<<9},
		{1 + 1.0/1024, 14 << 9},         // tie: to even
		{1 + 3.0/1024, 14<<9 | 2},       // tie: to even (up)
		{3.99609375, 15<<9 | 511},       // largest: (2 - 2^-9) * 2
		{math.Ldexp(1, -13), 1 << 9},    // smallest normal
		{math.Ldexp(1, -22), 1},         // smallest denormal
		{math.Ldexp(511, -22), 511},     // largest denormal
		{math.Ldexp(1023, -23), 1 << 9}, // rounds up into the normals
		{0.5, 13 << 9},
		{-0.03125, 1<<13 | 9<<9},
	}
	for _, tc := range tests {
		code, err := EncodeCoeff(tc.v, p)
		if err != nil || code != tc.code {
			t.Errorf("EncodeCoeff(%v) = %#x, %v; want %#x", tc.v, code, err, tc.code)
		}
	}
	for _, v := range []float64{4, -4, 1e9, math.NaN(), math.Inf(1)} {
		if _, err := EncodeCoeff(v, p); err == nil {
			t.Errorf("EncodeCoeff(%v): no error", v)
		}
	}
	if got := MaxCoeff(p); got != 3.99609375 {
		t.Errorf("MaxCoeff = %v", got)
	}
}

// TestCoeffRoundTrip decodes every 14-bit code and encodes it back.
func TestCoeffRoundTrip(t *testing.T) {
	p := DefaultParams()
	for code := uint16(0); code < 1<<14; code++ {
		if code == 1<<13 { // -0 encodes as +0
			continue
		}
		v := DecodeCoeff(code, p)
		back, err := EncodeCoeff(v, p)
		if err != nil || back != code {
			t.Fatalf("code %#x = %v encodes to %#x, %v", code, v, back, err)
		}
		// The fixed-point coefficient is the value truncated toward zero to 2^-14.
		want := math.Trunc(math.Ldexp(v, 14))
		if got := coeffFixed(code, p); float64(got) != want {
			t.Fatalf("code %#x = %v: fixed %d, want %v", code, v, got, want)
		}
	}
}

func TestTableFromErrors(t *testing.T) {
	p := DefaultParams()
	tests := []struct {
		name   string
		values []float64
		radius float64
		want   string
	}{
		{"short", make([]float64, 255), 2, "255 entries: must be exactly 256"},
		{"long", make([]float64, 300), 2, "300 entries: must be exactly 256"},
		{"too large", append(make([]float64, 255), 4.5), 2, "entry 255: 4.5"},
		{"radius", make([]float64, 256), 3, "radius: 3 pixels"},
	}
	for _, tc := range tests {
		_, err := TableFrom(tc.values, tc.radius, p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
	bad := p
	bad.ProductBits = 40
	if _, err := TableFrom(make([]float64, 256), 2, bad); err == nil || !strings.Contains(err.Error(), "Params.ProductBits") {
		t.Errorf("bad Params: %v", err)
	}
}

func TestTableCylinderIsExact(t *testing.T) {
	for _, k := range []Kernel{Cylinder{R: 2}, Box()} {
		tab := mustTable(k)
		for c := 0; c < Entries; c++ {
			if tab.Coefficient(uint8(c)) != 1 || tab.Fixed(uint8(c)) != 1<<14 {
				t.Fatalf("%v: entry %d = %v (fixed %d), want 1", k, c, tab.Coefficient(uint8(c)), tab.Fixed(uint8(c)))
			}
		}
	}
}

// TestTableVsKernel checks each entry of each named kernel's table against the
// exact kernel: the entry is the kernel at a point of its code's interval, so it
// lies within the kernel's range over the interval, widened by the float's
// rounding (half an ulp) and the fixed point's truncation (2^-14). It then sweeps
// every squared distance within the radius (1/256 px grid) and reports the worst
// difference between the table coefficient and the exact kernel.
func TestTableVsKernel(t *testing.T) {
	p := DefaultParams()
	for _, name := range KernelNames {
		k, _ := KernelByName(name)
		tab := mustTable(k)
		R := k.Radius()
		for c := 0; c < Entries; c++ {
			lo, hi := Decode8(uint8(c))
			kmin, kmax := math.Inf(1), math.Inf(-1)
			for i := 0; i <= 256; i++ {
				u := lo + (hi-lo)*float64(i)/256
				if u >= 1 {
					u = math.Nextafter(1, 0)
				}
				v := k.At(R * math.Sqrt(u))
				kmin, kmax = min(kmin, v), max(kmax, v)
			}
			entry := tab.Coefficient(uint8(c))
			ulp := math.Ldexp(1, max(math.Ilogb(math.Abs(entry)), 1-p.coeffBias())-p.CoeffMantissaBits)
			if entry < kmin-ulp/2 || entry > kmax+ulp/2 {
				t.Errorf("%s: entry %d = %v outside the kernel's [%v, %v] on [%v, %v)", name, c, entry, kmin, kmax, lo, hi)
			}
			fixed := math.Ldexp(float64(tab.Fixed(uint8(c))), -p.productFracBits())
			if math.Abs(fixed-entry) >= math.Ldexp(1, -p.productFracBits()) {
				t.Errorf("%s: entry %d: fixed %v vs %v", name, c, fixed, entry)
			}
		}
		worst, worstR, peak := 0.0, 0.0, 0.0
		r2max := uint32(math.Ceil(R * R * 65536))
		for r2 := uint32(0); r2 <= r2max; r2++ {
			f, _ := tab.Lookup(r2)
			r := math.Sqrt(float64(r2)) / 256
			exact := k.At(r)
			peak = max(peak, math.Abs(exact))
			if d := math.Abs(math.Ldexp(float64(f), -p.productFracBits()) - exact); d > worst {
				worst, worstR = d, r
			}
		}
		t.Logf("%-9s table vs exact kernel: worst |error| %.3g at r=%.4f px (%.3g of the peak %.4g)", name, worst, worstR, worst/peak, peak)
	}
}
