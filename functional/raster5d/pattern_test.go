package raster5d

import (
	"math"
	"strings"
	"testing"
)

func TestNewPatternErrors(t *testing.T) {
	tests := []struct {
		name string
		xy   [][2]int16
		want string
	}{
		{"no sample", nil, "xy: 0 samples"},
		{"65 samples", make([][2]int16, 65), "xy: 65 samples"},
		{"x too large", [][2]int16{{0, 0}, {128, 0}}, "xy[1][0]: 128"},
		{"y too small", [][2]int16{{0, -129}}, "xy[0][1]: -129"},
	}
	for _, tc := range tests {
		_, err := NewPattern(tc.xy, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
	for _, n := range []int{1, 64} {
		xy := make([][2]int16, n)
		xy[0] = [2]int16{-128, 127}
		if _, err := NewPattern(xy, 1); err != nil {
			t.Errorf("%d samples: %v", n, err)
		}
	}
}

// unconcentric inverts the concentric map: the square point in [-1, 1]^2 of a
// disk point.
func unconcentric(u, v float64) (a, b float64) {
	r := math.Hypot(u, v)
	if r == 0 {
		return 0, 0
	}
	if math.Abs(u) >= math.Abs(v) {
		a = math.Copysign(r, u)
		return a, a * math.Atan(v/u) * 4 / math.Pi
	}
	b = math.Copysign(r, v)
	phi := math.Atan2(v/b, u/b)
	return (math.Pi/2 - phi) * 4 * b / math.Pi, b
}

// TestPatternStrata checks every pixel of the 32x32 repeat: for n = k^3 each of
// the k^3 cells of the jittered grid holds exactly one sample; otherwise each
// dimension's n strata hold one sample each (Latin hypercube). Every value lies
// in its stratum (t exactly; u, v through the inverse concentric map within
// rounding), on the disk, with t in [0, 1), and in its traversal bucket.
func TestPatternStrata(t *testing.T) {
	for _, n := range []int{1, 2, 5, 8, 16, 27, 63, 64} {
		p := mustPattern(t, n, 99)
		m := p.StrataPerDim()
		if k := cubeRoot(n); k > 0 && m != k || k == 0 && m != n {
			t.Fatalf("n=%d: StrataPerDim %d", n, m)
		}
		for py := 0; py < PatternRepeat; py++ {
			for px := 0; px < PatternRepeat; px++ {
				cells := map[[3]int]bool{}
				var dims [3]map[int]bool
				for d := range dims {
					dims[d] = map[int]bool{}
				}
				for s := 0; s < n; s++ {
					st := p.Strata(px, py, s)
					u, v, tm := p.UVT(px, py, s)
					cells[st] = true
					for d := range dims {
						if st[d] < 0 || st[d] >= m {
							t.Fatalf("n=%d: stratum %v out of range", n, st)
						}
						dims[d][st[d]] = true
					}
					if !(tm >= 0 && tm < 1) || math.Floor(float64(tm)*float64(m)) != float64(st[2]) {
						t.Fatalf("n=%d pixel (%d,%d) sample %d: t %v not in stratum %d of %d", n, px, py, s, tm, st[2], m)
					}
					if float64(u)*float64(u)+float64(v)*float64(v) > 1 {
						t.Fatalf("n=%d: (u, v) = (%v, %v) off the disk", n, u, v)
					}
					a, b := unconcentric(float64(u), float64(v))
					for d, x := range [2]float64{a, b} {
						lo, hi := 2*float64(st[d])/float64(m)-1, 2*float64(st[d]+1)/float64(m)-1
						if x < lo-1e-5 || x > hi+1e-5 {
							t.Fatalf("n=%d: square coordinate %d = %v of (u, v) = (%v, %v) outside stratum [%v, %v]", n, d, x, u, v, lo, hi)
						}
					}
					for c, l := range layouts {
						b := int(p.bucket[c][p.entry(px, py, s)])
						tb, vb, ub := b/(l.nl*l.nl), b/l.nl%l.nl, b%l.nl
						nt, nl := float64(l.nt), float64(l.nl)
						if b >= l.count() || float64(tm) < float64(tb)/nt || float64(tm) > float64(tb+1)/nt ||
							float64(u) < 2*float64(ub)/nl-1 || float64(u) > 2*float64(ub+1)/nl-1 ||
							float64(v) < 2*float64(vb)/nl-1 || float64(v) > 2*float64(vb+1)/nl-1 {
							t.Fatalf("n=%d: (u, v, t) = (%v, %v, %v) outside its %v bucket %d", n, u, v, tm, Case(c), b)
						}
					}
				}
				if cubeRoot(n) > 0 && len(cells) != n {
					t.Fatalf("n=%d pixel (%d,%d): %d distinct cells", n, px, py, len(cells))
				}
				for d := range dims {
					if len(dims[d]) != m {
						t.Fatalf("n=%d pixel (%d,%d): dimension %d has %d of %d strata", n, px, py, d, len(dims[d]), m)
					}
				}
			}
		}
	}
}

// TestPatternRepeatAndSeed: the pattern repeats every 32 pixels (negative
// coordinates included), the same seed gives the same pattern, another seed a
// different one, and the pixels are shuffled (not all equal).
func TestPatternRepeatAndSeed(t *testing.T) {
	xy := [][2]int16{{-50, 10}, {20, -100}, {0, 0}, {100, 90}, {-3, 40}, {60, -60}, {-90, -20}, {30, 120}}
	a, _ := NewPattern(xy, 42)
	b, _ := NewPattern(xy, 42)
	c, _ := NewPattern(xy, 43)
	same, differ := true, 0
	for py := 0; py < PatternRepeat; py++ {
		for px := 0; px < PatternRepeat; px++ {
			for s := 0; s < len(xy); s++ {
				u, v, tm := a.UVT(px, py, s)
				for _, q := range [][2]int{{px + 32, py}, {px, py + 64}, {px - 32, py - 96}} {
					if u2, v2, t2 := a.UVT(q[0], q[1], s); u2 != u || v2 != v || t2 != tm {
						t.Fatalf("pixel %v differs from (%d,%d)", q, px, py)
					}
				}
				if u2, v2, t2 := b.UVT(px, py, s); u2 != u || v2 != v || t2 != tm {
					t.Fatalf("same seed, pixel (%d,%d) sample %d differs", px, py, s)
				}
				if u2, v2, t2 := c.UVT(px, py, s); u2 != u || v2 != v || t2 != tm {
					differ++
				}
				if u2, v2, t2 := a.UVT(0, 0, s); u2 != u || v2 != v || t2 != tm {
					same = false
				}
				x, y := a.SamplePosition(px, py, s)
				if x != int64(px)*256+128+int64(xy[s][0]) || y != int64(py)*256+128+int64(xy[s][1]) {
					t.Fatalf("SamplePosition(%d,%d,%d) = %d,%d", px, py, s, x, y)
				}
			}
		}
	}
	if differ < 32*32*len(xy)*99/100 {
		t.Errorf("seed 43 equals seed 42 at %d of %d samples", 32*32*len(xy)-differ, 32*32*len(xy))
	}
	if same {
		t.Error("every pixel has the same lens and time values")
	}
}

// TestPatternOneSample: one sample per pixel is a jittered point of the unit
// cube per pixel (k = 1), not a fixed (0, 0, 0.5).
func TestPatternOneSample(t *testing.T) {
	p, err := NewPattern([][2]int16{{0, 0}}, 5)
	if err != nil {
		t.Fatal(err)
	}
	distinct := map[[3]float32]bool{}
	for py := 0; py < PatternRepeat; py++ {
		for px := 0; px < PatternRepeat; px++ {
			u, v, tm := p.UVT(px, py, 0)
			distinct[[3]float32{u, v, tm}] = true
		}
	}
	if len(distinct) != PatternRepeat*PatternRepeat {
		t.Errorf("%d distinct points over %d pixels", len(distinct), PatternRepeat*PatternRepeat)
	}
}
