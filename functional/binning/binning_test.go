package binning

import (
	"reflect"
	"testing"

	"github.com/gfxsim/gfxsim/functional/raster"
)

func TestTileSize(t *testing.T) {
	for _, c := range []struct{ samples, bytes, budget, w, h int }{
		{1, 8, 128 << 10, 128, 128},
		{4, 8, 128 << 10, 64, 64},
		{8, 8, 128 << 10, 64, 32},
		{27, 8, 128 << 10, 32, 16},
		{64, 8, 128 << 10, 16, 16},
		{4, 12, 128 << 10, 64, 32}, // RGBA16F: 2730 pixels -> 2048
		{1, 8, 8, 1, 1},
	} {
		w, h, err := TileSize(c.samples, c.bytes, c.budget)
		if err != nil || w != c.w || h != c.h {
			t.Errorf("TileSize(%d, %d, %d) = %dx%d, %v; want %dx%d", c.samples, c.bytes, c.budget, w, h, err, c.w, c.h)
		}
	}
	if _, _, err := TileSize(64, 8, 511); err == nil {
		t.Error("a budget below one pixel was accepted")
	}
}

func TestGridRange(t *testing.T) {
	g := Grid{Width: 100, Height: 50, TileW: 32, TileH: 16}
	if nx, ny := g.Tiles(); nx != 4 || ny != 4 || g.Count() != 16 {
		t.Fatalf("tiles %dx%d", nx, ny)
	}
	if r := g.Rect(15); r != (raster.Rect{X0: 96, Y0: 48, X1: 100, Y1: 50}) {
		t.Errorf("Rect(15) = %v", r)
	}
	for _, c := range []struct {
		box  raster.Rect
		want [4]int
	}{
		{raster.Rect{X0: 0, Y0: 0, X1: 1, Y1: 1}, [4]int{0, 0, 1, 1}},
		{raster.Rect{X0: 31, Y0: 15, X1: 33, Y1: 17}, [4]int{0, 0, 2, 2}},
		{raster.Rect{X0: 32, Y0: 16, X1: 64, Y1: 32}, [4]int{1, 1, 2, 2}},
		{raster.Rect{X0: -10, Y0: -10, X1: 500, Y1: 500}, [4]int{0, 0, 4, 4}},
		{raster.Rect{X0: 200, Y0: 0, X1: 300, Y1: 10}, [4]int{0, 0, 0, 0}},
		{raster.Rect{}, [4]int{0, 0, 0, 0}},
	} {
		tx0, ty0, tx1, ty1 := g.Range(c.box)
		if got := [4]int{tx0, ty0, tx1, ty1}; got != c.want {
			t.Errorf("Range(%v) = %v, want %v", c.box, got, c.want)
		}
	}
}

func TestLines(t *testing.T) {
	// A linear 8-pixel-wide target, 2 samples of 4 bytes: pixel (x, y) at
	// (y*8+x)*8, 16-byte lines: one line per two pixels.
	addr := func(x, y, s int) uint64 { return uint64((y*8+x)*8 + s*4) }
	got := Lines(nil, raster.Rect{X0: 2, Y0: 1, X1: 6, Y1: 3}, 2, 4, 0x1000, 16, addr)
	want := []uint64{0x1000 + 80, 0x1000 + 96, 0x1000 + 144, 0x1000 + 160}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Lines = %#x, want %#x", got, want)
	}
	if n := EntriesPerChunk(256); n != 31 {
		t.Errorf("EntriesPerChunk(256) = %d", n)
	}
}
