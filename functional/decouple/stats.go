package decouple

// ShadingRate returns shader invocations per covered pixel: 4*shadingQuads
// (four lanes per shading quad, helpers included) over coveredPixels, the
// primitive-pixel pairs with at least one visible sample. It is 0 when nothing
// is covered.
func ShadingRate(shadingQuads, coveredPixels int64) float64 {
	if coveredPixels == 0 {
		return 0
	}
	return float64(4*shadingQuads) / float64(coveredPixels)
}

// Savings returns the reduction of shading work against idealized
// supersampling, which shades once per visible sample: visibleSamples over
// 4*shadingQuads. It is 0 when nothing was shaded.
func Savings(visibleSamples, shadingQuads int64) float64 {
	if shadingQuads == 0 {
		return 0
	}
	return float64(visibleSamples) / float64(4*shadingQuads)
}

// BlurArea measures the paper's blur area: the mean number of distinct pixels
// one shading sample (a lane of a shading quad) touches. Feed it every (tap,
// pixel) read by a visible sample with Add, one primitive at a time (primitives
// in order: a new Tag.Prim ends the previous one). It keeps only the current
// primitive's sets of shading samples and of (shading sample, pixel) pairs,
// cleared in O(1) when the primitive ends, and two totals. The zero value is
// ready to use.
type BlurArea struct {
	prim    uint32
	started bool
	samples table // grid cells of the current primitive
	pairs   table // (grid cell, pixel) of the current primitive

	shadingSamples int64
	pixelPairs     int64
}

// Add records that a visible sample in pixel (px, py) read lane of shading quad
// tag.
func (b *BlurArea) Add(tag Tag, lane int, px, py int32) {
	if b.samples.keys == nil {
		b.samples, b.pairs = newTable(0), newTable(0)
	}
	if !b.started || tag.Prim != b.prim {
		b.EndPrimitive()
		b.prim, b.started = tag.Prim, true
	}
	i, j := cell(tag, lane)
	c := uint64(uint32(i))<<32 | uint64(uint32(j))
	if s, ok := b.samples.find(key{c}); !ok {
		b.samples.insertAt(s, key{c}, 0)
		if 2*b.samples.n > len(b.samples.keys) {
			b.samples.grow()
		}
		b.shadingSamples++
	}
	p := key{c, uint64(uint32(px))<<32 | uint64(uint32(py))}
	if s, ok := b.pairs.find(p); !ok {
		b.pairs.insertAt(s, p, 0)
		if 2*b.pairs.n > len(b.pairs.keys) {
			b.pairs.grow()
		}
		b.pixelPairs++
	}
}

// EndPrimitive forgets the current primitive's sets (Add calls it when the
// primitive changes; call it at the end of a draw when the next draw may reuse
// primitive ids).
func (b *BlurArea) EndPrimitive() {
	if b.samples.keys != nil {
		b.samples.clear()
		b.pairs.clear()
	}
	b.started = false
}

// ShadingSamples returns the distinct shading samples seen (per primitive,
// summed).
func (b *BlurArea) ShadingSamples() int64 { return b.shadingSamples }

// PixelPairs returns the distinct (shading sample, pixel) pairs seen.
func (b *BlurArea) PixelPairs() int64 { return b.pixelPairs }

// Mean returns PixelPairs / ShadingSamples: the blur area in pixels (1 with no
// blur at rate 1), 0 before any Add.
func (b *BlurArea) Mean() float64 {
	if b.shadingSamples == 0 {
		return 0
	}
	return float64(b.pixelPairs) / float64(b.shadingSamples)
}
