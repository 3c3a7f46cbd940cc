package texture

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
)

func TestHalf(t *testing.T) {
	tests := []struct {
		h uint16
		f float32
	}{
		{0x0000, 0}, {0x3c00, 1}, {0xc000, -2}, {0x3555, 0.333251953125}, {0x0001, 1.0 / (1 << 24)},
		{0x7bff, 65504}, {0x3800, 0.5}, {0x4100, 2.5},
	}
	for _, tc := range tests {
		if got := HalfToFloat(tc.h); got != tc.f {
			t.Errorf("HalfToFloat(%#04x) = %v, want %v", tc.h, got, tc.f)
		}
		if got := FloatToHalf(tc.f); got != tc.h {
			t.Errorf("FloatToHalf(%v) = %#04x, want %#04x", tc.f, got, tc.h)
		}
	}
	if v := HalfToFloat(0x7c00); !math.IsInf(float64(v), 1) {
		t.Errorf("0x7c00 = %v, want +Inf", v)
	}
	if v := HalfToFloat(0x7e00); v == v {
		t.Errorf("0x7e00 = %v, want NaN", v)
	}
	rounding := []struct {
		f float32
		h uint16
	}{
		{1.0 / 3, 0x3555},
		{65520, 0x7c00},                  // the tie above the largest half rounds to even: infinity
		{float32(math.Ldexp(1, -25)), 0}, // half of the smallest subnormal: tie to even (0)
		{float32(math.Ldexp(3, -26)), 1}, // 0.75 of it rounds up
		{-1e10, 0xfc00},
		{float32(math.NaN()), 0x7e00},
		{1 + 1.0/2048, 0x3c00}, // tie: 1.0 is even
		{1 + 3.0/2048, 0x3c02}, // tie: 1+2/1024 is even
	}
	for _, tc := range rounding {
		if got := FloatToHalf(tc.f); got != tc.h {
			t.Errorf("FloatToHalf(%v) = %#04x, want %#04x", tc.f, got, tc.h)
		}
	}
}

func TestSRGB(t *testing.T) {
	tests := []struct {
		v    uint8
		bits uint32 // the float32 of the linear value
	}{{0, 0}, {10, 0x3b46eb61}, {128, 0x3e5d0a89}, {200, 0x3f13dc50}, {255, 0x3f800000}}
	for _, tc := range tests {
		if got := SRGBToLinear(tc.v); math.Float32bits(got) != tc.bits {
			t.Errorf("SRGBToLinear(%d) = %v (%#x), want %#x", tc.v, got, math.Float32bits(got), tc.bits)
		}
	}
	// 0.5 linear is 0.7353569830 * 255 = 187.516 -> 188.
	for _, tc := range []struct {
		l float64
		v uint8
	}{{0.5, 188}, {0, 0}, {1, 255}, {-1, 0}, {2, 255}, {math.NaN(), 0}, {0.0030352699, 10}} {
		if got := LinearToSRGB8(tc.l); got != tc.v {
			t.Errorf("LinearToSRGB8(%v) = %d, want %d", tc.l, got, tc.v)
		}
	}
	for v := 0; v < 256; v++ {
		if got := LinearToSRGB8(float64(SRGBToLinear(uint8(v)))); got != uint8(v) {
			t.Errorf("sRGB %d does not round-trip (%d)", v, got)
		}
	}
}

// oneTexel builds a 1x1 single-level texture of format f from its texel bytes.
func oneTexel(t *testing.T, f Format, b []byte) *Texture {
	t.Helper()
	d := Descriptor{Format: f, Width: 1, Height: 1, Levels: 1}
	tex, err := NewFromBytes(d, b)
	if err != nil {
		t.Fatal(err)
	}
	return tex
}

func TestUncompressedDecoders(t *testing.T) {
	f32 := func(vs ...float32) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
		}
		return b
	}
	tests := []struct {
		f    Format
		b    []byte
		want geom.Vec4
	}{
		{RGBA8, []byte{0, 51, 255, 102}, geom.Vec4{0, 0.2, 1, 0.4}},
		{RGBA8SRGB, []byte{128, 255, 10, 51}, geom.Vec4{math.Float32frombits(0x3e5d0a89), 1, math.Float32frombits(0x3b46eb61), 0.2}},
		{R8, []byte{51}, geom.Vec4{0.2, 0, 0, 1}},
		{RG8, []byte{51, 255}, geom.Vec4{0.2, 1, 0, 1}},
		{RGBA16F, []byte{0x00, 0x3c, 0x00, 0xc0, 0x55, 0x35, 0x00, 0x38}, geom.Vec4{1, -2, 0.333251953125, 0.5}},
		{RGBA32F, f32(1.5, -0.25, 1e6, 0), geom.Vec4{1.5, -0.25, 1e6, 0}},
	}
	for _, tc := range tests {
		if got := oneTexel(t, tc.f, tc.b).Texel(0, 0, 0); got != tc.want {
			t.Errorf("%v %v: %v, want %v", tc.f, tc.b, got, tc.want)
		}
	}
}

func TestFormatProperties(t *testing.T) {
	tests := []struct {
		f                  Format
		unit, dim, decoded int
		compressed         bool
		source             Format
		name               string
	}{
		{RGBA8, 4, 1, 4, false, RGBA8, "RGBA8"},
		{RGBA8SRGB, 4, 1, 8, false, RGBA8SRGB, "RGBA8_SRGB"},
		{R8, 1, 1, 1, false, R8, "R8"},
		{RG8, 2, 1, 2, false, RG8, "RG8"},
		{RGBA16F, 8, 1, 8, false, RGBA16F, "RGBA16F"},
		{RGBA32F, 16, 1, 16, false, RGBA32F, "RGBA32F"},
		{BC1, 8, 4, 4, true, RGBA8, "BC1"},
		{BC2, 16, 4, 4, true, RGBA8, "BC2"},
		{BC3, 16, 4, 4, true, RGBA8, "BC3"},
		{BC4, 8, 4, 1, true, R8, "BC4"},
		{BC5, 16, 4, 2, true, RG8, "BC5"},
	}
	for _, tc := range tests {
		if tc.f.UnitBytes() != tc.unit || tc.f.BlockDim() != tc.dim || tc.f.DecodedBytes() != tc.decoded ||
			tc.f.Compressed() != tc.compressed || tc.f.SourceFormat() != tc.source || tc.f.String() != tc.name {
			t.Errorf("%v: unit %d dim %d decoded %d compressed %v source %v", tc.f, tc.f.UnitBytes(), tc.f.BlockDim(),
				tc.f.DecodedBytes(), tc.f.Compressed(), tc.f.SourceFormat())
		}
		if p, err := ParseFormat(tc.name); err != nil || p != tc.f {
			t.Errorf("ParseFormat(%q) = %v, %v", tc.name, p, err)
		}
	}
	if _, err := ParseFormat("bc7"); err == nil {
		t.Error("bc7 accepted")
	}
	if p, err := ParseFormat("rgba8-srgb"); err != nil || p != RGBA8SRGB {
		t.Errorf("rgba8-srgb: %v %v", p, err)
	}
}

func TestMipChainFormats(t *testing.T) {
	t.Run("srgb averages in linear space", func(t *testing.T) {
		// 2x2 texels 0, 255, 0, 255 in every channel: linear mean 0.5 -> sRGB 188;
		// alpha is linear: (0+255+0+255+2)/4 = 128.
		pix := []byte{0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0, 255, 255, 255, 255}
		tex, err := New(Descriptor{Format: RGBA8SRGB, Width: 2, Height: 2}, pix)
		if err != nil {
			t.Fatal(err)
		}
		if got := tex.LinearLevel(1, nil); string(got) != string([]byte{188, 188, 188, 128}) {
			t.Errorf("level 1 = %v", got)
		}
	})
	t.Run("half floats average in float32", func(t *testing.T) {
		var pix []byte
		for _, v := range []float32{1, 2, 3, 4} { // R; G = -R, B = 0, A = 1
			for _, c := range []float32{v, -v, 0, 1} {
				pix = binary.LittleEndian.AppendUint16(pix, FloatToHalf(c))
			}
		}
		tex, err := New(Descriptor{Format: RGBA16F, Width: 2, Height: 2, Layout: Tiled}, pix)
		if err != nil {
			t.Fatal(err)
		}
		if got := tex.Texel(1, 0, 0); got != (geom.Vec4{2.5, -2.5, 0, 1}) {
			t.Errorf("level 1 = %v", got)
		}
	})
	t.Run("3D box filters 2x2x2", func(t *testing.T) {
		// R8 2x2x2 with values 0..7: (28+4)/8 = 4.
		tex, err := New(Descriptor{Format: R8, Width: 2, Height: 2, Depth: 2, Type: Tex3D}, []byte{0, 1, 2, 3, 4, 5, 6, 7})
		if err != nil {
			t.Fatal(err)
		}
		if len(tex.Levels) != 2 || tex.Levels[1].Depth != 1 {
			t.Fatalf("levels %+v", tex.Levels)
		}
		if got := tex.LinearLevel(1, nil); got[0] != 4 {
			t.Errorf("level 1 = %v, want 4", got)
		}
	})
	t.Run("arrays filter each layer", func(t *testing.T) {
		// Layer 0 all 10, layer 1 all 200, both 2x2 R8.
		tex, err := New(Descriptor{Format: R8, Width: 2, Height: 2, Depth: 2, Type: Tex2DArray}, []byte{10, 10, 10, 10, 200, 200, 200, 200})
		if err != nil {
			t.Fatal(err)
		}
		if got := tex.LinearLevel(1, nil); string(got) != string([]byte{10, 200}) {
			t.Errorf("level 1 = %v", got)
		}
	})
	t.Run("FromRGBA8 converts", func(t *testing.T) {
		rgba := []byte{51, 102, 153, 255}
		for _, tc := range []struct {
			f    Format
			want geom.Vec4
		}{
			{R8, geom.Vec4{0.2, 0, 0, 1}}, {RG8, geom.Vec4{0.2, 0.4, 0, 1}},
			{RGBA32F, geom.Vec4{0.2, 0.4, 0.6, 1}},
			{RGBA16F, geom.Vec4{HalfToFloat(FloatToHalf(0.2)), HalfToFloat(FloatToHalf(0.4)), HalfToFloat(FloatToHalf(0.6)), 1}},
			// A uniform block: 51 -> r5 round(6.2) = 6 -> 49, 102 -> g6 round(25.2) = 25 -> 101, 153 -> b5 round(18.6) = 19 -> 156.
			{BC1, geom.Vec4{49.0 / 255, 101.0 / 255, 156.0 / 255, 1}},
			{BC4, geom.Vec4{0.2, 0, 0, 1}}, {BC5, geom.Vec4{0.2, 0.4, 0, 1}},
		} {
			tex, err := FromRGBA8(Descriptor{Format: tc.f, Width: 1, Height: 1}, rgba)
			if err != nil {
				t.Fatal(err)
			}
			if got := tex.Texel(0, 0, 0); got != tc.want {
				t.Errorf("%v: %v, want %v", tc.f, got, tc.want)
			}
		}
	})
}
