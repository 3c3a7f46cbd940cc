package hiz

import (
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/functional/depth"
)

// oneTile returns a buffer holding one 32-sample tile (8x4 pixels at 1x).
func oneTile(t *testing.T, cfg Config) *Buffer {
	t.Helper()
	b, err := NewBuffer(cfg, Target{Width: 8, Height: 4, Samples: 1, Format: depth.D24S8})
	if err != nil {
		t.Fatal(err)
	}
	if b.Geometry().Tiles() != 1 {
		t.Fatalf("%d tiles", b.Geometry().Tiles())
	}
	return b
}

// ctx returns a draw context for an early-Z draw with depth function fn.
func ctx(fn depth.CompareFunc) DrawContext {
	c := DrawContext{Active: true, Target: Target{Width: 8, Height: 4, Samples: 1, Format: depth.D24S8},
		Func: fn, Write: true, ZRange: [2]uint32{0, depth.MaxD24}}
	c.face[0] = faceInfo{canCull: true, guaranteed: true}
	c.face[1] = c.face[0]
	return c
}

func rng(lo, hi int) Mask { return Range(lo, hi) }

func tileOf(lo uint32, hi []uint32, layers ...Mask) TileState {
	t := TileState{Known: true, Lo: lo}
	copy(t.Hi[:], hi)
	copy(t.Layer[:], layers)
	return t
}

// TestZMaskUpdate pins the paper's coarse test, update and merge (two layers,
// 32 samples) case by case.
func TestZMaskUpdate(t *testing.T) {
	all := rng(0, 32)
	cases := []struct {
		name       string
		start      TileState
		fn         depth.CompareFunc
		tmin, tmax uint32
		cover      Mask
		noGuar     bool
		noCull     bool
		fail       Mask
		accept     bool
		want       TileState
	}{
		{"cleared, nearer full cover: layer 0 takes the triangle",
			tileOf(1000, []uint32{1000}, all), depth.Less, 100, 200, all, false, false, Mask{}, true,
			tileOf(100, []uint32{200}, all)},
		{"partial cover into the empty layer 1",
			tileOf(1000, []uint32{1000}, all), depth.Less, 100, 200, rng(0, 8), false, false, Mask{}, true,
			tileOf(100, []uint32{1000, 200}, rng(8, 32), rng(0, 8))},
		{"farther than layer 0: culled, no update",
			tileOf(100, []uint32{200, 1000}, rng(0, 16), rng(16, 32)), depth.Less, 200, 300, rng(0, 8), false, false,
			rng(0, 8), false, tileOf(100, []uint32{200, 1000}, rng(0, 16), rng(16, 32))},
		{"per-layer test: layer 0 samples fail, layer 1 samples ambiguous and move",
			tileOf(100, []uint32{200, 1000}, rng(0, 16), rng(16, 32)), depth.Less, 250, 300, rng(8, 24), false, false,
			rng(8, 16), false, tileOf(100, []uint32{200, 1000}, rng(0, 16), rng(16, 32)).with(func(s *TileState) {
				// three masks: layer 0 {0-15}, layer 1 {24-31}, T {16-23} at 300;
				// d_T0 = 100, d_T1 = 700, d_01 = 800: T merges into layer 0.
				s.Hi[0], s.Layer[0], s.Layer[1] = 300, rng(0, 24), rng(24, 32)
			})},
		{"d_T1 smallest: the triangle merges into layer 1",
			tileOf(100, []uint32{1000, 500}, rng(0, 16), rng(16, 32)), depth.Less, 150, 450, rng(0, 4), false, false,
			Mask{}, false, tileOf(100, []uint32{1000, 500}, rng(4, 16), rng(16, 32).Or(rng(0, 4)))},
		{"d_01 smallest: layers 0 and 1 merge, the triangle becomes layer 1",
			tileOf(100, []uint32{500, 600}, rng(0, 16), rng(16, 32)), depth.Less, 50, 90, rng(0, 4).Or(rng(16, 20)), false, false,
			Mask{}, true, tileOf(50, []uint32{600, 90}, rng(4, 16).Or(rng(20, 32)), rng(0, 4).Or(rng(16, 20)))},
		{"tie d_T0 == d_T1: layer 0 wins",
			tileOf(100, []uint32{400, 600}, rng(0, 16), rng(16, 32)), depth.Less, 100, 500, rng(0, 4).Or(rng(16, 20)), false, false,
			Mask{}, false, tileOf(100, []uint32{500, 600}, rng(0, 20), rng(20, 32))},
		{"z-max not farther: samples stay",
			tileOf(100, []uint32{200, 1000}, rng(0, 16), rng(16, 32)), depth.Less, 150, 250, rng(0, 8), false, false,
			Mask{}, false, tileOf(100, []uint32{200, 1000}, rng(0, 16), rng(16, 32))},
		{"discard (not guaranteed): only z-min moves",
			tileOf(1000, []uint32{1000}, all), depth.Less, 100, 200, all, true, false, Mask{}, true,
			tileOf(100, []uint32{1000}, all)},
		{"stencil ops forbid culling: nothing removed",
			tileOf(100, []uint32{200}, all), depth.Less, 300, 400, rng(0, 8), false, true, Mask{}, false,
			tileOf(100, []uint32{200}, all)},
		{"LessEqual: equal depth is not culled",
			tileOf(100, []uint32{200}, all), depth.LessEqual, 200, 300, rng(0, 8), false, false, Mask{}, false,
			tileOf(100, []uint32{200}, all)},
		{"LessEqual: accept at z-min",
			tileOf(100, []uint32{200}, all), depth.LessEqual, 50, 100, all, false, false, Mask{}, true,
			tileOf(50, []uint32{100}, all)},
		{"Less: equal depth is culled",
			tileOf(100, []uint32{200}, all), depth.Less, 200, 300, rng(0, 8), false, false, rng(0, 8), false,
			tileOf(100, []uint32{200}, all)},
		{"Equal: culled outside [z-min, z-max], no update",
			tileOf(100, []uint32{200}, all), depth.Equal, 201, 300, all, false, false, all, false,
			tileOf(100, []uint32{200}, all)},
		{"Always (guaranteed): samples move even when farther; z-max may grow",
			tileOf(100, []uint32{200}, all), depth.Always, 300, 400, rng(0, 8), false, false, Mask{}, true,
			tileOf(100, []uint32{200, 400}, rng(8, 32), rng(0, 8)).with(func(s *TileState) { s.Barrier = Pos{Draw: 7} })},
		{"Always (not guaranteed): the layer's z-max grows",
			tileOf(100, []uint32{200}, all), depth.Always, 300, 400, rng(0, 8), true, false, Mask{}, true,
			tileOf(100, []uint32{400}, all).with(func(s *TileState) { s.Barrier = Pos{Draw: 7} })},
		{"Never: everything culled",
			tileOf(100, []uint32{200}, all), depth.Never, 0, 10, rng(0, 8), false, false, rng(0, 8), false,
			tileOf(100, []uint32{200}, all)},
		{"unknown tile: neither culled nor accepted nor updated",
			TileState{}, depth.Less, 0, 0, all, false, false, Mask{}, false, TileState{}},
	}
	for _, c := range cases {
		b := oneTile(t, Config{Mode: ZMask})
		b.SetTile(0, c.start)
		dc := ctx(c.fn)
		if c.noGuar {
			dc.face[0].guaranteed = false
		}
		if c.noCull {
			dc.face[0].canCull = false
		}
		o := b.Piece(&dc, false, 0, c.tmin, c.tmax, c.cover, Pos{Draw: 7})
		if o.Fail != c.fail || o.Accept != c.accept {
			t.Errorf("%s: outcome fail %x accept %v, want %x %v", c.name, o.Fail, o.Accept, c.fail, c.accept)
		}
		if got := b.Tile(0); got != c.want {
			t.Errorf("%s:\n got  %+v\n want %+v", c.name, got, c.want)
		}
	}
}

func (t TileState) with(f func(*TileState)) TileState {
	f(&t)
	return t
}

// TestMergeThreeLayers checks the generalized merge order with three layers.
func TestMergeThreeLayers(t *testing.T) {
	b := oneTile(t, Config{Mode: ZMask, Layers: 3})
	b.SetTile(0, tileOf(10, []uint32{100, 300, 320}, rng(0, 10), rng(10, 20), rng(20, 32)))
	dc := ctx(depth.Less)
	// Samples 0-1 (layer 0) move to T at z-max 50; all three layers keep
	// samples: distances T0 50, T1 250, T2 270, 01 200, 02 220, 12 20: layers
	// 1 and 2 merge (z-max 320) into index 1 and T becomes layer 2.
	b.Piece(&dc, false, 0, 20, 50, rng(0, 2), Pos{})
	want := tileOf(10, []uint32{100, 320, 50}, rng(2, 10), rng(10, 32), rng(0, 2))
	if got := b.Tile(0); got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// TestForwardUpdatesOnFullCoverOnly: FORWARD (one layer) moves z-max only when
// the primitive covers the whole tile.
func TestForwardUpdatesOnFullCoverOnly(t *testing.T) {
	b, err := NewBuffer(Config{Mode: Forward}, Target{Width: 4, Height: 4, Samples: 1, Format: depth.D24S8})
	if err != nil {
		t.Fatal(err)
	}
	b.Clear(1000, Pos{})
	dc := ctx(depth.Less)
	b.Piece(&dc, false, 0, 100, 200, rng(0, 15), Pos{})
	if got, want := b.Tile(0), tileOf(100, []uint32{1000}, rng(0, 16)); got != want {
		t.Errorf("partial: got %+v want %+v", got, want)
	}
	b.Piece(&dc, false, 0, 100, 300, rng(0, 16), Pos{})
	if got, want := b.Tile(0), tileOf(100, []uint32{300}, rng(0, 16)); got != want {
		t.Errorf("full: got %+v want %+v", got, want)
	}
}

// TestFormConversion: a switch to a greater function converts the tile
// conservatively (z-max = the largest layer z-max, z-min for the single layer,
// mask cleared) and back.
func TestFormConversion(t *testing.T) {
	b := oneTile(t, Config{Mode: ZMask})
	b.SetTile(0, tileOf(100, []uint32{300, 700}, rng(0, 16), rng(16, 32)))
	dc := ctx(depth.Greater)
	// In the greater form the tile is [100, 700]: a fragment at 800..900 passes
	// every sample, one at 50..90 fails every sample.
	o := b.Piece(&dc, false, 0, 50, 90, rng(0, 8), Pos{Draw: 3})
	if o.Fail != rng(0, 8) {
		t.Errorf("greater test: fail %x", o.Fail)
	}
	want := TileState{Known: true, Greater: true, Lo: ^uint32(700), Barrier: Pos{Draw: 3}}
	want.Hi[0], want.Layer[0] = ^uint32(100), rng(0, 32)
	if got := b.Tile(0); got != want {
		t.Errorf("converted: got %+v want %+v", got, want)
	}
	o = b.Piece(&dc, false, 0, 800, 900, rng(0, 32), Pos{Draw: 4})
	if !o.Accept || !o.Fail.Empty() {
		t.Errorf("greater accept: %+v", o)
	}
	// Now every sample is in [800, 900]: z-min 800 (layer), z-max 900.
	want = TileState{Known: true, Greater: true, Lo: ^uint32(900), Barrier: Pos{Draw: 3}}
	want.Hi[0], want.Layer[0] = ^uint32(800), rng(0, 32)
	if got := b.Tile(0); got != want {
		t.Errorf("greater update: got %+v want %+v", got, want)
	}
	// Back to less: z-min = 800 (the layer's negated bound), z-max = 900.
	dc = ctx(depth.Less)
	b.Piece(&dc, false, 0, 950, 990, rng(0, 1), Pos{Draw: 5})
	want = tileOf(800, []uint32{900}, rng(0, 32))
	want.Barrier = Pos{Draw: 5}
	if got := b.Tile(0); got != want {
		t.Errorf("back to less: got %+v want %+v", got, want)
	}
}

// TestFeedback: feedback lowers z-max unless an event after its position made
// it stale.
func TestFeedback(t *testing.T) {
	b := oneTile(t, Config{Mode: Forward, TileSamples: 32})
	b.Clear(1000, Pos{Draw: 1})
	if b.ApplyFeedback(0, 10, 500, Pos{Draw: 0, Prim: 5}) {
		t.Error("feedback from before the clear was applied")
	}
	if !b.ApplyFeedback(0, 10, 500, Pos{Draw: 1}) {
		t.Error("feedback after the clear was dropped")
	}
	if got, want := b.Tile(0), tileOf(1000, []uint32{500}, rng(0, 32)).with(func(s *TileState) { s.Barrier = Pos{Draw: 1} }); got != want {
		t.Errorf("got %+v want %+v", got, want)
	}
	dc := ctx(depth.Always)
	b.Piece(&dc, false, 0, 600, 700, rng(0, 1), Pos{Draw: 2, Prim: 3})
	if b.ApplyFeedback(0, 10, 20, Pos{Draw: 2, Prim: 2}) {
		t.Error("feedback older than an Always write was applied")
	}
	if st := b.Stats(); st.FeedbackApplied != 1 || st.FeedbackStale != 2 {
		t.Errorf("stats %+v", st)
	}
}

func TestGeometry(t *testing.T) {
	cases := []struct{ tile, spp, w, h int }{
		{16, 1, 4, 4}, {16, 4, 2, 2}, {32, 1, 8, 4}, {32, 4, 4, 2}, {128, 1, 16, 8}, {128, 4, 8, 4},
		{16, 16, 1, 1}, {16, 8, 2, 1}, {64, 2, 8, 4}, {256, 1, 16, 16},
		// Above 16 samples per pixel: whole pixels, rounded down to a power of two.
		{16, 27, 1, 1}, {32, 27, 1, 1}, {64, 27, 2, 1}, {128, 27, 2, 2}, {256, 27, 4, 2},
		{16, 64, 1, 1}, {128, 64, 2, 1}, {256, 64, 2, 2}, {64, 3, 4, 4},
	}
	for _, c := range cases {
		if w, h := TileDims(c.tile, c.spp); w != c.w || h != c.h {
			t.Errorf("TileDims(%d, %d) = %dx%d, want %dx%d", c.tile, c.spp, w, h, c.w, c.h)
		}
	}
	g, err := NewGeometry(Target{Width: 13, Height: 7, Samples: 2, Format: depth.D24S8}, 16)
	if err != nil {
		t.Fatal(err)
	}
	// 16 samples at 2x: 4x2-pixel tiles (two 2x2 Morton squares).
	if g.TileW != 4 || g.TileH != 2 || g.TilesX != 4 || g.TilesY != 4 {
		t.Fatalf("geometry %+v", g)
	}
	if ti, bit := g.TileOf(6, 3); ti != 5 || bit != 12 {
		t.Errorf("TileOf(6, 3) = %d, %d", ti, bit)
	}
	seen := map[[2]int]bool{}
	for y := 0; y < 8; y++ {
		for x := 0; x < 16; x++ {
			ti, bit := g.TileOf(x, y)
			if seen[[2]int{ti, bit}] {
				t.Fatalf("(%d,%d) collides", x, y)
			}
			seen[[2]int{ti, bit}] = true
			if px, py, s := g.PixelOf(ti, bit+1); px != x || py != y || s != 1 {
				t.Errorf("PixelOf(TileOf(%d,%d)) = %d,%d,%d", x, y, px, py, s)
			}
		}
	}
	// The last column of tiles holds one pixel column (x = 12): its samples.
	if v := g.Valid(3); v != rng(0, 2).Or(rng(4, 6)) {
		t.Errorf("Valid(3) = %x", v)
	}
}

// TestGeometryWide checks the tiling at 27 and 64 samples per pixel: every
// sample of every pixel has its own bit, pixels' runs straddle mask words, and
// a buffer whose pixel outgrows the configured tile gets a memory format for
// it, while packed tiles that cannot hold whole pixels are refused.
func TestGeometryWide(t *testing.T) {
	for _, c := range []struct{ spp, tile, tileSamples int }{{27, 128, 108}, {27, 16, 27}, {64, 256, 256}, {64, 32, 64}} {
		g, err := NewGeometry(Target{Width: 9, Height: 5, Samples: c.spp, Format: depth.D24S8}, c.tile)
		if err != nil {
			t.Fatal(err)
		}
		if g.TileSamples != c.tileSamples {
			t.Errorf("%dx, %d-sample tiles: TileSamples %d, want %d", c.spp, c.tile, g.TileSamples, c.tileSamples)
		}
		seen := map[[2]int]bool{}
		for y := 0; y < 5; y++ {
			for x := 0; x < 9; x++ {
				ti, bit := g.TileOf(x, y)
				for s := 0; s < c.spp; s++ {
					if bit+s >= g.TileSamples || seen[[2]int{ti, bit + s}] {
						t.Fatalf("%dx: sample %d of (%d,%d) at bit %d of tile %d", c.spp, s, x, y, bit+s, ti)
					}
					seen[[2]int{ti, bit + s}] = true
					if px, py, ps := g.PixelOf(ti, bit+s); px != x || py != y || ps != s {
						t.Fatalf("%dx: PixelOf(TileOf(%d,%d)+%d) = %d,%d,%d", c.spp, x, y, s, px, py, ps)
					}
				}
			}
		}
	}
	b, err := NewBuffer(Config{Mode: Forward}, Target{Width: 8, Height: 8, Samples: 27, Format: depth.D24S8})
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Config().TileSamples; got != 32 {
		t.Errorf("27x with 16-sample tiles: the memory format holds %d samples, want 32", got)
	}
	if _, err := NewBuffer(Config{Mode: ZMask, Packed: true}, Target{Width: 8, Height: 8, Samples: 27, Format: depth.D24S8}); err == nil ||
		!strings.Contains(err.Error(), "packed tiles of 128 samples hold no whole number of 27-sample pixels") {
		t.Errorf("packed at 27x: err %v", err)
	}
	if _, err := NewBuffer(Config{Mode: ZMask, Packed: true}, Target{Width: 8, Height: 8, Samples: 64, Format: depth.D24S8}); err != nil {
		t.Errorf("packed at 64x (two pixels per tile): %v", err)
	}
	if _, err := NewGeometry(Target{Width: 8, Height: 8, Samples: 65, Format: depth.D24S8}, 16); err == nil {
		t.Error("65 samples per pixel accepted")
	}
}

func TestMaskBitRuns(t *testing.T) {
	var m Mask
	m.OrBits(54, 1<<27-1, 27) // straddles words 0 and 1
	if want := Range(54, 81); m != want {
		t.Fatalf("OrBits(54, 27 ones) = %x, want %x", m, want)
	}
	m.OrBits(128, ^uint64(0), 64)
	if got := m.BitsAt(54, 27); got != 1<<27-1 {
		t.Errorf("BitsAt(54, 27) = %x", got)
	}
	if got := m.BitsAt(60, 8); got != 0xFF {
		t.Errorf("BitsAt(60, 8) = %x", got)
	}
	if got := m.BitsAt(128, 64); got != ^uint64(0) {
		t.Errorf("BitsAt(128, 64) = %x", got)
	}
	if got := m.BitsAt(80, 10); got != 1 {
		t.Errorf("BitsAt(80, 10) = %x, want 1", got)
	}
}
