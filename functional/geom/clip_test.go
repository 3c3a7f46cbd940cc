package geom

import (
	"math"
	"math/rand"
	"testing"
)

func TestNewGuardBand(t *testing.T) {
	tests := []struct {
		name  string
		vp    Viewport
		rng   float32
		wantX float32
		wantY float32
	}{
		// (16384 - 1 - 1024) / 1024 and (16384 - 1 - 512) / 512, both exact in float32.
		{"2048x1024", Viewport{Width: 2048, Height: 1024}, 16384, 15359.0 / 1024, 15871.0 / 512},
		{"default range", Viewport{Width: 2048, Height: 1024}, 0, 15359.0 / 1024, 15871.0 / 512},
		// centre (1024+512, 0+256): (16383-1536)/512, (16383-256)/256
		{"offset", Viewport{X: 1024, Width: 1024, Height: 512}, 16384, 14847.0 / 512, 16127.0 / 256},
		{"viewport beyond range", Viewport{Width: 40000, Height: 128}, 16384, 1, 16319.0 / 64},
		{"empty viewport", Viewport{Width: 0, Height: -3}, 16384, 1, 1},
		{"range capped at 2^21", Viewport{Width: 2, Height: 2}, 1e30, (1<<21 - 2), (1<<21 - 2)},
	}
	for _, tc := range tests {
		got := NewGuardBand(tc.vp, tc.rng)
		if got.X != tc.wantX || got.Y != tc.wantY {
			t.Errorf("%s: NewGuardBand = %+v, want {%v %v}", tc.name, got, tc.wantX, tc.wantY)
		}
	}
	// A viewport whose plane is not exact in float32: the plane must round down.
	vp := Viewport{Width: 1280, Height: 720}
	gb := NewGuardBand(vp, 16384)
	if exact := (16383.0 - 640) / 640; float64(gb.X) > exact || float64(math.Nextafter32(gb.X, 2*gb.X)) <= exact {
		t.Errorf("1280x720: X = %v, want the largest float32 <= %v", gb.X, exact)
	}
	// Vertices on the guard planes map inside the range after snapping.
	for _, w := range []float32{0.01, 1, 3.7, 1000} {
		s := vp.ToScreen(Vec4{gb.X * w, -gb.Y * w, 0, w})
		if s.X >= 16384*256 || s.Y >= 16384*256 {
			t.Errorf("w=%v: guard corner snaps to (%d, %d), beyond the range", w, s.X, s.Y)
		}
	}
}

func TestClipCode(t *testing.T) {
	gb := GuardBand{X: 2, Y: 4}
	nan := float32(math.NaN())
	tests := []struct {
		p    Vec4
		want uint32
	}{
		{Vec4{0, 0, 0.5, 1}, 0},
		{Vec4{1, -1, 0, 1}, 0}, // on the planes is inside
		{Vec4{1, -1, 1, 1}, 0},
		{Vec4{-1.5, 0, 0.5, 1}, ClipLeft},
		{Vec4{2.5, 0, 0.5, 1}, ClipRight | GuardRight},
		{Vec4{0, -3, 0.5, 1}, ClipBottom},
		{Vec4{0, 5, 0.5, 1}, ClipTop | GuardTop},
		{Vec4{0, -5, 0.5, 1}, ClipBottom | GuardBottom},
		{Vec4{-2.5, 0, 0.5, 1}, ClipLeft | GuardLeft},
		{Vec4{0, 0, -0.1, 1}, ClipNear},
		{Vec4{0, 0, 1.1, 1}, ClipFar},
		{Vec4{0, 0, 1, -1}, ClipFar | ClipLeft | ClipRight | ClipBottom | ClipTop | GuardMask}, // w < 0: |x| <= w impossible... x=0 > w
		{Vec4{nan, 0, 0, 1}, FrustumMask | GuardMask | ClipInvalid},
		{Vec4{0, 0, 0, float32(math.Inf(1))}, FrustumMask | GuardMask | ClipInvalid},
	}
	for _, tc := range tests {
		if got := ClipCode(tc.p, gb); got != tc.want {
			t.Errorf("ClipCode(%v) = %#x, want %#x", tc.p, got, tc.want)
		}
	}
}

func TestClassifyTriangle(t *testing.T) {
	tests := []struct {
		name       string
		c          [3]uint32
		wantReject bool
		wantMask   uint32
	}{
		{"inside", [3]uint32{0, 0, 0}, false, 0},
		{"crosses side planes only (guard band)", [3]uint32{ClipLeft, ClipRight, 0}, false, 0},
		{"all left", [3]uint32{ClipLeft, ClipLeft | ClipTop, ClipLeft | GuardLeft}, true, 0},
		{"all beyond guard but not one frustum plane", [3]uint32{GuardLeft | ClipLeft, GuardRight | ClipRight, 0}, false, GuardLeft | GuardRight},
		{"near", [3]uint32{ClipNear, 0, 0}, false, ClipNear},
		{"all near", [3]uint32{ClipNear, ClipNear, ClipNear | ClipFar}, true, 0},
		{"far and guard", [3]uint32{ClipFar, ClipTop | GuardTop, 0}, false, ClipFar | GuardTop},
		{"invalid", [3]uint32{0, FrustumMask | GuardMask | ClipInvalid, 0}, true, 0},
	}
	for _, tc := range tests {
		r, m := ClassifyTriangle(tc.c[0], tc.c[1], tc.c[2])
		if r != tc.wantReject || m != tc.wantMask {
			t.Errorf("%s: ClassifyTriangle = %v, %#x; want %v, %#x", tc.name, r, m, tc.wantReject, tc.wantMask)
		}
	}
}

// TestGuardBandNotClipped: a triangle that crosses the viewport's side planes
// but stays inside the guard band needs no clipping; one that crosses a guard
// plane does, against that plane only.
func TestGuardBandNotClipped(t *testing.T) {
	gb := NewGuardBand(Viewport{Width: 1280, Height: 720}, DefaultGuardBandRange)
	tests := []struct {
		name     string
		p        [3]Vec4
		wantMask uint32
	}{
		{"crosses left, right and top", [3]Vec4{{-3, 0, 0.5, 1}, {3, 0, 0.5, 1}, {0, 3, 0.5, 1}}, 0},
		{"crosses the right guard plane", [3]Vec4{{-3, 0, 0.5, 1}, {30, 0, 0.5, 1}, {0, 3, 0.5, 1}}, GuardRight},
	}
	for _, tc := range tests {
		reject, mask := ClassifyTriangle(ClipCode(tc.p[0], gb), ClipCode(tc.p[1], gb), ClipCode(tc.p[2], gb))
		if reject || mask != tc.wantMask {
			t.Errorf("%s: reject %v mask %#x, want false %#x", tc.name, reject, mask, tc.wantMask)
		}
	}
}

func cv(x, y, z, w float32, b0, b1, b2 float32) ClipVertex {
	return ClipVertex{Pos: Vec4{x, y, z, w}, B: [3]float32{b0, b1, b2}}
}

func TestClipTriangleHandComputed(t *testing.T) {
	gb := GuardBand{X: 2, Y: 2}
	tests := []struct {
		name string
		p    [3]Vec4
		mask uint32
		want []ClipVertex
	}{
		{"mask zero passes through", [3]Vec4{{0, 0, 1, 2}, {0, 0, -1, 2}, {1, 0, 1, 2}}, 0,
			[]ClipVertex{cv(0, 0, 1, 2, 1, 0, 0), cv(0, 0, -1, 2, 0, 1, 0), cv(1, 0, 1, 2, 0, 0, 1)}},
		{"inside all planes", [3]Vec4{{0, 0, 1, 2}, {0, 1, 1, 2}, {1, 0, 1, 2}}, ClipPlaneMask,
			[]ClipVertex{cv(0, 0, 1, 2, 1, 0, 0), cv(0, 1, 1, 2, 0, 1, 0), cv(1, 0, 1, 2, 0, 0, 1)}},
		// v1 behind the near plane: both intersections at t = 1/2.
		{"near, v1 out", [3]Vec4{{0, 0, 1, 2}, {0, 0, -1, 2}, {1, 0, 1, 2}}, ClipNear,
			[]ClipVertex{cv(0, 0, 1, 2, 1, 0, 0), cv(0, 0, 0, 2, 0.5, 0.5, 0), cv(0.5, 0, 0, 2, 0, 0.5, 0.5), cv(1, 0, 1, 2, 0, 0, 1)}},
		// v0 out: the output starts at v1, the first surviving input vertex.
		{"near, v0 out", [3]Vec4{{0, 0, -1, 2}, {0, 0, 1, 2}, {1, 0, 1, 2}}, ClipNear,
			[]ClipVertex{cv(0, 0, 1, 2, 0, 1, 0), cv(1, 0, 1, 2, 0, 0, 1), cv(0.5, 0, 0, 2, 0.5, 0, 0.5), cv(0, 0, 0, 2, 0.5, 0.5, 0)}},
		// Two vertices out: t = 1/4 from v2 (d = 1 towards d = -3).
		{"near, two out", [3]Vec4{{0, 0, -3, 1}, {4, 0, -3, 1}, {0, 4, 1, 1}}, ClipNear,
			[]ClipVertex{cv(0, 4, 1, 1, 0, 0, 1), cv(0, 3, 0, 1, 0.25, 0, 0.75), cv(1, 3, 0, 1, 0, 0.25, 0.75)}},
		// The inside vertex v0 lies on the plane: no duplicate intersection on edge 0-1.
		{"inside vertex on the plane", [3]Vec4{{0, 0, 0, 1}, {0, 0, -1, 1}, {1, 0, 1, 1}}, ClipNear,
			[]ClipVertex{cv(0, 0, 0, 1, 1, 0, 0), cv(0.5, 0, 0, 1, 0, 0.5, 0.5), cv(1, 0, 1, 1, 0, 0, 1)}},
		// Far plane d = w - z: v2 has d = -1, v0 and v1 d = 1: t = 1/2.
		{"far", [3]Vec4{{0, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 2, 1}}, ClipFar,
			[]ClipVertex{cv(0, 0, 0, 1, 1, 0, 0), cv(1, 0, 0, 1, 0, 1, 0), cv(0.5, 0.5, 1, 1, 0, 0.5, 0.5), cv(0, 0.5, 1, 1, 0.5, 0, 0.5)}},
		// Guard right x <= 2w: v1 at x = 6 (d = -4), v0 at x = 0 (d = 2): t = 1/3 -> x lands on 2 exactly.
		{"guard right", [3]Vec4{{0, 0, 0.5, 1}, {6, 0, 0.5, 1}, {0, 1, 0.5, 1}}, GuardRight,
			[]ClipVertex{cv(0, 0, 0.5, 1, 1, 0, 0), cv(2, 0, 0.5, 1, 1-float32(1.0/3), float32(1.0/3), 0),
				cv(2, 1-float32(1.0/3), 0.5, 1, 0, float32(1.0/3), 1-float32(1.0/3)), cv(0, 1, 0.5, 1, 0, 0, 1)}},
		{"all outside", [3]Vec4{{0, 0, -1, 1}, {1, 0, -1, 1}, {0, 1, -2, 1}}, ClipNear, nil},
		{"outside a plane not in mask is kept", [3]Vec4{{0, 0, -1, 1}, {1, 0, -1, 1}, {0, 1, -2, 1}}, ClipFar | GuardMask,
			[]ClipVertex{cv(0, 0, -1, 1, 1, 0, 0), cv(1, 0, -1, 1, 0, 1, 0), cv(0, 1, -2, 1, 0, 0, 1)}},
	}
	for _, tc := range tests {
		var out ClipPolygon
		out.N = 99
		ClipTriangle(tc.p, tc.mask, gb, &out)
		if out.N != len(tc.want) {
			t.Errorf("%s: N = %d, want %d: %v", tc.name, out.N, len(tc.want), out.V[:max(0, min(out.N, MaxClipVertices))])
			continue
		}
		for i, w := range tc.want {
			got := out.V[i]
			if !near4(got.Pos, w.Pos, 1e-6) || !near3(got.B, w.B, 1e-6) {
				t.Errorf("%s: V[%d] = %+v, want %+v", tc.name, i, got, w)
			}
		}
	}
}

func near4(a, b Vec4, eps float64) bool {
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > eps {
			return false
		}
	}
	return true
}

func near3(a, b [3]float32, eps float64) bool {
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > eps {
			return false
		}
	}
	return true
}

// TestClipSharedEdge: two triangles sharing the edge AB (in opposite directions)
// that crosses the near plane and a guard-band plane produce bit-identical
// vertices on that edge.
func TestClipSharedEdge(t *testing.T) {
	gb := GuardBand{X: 3, Y: 3}
	a := Vec4{0.5, 0.3, -0.2, 1.3}  // behind the near plane
	b := Vec4{13.1, -0.2, 0.8, 1.9} // beyond guard right (x > 3w = 5.7)
	c := Vec4{0.1, 0.9, 0.4, 1.1}
	d := Vec4{0.3, -0.8, 0.6, 1.7}
	codes := func(p [3]Vec4) uint32 {
		_, m := ClassifyTriangle(ClipCode(p[0], gb), ClipCode(p[1], gb), ClipCode(p[2], gb))
		return m
	}
	t1 := [3]Vec4{a, b, c}
	t2 := [3]Vec4{b, a, d}
	m1, m2 := codes(t1), codes(t2)
	if m1 != ClipNear|GuardRight || m2 != m1 {
		t.Fatalf("masks %#x %#x, want near|guard right", m1, m2)
	}
	var p1, p2 ClipPolygon
	ClipTriangle(t1, m1, gb, &p1)
	ClipTriangle(t2, m2, gb, &p2)
	// Vertices on edge AB have zero weight on the third vertex.
	onEdge := func(p *ClipPolygon) map[Vec4]bool {
		s := map[Vec4]bool{}
		for _, v := range p.V[:p.N] {
			if v.B[2] == 0 {
				s[v.Pos] = true
			}
		}
		return s
	}
	e1, e2 := onEdge(&p1), onEdge(&p2)
	if len(e1) != 2 {
		t.Fatalf("triangle 1 has %d vertices on AB, want 2 (the near and the guard split): %v", len(e1), p1.V[:p1.N])
	}
	for v := range e1 {
		if !e2[v] {
			t.Errorf("split vertex %v of ABC not produced bit-exactly for BAD (%v)", v, e2)
		}
	}
	if len(e2) != len(e1) {
		t.Errorf("edge vertex sets differ: %v vs %v", e1, e2)
	}
}

// TestClipRandom checks the invariants on seeded random triangles.
func TestClipRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	gb := NewGuardBand(Viewport{Width: 1280, Height: 720}, DefaultGuardBandRange)
	clipped := 0
	for iter := 0; iter < 20000; iter++ {
		var p [3]Vec4
		for i := range p {
			w := float32(0.05 + 10*rng.Float64())
			s := float32(math.Pow(10, 3*rng.Float64())) // up to 1000x the frustum
			p[i] = Vec4{s * w * float32(2*rng.Float64()-1), s * w * float32(2*rng.Float64()-1), w * float32(3*rng.Float64()-1), w}
		}
		var c [3]uint32
		for i := range p {
			c[i] = ClipCode(p[i], gb)
		}
		reject, mask := ClassifyTriangle(c[0], c[1], c[2])
		if reject || mask == 0 {
			continue
		}
		clipped++
		var out ClipPolygon
		ClipTriangle(p, mask, gb, &out)
		checkClipped(t, p, c, mask, gb, &out)
		if t.Failed() {
			t.Fatalf("iteration %d: input %v mask %#x", iter, p, mask)
		}
	}
	if clipped < 5000 {
		t.Fatalf("only %d random triangles needed clipping", clipped)
	}
}

func checkClipped(t *testing.T, p [3]Vec4, c [3]uint32, mask uint32, gb GuardBand, out *ClipPolygon) {
	t.Helper()
	if out.N != 0 && (out.N < 3 || out.N > MaxClipVertices) {
		t.Errorf("N = %d", out.N)
		return
	}
	// Surviving input vertices are bit-exact, in input order, and the first
	// surviving one comes first.
	first := true
	for i := 0; i < 3; i++ {
		if c[i]&mask != 0 {
			continue
		}
		found := -1
		for k := 0; k < out.N; k++ {
			var b [3]float32
			b[i] = 1
			if out.V[k].Pos == p[i] && out.V[k].B == b {
				found = k
			}
		}
		if found < 0 {
			t.Errorf("inside vertex %d not preserved bit-exactly", i)
		} else if first && found != 0 {
			t.Errorf("first surviving vertex %d is output at %d, want 0", i, found)
		}
		first = false
	}
	var ndcArea float64
	for k := 0; k < out.N; k++ {
		v := out.V[k]
		scale := 0.0
		for j := 0; j < 4; j++ {
			scale = math.Max(scale, math.Abs(float64(v.Pos[j])))
		}
		eps := 1e-5 * (scale + 1)
		// Inside every plane of the mask.
		for plane := 0; plane < numPlanes; plane++ {
			if mask&planeBits[plane] != 0 {
				if d := planeDistance(plane, v.Pos, gb); float64(d) < -eps {
					t.Errorf("V[%d] = %v outside plane %d by %v", k, v.Pos, plane, d)
				}
			}
		}
		// Lerp consistency: Pos == sum B[i] * p[i].
		var sumB float64
		for j := 0; j < 4; j++ {
			var s float64
			for i := 0; i < 3; i++ {
				s += float64(v.B[i]) * float64(p[i][j])
			}
			inScale := math.Max(math.Max(math.Abs(float64(p[0][j])), math.Abs(float64(p[1][j]))), math.Abs(float64(p[2][j])))
			if math.Abs(s-float64(v.Pos[j])) > 1e-5*(inScale+1) {
				t.Errorf("V[%d].Pos[%d] = %v, weights give %v", k, j, v.Pos[j], s)
			}
		}
		for i := 0; i < 3; i++ {
			sumB += float64(v.B[i])
			if v.B[i] < -1e-6 || v.B[i] > 1+1e-6 {
				t.Errorf("V[%d].B = %v out of [0,1]", k, v.B)
			}
		}
		if math.Abs(sumB-1) > 1e-5 {
			t.Errorf("V[%d].B sums to %v", k, sumB)
		}
		n := out.V[(k+1)%out.N]
		ndcArea += float64(v.Pos[0]/v.Pos[3])*float64(n.Pos[1]/n.Pos[3]) - float64(n.Pos[0]/n.Pos[3])*float64(v.Pos[1]/v.Pos[3])
	}
	// Winding is kept (all w > 0 here, so projection keeps orientation).
	triArea := 0.0
	for i := 0; i < 3; i++ {
		a, b := p[i], p[(i+1)%3]
		triArea += float64(a[0]/a[3])*float64(b[1]/b[3]) - float64(b[0]/b[3])*float64(a[1]/a[3])
	}
	if out.N >= 3 && math.Abs(ndcArea) > 1e-3*math.Abs(triArea) && (ndcArea > 0) != (triArea > 0) {
		t.Errorf("winding flipped: polygon area %v, triangle area %v", ndcArea, triArea)
	}
}

func TestNoPerspectiveWeights(t *testing.T) {
	tests := []struct {
		b, w, want [3]float32
	}{
		{[3]float32{1, 0, 0}, [3]float32{5, 1, 1}, [3]float32{1, 0, 0}},
		{[3]float32{0.5, 0.5, 0}, [3]float32{1, 3, 7}, [3]float32{0.25, 0.75, 0}},
		{[3]float32{0.25, 0.25, 0.5}, [3]float32{2, 2, 2}, [3]float32{0.25, 0.25, 0.5}},
		{[3]float32{0.5, 0.5, 0}, [3]float32{0, 0, 1}, [3]float32{0.5, 0.5, 0}}, // degenerate: unchanged
	}
	for _, tc := range tests {
		if got := NoPerspectiveWeights(tc.b, tc.w); got != tc.want {
			t.Errorf("NoPerspectiveWeights(%v, %v) = %v, want %v", tc.b, tc.w, got, tc.want)
		}
	}
}

func FuzzClipTriangle(f *testing.F) {
	f.Add(float32(0), float32(0), float32(-1), float32(1), float32(40), float32(0), float32(0.5), float32(1),
		float32(0), float32(1), float32(0.5), float32(1))
	f.Add(float32(-0.7), float32(0.3), float32(-0.9), float32(1.3), float32(13.1), float32(-0.2), float32(0.8), float32(1.9),
		float32(0.1), float32(0.9), float32(0.4), float32(1.1))
	f.Fuzz(func(t *testing.T, x0, y0, z0, w0, x1, y1, z1, w1, x2, y2, z2, w2 float32) {
		gb := GuardBand{X: 3, Y: 5}
		p := [3]Vec4{{x0, y0, z0, w0}, {x1, y1, z1, w1}, {x2, y2, z2, w2}}
		var c [3]uint32
		for i := range p {
			c[i] = ClipCode(p[i], gb)
		}
		reject, mask := ClassifyTriangle(c[0], c[1], c[2])
		if reject {
			return
		}
		var out ClipPolygon
		ClipTriangle(p, mask, gb, &out)
		if out.N != 0 && (out.N < 3 || out.N > MaxClipVertices) {
			t.Fatalf("N = %d", out.N)
		}
		for i := 0; i < 3; i++ {
			if c[i]&mask != 0 {
				continue
			}
			ok := false
			for k := 0; k < out.N; k++ {
				ok = ok || out.V[k].Pos == p[i]
			}
			if !ok && out.N > 0 {
				t.Fatalf("inside vertex %d lost: %v", i, out.V[:out.N])
			}
		}
	})
}
