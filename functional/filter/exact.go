package filter

import (
	"fmt"
	"image/color"
	"iter"
	"math"
)

// Exact is the reference for the convolve arithmetic: the same filter in float64,
// with exact sample positions and distances, exact kernel values and an exact
// division, over a window of any odd size around the pixel that holds the centre.
type Exact struct {
	Kernel Kernel
	// Window is the odd side of the pixel window (5 = the hardware's).
	Window int
	// Gamma of the output, as Params.Gamma.
	Gamma float64
}

// NewExact returns the exact filter of k over a window x window block with the
// given output gamma.
func NewExact(k Kernel, window int, gamma float64) (*Exact, error) {
	if k == nil {
		return nil, fmt.Errorf("filter: Exact.Kernel: nil")
	}
	if v, ok := k.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return nil, err
		}
	}
	if r := k.Radius(); !(r > 0) || math.IsInf(r, 0) {
		return nil, fmt.Errorf("filter: Exact.Kernel radius: %v: must be > 0 and finite", r)
	}
	if window < 1 || window%2 == 0 {
		return nil, fmt.Errorf("filter: Exact.Window: %d: must be odd and >= 1", window)
	}
	if !(gamma > 0 && gamma <= 10) {
		return nil, fmt.Errorf("filter: Exact.Gamma: %v: must be in (0, 10]", gamma)
	}
	return &Exact{Kernel: k, Window: window, Gamma: gamma}, nil
}

// Pixel10 filters the output pixel centred at (cx, cy) pixels from the screen's
// top-left corner and returns linear RGBA on the 10-bit scale (0..1023), clamped
// like the hardware; a zero or negative weight sum gives the nearest sample.
// Negative results are counted in st as in Convolver (a value below -1/2 LSB).
func (e *Exact) Pixel10(cx, cy float64, pos Positions, src Samples, n int, st *Stats) [4]float64 {
	v, w := e.Unclamped(cx, cy, pos, src, n, st)
	if !(w > 0) {
		st.Nearest++
		return e.nearest(cx, cy, pos, src, n)
	}
	var out [4]float64
	for i, a := range v {
		switch {
		case a <= -0.5:
			st.clampNegative(int64(math.Floor(-a + 0.5)))
		case a < 0:
		case a > MaxColour:
			st.OverflowClamps++
			out[i] = MaxColour
		default:
			out[i] = a
		}
	}
	return out
}

// Unclamped returns the normalised filtered value (weighted sum / weight sum,
// meaningless when the weight sum w is not positive) and w.
func (e *Exact) Unclamped(cx, cy float64, pos Positions, src Samples, n int, st *Stats) (v [4]float64, w float64) {
	st.Pixels++
	var sum [4]float64
	for x, y := range e.window(cx, cy) {
		for s := 0; s < n; s++ {
			rgba, ok := src.Sample(x, y, s)
			if !ok {
				break
			}
			st.SamplesRead++
			st.MACs += 4
			k := e.Kernel.At(math.Sqrt(distance2(x, y, s, cx, cy, pos)))
			for i, c := range rgba {
				sum[i] += k * float64(c)
			}
			w += k
		}
	}
	for i := range sum {
		v[i] = sum[i] / w
	}
	return v, w
}

// window yields the pixels (x, y) of the filter window around (cx, cy), row
// by row.
func (e *Exact) window(cx, cy float64) iter.Seq2[int, int] {
	px, py := int(math.Floor(cx)), int(math.Floor(cy))
	h := e.Window / 2
	return func(yield func(x, y int) bool) {
		for y := py - h; y <= py+h; y++ {
			for x := px - h; x <= px+h; x++ {
				if !yield(x, y) {
					return
				}
			}
		}
	}
}

// distance2 is the exact squared distance in pixels^2 from sample s of pixel (x, y)
// to (cx, cy).
func distance2(x, y, s int, cx, cy float64, pos Positions) float64 {
	ox, oy := pos.Offset(x, y, s)
	dx := float64(x) + 0.5 + float64(ox)/256 - cx
	dy := float64(y) + 0.5 + float64(oy)/256 - cy
	return dx*dx + dy*dy
}

// nearest is the sample of the window nearest the centre (ties: first in scan
// order).
func (e *Exact) nearest(cx, cy float64, pos Positions, src Samples, n int) [4]float64 {
	var best [4]float64
	bestD := math.Inf(1)
	for x, y := range e.window(cx, cy) {
		for s := 0; s < n; s++ {
			rgba, ok := src.Sample(x, y, s)
			if !ok {
				break
			}
			if d := distance2(x, y, s, cx, cy, pos); d < bestD {
				bestD = d
				for i, c := range rgba {
					best[i] = float64(c)
				}
			}
		}
	}
	return best
}

// Pixel is Pixel10 through the output gamma: round(255 * (v/1023)^(1/Gamma)) for
// R, G, B; alpha linear.
func (e *Exact) Pixel(cx, cy float64, pos Positions, src Samples, n int, st *Stats) color.RGBA {
	v := e.Pixel10(cx, cy, pos, src, n, st)
	return color.RGBA{R: gamma8(v[0], e.Gamma), G: gamma8(v[1], e.Gamma), B: gamma8(v[2], e.Gamma), A: gamma8(v[3], 1)}
}

func gamma8(v, gamma float64) uint8 {
	return uint8(math.Round(255 * math.Pow(v/MaxColour, 1/gamma)))
}
