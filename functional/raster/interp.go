package raster

import (
	"math/bits"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// InterpMode is an attribute's interpolation mode. Centroid is a flag combined
// with Perspective or NoPerspective.
type InterpMode uint8

const (
	Perspective   InterpMode = iota // perspective-correct (D3D "linear")
	NoPerspective                   // screen-space linear
	Flat                            // the leading vertex's value (D3D "constant")

	// CentroidFlag moves the evaluation position of partly covered pixels to a
	// covered sample (see EvalPosition).
	CentroidFlag InterpMode = 0x80
)

// Base returns the mode without the centroid flag.
func (m InterpMode) Base() InterpMode { return m &^ CentroidFlag }

// Centroid reports whether the centroid flag is set.
func (m InterpMode) Centroid() bool { return m&CentroidFlag != 0 }

// String returns the mode as written in shader declarations.
func (m InterpMode) String() string {
	var s string
	switch m.Base() {
	case Perspective:
		s = "perspective"
	case NoPerspective:
		s = "noperspective"
	case Flat:
		s = "flat"
	default:
		s = "InterpMode(?)"
	}
	if m.Centroid() {
		s += " centroid"
	}
	return s
}

const inv256 = 1.0 / 256

// depthAt evaluates the depth plane at (x, y) in 1/256 pixel units and clamps it
// to the viewport's depth range (NaN becomes the range minimum).
func (t *Triangle) depthAt(x, y int64) float32 {
	rx := float32(x-int64(t.V[0].X)) * inv256
	ry := float32(y-int64(t.V[0].Y)) * inv256
	z := t.V[0].Z + float32(float32(t.zx*rx)+float32(t.zy*ry))
	if !(z >= t.zlo) {
		return t.zlo
	}
	if z > t.zhi {
		return t.zhi
	}
	return z
}

// SampleDepth returns the depth at sample s of pixel (px, py): the screen-space
// linear Z plane through the snapped vertices, evaluated in float32 at the sample
// position and clamped to [MinZ, MaxZ]. s must be in [0, Samples()).
func (t *Triangle) SampleDepth(cfg *Config, px, py int, s int) float32 {
	if t.table != nil {
		return t.depthAt(t.tableSamplePosition(px, py, s))
	}
	return t.depthAt(t.patternPosition(px, py, s))
}

// QuadDepths fills z[pixel][sample] for the covered samples of q; other
// entries are left unchanged.
func (t *Triangle) QuadDepths(cfg *Config, q Quad, z *[4][MaxSamples]float32) {
	if t.samples == 0 {
		return
	}
	for cov := q.Coverage; !cov.Empty(); {
		p, s := cov.Pop()
		px, py := int(q.X)+p&1, int(q.Y)+p>>1
		if t.table != nil {
			z[p][s] = t.depthAt(t.tableSamplePosition(px, py, s))
		} else {
			z[p][s] = t.depthAt(t.patternPosition(px, py, s))
		}
	}
}

// Barycentrics returns the weights (b0, b1, b2) of the vertices at screen
// position (x, y) in pixels. Screen-linear weights come from the float edge
// planes set up from the snapped vertices (b1 and b2 from their planes, b0 = 1 -
// b1 - b2). Perspective-correct weights are b_i/w_i renormalised:
// b_i*InvW_i / sum_j b_j*InvW_j. Outside the triangle the weights extrapolate.
func (t *Triangle) Barycentrics(x, y float32, perspective bool) [3]float32 {
	return t.planes.At(x, y, perspective)
}

func (t *Triangle) barycentricsRel(dx, dy float32, perspective bool) [3]float32 {
	return t.planes.Rel(dx, dy, perspective)
}

// EvalPosition returns the screen position (pixels) at which pixel p (0..3) of
// quad q is interpolated under mode: the pixel centre; or, with the centroid flag
// on a partly covered pixel, the covered sample closest to the centre (squared
// distance in 1/256 pixel, ties to the lower sample index). Fully covered pixels
// and helper pixels use the centre.
func (t *Triangle) EvalPosition(cfg *Config, q Quad, p int, mode InterpMode) (x, y float32) {
	px, py := int(q.X)+p&1, int(q.Y)+(p>>1)&1
	n := t.samples
	if mode.Centroid() && mode.Base() != Flat && n > 0 {
		cov := q.Coverage[p&3] & t.fullPixel
		if cov != 0 && cov != t.fullPixel {
			best, bestD := -1, 1<<30
			for ; cov != 0; cov &= cov - 1 {
				s := bits.TrailingZeros64(cov)
				ox, oy := t.sampleOffset(px, py, s)
				d := int(ox*ox + oy*oy)
				if d < bestD {
					best, bestD = s, d
				}
			}
			sx, sy := t.SamplePosition(px, py, best)
			return float32(sx) * inv256, float32(sy) * inv256
		}
	}
	return float32(px) + 0.5, float32(py) + 0.5
}

// Interpolate returns the value of an attribute with per-vertex values a at
// barycentric weights b (from Barycentrics with perspective = mode.Base() ==
// Perspective): b0*a0 + b1*a1 + b2*a2 per component, summed left to right. Flat
// returns a[0]: for a clipped triangle the caller passes the API triangle's
// leading vertex value there.
func Interpolate(mode InterpMode, a *[3]geom.Vec4, b [3]float32) geom.Vec4 {
	if mode.Base() == Flat {
		return a[0]
	}
	var r geom.Vec4
	for k := 0; k < 4; k++ {
		r[k] = float32(b[0]*a[0][k]) + float32(b[1]*a[1][k]) + float32(b[2]*a[2][k])
	}
	return r
}

// InterpolateQuad evaluates the attribute a for pixel p of quad q under mode:
// EvalPosition, Barycentrics with the mode's perspective, then Interpolate.
func (t *Triangle) InterpolateQuad(cfg *Config, q Quad, p int, mode InterpMode, a *[3]geom.Vec4) geom.Vec4 {
	if mode.Base() == Flat {
		return a[0]
	}
	x, y := t.EvalPosition(cfg, q, p, mode)
	return Interpolate(mode, a, t.Barycentrics(x, y, mode.Base() == Perspective))
}

// PixelPosition returns the pixel shader's sv_position for pixel (px, py):
// (px+0.5, py+0.5, Z at the pixel centre clamped to the depth range, 1/w at the
// pixel centre interpolated linearly in screen space).
func (t *Triangle) PixelPosition(px, py int) geom.Vec4 {
	cx, cy := int64(px)*256+128, int64(py)*256+128
	b := t.barycentricsRel(float32(cx-int64(t.V[0].X))*inv256, float32(cy-int64(t.V[0].Y))*inv256, false)
	invW := float32(b[0]*t.V[0].InvW) + float32(b[1]*t.V[1].InvW) + float32(b[2]*t.V[2].InvW)
	return geom.Vec4{float32(px) + 0.5, float32(py) + 0.5, t.depthAt(cx, cy), invW}
}
