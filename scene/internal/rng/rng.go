// Package rng holds the deterministic random numbers and value noise used by the
// scene generators (procedural meshes, procedural textures, instance jitter).
//
// Everything here is a pure function of its seed: the same seed gives the same
// sequence on every run. There is no global state; every generator is a value
// owned by its caller. The generator is SplitMix64 (Steele, Lea and Flood 2014),
// whose output function is also used as the lattice hash of the value noise.
package rng

import "math"

// Rand is a SplitMix64 generator. The zero value is a valid generator (seed 0).
type Rand struct{ state uint64 }

// New returns a generator seeded with seed.
func New(seed uint64) *Rand { return &Rand{state: seed} }

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	return mix(r.state)
}

// mix is SplitMix64's output function, a bijective 64-bit hash.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Float32 returns a uniform float32 in [0, 1) with 24 random bits.
func (r *Rand) Float32() float32 { return float32(r.Uint64()>>40) / (1 << 24) }

// Range returns a uniform float32 in [lo, hi).
func (r *Rand) Range(lo, hi float32) float32 { return lo + (hi-lo)*r.Float32() }

// Symmetric returns a uniform float32 in [-a, a).
func (r *Rand) Symmetric(a float32) float32 { return a * (2*r.Float32() - 1) }

// Intn returns a uniform int in [0, n); n must be positive (n <= 0 returns 0).
// It uses Lemire's multiply-shift reduction with rejection, so it has no bias.
func (r *Rand) Intn(n int) int {
	if n <= 0 {
		return 0
	}
	bound := uint64(n)
	for {
		hi, lo := mul64(r.Uint64(), bound)
		if lo >= bound || lo >= (-bound)%bound {
			return int(hi)
		}
	}
}

// mul64 returns the 128-bit product of a and b as (hi, lo).
func mul64(a, b uint64) (hi, lo uint64) {
	const mask32 = 1<<32 - 1
	a0, a1 := a&mask32, a>>32
	b0, b1 := b&mask32, b>>32
	w0 := a0 * b0
	t := a1*b0 + w0>>32
	w1 := t & mask32
	w2 := t >> 32
	w1 += a0 * b1
	hi = a1*b1 + w2 + w1>>32
	lo = a * b
	return
}

// Hash2 returns a uniform float32 in [0, 1) that depends only on the lattice
// point (x, y) and the seed.
func Hash2(x, y int32, seed uint64) float32 {
	h := mix(seed*0x9e3779b97f4a7c15 ^ uint64(uint32(x)) ^ uint64(uint32(y))<<32)
	h = mix(h + 0x632be59bd9b4e019)
	return float32(h>>40) / (1 << 24)
}

// ValueNoise2 returns smooth value noise in [0, 1) at (x, y): random values at
// the integer lattice points, blended with the quintic fade 6t^5-15t^4+10t^3 so
// that the first and second derivatives are continuous.
func ValueNoise2(x, y float64, seed uint64) float32 {
	return ValueNoise2Periodic(x, y, 0, seed)
}

// ValueNoise2Periodic is ValueNoise2 with lattice coordinates taken modulo
// period in both directions when period > 0, so that the noise tiles with that
// period (a texture of period lattice cells wraps seamlessly).
func ValueNoise2Periodic(x, y float64, period int32, seed uint64) float32 {
	fx, fy := math.Floor(x), math.Floor(y)
	ix, iy := int32(fx), int32(fy)
	tx, ty := fade(x-fx), fade(y-fy)
	ix1, iy1 := ix+1, iy+1
	if period > 0 {
		ix, iy, ix1, iy1 = wrap(ix, period), wrap(iy, period), wrap(ix1, period), wrap(iy1, period)
	}
	v00 := float64(Hash2(ix, iy, seed))
	v10 := float64(Hash2(ix1, iy, seed))
	v01 := float64(Hash2(ix, iy1, seed))
	v11 := float64(Hash2(ix1, iy1, seed))
	a := v00 + (v10-v00)*tx
	b := v01 + (v11-v01)*tx
	return float32(a + (b-a)*ty)
}

func wrap(i, n int32) int32 {
	i %= n
	if i < 0 {
		i += n
	}
	return i
}

func fade(t float64) float64 { return t * t * t * (t*(t*6-15) + 10) }

// Fractal2 sums octaves of ValueNoise2 (fractional Brownian motion): octave i has
// frequency 2^i and amplitude 0.5^i and its own seed. The result is normalised to
// [0, 1). octaves < 1 counts as 1.
func Fractal2(x, y float64, octaves int, seed uint64) float32 {
	return Fractal2Periodic(x, y, octaves, 0, seed)
}

// Fractal2Periodic is Fractal2 built from ValueNoise2Periodic: octave i has the
// period period*2^i, so the sum tiles with period when period > 0.
func Fractal2Periodic(x, y float64, octaves int, period int32, seed uint64) float32 {
	if octaves < 1 {
		octaves = 1
	}
	var sum, norm float64
	amp, freq := 1.0, 1.0
	for i := 0; i < octaves; i++ {
		sum += amp * float64(ValueNoise2Periodic(x*freq, y*freq, period, seed+uint64(i)*0x51ed27))
		norm += amp
		amp *= 0.5
		freq *= 2
		if period > 0 && period < 1<<30 {
			period *= 2
		}
	}
	return float32(sum / norm)
}
