package raster

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

func TestDepth(t *testing.T) {
	cfg := mustConfig(t, 4, Rect{0, 0, 16, 16})
	// Z = 0.25 + x/16 + y/32 (pixels): every value below is exact in float32.
	v := [3]geom.ScreenVertex{
		{X: 0, Y: 0, Z: 0.25, InvW: 1},
		{X: 8 * 256, Y: 0, Z: 0.75, InvW: 0.5},
		{X: 0, Y: 8 * 256, Z: 0.5, InvW: 0.25},
	}
	tri := mustSetup(t, v, &cfg, "")
	tests := []struct {
		px, py, s int
		want      float32
	}{
		{1, 1, 0, 0.25 + (1.5-2.0/16)/16 + (1.5-6.0/16)/32}, // sample 0 at (-2,-6)/16 from the centre
		{1, 1, 3, 0.25 + (1.5+2.0/16)/16 + (1.5+6.0/16)/32},
		{0, 0, 1, 0.25 + (0.5+6.0/16)/16 + (0.5-2.0/16)/32},
		{4, 2, 2, 0.25 + (4.5-6.0/16)/16 + (2.5+2.0/16)/32},
	}
	for _, tc := range tests {
		if got := tri.SampleDepth(&cfg, tc.px, tc.py, tc.s); got != tc.want {
			t.Errorf("SampleDepth(%d,%d,%d) = %v, want %v", tc.px, tc.py, tc.s, got, tc.want)
		}
	}
	// sv_position at pixel (1,1): centre (1.5,1.5), Z = 0.25+1.5/16+1.5/32,
	// 1/w = b0*1 + b1*0.5 + b2*0.25 with b1 = b2 = 1.5/8.
	pos := tri.PixelPosition(1, 1)
	wantPos := geom.Vec4{1.5, 1.5, 0.390625, 0.625*1 + 0.1875*0.5 + 0.1875*0.25}
	if pos != wantPos {
		t.Errorf("PixelPosition(1,1) = %v, want %v", pos, wantPos)
	}
	// QuadDepths fills only the covered samples.
	var z [4][MaxSamples]float32
	for p := range z {
		for s := range z[p] {
			z[p][s] = -1
		}
	}
	q := Quad{X: 0, Y: 0, Coverage: packed(1<<0|1<<7|1<<13, 4)}
	tri.QuadDepths(&cfg, q, &z)
	for p := range z {
		for s := range z[p] {
			want := float32(-1)
			if q.Coverage.Has(p, s) {
				want = tri.SampleDepth(&cfg, p&1, p>>1, s)
			}
			if z[p][s] != want {
				t.Errorf("QuadDepths z[%d][%d] = %v, want %v", p, s, z[p][s], want)
			}
		}
	}
	// Clamping to the depth range, in either order of MinZ/MaxZ.
	for _, r := range [][2]float32{{0.3, 0.5}, {0.5, 0.3}} {
		c := cfg
		c.MinZ, c.MaxZ = r[0], r[1]
		if !Setup(v, false, &c, &tri) {
			t.Fatal("Setup rejected")
		}
		if got := tri.PixelPosition(0, 0)[2]; got != 0.3 { // 0.25 + .5/16 + .5/32 = 0.296875
			t.Errorf("range %v: Z at (0,0) = %v, want 0.3", r, got)
		}
		if got := tri.PixelPosition(3, 3)[2]; got != 0.5 { // 0.25 + 3.5/16 + 3.5/32 = 0.578125
			t.Errorf("range %v: Z at (3,3) = %v, want 0.5", r, got)
		}
		if got := tri.PixelPosition(1, 1)[2]; got != 0.390625 {
			t.Errorf("range %v: Z at (1,1) = %v, want 0.390625", r, got)
		}
	}
}

func TestBarycentrics(t *testing.T) {
	cfg := mustConfig(t, 1, Rect{0, 0, 64, 64})
	v := [3]geom.ScreenVertex{
		{X: 0, Y: 0, Z: 0, InvW: 1},
		{X: 8 * 256, Y: 0, Z: 0, InvW: 0.5},
		{X: 0, Y: 8 * 256, Z: 0, InvW: 0.25},
	}
	tri := mustSetup(t, v, &cfg, "")
	tests := []struct {
		x, y        float32
		perspective bool
		want        [3]float32
		eps         float64
	}{
		{0, 0, false, [3]float32{1, 0, 0}, 0},
		{8, 0, false, [3]float32{0, 1, 0}, 0},
		{0, 8, false, [3]float32{0, 0, 1}, 0},
		{2, 2, false, [3]float32{0.5, 0.25, 0.25}, 0},
		{6, 1, false, [3]float32{0.125, 0.75, 0.125}, 0},
		{-8, 0, false, [3]float32{2, -1, 0}, 0}, // extrapolation
		// Perspective: q = b*invW = (0.5, 0.125, 0.0625), sum 0.6875 -> (8/11, 2/11, 1/11).
		{2, 2, true, [3]float32{8.0 / 11, 2.0 / 11, 1.0 / 11}, 2e-7},
		// (4, 4): b = (0, .5, .5) -> q = (0, .25, .125) -> (0, 2/3, 1/3).
		{4, 4, true, [3]float32{0, 2.0 / 3, 1.0 / 3}, 2e-7},
		{0, 8, true, [3]float32{0, 0, 1}, 0},
	}
	for _, tc := range tests {
		got := tri.Barycentrics(tc.x, tc.y, tc.perspective)
		for i := range got {
			if !near(float64(got[i]), float64(tc.want[i]), tc.eps) {
				t.Errorf("Barycentrics(%v, %v, %v) = %v, want %v", tc.x, tc.y, tc.perspective, got, tc.want)
				break
			}
		}
	}
	// CCW winding: same weights for the same vertices.
	var ccw Triangle
	if !Setup([3]geom.ScreenVertex{v[0], v[2], v[1]}, false, &cfg, &ccw) {
		t.Fatal("Setup rejected CCW")
	}
	if got := ccw.Barycentrics(6, 1, false); got != [3]float32{0.125, 0.125, 0.75} {
		t.Errorf("CCW Barycentrics(6,1) = %v, want [0.125 0.125 0.75]", got)
	}
}

func TestInterpolate(t *testing.T) {
	a := [3]geom.Vec4{{1, 2, 3, 4}, {5, 6, 7, 8}, {-1, 0, 1, 2}}
	b := [3]float32{0.5, 0.25, 0.25}
	tests := []struct {
		mode InterpMode
		want geom.Vec4
	}{
		{Perspective, geom.Vec4{1.5, 2.5, 3.5, 4.5}},
		{NoPerspective, geom.Vec4{1.5, 2.5, 3.5, 4.5}},
		{NoPerspective | CentroidFlag, geom.Vec4{1.5, 2.5, 3.5, 4.5}},
		{Flat, geom.Vec4{1, 2, 3, 4}},
		{Flat | CentroidFlag, geom.Vec4{1, 2, 3, 4}},
	}
	for _, tc := range tests {
		if got := Interpolate(tc.mode, &a, b); got != tc.want {
			t.Errorf("Interpolate(%v) = %v, want %v", tc.mode, got, tc.want)
		}
	}
	names := map[InterpMode]string{Perspective: "perspective", NoPerspective | CentroidFlag: "noperspective centroid", Flat: "flat"}
	for m, want := range names {
		if m.String() != want {
			t.Errorf("%d.String() = %q, want %q", m, m.String(), want)
		}
	}
}

// TestPerspectiveAnalytic projects a 3D triangle with different w per vertex
// and checks perspective-correct interpolation against the geometry: the
// interpolated clip-space position must project back to the pixel centre, and
// its w must be the reciprocal of the screen-linear 1/w.
func TestPerspectiveAnalytic(t *testing.T) {
	vp := geom.Viewport{Width: 64, Height: 64, MinZ: 0, MaxZ: 1}
	proj := geom.Perspective(math.Pi/2, 1, 1, 100)
	world := [3]geom.Vec3{{-3, -2, -2}, {4, -1, -9}, {-1, 5, -20}}
	var clip [3]geom.Vec4
	var sv [3]geom.ScreenVertex
	for i, p := range world {
		clip[i] = proj.MulVec(p.Vec4(1))
		sv[i] = vp.ToScreen(clip[i])
	}
	cfg := mustConfig(t, 4, Rect{0, 0, 64, 64})
	tri := mustSetup(t, sv, &cfg, "")
	checked := 0
	for py := 0; py < 64; py++ {
		for px := 0; px < 64; px++ {
			if !tri.CoversSample(px, py, 0) {
				continue
			}
			x, y := float32(px)+0.5, float32(py)+0.5
			// The snapped triangle moved its vertices by up to 1/512 pixel; compare
			// with a tolerance that covers it.
			pc := Interpolate(Perspective, &clip, tri.Barycentrics(x, y, true))
			ndcX := float64(pc[0] / pc[3])
			ndcY := float64(pc[1] / pc[3])
			wantX := (float64(x)/32 - 1)
			wantY := (1 - float64(y)/32)
			if !near(ndcX, wantX, 2e-3) || !near(ndcY, wantY, 2e-3) {
				t.Fatalf("pixel (%d,%d): interpolated position projects to (%v,%v), want (%v,%v)", px, py, ndcX, ndcY, wantX, wantY)
			}
			invW := tri.PixelPosition(px, py)[3]
			if !near(float64(pc[3]*invW), 1, 1e-3) {
				t.Fatalf("pixel (%d,%d): w = %v, 1/w = %v", px, py, pc[3], invW)
			}
			// Screen-linear interpolation of the NDC position gives the pixel's NDC.
			var ndc [3]geom.Vec4
			for i := range clip {
				ndc[i] = geom.Vec4{clip[i][0] / clip[i][3], clip[i][1] / clip[i][3], 0, 0}
			}
			pn := Interpolate(NoPerspective, &ndc, tri.Barycentrics(x, y, false))
			if !near(float64(pn[0]), wantX, 2e-3) || !near(float64(pn[1]), wantY, 2e-3) {
				t.Fatalf("pixel (%d,%d): noperspective NDC (%v,%v), want (%v,%v)", px, py, pn[0], pn[1], wantX, wantY)
			}
			// View-space depth is perspective-correct: -z_view = w.
			pw := Interpolate(Perspective, &[3]geom.Vec4{world[0].Vec4(1), world[1].Vec4(1), world[2].Vec4(1)},
				tri.Barycentrics(x, y, true))
			if !near(float64(-pw[2]), float64(pc[3]), 1e-3*float64(pc[3])) {
				t.Fatalf("pixel (%d,%d): view z %v vs clip w %v", px, py, pw[2], pc[3])
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d pixels checked", checked)
	}
}

func TestEvalPosition(t *testing.T) {
	cfg4 := mustConfig(t, 4, Rect{0, 0, 8, 8})
	cfg8 := mustConfig(t, 8, Rect{0, 0, 8, 8})
	var tri4, tri8 Triangle
	v := [3]geom.ScreenVertex{uv(0, 0), uv(2048, 0), uv(0, 2048)}
	if !Setup(v, false, &cfg4, &tri4) || !Setup(v, false, &cfg8, &tri8) {
		t.Fatal("Setup rejected")
	}
	tests := []struct {
		name   string
		tri    *Triangle
		cfg    *Config
		q      Quad
		p      int
		mode   InterpMode
		wx, wy float32
	}{
		{"centre", &tri4, &cfg4, Quad{2, 4, packed(0x0500, 4)}, 2, Perspective, 2.5, 5.5},
		{"full pixel, centroid: centre", &tri4, &cfg4, Quad{2, 4, packed(0xFFFF, 4)}, 1, Perspective | CentroidFlag, 3.5, 4.5},
		{"helper pixel, centroid: centre", &tri4, &cfg4, Quad{2, 4, packed(0x000F, 4)}, 3, Perspective | CentroidFlag, 3.5, 5.5},
		{"flat centroid: centre", &tri4, &cfg4, Quad{2, 4, packed(0x0001, 4)}, 0, Flat | CentroidFlag, 2.5, 4.5},
		// Samples 0 (-2,-6) and 2 (-6,2) covered, both at squared distance 40: lower index wins.
		{"4x tie", &tri4, &cfg4, Quad{0, 0, packed(0x5, 4)}, 0, Perspective | CentroidFlag, 0.5 - 2.0/16, 0.5 - 6.0/16},
		{"4x single sample 3 of pixel 2", &tri4, &cfg4, Quad{2, 4, packed(0x0800, 4)}, 2, NoPerspective | CentroidFlag, 2.5 + 2.0/16, 5.5 + 6.0/16},
		// 8x: samples 4 (-5,5) d=50, 5 (-7,-1) d=50, 2 (5,1) d=26 covered: sample 2.
		{"8x closest", &tri8, &cfg8, Quad{0, 0, packed(1<<(8+2)|1<<(8+4)|1<<(8+5), 8)}, 1, Perspective | CentroidFlag, 1.5 + 5.0/16, 0.5 + 1.0/16},
		{"8x without flag", &tri8, &cfg8, Quad{0, 0, packed(1<<8|1<<(8+2), 8)}, 1, Perspective, 1.5, 0.5},
	}
	for _, tc := range tests {
		x, y := tc.tri.EvalPosition(tc.cfg, tc.q, tc.p, tc.mode)
		if x != tc.wx || y != tc.wy {
			t.Errorf("%s: EvalPosition = (%v, %v), want (%v, %v)", tc.name, x, y, tc.wx, tc.wy)
		}
	}
	// InterpolateQuad = EvalPosition + Barycentrics + Interpolate.
	a := [3]geom.Vec4{{0, 0, 0, 0}, {8, 0, 0, 0}, {0, 8, 0, 0}} // the screen position itself
	got := tri4.InterpolateQuad(&cfg4, Quad{0, 0, packed(0x5, 4)}, 0, NoPerspective|CentroidFlag, &a)
	if got != (geom.Vec4{0.375, 0.125, 0, 0}) {
		t.Errorf("InterpolateQuad centroid = %v, want (0.375, 0.125)", got)
	}
}

func TestInterpolationRandomConsistency(t *testing.T) {
	// Screen-linear weights reproduce the vertex positions (an affine
	// attribute) exactly up to float rounding, for random triangles.
	rng := rand.New(rand.NewSource(3))
	cfg := mustConfig(t, 1, Rect{0, 0, 64, 64})
	for i := 0; i < 200; i++ {
		v := randomTriangle(rng, cfg.Bounds)
		var tri Triangle
		if !Setup(v, false, &cfg, &tri) || tri.Area < 256*256 {
			continue
		}
		var a [3]geom.Vec4
		for k := range v {
			a[k] = geom.Vec4{float32(v[k].X) / 256, float32(v[k].Y) / 256, 0, 0}
		}
		x, y := float32(rng.Intn(64))+0.5, float32(rng.Intn(64))+0.5
		got := Interpolate(NoPerspective, &a, tri.Barycentrics(x, y, false))
		// Float error bound: the weights carry relative errors of a few ulps of
		// terms of size L^2/area (L: the extent of the vertices and the point), and
		// are multiplied by coordinates of size L.
		l := 64 + float64(max(abs32(v[0].X), abs32(v[1].X), abs32(v[2].X), abs32(v[0].Y), abs32(v[1].Y), abs32(v[2].Y)))/256
		scale := 1e-6*l*l*l/(float64(tri.Area)/65536) + 1e-5*l
		if !near(float64(got[0]), float64(x), scale) || !near(float64(got[1]), float64(y), scale) {
			t.Fatalf("triangle %+v: position at (%v,%v) interpolates to (%v,%v)", v, x, y, got[0], got[1])
		}
	}
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}
