package mesh

import (
	"fmt"
	"math"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/inputs"
)

// MaxVertices is the largest number of vertices a loader or generator produces
// for one mesh; larger inputs are rejected with an error.
const MaxVertices = 1 << 22

// Mesh is an indexed triangle list with one index per vertex (all attributes
// of a vertex share its index).
//
// Positions and Normals are always present (len = vertex count). TexCoords is
// either empty or one per vertex; Tangents is one per vertex whenever TexCoords
// is present (and may be present without it, e.g. from a glTF file); Colors is
// optional. Triangles are counter-clockwise seen from their front side.
type Mesh struct {
	Name      string
	Positions []geom.Vec3
	Normals   []geom.Vec3 // unit length
	TexCoords []geom.Vec2 // D3D convention: (0,0) is the top-left of the image
	Tangents  []geom.Vec4 // xyz unit tangent along +u; w = +-1, bitangent = w*cross(N, T) points along -v
	Colors    []geom.Vec4 // optional per-vertex RGBA
	Indices   []uint32    // triangle list, 3 per triangle
}

// VertexCount returns the number of vertices.
func (m *Mesh) VertexCount() int { return len(m.Positions) }

// TriangleCount returns the number of triangles.
func (m *Mesh) TriangleCount() int { return len(m.Indices) / 3 }

// Validate checks the invariants of a Mesh: a whole number of triangles, every
// index in range, attribute arrays of the right lengths, finite values, at most
// MaxVertices vertices. It returns the first problem found.
func (m *Mesh) Validate() error {
	n := len(m.Positions)
	errf := func(format string, args ...any) error {
		return fmt.Errorf("mesh %s: %s", inputs.Quote(m.Name), fmt.Sprintf(format, args...)) // a name from a file
	}
	if n > MaxVertices {
		return errf("%d vertices, more than the limit %d", n, MaxVertices)
	}
	if len(m.Indices)%3 != 0 {
		return errf("%d indices is not a whole number of triangles", len(m.Indices))
	}
	for i, ix := range m.Indices {
		if int64(ix) >= int64(n) {
			return errf("indices[%d] = %d out of range [0, %d)", i, ix, n)
		}
	}
	if len(m.Normals) != n {
		return errf("%d normals for %d vertices", len(m.Normals), n)
	}
	if len(m.TexCoords) != 0 && len(m.TexCoords) != n {
		return errf("%d texcoords for %d vertices", len(m.TexCoords), n)
	}
	if len(m.Tangents) != 0 && len(m.Tangents) != n {
		return errf("%d tangents for %d vertices", len(m.Tangents), n)
	}
	if len(m.TexCoords) != 0 && len(m.Tangents) == 0 {
		return errf("texcoords without tangents")
	}
	if len(m.Colors) != 0 && len(m.Colors) != n {
		return errf("%d colors for %d vertices", len(m.Colors), n)
	}
	for _, c := range []struct {
		name string
		n    int
		at   func(i int) []float32
	}{
		{"positions", len(m.Positions), func(i int) []float32 { return m.Positions[i][:] }},
		{"normals", len(m.Normals), func(i int) []float32 { return m.Normals[i][:] }},
		{"texcoords", len(m.TexCoords), func(i int) []float32 { return m.TexCoords[i][:] }},
		{"tangents", len(m.Tangents), func(i int) []float32 { return m.Tangents[i][:] }},
		{"colors", len(m.Colors), func(i int) []float32 { return m.Colors[i][:] }},
	} {
		for i := 0; i < c.n; i++ {
			if v := c.at(i); !geom.AllFinite(v...) {
				return errf("%s[%d] = %v is not finite", c.name, i, v)
			}
		}
	}
	return nil
}

// Bounds returns the axis-aligned bounding box of the positions; an empty mesh
// has the zero box.
func (m *Mesh) Bounds() (lo, hi geom.Vec3) {
	if len(m.Positions) == 0 {
		return
	}
	lo, hi = m.Positions[0], m.Positions[0]
	for _, p := range m.Positions[1:] {
		for k := 0; k < 3; k++ {
			lo[k] = min(lo[k], p[k])
			hi[k] = max(hi[k], p[k])
		}
	}
	return lo, hi
}

// Clone returns a deep copy of m.
func (m *Mesh) Clone() *Mesh {
	return &Mesh{
		Name:      m.Name,
		Positions: append([]geom.Vec3(nil), m.Positions...),
		Normals:   append([]geom.Vec3(nil), m.Normals...),
		TexCoords: append([]geom.Vec2(nil), m.TexCoords...),
		Tangents:  append([]geom.Vec4(nil), m.Tangents...),
		Colors:    append([]geom.Vec4(nil), m.Colors...),
		Indices:   append([]uint32(nil), m.Indices...),
	}
}

// GenerateNormals replaces the normals by smooth, area-weighted vertex normals:
// each vertex gets the normalised sum of the unnormalised face normals
// cross(p1-p0, p2-p0) (whose length is twice the triangle's area) of the
// triangles that use it. A vertex used by no triangle, or whose sum is zero,
// gets (0, 1, 0).
func (m *Mesh) GenerateNormals() {
	m.Normals = smoothNormals(m.Positions, m.Indices, nil, nil)
}

// smoothNormals computes area-weighted normals for every vertex, or, when keep
// is not nil, only for the vertices where keep[i] is false, copying old[i] for
// the others. Sums are accumulated in float64.
func smoothNormals(pos []geom.Vec3, idx []uint32, old []geom.Vec3, keep []bool) []geom.Vec3 {
	acc := make([][3]float64, len(pos))
	for t := 0; t+2 < len(idx); t += 3 {
		a, b, c := idx[t], idx[t+1], idx[t+2]
		p0, p1, p2 := pos[a], pos[b], pos[c]
		e1 := [3]float64{float64(p1[0] - p0[0]), float64(p1[1] - p0[1]), float64(p1[2] - p0[2])}
		e2 := [3]float64{float64(p2[0] - p0[0]), float64(p2[1] - p0[1]), float64(p2[2] - p0[2])}
		n := [3]float64{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
		for _, v := range [3]uint32{a, b, c} {
			acc[v][0] += n[0]
			acc[v][1] += n[1]
			acc[v][2] += n[2]
		}
	}
	out := make([]geom.Vec3, len(pos))
	for i, s := range acc {
		if keep != nil && keep[i] {
			out[i] = old[i]
			continue
		}
		l := math.Sqrt(s[0]*s[0] + s[1]*s[1] + s[2]*s[2])
		if l == 0 || math.IsInf(l, 0) || math.IsNaN(l) {
			out[i] = geom.Vec3{0, 1, 0}
			continue
		}
		out[i] = geom.Vec3{float32(s[0] / l), float32(s[1] / l), float32(s[2] / l)}
	}
	return out
}

// GenerateTangents computes per-vertex tangents from the positions, normals and
// texture coordinates (it does nothing when the mesh has no texcoords), by
// Lengyel's method ("Computing Tangent Space Basis Vectors for an Arbitrary
// Mesh", 2001):
//
//  1. For each triangle with edges e1 = p1-p0, e2 = p2-p0 and texcoord
//     differences (du1, dv1), (du2, dv2), r = du1*dv2 - du2*dv1; triangles with
//     |r| below 1e-20 (degenerate mapping) are skipped. Otherwise
//     dp/du = (e1*dv2 - e2*dv1)/r and dp/dv = (e2*du1 - e1*du2)/r are added to
//     the sums of its three vertices.
//  2. Per vertex, T = normalize(sum_du - N*dot(N, sum_du)) (Gram-Schmidt against
//     the normal). When that is zero, T is any unit vector perpendicular to N
//     (cross with the axis least aligned with N).
//  3. The handedness w is +1 when cross(N, T) points along -dp/dv, else -1, so
//     that the bitangent B = w*cross(N, T) points towards the top of the image
//     (-v): the glTF/MikkTSpace convention, matching normal maps whose +Y is up.
func (m *Mesh) GenerateTangents() {
	if len(m.TexCoords) != len(m.Positions) || len(m.Normals) != len(m.Positions) {
		return
	}
	n := len(m.Positions)
	su := make([][3]float64, n)
	sv := make([][3]float64, n)
	for t := 0; t+2 < len(m.Indices); t += 3 {
		a, b, c := m.Indices[t], m.Indices[t+1], m.Indices[t+2]
		p0, p1, p2 := m.Positions[a], m.Positions[b], m.Positions[c]
		w0, w1, w2 := m.TexCoords[a], m.TexCoords[b], m.TexCoords[c]
		e1 := [3]float64{float64(p1[0] - p0[0]), float64(p1[1] - p0[1]), float64(p1[2] - p0[2])}
		e2 := [3]float64{float64(p2[0] - p0[0]), float64(p2[1] - p0[1]), float64(p2[2] - p0[2])}
		du1, dv1 := float64(w1[0]-w0[0]), float64(w1[1]-w0[1])
		du2, dv2 := float64(w2[0]-w0[0]), float64(w2[1]-w0[1])
		r := du1*dv2 - du2*dv1
		if math.Abs(r) < 1e-20 {
			continue
		}
		var dpdu, dpdv [3]float64
		for k := 0; k < 3; k++ {
			dpdu[k] = (e1[k]*dv2 - e2[k]*dv1) / r
			dpdv[k] = (e2[k]*du1 - e1[k]*du2) / r
		}
		for _, v := range [3]uint32{a, b, c} {
			for k := 0; k < 3; k++ {
				su[v][k] += dpdu[k]
				sv[v][k] += dpdv[k]
			}
		}
	}
	m.Tangents = make([]geom.Vec4, n)
	for i := 0; i < n; i++ {
		nv := m.Normals[i]
		N := [3]float64{float64(nv[0]), float64(nv[1]), float64(nv[2])}
		t := su[i]
		d := N[0]*t[0] + N[1]*t[1] + N[2]*t[2]
		T := [3]float64{t[0] - N[0]*d, t[1] - N[1]*d, t[2] - N[2]*d}
		l := math.Sqrt(T[0]*T[0] + T[1]*T[1] + T[2]*T[2])
		if !(l > 1e-12) || math.IsInf(l, 0) {
			T = anyPerpendicular(N)
		} else {
			T = [3]float64{T[0] / l, T[1] / l, T[2] / l}
		}
		c := [3]float64{N[1]*T[2] - N[2]*T[1], N[2]*T[0] - N[0]*T[2], N[0]*T[1] - N[1]*T[0]}
		w := float32(1)
		if c[0]*sv[i][0]+c[1]*sv[i][1]+c[2]*sv[i][2] > 0 {
			w = -1 // cross(N, T) points along +dp/dv: mirrored mapping
		}
		m.Tangents[i] = geom.Vec4{float32(T[0]), float32(T[1]), float32(T[2]), w}
	}
}

// anyPerpendicular returns a unit vector perpendicular to n (n unit or zero).
func anyPerpendicular(n [3]float64) [3]float64 {
	// Cross with the coordinate axis least aligned with n.
	ax, ay, az := math.Abs(n[0]), math.Abs(n[1]), math.Abs(n[2])
	var a [3]float64
	switch {
	case ax <= ay && ax <= az:
		a = [3]float64{1, 0, 0}
	case ay <= az:
		a = [3]float64{0, 1, 0}
	default:
		a = [3]float64{0, 0, 1}
	}
	c := [3]float64{n[1]*a[2] - n[2]*a[1], n[2]*a[0] - n[0]*a[2], n[0]*a[1] - n[1]*a[0]}
	l := math.Sqrt(c[0]*c[0] + c[1]*c[1] + c[2]*c[2])
	if l == 0 {
		return [3]float64{1, 0, 0}
	}
	return [3]float64{c[0] / l, c[1] / l, c[2] / l}
}

// Transform applies the affine transform t in place: positions by t, normals by
// its normal matrix (renormalised), tangents by its upper 3x3 (renormalised).
// When t mirrors (negative determinant), the winding of every triangle is
// reversed and tangent handedness flipped, so front faces stay
// counter-clockwise and outward.
func (m *Mesh) Transform(t geom.Mat4) {
	nm := t.NormalMatrix()
	for i, p := range m.Positions {
		m.Positions[i] = t.MulPoint(p)
	}
	for i, n := range m.Normals {
		m.Normals[i] = unit(nm.MulDir(n), n)
	}
	mirror := t.Det3() < 0
	for i, tg := range m.Tangents {
		v := unit(t.MulDir(tg.XYZ()), tg.XYZ())
		w := tg[3]
		if mirror {
			w = -w
		}
		m.Tangents[i] = v.Vec4(w)
	}
	if mirror {
		for i := 0; i+2 < len(m.Indices); i += 3 {
			m.Indices[i+1], m.Indices[i+2] = m.Indices[i+2], m.Indices[i+1]
		}
	}
}

// unit normalises v, falling back to the normalised fallback (or +Y) when v is
// zero.
func unit(v, fallback geom.Vec3) geom.Vec3 {
	if u := v.Normalize(); u != (geom.Vec3{}) {
		return u
	}
	if u := fallback.Normalize(); u != (geom.Vec3{}) {
		return u
	}
	return geom.Vec3{0, 1, 0}
}

// appendOr appends the n values of a vertex attribute, or n times def when
// the mesh does not have it.
func appendOr[T any](out, attr []T, n int, def T) []T {
	if len(attr) == n {
		return append(out, attr...)
	}
	for i := 0; i < n; i++ {
		out = append(out, def)
	}
	return out
}

// Merge concatenates meshes into one named name. Attributes missing from some
// of the inputs are filled: texcoords with (0, 0), tangents with (1, 0, 0, 1),
// colours with (1, 1, 1, 1); they are dropped only when no input has them.
func Merge(name string, meshes ...*Mesh) *Mesh {
	out := &Mesh{Name: name}
	var hasUV, hasTan, hasCol bool
	for _, m := range meshes {
		hasUV = hasUV || len(m.TexCoords) > 0
		hasTan = hasTan || len(m.Tangents) > 0
		hasCol = hasCol || len(m.Colors) > 0
	}
	for _, m := range meshes {
		base := uint32(len(out.Positions))
		n := len(m.Positions)
		out.Positions = append(out.Positions, m.Positions...)
		out.Normals = append(out.Normals, m.Normals...)
		if hasUV {
			out.TexCoords = appendOr(out.TexCoords, m.TexCoords, n, geom.Vec2{})
		}
		if hasTan {
			out.Tangents = appendOr(out.Tangents, m.Tangents, n, geom.Vec4{1, 0, 0, 1})
		}
		if hasCol {
			out.Colors = appendOr(out.Colors, m.Colors, n, geom.Vec4{1, 1, 1, 1})
		}
		for _, ix := range m.Indices {
			out.Indices = append(out.Indices, base+ix)
		}
	}
	return out
}
