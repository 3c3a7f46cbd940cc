package hiz

import "math/bits"

// MaxTileSamples is the largest HiZ tile, in samples.
const MaxTileSamples = 256

// Mask is a set of samples of one HiZ tile: bit i is sample i in the tile's
// sample order (Geometry.Bit).
type Mask [MaxTileSamples / 64]uint64

// Set adds sample i.
func (m *Mask) Set(i int) { m[i>>6] |= 1 << (i & 63) }

// OrBits adds the samples [lo, lo+n) of m that are set in the low n bits of v
// (n <= 64; the run may straddle two words).
func (m *Mask) OrBits(lo int, v uint64, n int) {
	w, sh := lo>>6, uint(lo&63)
	m[w] |= v << sh
	if int(sh)+n > 64 {
		m[w+1] |= v >> (64 - sh)
	}
}

// BitsAt returns the samples [lo, lo+n) of m as the low n bits (n <= 64).
func (m *Mask) BitsAt(lo, n int) uint64 {
	w, sh := lo>>6, uint(lo&63)
	v := m[w] >> sh
	if int(sh)+n > 64 {
		v |= m[w+1] << (64 - sh)
	}
	if n < 64 {
		v &= 1<<uint(n) - 1
	}
	return v
}

// Has reports whether sample i is in m.
func (m *Mask) Has(i int) bool { return m[i>>6]&(1<<(i&63)) != 0 }

// Empty reports whether m has no sample.
func (m Mask) Empty() bool { return m[0]|m[1]|m[2]|m[3] == 0 }

// Count returns the number of samples in m.
func (m Mask) Count() int {
	return bits.OnesCount64(m[0]) + bits.OnesCount64(m[1]) + bits.OnesCount64(m[2]) + bits.OnesCount64(m[3])
}

// And returns m & o.
func (m Mask) And(o Mask) Mask { return Mask{m[0] & o[0], m[1] & o[1], m[2] & o[2], m[3] & o[3]} }

// Or returns m | o.
func (m Mask) Or(o Mask) Mask { return Mask{m[0] | o[0], m[1] | o[1], m[2] | o[2], m[3] | o[3]} }

// AndNot returns m &^ o.
func (m Mask) AndNot(o Mask) Mask {
	return Mask{m[0] &^ o[0], m[1] &^ o[1], m[2] &^ o[2], m[3] &^ o[3]}
}

// Intersects reports whether m and o share a sample.
func (m Mask) Intersects(o Mask) bool { return !m.And(o).Empty() }

// Range returns the mask of samples [lo, hi).
func Range(lo, hi int) Mask {
	var m Mask
	for w := 0; w < len(m); w++ {
		a, b := max(lo, 64*w), min(hi, 64*w+64)
		if a >= b {
			continue
		}
		n := b - a
		if n == 64 {
			m[w] = ^uint64(0)
		} else {
			m[w] = (1<<n - 1) << (a - 64*w)
		}
	}
	return m
}
