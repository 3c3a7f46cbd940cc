package framebuffer

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/blend"
	"github.com/gfxsim/gfxsim/functional/geom"
)

func TestDitherThresholds(t *testing.T) {
	// Every four consecutive samples of any pixel take all four thresholds.
	for y := 0; y < 4; y++ {
		for x := 0; x < 4; x++ {
			for s0 := 0; s0 < 16; s0 += 4 {
				var seen [4]bool
				for s := s0; s < s0+4; s++ {
					seen[DitherThreshold(x, y, s)] = true
				}
				if seen != [4]bool{true, true, true, true} {
					t.Errorf("pixel (%d, %d) samples %d..%d: thresholds %v", x, y, s0, s0+3, seen)
				}
			}
		}
	}
	// At one sample per pixel the thresholds form the 2x2 Bayer matrix.
	got := [2][2]uint16{{DitherThreshold(0, 0, 0), DitherThreshold(1, 0, 0)}, {DitherThreshold(0, 1, 0), DitherThreshold(1, 1, 0)}}
	if got != bayer2 {
		t.Errorf("1 sample: %v, want %v", got, bayer2)
	}
}

func TestDither10RecoversTwelveBits(t *testing.T) {
	// The four dithered 10-bit values of every 12-bit level sum to it exactly.
	for v := 0; v < 4096; v++ {
		c := float32(v) / 4095
		if To12(c) != uint16(v) {
			t.Fatalf("To12(%v) = %d, want %d", c, To12(c), v)
		}
		sum := 0
		for th := uint16(0); th < 4; th++ {
			sum += int(Dither10(c, th))
		}
		want := v
		if v > 4092 { // the top levels clamp at 1023
			want = min(v, 4092)
		}
		if sum != want {
			t.Errorf("level %d: thresholds sum to %d, want %d", v, sum, want)
		}
	}
	tests := []struct {
		c    float32
		th   uint16
		want uint16
	}{{-1, 3, 0}, {0, 3, 0}, {1, 0, 1023}, {1, 3, 1023}, {0.5, 0, 512}, {0.5, 3, 512}, {0.3, 0, 307}, {0.3, 2, 307}, {0.3, 3, 308}}
	for _, tc := range tests {
		if got := Dither10(tc.c, tc.th); got != tc.want {
			t.Errorf("Dither10(%v, %d) = %d, want %d", tc.c, tc.th, got, tc.want)
		}
	}
}

func TestRGBA10StoreLoad(t *testing.T) {
	for _, layout := range []Layout{Linear, Tiled} {
		ct, err := NewColorTarget(Geometry{Width: 5, Height: 3, Samples: 8, Layout: layout}, RGBA10)
		if err != nil {
			t.Fatal(err)
		}
		if ct.SizeBytes()%5 != 0 || ct.Format.BytesPerSample() != 5 {
			t.Fatalf("%d bytes for 5-byte samples", ct.SizeBytes())
		}
		ct.Clear(geom.Vec4{0.25, 0.5, 0.75, 1})
		want := [4]uint16{256, 512, 768, 1023} // rounded to nearest: 0.75*4095 = 3071.25 -> 3071 -> (3071+2)>>2 = 768
		for s := 0; s < 8; s++ {
			if v, ok := ct.Sample(4, 2, s); !ok || v != want {
				t.Fatalf("%v: cleared sample %d = %v, %v; want %v", layout, s, v, ok, want)
			}
		}
		// A store writes only its channels, at the sample's threshold.
		ct.Store(3, 1, 5, geom.Vec4{1, 0, 0.5, 0}, 0b0101)
		th := DitherThreshold(3, 1, 5)
		v, _ := ct.Sample(3, 1, 5)
		if w := [4]uint16{1023, 512, Dither10(0.5, th), 1023}; v != w {
			t.Errorf("%v: stored %v, want %v", layout, v, w)
		}
		if v, _ := ct.Sample(3, 1, 4); v != want {
			t.Errorf("%v: neighbour sample changed to %v", layout, v)
		}
		if got := ct.Load(3, 1, 5); got[0] != 1 || got[1] != float32(512)/1023 {
			t.Errorf("%v: Load = %v", layout, got)
		}
		if _, ok := ct.Sample(5, 0, 0); ok {
			t.Errorf("%v: sample outside the surface reported", layout)
		}
	}
	if _, ok := mustTarget(t, RGBA8).Sample(0, 0, 0); ok {
		t.Error("Sample of an RGBA8 target")
	}
}

func mustTarget(t *testing.T, f ColorFormat) *ColorTarget {
	t.Helper()
	ct, err := NewColorTarget(Geometry{Width: 2, Height: 2, Samples: 4}, f)
	if err != nil {
		t.Fatal(err)
	}
	return ct
}

func TestRGBA10BlendAndResolve(t *testing.T) {
	ct := mustTarget(t, RGBA10)
	ct.Clear(geom.Vec4{0, 0, 0, 0})
	bt := blend.Target{Enable: true, WriteMask: blend.WriteAll,
		SrcRGB: blend.One, DstRGB: blend.One, OpRGB: blend.Add,
		SrcAlpha: blend.One, DstAlpha: blend.One, OpAlpha: blend.Add}
	c := geom.Vec4{0.3, 0.3, 0.3, 0.3}
	for s := 0; s < 4; s++ {
		ct.BlendStore(1, 1, s, c, &bt, geom.Vec4{})
		ct.BlendStore(1, 1, s, c, &bt, geom.Vec4{})
	}
	// 0.6 is 2457 in 12 bits: four dithered samples sum to 2457, whose mean
	// in 8 bits is round(2457/4/1023*255) = 153.
	var sum int
	for s := 0; s < 4; s++ {
		v, _ := ct.Sample(1, 1, s)
		sum += int(v[0])
	}
	if px := ct.ResolvePixel(1, 1); px != [4]byte{153, 153, 153, 153} || sum < 2456 || sum > 2458 {
		t.Errorf("resolved %v from a 10-bit sum %d", px, sum)
	}
}
