package mesh

import (
	"math"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

// edgeCheck welds vertices with bitwise-equal positions and reports whether
// every directed edge of the welded mesh appears exactly once and its reverse
// exactly once (a closed, consistently oriented 2-manifold), plus the number of
// degenerate welded triangles.
func edgeCheck(m *Mesh) (closed bool, problem string) {
	weld := map[geom.Vec3]int{}
	id := make([]int, len(m.Positions))
	for i, p := range m.Positions {
		if _, ok := weld[p]; !ok {
			weld[p] = len(weld)
		}
		id[i] = weld[p]
	}
	type edge struct{ a, b int }
	count := map[edge]int{}
	for t := 0; t < len(m.Indices); t += 3 {
		v := [3]int{id[m.Indices[t]], id[m.Indices[t+1]], id[m.Indices[t+2]]}
		if v[0] == v[1] || v[1] == v[2] || v[0] == v[2] {
			return false, "degenerate triangle"
		}
		for k := 0; k < 3; k++ {
			count[edge{v[k], v[(k+1)%3]}]++
		}
	}
	for e, n := range count {
		if n != 1 {
			return false, "directed edge used more than once (inconsistent orientation)"
		}
		if count[edge{e.b, e.a}] != 1 {
			return false, "edge without an opposite (open boundary)"
		}
	}
	return true, ""
}

// signedVolume is the volume enclosed by a closed mesh, positive when its
// triangles are counter-clockwise seen from outside.
func signedVolume(m *Mesh) float64 {
	var v float64
	for t := 0; t < len(m.Indices); t += 3 {
		a, b, c := m.Positions[m.Indices[t]], m.Positions[m.Indices[t+1]], m.Positions[m.Indices[t+2]]
		v += float64(a.Dot(b.Cross(c))) / 6
	}
	return v
}

func faceNormal(m *Mesh, t int) geom.Vec3 {
	a, b, c := m.Positions[m.Indices[t]], m.Positions[m.Indices[t+1]], m.Positions[m.Indices[t+2]]
	return b.Sub(a).Cross(c.Sub(a))
}

func gen(t *testing.T, g Generator) *Mesh {
	t.Helper()
	m, err := g.Generate()
	if err != nil {
		t.Fatalf("%T: %v", g, err)
	}
	if err := m.Validate(); err != nil {
		t.Fatalf("%T: %v", g, err)
	}
	return m
}

var one = geom.Vec2{1, 1}

func TestProceduralCounts(t *testing.T) {
	tests := []struct {
		name       string
		g          Generator
		verts, tri int
		closed     bool
		volume     float64 // for closed meshes; 0 = not checked exactly
	}{
		{"plane", Plane{geom.Vec2{2, 3}, [2]int{2, 3}, one}, 12, 12, false, 0},
		{"cube", Cube{geom.Vec3{1, 2, 3}, 2, one}, 54, 48, true, 6},
		{"cube1", Cube{geom.Vec3{1, 1, 1}, 1, one}, 24, 12, true, 1},
		{"sphere", Sphere{1, 4, 6, one}, 33, 36, true, 0},
		{"sphere fine", Sphere{2, 32, 64, one}, 31*65 + 128, 2 * 64 * 31, true, 0},
		{"torus", Torus{1, 0.25, 8, 4, one}, 45, 64, true, 0},
		{"terrain", Terrain{geom.Vec2{4, 4}, [2]int{4, 4}, 1, 0.5, 3, 7, one}, 25, 32, false, 0},
		{"flock", Flock{10, geom.Vec3{4, 2, 4}, 0.2, 30, 0, 1}, 60, 20, false, 0},
		{"leaves", Leaves{7, geom.Vec3{1, 2, 1}, 0.3, 1}, 28, 14, false, 0},
		{"triangle", Triangle{Vertices: [3]geom.Vec3{{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}}}, 3, 1, false, 0},
		{"triangle with colors", Triangle{Vertices: [3]geom.Vec3{{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}}, HasColors: true}, 3, 1, false, 0},
	}
	for _, tc := range tests {
		m := gen(t, tc.g)
		if m.VertexCount() != tc.verts || m.TriangleCount() != tc.tri {
			t.Errorf("%s: %d vertices %d triangles, want %d and %d", tc.name, m.VertexCount(), m.TriangleCount(), tc.verts, tc.tri)
		}
		// The footprint a scene reserves before generating is the mesh's.
		if got, want := tc.g.Footprint(), (Footprint{m.VertexCount(), len(m.Indices), m.Bytes()}); got != want {
			t.Errorf("%s: Footprint() = %+v, the mesh has %+v", tc.name, got, want)
		}
		closed, why := edgeCheck(m)
		if closed != tc.closed {
			t.Errorf("%s: closed = %v (%s), want %v", tc.name, closed, why, tc.closed)
		}
		if tc.closed {
			v := signedVolume(m)
			if v <= 0 {
				t.Errorf("%s: signed volume %v, want positive (outward faces)", tc.name, v)
			}
			if tc.volume != 0 && math.Abs(v-tc.volume) > 1e-5*tc.volume {
				t.Errorf("%s: volume %v, want %v", tc.name, v, tc.volume)
			}
		}
	}
}

func TestProceduralOrientationAndFrames(t *testing.T) {
	tests := []struct {
		name string
		g    Generator
		// outward(p, n) reports whether the vertex normal n at p points outward.
		outward func(p, n geom.Vec3) bool
		checkW  bool
	}{
		{"plane", Plane{geom.Vec2{2, 2}, [2]int{3, 3}, one}, func(p, n geom.Vec3) bool { return n == geom.Vec3{0, 1, 0} }, true},
		{"cube", Cube{geom.Vec3{1, 1, 1}, 3, one}, func(p, n geom.Vec3) bool { return p.Dot(n) > 0.49 }, true},
		{"sphere", Sphere{1.5, 12, 24, one}, func(p, n geom.Vec3) bool { return nearVec3(p.Scale(1/1.5), n, 1e-6) }, true},
		{"torus", Torus{1, 0.3, 24, 12, one}, func(p, n geom.Vec3) bool {
			c := geom.Vec3{p[0], 0, p[2]}.Normalize() // direction to the tube centre line
			return p.Sub(c).Dot(n) > 0.29
		}, true},
		{"terrain", Terrain{geom.Vec2{8, 8}, [2]int{16, 16}, 2, 0.4, 4, 3, one}, func(p, n geom.Vec3) bool { return n[1] > 0 }, true},
		{"leaves", Leaves{50, geom.Vec3{1, 0.5, 2}, 0.2, 4}, func(p, n geom.Vec3) bool {
			// Inside the ellipsoid grown by half a leaf diagonal.
			q := geom.Vec3{p[0] / 1.15, p[1] / 0.65, p[2] / 2.15}
			return q.Dot(q) <= 1
		}, true},
	}
	for _, tc := range tests {
		m := gen(t, tc.g)
		for i := range m.Positions {
			n := m.Normals[i]
			if !near(n.Length(), 1, 1e-5) || !tc.outward(m.Positions[i], n) {
				t.Fatalf("%s: vertex %d at %v has normal %v", tc.name, i, m.Positions[i], n)
			}
			tg := m.Tangents[i]
			if !near(tg.XYZ().Length(), 1, 1e-5) || !near(tg.XYZ().Dot(n), 0, 1e-5) || (tg[3] != 1 && tg[3] != -1) {
				t.Fatalf("%s: vertex %d tangent %v not a unit vector perpendicular to %v", tc.name, i, tg, n)
			}
			if tc.checkW && tg[3] != 1 {
				t.Fatalf("%s: vertex %d tangent handedness %v, want +1 (unmirrored mapping)", tc.name, i, tg[3])
			}
		}
		// Every face agrees with its vertex normals (front = outward side).
		for f := 0; f < len(m.Indices); f += 3 {
			fn := faceNormal(m, f)
			if fn.Dot(m.Normals[m.Indices[f]]) <= 0 {
				t.Fatalf("%s: triangle %d faces away from its normals", tc.name, f/3)
			}
		}
	}
}

func TestPlaneAndCubeExactLayout(t *testing.T) {
	p := gen(t, Plane{geom.Vec2{2, 4}, [2]int{1, 1}, geom.Vec2{2, 3}})
	wantPos := []geom.Vec3{{-1, 0, -2}, {1, 0, -2}, {-1, 0, 2}, {1, 0, 2}}
	wantUV := []geom.Vec2{{0, 0}, {2, 0}, {0, 3}, {2, 3}}
	for i := range wantPos {
		if p.Positions[i] != wantPos[i] || p.TexCoords[i] != wantUV[i] || p.Tangents[i] != (geom.Vec4{1, 0, 0, 1}) {
			t.Errorf("plane vertex %d: %v %v %v", i, p.Positions[i], p.TexCoords[i], p.Tangents[i])
		}
	}
	wantIdx := []uint32{0, 2, 3, 0, 3, 1}
	for i, w := range wantIdx {
		if p.Indices[i] != w {
			t.Fatalf("plane indices %v, want %v", p.Indices, wantIdx)
		}
	}
	// Cube +Z face (the fifth): top-left vertex seen from +Z is (-0.5, 0.5, 0.5) with uv (0, 0).
	c := gen(t, Cube{geom.Vec3{1, 1, 1}, 1, one})
	if c.Positions[16] != (geom.Vec3{-0.5, 0.5, 0.5}) || c.TexCoords[16] != (geom.Vec2{0, 0}) || c.Normals[16] != (geom.Vec3{0, 0, 1}) {
		t.Errorf("cube +Z top-left vertex %v %v %v", c.Positions[16], c.TexCoords[16], c.Normals[16])
	}
}

func TestFlockDeterministicAndInVolume(t *testing.T) {
	f := Flock{50, geom.Vec3{10, 4, 6}, 0.3, 40, 1, 9}
	a, b := gen(t, f), gen(t, f)
	for i := range a.Positions {
		if a.Positions[i] != b.Positions[i] {
			t.Fatal("flock not deterministic")
		}
		p := a.Positions[i]
		if math.Abs(float64(p[0])) > 5.3 || math.Abs(float64(p[1])) > 2.3 || math.Abs(float64(p[2])) > 3.3 {
			t.Fatalf("bird vertex %v outside the volume", p)
		}
	}
	f.Seed = 10
	c := gen(t, f)
	if c.Positions[0] == a.Positions[0] {
		t.Error("seed does not change the flock")
	}
	// Both wings of a bird share the nose and tail.
	if a.Positions[0] != a.Positions[3] || a.Positions[1] != a.Positions[5] {
		t.Error("wings do not share the body line")
	}
	// Upper side is the front face: with no flap and no pitch the normal is +Y.
	flat := gen(t, Flock{1, geom.Vec3{}, 1, 0, 0, 1})
	for i, n := range flat.Normals {
		if n[1] < 0.96 { // pitch up to 15 degrees
			t.Errorf("wing vertex %d normal %v, want mostly +Y", i, n)
		}
	}
}

func TestGeneratorErrors(t *testing.T) {
	tests := []struct {
		g    Generator
		want string
	}{
		{Plane{geom.Vec2{0, 1}, [2]int{1, 1}, one}, "size[0] 0 must be positive and finite"},
		{Plane{geom.Vec2{1, 1}, [2]int{1, 0}, one}, "segments[1] 0 out of range [1, 4096]"},
		{Plane{geom.Vec2{1, 1}, [2]int{4096, 4096}, one}, "16785409 vertices, more than the limit 4194304"},
		{Cube{geom.Vec3{1, -1, 1}, 1, one}, "size[1] -1 must be positive and finite"},
		{Sphere{1, 1, 8, one}, "stacks 1 out of range [2, 4096]"},
		{Sphere{1, 4, 2, one}, "slices 2 out of range [3, 4096]"},
		{Torus{1, 1, 8, 8, one}, "minor_radius 1 must be smaller than major_radius 1"},
		{Terrain{geom.Vec2{1, 1}, [2]int{1, 1}, 1, 1, 0, 0, one}, "octaves 0 out of range [1, 12]"},
		{Terrain{geom.Vec2{1, 1}, [2]int{1, 1}, -1, 1, 1, 0, one}, "height -1 must be non-negative and finite"},
		{Flock{0, geom.Vec3{1, 1, 1}, 1, 0, 0, 0}, "count 0 out of range [1, 699050]"},
		{Flock{1, geom.Vec3{1, 1, 1}, 1, 95, 0, 0}, "flap 95 must be in [-90, 90] degrees and phase 0 finite"},
		{Triangle{Vertices: [3]geom.Vec3{{0, 0, 0}, {1, 1, 1}, {2, 2, 2}}}, "vertices [[0 0 0] [1 1 1] [2 2 2]] are collinear (zero area)"},
		{Leaves{0, geom.Vec3{1, 1, 1}, 1, 0}, "count 0 out of range [1, 1048576]"},
		{Leaves{1, geom.Vec3{1, -1, 1}, 1, 0}, "radii[1] -1 must be non-negative and finite"},
		{Plane{geom.Vec2{1, 1}, [2]int{1, 1}, geom.Vec2{float32(math.Inf(1)), 1}}, "uv_scale [+Inf 1] is not finite"},
	}
	for _, tc := range tests {
		_, err := tc.g.Generate()
		if err == nil || err.Error() != tc.want {
			t.Errorf("%+v: error %v, want %q", tc.g, err, tc.want)
		}
	}
}

// TestTriangleNearFloatRange: a triangle whose corners are near the float32
// range has a finite unit normal (its cross product would overflow float32)
// and a valid mesh.
func TestTriangleNearFloatRange(t *testing.T) {
	m, err := Triangle{Vertices: [3]geom.Vec3{{-1e38, -1e38, 0}, {1e38, -1e38, 0}, {0, 1e38, 0}}}.Generate()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if m.Normals[0] != (geom.Vec3{0, 0, 1}) {
		t.Errorf("normal %v, want [0 0 1]", m.Normals[0])
	}
}
