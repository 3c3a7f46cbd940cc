package decouple

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// exactVP maps clip (x, y, w=1) to screen ((x+1)*128, (1-y)*128): screen
// positions that are multiples of 1/256 pixel have exact clip coordinates.
var exactVP = geom.Viewport{Width: 256, Height: 256, MaxZ: 1}

// clipAt returns the clip position of screen point (sx, sy) in exactVP at w.
func clipAt(sx, sy, w float32) geom.Vec4 {
	return geom.Vec4{(sx/128 - 1) * w, (1 - sy/128) * w, 0.5 * w, w}
}

// unitTri is the screen triangle (0,0), (128,0), (0,128) at w = 1: the
// barycentrics of screen point (x, y) are (1 - x/128 - y/128, x/128, y/128).
var unitTri = [3]geom.Vec4{clipAt(0, 0, 1), clipAt(128, 0, 1), clipAt(0, 128, 1)}

func unitBary(x, y float32) [3]float32 { return [3]float32{1 - x/128 - y/128, x / 128, y / 128} }

func mustMap(t testing.TB, prim uint32, ref, end [3]geom.Vec4, vp geom.Viewport, o Options) Map {
	t.Helper()
	m, err := NewMap(prim, ref, end, vp, o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func nearest(t *testing.T, l Lookup) Tap {
	t.Helper()
	if l.N != 1 || l.Taps[0].Weight != 1 {
		t.Fatalf("lookup %+v: want one tap of weight 1", l)
	}
	return l.Taps[0]
}

func pixelTap(prim uint32, px, py int) Tap {
	return Tap{Tag: Tag{Prim: prim, QuadX: int32(px &^ 1), QuadY: int32(py &^ 1)}, Lane: uint8(px&1 + 2*(py&1)), Weight: 1}
}

// randomTriangle returns clip positions of a random triangle over a 64x64
// viewport (vertices up to 16 pixels outside) with w in [0.5, 4].
func randomTriangle(rng *rand.Rand, vp geom.Viewport) [3]geom.Vec4 {
	var p [3]geom.Vec4
	for k := range p {
		sx := rng.Float32()*96 - 16
		sy := rng.Float32()*96 - 16
		w := 0.5 + 3.5*rng.Float32()
		nx, ny := sx/(vp.Width/2)-1, 1-sy/(vp.Height/2)
		p[k] = geom.Vec4{nx * w, ny * w, 0.5 * w, w}
	}
	return p
}

// TestNoBlurIsMSAA: with ref == end and rate 1, every covered sample of pixel
// (x, y) maps to the pixel quad of (x, y) and its lane, for the D3D patterns
// (16x has samples on the pixel's left and top edges), and the shading point of
// a lane inside the triangle has bit for bit the barycentrics
// raster.Triangle.Barycentrics gives the pixel centre.
func TestNoBlurIsMSAA(t *testing.T) {
	const seed = 20110601
	rng := rand.New(rand.NewSource(seed))
	vp := geom.Viewport{Width: 64, Height: 64, MaxZ: 1}
	checked, inside := 0, 0
	for _, n := range []int{1, 4, 8, 16} {
		cfg, err := raster.NewConfig(n, raster.Rect{X0: 0, Y0: 0, X1: 64, Y1: 64})
		if err != nil {
			t.Fatal(err)
		}
		for trial := 0; trial < 40; trial++ {
			p := randomTriangle(rng, vp)
			var sv [3]geom.ScreenVertex
			for k := range sv {
				sv[k] = vp.ToScreen(p[k])
			}
			var tri raster.Triangle
			if !raster.Setup(sv, false, &cfg, &tri) {
				continue
			}
			m := mustMap(t, uint32(trial), p, p, vp, Options{})
			if m.View() != ViewOpen || m.Spacing() != 1 {
				t.Fatalf("seed %d: view %v spacing %v, want open, 1", seed, m.View(), m.Spacing())
			}
			for py := tri.BBox.Y0; py < tri.BBox.Y1; py++ {
				for px := tri.BBox.X0; px < tri.BBox.X1; px++ {
					for s := 0; s < n; s++ {
						if !tri.CoversSample(px, py, s) {
							continue
						}
						x, y := tri.SamplePosition(px, py, s)
						b := tri.Barycentrics(float32(x)/256, float32(y)/256, true)
						got := nearest(t, m.Index(b))
						if want := pixelTap(uint32(trial), px, py); got != want {
							t.Fatalf("seed %d, %d samples, triangle %d: sample %d of pixel (%d,%d) maps to %+v, want %+v",
								seed, n, trial, s, px, py, got, want)
						}
						checked++
						gb, kind := m.Barycentrics(got.Tag, int(got.Lane))
						if kind == PointInside {
							inside++
							if want := tri.Barycentrics(float32(px)+0.5, float32(py)+0.5, true); gb != want {
								t.Fatalf("seed %d: pixel (%d,%d) barycentrics %v, raster %v", seed, px, py, gb, want)
							}
						}
					}
				}
			}
		}
	}
	if checked < 10000 || inside < checked/2 {
		t.Fatalf("seed %d: only %d samples checked, %d at inside points", seed, checked, inside)
	}
}

// TestMovingTriangle: a sample with barycentrics b maps to the pixel holding
// the projection of sum b_k ref_k, whatever the triangle at shutter close.
func TestMovingTriangle(t *testing.T) {
	const seed = 7
	rng := rand.New(rand.NewSource(seed))
	vp := geom.Viewport{Width: 64, Height: 64, MaxZ: 1}
	checked, skipped := 0, 0
	for trial := 0; trial < 200; trial++ {
		ref, end := randomTriangle(rng, vp), randomTriangle(rng, vp)
		m := mustMap(t, 1, ref, end, vp, Options{})
		if m.View() != ViewOpen {
			continue
		}
		for k := 0; k < 50; k++ {
			r := [3]float64{rng.Float64(), rng.Float64(), rng.Float64()}
			s := r[0] + r[1] + r[2]
			b := [3]float32{float32(r[0] / s), float32(r[1] / s), float32(r[2] / s)}
			var pt geom.Vec4
			for c := 0; c < 4; c++ {
				for v := 0; v < 3; v++ {
					pt[c] += float32(float64(b[v]) * float64(ref[v][c]))
				}
			}
			var sum [4]float64
			for c := 0; c < 4; c++ {
				for v := 0; v < 3; v++ {
					sum[c] += float64(b[v]) * float64(ref[v][c])
				}
			}
			x := (sum[0]/sum[3] + 1) * float64(vp.Width) / 2
			y := (1 - sum[1]/sum[3]) * float64(vp.Height) / 2
			// Vertex snapping moves the point by up to 1/512 pixel; keep clear of edges.
			if fx, fy := x-math.Floor(x), y-math.Floor(y); fx < 1.0/128 || fx > 1-1.0/128 || fy < 1.0/128 || fy > 1-1.0/128 {
				skipped++
				continue
			}
			got := nearest(t, m.Index(b))
			if want := pixelTap(1, int(math.Floor(x)), int(math.Floor(y))); got != want {
				t.Fatalf("seed %d trial %d: b %v projects to (%v, %v), maps to %+v, want %+v", seed, trial, b, x, y, got, want)
			}
			checked++
		}
	}
	if checked < 5000 || skipped > checked/10 {
		t.Fatalf("seed %d: %d checked, %d skipped", seed, checked, skipped)
	}
}

// TestBoundaries pins the rounding: the point is snapped to 1/256 pixel (half to
// even), then a pixel [x, x+1) takes its left edge.
func TestBoundaries(t *testing.T) {
	end := [3]geom.Vec4{clipAt(200, 200, 1), clipAt(250, 200, 1), clipAt(200, 250, 1)}
	m := mustMap(t, 3, unitTri, end, exactVP, Options{})
	for _, c := range []struct {
		x, y   float32
		px, py int
	}{
		{10, 20, 10, 20},                     // on the corner: right and below
		{10 - 1.0/512, 20, 10, 20},           // 2559.5 units rounds to even 2560
		{10 - 3.0/512, 20, 9, 20},            // 2558.5 rounds to even 2558
		{10 + 1.0/512, 20, 10, 20},           // 2560.5 rounds to 2560
		{11 - 1.0/512, 21 - 1.0/512, 11, 21}, // 2815.5 rounds to 2816
		{10.5, 20.5, 10, 20},                 // the centre
	} {
		got := nearest(t, m.Index(unitBary(c.x, c.y)))
		if want := pixelTap(3, c.px, c.py); got != want {
			t.Errorf("point (%v, %v): %+v, want %+v", c.x, c.y, got, want)
		}
	}
}

func TestDegenerateViews(t *testing.T) {
	behind := [3]geom.Vec4{unitTri[0], unitTri[1], {0, 0, -1, -1}}
	line := [3]geom.Vec4{clipAt(0, 0, 1), clipAt(10, 10, 1), clipAt(20, 20, 1)}
	zeroW := [3]geom.Vec4{unitTri[0], unitTri[1], {0.5, 0.5, 0, 0}}
	end := [3]geom.Vec4{clipAt(100, 0, 1), clipAt(228, 0, 1), clipAt(100, 128, 1)} // unitTri moved 100 px right
	var stats MapStats
	for _, c := range []struct {
		name     string
		ref, end [3]geom.Vec4
		view     View
		b        [3]float32
		want     Tap
	}{
		{"static", unitTri, unitTri, ViewOpen, unitBary(10.5, 20.5), pixelTap(0, 10, 20)},
		{"behind the eye at t=0", behind, end, ViewClose, unitBary(10.5, 20.5), pixelTap(0, 110, 20)},
		{"w = 0 at t=0", zeroW, end, ViewClose, unitBary(10.5, 20.5), pixelTap(0, 110, 20)},
		{"line at t=0", line, end, ViewClose, unitBary(10.5, 20.5), pixelTap(0, 110, 20)},
		// Barycentric grid, 32 cells per unit: b1 = 0.3 -> cell 9, b2 = 0.5 -> cell 16.
		{"line at both", line, line, ViewBarycentric, [3]float32{0.2, 0.3, 0.5}, pixelTap(0, 9, 16)},
		{"behind and line", behind, line, ViewBarycentric, [3]float32{0.2, 0.3, 0.5}, pixelTap(0, 9, 16)},
		{"barycentric corner b1 = 1", line, line, ViewBarycentric, [3]float32{0, 1, 0}, pixelTap(0, 32, 0)},
	} {
		m := mustMap(t, 0, c.ref, c.end, exactVP, Options{})
		stats.Count(&m)
		if m.View() != c.view {
			t.Errorf("%s: view %v, want %v", c.name, m.View(), c.view)
			continue
		}
		if got := nearest(t, m.Index(c.b)); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	if want := (MapStats{Triangles: 7, DegenerateT1: 3, DegenerateBarycentric: 3}); stats != want {
		t.Errorf("stats %+v, want %+v", stats, want)
	}

	// The barycentric grid's shading points are cell centres in (b1, b2).
	m := mustMap(t, 0, line, line, exactVP, Options{})
	tag := Tag{QuadX: 8, QuadY: 16}
	if x, y := m.ShadingPoint(tag, 1); x != 9.5/32 || y != 16.5/32 {
		t.Errorf("barycentric shading point (%v, %v), want (%v, %v)", x, y, 9.5/32, 16.5/32)
	}
	if b, kind := m.Barycentrics(tag, 1); kind != PointInside || b != [3]float32{1 - 9.5/32 - 16.5/32, 9.5 / 32, 16.5 / 32} {
		t.Errorf("barycentric point %v %v", b, kind)
	}
	// Cell (32, 0), point (32.5/32, 0.5/32), is beyond b1 = 1 but touches the
	// corner: b0 = -1/32 is dropped and (b1, b2) renormalized.
	s := float32(32.5+0.5) / 32
	if b, kind := m.Barycentrics(Tag{QuadX: 32}, 0); kind != PointSnapped || b != [3]float32{0, float32(32.5/32) / s, float32(0.5/32) / s} {
		t.Errorf("corner cell %v %v, want snapped", b, kind)
	}
	// Cell (33, 0) cannot be reached.
	if _, kind := m.Barycentrics(Tag{QuadX: 32}, 1); kind != PointHelper {
		t.Errorf("cell (33, 0) is %v, want helper", kind)
	}
}

// TestRates: the grid spacing scales the cells; shading points sit at cell
// centres.
func TestRates(t *testing.T) {
	for _, c := range []struct {
		rate       float32
		x, y       float32 // the sample's point on screen
		want       Tap
		sx, sy     float32 // ShadingPoint of want
		spacingOut float32
	}{
		{1, 5.25, 6.75, pixelTap(0, 5, 6), 5.5, 6.5, 1},
		{2, 5.25, 6.75, pixelTap(0, 2, 3), 5, 7, 2},             // cells of 2 px: one point per 2x2 pixels
		{2, 4, 7.9, pixelTap(0, 2, 3), 5, 7, 2},                 // x = 4 opens cell 2
		{0.5, 5.25, 6.75, pixelTap(0, 10, 13), 5.25, 6.75, 0.5}, // 4 points per pixel
		{0.5, 5.2, 6.7, pixelTap(0, 10, 13), 5.25, 6.75, 0.5},
		{4, 17, 3, pixelTap(0, 4, 0), 18, 2, 4},
		{1.5, 4.4, 0, pixelTap(0, 2, 0), 3.75, 0.75, 1.5},
	} {
		m := mustMap(t, 0, unitTri, unitTri, exactVP, Options{Rate: c.rate})
		if m.Spacing() != c.spacingOut {
			t.Errorf("rate %v: spacing %v", c.rate, m.Spacing())
		}
		got := nearest(t, m.Index(unitBary(c.x, c.y)))
		if got != c.want {
			t.Errorf("rate %v point (%v, %v): %+v, want %+v", c.rate, c.x, c.y, got, c.want)
			continue
		}
		if sx, sy := m.ShadingPoint(got.Tag, int(got.Lane)); sx != c.sx || sy != c.sy {
			t.Errorf("rate %v: shading point (%v, %v), want (%v, %v)", c.rate, sx, sy, c.sx, c.sy)
		}
	}
}

func TestAdaptive(t *testing.T) {
	lens := Lens{Kx: 0.1, Ky: 0.1, F: 2}
	tri := func(w0, w1, w2 float32) [3]geom.Vec4 {
		return [3]geom.Vec4{clipAt(0, 0, w0), clipAt(128, 0, w1), clipAt(0, 128, w2)}
	}
	// CoC radius at w: |0.1*(w-2)/w| * 128 pixels.
	for _, c := range []struct {
		name string
		p    [3]geom.Vec4
		o    Options
		want float32
	}{
		{"in focus", tri(2, 2, 2), Options{Adaptive: true, Lens: lens}, 1},
		{"w = 4: CoC 6.4 px", tri(4, 4, 4), Options{Adaptive: true, Lens: lens}, 1638.0 / 256},
		{"w = 8: CoC 9.6 px", tri(8, 8, 8), Options{Adaptive: true, Lens: lens}, 9.6},
		{"smallest vertex CoC", tri(8, 4, 16), Options{Adaptive: true, Lens: lens}, 1638.0 / 256},
		{"one vertex in focus", tri(8, 2, 16), Options{Adaptive: true, Lens: lens}, 1},
		{"scale 0.5", tri(8, 8, 8), Options{Adaptive: true, Lens: lens, AdaptiveScale: 0.5}, 4.8},
		{"never finer than Rate", tri(4, 4, 4), Options{Adaptive: true, Lens: lens, Rate: 8}, 8},
		{"alpha tested", tri(8, 8, 8), Options{Adaptive: true, Lens: lens, Discards: true}, 1},
		{"off", tri(8, 8, 8), Options{Lens: lens}, 1},
	} {
		m := mustMap(t, 0, c.p, c.p, exactVP, c.o)
		if got := m.Spacing(); math.Abs(float64(got-c.want)) > 1.0/512 || got < 1 {
			t.Errorf("%s: spacing %v, want %v", c.name, got, c.want)
		}
	}
	// Spacing grows with the CoC.
	prev := float32(0)
	for _, w := range []float32{2, 2.5, 3, 4, 6, 10, 20} {
		m := mustMap(t, 0, tri(w, w, w), tri(w, w, w), exactVP, Options{Adaptive: true, Lens: lens})
		if m.Spacing() < prev || m.Spacing() < 1 {
			t.Errorf("w %v: spacing %v after %v", w, m.Spacing(), prev)
		}
		prev = m.Spacing()
	}
	if prev < 10 {
		t.Errorf("spacing at w = 20 is %v, want > 10", prev)
	}
}

func TestBilinear(t *testing.T) {
	m := mustMap(t, 5, unitTri, unitTri, exactVP, Options{Bilinear: true})
	tg := func(qx, qy int32) Tag { return Tag{Prim: 5, QuadX: qx, QuadY: qy} }
	for _, c := range []struct {
		x, y float32
		want []Tap
	}{
		{10.5, 20.5, []Tap{{tg(10, 20), 0, 1}}}, // on a grid point: nearest
		{11.5, 21.5, []Tap{{tg(10, 20), 3, 1}}},
		{3, 3, []Tap{{tg(2, 2), 0, 0.25}, {tg(2, 2), 1, 0.25}, {tg(2, 2), 2, 0.25}, {tg(2, 2), 3, 0.25}}}, // one quad
		{2, 2, []Tap{{tg(0, 0), 3, 0.25}, {tg(2, 0), 2, 0.25}, {tg(0, 2), 1, 0.25}, {tg(2, 2), 0, 0.25}}}, // four quads
		{10.75, 20.5, []Tap{{tg(10, 20), 0, 0.75}, {tg(10, 20), 1, 0.25}}},
		{10.75, 20.25, []Tap{{tg(10, 18), 2, 0.1875}, {tg(10, 18), 3, 0.0625}, {tg(10, 20), 0, 0.5625}, {tg(10, 20), 1, 0.1875}}},
	} {
		l := m.Index(unitBary(c.x, c.y))
		if l.N != len(c.want) {
			t.Errorf("point (%v, %v): %d taps %+v, want %+v", c.x, c.y, l.N, l.Taps[:l.N], c.want)
			continue
		}
		for k := range c.want {
			if l.Taps[k] != c.want[k] {
				t.Errorf("point (%v, %v): tap %d %+v, want %+v", c.x, c.y, k, l.Taps[k], c.want[k])
			}
		}
	}
	// Weights sum to 1 exactly at rate 1 (and within 2 ulps at other rates).
	const seed = 11
	rng := rand.New(rand.NewSource(seed))
	for _, rate := range []float32{1, 0.5, 2, 1.3} {
		mb := mustMap(t, 0, unitTri, unitTri, exactVP, Options{Bilinear: true, Rate: rate})
		for k := 0; k < 2000; k++ {
			x, y := rng.Float32()*60, rng.Float32()*60
			l := mb.Index(unitBary(x, y))
			s := float32(0)
			for _, tp := range l.Taps[:l.N] {
				s += tp.Weight
			}
			if (rate == 1 && s != 1) || math.Abs(float64(s)-1) > 2.4e-7 {
				t.Fatalf("seed %d rate %v point (%v, %v): weights sum to %v", seed, rate, x, y, s)
			}
		}
	}
}

// TestSnapping: lanes outside the triangle that a sample can reach are clamped
// into it; the others are helpers at their grid points.
func TestSnapping(t *testing.T) {
	// unitTri's hypotenuse is x + y = 128.
	m := mustMap(t, 0, unitTri, unitTri, exactVP, Options{})
	q := m.Quad(Tag{QuadX: 64, QuadY: 64})
	if q.Snapped != 1 || q.Helper != 14 {
		t.Fatalf("quad (64,64): snapped %04b helper %04b, want 0001 1110", q.Snapped, q.Helper)
	}
	if q.X != [4]float32{64.5, 65.5, 64.5, 65.5} || q.Y != [4]float32{64.5, 64.5, 65.5, 65.5} {
		t.Errorf("grid positions %v %v", q.X, q.Y)
	}
	if q.Bary[0] != [3]float32{0, 0.5, 0.5} {
		t.Errorf("snapped lane 0: %v, want [0 0.5 0.5]", q.Bary[0])
	}
	if want := unitBary(65.5, 65.5); q.Bary[3] != want {
		t.Errorf("helper lane 3: %v, want the grid point's %v", q.Bary[3], want)
	}
	// Both negative: clamped to the vertex.
	if b, kind := m.Barycentrics(Tag{QuadX: -2, QuadY: -2}, 3); kind != PointSnapped || b != [3]float32{1, 0, 0} {
		t.Errorf("pixel (-1,-1): %v %v, want [1 0 0] snapped", b, kind)
	}
	if _, kind := m.Barycentrics(Tag{QuadX: -2, QuadY: -2}, 2); kind != PointHelper {
		t.Errorf("pixel (-2,-1): %v, want helper", kind)
	}
	if b, kind := m.Barycentrics(Tag{QuadX: 10, QuadY: 10}, 0); kind != PointInside || b != unitBary(10.5, 10.5) {
		t.Errorf("pixel (10,10): %v %v", b, kind)
	}
	// Bilinear reaches one more ring: pixel (65, 64)'s point (65.5, 64.5) is
	// within one pixel of the hypotenuse.
	mb := mustMap(t, 0, unitTri, unitTri, exactVP, Options{Bilinear: true})
	if qb := mb.Quad(Tag{QuadX: 64, QuadY: 64}); qb.Snapped != 7 || qb.Helper != 8 {
		t.Errorf("bilinear quad (64,64): snapped %04b helper %04b, want 0111 1000", qb.Snapped, qb.Helper)
	}
	// Every lane any sample maps to is inside or snapped.
	const seed = 3
	rng := rand.New(rand.NewSource(seed))
	vp := geom.Viewport{Width: 64, Height: 64, MaxZ: 1}
	for trial := 0; trial < 100; trial++ {
		ref, end := randomTriangle(rng, vp), randomTriangle(rng, vp)
		for _, bil := range []bool{false, true} {
			m := mustMap(t, 0, ref, end, vp, Options{Bilinear: bil, Rate: []float32{0.5, 1, 2}[trial%3]})
			for k := 0; k < 50; k++ {
				r := [3]float32{rng.Float32(), rng.Float32(), rng.Float32()}
				s := r[0] + r[1] + r[2]
				l := m.Index([3]float32{r[0] / s, r[1] / s, r[2] / s})
				for _, tp := range l.Taps[:l.N] {
					if b, kind := m.Barycentrics(tp.Tag, int(tp.Lane)); kind == PointHelper || b[0] < 0 || b[1] < 0 || b[2] < 0 {
						t.Fatalf("seed %d trial %d: tap %+v is %v %v", seed, trial, tp, kind, b)
					}
				}
			}
		}
	}
}

func TestOptionsValidate(t *testing.T) {
	nan := float32(math.NaN())
	for _, c := range []struct {
		o     Options
		field string
	}{
		{Options{Rate: -1}, "Options.Rate"},
		{Options{Rate: nan}, "Options.Rate"},
		{Options{Rate: 1.0 / 1024}, "Options.Rate"},
		{Options{Rate: 1e6}, "Options.Rate"},
		{Options{AdaptiveScale: -1}, "Options.AdaptiveScale"},
		{Options{Lens: Lens{F: nan}}, "Options.Lens.F"},
		{Options{Lens: Lens{Kx: float32(math.Inf(1))}}, "Options.Lens.Kx"},
		{Options{BarycentricCells: -1}, "Options.BarycentricCells"},
	} {
		_, err := NewMap(0, unitTri, unitTri, exactVP, c.o)
		if err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%+v: error %v, want one naming %s", c.o, err, c.field)
		}
	}
	if err := (Options{Rate: 0.25, Adaptive: true, Bilinear: true, BarycentricCells: 8}).Validate(); err != nil {
		t.Errorf("valid options: %v", err)
	}
}

func TestIndexDoesNotAllocate(t *testing.T) {
	m := mustMap(t, 0, unitTri, unitTri, exactVP, Options{Bilinear: true})
	c, _ := NewLRU(64)
	b := unitBary(10.25, 3.75)
	if n := testing.AllocsPerRun(100, func() {
		l := m.Index(b)
		for _, tp := range l.Taps[:l.N] {
			c.Lookup(tp.Tag)
		}
	}); n != 0 {
		t.Errorf("Index + LRU.Lookup: %v allocations", n)
	}
}
