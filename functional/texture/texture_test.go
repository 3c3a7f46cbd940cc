package texture

import (
	"bytes"
	"image"
	"image/color"
	"testing"
)

// rgba builds row-major RGBA8 texels from per-channel rows.
func rgba(r, g, b, a []byte) []byte {
	out := make([]byte, 0, 4*len(r))
	for i := range r {
		out = append(out, r[i], g[i], b[i], a[i])
	}
	return out
}

func fill(n int, v byte) []byte { return bytes.Repeat([]byte{v}, n) }

func channel(t *testing.T, tex *Texture, level, ch int) []byte {
	t.Helper()
	lin := tex.LinearLevel(level, nil)
	out := make([]byte, 0, len(lin)/4)
	for i := ch; i < len(lin); i += 4 {
		out = append(out, lin[i])
	}
	return out
}

func TestMipLevels(t *testing.T) {
	tests := []struct{ w, h, want int }{
		{1, 1, 1}, {2, 1, 2}, {3, 3, 2}, {4, 2, 3}, {5, 3, 3}, {256, 128, 9}, {1, 4, 3}, {0, 0, 0},
	}
	for _, tc := range tests {
		if got := MipLevels(tc.w, tc.h); got != tc.want {
			t.Errorf("MipLevels(%d, %d) = %d, want %d", tc.w, tc.h, got, tc.want)
		}
	}
}

func TestMipChainContents(t *testing.T) {
	tests := []struct {
		name   string
		w, h   int
		r, g   []byte
		levels [][2][]byte // per level: R and G channel, row-major
	}{
		{
			// R level 1: (0+10+1+3+2)/4 = 4, (20+31+250+255+2)/4 = 139; level 2: (4+139+4+139+2)/4 = 72.
			// G level 1: (1+1+0+0+2)/4 = 1, (0+0+0+1+2)/4 = 0; level 2: (1+0+1+0+2)/4 = 1.
			name: "4x2", w: 4, h: 2,
			r: []byte{0, 10, 20, 31, 1, 3, 250, 255},
			g: []byte{1, 1, 0, 0, 0, 0, 0, 1},
			levels: [][2][]byte{
				{{0, 10, 20, 31, 1, 3, 250, 255}, {1, 1, 0, 0, 0, 0, 0, 1}},
				{{4, 139}, {1, 0}},
				{{72}, {1}},
			},
		},
		{
			// Odd size: the last row and column are dropped: (10+20+30+40+2)/4 = 25.
			name: "3x3", w: 3, h: 3,
			r: []byte{10, 20, 99, 30, 40, 99, 99, 99, 99},
			g: fill(9, 7),
			levels: [][2][]byte{
				{{10, 20, 99, 30, 40, 99, 99, 99, 99}, fill(9, 7)},
				{{25}, {7}},
			},
		},
		{
			// Width 1 clamps: (0+0+4+4+2)/4 = 2, (8+8+13+13+2)/4 = 11, then (2+2+11+11+2)/4 = 7.
			name: "1x4", w: 1, h: 4,
			r: []byte{0, 4, 8, 13},
			g: []byte{255, 255, 255, 254},
			levels: [][2][]byte{
				{{0, 4, 8, 13}, {255, 255, 255, 254}},
				{{2, 11}, {255, 255}}, // (255*3+254+2)/4 = 255
				{{7}, {255}},
			},
		},
	}
	for _, tc := range tests {
		n := tc.w * tc.h
		pix := rgba(tc.r, tc.g, fill(n, 0), fill(n, 255))
		for _, layout := range []Layout{Linear, Tiled} {
			tex, err := New(Descriptor{Format: RGBA8, Width: tc.w, Height: tc.h, Layout: layout}, pix)
			if err != nil {
				t.Fatal(err)
			}
			if len(tex.Levels) != len(tc.levels) {
				t.Fatalf("%s: %d levels, want %d", tc.name, len(tex.Levels), len(tc.levels))
			}
			for i, want := range tc.levels {
				if got := channel(t, tex, i, 0); !bytes.Equal(got, want[0]) {
					t.Errorf("%s %v level %d R = %v, want %v", tc.name, layout, i, got, want[0])
				}
				if got := channel(t, tex, i, 1); !bytes.Equal(got, want[1]) {
					t.Errorf("%s %v level %d G = %v, want %v", tc.name, layout, i, got, want[1])
				}
				if got := channel(t, tex, i, 3); !bytes.Equal(got, fill(len(want[0]), 255)) {
					t.Errorf("%s %v level %d A = %v", tc.name, layout, i, got)
				}
			}
		}
	}
	one, err := NewRGBA8(4, 2, make([]byte, 32), false)
	if err != nil || len(one.Levels) != 1 {
		t.Errorf("mips=false: %v levels, %v", len(one.Levels), err)
	}
}

func TestLayoutAddresses(t *testing.T) {
	pix := make([]byte, 5*3*4)
	for i := range pix {
		pix[i] = byte(i)
	}
	lin, err := New(Descriptor{Format: RGBA8, Width: 5, Height: 3, Layout: Linear}, pix)
	if err != nil {
		t.Fatal(err)
	}
	til, err := lin.WithLayout(Tiled)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tex         *Texture
		level, x, y int
		want        uint64
	}{
		{lin, 0, 4, 2, 56},  // (2*5+4)*4
		{lin, 1, 1, 0, 260}, // level 1 (2x1) at 256
		{lin, 2, 0, 0, 512}, // level 2 (1x1) at 512
		{til, 0, 3, 1, 28},  // tile 0, texel 1*4+3 = 7
		{til, 0, 4, 2, 96},  // tile 1 at 64, texel 2*4+0 = 8
		{til, 1, 1, 0, 260}, // level 0 is 2 tiles = 128 bytes, level 1 at 256
		{til, 2, 0, 0, 512}, // level 1 is 1 tile, level 2 at 512
	}
	for _, tc := range tests {
		if got := tc.tex.TexelAddress(tc.level, tc.x, tc.y); got != tc.want {
			t.Errorf("%v TexelAddress(%d, %d, %d) = %d, want %d", tc.tex.Layout, tc.level, tc.x, tc.y, got, tc.want)
		}
	}
	if lin.SizeBytes() != 516 || til.SizeBytes() != 576 {
		t.Errorf("sizes %d %d, want 516 576", lin.SizeBytes(), til.SizeBytes())
	}
	if d := til.Descriptor(); d.SizeBytes() != 576 || d.LevelOffset(2) != 512 || d.LevelOffset(3) != 0 {
		t.Errorf("descriptor size %d offset %d", d.SizeBytes(), d.LevelOffset(2))
	}
	for i := range lin.Levels {
		if !bytes.Equal(lin.LinearLevel(i, nil), til.LinearLevel(i, nil)) {
			t.Errorf("level %d differs between layouts", i)
		}
	}
	if bytes.Equal(lin.Bytes()[:60], til.Bytes()[:60]) {
		t.Error("tiled bytes equal linear bytes")
	}
	// Level data views: Data starts at Offset.
	if &til.Levels[1].Data[0] != &til.Bytes()[256] || len(til.Levels[1].Data) != 64 {
		t.Error("level 1 Data is not the bytes at its offset")
	}
}

func TestTexelAddressBijection(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {5, 3}, {7, 9}, {16, 4}, {13, 1}} {
		for _, layout := range []Layout{Linear, Tiled} {
			d := Descriptor{Format: RGBA8, Width: sz[0], Height: sz[1], Levels: MipLevels(sz[0], sz[1]), Layout: layout}
			tex, err := NewFromBytes(d, make([]byte, d.SizeBytes()))
			if err != nil {
				t.Fatal(err)
			}
			seen := map[uint64]bool{}
			for i, l := range tex.Levels {
				for y := 0; y < l.Height; y++ {
					for x := 0; x < l.Width; x++ {
						a := tex.TexelAddress(i, x, y)
						if a%4 != 0 || a+4 > tex.SizeBytes() || a < l.Offset || a >= l.Offset+uint64(len(l.Data)) {
							t.Fatalf("%+v: address(%d,%d,%d) = %d out of its level", d, i, x, y, a)
						}
						if seen[a] {
							t.Fatalf("%+v: address %d used twice", d, a)
						}
						seen[a] = true
					}
				}
				if l.Offset%LevelAlign != 0 {
					t.Fatalf("%+v: level %d at %d", d, i, l.Offset)
				}
			}
		}
	}
}

func TestNewFromBytes(t *testing.T) {
	pix := make([]byte, 6*5*4)
	for i := range pix {
		pix[i] = byte(i * 7)
	}
	src, _ := New(Descriptor{Format: RGBA8, Width: 6, Height: 5, Layout: Tiled}, pix)
	mem := append([]byte{1, 2, 3}, src.Bytes()...)
	mem = append(mem, 9, 9)
	got, err := NewFromBytes(src.Descriptor(), mem[3:])
	if err != nil {
		t.Fatal(err)
	}
	if got.Descriptor() != src.Descriptor() || got.SizeBytes() != src.SizeBytes() {
		t.Fatalf("descriptor %+v size %d", got.Descriptor(), got.SizeBytes())
	}
	for i := range src.Levels {
		if !bytes.Equal(got.LinearLevel(i, nil), src.LinearLevel(i, nil)) {
			t.Errorf("level %d differs", i)
		}
	}
	mem[3] = 77 // aliasing: the texture reads the memory it was built on
	if got.Texel(0, 0, 0)[0] != float32(77)/255 {
		t.Error("NewFromBytes copied the data")
	}

	errs := []struct {
		d    Descriptor
		n    int
		want string
	}{
		{Descriptor{Format: 99, Width: 1, Height: 1, Levels: 1}, 4, "Format: invalid texture format 99"},
		{Descriptor{Width: 0, Height: 1, Levels: 1}, 4, "Width: 0 out of range [1, 16384]"},
		{Descriptor{Width: 1, Height: 20000, Levels: 1}, 4, "Height: 20000 out of range [1, 16384]"},
		{Descriptor{Width: 4, Height: 2, Levels: 4}, 1000, "Levels: 4 out of range [1, 3] for 4x2"},
		{Descriptor{Width: 4, Height: 2, Levels: 0}, 1000, "Levels: 0 out of range [1, 3] for 4x2"},
		{Descriptor{Width: 1, Height: 1, Levels: 1, Layout: 2}, 4, "Layout: invalid texture layout 2"},
		{Descriptor{Width: 4, Height: 2, Levels: 2}, 263, "data: 263 bytes, want at least 264 for 4x2 with 2 levels"},
	}
	for _, tc := range errs {
		if _, err := NewFromBytes(tc.d, make([]byte, tc.n)); err == nil || err.Error() != tc.want {
			t.Errorf("%+v: got %v, want %q", tc.d, err, tc.want)
		}
	}
	if _, err := NewRGBA8(2, 2, make([]byte, 15), true); err == nil || err.Error() != "pix: 15 bytes, want at least 16 for 2x2 with 1 slices of RGBA8" {
		t.Errorf("short pix: %v", err)
	}
}

func TestFromImage(t *testing.T) {
	n := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	for i := range n.Pix {
		n.Pix[i] = byte(i)
	}
	sub := n.SubImage(image.Rect(1, 1, 3, 2)) // texels (1,1) and (2,1)
	tex, err := FromImage(sub, false)
	if err != nil {
		t.Fatal(err)
	}
	if tex.Width != 2 || tex.Height != 1 {
		t.Fatalf("size %dx%d", tex.Width, tex.Height)
	}
	want := []byte{16, 17, 18, 19, 20, 21, 22, 23}
	if got := tex.LinearLevel(0, nil); !bytes.Equal(got, want) {
		t.Errorf("NRGBA texels %v, want %v", got, want)
	}

	// Premultiplied input is converted to straight alpha: (64, 32, 0, 128) -> (127, 63, 0, 128).
	r := image.NewRGBA(image.Rect(0, 0, 1, 1))
	r.Set(0, 0, color.RGBA{64, 32, 0, 128})
	tex, err = FromImage(r, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := tex.LinearLevel(0, nil); !bytes.Equal(got, []byte{127, 63, 0, 128}) {
		t.Errorf("RGBA texels %v", got)
	}
	g := image.NewGray(image.Rect(0, 0, 2, 2))
	g.Pix = []byte{0, 100, 200, 255}
	tex, err = FromImage(g, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(tex.Levels) != 2 {
		t.Fatalf("%d levels", len(tex.Levels))
	}
	// (0+100+200+255+2)/4 = 139.
	if got := tex.LinearLevel(1, nil); !bytes.Equal(got, []byte{139, 139, 139, 255}) {
		t.Errorf("gray level 1 %v", got)
	}
	if _, err := FromImage(image.NewNRGBA(image.Rect(0, 0, 0, 3)), false); err == nil {
		t.Error("empty image accepted")
	}
	img, err := tex.Image(1)
	if err != nil || !bytes.Equal(img.Pix, []byte{139, 139, 139, 255}) {
		t.Errorf("Image(1) = %v, %v", img, err)
	}
	if _, err := tex.Image(2); err == nil {
		t.Error("Image(2) of 2 levels accepted")
	}
}
