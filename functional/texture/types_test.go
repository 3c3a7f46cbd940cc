package texture

import (
	"math"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

func TestDescriptorTypes(t *testing.T) {
	tests := []struct {
		name   string
		d      Descriptor
		size   uint64
		offs   []uint64
		slices int
	}{
		// 4x4x3 RGBA8 array: slices of 64 bytes, 256 apart; level 1 (2x2) at
		// roundUp(576) = 768 is 2*256+16 bytes; level 2 at roundUp(1296) = 1536, 2*256+4.
		{"array", Descriptor{Format: RGBA8, Width: 4, Height: 4, Levels: 3, Type: Tex2DArray, Depth: 3}, 2052, []uint64{0, 768, 1536}, 3},
		// 4x4x4 R8 volume: 3*256+16 = 784, level 1 (2x2x2) at 1024: 256+4, level 2 (1x1x1) at 1536: 1 byte.
		{"3d", Descriptor{Format: R8, Width: 4, Height: 4, Levels: 3, Type: Tex3D, Depth: 4}, 1537, []uint64{0, 1024, 1536}, 4},
		// 8x8 BC1 cube: 2x2 blocks of 8 bytes = 32 per face, faces 256 apart.
		{"cube", Descriptor{Format: BC1, Width: 8, Height: 8, Levels: 1, Type: TexCube}, 5*256 + 32, []uint64{0}, 6},
		// A 2D texture is laid out as before: 4x2 RGBA8 levels at 0, 256, 512.
		{"2d", Descriptor{Format: RGBA8, Width: 4, Height: 2, Levels: 3}, 516, []uint64{0, 256, 512}, 1},
	}
	for _, tc := range tests {
		if err := tc.d.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := tc.d.SizeBytes(); got != tc.size {
			t.Errorf("%s: size %d, want %d", tc.name, got, tc.size)
		}
		for i, o := range tc.offs {
			if got := tc.d.LevelOffset(i); got != o {
				t.Errorf("%s: level %d at %d, want %d", tc.name, i, got, o)
			}
		}
		if got := tc.d.Slices(); got != tc.slices {
			t.Errorf("%s: %d slices, want %d", tc.name, got, tc.slices)
		}
	}
	errs := []struct {
		d    Descriptor
		want string
	}{
		{Descriptor{Format: RGBA8, Width: 4, Height: 2, Levels: 1, Type: TexCube}, "Height: cube faces must be square, got 4x2"},
		{Descriptor{Format: RGBA8, Width: 4, Height: 4, Levels: 1, Type: Tex2D, Depth: 2}, "Depth: 2, want 0 or 1 for a 2D texture"},
		{Descriptor{Format: RGBA8, Width: 4, Height: 4, Levels: 1, Type: Tex2DArray}, "Depth: 0 out of range [1, 2048]"},
		{Descriptor{Format: RGBA8, Width: 4, Height: 4, Levels: 1, Type: Tex3D, Depth: 4096}, "Depth: 4096 out of range [1, 2048]"},
		{Descriptor{Format: RGBA8, Width: 4, Height: 4, Levels: 1, Type: 9}, "Type: invalid texture type 9"},
		// A 4x4x16 volume has 5 levels, a 4x4 array of 16 layers 3.
		{Descriptor{Format: RGBA8, Width: 4, Height: 4, Levels: 4, Type: Tex2DArray, Depth: 16}, "Levels: 4 out of range [1, 3] for 4x4"},
	}
	for _, tc := range errs {
		if err := tc.d.Validate(); err == nil || err.Error() != tc.want {
			t.Errorf("%+v: %v, want %q", tc.d, err, tc.want)
		}
	}
	if n := (Descriptor{Width: 4, Height: 4, Depth: 16, Type: Tex3D}).MaxLevels(); n != 5 {
		t.Errorf("volume levels %d", n)
	}
	for _, tc := range []struct {
		s string
		t Type
	}{{"2d", Tex2D}, {"2D_array", Tex2DArray}, {"array", Tex2DArray}, {"CUBE", TexCube}, {"3d", Tex3D}} {
		if got, err := ParseType(tc.s); err != nil || got != tc.t {
			t.Errorf("ParseType(%q) = %v, %v", tc.s, got, err)
		}
	}
	if _, err := ParseType("1d"); err == nil {
		t.Error("1d accepted")
	}
}

func TestAddressFunction(t *testing.T) {
	array := mustWrap(t, Descriptor{Format: RGBA8, Width: 4, Height: 4, Levels: 3, Type: Tex2DArray, Depth: 3})
	cube := mustWrap(t, Descriptor{Format: BC1, Width: 8, Height: 8, Levels: 1, Type: TexCube})
	vol := mustWrap(t, Descriptor{Format: R8, Width: 4, Height: 4, Levels: 3, Type: Tex3D, Depth: 4, Layout: Tiled})
	srgb := mustWrap(t, Descriptor{Format: RGBA8SRGB, Width: 8, Height: 8, Levels: 1, Layout: Tiled})
	tests := []struct {
		name           string
		tex            *Texture
		level, x, y, z int
		addr, decoded  uint64
	}{
		// Linear: 2*256 + (2*4+1)*4; decoded: 4x4 tile of 4-byte texels, (2*4+1)*4 too.
		{"array", array, 0, 1, 2, 2, 548, 548},
		{"array level 1", array, 1, 1, 1, 1, 768 + 256 + 12, 768 + 256 + 20}, // decoded: texel 5 of a 4x4 tile
		// BC1: face 3 at 768, block (1, 1) of 2x2 = 3*8; decoded: tile 3 (64 bytes each)
		// plus texel (1, 2) of the tile, 9*4.
		{"cube", cube, 0, 5, 6, 3, 768 + 24, 768 + 192 + 36},
		// Tiled R8: slice 3 at 768, texel 2*4+3; decoded tiles of 16 bytes: the same.
		{"3d", vol, 0, 3, 2, 3, 768 + 11, 768 + 11},
		// sRGB: 4 bytes in memory, 8 in the L1: tile (1, 1) is tile 3.
		{"srgb", srgb, 0, 5, 6, 0, 3*64 + 9*4, 3*128 + 9*8},
	}
	for _, tc := range tests {
		if got := tc.tex.Address(tc.level, tc.x, tc.y, tc.z); got != tc.addr {
			t.Errorf("%s: Address = %d, want %d", tc.name, got, tc.addr)
		}
		if got := tc.tex.DecodedAddress(tc.level, tc.x, tc.y, tc.z); got != tc.decoded {
			t.Errorf("%s: DecodedAddress = %d, want %d", tc.name, got, tc.decoded)
		}
	}
}

func mustWrap(t *testing.T, d Descriptor) *Texture {
	t.Helper()
	tex, err := NewFromBytes(d, make([]byte, d.SizeBytes()))
	if err != nil {
		t.Fatal(err)
	}
	return tex
}

func TestFillRanges(t *testing.T) {
	tests := []struct {
		name  string
		d     Descriptor
		line  uint64
		want  []ByteRange
		units int
	}{
		// Linear RGBA8 8x8: decoded tile 1 is x 4..7 of rows 0..3, 16 bytes of each 32-byte row.
		{"linear", Descriptor{Format: RGBA8, Width: 8, Height: 8, Levels: 1}, 64,
			[]ByteRange{{16, 16}, {48, 16}, {80, 16}, {112, 16}}, 16},
		// Tiled RGBA8: a decoded line is the stored tile.
		{"tiled", Descriptor{Format: RGBA8, Width: 8, Height: 8, Levels: 1, Layout: Tiled}, 64, []ByteRange{{64, 64}}, 16},
		// BC1: a decoded tile (64 bytes) comes from one 8-byte block.
		{"bc1", Descriptor{Format: BC1, Width: 8, Height: 8, Levels: 1, Type: TexCube}, 768 + 192, []ByteRange{{768 + 24, 8}}, 1},
		// BC3: 16-byte blocks.
		{"bc3", Descriptor{Format: BC3, Width: 8, Height: 8, Levels: 1}, 64, []ByteRange{{16, 16}}, 1},
		// sRGB: 8-byte decoded texels, a 64-byte line is rows 2-3 of tile 0, 32 stored bytes.
		{"srgb", Descriptor{Format: RGBA8SRGB, Width: 8, Height: 8, Levels: 1, Layout: Tiled}, 64, []ByteRange{{32, 32}}, 8},
		// RGBA32F: four 16-byte texels per line.
		{"rgba32f", Descriptor{Format: RGBA32F, Width: 4, Height: 4, Levels: 1, Layout: Tiled}, 64, []ByteRange{{64, 64}}, 4},
		// R8 tiled 8x8: one 64-byte line holds the four 16-byte tiles.
		{"r8", Descriptor{Format: R8, Width: 8, Height: 8, Levels: 1, Layout: Tiled}, 0, []ByteRange{{0, 64}}, 64},
		// A 6x6 RGBA8 tiled level: decoded tile 3 holds texels 4..5 x 4..5 only.
		{"padding", Descriptor{Format: RGBA8, Width: 6, Height: 6, Levels: 1, Layout: Tiled}, 192,
			[]ByteRange{{192, 8}, {208, 8}}, 4},
		// Beyond the texture: nothing.
		{"outside", Descriptor{Format: RGBA8, Width: 4, Height: 4, Levels: 1}, 4096, nil, 0},
		// Level 1 of a 8x8 RGBA8 linear chain starts at 256 (decoded too): 4x4 in one tile.
		{"level 1", Descriptor{Format: RGBA8, Width: 8, Height: 8, Levels: 2}, 256, []ByteRange{{256, 64}}, 16},
	}
	for _, tc := range tests {
		tex := mustWrap(t, tc.d)
		out := make([]ByteRange, 0, 128)
		got, units := tex.FillRanges(tc.line, 64, out)
		if units != tc.units || len(got) != len(tc.want) {
			t.Errorf("%s: %v (%d units), want %v (%d)", tc.name, got, units, tc.want, tc.units)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
				break
			}
		}
		if n := testing.AllocsPerRun(10, func() { tex.FillRanges(tc.line, 64, out[:0]) }); n != 0 {
			t.Errorf("%s: %v allocations", tc.name, n)
		}
	}
	// The decoded space of every texture fits in 256 times its memory image.
	for _, d := range []Descriptor{
		{Format: R8, Width: 1, Height: 1, Levels: 1}, {Format: RGBA8SRGB, Width: 1, Height: 1, Levels: 1},
		{Format: RGBA32F, Width: 1, Height: 1, Levels: 1, Layout: Linear}, {Format: BC1, Width: 1, Height: 1, Levels: 1},
		{Format: R8, Width: 1, Height: 1, Levels: 1, Type: Tex2DArray, Depth: 7}, {Format: R8, Width: 3, Height: 1, Levels: 2},
	} {
		tex := mustWrap(t, d)
		if tex.DecodedSize() > tex.SizeBytes()<<DecodedSpaceShift {
			t.Errorf("%+v: decoded %d bytes for %d in memory", d, tex.DecodedSize(), tex.SizeBytes())
		}
	}
}

// edgeTexture is rowTexture: R = 0, 85, 170, 255 across 4 texels.
func TestAddressModesAtEdges(t *testing.T) {
	tex := rowTexture(t)
	third, twoThirds := float32(85)/255, float32(170)/255
	border := geom.Vec4{0.5, 0.25, 1, 1}
	point := []struct {
		mode   AddressMode
		u      float32
		x      int
		border bool
		r      float32
	}{
		{Mirror, 1.1, 3, false, 1},         // 4.4 -> texel 4, mirrored to 3
		{Mirror, 1.3, 2, false, twoThirds}, // 5.2 -> 5 -> 2
		{Mirror, -0.1, 0, false, 0},        // reduced to 1.9: 7.6 -> 7 -> 0
		{Mirror, 2.1, 0, false, 0},         // reduced to 0.1
		{MirrorOnce, -0.3, 1, false, third},
		{MirrorOnce, -1.5, 3, false, 1}, // |u| clamped to 1
		{MirrorOnce, 1.5, 3, false, 1},
		{Border, -0.1, -1, true, 0.5},
		{Border, 1, 4, true, 0.5},
		{Border, 0.99, 3, false, 1},
		{Border, float32(math.Inf(-1)), -1, true, 0.5},
		{Border, float32(math.NaN()), 0, false, 0},
	}
	for _, tc := range point {
		s := SamplerState{Filter: Point, AddressU: tc.mode, AddressV: Clamp, BorderColor: border}
		c, taps := explicit(tex, &s, tc.u, 0.5, 0)
		if c[0] != tc.r || len(taps) != 1 || taps[0].X != tc.x || taps[0].Border != tc.border {
			t.Errorf("point %v u=%v: R %v taps %+v, want R %v x %d border %v", tc.mode, tc.u, c[0], taps, tc.r, tc.x, tc.border)
		}
	}
	linear := []struct {
		mode   AddressMode
		u      float32
		x0, x1 int
		b0, b1 bool
		fx, r  float32
	}{
		{Mirror, 0, 0, 0, false, false, 0.5, 0},        // x = -0.5: texels -1 -> 0 and 0
		{Mirror, 1, 3, 3, false, false, 0.5, 1},        // x = 3.5: texels 3 and 4 -> 3
		{Mirror, 1.125, 3, 2, false, false, 0, 1},      // x = 4.0: texels 4 -> 3 and 5 -> 2
		{Mirror, -0.125, 0, 0, false, false, 0, 0},     // reduced to 1.875: x = 7: texels 7 -> 0 and 8 -> 0
		{MirrorOnce, -0.125, 0, 1, false, false, 0, 0}, // |u| = 0.125: x = 0
		{MirrorOnce, -0.25, 0, 1, false, false, 0.5, third / 2},
		{Border, 0, -1, 0, true, false, 0.5, 0.25},  // lerp(0.5, 0, 0.5)
		{Border, 1, 3, 4, false, true, 0.5, 0.75},   // lerp(1, 0.5, 0.5)
		{Border, 0.5, 1, 2, false, false, 0.5, 0.5}, // lerp(1/3, 2/3, 0.5) in float32, below
		{Border, -3, -2, -1, true, true, 0, 0.5},    // x clamped to -2
	}
	for _, tc := range linear {
		s := SamplerState{Filter: Bilinear, AddressU: tc.mode, AddressV: Clamp, BorderColor: border}
		c, taps := explicit(tex, &s, tc.u, 0.5, 0)
		if len(taps) != 4 || taps[0].X != tc.x0 || taps[1].X != tc.x1 || taps[0].Border != tc.b0 || taps[1].Border != tc.b1 ||
			taps[1].Weight != tc.fx {
			t.Errorf("linear %v u=%v: taps %+v, want x %d %d border %v %v fx %v", tc.mode, tc.u, taps, tc.x0, tc.x1, tc.b0, tc.b1, tc.fx)
		}
		want := tc.r
		if tc.mode == Border && tc.u == 0.5 {
			want = third + float32(0.5*(twoThirds-third))
		}
		if c[0] != want {
			t.Errorf("linear %v u=%v: R %v, want %v", tc.mode, tc.u, c[0], want)
		}
	}
}

// cubeTexture is a 4x4 RGBA8 cube whose texel (x, y) of face f is (f, x, y, 255).
func cubeTexture(t *testing.T, levels int) *Texture {
	t.Helper()
	pix := make([]byte, 0, 6*16*4)
	for f := 0; f < 6; f++ {
		for y := 0; y < 4; y++ {
			for x := 0; x < 4; x++ {
				pix = append(pix, byte(f), byte(x), byte(y), 255)
			}
		}
	}
	tex, err := New(Descriptor{Format: RGBA8, Width: 4, Height: 4, Levels: levels, Type: TexCube, Layout: Tiled}, pix)
	if err != nil {
		t.Fatal(err)
	}
	return tex
}

func TestCubeFaceSelection(t *testing.T) {
	tex := cubeTexture(t, 1)
	s := SamplerState{Filter: Point}
	tests := []struct {
		dir        geom.Vec3
		face, x, y int
	}{
		{geom.Vec3{1, 0.5, -0.25}, 0, 2, 1},   // +X: sc = -z = 0.25, tc = -y = -0.5: s 0.625, t 0.25
		{geom.Vec3{-2, 1, 1}, 1, 3, 1},        // -X: sc = z/2 = 0.5, tc = -y/2 = -0.5: s 0.75, t 0.25
		{geom.Vec3{0.54, 0.9, -0.3}, 2, 3, 1}, // +Y: sc = x/0.9 = 0.6, tc = z/0.9 = -1/3: s 0.8, t 1/3
		{geom.Vec3{0.5, -1, 0.25}, 3, 3, 1},   // -Y: sc = x = 0.5, tc = -z = -0.25: s 0.75, t 0.375
		{geom.Vec3{0.5, 0.25, 2}, 4, 2, 1},    // +Z: sc = x/2, tc = -y/2: s 0.625, t 0.4375
		{geom.Vec3{0.5, 0.25, -2}, 5, 1, 1},   // -Z: sc = -x/2: s 0.375, t 0.4375
		{geom.Vec3{1, 1, 0}, 0, 2, 0},         // ties: X over Y over Z; tc = -1: t 0
		{geom.Vec3{0, 1, 1}, 2, 2, 3},         // +Y: sc = 0, tc = z = 1: t = 1 -> last texel
		{geom.Vec3{-1, 1, 1}, 1, 3, 0},
		{geom.Vec3{}, 0, 2, 2}, // no direction: the centre of face +X
	}
	for _, tc := range tests {
		c := Coords{P: tc.dir}
		v, taps := SampleCoords(tex, &s, &c, LODExplicit, 0, nil, true)
		want := geom.Vec4{float32(tc.face) / 255, float32(tc.x) / 255, float32(tc.y) / 255, 1}
		if len(taps) != 1 || taps[0].Z != tc.face || taps[0].X != tc.x || taps[0].Y != tc.y || v != want {
			t.Errorf("%v: taps %+v value %v, want face %d texel (%d, %d)", tc.dir, taps, v, tc.face, tc.x, tc.y)
		}
	}
}

func TestCubeSeamless(t *testing.T) {
	tex := cubeTexture(t, 1)
	s := SamplerState{Filter: Bilinear}
	// On +X at s = 0.05 (x = -0.3: texels -1 and 0), t = 0.5 (rows 1, 2). Texel -1
	// of row 1 is the direction (1, 0.25, 1.25): face +Z, sc = 0.8, tc = -0.2 ->
	// texel (3, 1); row 2: (1, -0.25, 1.25) -> tc = 0.2 -> texel (3, 2).
	c := Coords{P: geom.Vec3{1, 0, 0.9}} // sc = -0.9: s = 0.05
	_, taps := SampleCoords(tex, &s, &c, LODExplicit, 0, nil, true)
	want := []struct{ z, x, y int }{{4, 3, 1}, {0, 0, 1}, {4, 3, 2}, {0, 0, 2}}
	if len(taps) != 4 {
		t.Fatalf("taps %+v", taps)
	}
	for i, w := range want {
		if taps[i].Z != w.z || taps[i].X != w.x || taps[i].Y != w.y {
			t.Errorf("tap %d = %+v, want face %d (%d, %d)", i, taps[i], w.z, w.x, w.y)
		}
	}
	// Every edge texel of every face maps to a texel of the neighbouring face
	// whose own neighbour across the same edge is the original texel.
	for f := 0; f < 6; f++ {
		for i := 0; i < 4; i++ {
			for _, p := range [][2]int{{-1, i}, {4, i}, {i, -1}, {i, 4}} {
				nf, nx, ny := cubeTexel(f, p[0], p[1], 4)
				if nf == f || nx < 0 || nx > 3 || ny < 0 || ny > 3 {
					t.Fatalf("face %d %v -> face %d (%d, %d)", f, p, nf, nx, ny)
				}
				found := false
				for _, q := range [][2]int{{nx - 1, ny}, {nx + 1, ny}, {nx, ny - 1}, {nx, ny + 1}} {
					if bf, bx, by := cubeTexel(nf, q[0], q[1], 4); bf == f && bx == min(max(p[0], 0), 3) && by == min(max(p[1], 0), 3) {
						found = true
					}
				}
				if !found {
					t.Errorf("face %d %v -> face %d (%d, %d) is not adjacent back", f, p, nf, nx, ny)
				}
			}
		}
	}
}

func TestLODFromDerivatives(t *testing.T) {
	vol := mustWrap(t, Descriptor{Format: R8, Width: 16, Height: 16, Depth: 16, Levels: 5, Type: Tex3D})
	cube := mustWrap(t, Descriptor{Format: RGBA8, Width: 16, Height: 16, Levels: 5, Type: TexCube})
	arr := mustWrap(t, Descriptor{Format: RGBA8, Width: 16, Height: 16, Depth: 4, Levels: 5, Type: Tex2DArray})
	s := DefaultSamplerState()
	tests := []struct {
		name string
		tex  *Texture
		c    Coords
		want float32
	}{
		// 3D: ddx 1 texel along u, ddy 4 texels along w: lod log2(4) = 2.
		{"3d", vol, Coords{DDX: geom.Vec3{1.0 / 16}, DDY: geom.Vec3{0, 0, 4.0 / 16}}, 2},
		// 3D diagonal: |(2, 2, 1)| = 3 texels -> log2(3).
		{"3d diagonal", vol, Coords{DDX: geom.Vec3{2.0 / 16, 2.0 / 16, 1.0 / 16}}, float32(math.Log2(3))},
		// Cube at (1, 0, 0): ds/dx = 0.5*dsc = 0.5*0.25 (2 texels), dt/dy = 0.5*(-0.5) (4 texels): lod 2.
		{"cube", cube, Coords{P: geom.Vec3{1, 0, 0}, DDX: geom.Vec3{0, 0, -0.25}, DDY: geom.Vec3{0, 0.5, 0}}, 2},
		// Twice as far along the axis the projected derivatives halve: lod 1.
		{"cube far", cube, Coords{P: geom.Vec3{2, 0, 0}, DDX: geom.Vec3{0, 0, -0.25}, DDY: geom.Vec3{0, 0.5, 0}}, 1},
		// Off-axis: at (1, 0, -1) on +X (sc = 1) a step in x changes |ma|: ds = 0.5*(0 - 1*0.5)/1 = -0.25: 4 texels.
		{"cube quotient", cube, Coords{P: geom.Vec3{1, 0, -1}, DDX: geom.Vec3{0.5, 0, 0}}, 2},
		// Arrays ignore the layer coordinate's derivative: 2 texels -> lod 1.
		{"array", arr, Coords{P: geom.Vec3{0, 0, 2}, DDX: geom.Vec3{2.0 / 16, 0, 100}}, 1},
	}
	for _, tc := range tests {
		if got := LODAt(tc.tex, &s, &tc.c, LODGradient, 0); got != tc.want {
			t.Errorf("%s: lod %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestArrayLayers(t *testing.T) {
	// Layer k of a 1x1 R8 array holds 10*k.
	tex, err := New(Descriptor{Format: R8, Width: 1, Height: 1, Depth: 4, Levels: 1, Type: Tex2DArray}, []byte{0, 10, 20, 30})
	if err != nil {
		t.Fatal(err)
	}
	s := SamplerState{Filter: Bilinear}
	for _, tc := range []struct {
		z     float32
		layer int
	}{{0, 0}, {0.49, 0}, {0.5, 1}, {2.5, 3}, {-3, 0}, {17, 3}, {float32(math.NaN()), 0}} {
		c := Coords{P: geom.Vec3{0.5, 0.5, tc.z}}
		v, taps := SampleCoords(tex, &s, &c, LODExplicit, 0, nil, true)
		if v[0] != float32(10*tc.layer)/255 || taps[0].Z != tc.layer {
			t.Errorf("z %v: %v taps %+v, want layer %d", tc.z, v, taps, tc.layer)
		}
	}
}

func TestVolumeFilter(t *testing.T) {
	// 2x2x2 R8 with value 40*z + 20*y + 10*x at (x, y, z): trilinear at the centre
	// averages all eight: 35/255 up to the lerp rounding.
	pix := make([]byte, 8)
	for z := 0; z < 2; z++ {
		for y := 0; y < 2; y++ {
			for x := 0; x < 2; x++ {
				pix[(z*2+y)*2+x] = byte(40*z + 20*y + 10*x)
			}
		}
	}
	tex, err := New(Descriptor{Format: R8, Width: 2, Height: 2, Depth: 2, Levels: 1, Type: Tex3D}, pix)
	if err != nil {
		t.Fatal(err)
	}
	s := SamplerState{Filter: Bilinear, AddressU: Clamp, AddressV: Clamp, AddressW: Clamp}
	c := Coords{P: geom.Vec3{0.5, 0.5, 0.5}}
	v, taps := SampleCoords(tex, &s, &c, LODExplicit, 0, nil, true)
	if len(taps) != 8 {
		t.Fatalf("%d taps", len(taps))
	}
	for i, tp := range taps {
		if tp.Weight != 0.125 || tp.X != i&1 || tp.Y != i>>1&1 || tp.Z != i>>2 {
			t.Errorf("tap %d = %+v", i, tp)
		}
	}
	if d := v[0] - 35.0/255; d > 1e-6 || d < -1e-6 {
		t.Errorf("value %v, want %v", v[0], 35.0/255)
	}
	// Point at w = 0.75 reads slice 1; AddressW wraps w = 1.75 to the same.
	s.Filter = Point
	for _, w := range []float32{0.75, 1.75} {
		s.AddressW = Wrap
		c.P[2] = w
		_, taps = SampleCoords(tex, &s, &c, LODExplicit, 0, nil, true)
		if taps[0].Z != 1 {
			t.Errorf("w %v: slice %d", w, taps[0].Z)
		}
	}
}

func TestAnisotropicPlacement(t *testing.T) {
	// 64x64 with level i all R = 10*i, except level 1: 255.
	d := Descriptor{Format: RGBA8, Width: 64, Height: 64, Levels: 7}
	tex := mustWrap(t, d)
	for i, l := range tex.Levels {
		for y := 0; y < l.Height; y++ {
			for x := 0; x < l.Width; x++ {
				r := byte(10 * i)
				if i == 1 {
					r = 255
				}
				copy(tex.Bytes()[tex.Address(i, x, y, 0):], []byte{r, 0, 0, 255})
			}
		}
	}
	s := DefaultSamplerState()
	s.Filter = Anisotropic
	// ddx 8 texels along u, ddy 2 along v: ratio 4 -> 4 probes, lod log2(8/4) = 1.
	c := Coords{P: geom.Vec3{0.5, 0.5}, DDX: geom.Vec3{8.0 / 64}, DDY: geom.Vec3{0, 2.0 / 64}}
	v, taps := SampleCoords(tex, &s, &c, LODGradient, 0, make([]Tap, 0, MaxTaps), true)
	if got := LODAt(tex, &s, &c, LODGradient, 0); got != 1 {
		t.Errorf("lod %v, want 1", got)
	}
	// Probes at u = 0.5 + 0.125*(2i+1-4)/8: x = u*32 - 0.5 = 14, 15, 16, 17 exactly;
	// v = 0.5: y = 15.5 -> rows 15, 16 at 0.5 each; weight 1/4 per probe.
	if len(taps) != 16 {
		t.Fatalf("%d taps", len(taps))
	}
	for p := 0; p < 4; p++ {
		want := []Tap{{Level: 1, X: 14 + p, Y: 15, Weight: 0.125}, {Level: 1, X: 15 + p, Y: 15}, {Level: 1, X: 14 + p, Y: 16, Weight: 0.125}, {Level: 1, X: 15 + p, Y: 16}}
		for k, w := range want {
			if taps[4*p+k] != w {
				t.Errorf("probe %d tap %d = %+v, want %+v", p, k, taps[4*p+k], w)
			}
		}
	}
	if v[0] != 1 {
		t.Errorf("value %v, want level 1's 1", v[0])
	}
	// MaxAnisotropy 2: 2 probes at +-1/4 of ddx, lod log2(8/2) = 2: x = u*16 - 0.5 = 7, 8.
	s.MaxAnisotropy = 2
	_, taps = SampleCoords(tex, &s, &c, LODGradient, 0, nil, true)
	if len(taps) != 8 || taps[0].Level != 2 || taps[0].X != 7 || taps[4].X != 8 {
		t.Errorf("2x: taps %+v", taps)
	}
	// The major axis is ddy when it is longer; ratio 8/3 -> 3 probes, lod log2(8/3).
	s.MaxAnisotropy = 16
	c = Coords{P: geom.Vec3{0.5, 0.5}, DDX: geom.Vec3{3.0 / 64}, DDY: geom.Vec3{0, 8.0 / 64}}
	if got, want := LODAt(tex, &s, &c, LODGradient, 0), float32(math.Log2(float64(float32(8)/3))); got != want {
		t.Errorf("lod %v, want %v", got, want)
	}
	_, taps = SampleCoords(tex, &s, &c, LODGradient, 0, nil, true)
	if len(taps) != 3*8 || taps[0].Y >= taps[8].Y || taps[8].Y >= taps[16].Y || taps[0].X != taps[8].X {
		t.Errorf("3 probes along v: taps %+v", taps)
	}
	// Isotropic footprints and explicit LODs take one probe (trilinear).
	c = Coords{P: geom.Vec3{0.5, 0.5}, DDX: geom.Vec3{4.0 / 64}, DDY: geom.Vec3{0, 4.0 / 64}}
	if _, taps = SampleCoords(tex, &s, &c, LODGradient, 0, nil, true); len(taps) != 4 {
		t.Errorf("isotropic: %d taps", len(taps))
	}
	if _, taps = SampleCoords(tex, &s, &c, LODExplicit, 1.5, nil, true); len(taps) != 8 {
		t.Errorf("explicit: %d taps", len(taps))
	}
	// Zero gradients: one probe at MinLOD.
	if _, taps = SampleCoords(tex, &s, &Coords{P: geom.Vec3{0.5, 0.5}}, LODGradient, 0, nil, true); len(taps) != 4 {
		t.Errorf("zero footprint: %d taps", len(taps))
	}
	// 16x of a trilinear 3D footprint fills MaxTaps without allocating.
	vol := mustWrap(t, Descriptor{Format: R8, Width: 64, Height: 64, Depth: 64, Levels: 7, Type: Tex3D})
	c = Coords{P: geom.Vec3{0.3, 0.3, 0.3}, DDX: geom.Vec3{40.0 / 64}, DDY: geom.Vec3{0, 1.5 / 64, 0.5 / 64}}
	buf := make([]Tap, 0, MaxTaps)
	if _, taps = SampleCoords(vol, &s, &c, LODGradient, 0, buf, true); len(taps) != MaxTaps {
		t.Errorf("3D 16x: %d taps", len(taps))
	}
	if n := testing.AllocsPerRun(20, func() { SampleCoords(vol, &s, &c, LODGradient, 0, buf[:0], true) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
