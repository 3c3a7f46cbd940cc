package teximage

import (
	"bytes"
	"testing"

	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/scene/internal/rng"
)

var (
	black = geom.Vec4{0, 0, 0, 1}
	white = geom.Vec4{1, 1, 1, 1}
	flat  = [4]byte{128, 128, 255, 255} // encoded (0, 0, 1)
)

func mustGen(t *testing.T, g Generator) *Image {
	t.Helper()
	im, err := g.Generate()
	if err != nil {
		t.Fatalf("%T: %v", g, err)
	}
	if len(im.Pix) != im.Width*im.Height*4 {
		t.Fatalf("%T: %d bytes for %dx%d", g, len(im.Pix), im.Width, im.Height)
	}
	return im
}

type texel struct {
	x, y int
	want [4]byte
}

func TestGeneratorsExactTexels(t *testing.T) {
	red := geom.Vec4{1, 0, 0, 1}
	tests := []struct {
		name   string
		g      Generator
		texels []texel
	}{
		{"solid", Solid{2, 3, geom.Vec4{0.2, 0.4, 0.6, 0.8}}, []texel{{1, 2, [4]byte{51, 102, 153, 204}}}},
		{"checker", Checker{8, 8, [2]int{4, 2}, [2]geom.Vec4{black, white}}, []texel{
			{0, 0, [4]byte{0, 0, 0, 255}}, {1, 3, [4]byte{0, 0, 0, 255}}, {2, 0, [4]byte{255, 255, 255, 255}},
			{2, 4, [4]byte{0, 0, 0, 255}}, {0, 4, [4]byte{255, 255, 255, 255}}, {7, 7, [4]byte{0, 0, 0, 255}},
		}},
		{"gradient", Gradient{1, 4, [2]geom.Vec4{black, white}, false}, []texel{
			{0, 0, [4]byte{32, 32, 32, 255}}, {0, 3, [4]byte{223, 223, 223, 255}},
		}},
		{"gradient horizontal", Gradient{2, 1, [2]geom.Vec4{black, red}, true}, []texel{
			{0, 0, [4]byte{64, 0, 0, 255}}, {1, 0, [4]byte{191, 0, 0, 255}},
		}},
		// 64x64, 4 rows of 2 bricks: brick 32x16, joint 0.125*16 = 2 px, 1 px each side.
		{"bricks mortar", Bricks{64, 64, 4, 2, 0.125, [2]geom.Vec4{red, white}, 0, 1}, []texel{
			{10, 0, [4]byte{255, 255, 255, 255}},  // bottom... top border of row 0
			{0, 8, [4]byte{255, 255, 255, 255}},   // left border of row 0
			{16, 23, [4]byte{255, 255, 255, 255}}, // row 1 is shifted by 16: x=16 is its joint
		}},
		// Joint 0.25*16 = 4 px (2 each side of a border), bevel 4 px beyond.
		{"bricks normal flat", BricksNormal{64, 64, 4, 2, 0.25, 1}, []texel{
			{16, 8, flat}, // brick centre
			{0, 8, flat},  // middle of a joint (height 0 around it)
		}},
		{"bumps flat", BumpsNormal{16, 16, [2]int{2, 2}, 0.1, 1, 3}, []texel{{0, 0, flat}, {15, 15, flat}}},
	}
	for _, tc := range tests {
		im := mustGen(t, tc.g)
		for _, tx := range tc.texels {
			if got := im.RGBA(tx.x, tx.y); got != tx.want {
				t.Errorf("%s: texel (%d,%d) = %v, want %v", tc.name, tx.x, tx.y, got, tx.want)
			}
		}
	}
}

func TestBricksColourVariation(t *testing.T) {
	im := mustGen(t, Bricks{64, 64, 4, 2, 0.125, [2]geom.Vec4{{0.5, 0.5, 0.5, 1}, white}, 0, 1})
	// Variation 0: brick texels are 0.5 * (0.9 + 0.2*grain) in [0.45, 0.55] -> [115, 140].
	for y := 2; y < 14; y++ {
		for x := 2; x < 30; x++ {
			c := im.RGBA(x, y)
			if c[0] < 115 || c[0] > 140 || c[0] != c[1] || c[3] != 255 {
				t.Fatalf("brick texel (%d,%d) = %v", x, y, c)
			}
		}
	}
}

func TestBricksNormalBevelLeansOutward(t *testing.T) {
	im := mustGen(t, BricksNormal{64, 64, 4, 2, 0.25, 4})
	// Row 0, brick 0 spans x in [0, 32); joint 4 px (2 each side), bevel [2, 6).
	left := im.RGBA(3, 8)   // on the left bevel: height grows to the right -> normal leans left (-X)
	right := im.RGBA(28, 8) // right bevel: leans right (+X)
	top := im.RGBA(16, 3)   // top bevel: height grows downwards -> normal leans up (+Y)
	if !(left[0] < 128 && left[1] == 128) || !(right[0] > 128 && right[1] == 128) || !(top[1] > 128 && top[0] == 128) {
		t.Fatalf("bevel normals left %v right %v top %v", left, right, top)
	}
}

func TestBumpsNormalPointsAwayFromCentre(t *testing.T) {
	// One 64x64 cell: r = 0.5*64*(0.7+0.3*h0), centre 32 + (2*h-1)*(32-r).
	const seed = 9
	im := mustGen(t, BumpsNormal{64, 64, [2]int{1, 1}, 0.5, 1, seed})
	r := 32 * (0.7 + 0.3*float64(rng.Hash2(0, 0, seed)))
	cx := int(32 + (2*float64(rng.Hash2(0, 0, seed+1))-1)*(32-r))
	cy := int(32 + (2*float64(rng.Hash2(0, 0, seed+2))-1)*(32-r))
	c := im.RGBA(cx, cy)
	if c[0] < 125 || c[0] > 131 || c[1] < 125 || c[1] > 131 || c[2] != 255 {
		t.Fatalf("bump top (%d,%d) %v, want about (128,128,255)", cx, cy, c)
	}
	right := im.RGBA(cx+int(r/2), cy) // right of the centre: +X
	up := im.RGBA(cx, cy-int(r/2))    // above the centre: +Y
	if right[0] <= 160 || right[1] < 125 || right[1] > 131 || up[1] <= 160 || up[0] < 125 || up[0] > 131 {
		t.Fatalf("right of centre %v, above centre %v", right, up)
	}
}

func TestLeafMask(t *testing.T) {
	im := mustGen(t, Leaf{64, 64, [2]geom.Vec4{{0.2, 0.6, 0.1, 1}, {0.5, 0.7, 0.3, 1}}, 4})
	tests := []texel{
		{0, 0, [4]byte{51, 153, 26, 0}},      // corner: outside, leaf colour, alpha 0
		{63, 63, [4]byte{51, 153, 26, 0}},    // corner
		{32, 62, [4]byte{128, 178, 77, 255}}, // stem at the bottom centre, vein colour (0.7*255 = 178.49...)
	}
	for _, tx := range tests {
		if got := im.RGBA(tx.x, tx.y); got != tx.want {
			t.Errorf("texel (%d,%d) = %v, want %v", tx.x, tx.y, got, tx.want)
		}
	}
	if a := im.RGBA(24, 30)[3]; a != 255 {
		t.Errorf("blade texel alpha %d, want 255", a)
	}
	var inside int
	for i := 3; i < len(im.Pix); i += 4 {
		if im.Pix[i] == 255 {
			inside++
		} else if im.Pix[i] != 0 {
			t.Fatalf("alpha %d is neither 0 nor 255", im.Pix[i])
		}
	}
	if inside < 64*64/5 || inside > 64*64/2 {
		t.Errorf("leaf covers %d of %d texels", inside, 64*64)
	}
}

func TestNoiseTilesAndSeeds(t *testing.T) {
	a := mustGen(t, Noise{32, 32, 4, 3, [2]geom.Vec4{black, white}, 1})
	b := mustGen(t, Noise{32, 32, 4, 3, [2]geom.Vec4{black, white}, 1})
	c := mustGen(t, Noise{32, 32, 4, 3, [2]geom.Vec4{black, white}, 2})
	if !bytes.Equal(a.Pix, b.Pix) {
		t.Fatal("same seed, different images")
	}
	if bytes.Equal(a.Pix, c.Pix) {
		t.Fatal("different seeds, same image")
	}
	// Wrap: the difference between the last and first column is of the same
	// size as between neighbouring columns (no seam).
	var seam, inner int
	for y := 0; y < 32; y++ {
		seam += absDiff(a.RGBA(31, y)[0], a.RGBA(0, y)[0])
		inner += absDiff(a.RGBA(15, y)[0], a.RGBA(16, y)[0])
	}
	if seam > 3*inner+32 {
		t.Errorf("seam difference %d much larger than interior %d", seam, inner)
	}
}

func absDiff(a, b byte) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

func TestGeneratorErrors(t *testing.T) {
	tests := []struct {
		g    Generator
		want string
	}{
		{Solid{0, 4, white}, "image size 0x4 out of range [1, 16384]"},
		{Checker{8, 8, [2]int{0, 2}, [2]geom.Vec4{}}, "cells 0x2 out of range [1, image size 8x8]"},
		{Checker{8, 8, [2]int{9, 2}, [2]geom.Vec4{}}, "cells 9x2 out of range [1, image size 8x8]"},
		{Bricks{8, 8, 2, 2, 0.5, [2]geom.Vec4{}, 0, 0}, "mortar 0.5 out of range (0, 0.5)"},
		{Bricks{8, 8, 2, 2, 0.1, [2]geom.Vec4{}, 2, 0}, "variation 2 out of range [0, 1]"},
		{BricksNormal{8, 8, 0, 2, 0.1, 1}, "rows 0, columns 2 out of range [1, image size 8x8]"},
		{BricksNormal{8, 8, 2, 2, 0.1, -1}, "strength -1 out of range [0, 100]"},
		{Noise{8, 8, 0, 1, [2]geom.Vec4{}, 0}, "frequency 0 out of range [1, 4096]"},
		{Noise{8, 8, 2, 13, [2]geom.Vec4{}, 0}, "octaves 13 out of range [1, 12]"},
		{BumpsNormal{8, 8, [2]int{2, 2}, 0.6, 1, 0}, "radius 0.6 out of range (0, 0.5]"},
		{Gradient{8, 99999, [2]geom.Vec4{}, false}, "image size 8x99999 out of range [1, 16384]"},
	}
	for _, tc := range tests {
		_, err := tc.g.Generate()
		if err == nil || err.Error() != tc.want {
			t.Errorf("%+v: error %v, want %q", tc.g, err, tc.want)
		}
	}
}
