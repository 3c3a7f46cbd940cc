package teximage

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"

	"github.com/gfxsim/gfxsim/internal/inputs"
)

func TestToBytes(t *testing.T) {
	nan := float32(math.NaN())
	tests := []struct {
		in   geom.Vec4
		want [4]byte
	}{
		{geom.Vec4{0, 1, 0.5, 0.2}, [4]byte{0, 255, 128, 51}},
		{geom.Vec4{-1, 2, nan, 1.0 / 255}, [4]byte{0, 255, 0, 1}},
		{geom.Vec4{0.498, 0.502, 0.00196, 0.99}, [4]byte{127, 128, 0, 252}},
	}
	for _, tc := range tests {
		if got := ToBytes(tc.in); got != tc.want {
			t.Errorf("ToBytes(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestDownscale(t *testing.T) {
	// 3x3 single-channel ramp in R; max 2 -> factor 2 -> 2x2 output.
	im, _ := New(3, 3)
	for y := 0; y < 3; y++ {
		for x := 0; x < 3; x++ {
			v := byte(10 * (y*3 + x)) // 0 10 20 / 30 40 50 / 60 70 80
			im.SetRGBA(x, y, [4]byte{v, 255, 0, v / 2})
		}
	}
	got := im.Downscale(2)
	if got.Width != 2 || got.Height != 2 {
		t.Fatalf("size %dx%d, want 2x2", got.Width, got.Height)
	}
	want := [][4]byte{
		{20, 255, 0, 10}, // (0+10+30+40)/4 = 20; alpha (0+5+15+20)/4 = 10
		{35, 255, 0, 18}, // (20+50)/2 = 35; alpha (10+25)/2 = 17.5 -> 18
		{65, 255, 0, 33}, // (60+70)/2 = 65; alpha (30+35)/2 = 32.5 -> 33
		{80, 255, 0, 40},
	}
	for i, w := range want {
		if c := got.RGBA(i%2, i/2); c != w {
			t.Errorf("texel %d = %v, want %v", i, c, w)
		}
	}
	if im.Downscale(3) != im || im.Downscale(0) != im {
		t.Error("an image that fits must be returned as is")
	}
	big, _ := New(2048, 1000)
	if d := big.Downscale(1024); d.Width != 1024 || d.Height != 500 {
		t.Errorf("2048x1000 -> %dx%d, want 1024x500", d.Width, d.Height)
	}
	if d := big.Downscale(300); d.Width != 256 || d.Height != 125 {
		t.Errorf("2048x1000 max 300 -> %dx%d, want 256x125", d.Width, d.Height)
	}
}

func TestDecodePNGRoundTrip(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	for i := range src.Pix {
		src.Pix[i] = byte(i * 11)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, src); err != nil {
		t.Fatal(err)
	}
	im, err := Decode("a.png", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if im.Width != 3 || im.Height != 2 || !bytes.Equal(im.Pix, src.Pix) {
		t.Fatalf("decoded %dx%d %v, want 3x2 %v", im.Width, im.Height, im.Pix, src.Pix)
	}
}

func TestDecodeGrayAndPaletted(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 2, 1))
	g.Pix[0], g.Pix[1] = 7, 200
	var buf bytes.Buffer
	png.Encode(&buf, g)
	im, err := Decode("g.png", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if im.RGBA(0, 0) != [4]byte{7, 7, 7, 255} || im.RGBA(1, 0) != [4]byte{200, 200, 200, 255} {
		t.Fatalf("gray decoded as %v", im.Pix)
	}
	p := image.NewPaletted(image.Rect(0, 0, 1, 1), color.Palette{color.NRGBA{10, 20, 30, 128}})
	buf.Reset()
	png.Encode(&buf, p)
	im, err = Decode("p.png", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if im.RGBA(0, 0) != [4]byte{10, 20, 30, 128} {
		t.Fatalf("paletted decoded as %v", im.Pix)
	}
}

func TestDecodeJPEGUniform(t *testing.T) {
	src := image.NewGray(image.Rect(0, 0, 16, 16))
	for i := range src.Pix {
		src.Pix[i] = 128
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, src, &jpeg.Options{Quality: 100}); err != nil {
		t.Fatal(err)
	}
	im, err := Decode("a.jpg", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if im.Width != 16 || im.Height != 16 || im.RGBA(5, 9) != [4]byte{128, 128, 128, 255} {
		t.Fatalf("decoded %dx%d texel %v", im.Width, im.Height, im.RGBA(5, 9))
	}
}

// pngHeader returns the signature and an IHDR chunk for a w x h RGBA image.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.Write(pngMagic)
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6
	binary.Write(&b, binary.BigEndian, uint32(13))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func TestDecodeErrors(t *testing.T) {
	var good bytes.Buffer
	png.Encode(&good, image.NewNRGBA(image.Rect(0, 0, 4, 4)))
	badCRC := append([]byte{}, good.Bytes()...)
	badCRC[40] ^= 0xff // inside the IDAT chunk
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"x.bin", []byte("hello"), "x.bin: byte 0: not a PNG or JPEG file (unknown signature)"},
		{"e.png", nil, "e.png: byte 0: not a PNG or JPEG file (unknown signature)"},
		{"big.png", pngHeader(100000, 1), "big.png: png header: image size 100000x1 out of range [1, 16384]"},
		// The decoder's own "png: " is not repeated (it was "png: png: ...").
		{"t.png", good.Bytes()[:good.Len()-20], "t.png: png: invalid format: unexpected EOF"},
		{"c.png", badCRC, "c.png: png: invalid format: invalid checksum"},
		{"h.png", good.Bytes()[:20], "h.png: png header: unexpected EOF"},
		{"t.jpg", []byte{0xff, 0xd8, 0xff}, "t.jpg: jpeg header: unexpected EOF"},
		{"f.jpg", []byte{0xff, 0xd8, 0xff, 0xc3, 0, 11, 8, 0, 1, 0, 1, 1, 1, 0x11, 0}, "f.jpg: jpeg header: unsupported JPEG feature: unknown marker"},
	}
	for _, tc := range tests {
		_, err := Decode(tc.name, tc.data)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("%s: error %q, want %q", tc.name, err, tc.want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	var buf bytes.Buffer
	png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, 2, 2)))
	f.Add(buf.Bytes())
	buf.Reset()
	jpeg.Encode(&buf, image.NewGray(image.Rect(0, 0, 8, 8)), nil)
	f.Add(buf.Bytes())
	f.Add(pngHeader(3, 3))
	f.Add(pngHeader(16384, 16384))
	f.Add([]byte{0xff, 0xd8, 0xff, 0xc2, 0, 20, 8, 0x40, 0, 0x40, 0, 4, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0, 4, 0x11, 0, 0xff, 0xd9})
	f.Fuzz(func(t *testing.T, data []byte) {
		im, err := DecodeWithin("fuzz", data, inputs.NewBudget(256<<20))
		if err != nil && len(err.Error()) > 600 {
			t.Fatalf("error of %d bytes: %.300s", len(err.Error()), err)
		}
		if err == nil && len(im.Pix) != im.Width*im.Height*4 {
			t.Fatalf("%dx%d image with %d bytes", im.Width, im.Height, len(im.Pix))
		}
	})
}
