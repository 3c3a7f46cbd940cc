package filter

import (
	"fmt"
	"math"
	"testing"
)

// errorBound recomputes, for one output pixel, the hardware's coefficients
// w' (fixed point as a float) and the exact kernel weights w of every sample of
// the 5x5 window, and returns the per-pixel error bound derived in doc.go:
//
//	|hw - clamp(A/B)| <= 1/2 + |A'/B'| 2^-(M+1) + sum |w'-w| |v - A/B| / B'
//
// for each channel, with A' = sum w'v, B' = sum w', A = sum wv, B = sum w.
func errorBound(c *Convolver, k Kernel, cx, cy int32, pos Positions, src Samples, n int) (bound [4]float64, fallbackHW, fallbackExact bool) {
	p := c.table.params
	px, py := int(cx>>8), int(cy>>8)
	type smp struct {
		wq, w float64
		v     [4]uint16
	}
	var list [Window * Window * MaxSamples]smp
	m := 0
	var Aq, A [4]float64
	var Bq, B float64
	for y := py - 2; y <= py+2; y++ {
		for x := px - 2; x <= px+2; x++ {
			for s := 0; s < n; s++ {
				v, ok := src.Sample(x, y, s)
				if !ok {
					break
				}
				ox, oy := pos.Offset(x, y, s)
				X, Y := int32(x)<<8+128+int32(ox), int32(y)<<8+128+int32(oy)
				f, _ := c.table.Lookup(R2(X, Y, cx, cy))
				wq := math.Ldexp(float64(f), -p.productFracBits())
				w := k.At(math.Hypot(float64(X-cx), float64(Y-cy)) / 256)
				list[m] = smp{wq, w, v}
				m++
				Bq += wq
				B += w
				for i := range v {
					Aq[i] += wq * float64(v[i])
					A[i] += w * float64(v[i])
				}
			}
		}
	}
	if Bq <= 0 || B <= 0 {
		return bound, Bq <= 0, B <= 0
	}
	for i := range bound {
		e := 0.0
		for _, s := range list[:m] {
			e += math.Abs(s.wq-s.w) * math.Abs(float64(s.v[i])-A[i]/B)
		}
		bound[i] = 0.5 + math.Abs(Aq[i]/Bq)*math.Ldexp(1, -p.ReciprocalMantissaBits-1) + e/Bq + 1e-9
	}
	return bound, false, false
}

// TestConvolverVsExact filters seeded random fields (every sample an independent
// random colour: the hardest case for coefficient errors) and a smooth field with
// the hardware arithmetic and with Exact, and checks every channel of every pixel
// against the bound derived from the two sets of weights. It reports the mean and
// worst difference per channel in 10-bit LSBs.
func TestConvolverVsExact(t *testing.T) {
	const w, h = 24, 20
	fields := map[string]func(n int) *sliceSamples{
		"random": func(n int) *sliceSamples { return randomField(w, h, n, int64(n)) },
		"smooth": func(n int) *sliceSamples {
			return newSliceSamples(w, h, n).fill(func(x, y, s int) [4]uint16 {
				f := func(a, b float64) uint16 {
					return uint16(math.Round(511.5 + 511.5*math.Sin(a*float64(x)+b*float64(y)+0.1*float64(s))))
				}
				return [4]uint16{f(0.3, 0.1), f(0.05, 0.4), f(0.7, 0.7), 1023}
			})
		},
	}
	for _, fname := range []string{"random", "smooth"} {
		for _, name := range KernelNames {
			k, _ := KernelByName(name)
			conv := NewConvolver(mustTable(k))
			ex, err := NewExact(k, Window, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{1, 4, 8, 16} {
				var sum, worst [4]float64
				var count, over1, illConditioned int
				worstBound := 0.0
				src := fields[fname](n)
				pos := newJitterPositions(int64(100 + n))
				for _, step := range []float64{1, 0.75} {
					var st, est Stats
					for j := 0; float64(j)*step < h; j++ {
						for i := 0; float64(i)*step < w; i++ {
							cx := int32(math.Round((float64(i) + 0.5) * step * 256))
							cy := int32(math.Round((float64(j) + 0.5) * step * 256))
							hw := conv.Pixel10(cx, cy, pos, src, n, &st)
							exact := ex.Pixel10(float64(cx)/256, float64(cy)/256, pos, src, n, &est)
							bound, fbHW, fbExact := errorBound(conv, k, cx, cy, pos, src, n)
							if fbHW != fbExact {
								// The weight sum is so close to 0 that the table's
								// error flips its sign: no bound holds; count it.
								illConditioned++
								continue
							}
							pixelOver := false
							for c := range hw {
								d := math.Abs(float64(hw[c]) - exact[c])
								if fbHW && d != 0 {
									t.Fatalf("%s %s n=%d: fallback pixel (%d,%d) differs: %v vs %v", fname, name, n, i, j, hw, exact)
								}
								if !fbHW && d > bound[c] {
									t.Fatalf("%s %s n=%d step %v: pixel (%d,%d) channel %d: hardware %d, exact %v: |error| %v > bound %v", fname, name, n, step, i, j, c, hw[c], exact[c], d, bound[c])
								}
								if !fbHW {
									worstBound = max(worstBound, bound[c])
								}
								sum[c] += d
								worst[c] = max(worst[c], d)
								pixelOver = pixelOver || d > 1
							}
							count++
							if pixelOver {
								over1++
							}
						}
					}
					if (name == "cylinder" || name == "box" || name == "gaussian") && (st.NegativeClamps != 0 || est.NegativeClamps != 0) {
						t.Errorf("%s %s n=%d: negative clamps %d, exact %d", fname, name, n, st.NegativeClamps, est.NegativeClamps)
					}
				}
				if illConditioned > 0 && name != "laplacian" && name != "mitchell" {
					t.Errorf("%s %s n=%d: %d pixels fall back in one filter only", fname, name, n, illConditioned)
				}
				t.Logf("%s %-9s n=%2d: mean |hw-exact| RGBA %s LSB, worst %s, pixels >1 LSB %5.2f%%, worst bound %.2f, ill-conditioned %d",
					fname, name, n, fmtMeans(sum, count), fmtWorst(worst), 100*float64(over1)/float64(count), worstBound, illConditioned)
			}
		}
	}
}

func fmtWorst(w [4]float64) string {
	return fmt.Sprintf("[%.2f %.2f %.2f %.2f]", w[0], w[1], w[2], w[3])
}

func fmtMeans(sum [4]float64, count int) string {
	return fmt.Sprintf("[%.3f %.3f %.3f %.3f]", sum[0]/float64(count), sum[1]/float64(count), sum[2]/float64(count), sum[3]/float64(count))
}

// TestExactWindow: a wider exact window changes nothing for a kernel that fits the
// 5x5 window at pixel centres, and a stretched kernel needs a wider window.
func TestExactWindow(t *testing.T) {
	const w, h, n = 12, 12, 4
	src := randomField(w, h, n, 9)
	pos := newJitterPositions(9)
	k, _ := KernelByName("mitchell")
	e5, _ := NewExact(k, 5, 1)
	e9, _ := NewExact(k, 9, 1)
	var st Stats
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := e5.Pixel10(float64(x)+0.5, float64(y)+0.5, pos, src, n, &st)
			b := e9.Pixel10(float64(x)+0.5, float64(y)+0.5, pos, src, n, &st)
			for c := range a {
				if math.Abs(a[c]-b[c]) > 1e-9 {
					t.Fatalf("pixel (%d,%d): window 5 %v, window 9 %v", x, y, a, b)
				}
			}
		}
	}
	wide, err := NewExact(Scaled{Kernel: k, Factor: 4}, 17, 1)
	if err != nil {
		t.Fatal(err)
	}
	if wide.Kernel.Radius() != 8 {
		t.Errorf("scaled radius %v, want 8", wide.Kernel.Radius())
	}
}
