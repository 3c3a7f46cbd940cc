package raster

import "math/bits"

// SampleMaskSamples is the largest number of samples per pixel a SampleMask
// holds: one 64-bit word per pixel of a quad.
const SampleMaskSamples = 64

// SampleMask is the per-sample coverage (or liveness) of a 2x2 quad: word p holds
// the samples of pixel p = (x&1) + 2*(y&1), bit s for sample s. It holds up to 64
// samples per pixel, the stochastic counts of decoupled sampling included, and is
// a value: copying it copies the mask.
type SampleMask [4]uint64

// Empty reports whether no sample is set.
func (m SampleMask) Empty() bool { return m[0]|m[1]|m[2]|m[3] == 0 }

// Count returns the number of samples set.
func (m SampleMask) Count() int {
	return bits.OnesCount64(m[0]) + bits.OnesCount64(m[1]) + bits.OnesCount64(m[2]) + bits.OnesCount64(m[3])
}

// Has reports whether sample s of pixel p is set.
func (m SampleMask) Has(p, s int) bool { return m[p]>>uint(s)&1 != 0 }

// Set sets sample s of pixel p.
func (m *SampleMask) Set(p, s int) { m[p] |= 1 << uint(s) }

// Clear clears sample s of pixel p.
func (m *SampleMask) Clear(p, s int) { m[p] &^= 1 << uint(s) }

// Pop clears the first sample set in m (the lowest sample of the lowest pixel)
// and returns its pixel and sample; m must not be empty. It walks a mask in the
// order pixel by pixel, sample by sample:
//
//	for m := mask; !m.Empty(); {
//		p, s := m.Pop()
//		...
//	}
func (m *SampleMask) Pop() (p, s int) {
	for p = 0; p < 3 && m[p] == 0; p++ {
	}
	w := m[p]
	m[p] = w & (w - 1)
	return p, bits.TrailingZeros64(w)
}

// And returns the samples set in both m and o.
func (m SampleMask) And(o SampleMask) SampleMask {
	return SampleMask{m[0] & o[0], m[1] & o[1], m[2] & o[2], m[3] & o[3]}
}

// AndNot returns the samples of m that are not set in o.
func (m SampleMask) AndNot(o SampleMask) SampleMask {
	return SampleMask{m[0] &^ o[0], m[1] &^ o[1], m[2] &^ o[2], m[3] &^ o[3]}
}

// Or returns the samples set in m or o.
func (m SampleMask) Or(o SampleMask) SampleMask {
	return SampleMask{m[0] | o[0], m[1] | o[1], m[2] | o[2], m[3] | o[3]}
}

// Pixels returns a 4-bit mask of the pixels with at least one sample set
// (bit p for pixel p).
func (m SampleMask) Pixels() uint8 {
	var pm uint8
	for p := range m {
		if m[p] != 0 {
			pm |= 1 << uint(p)
		}
	}
	return pm
}

// HelperPixels returns the 4-bit mask of the pixels of m with no sample set:
// in a quad's coverage, the helper pixels that are shaded only to provide
// derivatives.
func (m SampleMask) HelperPixels() uint8 { return ^m.Pixels() & 15 }

// FullPixels returns the mask with every one of the first samples samples set in
// the pixels of pm (bit p for pixel p).
func FullPixels(pm uint8, samples int) SampleMask {
	var all uint64 = ^uint64(0)
	if samples < 64 {
		all = 1<<uint(samples) - 1
	}
	var m SampleMask
	for p := range m {
		if pm>>uint(p)&1 != 0 {
			m[p] = all
		}
	}
	return m
}
