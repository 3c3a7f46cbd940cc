package raster5d

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// mustPattern builds a pattern of n samples with random x,y offsets (seeded).
func mustPattern(t testing.TB, n int, seed uint64) *Pattern {
	t.Helper()
	rng := rand.New(rand.NewSource(int64(seed)))
	xy := make([][2]int16, n)
	for s := range xy {
		xy[s] = [2]int16{int16(rng.Intn(256) - 128), int16(rng.Intn(256) - 128)}
	}
	p, err := NewPattern(xy, seed)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// bruteSample is the reference evaluation of a sample: the three vertices are
// warped to the sample's (u, v, t) by the arithmetic doc.go specifies, and the
// warped triangle is tested directly (edges in triangle order, not canonical).
type bruteSample struct {
	h        [3][3]float64 // warped screen-homogeneous vertices
	z        [3]float64
	e        [3]float64 // edge functions, edge k opposite vertex k
	a, b     [3]float64 // their x and y coefficients
	mag      [3]float64 // |A*X| + |B*Y| + |C|: the scale of e's rounding
	d        float64
	covered  bool
	zw       float64
	nearZero bool // some value lies within a tiny relative distance of a decision boundary
}

func bruteEval(p0, p1 [3]geom.Vec4, lens Lens, vp geom.Viewport, cull geom.CullMode, frontCCW bool, x, y, u, v, tm float64) bruteSample {
	var r bruteSample
	sx, sy := float64(vp.Width)/2, -float64(vp.Height)/2
	cx, cy := float64(vp.X)+float64(vp.Width)/2, float64(vp.Y)+float64(vp.Height)/2
	kx, ky, f := float64(lens.Kx), float64(lens.Ky), float64(lens.F)
	for k := 0; k < 3; k++ {
		var c [4]float64
		for i := 0; i < 4; i++ {
			a := float64(p0[k][i])
			c[i] = a + float64(tm*(float64(p1[k][i])-a))
		}
		c[0] += float64(u * float64(kx*float64(c[3]-f)))
		c[1] += float64(v * float64(ky*float64(c[3]-f)))
		r.h[k] = [3]float64{float64(c[0]*sx) + float64(c[3]*cx), float64(c[1]*sy) + float64(c[3]*cy), c[3]}
		r.z[k] = c[2]
	}
	for k := 0; k < 3; k++ {
		p, q := r.h[(k+1)%3], r.h[(k+2)%3]
		a := float64(p[1]*q[2]) - float64(p[2]*q[1])
		b := float64(p[2]*q[0]) - float64(p[0]*q[2])
		c := float64(p[0]*q[1]) - float64(p[1]*q[0])
		r.a[k], r.b[k] = a, b
		r.e[k] = float64(float64(a*x)+float64(b*y)) + c
		r.mag[k] = math.Abs(a*x) + math.Abs(b*y) + math.Abs(c)
	}
	h := r.h
	cr := [3]float64{
		float64(h[1][1]*h[2][2]) - float64(h[1][2]*h[2][1]),
		float64(h[1][2]*h[2][0]) - float64(h[1][0]*h[2][2]),
		float64(h[1][0]*h[2][1]) - float64(h[1][1]*h[2][0]),
	}
	r.d = float64(float64(h[0][0]*cr[0])+float64(h[0][1]*cr[1])) + float64(h[0][2]*cr[2])
	dmag := 0.0
	for k := 0; k < 3; k++ {
		dmag += math.Abs(h[0][k] * cr[k])
	}
	const eps = 1e-9
	num := float64(float64(r.e[0]*r.z[0])+float64(r.e[1]*r.z[1])) + float64(r.e[2]*r.z[2])
	den := float64(float64(r.e[0]*h[0][2])+float64(r.e[1]*h[1][2])) + float64(r.e[2]*h[2][2])
	r.zw = num / den
	r.nearZero = math.Abs(r.d) <= eps*dmag || math.Abs(r.zw) <= 1e-7 || math.Abs(r.zw-1) <= 1e-7
	for k := 0; k < 3; k++ {
		if math.Abs(r.e[k]) <= eps*r.mag[k] {
			r.nearZero = true
		}
	}

	r.covered = func() bool {
		if !(r.d > 0 || r.d < 0) {
			return false
		}
		front := (r.d > 0) != frontCCW
		if cull == geom.CullBack && !front || cull == geom.CullFront && front {
			return false
		}
		sg := 1.0
		if r.d < 0 {
			sg = -1
		}
		for k := 0; k < 3; k++ {
			e := sg * r.e[k]
			if e > 0 {
				continue
			}
			if e != 0 {
				return false
			}
			g := r.a[k]
			if g == 0 {
				g = r.b[k]
			}
			if !(sg*g > 0) {
				return false
			}
		}
		return r.zw >= 0 && r.zw <= 1
	}()
	return r
}

// bruteAt evaluates sample s of pixel (px, py) of pattern p.
func bruteAt(p *Pattern, p0, p1 [3]geom.Vec4, lens Lens, vp geom.Viewport, cfg *Config, px, py, s int) bruteSample {
	x, y := p.SamplePosition(px, py, s)
	u, v, tm := p.UVT(px, py, s)
	return bruteEval(p0, p1, lens, vp, cfg.Cull, cfg.FrontCCW, float64(x)/256, float64(y)/256, float64(u), float64(v), float64(tm))
}

// coverage runs Tiles and TileQuads over the whole triangle and returns the
// covered samples as a set keyed by (px, py, s), checking the output's
// structure (quads aligned, in their tile, inside BBox, no duplicates, Z order).
func coverage(t testing.TB, tri *Triangle, st *Stats) map[[3]int]bool {
	t.Helper()
	got := map[[3]int]bool{}
	if tri.Case == Rejected {
		return got
	}
	tiles := tri.Tiles(nil)
	var quads []Quad
	n := tri.pat.Count()
	for _, tp := range tiles {
		quads = tri.TileQuads(tp.X, tp.Y, quads[:0], st)
		prev := -1
		for _, q := range quads {
			if q.X&1 != 0 || q.Y&1 != 0 || q.Coverage.Empty() {
				t.Fatalf("bad quad %+v", q)
			}
			if int(q.X)>>tileShift != tp.X || int(q.Y)>>tileShift != tp.Y {
				t.Fatalf("quad %+v outside tile %+v", q, tp)
			}
			code := int(raster.MortonSpread(uint(q.X&31)>>1) | raster.MortonSpread(uint(q.Y&31)>>1)<<1)
			if code <= prev {
				t.Fatalf("quad %+v out of Z order in tile %+v", q, tp)
			}
			prev = code
			for p := 0; p < 4; p++ {
				if q.Coverage[p]>>uint(n) != 0 {
					t.Fatalf("quad %+v: bits beyond sample %d", q, n)
				}
				for s := 0; s < n; s++ {
					if !q.Coverage.Has(p, s) {
						continue
					}
					px, py := int(q.X)+p&1, int(q.Y)+p>>1
					if !tri.BBox.Contains(px, py) {
						t.Fatalf("covered pixel (%d,%d) outside BBox %+v", px, py, tri.BBox)
					}
					key := [3]int{px, py, s}
					if got[key] {
						t.Fatalf("sample %v emitted twice", key)
					}
					got[key] = true
				}
			}
		}
	}
	return got
}

// clipOf returns the clip position of screen point (sx, sy) in pixels at clip w
// and depth z/w = zn, for viewport vp (the inverse of the viewport transform).
// moved returns triangle p0 moved by (dx, dy) pixels on screen, at the same
// w and a normalized depth of 0.5.
func moved(vp geom.Viewport, p0 [3]geom.Vec4, dx, dy float64) [3]geom.Vec4 {
	var p1 [3]geom.Vec4
	for k := range p0 {
		p1[k] = clipOf(vp, screenX(vp, p0[k])+dx, screenY(vp, p0[k])+dy, float64(p0[k][3]), 0.5)
	}
	return p1
}

func clipOf(vp geom.Viewport, sx, sy, w, zn float64) geom.Vec4 {
	nx := (sx-float64(vp.X))/(float64(vp.Width)/2) - 1
	ny := 1 - (sy-float64(vp.Y))/(float64(vp.Height)/2)
	return geom.Vec4{float32(nx * w), float32(ny * w), float32(zn * w), float32(w)}
}
