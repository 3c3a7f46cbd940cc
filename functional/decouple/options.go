package decouple

import (
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// DefaultBarycentricCells is the barycentric grid's resolution when
// Options.BarycentricCells is zero: the unit of barycentric space is divided
// into 32 cells along b1 and along b2, so the triangle holds 32*32/2 = 512 grid
// cells at rate 1 (128 shading quads).
const DefaultBarycentricCells = 32

// MinRate and MaxRate bound Options.Rate (pixels): the grid spacing is held in
// 1/256 pixel, so it cannot be finer than one unit, and 65536 pixels is far
// beyond any screen.
const (
	MinRate = 1.0 / 256
	MaxRate = 65536
)

// Lens is the thin-lens model of the rasterizer (functional/raster5d): a sample
// at lens position (u, v) on the unit disk sees a clip-space vertex moved to
// x' = x + u*Kx*(w-F), y' = y + v*Ky*(w-F). F is the focus distance in clip w;
// Kx and Ky are zero for a pinhole camera.
type Lens struct{ Kx, Ky, F float32 }

// CoC returns the circle-of-confusion radius in pixels of a vertex at clip w
// in viewport vp: the lens moves its screen position by u*Kx*(w-F)/w in NDC, so
// the radius is max(|Kx*(w-F)/w| * vp.Width/2, |Ky*(w-F)/w| * vp.Height/2)
// (the two agree for square pixels). A vertex with w <= 0 (behind the eye) or a
// non-finite w has no defined CoC: CoC returns +Inf.
func (l Lens) CoC(w float32, vp geom.Viewport) float64 {
	if !(w > 0) || math.IsInf(float64(w), 0) {
		return math.Inf(1)
	}
	d := float64(w-l.F) / float64(w)
	rx := math.Abs(float64(l.Kx)*d) * float64(vp.Width) / 2
	ry := math.Abs(float64(l.Ky)*d) * float64(vp.Height) / 2
	return math.Max(rx, ry)
}

// Options are the decoupling options of a draw (the paper's 3.3).
type Options struct {
	// Rate is the shading grid spacing in pixels: 1 shades at pixel centres,
	// 0.5 at four points per pixel, 2 at one point per 2x2 pixels. It is
	// rounded to 1/256 pixel. Zero means 1.
	Rate float32
	// Adaptive makes the spacing max(Rate, AdaptiveScale*minCoC), minCoC the
	// smallest circle-of-confusion radius (Lens.CoC) of the reference view's
	// vertices, unless Discards is set. It has no effect on the barycentric grid.
	Adaptive bool
	// AdaptiveScale is k in the adaptive spacing; zero means 1.
	AdaptiveScale float32
	// Lens is the draw's lens, read only by Adaptive.
	Lens Lens
	// Discards says that the pixel shader can discard (alpha test): its
	// shading decides visibility, so it is never subsampled adaptively.
	Discards bool
	// Bilinear makes Index return the four nearest shading points with bilinear
	// weights; otherwise it returns the nearest one.
	Bilinear bool
	// BarycentricCells is the barycentric grid's resolution: cells per unit of
	// b1 and of b2 at rate 1. Zero means DefaultBarycentricCells.
	BarycentricCells int
}

// Validate checks the options and names the offending field.
func (o Options) Validate() error {
	r := float64(o.Rate)
	if math.IsNaN(r) || (r != 0 && (r < MinRate || r > MaxRate)) {
		return fmt.Errorf("decouple: Options.Rate: %v: must be in [%v, %v] pixels (0 means 1)", o.Rate, MinRate, MaxRate)
	}
	if k := float64(o.AdaptiveScale); math.IsNaN(k) || k < 0 || math.IsInf(k, 0) {
		return fmt.Errorf("decouple: Options.AdaptiveScale: %v: must be finite and >= 0 (0 means 1)", o.AdaptiveScale)
	}
	for _, f := range []struct {
		name string
		v    float32
	}{{"Kx", o.Lens.Kx}, {"Ky", o.Lens.Ky}, {"F", o.Lens.F}} {
		if v := float64(f.v); math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("decouple: Options.Lens.%s: %v: must be finite", f.name, f.v)
		}
	}
	if o.BarycentricCells < 0 || o.BarycentricCells > 1<<16 {
		return fmt.Errorf("decouple: Options.BarycentricCells: %d: must be in [0, 65536] (0 means %d)",
			o.BarycentricCells, DefaultBarycentricCells)
	}
	return nil
}

func (o Options) rate() float64 {
	if o.Rate == 0 {
		return 1
	}
	return float64(o.Rate)
}

func (o Options) adaptiveScale() float64 {
	if o.AdaptiveScale == 0 {
		return 1
	}
	return float64(o.AdaptiveScale)
}

func (o Options) cells() int64 {
	if o.BarycentricCells == 0 {
		return DefaultBarycentricCells
	}
	return int64(o.BarycentricCells)
}
