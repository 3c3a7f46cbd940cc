package hiz

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
	"github.com/gfxsim/gfxsim/functional/samplepattern"
)

func f32(v float32) uint32 { return math.Float32bits(v) }

func TestReducedKeys(t *testing.T) {
	cases := []struct {
		name       string
		k          uint32
		f          depth.Format
		down, up   uint32 // codes
		kDown, kUp uint32 // expanded keys
	}{
		{"D32F 1", f32(1), depth.D32F, 0x7800, 0x7800, f32(1), f32(1)},
		{"D32F 0.5", f32(0.5), depth.D32F, 0x7000, 0x7000, f32(0.5), f32(0.5)},
		{"D32F 0.75", f32(0.75), depth.D32F, 0x7400, 0x7400, f32(0.75), f32(0.75)},
		{"D32F 0.5+2^-20", f32(0.5 + 0x1p-20), depth.D32F, 0x7000, 0x7001, f32(0.5), f32(0.5 + 0x1p-12)},
		{"D32F 2^-25", f32(0x1p-25), depth.D32F, 1, 1, f32(0x1p-25), f32(0x1p-25)},
		{"D32F 1.5*2^-25", f32(0x1.8p-25), depth.D32F, 1, 2, f32(0x1p-25), f32(0x1p-24)},
		{"D32F 2^-14", f32(0x1p-14), depth.D32F, 0x0800, 0x0800, f32(0x1p-14), f32(0x1p-14)},
		{"D32F 0", 0, depth.D32F, 0, 0, 0, 0},
		{"D24 0", 0, depth.D24S8, 2, 0, 0, 0},
		{"D24 max", depth.MaxD24, depth.D24S8, 0x7800, 0x7800, depth.MaxD24, depth.MaxD24},
		{"D24 2^23", 1 << 23, depth.D24S8, 0x7000, 0x7000, 8388607, 8388608},
		{"D24 5000000", 5000000, depth.D24S8, 0x6989, 0x698a, 4999167, 5001216},
		{"D24 100", 100, depth.D24S8, 0xca, 0xc7, 100, 100},
		{"unknown", KeyUnknown, depth.D24S8, 0x7800, 0x7FFF, depth.MaxD24, KeyUnknown},
	}
	for _, c := range cases {
		d, u := ReduceKey(c.k, c.f, false), ReduceKey(c.k, c.f, true)
		if d != c.down || u != c.up {
			t.Errorf("%s: codes %#x %#x, want %#x %#x", c.name, d, u, c.down, c.up)
		}
		if kd, ku := ExpandKey(d, c.f, false), ExpandKey(u, c.f, true); kd != c.kDown || ku != c.kUp {
			t.Errorf("%s: keys %d %d, want %d %d", c.name, kd, ku, c.kDown, c.kUp)
		}
	}
}

// TestRoundBoundConservative: rounding never moves a bound inwards, and is
// tight (the next code would).
func TestRoundBoundConservative(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, f := range []depth.Format{depth.D24S8, depth.D32F} {
		for i := 0; i < 20000; i++ {
			var k uint32
			if f == depth.D24S8 {
				k = uint32(r.Intn(depth.MaxD24 + 1))
			} else {
				k = f32(float32(math.Pow(r.Float64(), 1+8*r.Float64())))
			}
			if i < 8 {
				k = []uint32{0, 1, 2, MaxKey(f), MaxKey(f) - 1, 1 << 20, 12345, 3}[i]
			}
			lo, hi := RoundBound(k, f, false, false), RoundBound(k, f, true, false)
			if lo > k || hi < k {
				t.Fatalf("%v key %d: bounds %d %d", f, k, lo, hi)
			}
			if c := ReduceKey(k, f, false); k < MaxKey(f) && c+1 < reducedUnknown && ExpandKey(c+1, f, false) <= k {
				t.Fatalf("%v key %d: down code %d is not the largest", f, k, c)
			}
			if c := ReduceKey(k, f, true); c > 0 && c < reducedUnknown && ExpandKey(c-1, f, true) >= k {
				t.Fatalf("%v key %d: up code %d is not the smallest", f, k, c)
			}
			if RoundBound(lo, f, false, false) != lo || RoundBound(hi, f, true, false) != hi {
				t.Fatalf("%v key %d: rounding is not idempotent", f, k)
			}
			// Negated (greater-form) bounds round the other way.
			nk := ^k
			if nlo, nhi := RoundBound(nk, f, false, true), RoundBound(nk, f, true, true); nlo > nk || nhi < nk {
				t.Fatalf("%v negated key %#x: bounds %#x %#x", f, nk, nlo, nhi)
			}
		}
	}
}

func randomTriangle(r *rand.Rand, cfg *raster.Config) (raster.Triangle, bool) {
	var v [3]geom.ScreenVertex
	for i := range v {
		v[i] = geom.ScreenVertex{X: int32(r.Intn(64*256) - 8*256), Y: int32(r.Intn(48*256) - 8*256),
			Z: float32(r.Float64()), InvW: 1}
		if r.Intn(4) == 0 {
			v[i].Z = float32(0.999 + 0.001*r.Float64())
		}
	}
	var tri raster.Triangle
	return tri, raster.Setup(v, false, cfg, &tri)
}

// TestPlaneMatchesRaster: the plane HiZ derives is the rasterizer's, bit for bit.
func TestPlaneMatchesRaster(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	cfg, err := raster.NewConfig(4, raster.Rect{X1: 48, Y1: 32})
	if err != nil {
		t.Fatal(err)
	}
	cfg.MinZ, cfg.MaxZ = 0.1, 0.9
	for n := 0; n < 300; n++ {
		tri, ok := randomTriangle(r, &cfg)
		if !ok {
			continue
		}
		p := planeOf(&tri, &cfg)
		for i := 0; i < 40; i++ {
			x, y, s := r.Intn(48), r.Intn(32), r.Intn(4)
			sx, sy := tri.SamplePosition(x, y, s)
			if got, want := p.at(sx, sy), tri.SampleDepth(&cfg, x, y, s); math.Float32bits(got) != math.Float32bits(want) {
				t.Fatalf("plane %v, raster %v", got, want)
			}
		}
	}
}

// TestPrimitiveBoundsConservative: every sample's quantized depth inside the
// rectangle lies in the bounds, which stay tight.
func TestPrimitiveBoundsConservative(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for _, tc := range []struct {
		spp   int
		table bool // per-pixel positions from a pattern table
	}{{1, false}, {4, false}, {16, false}, {1, true}, {4, true}, {16, true}} {
		spp := tc.spp
		cfg, err := raster.NewConfig(spp, raster.Rect{X1: 48, Y1: 32})
		if err != nil {
			t.Fatal(err)
		}
		if tc.table {
			if cfg.Samples, err = cfg.Samples.WithTable(samplepattern.Generate(uint64(spp))); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range []depth.Format{depth.D24S8, depth.D32F} {
			worst := 0.0
			for n := 0; n < 300; n++ {
				tri, ok := randomTriangle(r, &cfg)
				if !ok {
					continue
				}
				bb := tri.BBox
				x0, y0 := bb.X0+r.Intn(max(1, bb.X1-bb.X0)), bb.Y0+r.Intn(max(1, bb.Y1-bb.Y0))
				x1, y1 := min(bb.X1, x0+1+r.Intn(8)), min(bb.Y1, y0+1+r.Intn(8))
				lo, hi := PrimitiveBounds(&tri, &cfg, f, x0, y0, x1, y1)
				kmin, kmax := uint32(math.MaxUint32), uint32(0)
				for y := y0; y < y1; y++ {
					for x := x0; x < x1; x++ {
						for s := 0; s < spp; s++ {
							z := tri.SampleDepth(&cfg, x, y, s)
							k := depth.Quantize(z, f)
							if k < lo || k > hi {
								t.Fatalf("%v %dx (table %v): sample (%d,%d,%d) key %d outside [%d, %d]", f, spp, tc.table, x, y, s, k, lo, hi)
							}
							kmin, kmax = min(kmin, k), max(kmax, k)
						}
					}
				}
				if tc.table {
					// Per-pixel positions: the bounds stand on the offsets'
					// box, so measure them against the plane over the area.
					p := planeOf(&tri, &cfg)
					for _, c := range [][2]int{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
						k := depth.Quantize(p.at(int64(c[0])*256, int64(c[1])*256), f)
						kmin, kmax = min(kmin, k), max(kmax, k)
					}
				}
				// The bounds may exceed the samples' keys by the plane's range
				// over the sample positions' bounding box and a few units of
				// rounding, not more.
				slack := 16.0
				if f == depth.D32F {
					slack = 256 // ulps: the float32 error bound, relative to the terms
				}
				if excess := float64(hi-lo) - 2*float64(kmax-kmin) - slack; excess > 0 {
					worst = max(worst, excess)
				}
			}
			if worst > 0 {
				t.Errorf("%v %dx (table %v): bounds up to %.0f keys wider than twice the samples' range plus the slack", f, spp, tc.table, worst)
			}
		}
	}
}
