package framebuffer

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/gfxsim/gfxsim/functional/blend"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/geom"
)

func TestToUNORM8(t *testing.T) {
	tests := []struct {
		c    float32
		want uint8
	}{
		{0, 0},
		{1, 255},
		{0.5, 128},     // 127.5 + 0.5 = 128
		{0.25, 64},     // 63.75 + 0.5 = 64.25
		{1.0 / 255, 1}, // 1 + 0.5
		{0.001, 0},     // 0.255 + 0.5
		{0.002, 1},     // 0.51 + 0.5
		{0.998, 254},   // 254.49 + 0.5
		{0.999, 255},   // 254.745 + 0.5
		{-1, 0},
		{2, 255},
		{float32(math.NaN()), 0},
		{float32(math.Inf(1)), 255},
		{float32(math.Inf(-1)), 0},
	}
	for _, tc := range tests {
		if got := ToUNORM8(tc.c); got != tc.want {
			t.Errorf("ToUNORM8(%v) = %d, want %d", tc.c, got, tc.want)
		}
	}
	for v := 0; v < 256; v++ {
		if got := ToUNORM8(FromUNORM8(uint8(v))); got != uint8(v) {
			t.Errorf("round trip %d -> %d", v, got)
		}
	}
}

func TestStoreLoadThroughLayout(t *testing.T) {
	for _, layout := range []Layout{Linear, Tiled, ZOrder} {
		g := Geometry{Width: 5, Height: 3, Samples: 2, Layout: layout}
		ct, err := NewColorTarget(g, RGBA8)
		if err != nil {
			t.Fatal(err)
		}
		ct.Store(3, 2, 1, geom.Vec4{0.5, 0.25, 1, 0}, blend.WriteAll)
		a := ct.Address(3, 2, 1)
		if got := ct.Bytes()[a : a+4]; !bytes.Equal(got, []byte{128, 64, 255, 0}) {
			t.Errorf("%v: bytes at %d = %v", layout, a, got)
		}
		want := geom.Vec4{128.0 / 255, 64.0 / 255, 1, 0}
		if got := ct.Load(3, 2, 1); got != want {
			t.Errorf("%v: Load = %v, want %v", layout, got, want)
		}
		if got := ct.Load(3, 2, 0); got != (geom.Vec4{}) {
			t.Errorf("%v: neighbour sample changed: %v", layout, got)
		}
		// Outside: ignored, zeros.
		ct.Store(5, 0, 0, geom.Vec4{1, 1, 1, 1}, blend.WriteAll)
		ct.Store(0, 0, 2, geom.Vec4{1, 1, 1, 1}, blend.WriteAll)
		ct.Store(-1, 0, 0, geom.Vec4{1, 1, 1, 1}, blend.WriteAll)
		if n := countNonZero(ct.Bytes()); n != 3 {
			t.Errorf("%v: %d non-zero bytes after out-of-range stores, want 3", layout, n)
		}
		if got := ct.Load(-1, 7, 0); got != (geom.Vec4{}) {
			t.Errorf("%v: out-of-range load %v", layout, got)
		}
	}
}

func countNonZero(b []byte) int {
	n := 0
	for _, v := range b {
		if v != 0 {
			n++
		}
	}
	return n
}

func TestWriteMaskStore(t *testing.T) {
	ct, _ := NewColorTarget(Geometry{Width: 1, Height: 1, Samples: 1}, RGBA8)
	copy(ct.Bytes(), []byte{10, 20, 30, 40})
	tests := []struct {
		mask uint8
		want []byte
	}{
		{0, []byte{10, 20, 30, 40}},
		{blend.WriteG | blend.WriteA, []byte{10, 255, 30, 255}},
		{blend.WriteR, []byte{255, 20, 30, 40}},
		{blend.WriteB, []byte{10, 20, 255, 40}},
	}
	for _, tc := range tests {
		copy(ct.Bytes(), []byte{10, 20, 30, 40})
		ct.Store(0, 0, 0, geom.Vec4{1, 1, 1, 1}, tc.mask)
		if !bytes.Equal(ct.Bytes(), tc.want) {
			t.Errorf("mask %#x: %v, want %v", tc.mask, ct.Bytes(), tc.want)
		}
	}
	f, _ := NewColorTarget(Geometry{Width: 1, Height: 1, Samples: 1}, RGBA32F)
	f.Store(0, 0, 0, geom.Vec4{1, 2, 3, 4}, blend.WriteAll)
	f.Store(0, 0, 0, geom.Vec4{-5, -6, -7, -8}, blend.WriteR|blend.WriteB)
	if got := f.Load(0, 0, 0); got != (geom.Vec4{-5, 2, -7, 4}) {
		t.Errorf("RGBA32F masked: %v", got)
	}
}

func TestRGBA32FStore(t *testing.T) {
	ct, _ := NewColorTarget(Geometry{Width: 2, Height: 1, Samples: 1}, RGBA32F)
	nan := float32(math.NaN())
	ct.Store(1, 0, 0, geom.Vec4{-2.5, 1e20, 0.1, nan}, blend.WriteAll)
	a := ct.Address(1, 0, 0)
	if a != 16 {
		t.Fatalf("address %d", a)
	}
	p := ct.Bytes()[a:]
	if binary.LittleEndian.Uint32(p) != math.Float32bits(-2.5) || binary.LittleEndian.Uint32(p[8:]) != math.Float32bits(0.1) {
		t.Errorf("bytes %v", p[:16])
	}
	got := ct.Load(1, 0, 0)
	if got[0] != -2.5 || got[1] != 1e20 || got[2] != 0.1 || !math.IsNaN(float64(got[3])) {
		t.Errorf("Load = %v", got)
	}
}

func TestClear(t *testing.T) {
	ct, _ := NewColorTarget(Geometry{Width: 5, Height: 3, Samples: 4, Layout: Tiled}, RGBA8)
	ct.Clear(geom.Vec4{0.5, 0, 1, 0.25})
	b := ct.Bytes()
	if len(b) != 8*4*4*4 {
		t.Fatalf("size %d", len(b))
	}
	for i := 0; i < len(b); i += 4 {
		if !bytes.Equal(b[i:i+4], []byte{128, 0, 255, 64}) {
			t.Fatalf("byte %d: %v", i, b[i:i+4])
		}
	}
	f, _ := NewColorTarget(Geometry{Width: 3, Height: 3, Samples: 2, Layout: ZOrder}, RGBA32F)
	f.Clear(geom.Vec4{0.25, -1, 2, 0})
	for y := 0; y < 4; y++ {
		for x := 0; x < 4; x++ {
			a := f.Address(x, y, 1)
			if got := decodeColor(RGBA32F, f.Bytes()[a:]); got != (geom.Vec4{0.25, -1, 2, 0}) {
				t.Fatalf("(%d,%d) = %v", x, y, got)
			}
		}
	}
}

func TestResolve(t *testing.T) {
	ct, _ := NewColorTarget(Geometry{Width: 2, Height: 1, Samples: 4, Layout: ZOrder}, RGBA8)
	samples := [4][4]byte{{0, 255, 1, 10}, {0, 255, 2, 11}, {1, 255, 0, 12}, {2, 254, 0, 13}}
	for s, v := range samples {
		a := ct.Address(1, 0, s)
		copy(ct.Bytes()[a:], v[:])
	}
	img := ct.Resolve()
	// R: (3+2)/4 = 1; G: (1019+2)/4 = 255; B: (3+2)/4 = 1; A: (46+2)/4 = 12.
	if got := img.Pix[4:8]; !bytes.Equal(got, []byte{1, 255, 1, 12}) {
		t.Errorf("resolved %v", got)
	}
	if got := img.Pix[0:4]; !bytes.Equal(got, []byte{0, 0, 0, 0}) {
		t.Errorf("pixel 0 %v", got)
	}

	two, _ := NewColorTarget(Geometry{Width: 1, Height: 1, Samples: 2}, RGBA8)
	copy(two.Bytes(), []byte{1, 0, 255, 7, 2, 1, 254, 8})
	// (3+1)/2 = 2 (half rounds up), (1+1)/2 = 1, (509+1)/2 = 255, (15+1)/2 = 8.
	if got := two.Resolve().Pix; !bytes.Equal(got, []byte{2, 1, 255, 8}) {
		t.Errorf("2 samples: %v", got)
	}

	f, _ := NewColorTarget(Geometry{Width: 1, Height: 2, Samples: 2, Layout: Tiled}, RGBA32F)
	f.Store(0, 1, 0, geom.Vec4{0.25, 2, -1, 1}, blend.WriteAll)
	f.Store(0, 1, 1, geom.Vec4{0.5, 0, 0.5, 1}, blend.WriteAll)
	// R: 0.375 -> 95.625+0.5 -> 96; G: 1 -> 255; B: -0.25 -> 0; A: 1 -> 255.
	if got := f.Resolve().Pix[4:8]; !bytes.Equal(got, []byte{96, 255, 0, 255}) {
		t.Errorf("RGBA32F resolve %v", got)
	}

	one, _ := NewColorTarget(Geometry{Width: 1, Height: 1, Samples: 1}, RGBA8)
	copy(one.Bytes(), []byte{9, 8, 7, 6})
	if got := one.Resolve().Pix; !bytes.Equal(got, []byte{9, 8, 7, 6}) {
		t.Errorf("1 sample: %v", got)
	}
}

func TestBlendStore(t *testing.T) {
	alpha := blend.Alpha()
	ct, _ := NewColorTarget(Geometry{Width: 1, Height: 1, Samples: 1}, RGBA8)
	// dst (0,0,0,0): rgb = src*0.5, alpha = 0.5 + 0.
	ct.BlendStore(0, 0, 0, geom.Vec4{1, 0.5, 0, 0.5}, &alpha, geom.Vec4{})
	if got := ct.Bytes(); !bytes.Equal(got, []byte{128, 64, 0, 128}) {
		t.Errorf("alpha blend: %v", got)
	}
	// UNORM clamps the source first: (2, 0, 0, 1.5) -> (1, 0, 0, 1): replaces dst.
	ct.BlendStore(0, 0, 0, geom.Vec4{2, 0, 0, 1.5}, &alpha, geom.Vec4{})
	if got := ct.Bytes(); !bytes.Equal(got, []byte{255, 0, 0, 255}) {
		t.Errorf("alpha blend clamped: %v", got)
	}
	f, _ := NewColorTarget(Geometry{Width: 1, Height: 1, Samples: 1}, RGBA32F)
	f.BlendStore(0, 0, 0, geom.Vec4{2, 0, 0, 0.5}, &alpha, geom.Vec4{})
	if got := f.Load(0, 0, 0); got != (geom.Vec4{1, 0, 0, 0.5}) {
		t.Errorf("float blend: %v", got)
	}
	// Write mask of the target applies: blending off, only R.
	rOnly := blend.Opaque()
	rOnly.WriteMask = blend.WriteR
	ct.BlendStore(0, 0, 0, geom.Vec4{0, 1, 1, 0}, &rOnly, geom.Vec4{})
	if got := ct.Bytes(); !bytes.Equal(got, []byte{0, 0, 0, 255}) {
		t.Errorf("masked opaque: %v", got)
	}
}

// TestSampleImageFormats: a sample's image is its colour converted like an
// RGBA8 store, whatever the target's format (RGBA10 once gave its packed
// 10-bit bytes as RGBA8).
func TestSampleImageFormats(t *testing.T) {
	c := geom.Vec4{0.25, 0.5, 1, 0.75}
	want := []byte{ToUNORM8(c[0]), ToUNORM8(c[1]), ToUNORM8(c[2]), ToUNORM8(c[3])}
	for _, f := range []ColorFormat{RGBA8, RGBA10, RGBA32F} {
		ct, err := NewColorTarget(Geometry{Width: 2, Height: 1, Samples: 1}, f)
		if err != nil {
			t.Fatal(err)
		}
		ct.Store(1, 0, 0, c, blend.WriteAll)
		img, err := ct.SampleImage(0)
		if err != nil {
			t.Fatal(err)
		}
		if got := img.Pix[4:8]; !bytes.Equal(got, want) {
			t.Errorf("format %v: SampleImage pixel 1 = %v, want %v", f, got, want)
		}
	}
}

func TestLayoutIndependence(t *testing.T) {
	var ref []byte
	for _, layout := range []Layout{Linear, Tiled, ZOrder} {
		ct, _ := NewColorTarget(Geometry{Width: 5, Height: 3, Samples: 2, Layout: layout, TileW: 2, TileH: 2}, RGBA8)
		for y := 0; y < 3; y++ {
			for x := 0; x < 5; x++ {
				for s := 0; s < 2; s++ {
					ct.Store(x, y, s, geom.Vec4{float32(x) / 4, float32(y) / 2, float32(s), 1}, blend.WriteAll)
				}
			}
		}
		lin := ct.LinearBytes(nil)
		if len(lin) != 5*3*2*4 {
			t.Fatalf("%v: %d linear bytes", layout, len(lin))
		}
		if ref == nil {
			ref = lin
			// Pixel (1,0) sample 1 is element 3: (0.25 -> 64, 0, 1 -> 255, 255).
			if !bytes.Equal(lin[12:16], []byte{64, 0, 255, 255}) {
				t.Errorf("linear element 3 = %v", lin[12:16])
			}
		} else if !bytes.Equal(lin, ref) {
			t.Errorf("%v: LinearBytes differ from Linear layout", layout)
		}
		img, err := ct.SampleImage(1)
		if err != nil {
			t.Fatal(err)
		}
		if got := img.Pix[4:8]; !bytes.Equal(got, []byte{64, 0, 255, 255}) {
			t.Errorf("%v: SampleImage(1) pixel 1 = %v", layout, got)
		}
		if _, err := ct.SampleImage(2); err == nil {
			t.Error("sample 2 of 2 accepted")
		}
	}
}

// WritePNG writes an image's bytes verbatim as non-premultiplied RGBA;
// WriteFramePNG writes a frame as a display shows it, its colour opaque (the
// render target's alpha made alpha-tested edges and blended surfaces
// see-through in viewers), and leaves the frame as it was.
func TestWritePNG(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(string, *image.RGBA) error
		want  []byte
	}{
		{"verbatim", func(p string, img *image.RGBA) error { return WritePNG(p, img) }, []byte{200, 100, 50, 128, 1, 2, 3, 0}},
		{"frame", WriteFramePNG, []byte{200, 100, 50, 255, 1, 2, 3, 255}},
	} {
		img := image.NewRGBA(image.Rect(0, 0, 2, 1))
		copy(img.Pix, []byte{200, 100, 50, 128, 1, 2, 3, 0})
		path := filepath.Join(t.TempDir(), "out.png")
		if err := tc.write(path, img); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		for x := range 2 {
			c := color.NRGBAModel.Convert(dec.At(x, 0)).(color.NRGBA)
			got = append(got, c.R, c.G, c.B, c.A)
		}
		if !bytes.Equal(got, tc.want) {
			t.Errorf("%s: PNG pixels %v, want %v", tc.name, got, tc.want)
		}
		if !bytes.Equal(img.Pix, []byte{200, 100, 50, 128, 1, 2, 3, 0}) {
			t.Errorf("%s: the image changed: %v", tc.name, img.Pix)
		}
		if err := tc.write(filepath.Join(t.TempDir(), "missing", "x.png"), img); err == nil {
			t.Errorf("%s: a write into a missing directory succeeded", tc.name)
		}
	}
}

func TestDepthTarget(t *testing.T) {
	g := Geometry{Width: 3, Height: 2, Samples: 2, Layout: Tiled}
	d24, _ := NewDepthTarget(g, depth.D24S8)
	d24.Store(2, 1, 1, 0xFF123456, 0xAB)
	a := d24.Address(2, 1, 1)
	if got := d24.Bytes()[a : a+4]; !bytes.Equal(got, []byte{0x56, 0x34, 0x12, 0xAB}) {
		t.Errorf("D24S8 bytes %x", got)
	}
	if d, s := d24.Load(2, 1, 1); d != 0x123456 || s != 0xAB {
		t.Errorf("D24S8 load %#x %#x", d, s)
	}
	d24.ClearDepth(1)
	if d, s := d24.Load(2, 1, 1); d != depth.MaxD24 || s != 0xAB {
		t.Errorf("after ClearDepth: %#x %#x", d, s)
	}
	d24.ClearStencil(7)
	if d, s := d24.Load(2, 1, 1); d != depth.MaxD24 || s != 7 {
		t.Errorf("after ClearStencil: %#x %#x", d, s)
	}
	if d, s := d24.Load(0, 0, 0); d != depth.MaxD24 || s != 7 {
		t.Errorf("other sample after clears: %#x %#x", d, s)
	}

	d32, _ := NewDepthTarget(g, depth.D32F)
	d32.Store(2, 1, 1, math.Float32bits(0.5), 0xCD)
	a = d32.Address(2, 1, 1)
	if got := binary.LittleEndian.Uint32(d32.Bytes()[a:]); got != 0x3F000000 {
		t.Errorf("D32F depth word %#x", got)
	}
	if got := d32.Bytes()[d32.StencilAddress(2, 1, 1)]; got != 0xCD {
		t.Errorf("D32F stencil byte %#x", got)
	}
	if z := d32.Depth(2, 1, 1); z != 0.5 {
		t.Errorf("Depth = %v", z)
	}
	d32.ClearStencil(3)
	d32.ClearDepth(0.25)
	if d, s := d32.Load(1, 0, 0); d != 0x3E800000 || s != 3 {
		t.Errorf("D32F after clears: %#x %d", d, s)
	}

	// Test: Less with writes against the cleared 0.25.
	st := depth.DefaultState()
	if r := d32.Test(&st, 1, 0, 0, depth.Quantize(0.125, depth.D32F), false); !r.Pass {
		t.Error("0.125 < 0.25 failed")
	}
	if z := d32.Depth(1, 0, 0); z != 0.125 {
		t.Errorf("depth after pass %v", z)
	}
	if r := d32.Test(&st, 1, 0, 0, depth.Quantize(0.5, depth.D32F), false); r.Pass {
		t.Error("0.5 < 0.125 passed")
	}
	if z := d32.Depth(1, 0, 0); z != 0.125 {
		t.Errorf("depth after fail %v", z)
	}
	if r := d32.Test(&st, 3, 0, 0, 0, false); r.Pass {
		t.Error("outside sample passed")
	}

	img, err := d24.DepthImage(0)
	if err != nil {
		t.Fatal(err)
	}
	if img.Pix[0] != 0xFF || img.Pix[1] != 0xFF {
		t.Errorf("depth image of 1.0: %v", img.Pix[:2])
	}
	if _, err := d24.DepthImage(-1); err == nil {
		t.Error("sample -1 accepted")
	}
}

func TestFromBytesAliases(t *testing.T) {
	mem := make([]byte, 100)
	g := Geometry{Width: 2, Height: 2, Samples: 1}
	ct, err := NewColorTargetFromBytes(g, RGBA8, mem[20:])
	if err != nil {
		t.Fatal(err)
	}
	ct.Store(1, 1, 0, geom.Vec4{1, 0, 0, 1}, blend.WriteAll)
	if !bytes.Equal(mem[20+12:20+16], []byte{255, 0, 0, 255}) {
		t.Errorf("store did not reach the wrapped memory: %v", mem[20:40])
	}
	if len(ct.Bytes()) != 16 || cap(ct.Bytes()) != 16 {
		t.Errorf("Bytes len %d cap %d", len(ct.Bytes()), cap(ct.Bytes()))
	}
	dt, err := NewDepthTargetFromBytes(g, depth.D24S8, mem[40:])
	if err != nil {
		t.Fatal(err)
	}
	dt.Store(0, 0, 0, 1, 2)
	if !bytes.Equal(mem[40:44], []byte{1, 0, 0, 2}) {
		t.Errorf("depth store: %v", mem[40:44])
	}
}

func TestEncodeColor(t *testing.T) {
	if got := EncodeColor(RGBA8, geom.Vec4{1, 0.5, 0, 2}, []byte{9}); !bytes.Equal(got, []byte{9, 255, 128, 0, 255}) {
		t.Errorf("RGBA8: %v", got)
	}
	if got := EncodeColor(RGBA32F, geom.Vec4{1, 0, 0, 0}, nil); len(got) != 16 || binary.LittleEndian.Uint32(got) != 0x3F800000 {
		t.Errorf("RGBA32F: %v", got)
	}
}

func FuzzTargetFromBytes(f *testing.F) {
	f.Add(5, 3, 2, uint8(1), 3, 2, uint8(0), uint8(0), make([]byte, 400))
	f.Add(1, 1, 1, uint8(2), 0, 0, uint8(1), uint8(1), make([]byte, 16))
	f.Fuzz(func(t *testing.T, w, h, samples int, layout uint8, tw, th int, cf, df uint8, data []byte) {
		if w > 64 || h > 64 || tw > 64 || th > 64 { // keep the fuzzer fast; limits are tested above
			return
		}
		g := Geometry{Width: w, Height: h, Samples: samples, Layout: Layout(layout), TileW: tw, TileH: th}
		if ct, err := NewColorTargetFromBytes(g, ColorFormat(cf), data); err == nil {
			ct.Store(w-1, h-1, samples-1, geom.Vec4{1, 1, 1, 1}, blend.WriteAll)
			_ = ct.Load(w-1, h-1, samples-1)
			_ = ct.Resolve()
			if a := ct.Address(w-1, h-1, samples-1); a >= ct.SizeBytes() {
				t.Fatalf("address %d beyond size %d", a, ct.SizeBytes())
			}
		}
		if dt, err := NewDepthTargetFromBytes(g, depth.Format(df), data); err == nil {
			dt.Store(w-1, h-1, samples-1, 5, 6)
			if d, s := dt.Load(w-1, h-1, samples-1); s != 6 || d != 5 {
				t.Fatalf("depth round trip %d %d", d, s)
			}
			dt.ClearDepth(0.5)
			dt.ClearStencil(1)
		}
	})
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"linear", "Z-Order", "rgba8", "tiled", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if l, err := ParseLayout(s); err == nil && !l.Valid() {
			t.Errorf("%q -> %v", s, l)
		}
		if c, err := ParseColorFormat(s); err == nil && !c.Valid() {
			t.Errorf("%q -> %v", s, c)
		}
	})
}
