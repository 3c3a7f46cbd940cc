package raster5d

import (
	"fmt"
	"math"
)

// MaxSamples is the largest sample count of a Pattern (one raster.SampleMask
// word per pixel).
const MaxSamples = 64

// PatternRepeat is the period of the lens and time pattern in pixels, in x and
// in y: pixel (px, py) uses the values of pixel (px mod 32, py mod 32).
const PatternRepeat = 32

// MaxOffset bounds the x, y sample offsets: each is in [-MaxOffset-1, MaxOffset]
// 1/256 pixel from the pixel centre, so a sample never leaves its pixel.
const MaxOffset = 127

// bucketLayout splits the (u, v, t) domain into the buckets the traversal
// bounds a triangle over (see doc.go, "Traversal"): nt intervals of t and nl
// intervals of u and of v, all powers of two so that the interval ends are
// exact, at most 64 buckets (one bit each in a uint64). Each case has its own:
// a moving triangle only changes with t, a defocused one only with (u, v).
type bucketLayout struct{ nt, nl int }

// layouts is indexed by Case.
var layouts = [NumCases]bucketLayout{
	Rejected:  {1, 1},
	Static:    {1, 1},
	Moving:    {16, 1},
	Defocused: {1, 8},
	Both:      {4, 4},
}

// Grid sizes that bound every layout.
const (
	maxTimeBuckets = 16
	maxLensBuckets = 8
	maxBuckets     = 64
)

// bucket returns the bucket of (u, v, t) in layout l: tb*nl*nl + vb*nl + ub.
func (l bucketLayout) bucket(u, v, t float32) uint8 {
	return uint8(bucketOf(t, 0, 1, l.nt)*l.nl*l.nl + bucketOf(v, -1, 1, l.nl)*l.nl + bucketOf(u, -1, 1, l.nl))
}

// count returns the number of buckets.
func (l bucketLayout) count() int { return l.nt * l.nl * l.nl }

// Pattern is a 5D sample pattern: sample s of every pixel sits at the same x, y
// offset from the pixel centre, and has a lens position (u, v) on the unit disk
// and a normalized shutter time t in [0, 1) that depend on (px mod 32, py mod
// 32, s). It is immutable once built and shared by every triangle of a draw.
type Pattern struct {
	n  int
	xy [MaxSamples][2]int16
	// off[s]: sample s's position inside its pixel in pixels, (128 + dx)/256
	// and (128 + dy)/256 (exact), so that its screen position is px + off[s][0]
	// (exact for |px| < 2^44, as SamplePosition(...)/256).
	off  [MaxSamples][2]float64
	minX int16
	maxX int16
	minY int16
	maxY int16
	// Per entry e = ((py&31)*32 + (px&31))*n + s.
	u, v, t []float32
	strata  []uint8           // 3 per entry: u, v, t stratum (see Strata)
	bucket  [NumCases][]uint8 // the traversal bucket of each entry in each case's layout
	m       int               // strata per dimension: k when n = k^3, else n
}

// NewPattern builds the pattern of len(xy) samples (1 to 64): xy[s] is the
// offset of sample s from the pixel centre in 1/256 pixel, each coordinate in
// [-128, 127], the same in every pixel (functional/raster's positions). The lens
// and time values are drawn from seed (see doc.go, "Sample pattern").
func NewPattern(xy [][2]int16, seed uint64) (*Pattern, error) {
	n := len(xy)
	if n < 1 || n > MaxSamples {
		return nil, fmt.Errorf("raster5d: NewPattern xy: %d samples: must be 1 to %d", n, MaxSamples)
	}
	p := &Pattern{n: n, m: n}
	p.minX, p.maxX, p.minY, p.maxY = math.MaxInt16, math.MinInt16, math.MaxInt16, math.MinInt16
	for s, o := range xy {
		for k := range o {
			if o[k] < -MaxOffset-1 || o[k] > MaxOffset {
				return nil, fmt.Errorf("raster5d: NewPattern xy[%d][%d]: %d: must be in [%d, %d] (1/256 pixel)", s, k, o[k], -MaxOffset-1, MaxOffset)
			}
		}
		p.xy[s] = o
		p.off[s] = [2]float64{float64(128+int(o[0])) / 256, float64(128+int(o[1])) / 256}
		p.minX, p.maxX = min(p.minX, o[0]), max(p.maxX, o[0])
		p.minY, p.maxY = min(p.minY, o[1]), max(p.maxY, o[1])
	}
	k := cubeRoot(n)
	if k > 0 {
		p.m = k
	}
	size := PatternRepeat * PatternRepeat * n
	p.u, p.v, p.t = make([]float32, size), make([]float32, size), make([]float32, size)
	p.strata = make([]uint8, 3*size)
	for c := range p.bucket {
		p.bucket[c] = make([]uint8, size)
	}

	rng := splitMix64{state: seed}
	var perm [3][MaxSamples]uint8
	for e0 := 0; e0 < size; e0 += n {
		if k > 0 {
			// Jittered k^3 grid: stratum c = i + k*j + k*k*l goes to a random sample.
			rng.shuffle(perm[0][:n])
			for s := 0; s < n; s++ {
				c := int(perm[0][s])
				p.place(e0+s, [3]int{c % k, c / k % k, c / (k * k)}, &rng)
			}
			continue
		}
		// Latin hypercube: each dimension's n strata hold one sample each.
		for d := range perm {
			rng.shuffle(perm[d][:n])
		}
		for s := 0; s < n; s++ {
			p.place(e0+s, [3]int{int(perm[0][s]), int(perm[1][s]), int(perm[2][s])}, &rng)
		}
	}
	return p, nil
}

// place draws entry e's point jittered inside stratum st (of p.m per dimension).
func (p *Pattern) place(e int, st [3]int, rng *splitMix64) {
	m := p.m
	a := jitter(st[0], m, rng.float64())
	b := jitter(st[1], m, rng.float64())
	t := jitter(st[2], m, rng.float64())
	u, v := concentric(2*float64(a)-1, 2*float64(b)-1)
	p.u[e], p.v[e], p.t[e] = u, v, t
	p.strata[3*e], p.strata[3*e+1], p.strata[3*e+2] = uint8(st[0]), uint8(st[1]), uint8(st[2])
	for c, l := range layouts {
		p.bucket[c][e] = l.bucket(u, v, t)
	}
}

// jitter returns (i + r)/m as a float32 f inside the stratum: i <= f*m < i+1,
// with the product exact (m <= 64, f has 24 bits).
func jitter(i, m int, r float64) float32 {
	f := float32((float64(i) + r) / float64(m))
	for float64(f)*float64(m) >= float64(i+1) {
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	for float64(f)*float64(m) < float64(i) {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

// bucketOf returns the interval of [lo, hi] split into parts equal parts that
// holds x (the last one for x == hi), by exact comparisons with the interval ends.
func bucketOf(x float32, lo, hi float64, parts int) int {
	b := 0
	for i := 1; i < parts; i++ {
		if float64(x) >= bucketEnd(lo, hi, parts, i) {
			b = i
		}
	}
	return b
}

// bucketEnd returns the i-th end of [lo, hi] split into parts (a power of two):
// exact.
func bucketEnd(lo, hi float64, parts, i int) float64 {
	return lo + (hi-lo)*float64(i)/float64(parts)
}

// concentric maps the square [-1, 1)^2 onto the unit disk with Shirley and
// Chiu's concentric map, which keeps strata compact and areas proportional.
func concentric(a, b float64) (u, v float32) {
	if a == 0 && b == 0 {
		return 0, 0
	}
	var r, phi float64
	if math.Abs(a) > math.Abs(b) {
		r, phi = a, math.Pi/4*(b/a)
	} else {
		r, phi = b, math.Pi/2-math.Pi/4*(a/b)
	}
	return float32(r * math.Cos(phi)), float32(r * math.Sin(phi))
}

// cubeRoot returns k when n = k^3, else 0.
func cubeRoot(n int) int {
	for k := 1; k*k*k <= n; k++ {
		if k*k*k == n {
			return k
		}
	}
	return 0
}

// Count returns the number of samples per pixel.
func (p *Pattern) Count() int { return p.n }

// Offset returns the x, y offset of sample s from the pixel centre in 1/256 pixel.
func (p *Pattern) Offset(s int) [2]int16 { return p.xy[s] }

// SamplePosition returns the screen position of sample s of pixel (px, py) in
// 1/256 pixel: (px*256 + 128 + dx, py*256 + 128 + dy), as functional/raster places it.
func (p *Pattern) SamplePosition(px, py, s int) (x, y int64) {
	o := p.xy[s]
	return int64(px)*256 + 128 + int64(o[0]), int64(py)*256 + 128 + int64(o[1])
}

// entry returns the index of sample s of pixel (px, py) in the flat arrays.
func (p *Pattern) entry(px, py, s int) int {
	return ((py&(PatternRepeat-1))*PatternRepeat+(px&(PatternRepeat-1)))*p.n + s
}

// UVT returns the lens position (u, v), u*u + v*v <= 1, and the shutter time t in
// [0, 1) of sample s of pixel (px, py). s must be in [0, Count()).
func (p *Pattern) UVT(px, py, s int) (u, v, t float32) {
	e := p.entry(px, py, s)
	return p.u[e], p.v[e], p.t[e]
}

// Strata returns the strata of sample s of pixel (px, py) in the three
// dimensions of the unit cube the pattern is drawn in: the two square lens
// coordinates (before the map onto the disk) and t, each in [0, StrataPerDim()).
func (p *Pattern) Strata(px, py, s int) [3]int {
	e := 3 * p.entry(px, py, s)
	return [3]int{int(p.strata[e]), int(p.strata[e+1]), int(p.strata[e+2])}
}

// StrataPerDim returns the number of strata per dimension: k when Count() = k^3
// (a jittered grid of k^3 cells), else Count() (a Latin hypercube).
func (p *Pattern) StrataPerDim() int { return p.m }

// splitMix64 is SplitMix64 (Steele, Lea and Flood 2014), the pattern's own
// deterministic generator.
type splitMix64 struct{ state uint64 }

func (r *splitMix64) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// float64 returns a uniform value in [0, 1) with 53 random bits.
func (r *splitMix64) float64() float64 { return float64(r.next()>>11) / (1 << 53) }

// shuffle sets a to a uniformly random permutation of 0..len(a)-1 (Fisher-Yates).
func (r *splitMix64) shuffle(a []uint8) {
	for i := range a {
		a[i] = uint8(i)
	}
	for i := len(a) - 1; i > 0; i-- {
		j := int(r.next() % uint64(i+1))
		a[i], a[j] = a[j], a[i]
	}
}
