package raster5d

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// randomTriangle returns a triangle of the given shape and case for viewport vp:
// clip positions at shutter open and close, and the lens.
// randomCase is a triangle of the random sweeps: sample count n, the case c
// and shape asked of randomTriangle, the iteration, and the triangle with its
// configuration (a random cull mode and winding).
type randomCase struct {
	n      int
	c      Case
	shape  string
	it     int
	p0, p1 [3]geom.Vec4
	lens   Lens
	cfg    Config
}

func (rc *randomCase) name() string {
	return fmt.Sprintf("n=%d %v %s #%d", rc.n, rc.c, rc.shape, rc.it)
}

// eachRandomTriangle calls f on iters random triangles of every case and
// shape for each sample count of ns (the pattern of n samples: pattern(n)),
// drawing from rng in a fixed order.
func eachRandomTriangle(rng *rand.Rand, vp geom.Viewport, bounds raster.Rect, ns []int, pattern func(n int) *Pattern, iters int,
	f func(rc *randomCase)) {
	for _, n := range ns {
		pat := pattern(n)
		for _, c := range []Case{Static, Moving, Defocused, Both} {
			for _, shape := range shapes {
				for it := 0; it < iters; it++ {
					rc := randomCase{n: n, c: c, shape: shape, it: it}
					rc.p0, rc.p1, rc.lens = randomTriangle(rng, vp, shape, c)
					rc.cfg = Config{Pattern: pat, Bounds: bounds, Cull: geom.CullMode(rng.Intn(3)), FrontCCW: rng.Intn(2) == 0}
					f(&rc)
				}
			}
		}
	}
}

// shapes are the kinds of triangle randomTriangle makes.
var shapes = []string{"large", "medium", "tiny", "sliver", "crossing", "behind", "nearfar"}

func randomTriangle(rng *rand.Rand, vp geom.Viewport, shape string, c Case) (p0, p1 [3]geom.Vec4, lens Lens) {
	W, H := float64(vp.Width), float64(vp.Height)
	cx, cy := float64(vp.X)+rng.Float64()*W, float64(vp.Y)+rng.Float64()*H
	size := map[string]float64{"large": 1.5 * W, "medium": W / 3, "tiny": 1.5, "sliver": W, "crossing": W / 2, "behind": W / 2, "nearfar": W / 2}[shape]
	for k := 0; k < 3; k++ {
		sx, sy := cx+(rng.Float64()-0.5)*size, cy+(rng.Float64()-0.5)*size
		if shape == "sliver" && k == 2 {
			// Close to the line through the first two vertices.
			a := rng.Float64()
			sx = a*screenX(vp, p0[0]) + (1-a)*screenX(vp, p0[1]) + (rng.Float64()-0.5)*0.3
			sy = a*screenY(vp, p0[0]) + (1-a)*screenY(vp, p0[1]) + (rng.Float64()-0.5)*0.3
		}
		w := 1 + 3*rng.Float64()
		zn := 0.1 + 0.8*rng.Float64()
		if shape == "nearfar" {
			zn = -0.5 + 2*rng.Float64()
		}
		p0[k] = clipOf(vp, sx, sy, w, zn)
		if shape == "crossing" && k == 0 || shape == "behind" {
			// Behind the eye: w < 0, any x, y.
			w := -0.2 - rng.Float64()
			p0[k] = geom.Vec4{float32((rng.Float64() - 0.5) * 4), float32((rng.Float64() - 0.5) * 4), float32(0.5 * w), float32(w)}
		}
	}
	p1 = p0
	if c == Moving || c == Both {
		mx, my := (rng.Float64()-0.5)*W/3, (rng.Float64()-0.5)*H/3
		for k := 0; k < 3; k++ {
			w := float64(p0[k][3])
			if w <= 0 {
				p1[k] = geom.Vec4{p0[k][0] + float32(rng.Float64()-0.5), p0[k][1] + float32(rng.Float64()-0.5), p0[k][2], p0[k][3] + float32(rng.Float64())}
				continue
			}
			w1 := w * (0.8 + 0.4*rng.Float64())
			zn := float64(p0[k][2]) / w
			p1[k] = clipOf(vp, screenX(vp, p0[k])+mx+(rng.Float64()-0.5)*4, screenY(vp, p0[k])+my+(rng.Float64()-0.5)*4, w1, zn)
		}
	}
	if c == Defocused || c == Both {
		lens = Lens{Kx: float32(0.05 + 0.3*rng.Float64()), Ky: float32(0.05 + 0.3*rng.Float64()), F: float32(1.5 + rng.Float64())}
	}
	return p0, p1, lens
}

func screenX(vp geom.Viewport, p geom.Vec4) float64 {
	return float64(vp.X) + (float64(p[0])/float64(p[3])+1)*float64(vp.Width)/2
}

func screenY(vp geom.Viewport, p geom.Vec4) float64 {
	return float64(vp.Y) + (1-float64(p[1])/float64(p[3]))*float64(vp.Height)/2
}

// TestBruteForce compares the rasterizer (Tiles + TileQuads, and CoversSample)
// with the brute-force reference on random triangles of every shape and case,
// at every sample of the bounds. Static triangles must agree exactly; the other
// cases may differ only at samples where a value the decision depends on is
// within a tiny relative distance of its boundary (counted and bounded).
func TestBruteForce(t *testing.T) {
	const seed = 5
	rng := rand.New(rand.NewSource(seed))
	vp := geom.Viewport{X: -3.5, Y: 2, Width: 64, Height: 40, MinZ: 0, MaxZ: 1}
	bounds := raster.Rect{X0: 1, Y0: 3, X1: 60, Y1: 42}
	var skipped, compared [NumCases]int
	var hits [NumCases]int
	eachRandomTriangle(rng, vp, bounds, []int{1, 5, 8, 27}, func(n int) *Pattern { return mustPattern(t, n, uint64(n)*7+seed) }, 3, func(rc *randomCase) {
		n, c, p0, p1, lens, cfg, pat := rc.n, rc.c, rc.p0, rc.p1, rc.lens, rc.cfg, rc.cfg.Pattern
		var tri Triangle
		got := Setup(p0, p1, lens, vp, &cfg, &tri)
		name := rc.name()
		if got != Rejected && got != c {
			t.Fatalf("%s: case %v", name, got)
		}
		var st Stats
		cov := coverage(t, &tri, &st)
		for py := bounds.Y0; py < bounds.Y1; py++ {
			for px := bounds.X0; px < bounds.X1; px++ {
				for s := 0; s < n; s++ {
					key := [3]int{px, py, s}
					if tri.CoversSample(px, py, s) != cov[key] {
						t.Fatalf("%s: sample %v: CoversSample %v, TileQuads %v", name, key, !cov[key], cov[key])
					}
					b := bruteAt(pat, p0, p1, lens, vp, &cfg, px, py, s)
					if b.covered && !tri.BBox.Contains(px, py) {
						t.Fatalf("%s: brute-force hit %v outside BBox %+v", name, key, tri.BBox)
					}
					if b.covered == cov[key] {
						compared[c]++
						if b.covered {
							hits[c]++
						}
						continue
					}
					if c != Static && b.nearZero {
						skipped[c]++
						continue
					}
					t.Fatalf("%s: sample %v: rasterizer %v, brute force %v (e=%v d=%v zw=%v)", name, key, cov[key], b.covered, b.e, b.d, b.zw)
				}
			}
		}
		if int(st.SamplesCovered) != len(cov) {
			t.Fatalf("%s: Stats.SamplesCovered %d, %d covered", name, st.SamplesCovered, len(cov))
		}
	})
	for c := Static; c < NumCases; c++ {
		t.Logf("%v: %d samples agree (%d hits), %d near-zero disagreements skipped", c, compared[c], hits[c], skipped[c])
		if hits[c] < 1000 {
			t.Errorf("%v: only %d hits: the test exercises too little", c, hits[c])
		}
		if skipped[c] > 2 {
			t.Errorf("%v: %d near-zero disagreements, want at most 2", c, skipped[c])
		}
	}
}

// gridMesh is a grid of nx x ny cells, each split in two triangles along an
// alternating diagonal, all clockwise on screen, sharing their vertices.
type gridMesh struct {
	p0, p1 [][]geom.Vec4 // [j][i] vertex positions
	nx, ny int
}

func (m *gridMesh) triangles(yield func(p0, p1 [3]geom.Vec4)) {
	for j := 0; j < m.ny; j++ {
		for i := 0; i < m.nx; i++ {
			a, b, c, d := [2]int{i, j}, [2]int{i + 1, j}, [2]int{i + 1, j + 1}, [2]int{i, j + 1}
			tris := [2][3][2]int{{a, b, c}, {a, c, d}}
			if (i+j)&1 == 1 {
				tris = [2][3][2]int{{a, b, d}, {b, c, d}}
			}
			for _, tr := range tris {
				var q0, q1 [3]geom.Vec4
				for k, v := range tr {
					q0[k], q1[k] = m.p0[v[1]][v[0]], m.p1[v[1]][v[0]]
				}
				yield(q0, q1)
			}
		}
	}
}

// newGridMesh builds a mesh over the screen rectangle [x0, x1] x [y0, y1]
// (pixels) with jittered interior vertices at random depths; moving vertices
// (those with moving(i, j)) shift by a common motion plus a small jitter.
func newGridMesh(rng *rand.Rand, vp geom.Viewport, x0, y0, x1, y1 float64, nx, ny int, jitter float64, moving func(i, j int) bool) *gridMesh {
	m := &gridMesh{nx: nx, ny: ny}
	mx, my := (rng.Float64()-0.5)*16, (rng.Float64()-0.5)*16
	for j := 0; j <= ny; j++ {
		var r0, r1 []geom.Vec4
		for i := 0; i <= nx; i++ {
			sx := x0 + (x1-x0)*float64(i)/float64(nx)
			sy := y0 + (y1-y0)*float64(j)/float64(ny)
			if i > 0 && i < nx && j > 0 && j < ny {
				sx += (rng.Float64() - 0.5) * 2 * jitter
				sy += (rng.Float64() - 0.5) * 2 * jitter
			}
			w := 1.5 + 1.5*rng.Float64()
			p := clipOf(vp, sx, sy, w, 0.5)
			q := p
			if moving(i, j) {
				q = clipOf(vp, sx+mx+(rng.Float64()-0.5)*2*jitter, sy+my+(rng.Float64()-0.5)*2*jitter, w*(0.9+0.2*rng.Float64()), 0.5)
			}
			r0, r1 = append(r0, p), append(r1, q)
		}
		m.p0, m.p1 = append(m.p0, r0), append(m.p1, r1)
	}
	return m
}

// TestWatertight rasterizes meshes that cover the bounds at every (u, v, t):
// every sample of the bounds must be covered exactly once (no crack, no double
// hit), with triangles of different cases sharing edges where only some
// vertices move.
func TestWatertight(t *testing.T) {
	const seed = 11
	rng := rand.New(rand.NewSource(seed))
	vp := geom.Viewport{X: 0, Y: 0, Width: 96, Height: 64, MinZ: 0, MaxZ: 1}
	bounds := raster.Rect{X0: 0, Y0: 0, X1: 96, Y1: 64}
	lens := Lens{Kx: 0.06, Ky: 0.06, F: 2}
	all := func(i, j int) bool { return true }
	some := func(i, j int) bool { return i <= 5 } // the right part of the mesh stays still
	none := func(i, j int) bool { return false }
	tests := []struct {
		name   string
		lens   Lens
		moving func(i, j int) bool
		cases  []Case // cases that must occur
	}{
		{"static", Lens{}, none, []Case{Static}},
		{"moving", Lens{}, all, []Case{Moving}},
		{"moving and static", Lens{}, some, []Case{Static, Moving}},
		{"defocused", lens, none, []Case{Defocused}},
		{"both", lens, all, []Case{Both}},
		{"both and defocused", lens, some, []Case{Defocused, Both}},
	}
	for _, n := range []int{8, 27} {
		pat := mustPattern(t, n, 100+uint64(n))
		for _, tc := range tests {
			for _, cull := range []geom.CullMode{geom.CullNone, geom.CullBack} {
				m := newGridMesh(rng, vp, -40, -40, 136, 104, 11, 9, 1.5, tc.moving)
				cfg := Config{Pattern: pat, Bounds: bounds, Cull: cull}
				count := make([]uint8, bounds.X1*bounds.Y1*n)
				seen := map[Case]int{}
				m.triangles(func(p0, p1 [3]geom.Vec4) {
					var tri Triangle
					seen[Setup(p0, p1, tc.lens, vp, &cfg, &tri)]++
					for key := range coverage(t, &tri, nil) {
						count[(key[1]*bounds.X1+key[0])*n+key[2]]++
					}
				})
				for _, c := range tc.cases {
					if seen[c] == 0 {
						t.Errorf("n=%d %s: no %v triangle (%v)", n, tc.name, c, seen)
					}
				}
				bad := 0
				for i, c := range count {
					if c != 1 {
						if bad < 5 {
							s := i % n
							px, py := (i/n)%bounds.X1, (i/n)/bounds.X1
							t.Errorf("n=%d %s cull=%v: sample (%d,%d,%d) covered %d times", n, tc.name, cull, px, py, s, c)
						}
						bad++
					}
				}
				if bad > 0 {
					t.Errorf("n=%d %s cull=%v: %d samples not covered exactly once", n, tc.name, cull, bad)
				}
			}
		}
	}
}

// TestWatertightTies rasterizes a still mesh whose vertices sit exactly on
// sample positions (w = 1, a power-of-two viewport, so screen positions are
// exact): many samples lie exactly on edges and vertices, and each must still
// be covered exactly once.
func TestWatertightTies(t *testing.T) {
	vp := geom.Viewport{Width: 64, Height: 64, MaxZ: 1}
	bounds := raster.Rect{X1: 64, Y1: 64}
	rng := rand.New(rand.NewSource(3))
	for _, n := range []int{4, 27} {
		pat := mustPattern(t, n, 7)
		cfg := Config{Pattern: pat, Bounds: bounds}
		const nx, ny = 10, 10
		m := &gridMesh{nx: nx, ny: ny}
		for j := 0; j <= ny; j++ {
			var row []geom.Vec4
			for i := 0; i <= nx; i++ {
				// Pixel 8*i-8 (+ a sample offset for interior vertices), on the 1/256 grid.
				x, y := int64(8*i-8)*256+128, int64(8*j-8)*256+128
				if i > 0 && i < nx && j > 0 && j < ny {
					o := pat.Offset(rng.Intn(n))
					x, y = x+int64(o[0])+int64(rng.Intn(3)-1)*256, y+int64(o[1])
				}
				row = append(row, geom.Vec4{float32(float64(x)/256/32 - 1), float32(1 - float64(y)/256/32), 0.5, 1})
			}
			m.p0 = append(m.p0, row)
		}
		m.p1 = m.p0
		count := make([]uint8, 64*64*n)
		ties := 0
		m.triangles(func(p0, p1 [3]geom.Vec4) {
			var tri Triangle
			if c := Setup(p0, p1, Lens{}, vp, &cfg, &tri); c != Static && c != Rejected {
				t.Fatalf("%v: case %v", p0, c)
			}
			for key := range coverage(t, &tri, nil) {
				count[(key[1]*64+key[0])*n+key[2]]++
				var se sampleEval
				tri.evalSample(key[0], key[1], key[2], &se)
				if se.e[0] == 0 || se.e[1] == 0 || se.e[2] == 0 {
					ties++
				}
			}
		})
		for i, c := range count {
			if c != 1 {
				t.Fatalf("n=%d: sample (%d,%d,%d) covered %d times", n, (i/n)%64, (i/n)/64, i%n, c)
			}
		}
		if ties < 50 {
			t.Errorf("n=%d: only %d covered samples on an edge: the tie rule is not exercised", n, ties)
		}
		t.Logf("n=%d: %d covered samples exactly on an edge", n, ties)
	}
}

// TestStaticEqualsRaster compares Static with functional/raster on triangles
// whose screen positions are exact (w = 1, a 256x256 viewport: clip x = X/128 - 1),
// so that the float64 homogeneous edge functions equal raster's integer ones
// (scaled by 2^-16) exactly, ties included.
func TestStaticEqualsRaster(t *testing.T) {
	vp := geom.Viewport{Width: 256, Height: 256, MaxZ: 1}
	bounds := raster.Rect{X1: 256, Y1: 256}
	rng := rand.New(rand.NewSource(17))
	for _, n := range []int{1, 2, 4, 8, 16} {
		rcfg, err := raster.NewConfig(n, bounds)
		if err != nil {
			t.Fatal(err)
		}
		// The raster pattern's offsets in 1/256 pixel, read through SamplePosition.
		var probe raster.Triangle
		if !raster.Setup([3]geom.ScreenVertex{{X: 0, Y: 0, InvW: 1}, {X: 256 * 4, Y: 0, InvW: 1}, {X: 0, Y: 256 * 4, InvW: 1}}, false, &rcfg, &probe) {
			t.Fatal("probe triangle rejected")
		}
		xy := make([][2]int16, n)
		for s := range xy {
			x, y := probe.SamplePosition(0, 0, s)
			xy[s] = [2]int16{int16(x - 128), int16(y - 128)}
		}
		pat, err := NewPattern(xy, 1)
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{Pattern: pat, Bounds: bounds}
		for it := 0; it < 60; it++ {
			var sv [3]geom.ScreenVertex
			var p [3]geom.Vec4
			for k := range sv {
				x, y := int32(rng.Intn(72*256)-4*256), int32(rng.Intn(72*256)-4*256)
				if rng.Intn(3) == 0 { // on a sample position
					o := xy[rng.Intn(n)]
					x, y = x&^255+128+int32(o[0]), y&^255+128+int32(o[1])
				}
				if it%10 == 0 && k == 2 { // degenerate: on the line of the other two
					x, y = 2*sv[1].X-sv[0].X, 2*sv[1].Y-sv[0].Y
				}
				sv[k] = geom.ScreenVertex{X: x, Y: y, Z: 0.5, InvW: 1}
				p[k] = geom.Vec4{float32(float64(x)/256/128 - 1), float32(1 - float64(y)/256/128), 0.5, 1}
			}
			var rt raster.Triangle
			rok := raster.Setup(sv, false, &rcfg, &rt)
			var tri Triangle
			c := Setup(p, p, Lens{}, vp, &cfg, &tri)
			if rok != (c == Static) {
				t.Fatalf("n=%d #%d %v: raster.Setup %v, Setup %v", n, it, sv, rok, c)
			}
			if !rok {
				continue
			}
			cov := coverage(t, &tri, nil)
			for py := 0; py < 80; py++ {
				for px := 0; px < 80; px++ {
					for s := 0; s < n; s++ {
						if want := rt.CoversSample(px, py, s); want != cov[[3]int{px, py, s}] {
							t.Fatalf("n=%d #%d %v: sample (%d,%d,%d): raster %v, raster5d %v", n, it, sv, px, py, s, want, !want)
						}
					}
				}
			}
		}
	}
}

// TestBarycentricsAndDepth checks, at covered samples of random triangles of
// every case, that the barycentrics sum to 1 and reproduce the sample's position
// on the warped triangle, that SampleDepth equals the brute-force depth
// (exactly for Static, within rounding otherwise), and that SampleInfo gives
// exactly what Barycentrics, SampleDepth and FrontFacing give.
func TestBarycentricsAndDepth(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	vp := geom.Viewport{X: 0, Y: 0, Width: 48, Height: 32, MinZ: 0.25, MaxZ: 0.75}
	bounds := raster.Rect{X1: 48, Y1: 32}
	pat := mustPattern(t, 8, 3)
	checked := 0
	for _, c := range []Case{Static, Moving, Defocused, Both} {
		for _, shape := range []string{"medium", "large", "crossing", "nearfar"} {
			for it := 0; it < 4; it++ {
				p0, p1, lens := randomTriangle(rng, vp, shape, c)
				cfg := Config{Pattern: pat, Bounds: bounds}
				var tri Triangle
				if Setup(p0, p1, lens, vp, &cfg, &tri) == Rejected {
					continue
				}
				for key := range coverage(t, &tri, nil) {
					px, py, s := key[0], key[1], key[2]
					b := tri.Barycentrics(px, py, s)
					if sum := float64(b[0]) + float64(b[1]) + float64(b[2]); math.Abs(sum-1) > 1e-6 {
						t.Fatalf("%v %s: barycentrics %v sum to %v", c, shape, b, sum)
					}
					br := bruteAt(pat, p0, p1, lens, vp, &cfg, px, py, s)
					var q [3]float64
					var mag float64
					for k := 0; k < 3; k++ {
						for i := 0; i < 3; i++ {
							q[i] += float64(b[k]) * br.h[k][i]
							mag += math.Abs(float64(b[k]) * br.h[k][i])
						}
					}
					x, y := pat.SamplePosition(px, py, s)
					tol := 1e-6 * mag / math.Abs(q[2])
					if math.Abs(q[0]/q[2]-float64(x)/256) > tol || math.Abs(q[1]/q[2]-float64(y)/256) > tol {
						t.Fatalf("%v %s: sample %v: barycentrics %v give (%v, %v), want (%v, %v)", c, shape, key, b, q[0]/q[2], q[1]/q[2], float64(x)/256, float64(y)/256)
					}
					want := vp.MinZ + float32(float32(br.zw)*float32(vp.MaxZ-vp.MinZ))
					want = min(max(want, vp.MinZ), vp.MaxZ)
					got := tri.SampleDepth(px, py, s)
					if c == Static && got != want || math.Abs(float64(got-want)) > 1e-6 {
						t.Fatalf("%v %s: sample %v: SampleDepth %v, brute force %v", c, shape, key, got, want)
					}
					if got < vp.MinZ || got > vp.MaxZ {
						t.Fatalf("%v: depth %v outside the viewport range", c, got)
					}
					info := tri.SampleInfo(px, py, s)
					if want := (SampleInfo{Bary: b, Depth: got, Front: tri.FrontFacing(px, py, s)}); info != want {
						t.Fatalf("%v %s: sample %v: SampleInfo %+v, the three methods %+v", c, shape, key, info, want)
					}
					checked++
				}
			}
		}
	}
	if checked < 2000 {
		t.Errorf("only %d covered samples checked", checked)
	}
}

// TestTraversalExact checks that the traversal's pruning (the bucket boxes,
// the near-plane clip, the block rejection) loses no sample: on random
// triangles of every shape and case, Tiles + TileQuads must give exactly the
// samples of the bounds that the per-sample hit test accepts, evaluated at
// every sample without any pruning.
func TestTraversalExact(t *testing.T) {
	const seed = 29
	rng := rand.New(rand.NewSource(seed))
	vp := geom.Viewport{X: -3.5, Y: 2, Width: 96, Height: 72, MinZ: 0, MaxZ: 1}
	bounds := raster.Rect{X0: 1, Y0: 3, X1: 90, Y1: 74}
	hits, rejected := 0, 0
	var tests, boxTests, blockTests uint64
	eachRandomTriangle(rng, vp, bounds, []int{1, 8, 27}, func(n int) *Pattern { return mustPattern(t, n, uint64(n)+seed) }, 4, func(rc *randomCase) {
		n, p0, p1, lens, cfg := rc.n, rc.p0, rc.p1, rc.lens, rc.cfg
		var tri Triangle
		if Setup(p0, p1, lens, vp, &cfg, &tri) == Rejected {
			// Setup must only reject what covers nothing: check the hit
			// test of the triangle set up without its bounds.
			tri = setupUnpruned(t, p0, p1, lens, vp, &cfg)
			if tri.Case == Rejected {
				return
			}
			rejected++
			for py := bounds.Y0; py < bounds.Y1; py++ {
				for px := bounds.X0; px < bounds.X1; px++ {
					for s := 0; s < n; s++ {
						if tri.hitUnpruned(px, py, s) {
							t.Fatalf("%s: rejected, but sample (%d,%d,%d) is covered", rc.name(), px, py, s)
						}
					}
				}
			}
			return
		}
		var st Stats
		cov := coverage(t, &tri, &st)
		for py := bounds.Y0; py < bounds.Y1; py++ {
			for px := bounds.X0; px < bounds.X1; px++ {
				for s := 0; s < n; s++ {
					want := tri.hitUnpruned(px, py, s)
					if want != cov[[3]int{px, py, s}] {
						t.Fatalf("%s: sample (%d,%d,%d): traversal %v, hit test %v", rc.name(), px, py, s, !want, want)
					}
					if want {
						hits++
					}
				}
			}
		}
		if st.SamplesCovered != uint64(len(cov)) {
			t.Fatalf("%s: SamplesCovered %d, %d covered", rc.name(), st.SamplesCovered, len(cov))
		}
		tests += st.Tests()
		blockTests += st.BlockTests
		boxTests += tri.boxSamples()
	})
	if hits < 100000 {
		t.Errorf("only %d covered samples: the test exercises too little", hits)
	}
	// The block rejection must run and skip samples that the boxes alone
	// would test.
	if blockTests < 1000 || tests > boxTests*9/10 {
		t.Errorf("%d block tests, %d sample tests of %d in the bucket boxes: the block rejection is not exercised", blockTests, tests, boxTests)
	}
	if rejected < 20 {
		t.Errorf("only %d triangles rejected by their bounds alone", rejected)
	}
	t.Logf("%d covered samples agree; %d triangles rejected by their bounds cover nothing; %d sample tests (%d in the boxes), %d block tests",
		hits, rejected, tests, boxTests, blockTests)
}

// boxSamples counts the samples of the triangle whose pixel lies in their
// bucket's box: what TileQuads tests without block rejection.
func (t *Triangle) boxSamples() uint64 {
	var n uint64
	b := t.BBox
	for py := b.Y0; py < b.Y1; py++ {
		for px := b.X0; px < b.X1; px++ {
			for s := 0; s < t.pat.n; s++ {
				if t.boxes[t.pat.bucket[t.Case][t.pat.entry(px, py, s)]].Contains(px, py) {
					n++
				}
			}
		}
	}
	return n
}

// hitUnpruned is the per-sample hit test at sample s of pixel (px, py), with
// no box or block check.
func (t *Triangle) hitUnpruned(px, py, s int) bool {
	var se sampleEval
	t.evalSample(px, py, s, &se)
	return t.covered(&se)
}

// setupUnpruned sets up a triangle that Setup rejected with its edge
// functions and determinant but no traversal bounds, so that its hit test can
// be evaluated; Case is Rejected when the input itself is invalid,
// degenerate or culled everywhere.
func setupUnpruned(t *testing.T, p0, p1 [3]geom.Vec4, lens Lens, vp geom.Viewport, cfg *Config) Triangle {
	t.Helper()
	var tri Triangle
	if !tri.setupEquations(p0, p1, lens, vp, cfg) {
		return Triangle{}
	}
	return tri
}

// TestBothDeterminant checks that Both's per-sample determinant, which reuses
// edge 0's cross product, equals det3 of the warped vertices bit for bit, with
// edge 0 in either canonical order.
func TestBothDeterminant(t *testing.T) {
	rng := rand.New(rand.NewSource(31))
	vp := geom.Viewport{Width: 64, Height: 48, MaxZ: 1}
	pat := mustPattern(t, 8, 5)
	cfg := Config{Pattern: pat, Bounds: raster.Rect{X1: 64, Y1: 48}}
	var orders [2]int
	for it := 0; it < 200; it++ {
		p0, p1, lens := randomTriangle(rng, vp, "medium", Both)
		var tri Triangle
		if Setup(p0, p1, lens, vp, &cfg, &tri) != Both || tri.e[0].form != formWarp {
			continue
		}
		orders[tri.e[0].i-1]++
		for i := 0; i < 50; i++ {
			px, py, s := rng.Intn(64), rng.Intn(48), rng.Intn(8)
			var se sampleEval
			tri.evalSample(px, py, s, &se)
			u, v, tm := pat.UVT(px, py, s)
			var h [3][3]float64
			for k := range h {
				h[k][0], h[k][1], h[k][2], _ = tri.warp(k, float64(u), float64(v), float64(tm))
			}
			if want := det3(h[0], h[1], h[2]); se.d != want {
				t.Fatalf("#%d sample (%d,%d,%d): d %v, det3 %v", it, px, py, s, se.d, want)
			}
		}
	}
	if orders[0] == 0 || orders[1] == 0 {
		t.Errorf("edge 0 canonical orders seen %v: both must occur", orders)
	}
}

// TestTileQuadsIn: rasterizing each 32x32 tile window by window (16x16,
// 16x8 and 32x16 windows) gives exactly the quads of the whole tile, each
// once, inside its window, with the same covered samples.
func TestTileQuadsIn(t *testing.T) {
	const seed = 11
	rng := rand.New(rand.NewSource(seed))
	vp := geom.Viewport{X: 0, Y: 0, Width: 96, Height: 64, MinZ: 0, MaxZ: 1}
	bounds := raster.Rect{X0: 0, Y0: 0, X1: 96, Y1: 64}
	for _, n := range []int{4, 27} {
		pat := mustPattern(t, n, uint64(n)+seed)
		for _, c := range []Case{Static, Moving, Defocused, Both} {
			for it := 0; it < 4; it++ {
				p0, p1, lens := randomTriangle(rng, vp, "large", c)
				cfg := Config{Pattern: pat, Bounds: bounds}
				var tri Triangle
				if Setup(p0, p1, lens, vp, &cfg, &tri) == Rejected {
					continue
				}
				for _, win := range [][2]int{{16, 16}, {16, 8}, {32, 16}} {
					for _, tp := range tri.Tiles(nil) {
						var whole, parts Stats
						want := map[Quad]bool{}
						for _, q := range tri.TileQuads(tp.X, tp.Y, nil, &whole) {
							want[q] = true
						}
						got := 0
						for y := tp.Y * TileSize; y < (tp.Y+1)*TileSize; y += win[1] {
							for x := tp.X * TileSize; x < (tp.X+1)*TileSize; x += win[0] {
								w := raster.Rect{X0: x, Y0: y, X1: x + win[0], Y1: y + win[1]}
								for _, q := range tri.TileQuadsIn(tp.X, tp.Y, w, nil, &parts) {
									if !want[q] || !w.Contains(int(q.X), int(q.Y)) {
										t.Fatalf("n=%d %v #%d window %v: quad %+v not in the tile's quads or outside the window", n, c, it, w, q)
									}
									delete(want, q)
									got++
								}
							}
						}
						if len(want) != 0 {
							t.Fatalf("n=%d %v #%d windows %v: %d quads of the tile missing", n, c, it, win, len(want))
						}
						if parts.SamplesCovered != whole.SamplesCovered {
							t.Errorf("n=%d %v #%d windows %v: %d samples covered in the windows, %d in the tile", n, c, it, win,
								parts.SamplesCovered, whole.SamplesCovered)
						}
					}
				}
			}
		}
	}
}
