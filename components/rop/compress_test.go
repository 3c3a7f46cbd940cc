package rop_test

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/command"
	"github.com/gfxsim/gfxsim/functional/depth"
	"github.com/gfxsim/gfxsim/functional/framebuffer"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
)

// msaaSpec is an 8x4 4x-MSAA RGBA8 target in 2x2-pixel layout tiles (one
// 64-byte layout tile per quad, as the driver lays 4x targets out). A pixel is
// 16 bytes; a 256-byte colour line holds four layout tiles: line 0 is rows 0-1,
// line 1 rows 2-3.
func msaaSpec() backendtest.TargetSpec {
	return backendtest.TargetSpec{Width: 8, Height: 4, Samples: 4, ColorFormat: framebuffer.RGBA8,
		ColorLayout: framebuffer.Tiled, TileW: 2, TileH: 2, DepthFormat: depth.D24S8, DepthLayout: framebuffer.Linear}
}

// edgeQuad returns the quad (x, y) of a triangle whose edge crosses it, with
// the real coverage (some pixels partly covered).
func edgeQuad(t *testing.T, d *protocol.Draw, x, y int32, c geom.Vec4) protocol.ShadedQuad {
	t.Helper()
	p := backendtest.Prim(d, [3][3]float32{{0, 2, 0.5}, {8, 2, 0.5}, {0, 3.7, 0.5}})
	for _, q := range p.Triangle.TileQuads(&d.Raster, 0, 0, nil) {
		if q.X != x || q.Y != y {
			continue
		}
		partial := false
		for pix := 0; pix < 4; pix++ {
			if m := q.Coverage[pix]; m != 0 && m != 0xf { // 4 samples per pixel
				partial = true
			}
		}
		if !partial {
			t.Fatalf("weak test: quad (%d, %d) coverage %x has no partly covered pixel", x, y, q.Coverage)
		}
		return protocol.ShadedQuad{Prim: p, Quad: q, Live: q.Coverage,
			Out: pipeline.QuadOutput{Color: [4]geom.Vec4{c, c, c, c}, Store: 0xf}}
	}
	t.Fatalf("the triangle does not cover quad (%d, %d)", x, y)
	return protocol.ShadedQuad{}
}

type xfer struct {
	line  int // colour line (0 or 1); -1 for a display line
	size  uint64
	write bool
}

// TestCompression follows two 256-byte lines of a 4x-MSAA target through a
// one-line colour cache (every access to the other line evicts): line 0 is
// covered by whole quads (every pixel's samples equal: it compresses), line 1 by
// a quad crossed by a triangle edge (it does not). Reads follow the tags, the
// resolve reads the compressed line as its 64-byte block, and the counters and
// the image are exact.
func TestCompression(t *testing.T) {
	b := newBench(t, testpeer.Edit(rop.DefaultConfig(), func(c *rop.Config) { c.Cache.Size, c.Cache.Ways, c.Cache.LineSize = 256, 1, 256 }), msaaSpec(), 10)
	a, bl, c := geom.Vec4{1, 0, 0, 1}, geom.Vec4{0, 1, 0, 1}, geom.Vec4{0, 0, 1, 1}
	d := b.TG.Draw(0, true)
	p := backendtest.Rect(d, 0, 0, 8, 4, 0.5)[0]
	full := func(x, y int32, col geom.Vec4) protocol.ShadedQuad { return shaded(d, p, x, y, col, 0xf) }
	msgs := []*protocol.ShadedQuads{
		// 1: line 0 whole, colour A: read (uncompressed tag) 256 bytes.
		protocol.NewShadedQuads(d, []protocol.ShadedQuad{full(0, 0, a), full(2, 0, a), full(4, 0, a), full(6, 0, a)}),
		// 2: line 1 with an edge: read 256; line 0 leaves compressed (64).
		protocol.NewShadedQuads(d, []protocol.ShadedQuad{edgeQuad(t, d, 0, 2, bl), full(2, 2, bl), full(4, 2, bl), full(6, 2, bl)}),
		// 3: line 0 again: read its 64-byte block; line 1 leaves whole (256).
		protocol.NewShadedQuads(d, []protocol.ShadedQuad{full(0, 0, c)}),
		// 4: line 1 again: read 256; line 0 (still uniform per pixel) leaves compressed.
		protocol.NewShadedQuads(d, []protocol.ShadedQuad{edgeQuad(t, d, 0, 2, c)}),
	}
	ref, _ := expectWrites(b.TG, msgs)
	for i, m := range msgs {
		b.rob.SendAt(uint64(100*i), b.rop.FromReorderBuffer, m)
	}
	b.rob.SendAt(300, b.rop.FromReorderBuffer, protocol.NewDrawEnd(d, 0))
	b.cp.SendAt(400, b.rop.Control, protocol.NewPresentCmd(b.TG.ColorDesc, b.TG.Display))
	b.run()

	base := b.TG.ColorDesc.Addr
	var got []xfer
	for _, x := range b.Mem.Log {
		line := -1
		if x.Addr >= base && x.Addr < base+512 {
			line = int(x.Addr-base) / 256
			if x.Addr%256 != 0 {
				t.Errorf("request at 0x%x is not at its line's address", x.Addr)
			}
		}
		got = append(got, xfer{line, x.Size, x.Write})
	}
	// Present: the resolve reads line 0's block (line 1 is still in the cache,
	// dirty: a hit); line 0's arrival evicts line 1 (written whole); the two
	// 64-byte display lines follow; line 0 is clean at the flush.
	want := []xfer{
		{0, 256, false},
		{1, 256, false}, {0, 64, true},
		{0, 64, false}, {1, 256, true},
		{1, 256, false}, {0, 64, true},
		{0, 64, false}, {1, 256, true},
		{-1, 64, true}, {-1, 64, true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("memory traffic\n got  %v\n want %v", got, want)
	}
	// A compressed write-back carries the image's first 64 bytes of its line:
	// the last one (after message 3) holds line 0's final contents.
	var blocks [][]byte
	for _, x := range b.Mem.Log {
		if x.Write && x.Addr == base {
			blocks = append(blocks, x.Data)
		}
	}
	if len(blocks) != 2 {
		t.Errorf("%d compressed write-backs of line 0, want 2", len(blocks))
	} else if !bytes.Equal(blocks[1], ref.Color.Bytes()[:64]) {
		t.Errorf("the last compressed write-back carried % x, want % x", blocks[1][:16], ref.Color.Bytes()[:16])
	}
	if !bytes.Equal(b.TG.Color.Bytes(), ref.Color.Bytes()) {
		t.Error("the colour target differs from pipeline.WriteQuad")
	}
	disp, _ := b.TG.Image.Slice(b.TG.Display, b.TG.DisplayBytes)
	if !bytes.Equal(disp, ref.Color.Resolve().Pix) {
		t.Error("the display buffer differs from framebuffer.Resolve")
	}
	b.CheckStats(b.rop, map[string]float64{
		"cache_line_reads": 5, "cache_line_reads_compressed": 2, "cache_line_reads_uncompressed": 3,
		"cache_write_backs": 4, "cache_write_backs_compressed": 2, "cache_write_backs_uncompressed": 2,
		"cache_compression_bytes_saved": 4 * 192, "cache_compression_unusable": 0,
		"bytes_read": 256 + 256 + 64 + 256 + 64, "bytes_written": 64 + 256 + 64 + 256 + 128,
		"present_lines": 2, "present_lines_compressed": 1, "present_lines_cleared": 0,
		"present_compressed_fraction": 0.5,
	})
}

// TestCompressionOffOrUnusable: one quad of one colour in one line, then one in
// another line (evicting the first, a one-line cache) moves a 64-byte block only
// with compression on and a usable block; compression off, 128-byte lines (a
// 32-byte block is below the 64-byte access unit), a 128-byte access unit and
// 1x MSAA move whole lines, and the unusable transfers are counted.
func TestCompressionOffOrUnusable(t *testing.T) {
	one := msaaSpec()
	one.Width, one.Height, one.Samples, one.TileW, one.TileH = 32, 8, 1, 4, 4
	tests := []struct {
		name     string
		b        rop.Config
		spec     backendtest.TargetSpec
		second   int32 // row of the second quad
		want     []xfer
		unusable float64
	}{
		{"on", testpeer.Edit(rop.DefaultConfig(), func(c *rop.Config) { c.Cache.Size, c.Cache.Ways, c.Cache.LineSize = 256, 1, 256 }), msaaSpec(), 2,
			[]xfer{{0, 256, false}, {1, 256, false}, {0, 64, true}}, 0},
		{"off", testpeer.Edit(rop.DefaultConfig(), func(c *rop.Config) {
			c.Cache.Size, c.Cache.Ways, c.Cache.LineSize = 256, 1, 256
			c.Cache.Compression = false
		}), msaaSpec(), 2,
			[]xfer{{0, 256, false}, {1, 256, false}, {0, 256, true}}, 0},
		{"128-byte lines", testpeer.Edit(rop.DefaultConfig(), func(c *rop.Config) { c.Cache.Size, c.Cache.Ways, c.Cache.LineSize = 128, 1, 128 }), msaaSpec(), 2,
			[]xfer{{0, 128, false}, {2, 128, false}, {0, 128, true}}, 3},
		{"access unit 128", testpeer.Edit(rop.DefaultConfig(), func(c *rop.Config) {
			c.Cache.Size, c.Cache.Ways, c.Cache.LineSize = 256, 1, 256
			c.Cache.MinBlock = 128
		}), msaaSpec(), 2,
			[]xfer{{0, 256, false}, {1, 256, false}, {0, 256, true}}, 3},
		{"1x", testpeer.Edit(rop.DefaultConfig(), func(c *rop.Config) { c.Cache.Size, c.Cache.Ways, c.Cache.LineSize = 256, 1, 256 }), one, 4,
			[]xfer{{0, 256, false}, {2, 256, false}, {0, 256, true}}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, tc.b, tc.spec, 10)
			d := b.TG.Draw(0, true)
			p := backendtest.Rect(d, 0, 0, float32(tc.spec.Width), float32(tc.spec.Height), 0.5)[0]
			col := geom.Vec4{1, 0, 0, 1}
			b.rob.SendAt(0, b.rop.FromReorderBuffer, protocol.NewShadedQuads(d,
				[]protocol.ShadedQuad{shaded(d, p, 0, 0, col, 0xf)}))
			b.rob.SendAt(100, b.rop.FromReorderBuffer, protocol.NewShadedQuads(d,
				[]protocol.ShadedQuad{shaded(d, p, 0, tc.second, col, 0xf)}))
			b.run()
			line := uint64(tc.want[0].size)
			var got []xfer
			for _, x := range b.Mem.Log {
				got = append(got, xfer{int((x.Addr - b.TG.ColorDesc.Addr) / line), x.Size, x.Write})
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("memory traffic %v, want %v", got, tc.want)
			}
			if g := b.stat("cache_compression_unusable"); g != tc.unusable {
				t.Errorf("cache_compression_unusable = %v, want %v", g, tc.unusable)
			}
		})
	}
}

// TestCompressionClear: a fast clear tags every line of the target cleared
// (reads cost nothing); a cleared line written back after a full write of one
// colour compresses.
func TestCompressionClear(t *testing.T) {
	b := newBench(t, testpeer.Edit(rop.DefaultConfig(), func(c *rop.Config) { c.Cache.Size, c.Cache.Ways, c.Cache.LineSize = 256, 1, 256 }), msaaSpec(), 10)
	d := b.TG.Draw(0, true)
	p := backendtest.Rect(d, 0, 0, 8, 4, 0.5)[0]
	col := geom.Vec4{1, 0, 0, 1}
	clear := protocol.NewClearCmd(command.ClearColor, b.TG.ColorDesc, b.TG.Color.SizeBytes())
	b.cp.SendAt(0, b.rop.Control, clear)
	b.rob.SendAt(50, b.rop.FromReorderBuffer, protocol.NewShadedQuads(d, []protocol.ShadedQuad{shaded(d, p, 0, 0, col, 0xf)}))
	b.rob.SendAt(100, b.rop.FromReorderBuffer, protocol.NewShadedQuads(d, []protocol.ShadedQuad{shaded(d, p, 0, 2, col, 0xf)}))
	b.rob.SendAt(150, b.rop.FromReorderBuffer, protocol.NewShadedQuads(d, []protocol.ShadedQuad{shaded(d, p, 2, 0, col, 0xf)}))
	b.run()
	var got []xfer
	for _, x := range b.Mem.Log {
		got = append(got, xfer{int(x.Addr-b.TG.ColorDesc.Addr) / 256, x.Size, x.Write})
	}
	// Line 0 cleared fill; line 1 cleared fill evicts line 0 (compressed);
	// line 0 is read as its block and evicts line 1 (compressed).
	want := []xfer{{0, 64, true}, {0, 64, false}, {1, 64, true}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("memory traffic %v, want %v", got, want)
	}
	if g := b.stat("cache_cleared_fills"); g != 2 {
		t.Errorf("cache_cleared_fills = %v", g)
	}
}

// TestFrameCompressed renders built-in scenes at 4x MSAA through ROPs with
// 256-byte lines (compression on) and checks the image against the reference
// renderer and that lines were compressed.
func TestFrameCompressed(t *testing.T) {
	for _, tc := range []struct {
		scene string
		parts int
	}{{"triangle", 2}, {"overdraw", 1}, {"depthwrite", 2}} {
		t.Run(fmt.Sprintf("%s-%dparts", tc.scene, tc.parts), func(t *testing.T) {
			fe, _, rops, fr := runFrameCache(t, tc.scene, 48, 32, 4, tc.parts, sim.NewSerialEngine(), 4096, 2, 256)
			ref := renderReference(t, tc.scene, 48, 32, 4)
			if n := ref.mem.Size(); !bytes.Equal(fr.Memory.Bytes()[:n], ref.mem.Bytes()) {
				t.Error("the memory image differs from the reference renderer's")
			}
			if fe.image == nil || !bytes.Equal(fe.image.Pix, ref.img) {
				t.Error("the presented image differs")
			}
			var rp []interface{ Stats(func(string, float64)) }
			for _, r := range rops {
				rp = append(rp, r)
			}
			if sumStats(rp, "cache_write_backs_compressed") == 0 || sumStats(rp, "present_lines_compressed") == 0 {
				t.Error("weak test: nothing was compressed")
			}
			if sumStats(rp, "cache_compression_unusable") != 0 {
				t.Error("4x RGBA8 with 256-byte lines counted as unusable")
			}
		})
	}
}
