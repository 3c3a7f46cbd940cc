package raster5d

import (
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// Lens is the thin lens of appendix A of Ragan-Kelley et al. with the clip z
// folded into w: at lens position (u, v) on the unit disk a clip-space point is
// sheared to
//
//	x' = x + u*Kx*(w - F),   y' = y + v*Ky*(w - F)   (z and w unchanged)
//
// F is the view depth in focus (points with w = F do not move) and Kx, Ky scale
// the aperture radius into clip units (LensFromProjection). Kx = Ky = 0 is a
// pinhole camera.
type Lens struct{ Kx, Ky, F float32 }

// Pinhole reports whether the lens blurs nothing (Kx = Ky = 0).
func (l Lens) Pinhole() bool { return l.Kx == 0 && l.Ky == 0 }

// Validate checks that every field is finite and names the offending one.
func (l Lens) Validate() error {
	for _, f := range []struct {
		name string
		v    float32
	}{{"Kx", l.Kx}, {"Ky", l.Ky}, {"F", l.F}} {
		if math.IsNaN(float64(f.v)) || math.IsInf(float64(f.v), 0) {
			return fmt.Errorf("raster5d: Lens.%s: %v: must be finite", f.name, f.v)
		}
	}
	return nil
}

// LensFromProjection returns the lens of aperture radius radius (view-space
// units) focused at view depth focus (> 0) for the projection proj (row-major,
// column vectors, geom.Perspective): Kx = proj[0][0]*radius/focus and Ky =
// proj[1][1]*radius/focus. The shear then moves a view-space point at depth w by
// u*radius*(w - focus)/focus, the thin-lens parallax between the lens centre and
// the lens point (u*radius, v*radius).
func LensFromProjection(proj geom.Mat4, radius, focus float32) (Lens, error) {
	if !(radius >= 0) || math.IsInf(float64(radius), 0) {
		return Lens{}, fmt.Errorf("raster5d: lens radius %v: must be finite and >= 0", radius)
	}
	if !(focus > 0) || math.IsInf(float64(focus), 0) {
		return Lens{}, fmt.Errorf("raster5d: lens focus %v: must be finite and > 0", focus)
	}
	l := Lens{
		Kx: float32(float32(proj[0][0]*radius) / focus),
		Ky: float32(float32(proj[1][1]*radius) / focus),
		F:  focus,
	}
	return l, l.Validate()
}
