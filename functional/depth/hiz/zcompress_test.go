package hiz

import (
	"encoding/binary"
	"testing"

	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
)

func TestCodecPixelInverse(t *testing.T) {
	for _, l := range []framebuffer.Layout{framebuffer.Linear, framebuffer.Tiled, framebuffer.ZOrder} {
		for _, wh := range [][2]int{{13, 7}, {7, 13}, {16, 16}} {
			g := framebuffer.Geometry{Width: wh[0], Height: wh[1], Samples: 4, Layout: l}
			c, err := NewDepthCodec(g, depth.D24S8, 0)
			if err != nil {
				t.Fatal(err)
			}
			s, _ := framebuffer.NewSurface(g)
			for y := 0; y < wh[1]; y++ {
				for x := 0; x < wh[0]; x++ {
					if px, py := c.pixel(s.PixelIndex(x, y)); px != x || py != y {
						t.Fatalf("%v %dx%d: pixel(PixelIndex(%d,%d)) = %d,%d", l, wh[0], wh[1], x, y, px, py)
					}
				}
			}
		}
	}
}

// planeTarget returns a 16x8 4x D24S8 tiled target whose depth keys are
// f(sample position in 1/16 pixel) and stencil s.
func planeTarget(t *testing.T, f func(x, y int64) int64, s uint8) (*framebuffer.DepthTarget, *DepthCodec) {
	t.Helper()
	g := framebuffer.Geometry{Width: 16, Height: 8, Samples: 4, Layout: framebuffer.Tiled}
	db, err := framebuffer.NewDepthTarget(g, depth.D24S8)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewDepthCodec(g, depth.D24S8, 0)
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < 8; y++ {
		for x := 0; x < 16; x++ {
			for smp := 0; smp < 4; smp++ {
				o := c.pattern[smp]
				db.Store(x, y, smp, uint32(f(int64(x)*16+8+int64(o[0])/16, int64(y)*16+8+int64(o[1])/16)), s) // D3D 4x: multiples of 1/16
			}
		}
	}
	return db, c
}

func TestDepthCodecSizes(t *testing.T) {
	const line = 256 // 4x4 pixels at 4x in the 4x4-tiled layout
	cases := []struct {
		name      string
		f         func(x, y int64) int64
		stencil   uint8
		bits      int // -2: any of [113, 112+63*2]; -3: any
		size64    uint64
		size32    uint64
		wantWhole bool
	}{
		{"constant (a cleared tile)", func(x, y int64) int64 { return 5000 }, 0, 112, 64, 32, false},
		{"integer plane", func(x, y int64) int64 { return 100000 + 3*x + 5*y }, 7, 112, 64, 32, false},
		{"rounded plane", func(x, y int64) int64 { return 100000 + (7*x+3*y)/5 }, 0, -2, 64, 32, false},
		{"two surfaces", func(x, y int64) int64 {
			if x+2*y < 100 {
				return 1000
			}
			return 9000000 + 11*x
		}, 0, -3, 256, 224, true},
	}
	for _, c := range cases {
		db, codec := planeTarget(t, c.f, c.stencil)
		data := db.Bytes()[:line]
		b := codec.Bits(0, data)
		switch {
		case c.bits >= 0 && b != c.bits:
			t.Errorf("%s: %d bits, want %d", c.name, b, c.bits)
		case c.bits == -2 && (b <= 112 || b > 112+63*2):
			t.Errorf("%s: %d bits outside [113, 238]", c.name, b)
		}
		if s := codec.Size(0, data, 64); s != c.size64 {
			t.Errorf("%s: %d bytes with 64-byte units, want %d", c.name, s, c.size64)
		}
		if s := codec.Size(0, data, 32); s != c.size32 {
			t.Errorf("%s: %d bytes with 32-byte units, want %d", c.name, s, c.size32)
		}
	}
	// A stencil that differs inside the block is not coded.
	db, codec := planeTarget(t, func(x, y int64) int64 { return 5000 }, 1)
	binary.LittleEndian.PutUint32(db.Bytes()[12:], 5000|2<<24)
	if b := codec.Bits(0, db.Bytes()[:line]); b != -1 {
		t.Errorf("mixed stencil: %d bits", b)
	}
}

// TestDepthCodecD32F pins the D32F sizes of the package documentation: a
// depth block has no stencil byte (104 + k(N-1) bits), and a stencil-plane
// line of equal bytes costs 16 bits (header and the byte).
func TestDepthCodecD32F(t *testing.T) {
	g := framebuffer.Geometry{Width: 16, Height: 8, Samples: 4, Layout: framebuffer.Tiled}
	c, err := NewDepthCodec(g, depth.D32F, 0)
	if err != nil {
		t.Fatal(err)
	}
	line := make([]byte, 256)
	for i := 0; i < len(line); i += 4 {
		binary.LittleEndian.PutUint32(line[i:], 0x3f000000) // 0.5 everywhere
	}
	stencil := make([]byte, 64)
	for i := range stencil {
		stencil[i] = 7
	}
	mixed := append([]byte(nil), stencil...)
	mixed[63] = 8
	cases := []struct {
		name string
		addr uint64
		data []byte
		want int
	}{
		{"constant depth", 0, line, CodecHeaderBits},
		{"uniform stencil plane", c.stencil, stencil, 16},
		{"mixed stencil plane", c.stencil, mixed, -1},
	}
	for _, tc := range cases {
		if b := c.Bits(tc.addr, tc.data); b != tc.want {
			t.Errorf("%s: %d bits, want %d", tc.name, b, tc.want)
		}
	}
	if CodecHeaderBits != 104 {
		t.Errorf("CodecHeaderBits = %d, want 104 (8 + 32 + 2*32)", CodecHeaderBits)
	}
}
