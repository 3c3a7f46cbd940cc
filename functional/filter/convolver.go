package filter

import (
	"image/color"
	"math"
	"math/bits"
)

// Positions gives sample positions: sample s of pixel (px, py) at offset (ox, oy)
// from the pixel centre in 1/256 pixel, each in [-128, 127] (raster.MinOffset,
// raster.MaxOffset), i.e. at (256*px + 128 + ox, 256*py + 128 + oy).
type Positions interface {
	Offset(px, py, s int) (ox, oy int16)
}

// Samples gives the stored samples.
type Samples interface {
	// Sample returns sample s of pixel (x, y) as 10-bit RGBA (0..1023) and whether
	// the pixel exists (false outside the screen).
	Sample(x, y, s int) (rgba [4]uint16, ok bool)
}

// Window is the side of the filter processor array: 5x5 pixels around the pixel
// that holds the convolution centre.
const Window = 5

// MaxSamples is the largest sample count per pixel (the pattern RAM's 16).
const MaxSamples = 16

// MaxColour is the largest 10-bit colour value (1.0).
const MaxColour = 1023

// NegativeBins is the number of negative-lobe histogram bins: bin i counts clamped
// results of magnitude [2^i, 2^(i+1)) 10-bit LSBs; the last bin also holds
// everything above.
const NegativeBins = 11

// Stats counts what the convolve arithmetic did. Counters only grow; Add merges.
type Stats struct {
	Pixels uint64 // output pixels computed
	// SamplesRead counts samples read from existing pixels of the window (those
	// whose samples can lie within the radius), and, for a nearest-sample
	// fallback, every sample of the 5x5 window's existing pixels again.
	SamplesRead uint64
	// WindowRead splits SamplesRead by window position: WindowRead[k] counts
	// the samples read from the window pixel at (k mod Window, k / Window)
	// from the window's top-left corner (the centre's pixel is k = 12). On the
	// convolve chip each window pixel's samples are weighed by its own filter
	// processor (section 7: 25 processors, each responsible for one pixel's
	// samples), so the growth of WindowRead[k] over one pixel is processor k's
	// work for it.
	WindowRead [Window * Window]uint64
	// MACs counts colour multiply-adds: 4 (RGBA) per sample read by the filter (the
	// paper's 400 per pixel at 5x5x4 samples); the coefficient sum is as many again
	// divided by four and not counted.
	MACs uint64
	// NegativeClamps counts channels whose filtered value rounded below 0 and was
	// clamped (paper section 8.1); NegativeHistogram their magnitude in LSBs.
	NegativeClamps    uint64
	NegativeHistogram [NegativeBins]uint64
	// OverflowClamps counts channels above 1023 clamped to 1023.
	OverflowClamps uint64
	// Nearest counts pixels whose coefficient sum was zero or negative: they output
	// the sample nearest the centre instead (paper section 9).
	Nearest uint64
}

// Add adds o's counts to s.
func (s *Stats) Add(o Stats) {
	s.Pixels += o.Pixels
	s.SamplesRead += o.SamplesRead
	for k, v := range o.WindowRead {
		s.WindowRead[k] += v
	}
	s.MACs += o.MACs
	s.NegativeClamps += o.NegativeClamps
	for i := range s.NegativeHistogram {
		s.NegativeHistogram[i] += o.NegativeHistogram[i]
	}
	s.OverflowClamps += o.OverflowClamps
	s.Nearest += o.Nearest
}

func (s *Stats) clampNegative(magnitude int64) {
	s.NegativeClamps++
	b := bits.Len64(uint64(magnitude)) - 1
	if b >= NegativeBins {
		b = NegativeBins - 1
	}
	s.NegativeHistogram[b]++
}

// Convolver is the convolve chip's arithmetic for one output pixel: a coefficient
// table, the reciprocal and the output LUT. It holds no per-pixel state, so one
// Convolver may serve any number of callers in turn; Pixel does not allocate.
type Convolver struct {
	table *Table
	p     Params
	one   uint64 // 1.0 in the scaled squared distance's fixed point
	lut   [MaxColour + 1]uint8
	alpha [MaxColour + 1]uint8
}

// NewConvolver returns the convolver of table t (its Params give the formats and
// the gamma).
func NewConvolver(t *Table) *Convolver {
	c := &Convolver{table: t, p: t.params, one: 1 << t.params.ScaledFracBits()}
	for v := range c.lut {
		c.lut[v] = GammaLUT(uint16(v), t.params.Gamma)
		c.alpha[v] = GammaLUT(uint16(v), 1)
	}
	return c
}

// GammaLUT maps a 10-bit linear value to 8 bits: round(255 * (v/1023)^(1/gamma)),
// exactly (v*255 + 511) / 1023 for gamma 1.
func GammaLUT(v uint16, gamma float64) uint8 {
	if v > MaxColour {
		v = MaxColour
	}
	if gamma == 1 {
		return uint8((uint32(v)*255 + MaxColour/2) / MaxColour)
	}
	return uint8(math.Round(255 * math.Pow(float64(v)/MaxColour, 1/gamma)))
}

// Table is the convolver's coefficient table.
func (c *Convolver) Table() *Table { return c.table }

// SamplesPerPixel is the most samples one output pixel reads at n samples per
// pixel, over all centre positions: the window pixels that can hold a sample
// within the radius, times n (25 x 16 = 400 for a radius above sqrt(2)).
func (c *Convolver) SamplesPerPixel(n int) int {
	count := 0
	for dy := -Window / 2; dy <= Window/2; dy++ {
		for dx := -Window / 2; dx <= Window/2; dx++ {
			mx, my := axisGap(dx), axisGap(dy)
			if _, in := c.table.Lookup(uint32(mx*mx + my*my)); in {
				count++
			}
		}
	}
	return count * n
}

// axisGap is the least distance, in 1/256 pixel, between a centre in pixel 0 and a
// sample in pixel d along one axis.
func axisGap(d int) int64 {
	switch {
	case d > 0:
		return int64(256*d - 255)
	case d < 0:
		return int64(-256*d - 255)
	}
	return 0
}

// gap is the least distance along one axis between a centre at c and the samples
// of the pixel whose first 1/256 pixel column is lo.
func gap(c, lo int32) int64 {
	switch {
	case c < lo:
		return int64(lo - c)
	case c > lo+255:
		return int64(c - lo - 255)
	}
	return 0
}

// Pixel filters the output pixel centred at (cx, cy) (1/256 pixel from the screen's
// top-left corner) from the first n samples (n is clamped to [0, MaxSamples]) of
// the window and returns it through the output LUT.
func (c *Convolver) Pixel(cx, cy int32, pos Positions, src Samples, n int, st *Stats) color.RGBA {
	v := c.Pixel10(cx, cy, pos, src, n, st)
	return color.RGBA{R: c.lut[v[0]], G: c.lut[v[1]], B: c.lut[v[2]], A: c.alpha[v[3]]}
}

// Pixel10 is Pixel before the output LUT: 10-bit linear RGBA.
func (c *Convolver) Pixel10(cx, cy int32, pos Positions, src Samples, n int, st *Stats) [4]uint16 {
	n = min(max(n, 0), MaxSamples)
	st.Pixels++
	px, py := int(cx>>8), int(cy>>8) // arithmetic shift: floor
	var sum [4]int64
	var sumCoeff int64
	read := uint64(0)
	for y := py - Window/2; y <= py+Window/2; y++ {
		gy := gap(cy, int32(y)<<8)
		for x := px - Window/2; x <= px+Window/2; x++ {
			gx := gap(cx, int32(x)<<8)
			if _, in := c.table.Lookup(uint32(gx*gx + gy*gy)); !in {
				continue // no sample of this pixel can lie within the radius
			}
			if _, ok := src.Sample(x, y, 0); !ok || n == 0 {
				continue // off screen: contributes nothing
			}
			read += uint64(n) // the filter processor reads all n samples
			st.WindowRead[(y-py+Window/2)*Window+x-px+Window/2] += uint64(n)
			for s := 0; s < n; s++ {
				ox, oy := pos.Offset(x, y, s)
				k, in := c.table.Lookup(R2(int32(x)<<8+128+int32(ox), int32(y)<<8+128+int32(oy), cx, cy))
				if !in {
					continue // coefficient 0: the colour does not matter
				}
				rgba, _ := src.Sample(x, y, s)
				kk := int64(k)
				sum[0] += kk * int64(rgba[0])
				sum[1] += kk * int64(rgba[1])
				sum[2] += kk * int64(rgba[2])
				sum[3] += kk * int64(rgba[3])
				sumCoeff += kk
			}
		}
	}
	st.SamplesRead += read
	st.MACs += 4 * read
	if sumCoeff <= 0 {
		st.Nearest++
		return c.nearest(cx, cy, pos, src, n, st)
	}
	recip, shift := c.reciprocal(sumCoeff)
	var out [4]uint16
	for i, a := range sum {
		v := (a*recip + 1<<(shift-1)) >> shift // round half up
		switch {
		case v < 0:
			st.clampNegative(-v)
		case v > MaxColour:
			st.OverflowClamps++
			out[i] = MaxColour
		default:
			out[i] = uint16(v)
		}
	}
	return out
}

// reciprocal returns r and k with r * 2^-k = 1/s rounded to nearest with
// ReciprocalMantissaBits below the hidden bit (s > 0).
func (c *Convolver) reciprocal(s int64) (r int64, k uint) {
	k = uint(bits.Len64(uint64(s)) + c.p.ReciprocalMantissaBits)
	num := uint64(1) << k
	q := num / uint64(s)
	if rem := num % uint64(s); 2*rem >= uint64(s) {
		q++
	}
	return int64(q), k
}

// nearest returns the sample of the 5x5 window nearest the centre; ties go to the
// first in scan order (rows, then columns, then sample index). It returns zero if
// the window holds no sample.
func (c *Convolver) nearest(cx, cy int32, pos Positions, src Samples, n int, st *Stats) [4]uint16 {
	px, py := int(cx>>8), int(cy>>8)
	var best [4]uint16
	bestR2 := uint32(math.MaxUint32)
	found := false
	for y := py - Window/2; y <= py+Window/2; y++ {
		for x := px - Window/2; x <= px+Window/2; x++ {
			for s := 0; s < n; s++ {
				rgba, ok := src.Sample(x, y, s)
				if !ok {
					break
				}
				st.SamplesRead++
				st.WindowRead[(y-py+Window/2)*Window+x-px+Window/2]++
				ox, oy := pos.Offset(x, y, s)
				r2 := R2(int32(x)<<8+128+int32(ox), int32(y)<<8+128+int32(oy), cx, cy)
				if !found || r2 < bestR2 {
					best, bestR2, found = rgba, r2, true
				}
			}
		}
	}
	return best
}
