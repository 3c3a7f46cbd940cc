package texture

import (
	"math"
	"math/rand"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/internal/enum/enumtest"
)

// levelsTexture builds a 4x4 texture with 3 levels whose contents are set directly
// (not box filtered): every texel of level i has R = r[i], G = g[i], B = 0, A = 255.
func levelsTexture(t *testing.T, layout Layout, r, g [3]byte) *Texture {
	t.Helper()
	d := Descriptor{Format: RGBA8, Width: 4, Height: 4, Levels: 3, Layout: layout}
	tex, err := NewFromBytes(d, make([]byte, d.SizeBytes()))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range tex.Levels {
		for y := 0; y < l.Height; y++ {
			for x := 0; x < l.Width; x++ {
				a := tex.TexelAddress(i, x, y)
				copy(tex.Bytes()[a:], []byte{r[i], g[i], 0, 255})
			}
		}
	}
	return tex
}

// rowTexture is a 4x1 texture with R = 0, 85, 170, 255 (0, 1/3, 2/3, 1) and one level.
func rowTexture(t *testing.T) *Texture {
	t.Helper()
	tex, err := NewRGBA8(4, 1, []byte{0, 0, 0, 255, 85, 0, 0, 255, 170, 0, 0, 255, 255, 0, 0, 255}, false)
	if err != nil {
		t.Fatal(err)
	}
	return tex
}

func explicit(tex *Texture, s *SamplerState, u, v, lod float32) (geom.Vec4, []Tap) {
	return SampleTaps(tex, s, geom.Vec2{u, v}, geom.Vec2{}, geom.Vec2{}, LODExplicit, lod, nil)
}

func TestPointAddressing(t *testing.T) {
	tex := rowTexture(t)
	third, twoThirds := float32(85)/255, float32(170)/255
	tests := []struct {
		mode AddressMode
		u    float32
		want float32 // R
		x    int
	}{
		{Wrap, 0, 0, 0},
		{Wrap, 0.2499, 0, 0},
		{Wrap, 0.25, third, 1},
		{Wrap, 0.99, 1, 3},
		{Wrap, 1, 0, 0},
		{Wrap, 1.3, third, 1},     // 0.3*4 = 1.2
		{Wrap, -0.1, 1, 3},        // 0.9*4 = 3.6
		{Wrap, -1e-10, 1, 3},      // rounds to 1.0: still the last texel
		{Wrap, -2.6, third, 1},    // -2.6 - (-3) = 0.4: 1.6
		{Wrap, 0.6, twoThirds, 2}, // 2.4
		{Clamp, -0.1, 0, 0},
		{Clamp, 1, 1, 3},
		{Clamp, 1.3, 1, 3},
		{Clamp, float32(math.Inf(1)), 1, 3},
		{Clamp, float32(math.NaN()), 0, 0},
		{Wrap, float32(math.Inf(-1)), 0, 0},
	}
	for _, tc := range tests {
		s := SamplerState{Filter: Point, AddressU: tc.mode, AddressV: tc.mode}
		c, taps := explicit(tex, &s, tc.u, 0.5, 0)
		if c[0] != tc.want || c[3] != 1 {
			t.Errorf("%v u=%v: %v, want R=%v", tc.mode, tc.u, c, tc.want)
		}
		if len(taps) != 1 || taps[0] != (Tap{Level: 0, X: tc.x, Y: 0, Weight: 1}) {
			t.Errorf("%v u=%v: taps %v, want texel %d", tc.mode, tc.u, taps, tc.x)
		}
	}
}

func TestBilinearAddressing(t *testing.T) {
	tex := rowTexture(t)
	third := float32(85) / 255
	tests := []struct {
		mode   AddressMode
		u      float32
		want   float32
		x0, x1 int
		fx     float32
	}{
		{Wrap, 0, 0.5, 3, 0, 0.5}, // x = -0.5: lerp(1, 0, 0.5)
		{Clamp, 0, 0, 0, 0, 0.5},  // both texels clamp to 0
		{Wrap, 1, 0.5, 3, 0, 0.5}, // x = 3.5: texels 3 and 0
		{Clamp, 1, 1, 3, 3, 0.5},
		{Wrap, 0.375, third, 1, 2, 0}, // texel centre: exact
		{Wrap, 0.25, third * 0.5, 0, 1, 0.5},
		{Clamp, -5, 0, 0, 0, 0.5},
		{Wrap, 2.375, third, 1, 2, 0},
	}
	for _, tc := range tests {
		s := SamplerState{Filter: Bilinear, AddressU: tc.mode, AddressV: Clamp}
		c, taps := explicit(tex, &s, tc.u, 0.5, 0)
		if c[0] != tc.want {
			t.Errorf("%v u=%v: R = %v, want %v", tc.mode, tc.u, c[0], tc.want)
		}
		want := []Tap{{X: tc.x0, Weight: 1 - tc.fx}, {X: tc.x1, Weight: tc.fx}, {X: tc.x0}, {X: tc.x1}}
		if len(taps) != 4 {
			t.Fatalf("%d taps", len(taps))
		}
		for i := range want {
			if taps[i] != want[i] {
				t.Errorf("%v u=%v: tap %d = %+v, want %+v", tc.mode, tc.u, i, taps[i], want[i])
			}
		}
	}
}

func TestBilinear2D(t *testing.T) {
	// 2x2: R = [0 255; 255 255].
	tex, err := NewRGBA8(2, 2, []byte{0, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0}, false)
	if err != nil {
		t.Fatal(err)
	}
	s := SamplerState{Filter: Bilinear, AddressU: Clamp, AddressV: Clamp}
	tests := []struct {
		u, v float32
		want float32
		taps [4]float32
	}{
		{0.5, 0.5, 0.75, [4]float32{0.25, 0.25, 0.25, 0.25}},        // top 0.5, bottom 1
		{0.375, 0.5, 0.625, [4]float32{0.375, 0.125, 0.375, 0.125}}, // fx 0.25: top 0.25, bottom 1
		{0.25, 0.25, 0, [4]float32{1, 0, 0, 0}},                     // texel (0,0) centre
		{0.75, 0.25, 1, [4]float32{1, 0, 0, 0}},                     // x = 1: x0 = 1 with weight 1, x1 clamps to 1
	}
	for _, tc := range tests {
		c, taps := explicit(tex, &s, tc.u, tc.v, 0)
		if c[0] != tc.want {
			t.Errorf("(%v,%v): R = %v, want %v", tc.u, tc.v, c[0], tc.want)
		}
		for i, w := range tc.taps {
			if taps[i].Weight != w {
				t.Errorf("(%v,%v): tap %d weight %v, want %v", tc.u, tc.v, i, taps[i].Weight, w)
			}
		}
	}
}

func TestLevelSelection(t *testing.T) {
	for _, layout := range []Layout{Linear, Tiled} {
		// R: level 0 = 0, level 1 = 1, level 2 = 0. G: 1, 0, 1.
		tex := levelsTexture(t, layout, [3]byte{0, 255, 0}, [3]byte{255, 0, 255})
		tests := []struct {
			filter Filter
			lod    float32
			r, g   float32
			levels []int // level of each bilinear footprint / point tap
		}{
			{Point, -1, 0, 1, []int{0}},
			{Point, 0.49999997, 0, 1, []int{0}},
			{Point, 0.5, 1, 0, []int{1}},
			{Point, 1.5, 0, 1, []int{2}},
			{Point, 7, 0, 1, []int{2}},
			{Bilinear, 0.4, 0, 1, []int{0}},
			{Bilinear, 1.49, 1, 0, []int{1}},
			{Bilinear, 1.5, 0, 1, []int{2}},
			{Trilinear, -3, 0, 1, []int{0}},
			{Trilinear, 0, 0, 1, []int{0}},
			{Trilinear, 0.25, 0.25, 0.75, []int{0, 1}},
			{Trilinear, 1, 1, 0, []int{1}},
			{Trilinear, 1.25, 0.75, 0.25, []int{1, 2}},
			{Trilinear, 1.5, 0.5, 0.5, []int{1, 2}},
			{Trilinear, 2, 0, 1, []int{2}},
		}
		for _, tc := range tests {
			s := DefaultSamplerState()
			s.Filter = tc.filter
			c, taps := explicit(tex, &s, 0.3, 0.6, tc.lod)
			if c[0] != tc.r || c[1] != tc.g {
				t.Errorf("%v %v lod %v: %v, want R=%v G=%v", layout, tc.filter, tc.lod, c, tc.r, tc.g)
			}
			per := 4
			if tc.filter == Point {
				per = 1
			}
			if len(taps) != per*len(tc.levels) {
				t.Fatalf("%v lod %v: %d taps", tc.filter, tc.lod, len(taps))
			}
			for i, tp := range taps {
				if tp.Level != tc.levels[i/per] {
					t.Errorf("%v lod %v: tap %d level %d, want %d", tc.filter, tc.lod, i, tp.Level, tc.levels[i/per])
				}
			}
		}
	}
}

func TestTrilinearTaps(t *testing.T) {
	tex := levelsTexture(t, Linear, [3]byte{0, 255, 0}, [3]byte{0, 0, 0})
	s := DefaultSamplerState()
	_, taps := explicit(tex, &s, 0.5, 0.5, 0.25)
	// Level 0 (4x4): x = 1.5 -> texels 1, 2, fx 0.5; level 1 (2x2): x = 0.5 -> 0, 1.
	want := []Tap{
		{Level: 0, X: 1, Y: 1, Weight: 0.1875}, {Level: 0, X: 2, Y: 1, Weight: 0.1875}, {Level: 0, X: 1, Y: 2, Weight: 0.1875}, {Level: 0, X: 2, Y: 2, Weight: 0.1875},
		{Level: 1, X: 0, Y: 0, Weight: 0.0625}, {Level: 1, X: 1, Y: 0, Weight: 0.0625}, {Level: 1, X: 0, Y: 1, Weight: 0.0625}, {Level: 1, X: 1, Y: 1, Weight: 0.0625},
	}
	if len(taps) != len(want) {
		t.Fatalf("%d taps", len(taps))
	}
	for i := range want {
		if taps[i] != want[i] {
			t.Errorf("tap %d = %+v, want %+v", i, taps[i], want[i])
		}
	}
}

func TestLOD(t *testing.T) {
	tex, err := New(Descriptor{Format: RGBA8, Width: 256, Height: 128, Layout: Linear}, make([]byte, 256*128*4))
	if err != nil {
		t.Fatal(err)
	}
	def := DefaultSamplerState()
	biased := def
	biased.LODBias = 0.5
	maxed := def
	maxed.MaxLOD = 1.5
	minned := def
	minned.MinLOD = 3
	zeroMin := def
	zeroMin.MinLOD = 0
	var zero SamplerState
	nan := float32(math.NaN())
	tests := []struct {
		name     string
		s        *SamplerState
		ddx, ddy geom.Vec2
		mode     LODMode
		value    float32
		want     float32
	}{
		{"one texel per pixel", &def, geom.Vec2{1.0 / 256, 0}, geom.Vec2{0, 1.0 / 128}, LODGradient, 0, 0},
		{"4 texels in x", &def, geom.Vec2{4.0 / 256, 0}, geom.Vec2{0, 1.0 / 128}, LODGradient, 0, 2},
		{"max of the two", &def, geom.Vec2{1.0 / 256, 0}, geom.Vec2{0, 8.0 / 128}, LODGradient, 0, 3},
		{"length (3,4)=5", &def, geom.Vec2{3.0 / 256, 4.0 / 128}, geom.Vec2{}, LODGradient, 0, float32(2.321928094887362)},
		{"half texel", &def, geom.Vec2{0.5 / 256, 0}, geom.Vec2{}, LODGradient, 0, -1},
		{"sampler and shader bias", &biased, geom.Vec2{4.0 / 256, 0}, geom.Vec2{}, LODGradient, 0.25, 2.75},
		{"MaxLOD", &maxed, geom.Vec2{16.0 / 256, 0}, geom.Vec2{}, LODGradient, 0, 1.5},
		{"MinLOD", &minned, geom.Vec2{1.0 / 256, 0}, geom.Vec2{}, LODGradient, 0, 3},
		{"levels-1", &def, geom.Vec2{1024.0 / 256, 0}, geom.Vec2{}, LODGradient, 0, 8},
		{"zero gradient", &zeroMin, geom.Vec2{}, geom.Vec2{}, LODGradient, 0, 0},
		{"zero gradient default", &def, geom.Vec2{}, geom.Vec2{}, LODGradient, 0, -math.MaxFloat32},
		{"infinite gradient", &def, geom.Vec2{float32(math.Inf(1)), 0}, geom.Vec2{}, LODGradient, 0, 8},
		{"NaN gradient", &def, geom.Vec2{nan, 0}, geom.Vec2{}, LODGradient, 0, 0},
		{"explicit", &biased, geom.Vec2{}, geom.Vec2{}, LODExplicit, 3.7, 3.7},
		{"explicit clamped", &def, geom.Vec2{}, geom.Vec2{}, LODExplicit, 20, 8},
		{"explicit NaN", &def, geom.Vec2{}, geom.Vec2{}, LODExplicit, nan, 0},
		{"zero sampler: level 0 only", &zero, geom.Vec2{8.0 / 256, 0}, geom.Vec2{}, LODGradient, 0, 0},
	}
	for _, tc := range tests {
		if got := LOD(tex, tc.s, tc.ddx, tc.ddy, tc.mode, tc.value); got != tc.want {
			t.Errorf("%s: LOD = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSampleWithGradients(t *testing.T) {
	// Gradients of 2 texels per pixel on the 4x4 three-level texture select level 1.
	tex := levelsTexture(t, Tiled, [3]byte{0, 255, 0}, [3]byte{0, 0, 0})
	s := DefaultSamplerState()
	s.Filter = Point
	c := Sample(tex, &s, geom.Vec2{0.5, 0.5}, geom.Vec2{0.5, 0}, geom.Vec2{0, 0.5}, LODGradient, 0)
	if c[0] != 1 {
		t.Errorf("R = %v, want 1 (level 1)", c[0])
	}
	// A shader bias of -1 goes back to level 0.
	c = Sample(tex, &s, geom.Vec2{0.5, 0.5}, geom.Vec2{0.5, 0}, geom.Vec2{0, 0.5}, LODGradient, -1)
	if c[0] != 0 {
		t.Errorf("biased: R = %v, want 0 (level 0)", c[0])
	}
}

func TestTapsConsistency(t *testing.T) {
	pix := make([]byte, 13*7*4)
	rng := rand.New(rand.NewSource(1))
	for i := range pix {
		pix[i] = byte(rng.Intn(256))
	}
	base, _ := NewRGBA8(13, 7, pix, true)
	tiled, _ := base.WithLayout(Tiled)
	taps := make([]Tap, 0, 8)
	for _, tex := range []*Texture{base, tiled} {
		for i := 0; i < 2000; i++ {
			s := SamplerState{Filter: Filter(i % 3), AddressU: AddressMode(i / 3 % 2), AddressV: AddressMode(i / 6 % 2),
				MinLOD: -1, MaxLOD: 100}
			coord := geom.Vec2{rng.Float32()*6 - 3, rng.Float32()*6 - 3}
			lod := rng.Float32()*5 - 1
			c, tp := SampleTaps(tex, &s, coord, geom.Vec2{}, geom.Vec2{}, LODExplicit, lod, taps[:0])
			if c != Sample(tex, &s, coord, geom.Vec2{}, geom.Vec2{}, LODExplicit, lod) {
				t.Fatalf("Sample and SampleTaps differ")
			}
			var sum float64
			var want geom.Vec4
			for _, x := range tp {
				l := tex.Levels[x.Level]
				if x.X < 0 || x.X >= l.Width || x.Y < 0 || x.Y >= l.Height {
					t.Fatalf("tap %+v outside level %dx%d", x, l.Width, l.Height)
				}
				sum += float64(x.Weight)
				texel := tex.Texel(x.Level, x.X, x.Y)
				for ch := range want {
					want[ch] += x.Weight * texel[ch]
				}
			}
			if math.Abs(sum-1) > 1e-6 {
				t.Fatalf("%v %v lod %v: weights sum to %v", s.Filter, coord, lod, sum)
			}
			for ch := range want {
				if math.Abs(float64(want[ch]-c[ch])) > 1e-5 {
					t.Fatalf("%v %v lod %v: colour %v, weighted taps %v", s.Filter, coord, lod, c, want)
				}
			}
		}
	}
}

func TestNoAllocation(t *testing.T) {
	tex := levelsTexture(t, Tiled, [3]byte{1, 2, 3}, [3]byte{4, 5, 6})
	s := DefaultSamplerState()
	taps := make([]Tap, 0, 8)
	var sink geom.Vec4
	n := testing.AllocsPerRun(100, func() {
		c, tp := SampleTaps(tex, &s, geom.Vec2{0.3, 0.7}, geom.Vec2{0.3, 0}, geom.Vec2{0, 0.2}, LODGradient, 0, taps[:0])
		sink = c
		taps = tp
		sink = Sample(tex, &s, geom.Vec2{0.1, 0.2}, geom.Vec2{0.3, 0}, geom.Vec2{0, 0.2}, LODGradient, 0)
	})
	if n != 0 {
		t.Errorf("%v allocations per sample", n)
	}
	_ = sink
}

func TestSamplerEnums(t *testing.T) {
	enumtest.Parse(t, ParseFilter, map[string]Filter{"TRILINEAR": Trilinear, "Anisotropic": Anisotropic}, "aniso")
	enumtest.Parse(t, ParseAddressMode, map[string]AddressMode{"clamp": Clamp, "mirror_once": MirrorOnce})
	enumtest.Parse(t, ParseLayout, map[string]Layout{"tiled": Tiled})
	s := SamplerState{AddressV: 7}
	if err := s.Validate(); err == nil || err.Error() != "AddressV: invalid value 7" {
		t.Errorf("validate: %v", err)
	}
	if Filter(5).String() != "Filter(5)" || Bilinear.String() != "Bilinear" {
		t.Error("filter names")
	}
}

func FuzzNewFromBytes(f *testing.F) {
	f.Add(uint8(0), uint8(0), 5, 3, 1, 3, uint8(1), make([]byte, 600), float32(0.3), float32(-1.2), float32(0.7), float32(0.1))
	f.Add(uint8(0), uint8(0), 1, 1, 1, 1, uint8(0), make([]byte, 4), float32(0), float32(0), float32(-1), float32(0))
	f.Add(uint8(7), uint8(2), 8, 8, 1, 2, uint8(0), make([]byte, 2000), float32(1), float32(-0.5), float32(0.2), float32(0.3))
	f.Add(uint8(5), uint8(3), 4, 4, 4, 3, uint8(1), make([]byte, 4000), float32(0.5), float32(0.5), float32(0.5), float32(2))
	f.Fuzz(func(t *testing.T, format, typ uint8, w, h, depth, levels int, layout uint8, data []byte, u, v, wc, lod float32) {
		d := Descriptor{Format: Format(format), Width: w, Height: h, Levels: levels, Layout: Layout(layout), Type: Type(typ), Depth: depth}
		if w > 64 || h > 64 || depth > 64 { // keep iterations fast; the limits are tested above
			return
		}
		tex, err := NewFromBytes(d, data)
		if err != nil {
			return
		}
		unorm := d.Format != RGBA16F && d.Format != RGBA32F
		taps := make([]Tap, 0, MaxTaps)
		for fl := Point; fl <= Anisotropic; fl++ {
			for am := Wrap; am <= MirrorOnce; am++ {
				s := SamplerState{Filter: fl, AddressU: am, AddressV: am, AddressW: am, MinLOD: -1, MaxLOD: 1000,
					MaxAnisotropy: 1 + int(format)%16, BorderColor: geom.Vec4{0.25, 0.5, 0.75, 1}}
				c := Coords{P: geom.Vec3{u, v, wc}, DDX: geom.Vec3{u, 0, lod}, DDY: geom.Vec3{0, v, wc}}
				col, tp := SampleCoords(tex, &s, &c, LODMode(format%2), lod, taps[:0], true)
				if unorm {
					for _, x := range col {
						if !(x >= 0 && x <= 1) {
							t.Fatalf("%v: component %v out of [0, 1]", d.Format, x)
						}
					}
				}
				if len(tp) == 0 || len(tp) > MaxTaps {
					t.Fatalf("%d taps", len(tp))
				}
				for _, p := range tp {
					if p.Border {
						continue
					}
					if p.Level < 0 || p.Level >= len(tex.Levels) {
						t.Fatalf("tap %+v: level out of range", p)
					}
					l := &tex.Levels[p.Level]
					if p.X < 0 || p.X >= l.Width || p.Y < 0 || p.Y >= l.Height || p.Z < 0 || p.Z >= l.Depth {
						t.Fatalf("tap %+v outside level %d (%dx%dx%d)", p, p.Level, l.Width, l.Height, l.Depth)
					}
				}
			}
		}
	})
}

func BenchmarkTrilinear(b *testing.B) {
	pix := make([]byte, 256*256*4)
	tex, _ := NewRGBA8(256, 256, pix, true)
	s := DefaultSamplerState()
	var c geom.Vec4
	for i := 0; i < b.N; i++ {
		u := float32(i%1024) / 1024
		c = Sample(tex, &s, geom.Vec2{u, 1 - u}, geom.Vec2{0.01, 0}, geom.Vec2{0, 0.013}, LODGradient, 0)
	}
	_ = c
}

func FuzzParse(f *testing.F) {
	enumtest.Fuzz(f, []string{"point", "Bi-Linear", "wrap", "CLAMP", "tiled", ""},
		enumtest.Check(ParseFilter), enumtest.Check(ParseAddressMode), enumtest.Check(ParseLayout))
}

// TestTexelQuads checks the filter steps of one sample on a 4x4 texture with
// 3 levels: point and bilinear 1, trilinear 2 between levels and 1 on a level,
// anisotropic N probes of 1 level each at LOD 0, and the MaxAnisotropy cap.
func TestTexelQuads(t *testing.T) {
	tex := levelsTexture(t, Linear, [3]byte{1, 2, 3}, [3]byte{4, 5, 6})
	tests := []struct {
		name     string
		filter   Filter
		maxAniso int
		ddx, ddy geom.Vec2
		mode     LODMode
		lod      float32
		want     int
	}{
		{"point", Point, 1, geom.Vec2{}, geom.Vec2{}, LODExplicit, 0.25, 1},
		{"bilinear", Bilinear, 1, geom.Vec2{}, geom.Vec2{}, LODExplicit, 0.25, 1},
		{"trilinear between levels", Trilinear, 1, geom.Vec2{}, geom.Vec2{}, LODExplicit, 0.25, 2},
		{"trilinear on a level", Trilinear, 1, geom.Vec2{}, geom.Vec2{}, LODExplicit, 1, 1},
		// Px = 4 texels, Py = 1: 4 probes, rho = 1, LOD 0: one level each.
		{"anisotropic 4x", Anisotropic, 16, geom.Vec2{1, 0}, geom.Vec2{0, 0.25}, LODGradient, 0, 4},
		// Px = 8, Py = 1 capped at 4 probes: rho = 2, LOD 1 exactly: one level each.
		{"anisotropic capped", Anisotropic, 4, geom.Vec2{2, 0}, geom.Vec2{0, 0.25}, LODGradient, 0, 4},
		// Px = 4, Py = 2: 2 probes, rho = 2, LOD 1 exactly: one level each.
		{"anisotropic 2x", Anisotropic, 16, geom.Vec2{1, 0}, geom.Vec2{0, 0.5}, LODGradient, 0, 2},
		// As above with a bias of 0.5: LOD 1.5, two levels per probe.
		{"anisotropic 2x trilinear", Anisotropic, 16, geom.Vec2{1, 0}, geom.Vec2{0, 0.5}, LODGradient, 0.5, 4},
	}
	taps := make([]Tap, 0, MaxTaps)
	for _, tt := range tests {
		s := DefaultSamplerState()
		s.Filter, s.MaxAnisotropy = tt.filter, tt.maxAniso
		var tp []Tap
		_, tp = SampleTaps(tex, &s, geom.Vec2{0.5, 0.5}, tt.ddx, tt.ddy, tt.mode, tt.lod, taps[:0])
		if got := TexelQuads(tp); got != tt.want {
			t.Errorf("%s: TexelQuads = %d (%d taps), want %d", tt.name, got, len(tp), tt.want)
		}
	}
	if got := TexelQuads(nil); got != 1 {
		t.Errorf("TexelQuads(nil) = %d, want 1", got)
	}
}
