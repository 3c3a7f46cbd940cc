package filter

import (
	"math"
	"strings"
	"testing"
)

// TestFlatField: a field of one colour filters to that colour exactly, for every
// kernel, sample count and pattern, at the border too, at pixel centres and when
// resizing.
func TestFlatField(t *testing.T) {
	const w, h = 9, 7
	colours := [][4]uint16{{1023, 512, 1, 700}, {0, 0, 0, 0}, {1023, 1023, 1023, 1023}, {3, 1000, 77, 1}}
	patterns := map[string]func(n int) Positions{
		"grid":   func(n int) Positions { return gridPositions{n} },
		"jitter": func(int) Positions { return newJitterPositions(7) },
	}
	for name, k := range namedKernels() {
		conv := NewConvolver(mustTable(k))
		for pname, pat := range patterns {
			for _, n := range []int{1, 2, 3, 4, 8, 16} {
				for _, col := range colours {
					src := newSliceSamples(w, h, n).fill(func(_, _, _ int) [4]uint16 { return col })
					for _, step := range []float64{1, 0.75, 1.5} {
						var st Stats
						for j := 0; float64(j)*step < h; j++ {
							for i := 0; float64(i)*step < w; i++ {
								cx := int32(math.Round((float64(i) + 0.5) * step * 256))
								cy := int32(math.Round((float64(j) + 0.5) * step * 256))
								if got := conv.Pixel10(cx, cy, pat(n), src, n, &st); got != col {
									t.Fatalf("%s %s n=%d step %v colour %v: pixel (%d,%d) = %v", name, pname, n, step, col, i, j, got)
								}
							}
						}
						if st.NegativeClamps != 0 || st.OverflowClamps != 0 {
							t.Fatalf("%s %s n=%d colour %v: clamps %+v", name, pname, n, col, st)
						}
					}
				}
			}
		}
	}
}

// TestNegativeClamps: at a sharp black/white edge the negative lobes of Mitchell
// and the Laplacian drive the black side below 0 (clamped and counted); kernels
// without a negative lobe never clamp.
func TestNegativeClamps(t *testing.T) {
	const w, h = 16, 8
	for _, n := range []int{1, 4, 8, 16} {
		src := newSliceSamples(w, h, n).fill(func(x, _, _ int) [4]uint16 {
			if x < w/2 {
				return [4]uint16{0, 0, 0, 1023}
			}
			return [4]uint16{1023, 1023, 1023, 1023}
		})
		for name, k := range namedKernels() {
			var st Stats
			if _, err := Display(w, h, n, gridPositions{n}, src, NewConvolver(mustTable(k)), 1, &st); err != nil {
				t.Fatal(err)
			}
			var inHistogram uint64
			for _, c := range st.NegativeHistogram {
				inHistogram += c
			}
			if inHistogram != st.NegativeClamps {
				t.Errorf("%s n=%d: histogram holds %d, clamps %d", name, n, inHistogram, st.NegativeClamps)
			}
			lobe := name == "mitchell" || name == "laplacian"
			if lobe != (st.NegativeClamps > 0) {
				t.Errorf("%s n=%d: %d negative clamps (histogram %v)", name, n, st.NegativeClamps, st.NegativeHistogram)
			}
			if n == 16 && lobe {
				t.Logf("%-9s n=%d edge: %d negative clamps in %d pixels, histogram (LSBs 1, 2-3, 4-7, ...) %v", name, n, st.NegativeClamps, st.Pixels, st.NegativeHistogram)
			}
		}
	}
}

// TestNearestFallback: a box whose only sample per pixel lies beyond its radius
// has no coefficient: every pixel outputs the sample nearest the centre, its own.
func TestNearestFallback(t *testing.T) {
	const w, h = 6, 5
	src := randomField(w, h, 1, 3)
	conv := NewConvolver(mustTable(Box()))
	var st Stats
	pos := fixedPositions{100, 100} // 0.55 px from the centre
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			got := conv.Pixel10(int32(x)<<8+128, int32(y)<<8+128, pos, src, 1, &st)
			want, _ := src.Sample(x, y, 0)
			if got != want {
				t.Fatalf("pixel (%d,%d) = %v, want its own sample %v", x, y, got, want)
			}
		}
	}
	if st.Nearest != w*h {
		t.Errorf("Nearest = %d, want %d", st.Nearest, w*h)
	}
	// The exact filter agrees.
	ex, _ := NewExact(Box(), Window, 1)
	var est Stats
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			got := ex.Pixel10(float64(x)+0.5, float64(y)+0.5, pos, src, 1, &est)
			want, _ := src.Sample(x, y, 0)
			if got != [4]float64{float64(want[0]), float64(want[1]), float64(want[2]), float64(want[3])} {
				t.Fatalf("exact pixel (%d,%d) = %v, want %v", x, y, got, want)
			}
		}
	}
	if est.Nearest != w*h {
		t.Errorf("exact Nearest = %d, want %d", est.Nearest, w*h)
	}
}

func TestSamplesRead(t *testing.T) {
	tests := []struct {
		kernel  string
		n       int
		perPix  int // SamplesPerPixel: worst case over centres
		centred uint64
	}{
		{"mitchell", 16, 400, 21 * 16}, // the paper's 25 x 16; corners out of reach at a pixel centre
		{"mitchell", 4, 100, 21 * 4},
		{"cylinder", 8, 200, 21 * 8},
		{"box", 1, 9, 1},
		{"box", 16, 144, 16},
	}
	for _, tc := range tests {
		k, _ := KernelByName(tc.kernel)
		conv := NewConvolver(mustTable(k))
		if got := conv.SamplesPerPixel(tc.n); got != tc.perPix {
			t.Errorf("%s n=%d: SamplesPerPixel %d, want %d", tc.kernel, tc.n, got, tc.perPix)
		}
		src := randomField(9, 9, tc.n, 1)
		var st Stats
		conv.Pixel10(4*256+128, 4*256+128, gridPositions{tc.n}, src, tc.n, &st)
		if st.SamplesRead != tc.centred || st.MACs != 4*tc.centred {
			t.Errorf("%s n=%d: read %d, MACs %d; want %d, %d", tc.kernel, tc.n, st.SamplesRead, st.MACs, tc.centred, 4*tc.centred)
		}
		// WindowRead splits the read by window pixel: n from each pixel read,
		// none from the pruned ones, the centre's always read.
		sum := uint64(0)
		for k, v := range st.WindowRead {
			if v != 0 && v != uint64(tc.n) {
				t.Errorf("%s n=%d: window pixel %d read %d samples, want 0 or %d", tc.kernel, tc.n, k, v, tc.n)
			}
			sum += v
		}
		if sum != st.SamplesRead || st.WindowRead[Window*Window/2] != uint64(tc.n) {
			t.Errorf("%s n=%d: WindowRead %v sums to %d (centre %d), want %d (centre %d)", tc.kernel, tc.n,
				st.WindowRead, sum, st.WindowRead[Window*Window/2], st.SamplesRead, tc.n)
		}
	}
}

// TestWindowReadMitchell: at a pixel centre the Mitchell filter (radius 2)
// reads every window pixel but the 4 corners; a nearest fallback reads every
// existing window pixel's samples again, each from its own position.
func TestWindowReadMitchell(t *testing.T) {
	k, _ := KernelByName("mitchell")
	conv := NewConvolver(mustTable(k))
	src := randomField(9, 9, 8, 1)
	var st Stats
	conv.Pixel10(4*256+128, 4*256+128, gridPositions{8}, src, 8, &st)
	for i, v := range st.WindowRead {
		dx, dy := i%Window, i/Window
		corner := (dx == 0 || dx == Window-1) && (dy == 0 || dy == Window-1)
		if want := map[bool]uint64{true: 0, false: 8}[corner]; v != want {
			t.Errorf("window pixel (%d, %d): read %d, want %d", dx, dy, v, want)
		}
	}
	// Box at one sample 0.55 px from the centre: no sample in reach, the
	// nearest fallback reads the whole window (the 3x3 of the box's reach
	// first, clipped at the screen's corner).
	var nst Stats
	box := NewConvolver(mustTable(Box()))
	box.Pixel10(128, 128, fixedPositions{100, 100}, randomField(6, 5, 1, 3), 1, &nst)
	var sum uint64
	for _, v := range nst.WindowRead {
		sum += v
	}
	if nst.Nearest != 1 || sum != nst.SamplesRead || nst.WindowRead[Window*Window/2] != 2 || nst.WindowRead[Window*Window-1] != 1 {
		t.Errorf("nearest fallback: Nearest %d, WindowRead %v (sum %d), SamplesRead %d; want 1, centre 2, corner 1",
			nst.Nearest, nst.WindowRead, sum, nst.SamplesRead)
	}
}

func TestGammaLUT(t *testing.T) {
	tests := []struct {
		v     uint16
		gamma float64
		want  uint8
	}{
		{0, 1, 0}, {1023, 1, 255}, {512, 1, 128}, {2, 1, 0}, {3, 1, 1}, {2000, 1, 255},
		{0, 2.2, 0}, {1023, 2.2, 255}, {512, 2.2, 186}, {64, 2.2, 72},
	}
	for _, tc := range tests {
		if got := GammaLUT(tc.v, tc.gamma); got != tc.want {
			t.Errorf("GammaLUT(%d, %v) = %d, want %d", tc.v, tc.gamma, got, tc.want)
		}
	}
	for v := 0; v < MaxColour; v++ {
		if GammaLUT(uint16(v), 2.2) > GammaLUT(uint16(v+1), 2.2) {
			t.Fatalf("gamma 2.2 LUT decreases at %d", v)
		}
		if want := uint8(math.Round(float64(v) * 255 / 1023)); GammaLUT(uint16(v), 1) != want {
			t.Fatalf("gamma 1 LUT(%d) = %d, want %d", v, GammaLUT(uint16(v), 1), want)
		}
	}
}

func TestPixelDoesNotAllocate(t *testing.T) {
	src := randomField(16, 16, 8, 2)
	pos := newJitterPositions(2)
	conv := NewConvolver(mustTable(MitchellNetravali{B: 1.0 / 3, C: 1.0 / 3}))
	var st Stats
	allocs := testing.AllocsPerRun(100, func() { conv.Pixel(8*256+5, 7*256+200, pos, src, 8, &st) })
	if allocs != 0 {
		t.Errorf("Pixel allocates %v times", allocs)
	}
}

func TestBadInput(t *testing.T) {
	conv := NewConvolver(mustTable(Box()))
	src := randomField(4, 4, 1, 1)
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"kernel name", func() error { _, err := KernelByName("lanczos"); return err }(), `kernel "lanczos": unknown`},
		{"kernel radius", func() error { _, err := NewTable(Cylinder{R: 3}, DefaultParams()); return err }(), "radius: 3 pixels: must be in"},
		{"gaussian sigma", func() error { _, err := NewTable(Gaussian{Sigma: 0, R: 2}, DefaultParams()); return err }(), "Gaussian.Sigma"},
		{"gamma", func() error { p := DefaultParams(); p.Gamma = 0; return p.Validate() }(), "Params.Gamma"},
		{"scale bits", func() error { p := DefaultParams(); p.ScaleFracBits = 30; return p.Validate() }(), "Params.ScaleFracBits: 30"},
		{"samples", func() error { _, err := Display(4, 4, 17, gridPositions{1}, src, conv, 1, nil); return err }(), "samples per pixel: 17"},
		{"width", func() error { _, err := Display(0, 4, 1, gridPositions{1}, src, conv, 1, nil); return err }(), "width: 0"},
		{"step", func() error { _, err := Display(4, 4, 1, gridPositions{1}, src, conv, 0, nil); return err }(), "step: 0"},
		{"exact window", func() error { _, err := NewExact(Box(), 4, 1); return err }(), "Exact.Window: 4"},
	}
	for _, tc := range tests {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, tc.err, tc.want)
		}
	}
}
