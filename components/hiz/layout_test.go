package hiz

import (
	"testing"

	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/depth"
	fhiz "github.com/gfxsim/gfxsim/functional/depth/hiz"
)

// TestLayout: every HiZ tile of a partition lives in exactly one line of that
// partition's region, and the region's lines hold only the partition's tiles.
func TestLayout(t *testing.T) {
	cases := []struct {
		w, h, spp, tile, np, stride, pt, bits int
	}{
		{100, 60, 1, 32, 4, 1, 16, 128}, // ZMASK: 8x4 tiles, 4 per line
		{100, 60, 4, 16, 4, 1, 16, 64},  // FORWARD: 2x2 tiles, 8 per line
		{64, 40, 1, 128, 3, 2, 16, 128}, // PACKED: 16x8 tiles, 4 per line
		{40, 24, 4, 256, 2, 1, 16, 672}, // 4 layers, 256 samples: 2 lines per tile
		{33, 17, 16, 16, 1, 1, 32, 64},  // 1x1-pixel tiles
	}
	for _, c := range cases {
		g, err := fhiz.NewGeometry(fhiz.Target{Width: c.w, Height: c.h, Samples: c.spp, Format: depth.D24S8}, c.tile)
		if err != nil {
			t.Fatal(err)
		}
		owner := map[int]int{}
		for p := 0; p < c.np; p++ {
			l, err := newLayout(&g, uint64(p)<<regionShift, p, c.np, c.stride, c.pt, c.bits, 64)
			if err != nil {
				t.Fatal(err)
			}
			for line := uint64(0); line < l.lines; line++ {
				addr := l.base + line*64
				ts := l.tiles(addr, nil) // edge partition tiles leave slots empty
				for _, ti := range ts {
					if q, ok := owner[ti]; ok && (q != p || l.linesPerTile == 1) {
						t.Fatalf("%+v: tile %d in partitions %d and %d", c, ti, q, p)
					}
					owner[ti] = p
					if got := l.line(ti); got > addr || got+uint64(l.linesPerTile-1)*64 < addr {
						t.Errorf("%+v: tile %d in line 0x%x, line() says 0x%x", c, ti, addr, got)
					}
					x0, y0, _, _ := g.TileRect(ti)
					if protocol.TileOwner(x0/c.pt, y0/c.pt, c.stride, c.np) != p {
						t.Errorf("%+v: tile %d (%d,%d) is not partition %d's", c, ti, x0, y0, p)
					}
				}
			}
		}
		if len(owner) != g.Tiles() {
			t.Errorf("%+v: %d of %d tiles placed", c, len(owner), g.Tiles())
		}
	}
}
