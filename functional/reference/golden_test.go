package reference_test

import (
	"math"
	"testing"

	"github.com/gfxsim/gfxsim/functional/reference"
)

type counts struct {
	triangles, setUp, vsInvocations, quads, coveredSamples, psInvocations, helperPixels, samplesWritten int
}

type pixel struct {
	x, y int
	rgba [4]uint8
}

// The built-in scenes rendered at 160x90 with their own sample counts. The values
// were read from renders whose images were inspected by eye (see the README); the
// test pins them so that any change to the functional model that alters an image
// or a counter is noticed and explained.
var golden = []struct {
	name    string
	samples int
	c       counts
	pixels  []pixel
}{
	{"bowlingpin", 1, counts{1952, 791, 2263, 2846, 7340, 11384, 4044, 7340}, []pixel{{80, 45, [4]uint8{121, 13, 12, 255}}, {20, 20, [4]uint8{20, 20, 26, 255}}, {140, 70, [4]uint8{123, 93, 67, 255}}, {40, 75, [4]uint8{126, 98, 72, 255}}}},
	{"depthwrite", 4, counts{6396, 3060, 7133, 7321, 48033, 28568, 12007, 45222}, []pixel{{80, 45, [4]uint8{172, 173, 196, 255}}, {20, 20, [4]uint8{20, 20, 26, 255}}, {140, 70, [4]uint8{153, 156, 169, 255}}, {40, 75, [4]uint8{141, 147, 174, 255}}}},
	{"foliage", 4, counts{4836, 4708, 9452, 24892, 136775, 99568, 44699, 38173}, []pixel{{80, 45, [4]uint8{60, 44, 25, 255}}, {20, 20, [4]uint8{158, 191, 224, 255}}, {140, 70, [4]uint8{92, 89, 43, 255}}, {40, 75, [4]uint8{97, 96, 46, 255}}}},
	{"motion", 8, counts{7352, 4292, 10426, 11229, 118512, 33772, 10015, 118332}, []pixel{{80, 45, [4]uint8{133, 79, 71, 255}}, {20, 20, [4]uint8{128, 70, 58, 255}}, {140, 70, [4]uint8{88, 89, 101, 255}}, {40, 75, [4]uint8{184, 184, 182, 255}}}},
	{"occluders", 4, counts{1920, 967, 3611, 7311, 64876, 14656, 2956, 39479}, []pixel{{80, 45, [4]uint8{135, 126, 128, 255}}, {20, 20, [4]uint8{26, 26, 31, 255}}, {140, 70, [4]uint8{67, 67, 71, 255}}, {40, 75, [4]uint8{138, 138, 141, 255}}}},
	{"overdraw", 4, counts{98, 98, 196, 23472, 327064, 93888, 7712, 327064}, []pixel{{80, 45, [4]uint8{95, 163, 247, 255}}, {20, 20, [4]uint8{20, 26, 36, 255}}, {140, 70, [4]uint8{20, 26, 36, 255}}, {40, 75, [4]uint8{24, 33, 47, 255}}}},
	{"room", 4, counts{12112, 5846, 13412, 10833, 60471, 42908, 19072, 60341}, []pixel{{80, 45, [4]uint8{169, 101, 75, 255}}, {20, 20, [4]uint8{160, 92, 72, 255}}, {140, 70, [4]uint8{200, 186, 166, 255}}, {40, 75, [4]uint8{187, 169, 146, 255}}}},
	{"smalltris", 4, counts{52896, 29237, 64767, 20564, 36671, 81768, 55483, 36544}, []pixel{{80, 45, [4]uint8{32, 36, 44, 255}}, {20, 20, [4]uint8{140, 179, 217, 255}}, {140, 70, [4]uint8{108, 122, 51, 255}}, {40, 75, [4]uint8{74, 91, 35, 255}}}},
	// The texture scenes: values read from 160x90 renders inspected by eye (texstudy: the back
	// wall at the centre, noise walls, brick floor; texmodes: the clear colour between the tiles,
	// the 3D-textured crate, the BC1 floor).
	{"texmagnify", 1, counts{2, 2, 4, 3656, 14400, 14624, 224, 14400}, []pixel{{80, 45, [4]uint8{191, 186, 173, 255}}, {20, 20, [4]uint8{178, 153, 138, 255}}, {140, 70, [4]uint8{176, 82, 57, 255}}, {40, 75, [4]uint8{189, 179, 166, 255}}}},
	{"texminify", 1, counts{2, 2, 4, 3656, 14400, 14624, 224, 14400}, []pixel{{80, 45, [4]uint8{136, 129, 100, 255}}, {20, 20, [4]uint8{138, 131, 101, 255}}, {140, 70, [4]uint8{97, 93, 79, 255}}, {40, 75, [4]uint8{137, 130, 100, 255}}}},
	{"texmodes", 4, counts{566, 253, 710, 3173, 36843, 12692, 2234, 36842}, []pixel{{80, 45, [4]uint8{26, 26, 31, 255}}, {20, 20, [4]uint8{26, 26, 31, 255}}, {140, 70, [4]uint8{140, 71, 54, 255}}, {40, 75, [4]uint8{161, 100, 80, 255}}}},
	{"texstudy", 1, counts{10, 14, 20, 3907, 14400, 15628, 1228, 14400}, []pixel{{80, 45, [4]uint8{98, 119, 160, 255}}, {20, 20, [4]uint8{177, 165, 145, 255}}, {140, 70, [4]uint8{145, 135, 119, 255}}, {40, 75, [4]uint8{178, 87, 63, 255}}}},
	{"triangle", 1, counts{1, 1, 3, 436, 1658, 1744, 86, 1658}, []pixel{{80, 45, [4]uint8{255, 140, 26, 255}}, {20, 20, [4]uint8{26, 26, 38, 255}}, {140, 70, [4]uint8{26, 26, 38, 255}}, {40, 75, [4]uint8{26, 26, 38, 255}}}},
}

func TestBuiltinGolden(t *testing.T) {
	for _, g := range golden {
		t.Run(g.name, func(t *testing.T) {
			s := builtin(t, g.name, 160, 90, 0)
			if s.Samples != g.samples {
				t.Fatalf("scene has %d samples per pixel, want %d", s.Samples, g.samples)
			}
			r := render(t, s, reference.DefaultOptions())
			c := r.Counters
			got := counts{c.Triangles, c.SetUp, c.VSInvocations, c.Quads, c.CoveredSamples, c.PSInvocations, c.HelperPixels, c.SamplesWritten}
			if got != g.c {
				t.Errorf("counters %+v\n want     %+v", got, g.c)
			}
			for _, p := range g.pixels {
				o := r.Image.PixOffset(p.x, p.y)
				var px [4]uint8
				copy(px[:], r.Image.Pix[o:o+4])
				if px != p.rgba {
					t.Errorf("pixel (%d,%d) = %v, want %v", p.x, p.y, px, p.rgba)
				}
			}
		})
	}
}

// TestTriangleAnalytic checks the single-triangle scene against values computed by
// hand from its YAML: the unlit colour and the clear colour converted to UNORM8, and
// the covered area against the projected triangle's area.
func TestTriangleAnalytic(t *testing.T) {
	s := builtin(t, "triangle", 160, 90, 1)
	r := render(t, s, reference.DefaultOptions())
	// Vertices (-1,-0.8,0), (1,-0.8,0), (0,0.9,0) seen from z = 2.5 with a 60 degree
	// vertical field of view: 45 / (2.5 * tan 30deg) pixels per world unit.
	k := 45 / (2.5 * math.Tan(math.Pi/6))
	area := 0.5 * (2 * k) * (1.7 * k)
	perimeter := 2*k + 2*math.Hypot(k, 1.7*k)
	if d := math.Abs(float64(r.Counters.CoveredSamples) - area); d > perimeter/4 {
		t.Errorf("covered %d pixels, the triangle's area is %.1f (difference %.1f > %.1f)", r.Counters.CoveredSamples, area, d, perimeter/4)
	}
	// Orange (1, 0.55, 0.1) -> (255, 140, 26); clear (0.1, 0.1, 0.15) -> (26, 26, 38).
	want := map[[2]int][4]uint8{{80, 45}: {255, 140, 26, 255}, {2, 2}: {26, 26, 38, 255}}
	for p, w := range want {
		o := r.Image.PixOffset(p[0], p[1])
		var px [4]uint8
		copy(px[:], r.Image.Pix[o:o+4])
		if px != w {
			t.Errorf("pixel %v = %v, want %v", p, px, w)
		}
	}
}
