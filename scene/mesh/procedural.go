package mesh

import (
	"cmp"
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/scene/internal/rng"
)

// Generator is a procedural mesh: a parameter set that builds a mesh.
// Generate validates the parameters and returns an error naming the bad one.
//
// Every generator builds counter-clockwise front faces in a right-handed, Y-up
// world (outward for closed shapes), with unit normals, texture coordinates in
// the D3D convention (v = 0 at the top of the image, chosen so that an image
// appears upright and unmirrored seen from the front) and tangents from
// GenerateTangents. The mesh name is left empty for the caller to set.
//
// Footprint gives the size of the mesh Generate makes from the parameters
// alone (for parameters Generate accepts), so that a caller reserves its
// memory before it is made.
type Generator interface {
	Generate() (*Mesh, error)
	Footprint() Footprint
}

// Footprint is the size of a generated mesh: its vertex and index counts and
// its bytes (Mesh.Bytes).
type Footprint struct {
	Vertices, Indices int
	Bytes             int64
}

// footprint is the Footprint of a mesh of v vertices and i indices with
// positions, normals, texture coordinates and tangents, and colors when
// colors is set.
func footprint(v, i int, colors bool) Footprint {
	per := int64(12 + 12 + 8 + 16)
	if colors {
		per += 16
	}
	return Footprint{Vertices: v, Indices: i, Bytes: int64(v)*per + int64(i)*4}
}

// Footprint implements Generator.
func (p Plane) Footprint() Footprint {
	nx, nz := p.Segments[0], p.Segments[1]
	return footprint((nx+1)*(nz+1), 6*nx*nz, false)
}

// Footprint implements Generator: six faces of n x n quads.
func (p Cube) Footprint() Footprint {
	n := p.Segments
	return footprint(6*(n+1)*(n+1), 36*n*n, false)
}

// Footprint implements Generator: the rings' vertices and a pole vertex per
// slice at each end; two triangles per quad between rings, one per slice at
// each pole.
func (p Sphere) Footprint() Footprint {
	st, sl := p.Stacks, p.Slices
	return footprint((st-1)*(sl+1)+2*sl, 6*sl*(st-1), false)
}

// Footprint implements Generator.
func (p Torus) Footprint() Footprint {
	ns, nt := p.Segments, p.Sides
	return footprint((ns+1)*(nt+1), 6*ns*nt, false)
}

// Footprint implements Generator: the plane it displaces.
func (p Terrain) Footprint() Footprint {
	return Plane{Size: p.Size, Segments: p.Segments, UVScale: p.UVScale}.Footprint()
}

// Footprint implements Generator: two triangles of their own per bird.
func (p Flock) Footprint() Footprint { return footprint(6*p.Count, 6*p.Count, false) }

// Footprint implements Generator: a quad of four vertices per leaf.
func (p Leaves) Footprint() Footprint { return footprint(4*p.Count, 6*p.Count, false) }

// Footprint implements Generator.
func (p Triangle) Footprint() Footprint { return footprint(3, 3, p.HasColors) }

// MaxSegments bounds every subdivision count of the generators.
const MaxSegments = 4096

// Plane is a flat rectangle in the XZ plane centred on the origin, facing +Y,
// Size[0] along X and Size[1] along Z, divided into Segments[0] x Segments[1]
// quads of two triangles. u grows along +X and v along +Z (the top of the
// image is at -Z), both scaled by UVScale.
type Plane struct {
	Size     geom.Vec2
	Segments [2]int
	UVScale  geom.Vec2
}

// Cube is an axis-aligned box centred on the origin with edge lengths Size,
// each face divided into Segments x Segments quads, with its own vertices (flat
// normals, texture coordinates [0, 1] x UVScale per face, upright seen from
// outside; the top face has the top of the image towards -Z, the bottom face
// towards +Z).
type Cube struct {
	Size     geom.Vec3
	Segments int
	UVScale  geom.Vec2
}

// Sphere is a UV sphere of Radius centred on the origin: Stacks bands from the
// north pole (+Y, v = 0) to the south pole, Slices sectors around Y
// (u = longitude / 2pi, starting at +Z and turning towards +X). Each pole has
// one vertex per slice so that the caps are triangles, not degenerate quads:
// 2*Slices*(Stacks-1) triangles.
type Sphere struct {
	Radius         float32
	Stacks, Slices int
	UVScale        geom.Vec2
}

// Torus is a ring around the Y axis centred on the origin: a tube of radius
// MinorRadius whose centre line is a circle of radius MajorRadius, with
// Segments divisions around Y (u) and Sides around the tube (v, starting at
// the outer equator and going down): 2*Segments*Sides triangles.
type Torus struct {
	MajorRadius, MinorRadius float32
	Segments, Sides          int
	UVScale                  geom.Vec2
}

// Terrain is a Plane whose vertices are lifted to y = Height * f(x, z), f
// being fractal value noise in [0, 1) with Octaves octaves of base Frequency
// (lattice cells per world unit) and Seed. Normals are area-weighted smooth
// normals of the displaced grid.
type Terrain struct {
	Size      geom.Vec2
	Segments  [2]int
	Height    float32
	Frequency float32
	Octaves   int
	Seed      uint64
	UVScale   geom.Vec2
}

// Flock is Count birds scattered uniformly in the box of size Volume centred on
// the origin. A bird is two triangles (its wings) sharing the body line from
// the nose to the tail, with a wingspan of Size; each wing is raised by
// Flap*sin(phase) degrees, phase = Phase + a seeded per-bird offset in
// [0, 2pi). Birds have a seeded heading (yaw in [0, 360) degrees) and pitch (in
// [-15, 15) degrees). The upper side of the wings is the front face; wings have
// flat normals and their own vertices (6 per bird).
type Flock struct {
	Count  int
	Volume geom.Vec3
	Size   float32
	Flap   float32
	Phase  float32
	Seed   uint64
}

// Leaves is Count square quads of side Size (the leaves of a bush or a tree
// crown) with centres scattered uniformly in the ellipsoid of semi-axes Radii
// centred on the origin, each facing a seeded uniformly random direction and
// turned about it by a random angle. A leaf has its own 4 vertices and flat
// normal, texcoords (0,0) to (1,1) with the top of the image towards the
// quad's "up" side; draw them double-sided.
type Leaves struct {
	Count int
	Radii geom.Vec3
	Size  float32
	Seed  uint64
}

// Triangle is a single triangle with the given vertices (front face
// counter-clockwise), a flat normal, texcoords (0,1), (1,1), (0.5,0), and
// per-vertex Colors when HasColors.
type Triangle struct {
	Vertices  [3]geom.Vec3
	Colors    [3]geom.Vec4
	HasColors bool
}

func checkPositive(name string, v float32) error {
	if !(v > 0) || math.IsInf(float64(v), 0) {
		return fmt.Errorf("%s %v must be positive and finite", name, v)
	}
	return nil
}

// checkScatter checks a scattered generator's count (1 to most), the extent
// it scatters over (named name: every component non-negative and finite) and
// the size of each piece (positive and finite).
func checkScatter(count, most int, name string, extent geom.Vec3, size float32) error {
	if count < 1 || count > most {
		return fmt.Errorf("count %d out of range [1, %d]", count, most)
	}
	for k, v := range extent {
		if !(v >= 0) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("%s[%d] %v must be non-negative and finite", name, k, v)
		}
	}
	return checkPositive("size", size)
}

func checkSegments(name string, v, lo int) error {
	if v < lo || v > MaxSegments {
		return fmt.Errorf("%s %d out of range [%d, %d]", name, v, lo, MaxSegments)
	}
	return nil
}

func checkUV(s geom.Vec2) error {
	if !geom.AllFinite(s[:]...) {
		return fmt.Errorf("uv_scale %v is not finite", s)
	}
	return nil
}

func checkVertexCount(n int) error {
	if n > MaxVertices {
		return fmt.Errorf("%d vertices, more than the limit %d", n, MaxVertices)
	}
	return nil
}

// coord returns size*(i/n - 1/2): grid coordinates are always computed by this
// one expression so that coincident vertices of different faces are bitwise
// equal.
func coord(size float32, i, n int) float32 { return size * (float32(i)/float32(n) - 0.5) }

// Generate implements Generator.
func (p Plane) Generate() (*Mesh, error) {
	if err := cmp.Or(checkPositive("size[0]", p.Size[0]), checkPositive("size[1]", p.Size[1]),
		checkSegments("segments[0]", p.Segments[0], 1), checkSegments("segments[1]", p.Segments[1], 1), checkUV(p.UVScale)); err != nil {
		return nil, err
	}
	nx, nz := p.Segments[0], p.Segments[1]
	if err := checkVertexCount((nx + 1) * (nz + 1)); err != nil {
		return nil, err
	}
	m := grid(nx, nz, func(i, j int) (geom.Vec3, geom.Vec3, geom.Vec2) {
		pos := geom.Vec3{coord(p.Size[0], i, nx), 0, coord(p.Size[1], j, nz)}
		uv := geom.Vec2{float32(i) / float32(nx) * p.UVScale[0], float32(j) / float32(nz) * p.UVScale[1]}
		return pos, geom.Vec3{0, 1, 0}, uv
	})
	m.GenerateTangents()
	return m, nil
}

// grid builds a (cols+1) x (rows+1) vertex grid; vertex (i, j) is column i
// (left to right seen from the front) and row j (top to bottom). Quads are
// split into (TL, BL, BR) and (TL, BR, TR), counter-clockwise from the front.
func grid(cols, rows int, vertex func(i, j int) (geom.Vec3, geom.Vec3, geom.Vec2)) *Mesh {
	m := &Mesh{}
	appendGrid(m, cols, rows, vertex)
	return m
}

func appendGrid(m *Mesh, cols, rows int, vertex func(i, j int) (geom.Vec3, geom.Vec3, geom.Vec2)) {
	base := uint32(len(m.Positions))
	for j := 0; j <= rows; j++ {
		for i := 0; i <= cols; i++ {
			p, n, uv := vertex(i, j)
			m.Positions = append(m.Positions, p)
			m.Normals = append(m.Normals, n)
			m.TexCoords = append(m.TexCoords, uv)
		}
	}
	at := func(i, j int) uint32 { return base + uint32(j*(cols+1)+i) }
	for j := 0; j < rows; j++ {
		for i := 0; i < cols; i++ {
			tl, bl, br, tr := at(i, j), at(i, j+1), at(i+1, j+1), at(i+1, j)
			m.Indices = append(m.Indices, tl, bl, br, tl, br, tr)
		}
	}
}

// cubeFaces lists, per face, the outward axis and sign, and the axes and signs
// of the face's right and up directions seen from outside.
var cubeFaces = [6]struct {
	axis, right, up         int
	sign, rightSign, upSign int
}{
	{0, 2, 1, +1, -1, +1}, // +X: right = -Z, up = +Y
	{0, 2, 1, -1, +1, +1}, // -X: right = +Z, up = +Y
	{1, 0, 2, +1, +1, -1}, // +Y: right = +X, up = -Z
	{1, 0, 2, -1, +1, +1}, // -Y: right = +X, up = +Z
	{2, 0, 1, +1, +1, +1}, // +Z: right = +X, up = +Y
	{2, 0, 1, -1, -1, +1}, // -Z: right = -X, up = +Y
}

// Generate implements Generator.
func (p Cube) Generate() (*Mesh, error) {
	for k := 0; k < 3; k++ {
		if err := checkPositive(fmt.Sprintf("size[%d]", k), p.Size[k]); err != nil {
			return nil, err
		}
	}
	if err := cmp.Or(checkSegments("segments", p.Segments, 1), checkUV(p.UVScale)); err != nil {
		return nil, err
	}
	n := p.Segments
	if err := checkVertexCount(6 * (n + 1) * (n + 1)); err != nil {
		return nil, err
	}
	m := &Mesh{}
	// index along an axis for a signed grid step: sign +1 walks 0..n, -1 walks n..0.
	idx := func(sign, i int) int {
		if sign > 0 {
			return i
		}
		return n - i
	}
	for _, f := range cubeFaces {
		var normal geom.Vec3
		normal[f.axis] = float32(f.sign)
		fixed := coord(p.Size[f.axis], n, n) // +size/2
		if f.sign < 0 {
			fixed = coord(p.Size[f.axis], 0, n)
		}
		appendGrid(m, n, n, func(i, j int) (geom.Vec3, geom.Vec3, geom.Vec2) {
			var pos geom.Vec3
			pos[f.axis] = fixed
			pos[f.right] = coord(p.Size[f.right], idx(f.rightSign, i), n)
			pos[f.up] = coord(p.Size[f.up], idx(f.upSign, n-j), n) // row 0 is the top
			uv := geom.Vec2{float32(i) / float32(n) * p.UVScale[0], float32(j) / float32(n) * p.UVScale[1]}
			return pos, normal, uv
		})
	}
	m.GenerateTangents()
	return m, nil
}

// Generate implements Generator.
func (p Sphere) Generate() (*Mesh, error) {
	if err := cmp.Or(checkPositive("radius", p.Radius), checkSegments("stacks", p.Stacks, 2), checkSegments("slices", p.Slices, 3),
		checkUV(p.UVScale)); err != nil {
		return nil, err
	}
	st, sl := p.Stacks, p.Slices
	if err := checkVertexCount((st-1)*(sl+1) + 2*sl); err != nil {
		return nil, err
	}
	r := p.Radius
	m := &Mesh{}
	add := func(pos, n geom.Vec3, u, v float32) uint32 {
		m.Positions = append(m.Positions, pos)
		m.Normals = append(m.Normals, n)
		m.TexCoords = append(m.TexCoords, geom.Vec2{u * p.UVScale[0], v * p.UVScale[1]})
		return uint32(len(m.Positions) - 1)
	}
	// Ring vertices: rows 1..st-1, columns 0..sl (column sl repeats column 0's
	// position with u = 1).
	ring := make([]uint32, 0, (st-1)*(sl+1))
	for i := 1; i < st; i++ {
		theta := math.Pi * float64(i) / float64(st)
		sinT, cosT := math.Sincos(theta)
		for j := 0; j <= sl; j++ {
			phi := 2 * math.Pi * float64(j%sl) / float64(sl)
			sinP, cosP := math.Sincos(phi)
			n := geom.Vec3{float32(sinT * sinP), float32(cosT), float32(sinT * cosP)}
			ring = append(ring, add(n.Scale(r), n, float32(j)/float32(sl), float32(i)/float32(st)))
		}
	}
	at := func(i, j int) uint32 { return ring[(i-1)*(sl+1)+j] }
	for j := 0; j < sl; j++ {
		u := (float32(j) + 0.5) / float32(sl)
		north := add(geom.Vec3{0, r, 0}, geom.Vec3{0, 1, 0}, u, 0)
		m.Indices = append(m.Indices, north, at(1, j), at(1, j+1))
	}
	for i := 1; i < st-1; i++ {
		for j := 0; j < sl; j++ {
			tl, bl, br, tr := at(i, j), at(i+1, j), at(i+1, j+1), at(i, j+1)
			m.Indices = append(m.Indices, tl, bl, br, tl, br, tr)
		}
	}
	for j := 0; j < sl; j++ {
		u := (float32(j) + 0.5) / float32(sl)
		south := add(geom.Vec3{0, -r, 0}, geom.Vec3{0, -1, 0}, u, 1)
		m.Indices = append(m.Indices, at(st-1, j), south, at(st-1, j+1))
	}
	m.GenerateTangents()
	return m, nil
}

// Generate implements Generator.
func (p Torus) Generate() (*Mesh, error) {
	if err := cmp.Or(checkPositive("major_radius", p.MajorRadius), checkPositive("minor_radius", p.MinorRadius)); err != nil {
		return nil, err
	}
	if !(p.MinorRadius < p.MajorRadius) {
		return nil, fmt.Errorf("minor_radius %v must be smaller than major_radius %v", p.MinorRadius, p.MajorRadius)
	}
	if err := cmp.Or(checkSegments("segments", p.Segments, 3), checkSegments("sides", p.Sides, 3), checkUV(p.UVScale)); err != nil {
		return nil, err
	}
	ns, nt := p.Segments, p.Sides
	if err := checkVertexCount((ns + 1) * (nt + 1)); err != nil {
		return nil, err
	}
	R, r := float64(p.MajorRadius), float64(p.MinorRadius)
	m := grid(ns, nt, func(i, j int) (geom.Vec3, geom.Vec3, geom.Vec2) {
		sinP, cosP := math.Sincos(2 * math.Pi * float64(i%ns) / float64(ns))
		sinT, cosT := math.Sincos(2 * math.Pi * float64(j%nt) / float64(nt))
		// radial = (sinP, 0, cosP); the tube normal turns from radial (j = 0)
		// downwards (-Y) as j grows.
		n := geom.Vec3{float32(cosT * sinP), float32(-sinT), float32(cosT * cosP)}
		pos := geom.Vec3{float32((R + r*cosT) * sinP), float32(-r * sinT), float32((R + r*cosT) * cosP)}
		uv := geom.Vec2{float32(i) / float32(ns) * p.UVScale[0], float32(j) / float32(nt) * p.UVScale[1]}
		return pos, n, uv
	})
	m.GenerateTangents()
	return m, nil
}

// Generate implements Generator.
func (p Terrain) Generate() (*Mesh, error) {
	if !(p.Height >= 0) || math.IsInf(float64(p.Height), 0) {
		return nil, fmt.Errorf("height %v must be non-negative and finite", p.Height)
	}
	if err := checkPositive("frequency", p.Frequency); err != nil {
		return nil, err
	}
	if p.Octaves < 1 || p.Octaves > 12 {
		return nil, fmt.Errorf("octaves %d out of range [1, 12]", p.Octaves)
	}
	m, err := Plane{Size: p.Size, Segments: p.Segments, UVScale: p.UVScale}.Generate()
	if err != nil {
		return nil, err
	}
	for i, pos := range m.Positions {
		f := rng.Fractal2(float64(pos[0]*p.Frequency), float64(pos[2]*p.Frequency), p.Octaves, p.Seed)
		m.Positions[i][1] = p.Height * f
	}
	m.GenerateNormals()
	m.GenerateTangents()
	return m, nil
}

// Generate implements Generator.
func (p Flock) Generate() (*Mesh, error) {
	if err := checkScatter(p.Count, MaxVertices/6, "volume", p.Volume, p.Size); err != nil {
		return nil, err
	}
	if !geom.AllFinite(p.Flap, p.Phase) || p.Flap < -90 || p.Flap > 90 {
		return nil, fmt.Errorf("flap %v must be in [-90, 90] degrees and phase %v finite", p.Flap, p.Phase)
	}
	r := rng.New(p.Seed)
	m := &Mesh{}
	half := float64(p.Size) / 2
	nose, tail := 0.35*float64(p.Size), -0.25*float64(p.Size)
	for b := 0; b < p.Count; b++ {
		center := geom.Vec3{r.Symmetric(p.Volume[0] / 2), r.Symmetric(p.Volume[1] / 2), r.Symmetric(p.Volume[2] / 2)}
		yaw := r.Range(0, 360)
		pitch := r.Symmetric(15)
		phase := float64(p.Phase) + 2*math.Pi*float64(r.Float32())
		angle := float64(p.Flap) * math.Pi / 180 * math.Sin(phase)
		sinA, cosA := math.Sincos(angle)
		tipX, tipY := half*cosA, half*sinA
		xf := geom.Translate(center).Mul(geom.RotateEulerDegrees(geom.Vec3{pitch, yaw, 0}))
		pn := geom.Vec3{0, 0, float32(nose)}
		pt := geom.Vec3{0, 0, float32(tail)}
		left := geom.Vec3{float32(-tipX), float32(tipY), 0}
		right := geom.Vec3{float32(tipX), float32(tipY), 0}
		// Upper sides are the fronts: (nose, tail, left) and (nose, right, tail).
		wings := [2][3]geom.Vec3{{pn, pt, left}, {pn, right, pt}}
		uvs := [2][3]geom.Vec2{{{0.5, 0}, {0.5, 1}, {0, 0.5}}, {{0.5, 0}, {1, 0.5}, {0.5, 1}}}
		for w := 0; w < 2; w++ {
			var v [3]geom.Vec3
			for k := 0; k < 3; k++ {
				v[k] = xf.MulPoint(wings[w][k])
			}
			n := unit(v[1].Sub(v[0]).Cross(v[2].Sub(v[0])), geom.Vec3{0, 1, 0})
			for k := 0; k < 3; k++ {
				m.Indices = append(m.Indices, uint32(len(m.Positions)))
				m.Positions = append(m.Positions, v[k])
				m.Normals = append(m.Normals, n)
				m.TexCoords = append(m.TexCoords, uvs[w][k])
			}
		}
	}
	m.GenerateTangents()
	return m, nil
}

// Generate implements Generator.
func (p Leaves) Generate() (*Mesh, error) {
	if err := checkScatter(p.Count, MaxVertices/4, "radii", p.Radii, p.Size); err != nil {
		return nil, err
	}
	r := rng.New(p.Seed)
	m := &Mesh{}
	h := float64(p.Size) / 2
	for l := 0; l < p.Count; l++ {
		// Centre: rejection sampling in the unit ball, then scaled.
		var c [3]float64
		for {
			c = [3]float64{float64(r.Symmetric(1)), float64(r.Symmetric(1)), float64(r.Symmetric(1))}
			if c[0]*c[0]+c[1]*c[1]+c[2]*c[2] <= 1 {
				break
			}
		}
		// Facing: uniform on the sphere; spin: uniform.
		z := float64(r.Symmetric(1))
		phi := 2 * math.Pi * float64(r.Float32())
		rho := math.Sqrt(max(0, 1-z*z))
		n := [3]float64{rho * math.Cos(phi), rho * math.Sin(phi), z}
		t0 := anyPerpendicular(n)
		b0 := cross64(n, t0)
		sinA, cosA := math.Sincos(2 * math.Pi * float64(r.Float32()))
		var t, b [3]float64
		for k := 0; k < 3; k++ {
			t[k] = t0[k]*cosA + b0[k]*sinA
		}
		b = cross64(n, t) // t x b = n: counter-clockwise in the (t, b) plane seen from n
		corner := func(st, sb float64) geom.Vec3 {
			var v geom.Vec3
			for k := 0; k < 3; k++ {
				v[k] = float32(c[k]*float64(p.Radii[k]) + (st*t[k]+sb*b[k])*h)
			}
			return v
		}
		base := uint32(len(m.Positions))
		nv := geom.Vec3{float32(n[0]), float32(n[1]), float32(n[2])}
		m.Positions = append(m.Positions, corner(-1, 1), corner(-1, -1), corner(1, -1), corner(1, 1))
		m.Normals = append(m.Normals, nv, nv, nv, nv)
		m.TexCoords = append(m.TexCoords, geom.Vec2{0, 0}, geom.Vec2{0, 1}, geom.Vec2{1, 1}, geom.Vec2{1, 0})
		m.Indices = append(m.Indices, base, base+1, base+2, base, base+2, base+3)
	}
	m.GenerateTangents()
	return m, nil
}

func cross64(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Generate implements Generator.
func (p Triangle) Generate() (*Mesh, error) {
	for k, v := range p.Vertices {
		if !geom.AllFinite(v[:]...) {
			return nil, fmt.Errorf("vertices[%d] %v is not finite", k, v)
		}
	}
	v := p.Vertices
	// The normal in float64: the cross product of edges near the float32
	// range overflows float32.
	var e1, e2 [3]float64
	for i := range 3 {
		e1[i], e2[i] = float64(v[1][i])-float64(v[0][i]), float64(v[2][i])-float64(v[0][i])
	}
	c := cross64(e1, e2)
	l := math.Sqrt(c[0]*c[0] + c[1]*c[1] + c[2]*c[2])
	if l == 0 || math.IsInf(l, 0) {
		return nil, fmt.Errorf("vertices %v are collinear (zero area)", v)
	}
	n := geom.Vec3{float32(c[0] / l), float32(c[1] / l), float32(c[2] / l)}
	m := &Mesh{
		Positions: []geom.Vec3{v[0], v[1], v[2]},
		Normals:   []geom.Vec3{n, n, n},
		TexCoords: []geom.Vec2{{0, 1}, {1, 1}, {0.5, 0}},
		Indices:   []uint32{0, 1, 2},
	}
	if p.HasColors {
		for k, c := range p.Colors {
			if !geom.AllFinite(c[:]...) {
				return nil, fmt.Errorf("colors[%d] %v is not finite", k, c)
			}
		}
		m.Colors = []geom.Vec4{p.Colors[0], p.Colors[1], p.Colors[2]}
	}
	m.GenerateTangents()
	for _, t := range m.Tangents {
		if !geom.AllFinite(t[:]...) {
			return nil, fmt.Errorf("vertices %v: the tangent overflows 32-bit floats (scale the triangle down and its object up)", v)
		}
	}
	return m, nil
}
