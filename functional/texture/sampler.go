package texture

import (
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// AddressMode says how coordinates outside [0, 1] are mapped.
type AddressMode uint8

// Address modes.
const (
	Wrap  AddressMode = iota // repeat: u - floor(u)
	Clamp                    // clamp to the edge texels
	numAddressModes
)

var addressNames = [numAddressModes]string{"Wrap", "Clamp"}

// String returns the mode's name.
func (a AddressMode) String() string {
	if a < numAddressModes {
		return addressNames[a]
	}
	return fmt.Sprintf("AddressMode(%d)", uint8(a))
}

// Valid reports whether a is a known mode.
func (a AddressMode) Valid() bool { return a < numAddressModes }

// ParseAddressMode parses "wrap" or "clamp", case-insensitively.
func ParseAddressMode(s string) (AddressMode, error) {
	for i, n := range addressNames {
		if equalName(s, n) {
			return AddressMode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown address mode %q (want Wrap or Clamp)", s)
}

// Filter is the filtering mode.
type Filter uint8

// Filters.
const (
	Point     Filter = iota // nearest texel of the nearest level
	Bilinear                // bilinear in the nearest level
	Trilinear               // bilinear in two levels, lerped
	numFilters
)

var filterNames = [numFilters]string{"Point", "Bilinear", "Trilinear"}

// String returns the filter's name.
func (f Filter) String() string {
	if f < numFilters {
		return filterNames[f]
	}
	return fmt.Sprintf("Filter(%d)", uint8(f))
}

// Valid reports whether f is a known filter.
func (f Filter) Valid() bool { return f < numFilters }

// ParseFilter parses "point", "bilinear" or "trilinear", case-insensitively.
func ParseFilter(s string) (Filter, error) {
	for i, n := range filterNames {
		if equalName(s, n) {
			return Filter(i), nil
		}
	}
	return 0, fmt.Errorf("unknown filter %q (want Point, Bilinear or Trilinear)", s)
}

// SamplerState is the sampler state of a texture unit. Beware: the zero value has
// MaxLOD 0 and so only ever samples level 0, as in D3D; DefaultSamplerState sets
// the full range.
type SamplerState struct {
	Filter             Filter
	AddressU, AddressV AddressMode
	LODBias            float32
	MinLOD, MaxLOD     float32
}

// DefaultSamplerState returns D3D11's default sampler: trilinear, clamp, no bias,
// LOD range [-MaxFloat32, MaxFloat32].
func DefaultSamplerState() SamplerState {
	return SamplerState{Filter: Trilinear, AddressU: Clamp, AddressV: Clamp,
		MinLOD: -math.MaxFloat32, MaxLOD: math.MaxFloat32}
}

// Validate reports an invalid enum value, naming the field.
func (s *SamplerState) Validate() error {
	if !s.Filter.Valid() {
		return fmt.Errorf("Filter: invalid value %d", uint8(s.Filter))
	}
	if !s.AddressU.Valid() {
		return fmt.Errorf("AddressU: invalid value %d", uint8(s.AddressU))
	}
	if !s.AddressV.Valid() {
		return fmt.Errorf("AddressV: invalid value %d", uint8(s.AddressV))
	}
	return nil
}

// LODMode says where the level of detail comes from.
type LODMode uint8

// LOD modes.
const (
	LODGradient LODMode = iota // from ddx/ddy; the value is a bias added to the sampler's
	LODExplicit                // the value is the LOD
)

// Tap is one texel read by the filter, with its weight in the result.
type Tap struct {
	Level, X, Y int
	Weight      float32
}

// LOD returns the clamped level of detail for a sample (see the package comment). It
// may be negative (magnification) when MinLOD is.
func LOD(t *Texture, s *SamplerState, ddx, ddy geom.Vec2, mode LODMode, value float32) float32 {
	var lod float32
	if mode == LODExplicit {
		lod = value
	} else {
		w, h := float32(t.Width), float32(t.Height)
		rho := max(length(float32(ddx[0]*w), float32(ddx[1]*h)), length(float32(ddy[0]*w), float32(ddy[1]*h)))
		lod = float32(math.Log2(float64(rho)))
		lod = lod + s.LODBias
		lod = lod + value
	}
	if lod != lod {
		lod = 0
	}
	if lod < s.MinLOD {
		lod = s.MinLOD
	}
	hi := float32(len(t.Levels) - 1)
	if s.MaxLOD < hi {
		hi = s.MaxLOD
	}
	if lod > hi {
		lod = hi
	}
	return lod
}

// length returns sqrt(a*a + b*b) with float32 products and sum, root in float64.
func length(a, b float32) float32 {
	return float32(math.Sqrt(float64(float32(a*a) + float32(b*b))))
}

// Sample filters one sample of t at coord with sampler s; ddx and ddy are the
// coordinate's screen-space derivatives (used with LODGradient), value the shader's
// LOD bias (LODGradient) or LOD (LODExplicit).
func Sample(t *Texture, s *SamplerState, coord, ddx, ddy geom.Vec2, mode LODMode, value float32) geom.Vec4 {
	c, _ := sample(t, s, coord, LOD(t, s, ddx, ddy, mode, value), nil, false)
	return c
}

// SampleTaps is Sample that also appends the texels read to taps (see the package
// comment); it does not allocate when taps has room for 8 more taps.
func SampleTaps(t *Texture, s *SamplerState, coord, ddx, ddy geom.Vec2, mode LODMode, value float32, taps []Tap) (geom.Vec4, []Tap) {
	return sample(t, s, coord, LOD(t, s, ddx, ddy, mode, value), taps, true)
}

// SampleLOD filters one sample at an already computed (clamped) LOD, as returned by
// LOD; taps are recorded when record is set.
func SampleLOD(t *Texture, s *SamplerState, coord geom.Vec2, lod float32, taps []Tap, record bool) (geom.Vec4, []Tap) {
	return sample(t, s, coord, lod, taps, record)
}

func sample(t *Texture, s *SamplerState, coord geom.Vec2, lod float32, taps []Tap, record bool) (geom.Vec4, []Tap) {
	last := len(t.Levels) - 1
	switch s.Filter {
	case Trilinear:
		if !(lod > 0) {
			return t.bilinear(s, coord, 0, 1, taps, record)
		}
		l0 := int(lod) // floor for lod > 0
		if l0 >= last {
			return t.bilinear(s, coord, last, 1, taps, record)
		}
		f := lod - float32(l0)
		if f == 0 {
			return t.bilinear(s, coord, l0, 1, taps, record)
		}
		a, taps := t.bilinear(s, coord, l0, 1-f, taps, record)
		b, taps := t.bilinear(s, coord, l0+1, f, taps, record)
		return lerp4(a, b, f), taps
	case Bilinear:
		return t.bilinear(s, coord, nearestLevel(lod, last), 1, taps, record)
	}
	return t.point(s, coord, nearestLevel(lod, last), taps, record)
}

// nearestLevel is round-half-up(lod) clamped to [0, last].
func nearestLevel(lod float32, last int) int {
	if !(lod > 0) {
		return 0
	}
	l := int(float64(lod) + 0.5) // float64: exact, so 0.49999997 stays below 1
	return min(l, last)
}

// normalize applies the address mode to a normalized coordinate: Wrap gives
// u - floor(u) in [0, 1] (1 only by rounding a tiny negative u), Clamp gives
// clamp(u, 0, 1). NaN becomes 0, and so does an infinite u under Wrap.
func normalize(u float32, mode AddressMode) float32 {
	if u != u {
		return 0
	}
	if mode == Clamp {
		return min(max(u, 0), 1)
	}
	if u > math.MaxFloat32 || u < -math.MaxFloat32 {
		return 0
	}
	return u - float32(math.Floor(float64(u)))
}

// pointIndex returns the texel containing normalized coordinate u. u*size reaches
// size only for u = 1 under Clamp or by rounding (a u just below 1, or a tiny negative
// u wrapped); all of these belong to the last texel.
func pointIndex(u float32, size int, mode AddressMode) int {
	u = normalize(u, mode)
	i := int(float32(u * float32(size))) // u >= 0: truncation is floor
	return min(i, size-1)
}

// bilinearIndex returns the two texels around normalized coordinate u and the
// weight of the second.
func bilinearIndex(u float32, size int, mode AddressMode) (i0, i1 int, f float32) {
	u = normalize(u, mode)
	x := float32(u*float32(size)) - 0.5 // in [-0.5, size-0.5]
	fl := float32(math.Floor(float64(x)))
	f = x - fl
	i0 = int(fl)
	i1 = i0 + 1
	if mode == Clamp {
		i0 = max(i0, 0)
		i1 = min(i1, size-1)
		return
	}
	if i0 < 0 {
		i0 += size
	}
	if i1 >= size {
		i1 -= size
	}
	return
}

func (t *Texture) point(s *SamplerState, coord geom.Vec2, level int, taps []Tap, record bool) (geom.Vec4, []Tap) {
	l := &t.Levels[level]
	x := pointIndex(coord[0], l.Width, s.AddressU)
	y := pointIndex(coord[1], l.Height, s.AddressV)
	if record {
		taps = append(taps, Tap{Level: level, X: x, Y: y, Weight: 1})
	}
	return t.fetch(level, x, y), taps
}

func (t *Texture) bilinear(s *SamplerState, coord geom.Vec2, level int, weight float32, taps []Tap, record bool) (geom.Vec4, []Tap) {
	l := &t.Levels[level]
	x0, x1, fx := bilinearIndex(coord[0], l.Width, s.AddressU)
	y0, y1, fy := bilinearIndex(coord[1], l.Height, s.AddressV)
	if record {
		gx, gy := 1-fx, 1-fy
		taps = append(taps,
			Tap{level, x0, y0, float32(float32(gx*gy) * weight)},
			Tap{level, x1, y0, float32(float32(fx*gy) * weight)},
			Tap{level, x0, y1, float32(float32(gx*fy) * weight)},
			Tap{level, x1, y1, float32(float32(fx*fy) * weight)})
	}
	top := lerp4(t.fetch(level, x0, y0), t.fetch(level, x1, y0), fx)
	bottom := lerp4(t.fetch(level, x0, y1), t.fetch(level, x1, y1), fx)
	return lerp4(top, bottom, fy), taps
}

// lerp4 returns a + f*(b-a) per component, rounding every operation to float32.
func lerp4(a, b geom.Vec4, f float32) geom.Vec4 {
	for i := range a {
		a[i] = a[i] + float32(f*(b[i]-a[i]))
	}
	return a
}
