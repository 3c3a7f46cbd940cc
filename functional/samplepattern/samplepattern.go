package samplepattern

import (
	"fmt"
	"math/rand/v2"
)

// The pattern RAM's dimensions.
const (
	Entries    = 64  // table entries, each a 2x2 pixel quad
	QuadPixels = 4   // pixels of an entry: pixel index (px&1) + 2*(py&1)
	MaxSamples = 16  // samples per pixel
	Period     = 128 // pixels: the pattern repeats every Period x Period pixels
	OffsetBits = 6   // bits of each offset coordinate
	MaxOff     = 1<<OffsetBits - 1
)

// Table is the contents of the pattern RAM: Off[entry][pixel][sample] is the
// sample's (x, y) offset o in 1/64 pixel from the pixel's corner (0..63); the
// sample sits at corner + (o+0.5)/64.
type Table struct {
	Off [Entries][QuadPixels][MaxSamples][2]uint8
}

// Entry returns the table entry of pixel (px, py): the 2D hash of its quad
// (px>>1, py>>1) mod 64 (see the package documentation). Any int coordinates
// work, negative ones included.
func Entry(px, py int) int {
	qx, qy := uint8(px>>1)&63, uint8(py>>1)&63
	return int(feistel6(qx, 0, 0) ^ feistel6(qy*37&63, 2, 6))
}

// feistel6 is a permutation of 0..63: three Feistel rounds on the 3-bit halves
// of v with round keys k1, k2, k1.
func feistel6(v, k1, k2 uint8) uint8 {
	l, r := v>>3, v&7
	r ^= round3(l, k1)
	l ^= round3(r, k2)
	r ^= round3(l, k1)
	return l<<3 | r
}

// round3 is the Feistel round function on 3 bits: (rotl1 & rotl2) ^ u ^ k.
func round3(u, k uint8) uint8 {
	r1 := (u<<1 | u>>2) & 7
	r2 := (u<<2 | u>>1) & 7
	return r1&r2 ^ u ^ k
}

// Offset returns sample s (0..15; s is taken mod 16) of pixel (px, py) as an
// offset from the pixel centre in 1/256 pixel: 4*o + 2 - 128, in [-126, 126].
func (t *Table) Offset(px, py, s int) (ox, oy int16) {
	o := &t.Off[Entry(px, py)][px&1+2*(py&1)][s&(MaxSamples-1)]
	return 4*int16(o[0]) - 126, 4*int16(o[1]) - 126
}

// Extremes returns the bounds of the offsets (1/256 pixel from the pixel
// centre, as Offset) of the first n samples (clamped to 1..16) of every pixel of
// every entry: the rasterizer's conservative sample bounds for a density n.
func (t *Table) Extremes(n int) (minX, maxX, minY, maxY int16) {
	n = min(max(n, 1), MaxSamples)
	lo, hi := [2]uint8{255, 255}, [2]uint8{0, 0}
	for e := range t.Off {
		for p := range t.Off[e] {
			for _, o := range t.Off[e][p][:n] {
				for k := 0; k < 2; k++ {
					lo[k], hi[k] = min(lo[k], o[k]), max(hi[k], o[k])
				}
			}
		}
	}
	return 4*int16(lo[0]) - 126, 4*int16(hi[0]) - 126, 4*int16(lo[1]) - 126, 4*int16(hi[1]) - 126
}

// Validate checks a table that comes from outside (a loaded configuration):
// every offset must fit in 6 bits.
func (t *Table) Validate() error {
	for e := range t.Off {
		for p := range t.Off[e] {
			for s, o := range t.Off[e][p] {
				for k, v := range o {
					if v > MaxOff {
						return fmt.Errorf("samplepattern: Table.Off[%d][%d][%d][%d]: %d: must be in [0, %d]", e, p, s, k, v, MaxOff)
					}
				}
			}
		}
	}
	return nil
}

// pcgStream is the PCG stream constant Generate pairs with the seed.
const pcgStream = 0x5a6e_5041_5454_524e

// Generate returns the table of seed: per pixel a 4x4 stratified jittered grid
// of 6-bit offsets in the prefix-preserving order of the package documentation.
func Generate(seed uint64) *Table {
	rng := rand.New(rand.NewPCG(seed, pcgStream))
	t := new(Table)
	for e := range t.Off {
		for p := range t.Off[e] {
			fi, fj := uint8(rng.IntN(4)), uint8(rng.IntN(4)) // stratum relabelling
			swap := rng.IntN(2) == 1
			for k := range t.Off[e][p] {
				i, j := stratum(k)
				i, j = i^fi, j^fj
				if swap {
					i, j = j, i
				}
				t.Off[e][p][k] = [2]uint8{16*i + uint8(rng.IntN(16)), 16*j + uint8(rng.IntN(16))}
			}
		}
	}
	return t
}

// stratum returns the stratum column and row (0..3 each; a stratum is 16x16
// offsets) of sample k (0..15) before a pixel's relabelling:
// i = 2*k0 + k2, j = 2*(k0^k1) + (k2^k3) for the bits k3 k2 k1 k0 of k.
func stratum(k int) (i, j uint8) {
	b := func(n int) uint8 { return uint8(k>>n) & 1 }
	return 2*b(0) + b(2), 2*(b(0)^b(1)) + (b(2) ^ b(3))
}
