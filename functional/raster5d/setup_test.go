package raster5d

import (
	"math"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// tri3 returns a clockwise-on-screen triangle around the centre of a 64x64
// viewport at w = 2.
func tri3() [3]geom.Vec4 {
	vp := geom.Viewport{Width: 64, Height: 64, MaxZ: 1}
	return [3]geom.Vec4{clipOf(vp, 10, 10, 2, 0.5), clipOf(vp, 50, 12, 2, 0.5), clipOf(vp, 20, 50, 2, 0.5)}
}

func TestSetupCases(t *testing.T) {
	vp := geom.Viewport{Width: 64, Height: 64, MaxZ: 1}
	pat := mustPattern(t, 8, 1)
	cfg := Config{Pattern: pat, Bounds: raster.Rect{X1: 64, Y1: 64}}
	p := tri3()
	moved := p
	moved[1][0] += 0.1
	zOnly := p
	zOnly[2][2] += 0.1
	lens := Lens{Kx: 0.1, Ky: 0.1, F: 3}
	ccw := [3]geom.Vec4{p[0], p[2], p[1]}
	nan := p
	nan[1][1] = float32(math.NaN())
	line := [3]geom.Vec4{p[0], p[1], p[1].Add(p[1]).Sub(p[0])}
	behind := [3]geom.Vec4{{0, 0, -1, -1}, {1, 0, -1, -1}, {0, 1, -1, -1}}
	// Behind the eye but not behind the near plane (z > 0 > w): no box can be
	// bounded, yet nothing is covered.
	behindZ := [3]geom.Vec4{{0, 0, 1, -1}, {1, 0, 1, -1}, {0, 1, 1, -1}}
	// One vertex in front of the near plane (screen (40, 40), w = 2, z = 1),
	// the others behind the eye: the box is that of the part with z/w >= 0,
	// whose corners where the edges cross z = 0 (at w = 0.5) project to (16, 48)
	// and (48, 16); the whole bounds before the near-plane clip.
	crossing := [3]geom.Vec4{clipOf(vp, 40, 40, 2, 0.5), {-1, 0, -1, -1}, {0, 1, -1, -1}}
	tests := []struct {
		name   string
		p0, p1 [3]geom.Vec4
		lens   Lens
		modify func(c *Config)
		want   Case
	}{
		{"static", p, p, Lens{}, nil, Static},
		{"moving", p, moved, Lens{}, nil, Moving},
		{"depth only moves", p, zOnly, Lens{}, nil, Moving},
		{"defocused", p, p, lens, nil, Defocused},
		{"both", p, moved, lens, nil, Both},
		{"lens with Ky only", p, p, Lens{Ky: 0.1, F: 1}, nil, Defocused},
		{"static back face culled", ccw, ccw, Lens{}, func(c *Config) { c.Cull = geom.CullBack }, Rejected},
		{"static front face culled", p, p, Lens{}, func(c *Config) { c.Cull = geom.CullFront }, Rejected},
		{"static CCW front kept", ccw, ccw, Lens{}, func(c *Config) { c.Cull, c.FrontCCW = geom.CullBack, true }, Static},
		{"defocused back face culled", ccw, ccw, lens, func(c *Config) { c.Cull = geom.CullBack }, Rejected},
		{"moving back face culled", ccw, [3]geom.Vec4{moved[0], moved[2], moved[1]}, Lens{}, func(c *Config) { c.Cull = geom.CullBack }, Rejected},
		{"NaN vertex", nan, nan, Lens{}, nil, Rejected},
		{"zero area", line, line, Lens{}, nil, Rejected},
		{"outside bounds", p, p, Lens{}, func(c *Config) { c.Bounds = raster.Rect{X0: 56, Y0: 56, X1: 64, Y1: 64} }, Rejected},
		{"empty bounds", p, p, Lens{}, func(c *Config) { c.Bounds = raster.Rect{} }, Rejected},
		{"no pattern", p, p, Lens{}, func(c *Config) { c.Pattern = nil }, Rejected},
		{"NaN lens", p, p, Lens{Kx: float32(math.NaN())}, nil, Rejected},
		{"behind the eye and the near plane", behind, behind, Lens{}, nil, Rejected},
		{"behind the eye: set up, covers nothing", behindZ, behindZ, Lens{}, nil, Static},
		{"crossing the near plane", crossing, crossing, Lens{}, nil, Static},
	}
	for _, tc := range tests {
		c := cfg
		if tc.modify != nil {
			tc.modify(&c)
		}
		var tri Triangle
		if got := Setup(tc.p0, tc.p1, tc.lens, vp, &c, &tri); got != tc.want {
			t.Errorf("%s: Setup = %v, want %v", tc.name, got, tc.want)
		}
		if tri.Case != tc.want {
			t.Errorf("%s: Triangle.Case = %v", tc.name, tri.Case)
		}
		if tc.want == Rejected && (tri.TileQuads(0, 0, nil, nil) != nil || tri.Tiles(nil) != nil || tri.CoversSample(32, 32, 0)) {
			t.Errorf("%s: a rejected triangle produces output", tc.name)
		}
		if strings.HasPrefix(tc.name, "crossing") && tri.BBox != (raster.Rect{X0: 16, Y0: 16, X1: 48, Y1: 48}) {
			t.Errorf("%s: BBox %+v, want the box of the part in front of the near plane", tc.name, tri.BBox)
		}
		if strings.HasPrefix(tc.name, "behind the eye:") {
			if tri.BBox != c.Bounds {
				t.Errorf("%s: BBox %+v, want the bounds (w <= 0)", tc.name, tri.BBox)
			}
			if n := len(coverage(t, &tri, nil)); n != 0 {
				t.Errorf("%s: %d samples covered", tc.name, n)
			}
		}
	}
	var tri Triangle
	if Setup(p, p, Lens{}, geom.Viewport{Width: 0, Height: 64}, &cfg, &tri) != Rejected {
		t.Error("zero-width viewport accepted")
	}
}

func TestConfigAndLensValidate(t *testing.T) {
	pat := mustPattern(t, 4, 1)
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{Pattern: pat}, ""},
		{Config{}, "Config.Pattern"},
		{Config{Pattern: pat, Bounds: raster.Rect{X0: 5, X1: 4}}, "Config.Bounds"},
		{Config{Pattern: pat, Cull: 7}, "Config.Cull"},
	}
	for _, tc := range tests {
		err := tc.cfg.Validate()
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: Validate() = %v, want %q", tc.cfg, err, tc.want)
		}
	}
	if err := (Lens{F: float32(math.Inf(1))}).Validate(); err == nil || !strings.Contains(err.Error(), "Lens.F") {
		t.Errorf("infinite F: %v", err)
	}
	proj := geom.Perspective(1, 1.5, 0.1, 100)
	l, err := LensFromProjection(proj, 0.05, 4)
	if err != nil {
		t.Fatal(err)
	}
	if want := float32(float32(proj[0][0]*0.05) / 4); l.Kx != want || l.F != 4 || l.Ky != float32(float32(proj[1][1]*0.05)/4) {
		t.Errorf("LensFromProjection = %+v", l)
	}
	if _, err := LensFromProjection(proj, 0.05, 0); err == nil {
		t.Error("focus 0 accepted")
	}
	if _, err := LensFromProjection(proj, -1, 1); err == nil {
		t.Error("negative radius accepted")
	}
	if !(Lens{F: 3}).Pinhole() || (Lens{Ky: 1}).Pinhole() {
		t.Error("Pinhole")
	}
}

// TestLensShear checks the lens model on one point: a view-space point at depth
// w seen from lens position (u, v) lands where the shear x' = x + u*Kx*(w - F)
// puts it, so points at the focus depth do not move and others move by their
// circle of confusion.
func TestLensShear(t *testing.T) {
	vp := geom.Viewport{Width: 100, Height: 100, MaxZ: 1}
	pat, _ := NewPattern([][2]int16{{0, 0}}, 1)
	cfg := Config{Pattern: pat, Bounds: raster.Rect{X1: 100, Y1: 100}}
	lens := Lens{Kx: 0.2, Ky: 0.1, F: 2}
	for _, w := range []float64{1, 2, 4} {
		p := [3]geom.Vec4{clipOf(vp, 40, 40, w, 0.5), clipOf(vp, 60, 40, w, 0.5), clipOf(vp, 40, 60, w, 0.5)}
		var tri Triangle
		if Setup(p, p, lens, vp, &cfg, &tri) != Defocused {
			t.Fatal("not defocused")
		}
		hx, hy, hw, _ := tri.warp(0, 1, -1, 0)
		// Screen shift of vertex 0 at (u, v) = (1, -1): Kx*(w-F)/w * W/2 in x,
		// and Ky*(w-F)/w * H/2 upwards (screen y down) for v = -1.
		wantX := 40 + 0.2*(w-2)/w*50
		wantY := 40 + 0.1*(w-2)/w*50
		if math.Abs(hx/hw-wantX) > 1e-4 || math.Abs(hy/hw-wantY) > 1e-4 {
			t.Errorf("w=%v: warped vertex at (%v, %v), want (%v, %v)", w, hx/hw, hy/hw, wantX, wantY)
		}
	}
}

// TestStatsAndBuckets: the per-bucket boxes make the moving, defocused and both
// cases test fewer samples than every sample of the box, and the counts land in
// the triangle's case.
func TestStatsAndBuckets(t *testing.T) {
	vp := geom.Viewport{Width: 128, Height: 128, MaxZ: 1}
	pat := mustPattern(t, 27, 4)
	cfg := Config{Pattern: pat, Bounds: raster.Rect{X1: 128, Y1: 128}}
	p0 := [3]geom.Vec4{clipOf(vp, 20, 20, 2, 0.5), clipOf(vp, 40, 22, 2, 0.5), clipOf(vp, 25, 40, 4, 0.5)}
	p1 := moved(vp, p0, 60, 50)
	lens := Lens{Kx: 0.3, Ky: 0.3, F: 3}
	for _, tc := range []struct {
		c      Case
		p1     [3]geom.Vec4
		lens   Lens
		maxPct float64 // tests per sample of the box, at most
	}{
		{Static, p0, Lens{}, 100},
		{Moving, p1, Lens{}, 15},
		{Defocused, p0, lens, 45},
		{Both, p1, lens, 25},
	} {
		var tri Triangle
		if got := Setup(p0, tc.p1, tc.lens, vp, &cfg, &tri); got != tc.c {
			t.Fatalf("case %v, want %v", got, tc.c)
		}
		var st Stats
		cov := coverage(t, &tri, &st)
		boxSamples := float64((tri.BBox.X1-tri.BBox.X0)*(tri.BBox.Y1-tri.BBox.Y0)) * 27
		pct := 100 * float64(st.Tests()) / boxSamples
		t.Logf("%v: box %+v, %d tests (%.1f%% of the box's samples), %d covered, %d quads", tc.c, tri.BBox, st.Tests(), pct, len(cov), st.Quads)
		if st.SampleTests[tc.c] != st.Tests() || int(st.SamplesCovered) != len(cov) || st.Tests() < st.SamplesCovered {
			t.Errorf("%v: stats %+v", tc.c, st)
		}
		if pct > tc.maxPct {
			t.Errorf("%v: %.1f%% of the box's samples tested, want at most %v%%", tc.c, pct, tc.maxPct)
		}
	}
}
