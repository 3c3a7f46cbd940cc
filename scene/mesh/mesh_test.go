package mesh

import (
	"math"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

func near(a, b, eps float32) bool { return float32(math.Abs(float64(a-b))) <= eps }

func nearVec3(a, b geom.Vec3, eps float32) bool {
	return near(a[0], b[0], eps) && near(a[1], b[1], eps) && near(a[2], b[2], eps)
}

func TestValidate(t *testing.T) {
	ok := func() *Mesh {
		return &Mesh{
			Name:      "m",
			Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
			Normals:   []geom.Vec3{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}},
			TexCoords: []geom.Vec2{{0, 0}, {1, 0}, {0, 1}},
			Tangents:  []geom.Vec4{{1, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 0, 1}},
			Indices:   []uint32{0, 1, 2},
		}
	}
	nan := float32(math.NaN())
	tests := []struct {
		name   string
		break_ func(m *Mesh)
		want   string
	}{
		{"valid", func(m *Mesh) {}, ""},
		{"no uv", func(m *Mesh) { m.TexCoords, m.Tangents = nil, nil }, ""},
		{"partial triangle", func(m *Mesh) { m.Indices = append(m.Indices, 0) }, `mesh "m": 4 indices is not a whole number of triangles`},
		{"index range", func(m *Mesh) { m.Indices[2] = 3 }, `mesh "m": indices[2] = 3 out of range [0, 3)`},
		{"normals", func(m *Mesh) { m.Normals = m.Normals[:2] }, `mesh "m": 2 normals for 3 vertices`},
		{"texcoords", func(m *Mesh) { m.TexCoords = m.TexCoords[:1] }, `mesh "m": 1 texcoords for 3 vertices`},
		{"tangents", func(m *Mesh) { m.Tangents = m.Tangents[:1] }, `mesh "m": 1 tangents for 3 vertices`},
		{"uv without tangents", func(m *Mesh) { m.Tangents = nil }, `mesh "m": texcoords without tangents`},
		{"colors", func(m *Mesh) { m.Colors = make([]geom.Vec4, 4) }, `mesh "m": 4 colors for 3 vertices`},
		{"nan position", func(m *Mesh) { m.Positions[1][2] = nan }, `mesh "m": positions[1] = [1 0 NaN] is not finite`},
		{"inf normal", func(m *Mesh) { m.Normals[0][0] = float32(math.Inf(1)) }, `mesh "m": normals[0] = [+Inf 0 1] is not finite`},
	}
	for _, tc := range tests {
		m := ok()
		tc.break_(m)
		err := m.Validate()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: Validate() = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestGenerateNormalsAreaWeighted(t *testing.T) {
	// Vertex 0 is shared by a triangle in the XY plane (normal +Z, doubled area
	// 4) and a triangle in the XZ plane facing +Y (doubled area 1).
	m := &Mesh{
		Positions: []geom.Vec3{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0, 0, -1}, {1, 0, 0}},
		Indices:   []uint32{0, 1, 2, 0, 4, 3},
	}
	m.GenerateNormals()
	s := float32(math.Sqrt(17))
	want := []geom.Vec3{{0, 1 / s, 4 / s}, {0, 0, 1}, {0, 0, 1}, {0, 1, 0}, {0, 1, 0}}
	for i, w := range want {
		if !nearVec3(m.Normals[i], w, 1e-6) {
			t.Errorf("normal %d = %v, want %v", i, m.Normals[i], w)
		}
	}
	// An unused vertex gets +Y.
	m.Positions = append(m.Positions, geom.Vec3{5, 5, 5})
	m.GenerateNormals()
	if m.Normals[5] != (geom.Vec3{0, 1, 0}) {
		t.Errorf("unused vertex normal %v", m.Normals[5])
	}
}

func TestGenerateTangentsHandedness(t *testing.T) {
	// A quad facing +Z with u along +X and v down (-Y): w = +1, T = +X.
	// Mirroring u (u along -X) gives T = -X and w = -1.
	tests := []struct {
		name  string
		uvs   []geom.Vec2
		wantT geom.Vec3
		wantW float32
	}{
		{"upright", []geom.Vec2{{0, 1}, {1, 1}, {0, 0}}, geom.Vec3{1, 0, 0}, 1},
		{"mirrored u", []geom.Vec2{{1, 1}, {0, 1}, {1, 0}}, geom.Vec3{-1, 0, 0}, -1},
		{"rotated 90", []geom.Vec2{{0, 0}, {0, 1}, {1, 0}}, geom.Vec3{0, 1, 0}, 1},
	}
	for _, tc := range tests {
		m := &Mesh{
			Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
			Normals:   []geom.Vec3{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}},
			TexCoords: tc.uvs,
			Indices:   []uint32{0, 1, 2},
		}
		m.GenerateTangents()
		for i, tg := range m.Tangents {
			if !nearVec3(tg.XYZ(), tc.wantT, 1e-6) || tg[3] != tc.wantW {
				t.Errorf("%s: tangent %d = %v, want %v w %v", tc.name, i, tg, tc.wantT, tc.wantW)
			}
		}
	}
	// Degenerate mapping: a perpendicular fallback.
	m := &Mesh{
		Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
		Normals:   []geom.Vec3{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}},
		TexCoords: make([]geom.Vec2, 3),
		Indices:   []uint32{0, 1, 2},
	}
	m.GenerateTangents()
	if m.Tangents[0] != (geom.Vec4{0, 1, 0, 1}) {
		t.Errorf("degenerate mapping tangent %v, want (0,1,0,1)", m.Tangents[0])
	}
}

func TestTransformMirrorKeepsOrientation(t *testing.T) {
	m := &Mesh{
		Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
		Normals:   []geom.Vec3{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}},
		TexCoords: []geom.Vec2{{0, 1}, {1, 1}, {0, 0}},
		Indices:   []uint32{0, 1, 2},
	}
	m.GenerateTangents()
	m.Transform(geom.Translate(geom.Vec3{0, 0, 2}).Mul(geom.Scale(geom.Vec3{-2, 1, 1})))
	if m.Positions[1] != (geom.Vec3{-2, 0, 2}) {
		t.Errorf("position %v", m.Positions[1])
	}
	if got := []uint32{m.Indices[0], m.Indices[1], m.Indices[2]}; got[1] != 2 || got[2] != 1 {
		t.Errorf("indices %v, want winding reversed (0 2 1)", got)
	}
	if m.Normals[0] != (geom.Vec3{0, 0, 1}) || m.Tangents[0] != (geom.Vec4{-1, 0, 0, -1}) {
		t.Errorf("normal %v tangent %v, want (0,0,1) and (-1,0,0,-1)", m.Normals[0], m.Tangents[0])
	}
	// The geometric normal of the (reordered) triangle still agrees with N.
	p := m.Positions
	fn := p[m.Indices[1]].Sub(p[m.Indices[0]]).Cross(p[m.Indices[2]].Sub(p[m.Indices[0]]))
	if fn.Dot(m.Normals[0]) <= 0 {
		t.Errorf("face normal %v disagrees with vertex normal", fn)
	}
}

func TestMergeAndBounds(t *testing.T) {
	a, _ := Triangle{Vertices: [3]geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}}.Generate()
	b := &Mesh{
		Positions: []geom.Vec3{{0, 0, 5}, {1, 0, 5}, {0, -3, 5}},
		Normals:   []geom.Vec3{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}},
		Colors:    []geom.Vec4{{1, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 0, 1}},
		Indices:   []uint32{0, 2, 1},
	}
	m := Merge("ab", a, b)
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if m.VertexCount() != 6 || m.TriangleCount() != 2 || len(m.TexCoords) != 6 || len(m.Colors) != 6 {
		t.Fatalf("merged %d vertices %d triangles %d uvs %d colours", m.VertexCount(), m.TriangleCount(), len(m.TexCoords), len(m.Colors))
	}
	want := []uint32{0, 1, 2, 3, 5, 4}
	for i, w := range want {
		if m.Indices[i] != w {
			t.Fatalf("indices %v, want %v", m.Indices, want)
		}
	}
	if m.Colors[0] != (geom.Vec4{1, 1, 1, 1}) || m.Colors[3] != (geom.Vec4{1, 0, 0, 1}) || m.Tangents[4] != (geom.Vec4{1, 0, 0, 1}) {
		t.Errorf("filled attributes: colour %v %v tangent %v", m.Colors[0], m.Colors[3], m.Tangents[4])
	}
	lo, hi := m.Bounds()
	if lo != (geom.Vec3{0, -3, 0}) || hi != (geom.Vec3{1, 1, 5}) {
		t.Errorf("bounds %v %v", lo, hi)
	}
}
