package framebuffer

import (
	"testing"

	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/internal/enum/enumtest"
)

func TestAddressBijection(t *testing.T) {
	sizes := [][2]int{{1, 1}, {5, 3}, {3, 6}, {7, 9}, {13, 6}, {16, 16}}
	tiles := [][2]int{{0, 0}, {3, 2}, {8, 8}, {1, 5}}
	for _, layout := range []Layout{Linear, Tiled, ZOrder} {
		for _, sz := range sizes {
			for _, samples := range []int{1, 2, 4, 16, 27, 64} {
				for ti, tile := range tiles {
					if layout != Tiled && ti > 0 {
						continue
					}
					g := Geometry{Width: sz[0], Height: sz[1], Samples: samples, Layout: layout, TileW: tile[0], TileH: tile[1]}
					for _, f := range []ColorFormat{RGBA8, RGBA32F} {
						ct, err := NewColorTarget(g, f)
						if err != nil {
							t.Fatalf("%+v: %v", g, err)
						}
						checkBijection(t, g, "color "+f.String(), &ct.Surface, ct.SizeBytes(), uint64(f.BytesPerSample()), 0, ct.Address)
					}
					d24, _ := NewDepthTarget(g, depth.D24S8)
					checkBijection(t, g, "D24S8", &d24.Surface, d24.SizeBytes(), 4, 0, d24.Address)
					d32, _ := NewDepthTarget(g, depth.D32F)
					checkBijection(t, g, "D32F depth", &d32.Surface, uint64(d32.Elements()*4), 4, 0, d32.Address)
					if want := uint64(pad256(d32.Elements() * 4)); d32.StencilPlaneOffset() != want {
						t.Fatalf("%+v: stencil plane at %d, want %d", g, d32.StencilPlaneOffset(), want)
					}
					checkBijection(t, g, "D32F stencil", &d32.Surface, d32.SizeBytes(), 1, d32.StencilPlaneOffset(), d32.StencilAddress)
				}
			}
		}
	}
}

func pad256(n int) int { return (n + 255) / 256 * 256 }

// checkBijection enumerates every padded (x, y, sample) and checks that the addresses
// are distinct multiples of step covering [base, end) exactly; visible samples are
// among them by construction.
func checkBijection(t *testing.T, g Geometry, what string, s *Surface, end, step, base uint64,
	addr func(x, y, s int) uint64) {
	t.Helper()
	n := uint64(s.Elements())
	if end-base != n*step {
		t.Fatalf("%s %+v: range [%d, %d) for %d elements of %d bytes", what, g, base, end, n, step)
	}
	seen := make([]bool, n)
	for y := 0; y < s.PaddedHeight(); y++ {
		for x := 0; x < s.PaddedWidth(); x++ {
			for smp := 0; smp < s.Samples; smp++ {
				a := addr(x, y, smp)
				if a < base || a >= end || (a-base)%step != 0 {
					t.Fatalf("%s %+v: address(%d,%d,%d) = %d outside [%d,%d) or misaligned", what, g, x, y, smp, a, base, end)
				}
				i := (a - base) / step
				if seen[i] {
					t.Fatalf("%s %+v: address(%d,%d,%d) = %d used twice", what, g, x, y, smp, a)
				}
				seen[i] = true
				if smp > 0 && a != addr(x, y, smp-1)+step {
					t.Fatalf("%s %+v: samples of (%d,%d) not adjacent", what, g, x, y)
				}
			}
		}
	}
}

func TestPaddedExtents(t *testing.T) {
	tests := []struct {
		g      Geometry
		pw, ph int
	}{
		{Geometry{Width: 5, Height: 3, Samples: 1, Layout: Linear}, 5, 3},
		{Geometry{Width: 5, Height: 3, Samples: 1, Layout: Tiled}, 8, 4},
		{Geometry{Width: 7, Height: 5, Samples: 1, Layout: Tiled, TileW: 3, TileH: 2}, 9, 6},
		{Geometry{Width: 5, Height: 3, Samples: 1, Layout: ZOrder}, 8, 4},
		{Geometry{Width: 1280, Height: 720, Samples: 4, Layout: ZOrder}, 2048, 1024},
	}
	for _, tc := range tests {
		s, err := NewSurface(tc.g)
		if err != nil {
			t.Fatal(err)
		}
		if s.PaddedWidth() != tc.pw || s.PaddedHeight() != tc.ph {
			t.Errorf("%+v: padded %dx%d, want %dx%d", tc.g, s.PaddedWidth(), s.PaddedHeight(), tc.pw, tc.ph)
		}
	}
}

func TestPinnedAddresses(t *testing.T) {
	tests := []struct {
		name    string
		g       Geometry
		f       ColorFormat
		x, y, s int
		want    uint64
	}{
		// ((2*5+3)*2+1)*4
		{"linear", Geometry{Width: 5, Height: 3, Samples: 2, Layout: Linear}, RGBA8, 3, 2, 1, 108},
		// tile 0, pixel 2*4+3 = 11
		{"tiled tile 0", Geometry{Width: 5, Height: 3, Samples: 1, Layout: Tiled}, RGBA8, 3, 2, 0, 44},
		// tile 1 starts at pixel 16
		{"tiled tile 1", Geometry{Width: 5, Height: 3, Samples: 1, Layout: Tiled}, RGBA8, 4, 0, 0, 64},
		{"tiled tile 1 row 2", Geometry{Width: 5, Height: 3, Samples: 1, Layout: Tiled}, RGBA8, 4, 2, 0, 96},
		// 3x2 tiles, tilesX = 3: tile (1,1) = 4 -> 24 + 1*3 + 2 = 29 pixels of 16 bytes
		{"tiled 3x2", Geometry{Width: 7, Height: 5, Samples: 1, Layout: Tiled, TileW: 3, TileH: 2}, RGBA32F, 5, 3, 0, 464},
		// Morton: x=3 (11), y=2 (10) -> bits y1 x1 y0 x0 = 1 1 0 1 = 13
		{"zorder", Geometry{Width: 5, Height: 3, Samples: 1, Layout: ZOrder}, RGBA8, 3, 2, 0, 52},
		// 8x4 padded: x=6 -> low 10, high 1; y=1 -> 01: 1<<4 | 0110 = 22; (22*4+3)*4
		{"zorder wide", Geometry{Width: 5, Height: 3, Samples: 4, Layout: ZOrder}, RGBA8, 6, 1, 3, 364},
		// 4x8 padded: x=1, y=5 -> y low 01, high 1: 16 | 0011 = 19
		{"zorder tall", Geometry{Width: 3, Height: 6, Samples: 1, Layout: ZOrder}, RGBA8, 1, 5, 0, 76},
	}
	for _, tc := range tests {
		ct, err := NewColorTarget(tc.g, tc.f)
		if err != nil {
			t.Fatal(err)
		}
		if got := ct.Address(tc.x, tc.y, tc.s); got != tc.want {
			t.Errorf("%s: Address(%d,%d,%d) = %d, want %d", tc.name, tc.x, tc.y, tc.s, got, tc.want)
		}
	}
	g := Geometry{Width: 5, Height: 3, Samples: 1}
	d32, _ := NewDepthTarget(g, depth.D32F)
	if d32.Address(3, 2, 0) != 52 || d32.StencilAddress(3, 2, 0) != 269 || d32.SizeBytes() != 271 || d32.StencilPlaneOffset() != 256 {
		t.Errorf("D32F: depth %d stencil %d size %d plane %d, want 52 269 271 256",
			d32.Address(3, 2, 0), d32.StencilAddress(3, 2, 0), d32.SizeBytes(), d32.StencilPlaneOffset())
	}
	d24, _ := NewDepthTarget(g, depth.D24S8)
	if d24.Address(3, 2, 0) != 52 || d24.StencilAddress(3, 2, 0) != 55 || d24.SizeBytes() != 60 || d24.StencilPlaneOffset() != 0 {
		t.Errorf("D24S8: depth %d stencil %d size %d", d24.Address(3, 2, 0), d24.StencilAddress(3, 2, 0), d24.SizeBytes())
	}
}

func TestGeometryErrors(t *testing.T) {
	tests := []struct {
		g    Geometry
		want string
	}{
		{Geometry{Width: 0, Height: 1, Samples: 1}, "Width: 0 out of range [1, 16384]"},
		{Geometry{Width: 1, Height: 16385, Samples: 1}, "Height: 16385 out of range [1, 16384]"},
		{Geometry{Width: 1, Height: 1, Samples: 0}, "Samples: 0 out of range [1, 64]"},
		{Geometry{Width: 1, Height: 1, Samples: 65}, "Samples: 65 out of range [1, 64]"},
		{Geometry{Width: 1, Height: 1, Samples: 1, Layout: 3}, "Layout: invalid value 3"},
		{Geometry{Width: 1, Height: 1, Samples: 1, Layout: Tiled, TileW: -1}, "TileW: -1 out of range [0, 16384]"},
		{Geometry{Width: 1, Height: 1, Samples: 1, Layout: Tiled, TileH: 20000}, "TileH: 20000 out of range [0, 16384]"},
	}
	for _, tc := range tests {
		if _, err := NewSurface(tc.g); err == nil || err.Error() != tc.want {
			t.Errorf("%+v: got %v, want %q", tc.g, err, tc.want)
		}
	}
	if _, err := NewColorTarget(Geometry{Width: 16384, Height: 16384, Samples: 16}, RGBA32F); err == nil {
		t.Error("64 GiB target accepted")
	}
	if _, err := NewColorTarget(Geometry{Width: 1, Height: 1, Samples: 1}, numColorFormats); err == nil || err.Error() != "Format: invalid color format 3" {
		t.Errorf("bad format: %v", err)
	}
	if _, err := NewDepthTarget(Geometry{Width: 1, Height: 1, Samples: 1}, 2); err == nil || err.Error() != "Format: invalid depth format 2" {
		t.Errorf("bad depth format: %v", err)
	}
	if _, err := NewColorTargetFromBytes(Geometry{Width: 2, Height: 2, Samples: 1}, RGBA8, make([]byte, 15)); err == nil ||
		err.Error() != "data: 15 bytes, want at least 16" {
		t.Errorf("short data: %v", err)
	}
	if _, err := NewDepthTargetFromBytes(Geometry{Width: 2, Height: 2, Samples: 1}, depth.D32F, make([]byte, 259)); err == nil ||
		err.Error() != "data: 259 bytes, want at least 260" {
		t.Errorf("short depth data: %v", err)
	}
}

func TestParseLayout(t *testing.T) {
	enumtest.RoundTrip(t, ParseLayout, numLayouts)
	enumtest.Parse(t, ParseLayout, map[string]Layout{"z_order": ZOrder}, "swizzled")
	enumtest.Parse(t, ParseColorFormat, map[string]ColorFormat{"rgba32f": RGBA32F})
}
