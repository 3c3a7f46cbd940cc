package texture

import (
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/enum"
)

// AddressMode says how coordinates outside [0, 1] are mapped.
type AddressMode uint8

// Address modes (D3D11 TEXTURE_ADDRESS_MODE).
const (
	Wrap       AddressMode = iota // repeat: u - floor(u)
	Clamp                         // clamp to the edge texels
	Mirror                        // repeat, every other copy mirrored
	Border                        // texels outside the texture read SamplerState.BorderColor
	MirrorOnce                    // mirror once around 0, then clamp: min(|u|, 1)
	numAddressModes
)

var addressNames = enum.Names[AddressMode]{Type: "AddressMode", What: "address mode", Names: []string{"Wrap", "Clamp", "Mirror", "Border", "MirrorOnce"}}

// String returns the mode's name.
func (a AddressMode) String() string { return addressNames.String(a) }

// Valid reports whether a is a known mode.
func (a AddressMode) Valid() bool { return addressNames.Valid(a) }

// ParseAddressMode parses "wrap", "clamp", "mirror", "border" or
// "mirror_once", ignoring case, '_' and '-'.
func ParseAddressMode(s string) (AddressMode, error) { return addressNames.Parse(s) }

// Filter is the filtering mode.
type Filter uint8

// Filters.
const (
	Point       Filter = iota // nearest texel of the nearest level
	Bilinear                  // linear in the nearest level (2x2 texels; 2x2x2 for 3D textures)
	Trilinear                 // linear in two levels, lerped
	Anisotropic               // up to MaxAnisotropy trilinear probes along the major axis of the footprint
	numFilters
)

var filterNames = enum.Names[Filter]{Type: "Filter", What: "filter", Names: []string{"Point", "Bilinear", "Trilinear", "Anisotropic"}}

// String returns the filter's name.
func (f Filter) String() string { return filterNames.String(f) }

// Valid reports whether f is a known filter.
func (f Filter) Valid() bool { return filterNames.Valid(f) }

// ParseFilter parses "point", "bilinear", "trilinear" or "anisotropic",
// case-insensitively.
func ParseFilter(s string) (Filter, error) { return filterNames.Parse(s) }

// Limits of the sampler.
const (
	MaxAnisotropy = 16
	// MaxTaps bounds the taps of one sample: 16 anisotropic probes of a
	// trilinear 3D footprint (2 levels of 2x2x2 texels).
	MaxTaps = MaxAnisotropy * 16
)

// SamplerState is the sampler state of a texture unit. Beware: the zero value has
// MaxLOD 0 and so only ever samples level 0, as in D3D; DefaultSamplerState sets
// the full range.
type SamplerState struct {
	Filter             Filter
	AddressU, AddressV AddressMode
	LODBias            float32
	MinLOD, MaxLOD     float32
	AddressW           AddressMode // the third axis of 3D textures
	// MaxAnisotropy bounds the probes of the Anisotropic filter, 1..16 (0 is
	// taken as 1: trilinear).
	MaxAnisotropy int
	// BorderColor is what texels outside the texture read under Border (not
	// converted: it is already a filtered-space value).
	BorderColor geom.Vec4
}

// DefaultSamplerState returns D3D11's default sampler: trilinear, clamp, no bias,
// LOD range [-MaxFloat32, MaxFloat32], MaxAnisotropy 16, border (1, 1, 1, 1).
func DefaultSamplerState() SamplerState {
	return SamplerState{Filter: Trilinear, AddressU: Clamp, AddressV: Clamp, AddressW: Clamp,
		MinLOD: -math.MaxFloat32, MaxLOD: math.MaxFloat32, MaxAnisotropy: MaxAnisotropy,
		BorderColor: geom.Vec4{1, 1, 1, 1}}
}

// Validate reports an invalid value, naming the field.
func (s *SamplerState) Validate() error {
	switch {
	case !s.Filter.Valid():
		return fmt.Errorf("Filter: invalid value %d", uint8(s.Filter))
	case !s.AddressU.Valid():
		return fmt.Errorf("AddressU: invalid value %d", uint8(s.AddressU))
	case !s.AddressV.Valid():
		return fmt.Errorf("AddressV: invalid value %d", uint8(s.AddressV))
	case !s.AddressW.Valid():
		return fmt.Errorf("AddressW: invalid value %d", uint8(s.AddressW))
	case s.MaxAnisotropy < 0 || s.MaxAnisotropy > MaxAnisotropy:
		return fmt.Errorf("MaxAnisotropy: %d out of range [1, %d]", s.MaxAnisotropy, MaxAnisotropy)
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

// Tap is one texel read by the filter, with its weight in the result. Z is
// the slice (array layer, cube face, or 3D depth slice). A Border tap lies
// outside the texture under the Border address mode: it reads the border
// colour, not memory (X, Y, Z are then the unwrapped indices).
type Tap struct {
	Level, X, Y, Z int
	Weight         float32
	Border         bool
}

// TexelQuads returns the steps of a filter pipeline that reads one 2x2 texel
// quad per step (Giesen 2011, part 4: "Trilinear filtering? Two bilinear
// samples"; anisotropic filtering loops "through the full bilinear/trilinear
// pipeline several times") for one sample whose recorded taps are taps:
// ceil(len(taps)/4), at least 1. A bilinear footprint is 1, a trilinear one 2
// (1 when only one level is read), a 3D footprint (2x2x2) 2 per level, an
// anisotropic sample the sum over its probes, a point sample 1. It counts the
// taps the filter took (Border taps included: the step happens), so it costs
// nothing beyond recording them.
func TexelQuads(taps []Tap) int { return max(1, (len(taps)+3)/4) }

// Coords are one sample's coordinates and their screen-space derivatives as
// the shader sends them: xy for Tex2D, xy and the layer in z for Tex2DArray,
// the direction xyz for TexCube, uvw for Tex3D.
type Coords struct {
	P, DDX, DDY geom.Vec3
}

// footprint is a resolved sample: normalized coordinates, slice, LOD, and the
// anisotropic probes.
type footprint struct {
	c      [3]float32 // (u, v, w), or the face's (s, t) for cubes
	slice  int        // array layer or cube face
	dims   int        // 2 or 3 filtered axes
	cube   bool
	lod    float32
	probes int
	axis   [3]float32 // the probe axis (the major gradient) in normalized coordinates
}

// resolve computes the footprint of a sample (see the package comment).
func (t *Texture) resolve(s *SamplerState, c *Coords, mode LODMode, value float32) footprint {
	f := footprint{dims: 2, probes: 1}
	gx, gy := [3]float32{c.DDX[0], c.DDX[1]}, [3]float32{c.DDY[0], c.DDY[1]}
	w, h, d := float32(t.Width), float32(t.Height), float32(1)
	f.c = [3]float32{c.P[0], c.P[1]}
	switch t.Type {
	case Tex2DArray:
		f.slice = layerIndex(c.P[2], t.Levels[0].Depth)
	case Tex3D:
		f.dims, f.c[2], gx[2], gy[2], d = 3, c.P[2], c.DDX[2], c.DDY[2], float32(t.Depth)
	case TexCube:
		f.cube = true
		f.slice, f.c, gx, gy = cubeProject(c)
	}
	var lod float32
	if mode == LODExplicit {
		lod = value
	} else {
		var lx, ly float32
		if f.dims == 3 {
			lx = length3(float32(gx[0]*w), float32(gx[1]*h), float32(gx[2]*d))
			ly = length3(float32(gy[0]*w), float32(gy[1]*h), float32(gy[2]*d))
		} else {
			lx = length(float32(gx[0]*w), float32(gx[1]*h))
			ly = length(float32(gy[0]*w), float32(gy[1]*h))
		}
		rho := max(lx, ly)
		if s.Filter == Anisotropic && s.MaxAnisotropy > 1 {
			pMin := min(lx, ly)
			n := s.MaxAnisotropy
			if ratio := float32(rho / pMin); ratio != ratio {
				n = 1 // no footprint at all (0/0)
			} else if ratio < float32(n) {
				n = max(1, int(math.Ceil(float64(ratio))))
			}
			f.probes = n
			rho = float32(rho / float32(n))
			f.axis = gx
			if lx < ly {
				f.axis = gy
			}
		}
		lod = float32(math.Log2(float64(rho)))
		lod = lod + s.LODBias
		lod = lod + value
	}
	f.lod = clampLOD(lod, s, len(t.Levels))
	return f
}

func clampLOD(lod float32, s *SamplerState, levels int) float32 {
	if lod != lod {
		lod = 0
	}
	if lod < s.MinLOD {
		lod = s.MinLOD
	}
	hi := float32(levels - 1)
	if s.MaxLOD < hi {
		hi = s.MaxLOD
	}
	if lod > hi {
		lod = hi
	}
	return lod
}

// layerIndex is round-half-up(z) clamped to [0, layers-1]; NaN is layer 0.
func layerIndex(z float32, layers int) int {
	if !(z > 0) {
		return 0
	}
	l := math.Floor(float64(z) + 0.5)
	if l >= float64(layers-1) {
		return layers - 1
	}
	return int(l)
}

// cubeProject selects the face of direction c.P and projects the direction and
// its derivatives onto it (see the package comment).
func cubeProject(c *Coords) (face int, st, dx, dy [3]float32) {
	x, y, z := c.P[0], c.P[1], c.P[2]
	ax, ay, az := absf(x), absf(y), absf(z)
	// sc, tc, ma and the component indices/signs their derivatives come from.
	var sc, tc, ma float32
	var si, ti, mi int
	var ss, ts float32
	switch {
	case ax >= ay && ax >= az:
		mi, ti, ts = 0, 1, -1
		if x < 0 {
			face, si, ss = 1, 2, 1
		} else {
			face, si, ss = 0, 2, -1
		}
	case ay >= az:
		mi, si, ss = 1, 0, 1
		if y < 0 {
			face, ti, ts = 3, 2, -1
		} else {
			face, ti, ts = 2, 2, 1
		}
	default:
		mi, ti, ts = 2, 1, -1
		if z < 0 {
			face, si, ss = 5, 0, -1
		} else {
			face, si, ss = 4, 0, 1
		}
	}
	sc, tc, ma = ss*c.P[si], ts*c.P[ti], c.P[mi]
	am := absf(ma)
	if !(am > 0) || am > math.MaxFloat32 {
		return 0, [3]float32{0.5, 0.5}, dx, dy
	}
	sgn := float32(1)
	if ma < 0 {
		sgn = -1
	}
	st = [3]float32{faceCoord(sc, am), faceCoord(tc, am)}
	am2 := float32(am * am)
	deriv := func(d geom.Vec3) [3]float32 {
		dam := sgn * d[mi]
		dsc, dtc := ss*d[si], ts*d[ti]
		return [3]float32{
			float32(0.5 * float32(float32(float32(dsc*am)-float32(sc*dam))/am2)),
			float32(0.5 * float32(float32(float32(dtc*am)-float32(tc*dam))/am2)),
		}
	}
	return face, st, deriv(c.DDX), deriv(c.DDY)
}

// faceCoord maps sc/|ma| in [-1, 1] to [0, 1]: (sc/|ma| + 1) * 0.5, clamped;
// NaN gives 0.5.
func faceCoord(sc, am float32) float32 {
	v := float32(float32(float32(sc/am)+1) * 0.5)
	if v != v {
		return 0.5
	}
	return min(max(v, 0), 1)
}

func absf(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// length returns sqrt(a*a + b*b) with float32 products and sum, root in float64.
func length(a, b float32) float32 {
	return float32(math.Sqrt(float64(float32(a*a) + float32(b*b))))
}

func length3(a, b, c float32) float32 {
	return float32(math.Sqrt(float64(float32(float32(a*a)+float32(b*b)) + float32(c*c))))
}

// LODAt returns the clamped level of detail the filter uses for a sample (for
// Anisotropic, the LOD of its probes). It may be negative (magnification) when
// MinLOD is.
func LODAt(t *Texture, s *SamplerState, c *Coords, mode LODMode, value float32) float32 {
	return t.resolve(s, c, mode, value).lod
}

// LOD is LODAt for 2D coordinates at the origin (enough for Tex2D and arrays).
func LOD(t *Texture, s *SamplerState, ddx, ddy geom.Vec2, mode LODMode, value float32) float32 {
	c := Coords{DDX: geom.Vec3{ddx[0], ddx[1]}, DDY: geom.Vec3{ddy[0], ddy[1]}}
	return t.resolve(s, &c, mode, value).lod
}

// SampleCoords filters one sample of t with sampler s at the coordinates c;
// value is the shader's LOD bias (LODGradient) or LOD (LODExplicit). When
// record is set it appends the texels read to taps (see the package comment);
// it does not allocate when taps has room for MaxTaps more.
func SampleCoords(t *Texture, s *SamplerState, c *Coords, mode LODMode, value float32, taps []Tap, record bool) (geom.Vec4, []Tap) {
	f := t.resolve(s, c, mode, value)
	return t.sample(s, &f, taps, record)
}

// Sample filters one sample of a 2D texture at coord with sampler s; ddx and
// ddy are the coordinate's screen-space derivatives (used with LODGradient),
// value the shader's LOD bias (LODGradient) or LOD (LODExplicit).
func Sample(t *Texture, s *SamplerState, coord, ddx, ddy geom.Vec2, mode LODMode, value float32) geom.Vec4 {
	c := coords2(coord, ddx, ddy)
	v, _ := SampleCoords(t, s, &c, mode, value, nil, false)
	return v
}

// SampleTaps is Sample that also appends the texels read to taps (see the package
// comment); it does not allocate when taps has room for MaxTaps more taps.
func SampleTaps(t *Texture, s *SamplerState, coord, ddx, ddy geom.Vec2, mode LODMode, value float32, taps []Tap) (geom.Vec4, []Tap) {
	c := coords2(coord, ddx, ddy)
	return SampleCoords(t, s, &c, mode, value, taps, true)
}

// SampleLOD filters one sample at an already computed (clamped) LOD, as returned by
// LOD, without anisotropy; taps are recorded when record is set.
func SampleLOD(t *Texture, s *SamplerState, coord geom.Vec2, lod float32, taps []Tap, record bool) (geom.Vec4, []Tap) {
	c := coords2(coord, geom.Vec2{}, geom.Vec2{})
	f := t.resolve(s, &c, LODExplicit, 0)
	f.lod = lod
	return t.sample(s, &f, taps, record)
}

func coords2(coord, ddx, ddy geom.Vec2) Coords {
	return Coords{P: geom.Vec3{coord[0], coord[1]}, DDX: geom.Vec3{ddx[0], ddx[1]}, DDY: geom.Vec3{ddy[0], ddy[1]}}
}

func (t *Texture) sample(s *SamplerState, f *footprint, taps []Tap, record bool) (geom.Vec4, []Tap) {
	last := len(t.Levels) - 1
	switch s.Filter {
	case Point:
		return t.filterLevel(s, f, f.c, nearestLevel(f.lod, last), 1, false, taps, record)
	case Bilinear:
		return t.filterLevel(s, f, f.c, nearestLevel(f.lod, last), 1, true, taps, record)
	}
	if f.probes <= 1 {
		return t.trilinear(s, f, f.c, 1, taps, record)
	}
	n := f.probes
	inv := float32(1) / float32(n)
	var acc geom.Vec4
	for i := 0; i < n; i++ {
		off := float32(float32(2*i+1-n) / float32(2*n))
		var p [3]float32
		for k := 0; k < f.dims; k++ {
			p[k] = f.c[k] + float32(f.axis[k]*off)
		}
		if f.cube {
			p[0], p[1] = min(max(p[0], 0), 1), min(max(p[1], 0), 1)
		}
		var v geom.Vec4
		v, taps = t.trilinear(s, f, p, inv, taps, record)
		if i == 0 {
			acc = v
			continue
		}
		for k := range acc {
			acc[k] = acc[k] + v[k]
		}
	}
	for k := range acc {
		acc[k] = float32(acc[k] * inv)
	}
	return acc, taps
}

// trilinear filters linearly in the two levels around the LOD and lerps them
// by frac(lod); weight scales the recorded tap weights.
func (t *Texture) trilinear(s *SamplerState, f *footprint, c [3]float32, weight float32, taps []Tap, record bool) (geom.Vec4, []Tap) {
	last := len(t.Levels) - 1
	lod := f.lod
	if !(lod > 0) {
		return t.filterLevel(s, f, c, 0, weight, true, taps, record)
	}
	l0 := int(lod) // floor for lod > 0
	if l0 >= last {
		return t.filterLevel(s, f, c, last, weight, true, taps, record)
	}
	fr := lod - float32(l0)
	if fr == 0 {
		return t.filterLevel(s, f, c, l0, weight, true, taps, record)
	}
	a, taps := t.filterLevel(s, f, c, l0, float32((1-fr)*weight), true, taps, record)
	b, taps := t.filterLevel(s, f, c, l0+1, float32(fr*weight), true, taps, record)
	return lerp4(a, b, fr), taps
}

// nearestLevel is round-half-up(lod) clamped to [0, last].
func nearestLevel(lod float32, last int) int {
	if !(lod > 0) {
		return 0
	}
	l := int(float64(lod) + 0.5) // float64: exact, so 0.49999997 stays below 1
	return min(l, last)
}

// normalize applies Wrap or Clamp to a normalized coordinate: Wrap gives
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

// mirrorReduce maps u into [0, 2] with period 2: u - 2*floor(u/2) (NaN and
// infinities give 0).
func mirrorReduce(u float32) float32 {
	if u != u || u > math.MaxFloat32 || u < -math.MaxFloat32 {
		return 0
	}
	h := float32(u * 0.5)
	r := u - float32(2*float32(math.Floor(float64(h))))
	return min(max(r, 0), 2)
}

// mirrorOnce is min(|u|, 1) (NaN gives 0).
func mirrorOnce(u float32) float32 {
	if u != u {
		return 0
	}
	return min(absf(u), 1)
}

// mirrorIndex maps a texel index into [0, size) with period 2*size, every
// other period reversed.
func mirrorIndex(i, size int) int {
	m := i % (2 * size)
	if m < 0 {
		m += 2 * size
	}
	if m >= size {
		m = 2*size - 1 - m
	}
	return m
}

// pointIndex returns the texel containing normalized coordinate u under Wrap or
// Clamp. u*size reaches size only for u = 1 under Clamp or by rounding (a u just
// below 1, or a tiny negative u wrapped); all of these belong to the last texel.
func pointIndex(u float32, size int, mode AddressMode) int {
	u = normalize(u, mode)
	i := int(float32(u * float32(size))) // u >= 0: truncation is floor
	return min(i, size-1)
}

// nearestIndex returns the texel of normalized coordinate u along an axis of
// size texels under mode, and whether it lies outside the texture (Border).
func nearestIndex(u float32, size int, mode AddressMode) (int, bool) {
	switch mode {
	case Mirror:
		r := mirrorReduce(u)
		i := min(int(float32(r*float32(size))), 2*size-1)
		return mirrorIndex(i, size), false
	case MirrorOnce:
		return pointIndex(mirrorOnce(u), size, Clamp), false
	case Border:
		if u != u {
			u = 0
		}
		p := min(max(float32(u*float32(size)), -1), float32(size))
		i := int(math.Floor(float64(p)))
		return i, i < 0 || i >= size
	}
	return pointIndex(u, size, mode), false
}

// linearIndices returns the two texels around normalized coordinate u under
// mode, the weight of the second, and whether each lies outside the texture
// (Border). With cube set, u is a face coordinate in [0, 1] and the indices are
// not wrapped: they may be -1 or size (the neighbouring face's texels).
func linearIndices(u float32, size int, mode AddressMode, cube bool) (i0, i1 int, f float32, out0, out1 bool) {
	var x float32
	switch {
	case cube:
		x = float32(u*float32(size)) - 0.5
	case mode == Mirror:
		x = float32(mirrorReduce(u)*float32(size)) - 0.5 // in [-0.5, 2*size-0.5]
	case mode == MirrorOnce:
		return bilinearIndex(mirrorOnce(u), size, Clamp)
	case mode == Border:
		if u != u {
			u = 0
		}
		x = min(max(float32(u*float32(size))-0.5, -2), float32(size+1))
	default:
		return bilinearIndex(u, size, mode)
	}
	fl := float32(math.Floor(float64(x)))
	f = x - fl
	i0 = int(fl)
	i1 = i0 + 1
	switch {
	case mode == Mirror && !cube:
		i0, i1 = mirrorIndex(i0, size), mirrorIndex(i1, size)
	case mode == Border && !cube:
		out0, out1 = i0 < 0 || i0 >= size, i1 < 0 || i1 >= size
	}
	return
}

// bilinearIndex returns the two texels around normalized coordinate u under
// Wrap or Clamp and the weight of the second.
func bilinearIndex(u float32, size int, mode AddressMode) (i0, i1 int, f float32, out0, out1 bool) {
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

// filterLevel filters one level at normalized coordinates c: nearest texel, or
// linear over 2x2 (2x2x2 for 3D) texels. weight scales the recorded taps.
func (t *Texture) filterLevel(s *SamplerState, f *footprint, c [3]float32, level int, weight float32, linear bool,
	taps []Tap, record bool) (geom.Vec4, []Tap) {
	l := &t.Levels[level]
	z := f.slice
	if !linear {
		if f.cube { // face coordinates are in [0, 1]
			x, y := pointIndex(c[0], l.Width, Clamp), pointIndex(c[1], l.Height, Clamp)
			return t.tap(s, level, x, y, z, false, weight, taps, record)
		}
		x, ox := nearestIndex(c[0], l.Width, s.AddressU)
		y, oy := nearestIndex(c[1], l.Height, s.AddressV)
		oz := false
		if f.dims == 3 {
			z, oz = nearestIndex(c[2], l.Depth, s.AddressW)
		}
		return t.tap(s, level, x, y, z, ox || oy || oz, weight, taps, record)
	}
	x0, x1, fx, ox0, ox1 := linearIndices(c[0], l.Width, s.AddressU, f.cube)
	y0, y1, fy, oy0, oy1 := linearIndices(c[1], l.Height, s.AddressV, f.cube)
	if f.dims == 2 {
		gx, gy := 1-fx, 1-fy
		var v00, v10, v01, v11 geom.Vec4
		v00, taps = t.tap(s, level, x0, y0, z, ox0 || oy0, float32(float32(gx*gy)*weight), taps, record)
		v10, taps = t.tap(s, level, x1, y0, z, ox1 || oy0, float32(float32(fx*gy)*weight), taps, record)
		v01, taps = t.tap(s, level, x0, y1, z, ox0 || oy1, float32(float32(gx*fy)*weight), taps, record)
		v11, taps = t.tap(s, level, x1, y1, z, ox1 || oy1, float32(float32(fx*fy)*weight), taps, record)
		top := lerp4(v00, v10, fx)
		bottom := lerp4(v01, v11, fx)
		return lerp4(top, bottom, fy), taps
	}
	z0, z1, fz, oz0, oz1 := linearIndices(c[2], l.Depth, s.AddressW, false)
	var planes [2]geom.Vec4
	for k, zz := range [2]int{z0, z1} {
		oz, wz := oz0, 1-fz
		if k == 1 {
			oz, wz = oz1, fz
		}
		gx, gy := 1-fx, 1-fy
		var v00, v10, v01, v11 geom.Vec4
		v00, taps = t.tap(s, level, x0, y0, zz, ox0 || oy0 || oz, float32(float32(float32(gx*gy)*wz)*weight), taps, record)
		v10, taps = t.tap(s, level, x1, y0, zz, ox1 || oy0 || oz, float32(float32(float32(fx*gy)*wz)*weight), taps, record)
		v01, taps = t.tap(s, level, x0, y1, zz, ox0 || oy1 || oz, float32(float32(float32(gx*fy)*wz)*weight), taps, record)
		v11, taps = t.tap(s, level, x1, y1, zz, ox1 || oy1 || oz, float32(float32(float32(fx*fy)*wz)*weight), taps, record)
		planes[k] = lerp4(lerp4(v00, v10, fx), lerp4(v01, v11, fx), fy)
	}
	return lerp4(planes[0], planes[1], fz), taps
}

// tap reads one texel (the border colour when outside), remapping a cube
// texel beyond the face's edge onto the neighbouring face, and records it.
func (t *Texture) tap(s *SamplerState, level, x, y, z int, border bool, weight float32, taps []Tap, record bool) (geom.Vec4, []Tap) {
	if t.Type == TexCube {
		z, x, y = cubeTexel(z, x, y, t.Levels[level].Width)
	}
	if record {
		taps = append(taps, Tap{Level: level, X: x, Y: y, Z: z, Weight: weight, Border: border})
	}
	if border {
		return s.BorderColor, taps
	}
	return t.fetch(level, x, y, z), taps
}

// CubeDirection returns the direction of face coordinates (sc, tc) in [-1, 1]
// on a face (ma = 1), per the face table of the package comment: where a
// cube map's texel lies, for the sampler and for the generators of cube
// maps.
func CubeDirection(face int, sc, tc float64) [3]float64 {
	switch face {
	case 0:
		return [3]float64{1, -tc, -sc}
	case 1:
		return [3]float64{-1, -tc, sc}
	case 2:
		return [3]float64{sc, 1, tc}
	case 3:
		return [3]float64{sc, -1, -tc}
	case 4:
		return [3]float64{sc, -tc, 1}
	}
	return [3]float64{-sc, -tc, -1}
}

// cubeTexel maps texel (x, y) of a face of size texels, where x or y may lie
// one texel beyond the face, to the texel of the cube it stands for (seamless
// filtering): the direction of the texel's centre is projected onto the cube.
// A corner (both beyond) reads the face's own corner texel.
func cubeTexel(face, x, y, size int) (int, int, int) {
	ox, oy := x < 0 || x >= size, y < 0 || y >= size
	if !ox && !oy {
		return face, x, y
	}
	if ox && oy {
		return face, min(max(x, 0), size-1), min(max(y, 0), size-1)
	}
	sc := 2*(float64(x)+0.5)/float64(size) - 1
	tc := 2*(float64(y)+0.5)/float64(size) - 1
	d := CubeDirection(face, sc, tc)
	var c Coords
	c.P = geom.Vec3{float32(d[0]), float32(d[1]), float32(d[2])}
	nf, st, _, _ := cubeProject(&c)
	nx := min(max(int(math.Floor(float64(st[0])*float64(size))), 0), size-1)
	ny := min(max(int(math.Floor(float64(st[1])*float64(size))), 0), size-1)
	return nf, nx, ny
}

// lerp4 returns a + f*(b-a) per component, rounding every operation to float32.
func lerp4(a, b geom.Vec4, f float32) geom.Vec4 {
	for i := range a {
		a[i] = a[i] + float32(f*(b[i]-a[i]))
	}
	return a
}
