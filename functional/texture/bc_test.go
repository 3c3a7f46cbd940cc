package texture

import (
	"testing"
)

func TestBlockDecoders(t *testing.T) {
	// BC1 colours: 0xf800 is red (r5 31 -> 255), 0x001f blue.
	bc1Four := []byte{0x00, 0xf8, 0x1f, 0x00, 0xe4, 0, 0, 0}  // c0 > c1; texels 0..3 take indices 0, 1, 2, 3
	bc1Three := []byte{0x1f, 0x00, 0x00, 0xf8, 0xe4, 0, 0, 0} // c0 < c1: three colours and transparent black
	// BC4 e0 = 255 > e1 = 0: v2 = (6*255+3)/7 = 219, v7 = (255+3)/7 = 36; texels 0..3 take 0, 1, 2, 7.
	alpha8 := []byte{255, 0, 0x88, 0x0e, 0, 0, 0, 0}
	// BC4 e0 = 10 <= e1 = 200: v2 = (4*10+200+2)/5 = 48, v5 = (10+800+2)/5 = 162, v6 = 0, v7 = 255;
	// texels 0..3 take 2, 5, 6, 7.
	red6 := []byte{10, 200, 0xaa, 0x0f, 0, 0, 0, 0}
	// BC4 e0 = 200 > e1 = 10: v2 = (6*200+10+3)/7 = 173 for texel 0, v0 for the others.
	green8 := []byte{200, 10, 0x02, 0, 0, 0, 0, 0}
	cat := func(bs ...[]byte) []byte {
		var out []byte
		for _, b := range bs {
			out = append(out, b...)
		}
		return out
	}
	tests := []struct {
		name string
		f    Format
		b    []byte
		want [4][4]uint8 // texels 0..3
	}{
		{"BC1 four colours", BC1, bc1Four, [4][4]uint8{{255, 0, 0, 255}, {0, 0, 255, 255}, {170, 0, 85, 255}, {85, 0, 170, 255}}},
		{"BC1 three colours", BC1, bc1Three, [4][4]uint8{{0, 0, 255, 255}, {255, 0, 0, 255}, {128, 0, 128, 255}, {0, 0, 0, 0}}},
		// BC2: alphas 15, 8, 0, 3 -> 255, 136, 0, 51; its colour block always has four colours.
		{"BC2", BC2, cat([]byte{0x8f, 0x30, 0, 0, 0, 0, 0, 0}, bc1Three),
			[4][4]uint8{{0, 0, 255, 255}, {255, 0, 0, 136}, {85, 0, 170, 0}, {170, 0, 85, 51}}},
		{"BC3", BC3, cat(alpha8, bc1Four), [4][4]uint8{{255, 0, 0, 255}, {0, 0, 255, 0}, {170, 0, 85, 219}, {85, 0, 170, 36}}},
		{"BC4 six values", BC4, red6, [4][4]uint8{{48, 0, 0, 255}, {162, 0, 0, 255}, {0, 0, 0, 255}, {255, 0, 0, 255}}},
		{"BC5", BC5, cat(red6, green8), [4][4]uint8{{48, 173, 0, 255}, {162, 200, 0, 255}, {0, 200, 0, 255}, {255, 200, 0, 255}}},
	}
	for _, tc := range tests {
		var all [16][4]uint8
		DecodeBlock(tc.f, tc.b, &all)
		for i, w := range tc.want {
			if all[i] != w {
				t.Errorf("%s: texel %d = %v, want %v", tc.name, i, all[i], w)
			}
		}
		// The other texels have index 0 (and alpha 0 in BC2).
		rest := DecodeBlockTexel(tc.f, tc.b, 15)
		for i := 4; i < 15; i++ {
			if all[i] != rest {
				t.Errorf("%s: texel %d = %v, want %v like texel 15", tc.name, i, all[i], rest)
			}
		}
		if want := map[Format][4]uint8{BC1: {255, 0, 0, 255}, BC2: {0, 0, 255, 0}, BC3: {255, 0, 0, 255},
			BC4: {10, 0, 0, 255}, BC5: {10, 200, 0, 255}}[tc.f]; tc.name != "BC1 three colours" && rest != want {
			t.Errorf("%s: index-0 texel = %v, want %v", tc.name, rest, want)
		}
		// Through a texture: texel (1, 0) of a 4x4 texture of this one block.
		tex, err := NewFromBytes(Descriptor{Format: tc.f, Width: 4, Height: 4, Levels: 1}, tc.b)
		if err != nil {
			t.Fatal(err)
		}
		got := tex.Texel(0, 1, 0)
		for c := range got {
			if got[c] != float32(tc.want[1][c])/255 {
				t.Errorf("%s: texture texel (1, 0) = %v, want %v", tc.name, got, tc.want[1])
			}
		}
	}
	// RGB565 expansion of a mid grey: r5 16 -> 132, g6 32 -> 130, b5 16 -> 132.
	var g [16][4]uint8
	DecodeBlock(BC1, []byte{0x10, 0x84, 0x10, 0x84, 0, 0, 0, 0}, &g)
	if g[0] != [4]uint8{132, 130, 132, 255} {
		t.Errorf("grey = %v", g[0])
	}
}

// twoColours is a block of colour a, but b at the texels where isB holds.
func twoColours(a, b [4]uint8, isB func(i int) bool) [16][4]uint8 {
	var px [16][4]uint8
	for i := range px {
		px[i] = a
		if isB(i) {
			px[i] = b
		}
	}
	return px
}

func TestBlockEncoder(t *testing.T) {
	t.Run("two colours are exact", func(t *testing.T) {
		px := twoColours([4]uint8{255, 0, 0, 255}, [4]uint8{0, 0, 255, 255}, func(i int) bool { return i%3 == 0 })
		for _, f := range []Format{BC1, BC2, BC3} {
			b := EncodeBlock(f, &px, nil)
			if len(b) != f.UnitBytes() {
				t.Fatalf("%v: %d bytes", f, len(b))
			}
			var out [16][4]uint8
			DecodeBlock(f, b, &out)
			if out != px {
				t.Errorf("%v: decoded %v", f, out)
			}
		}
	})
	t.Run("BC1 punch-through alpha", func(t *testing.T) {
		// The first five transparent: they decode as transparent black.
		px := twoColours([4]uint8{0, 255, 0, 255}, [4]uint8{9, 9, 9, 10}, func(i int) bool { return i < 5 })
		b := EncodeBlock(BC1, &px, nil)
		var out [16][4]uint8
		DecodeBlock(BC1, b, &out)
		for i := range out {
			want := [4]uint8{0, 255, 0, 255}
			if i < 5 {
				want = [4]uint8{}
			}
			if out[i] != want {
				t.Errorf("texel %d = %v, want %v", i, out[i], want)
			}
		}
	})
	t.Run("BC1 endpoints ignore transparent texels", func(t *testing.T) {
		// A transparent green first: were it an endpoint candidate, green and red
		// (the first farthest pair) would be the endpoints and blue would not be
		// exact; among the opaque texels the endpoints are red and blue.
		px := twoColours([4]uint8{255, 0, 0, 255}, [4]uint8{0, 0, 255, 255}, func(i int) bool { return i%4 == 1 })
		px[0] = [4]uint8{0, 255, 0, 0}
		b := EncodeBlock(BC1, &px, nil)
		var out [16][4]uint8
		DecodeBlock(BC1, b, &out)
		for i := range out {
			want := px[i]
			if i == 0 {
				want = [4]uint8{}
			}
			if out[i] != want {
				t.Errorf("texel %d = %v, want %v", i, out[i], want)
			}
		}
	})
	t.Run("BC4 endpoints and nearest indices", func(t *testing.T) {
		// Values 0, 255, and 100: the palette of (255, 0) has v3 = (5*255+3)/7 = 182,
		// v4 = (4*255+3)/7 = 146, v5 = (3*255+3)/7 = 109, v6 = (2*255+3)/7 = 73: 100 -> 109.
		var px [16][4]uint8
		for i := range px {
			px[i] = [4]uint8{100, 7, 0, 255}
		}
		px[0][0], px[1][0] = 0, 255
		b := EncodeBlock(BC4, &px, nil)
		if b[0] != 255 || b[1] != 0 {
			t.Errorf("endpoints %d %d", b[0], b[1])
		}
		var out [16][4]uint8
		DecodeBlock(BC4, b, &out)
		if out[0][0] != 0 || out[1][0] != 255 || out[2][0] != 109 {
			t.Errorf("decoded %v %v %v", out[0], out[1], out[2])
		}
		// BC5 codes G too (constant 7: both endpoints 7).
		b = EncodeBlock(BC5, &px, nil)
		DecodeBlock(BC5, b, &out)
		if out[2] != [4]uint8{109, 7, 0, 255} {
			t.Errorf("BC5 texel 2 = %v", out[2])
		}
	})
	t.Run("BC2 alpha rounds to 4 bits", func(t *testing.T) {
		var px [16][4]uint8
		for i := range px {
			px[i] = [4]uint8{0, 0, 0, uint8(i * 17)}
		}
		px[1][3] = 25 // 25*15/255 = 1.47 -> 1 -> 17
		b := EncodeBlock(BC2, &px, nil)
		var out [16][4]uint8
		DecodeBlock(BC2, b, &out)
		for i := range out {
			want := uint8(i * 17)
			if i == 1 {
				want = 17
			}
			if out[i][3] != want {
				t.Errorf("texel %d alpha %d, want %d", i, out[i][3], want)
			}
		}
	})
}

func FuzzBlockDecode(f *testing.F) {
	f.Add(uint8(0), make([]byte, 16))
	f.Add(uint8(4), []byte{10, 200, 0xaa, 0x0f, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, which uint8, b []byte) {
		fm := BC1 + Format(which%5)
		if len(b) < fm.UnitBytes() {
			return
		}
		var px [16][4]uint8
		DecodeBlock(fm, b, &px)
		// Re-encoding a decoded block and decoding it again must not panic and
		// must give a block of the right size.
		if enc := EncodeBlock(fm, &px, nil); len(enc) != fm.UnitBytes() {
			t.Fatalf("%v: %d bytes", fm, len(enc))
		}
	})
}
