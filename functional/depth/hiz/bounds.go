package hiz

import (
	"math"

	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// zPlane is a triangle's depth plane as raster.Setup computes it: z = Z0 +
// zx*dx + zy*dy over screen offsets (dx, dy) in pixels from vertex 0, with the
// same float32 operations (TestPlaneMatchesRaster checks it reproduces
// Triangle.SampleDepth bit for bit).
type zPlane struct {
	x0, y0 int64
	z0     float32
	zx, zy float32
	zlo    float32
	zhi    float32
}

func planeOf(t *raster.Triangle, cfg *raster.Config) zPlane {
	v := t.V
	const inv256 = 1.0 / 256
	dx1 := float32(int64(v[1].X)-int64(v[0].X)) * inv256
	dy1 := float32(int64(v[1].Y)-int64(v[0].Y)) * inv256
	dx2 := float32(int64(v[2].X)-int64(v[0].X)) * inv256
	dy2 := float32(int64(v[2].Y)-int64(v[0].Y)) * inv256
	det := float32(geom.SignedArea(v[0], v[1], v[2])) * (1.0 / 65536)
	invDet := 1 / det
	dz1 := float32(v[1].Z - v[0].Z)
	dz2 := float32(v[2].Z - v[0].Z)
	return zPlane{x0: int64(v[0].X), y0: int64(v[0].Y), z0: v[0].Z,
		zx:  float32(float32(dz1*dy2)-float32(dz2*dy1)) * invDet,
		zy:  float32(float32(dx1*dz2)-float32(dx2*dz1)) * invDet,
		zlo: min(cfg.MinZ, cfg.MaxZ), zhi: max(cfg.MinZ, cfg.MaxZ)}
}

// at evaluates the plane at (x, y) in 1/256 pixel units exactly as the
// rasterizer does (float32, clamped, NaN to the minimum).
func (p *zPlane) at(x, y int64) float32 {
	const inv256 = 1.0 / 256
	rx := float32(x-p.x0) * inv256
	ry := float32(y-p.y0) * inv256
	z := p.z0 + float32(float32(p.zx*rx)+float32(p.zy*ry))
	if !(z >= p.zlo) {
		return p.zlo
	}
	if z > p.zhi {
		return p.zhi
	}
	return z
}

// PrimitiveBounds returns conservative bounds [lo, hi] (keys of format f) of
// the depth of every sample of triangle t inside the pixels [x0, x1) x [y0,
// y1): the quantized depth that the depth test will see for any such sample
// lies in [lo, hi]. The plane is evaluated in float64 at every sample of the
// rectangle's four corner pixels (where an affine function over the samples
// takes its extremes; with a pattern table, whose samples differ from pixel to
// pixel, at the corners of the box of its offsets instead of the samples) and
// widened by a bound on the rasterizer's float32
// evaluation error (4 ulps of the terms), then clamped to the viewport depth
// range and quantized, rounding outwards. This is the hardware's conservative
// per-tile z-min/z-max of the primitive (a HiZ unit evaluates the plane at the
// tile's corners).
func PrimitiveBounds(t *raster.Triangle, cfg *raster.Config, f depth.Format, x0, y0, x1, y1 int) (lo, hi uint32) {
	p := planeOf(t, cfg)
	qlo, qhi := depth.Quantize(p.zlo, f), depth.Quantize(p.zhi, f)
	if x1 <= x0 || y1 <= y0 || cfg.Samples.Count < 1 {
		return qlo, qhi
	}
	// The extremes of an affine function over the sample positions
	// {pixel corner + sample offset} are at the rectangle's corner pixels, for
	// every sample of the pattern. With per-pixel positions (a pattern table)
	// the corners of the offsets' bounding box stand for the samples: a
	// superset, so the bounds stay conservative.
	offs := cfg.Samples.Offsets[:min(cfg.Samples.Count, raster.MaxSamples)]
	var box [4][2]int16
	if cfg.Samples.Table != nil {
		minX, maxX, minY, maxY := cfg.Samples.Extremes()
		box = [4][2]int16{{minX, minY}, {maxX, minY}, {minX, maxY}, {maxX, maxY}}
		offs = box[:]
	}
	zx, zy, z0 := float64(p.zx), float64(p.zy), float64(p.z0)
	fmin, fmax := math.Inf(1), math.Inf(-1)
	var rmax [2]float64
	px := [2]int64{int64(x0), int64(x1 - 1)}
	py := [2]int64{int64(y0), int64(y1 - 1)}
	for _, o := range offs {
		ox, oy := 128+int64(o[0]), 128+int64(o[1])
		for _, x := range px {
			rx := float64(float32(x*256+ox-p.x0)) / 256
			rmax[0] = max(rmax[0], math.Abs(rx))
			for _, y := range py {
				ry := float64(float32(y*256+oy-p.y0)) / 256
				rmax[1] = max(rmax[1], math.Abs(ry))
				v := z0 + (float64(zx*rx) + float64(zy*ry))
				fmin, fmax = min(fmin, v), max(fmax, v)
			}
		}
	}
	// |computed - exact| <= u*(2|zx*rx| + 2|zy*ry| + |z|) with u = 2^-24 (three
	// roundings of the products and the sums); take twice that.
	errBound := math.Ldexp(float64(math.Abs(zx)*rmax[0])+float64(math.Abs(zy)*rmax[1])+
		max(math.Abs(fmin), math.Abs(fmax))+0x1p-126, -22)
	lo64, hi64 := fmin-errBound, fmax+errBound
	if math.IsNaN(lo64) || math.IsNaN(hi64) || math.IsInf(errBound, 0) {
		return qlo, qhi
	}
	lo32, hi32 := down32(lo64), up32(hi64)
	lo = depth.Quantize(pipeline.ClampDepth(lo32, p.zlo, p.zhi), f)
	hi = depth.Quantize(pipeline.ClampDepth(hi32, p.zlo, p.zhi), f)
	return max(lo, qlo), min(hi, qhi)
}

// down32 returns the largest float32 <= v; up32 the smallest float32 >= v.
func down32(v float64) float32 {
	r := float32(v)
	if float64(r) > v {
		r = math.Nextafter32(r, float32(math.Inf(-1)))
	}
	return r
}

func up32(v float64) float32 {
	r := float32(v)
	if float64(r) < v {
		r = math.Nextafter32(r, float32(math.Inf(1)))
	}
	return r
}
