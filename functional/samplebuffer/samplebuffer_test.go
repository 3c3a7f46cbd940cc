package samplebuffer

import "testing"

// checkMap walks every sample of g: no two share a chip and row, the chip
// numbering agrees with Interleave and ChipInInterleave, each chip's rows are
// below SamplesPerChip (the largest chip holds exactly that many) and each
// interleave holds InterleaveSamples. It returns the samples per interleave.
func checkMap(t *testing.T, g Geometry) []int64 {
	t.Helper()
	seen := map[[2]int64]bool{}
	perChip := make([]int64, g.Chips())
	perInterleave := make([]int64, g.Interleaves)
	for y := 0; y < g.Height; y++ {
		for x := 0; x < g.Width; x++ {
			for s := 0; s < g.Samples; s++ {
				c, r, i, k := g.Chip(x, y, s), g.Row(x, y, s), g.Interleave(x, y, s), g.ChipInInterleave(x, y, s)
				if c < 0 || c >= g.Chips() || i != c%g.Interleaves || k != c/g.Interleaves {
					t.Fatalf("%+v (%d, %d, %d): chip %d, interleave %d, chip in interleave %d", g, x, y, s, c, i, k)
				}
				if r < 0 || r >= g.SamplesPerChip() {
					t.Fatalf("%+v (%d, %d, %d): row %d outside the chip's %d", g, x, y, s, r, g.SamplesPerChip())
				}
				if seen[[2]int64{int64(c), r}] {
					t.Fatalf("%+v (%d, %d, %d): chip %d row %d used twice", g, x, y, s, c, r)
				}
				seen[[2]int64{int64(c), r}] = true
				perChip[c]++
				perInterleave[i]++
			}
		}
	}
	most := int64(0)
	for _, n := range perChip {
		most = max(most, n)
	}
	if most != g.SamplesPerChip() {
		t.Errorf("%+v: the largest chip holds %d samples, SamplesPerChip %d", g, most, g.SamplesPerChip())
	}
	for i, n := range perInterleave {
		if n != g.InterleaveSamples(i) {
			t.Errorf("%+v: interleave %d holds %d samples, InterleaveSamples %d", g, i, n, g.InterleaveSamples(i))
		}
	}
	return perInterleave
}

func TestMapsAreBijections(t *testing.T) {
	for _, m := range []Map{MapSample, MapPixel, MapLine} {
		for _, wh := range [][2]int{{13, 7}, {8, 4}, {3, 1}, {1, 5}, {17, 9}} {
			for _, n := range []int{1, 2, 3, 4, 6, 8, 16} {
				for _, ic := range [][2]int{{8, 4}, {2, 1}, {4, 3}, {6, 2}} {
					checkMap(t, Geometry{Width: wh[0], Height: wh[1], Samples: n, Interleaves: ic[0], ChipsPerInterleave: ic[1], Map: m})
				}
			}
		}
	}
}

// TestTiledMaps: under the pixel map a pixel's samples are in one interleave,
// (x mod 4) + 4*(y mod 2) on the board, under the line map x mod 8; sample s
// in chip s mod 4 of it (adjacent samples of the list in different packages),
// rows in raster order of the interleave's pixels; a raster of whole tiles
// loads the interleaves evenly.
func TestTiledMaps(t *testing.T) {
	for _, tc := range []struct {
		m          Map
		interleave func(x, y int) int
		rank       func(x, y int) int // the pixel's place among its interleave's pixels (16x6 raster)
	}{
		{MapPixel, func(x, y int) int { return x%4 + 4*(y%2) }, func(x, y int) int { return (y/2)*4 + x/4 }},
		{MapLine, func(x, y int) int { return x % 8 }, func(x, y int) int { return y*2 + x/8 }},
	} {
		g := Geometry{Width: 16, Height: 6, Samples: 8, Interleaves: DefaultInterleaves, ChipsPerInterleave: DefaultChipsPerInterleave, Map: tc.m}
		for y := 0; y < g.Height; y++ {
			for x := 0; x < g.Width; x++ {
				for s := 0; s < g.Samples; s++ {
					if i, want := g.Interleave(x, y, s), tc.interleave(x, y); i != want {
						t.Fatalf("%v (%d, %d, %d): interleave %d, want %d", tc.m, x, y, s, i, want)
					}
					if k := g.ChipInInterleave(x, y, s); k != s%4 {
						t.Fatalf("%v (%d, %d, %d): chip %d of the interleave, want %d", tc.m, x, y, s, k, s%4)
					}
					if r, want := g.Row(x, y, s), int64(tc.rank(x, y))*2+int64(s/4); r != want {
						t.Fatalf("%v (%d, %d, %d): row %d, want %d", tc.m, x, y, s, r, want)
					}
				}
			}
		}
		for i, n := range checkMap(t, g) {
			if n != 16*6*8/8 {
				t.Errorf("%v: interleave %d holds %d samples, want %d", tc.m, i, n, 16*6*8/8)
			}
		}
		if got := g.SamplesPerChip(); got != 16*6*8/32 {
			t.Errorf("%v: SamplesPerChip %d, want %d", tc.m, got, 16*6*8/32)
		}
	}
}

func TestParseMap(t *testing.T) {
	for i, n := range []string{"sample", "pixel", "line"} {
		if m, err := ParseMap(n); err != nil || m != Map(i) || m.String() != n {
			t.Errorf("ParseMap(%q) = %v, %v", n, m, err)
		}
	}
	if _, err := ParseMap("chip"); err == nil {
		t.Error("ParseMap(chip) accepted")
	}
}

func TestMapSpreadsSamples(t *testing.T) {
	g := Geometry{Width: 13, Height: 7, Samples: 8, Interleaves: DefaultInterleaves, ChipsPerInterleave: DefaultChipsPerInterleave}
	seen := map[[2]int64]bool{}
	perChip := make([]int64, g.Chips())
	for y := 0; y < g.Height; y++ {
		for x := 0; x < g.Width; x++ {
			var inter [DefaultInterleaves]bool
			for s := 0; s < g.Samples; s++ {
				c, r := g.Chip(x, y, s), g.Row(x, y, s)
				if seen[[2]int64{int64(c), r}] {
					t.Fatalf("(%d, %d, %d): chip %d row %d used twice", x, y, s, c, r)
				}
				seen[[2]int64{int64(c), r}] = true
				perChip[c]++
				if i := g.Interleave(x, y, s); i != c%8 || inter[i] {
					t.Fatalf("(%d, %d): sample %d in interleave %d again", x, y, s, i)
				} else {
					inter[i] = true
				}
			}
		}
	}
	for c, n := range perChip {
		if n > g.SamplesPerChip() || n < g.SamplesPerChip()-1 {
			t.Errorf("chip %d holds %d samples, the largest %d", c, n, g.SamplesPerChip())
		}
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		g    Geometry
		want string
	}{
		{Geometry{1280, 1024, 8, 8, 4, MapSample}, ""},
		{Geometry{1920, 1200, 4, 8, 4, MapSample}, ""},
		{Geometry{1920, 1200, 8, 8, 4, MapSample}, "resolution: 1920x1200 at 8 samples per pixel is 18432000 samples; the sample buffer holds 10485760 per buffer (double-buffered, with z)"},
		{Geometry{64, 64, 17, 8, 4, MapSample}, "samples: 17 samples per pixel outside [1, 16] (the pattern RAM holds 16)"},
		{Geometry{64, 64, 0, 8, 4, MapSample}, "samples: 0 samples per pixel outside [1, 16] (the pattern RAM holds 16)"},
		{Geometry{0, 64, 1, 8, 4, MapSample}, "resolution: 0x64 is empty"},
		{Geometry{64, 64, 1, 0, 4, MapSample}, "interleaves: 0 interleaves of 4 chips: want at least one of one"},
		{Geometry{64, 64, 1, 7, 4, MapSample}, ""},
		{Geometry{64, 64, 1, 7, 4, MapPixel}, "interleaves: 7: the pixel map tiles the interleaves over 2 pixel lines, so their number must be even"},
		{Geometry{64, 64, 1, 7, 4, MapLine}, ""},
		{Geometry{64, 64, 1, 8, 4, 3}, "map: Map(3) is not one of sample, pixel, line"},
	}
	for _, tc := range tests {
		err := tc.g.Validate(DefaultCapacity)
		if got := ""; err != nil {
			got = err.Error()
			if got != tc.want {
				t.Errorf("%+v: %q, want %q", tc.g, got, tc.want)
			}
		} else if tc.want != "" {
			t.Errorf("%+v: accepted, want %q", tc.g, tc.want)
		}
	}
}

func TestSetRaster(t *testing.T) {
	g := Geometry{Width: 8, Height: 8, Samples: 4, Interleaves: 2, ChipsPerInterleave: 2}
	if err := g.SetRaster(1920, 1080, 16); err != nil {
		t.Fatal(err)
	}
	want := Geometry{Width: 1920, Height: 1080, Samples: 16, Interleaves: 2, ChipsPerInterleave: 2}
	if g != want {
		t.Fatalf("SetRaster: %+v, want %+v", g, want)
	}
	err := g.SetRaster(64, 64, 17)
	if err == nil || err.Error() != "samples: 17 samples per pixel outside [1, 16] (the pattern RAM holds 16)" {
		t.Errorf("SetRaster with 17 samples: error %v", err)
	}
	if g != want {
		t.Errorf("a refused SetRaster changed the geometry to %+v", g)
	}
}

// TestBusiestChip counts every span's samples chip by chip through Chip and
// checks BusiestChip against the largest count, then the board's figures for
// a 324-pixel burst (a quarter of a 1280-pixel line and the filter's 4 overlap
// columns): the sample map spreads it over all 32 chips, the pixel map over
// the line's 4 interleaves, the line map over all 8 interleaves but, below 4
// samples per pixel, only their first chips.
func TestBusiestChip(t *testing.T) {
	for _, m := range []Map{MapSample, MapPixel, MapLine} {
		for _, n := range []int{1, 2, 3, 4, 6, 8, 16} {
			for _, ic := range [][2]int{{8, 4}, {2, 1}, {4, 3}, {6, 2}} {
				g := Geometry{Width: 37, Height: 3, Samples: n, Interleaves: ic[0], ChipsPerInterleave: ic[1], Map: m}
				for y := 0; y < g.Height; y++ {
					for x0 := 0; x0 <= g.Width; x0++ {
						count := make([]int64, g.Chips())
						most := int64(0)
						for x1 := x0; x1 <= g.Width; x1++ {
							if got := g.BusiestChip(y, x0, x1); got != most {
								t.Fatalf("%+v line %d [%d, %d): BusiestChip %d, counted %d", g, y, x0, x1, got, most)
							}
							if x1 < g.Width {
								for s := 0; s < n; s++ {
									c := g.Chip(x1, y, s)
									count[c]++
									most = max(most, count[c])
								}
							}
						}
					}
				}
			}
		}
	}
	for _, tc := range []struct {
		m    Map
		n    int
		want int64
	}{
		{MapSample, 1, 11}, {MapSample, 8, 81}, {MapSample, 16, 162},
		{MapPixel, 1, 81}, {MapPixel, 4, 81}, {MapPixel, 8, 162}, {MapPixel, 16, 324},
		{MapLine, 1, 41}, {MapLine, 2, 41}, {MapLine, 4, 41}, {MapLine, 8, 82}, {MapLine, 16, 164},
	} {
		g := Geometry{Width: 1280, Height: 1024, Samples: tc.n, Interleaves: DefaultInterleaves,
			ChipsPerInterleave: DefaultChipsPerInterleave, Map: tc.m}
		if got := g.BusiestChip(5, 318, 642); got != tc.want {
			t.Errorf("%v at %d spp: a 324-pixel burst loads the busiest chip with %d samples, want %d", tc.m, tc.n, got, tc.want)
		}
	}
}
