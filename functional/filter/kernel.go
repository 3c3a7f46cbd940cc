package filter

import (
	"fmt"
	"math"
)

// Kernel is a radially symmetric reconstruction filter: its value at distance r
// pixels from the convolution centre, zero at and beyond Radius. Its scale is free:
// the convolution divides by the sum of the coefficients.
type Kernel interface {
	Radius() float64
	At(r float64) float64
}

// MitchellNetravali is the cubic family of Mitchell and Netravali (1988), radius 2,
// used radially: At(r) is the 1D cubic at |r|. The paper's "4x4 Mitchell-Netravali
// (1/3, 1/3)" is {B: 1/3, C: 1/3}.
type MitchellNetravali struct{ B, C float64 }

// Radius is 2 pixels.
func (MitchellNetravali) Radius() float64 { return 2 }

// At evaluates the cubic.
func (k MitchellNetravali) At(r float64) float64 {
	x := math.Abs(r)
	b, c := k.B, k.C
	switch {
	case x < 1:
		return ((12-9*b-6*c)*x*x*x + (-18+12*b+6*c)*x*x + (6 - 2*b)) / 6
	case x < 2:
		return ((-b-6*c)*x*x*x + (6*b+30*c)*x*x + (-12*b-48*c)*x + (8*b + 24*c)) / 6
	}
	return 0
}

// Validate checks that B and C are finite.
func (k MitchellNetravali) Validate() error {
	if math.IsNaN(k.B) || math.IsInf(k.B, 0) {
		return fmt.Errorf("filter: MitchellNetravali.B: %v: must be finite", k.B)
	}
	if math.IsNaN(k.C) || math.IsInf(k.C, 0) {
		return fmt.Errorf("filter: MitchellNetravali.C: %v: must be finite", k.C)
	}
	return nil
}

// Cylinder is 1 inside Radius, 0 outside: the paper's Fig. 8 "diameter 4 cylinder"
// is {Radius: 2}.
type Cylinder struct{ R float64 }

// Radius is R.
func (k Cylinder) Radius() float64 { return k.R }

// At is 1 for |r| < R.
func (k Cylinder) At(r float64) float64 {
	if math.Abs(r) < k.R {
		return 1
	}
	return 0
}

// Box returns the box filter the radial hardware can express: a cylinder of one
// pixel's diameter. A square 1x1 box is not radial, so it cannot be loaded.
func Box() Cylinder { return Cylinder{R: 0.5} }

// Gaussian is exp(-r^2 / (2 Sigma^2)), cut to 0 at R.
type Gaussian struct{ Sigma, R float64 }

// Radius is R.
func (k Gaussian) Radius() float64 { return k.R }

// At evaluates the Gaussian.
func (k Gaussian) At(r float64) float64 {
	if math.Abs(r) >= k.R {
		return 0
	}
	return math.Exp(-r * r / (2 * k.Sigma * k.Sigma))
}

// Validate checks Sigma.
func (k Gaussian) Validate() error {
	if !(k.Sigma > 0) || math.IsInf(k.Sigma, 0) {
		return fmt.Errorf("filter: Gaussian.Sigma: %v: must be > 0 and finite", k.Sigma)
	}
	return nil
}

// Laplacian is the sharpening filter of the paper's Fig. 9 ("Laplacian filter shows
// enhanced edges"), which the paper does not define. Ours is a Gaussian sharpened by
// its own Laplacian:
//
//	At(r) = G(r) * (1 + K * (2/Sigma^2 - r^2/Sigma^4)),  G(r) = exp(-r^2 / (2 Sigma^2)),
//
// that is G - K * (Laplacian of G): the unsharp mask f - K*Lap(f) applied to the
// Gaussian reconstruction. Lap(G) integrates to 0, so the filter keeps G's DC
// gain; it is negative beyond r = Sigma * sqrt(2 + Sigma^2/K) (the negative lobe).
// Cut to 0 at R.
type Laplacian struct{ Sigma, K, R float64 }

// Radius is R.
func (k Laplacian) Radius() float64 { return k.R }

// At evaluates the filter.
func (k Laplacian) At(r float64) float64 {
	if math.Abs(r) >= k.R {
		return 0
	}
	s2 := k.Sigma * k.Sigma
	return math.Exp(-r*r/(2*s2)) * (1 + k.K*(2/s2-r*r/(s2*s2)))
}

// Validate checks Sigma and K.
func (k Laplacian) Validate() error {
	if !(k.Sigma > 0) || math.IsInf(k.Sigma, 0) {
		return fmt.Errorf("filter: Laplacian.Sigma: %v: must be > 0 and finite", k.Sigma)
	}
	if !(k.K >= 0) || math.IsInf(k.K, 0) {
		return fmt.Errorf("filter: Laplacian.K: %v: must be >= 0 and finite", k.K)
	}
	return nil
}

// Scaled stretches a kernel by Factor: At(r) = Kernel.At(r/Factor), radius
// Kernel.Radius()*Factor. Exact accepts any radius (e.g. the 256-sample check's 4x
// filter); the hardware table only radii up to MaxRadius.
type Scaled struct {
	Kernel Kernel
	Factor float64
}

// Radius is the stretched radius.
func (k Scaled) Radius() float64 { return k.Kernel.Radius() * k.Factor }

// At evaluates the stretched kernel.
func (k Scaled) At(r float64) float64 { return k.Kernel.At(r / k.Factor) }

// Validate checks Factor and the inner kernel.
func (k Scaled) Validate() error {
	if k.Kernel == nil {
		return fmt.Errorf("filter: Scaled.Kernel: nil")
	}
	if !(k.Factor > 0) || math.IsInf(k.Factor, 0) {
		return fmt.Errorf("filter: Scaled.Factor: %v: must be > 0 and finite", k.Factor)
	}
	if v, ok := k.Kernel.(interface{ Validate() error }); ok {
		return v.Validate()
	}
	return nil
}

// KernelNames are the names KernelByName accepts, in the order of the docs.
var KernelNames = []string{"mitchell", "cylinder", "laplacian", "gaussian", "box"}

// KernelByName returns a configuration's filter:
//
//	mitchell   MitchellNetravali{B: 1/3, C: 1/3}      (radius 2; paper Fig. 4, 7)
//	cylinder   Cylinder{R: 2}                          (diameter 4; Fig. 8)
//	laplacian  Laplacian{Sigma: 0.5, K: 0.25, R: 2}    (Fig. 9; our definition)
//	gaussian   Gaussian{Sigma: 0.5, R: 2}
//	box        Box() = Cylinder{R: 0.5}
func KernelByName(name string) (Kernel, error) {
	switch name {
	case "mitchell":
		return MitchellNetravali{B: 1.0 / 3, C: 1.0 / 3}, nil
	case "cylinder":
		return Cylinder{R: 2}, nil
	case "laplacian":
		return Laplacian{Sigma: 0.5, K: 0.25, R: 2}, nil
	case "gaussian":
		return Gaussian{Sigma: 0.5, R: 2}, nil
	case "box":
		return Box(), nil
	}
	return nil, fmt.Errorf("filter: kernel %q: unknown (want one of %v)", name, KernelNames)
}

// CheckKernel reports whether the hardware can load k: its own fields (if it has a
// Validate method) and its radius in [MinRadius, MaxRadius].
func CheckKernel(k Kernel) error {
	if k == nil {
		return fmt.Errorf("filter: kernel: nil")
	}
	if v, ok := k.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	return checkRadius(fmt.Sprintf("%T radius", k), k.Radius())
}
