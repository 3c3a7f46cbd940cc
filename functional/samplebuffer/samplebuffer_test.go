package samplebuffer

import "testing"

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
		{Geometry{1280, 1024, 8, 8, 4}, ""},
		{Geometry{1920, 1200, 4, 8, 4}, ""},
		{Geometry{1920, 1200, 8, 8, 4}, "resolution: 1920x1200 at 8 samples per pixel is 18432000 samples; the sample buffer holds 10485760 per buffer (double-buffered, with z)"},
		{Geometry{64, 64, 17, 8, 4}, "samples: 17 samples per pixel outside [1, 16] (the pattern RAM holds 16)"},
		{Geometry{64, 64, 0, 8, 4}, "samples: 0 samples per pixel outside [1, 16] (the pattern RAM holds 16)"},
		{Geometry{0, 64, 1, 8, 4}, "resolution: 0x64 is empty"},
		{Geometry{64, 64, 1, 0, 4}, "interleaves: 0 interleaves of 4 chips: want at least one of one"},
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
