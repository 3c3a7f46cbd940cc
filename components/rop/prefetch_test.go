package rop_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/components/rop"
	"github.com/gfxsim/gfxsim/components/rop/backendtest"
	"github.com/gfxsim/gfxsim/functional/geom"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/functional/raster"
)

// column returns one message of a late-Z draw whose n quads lie at (0, 2i):
// in the 16-pixel-wide linear RGBA8 target of defaultSpec, quad i covers two
// 64-byte lines of its own (rows 2i and 2i+1).
func column(d *protocol.Draw, n int) *protocol.ShadedQuads {
	p := backendtest.Rect(d, 0, 0, 16, 8, 0.5)[0]
	var qs []protocol.ShadedQuad
	for i := 0; i < n; i++ {
		qs = append(qs, shaded(d, p, 0, int32(2*i), geom.Vec4{1, 0.5, 0.25, 1}, 0xf))
	}
	return protocol.NewShadedQuads(d, qs)
}

// readAt is a line read as the fake memory took it: cycle and row of the
// defaultSpec target (its line).
type readAt struct{ cycle, row uint64 }

func readsByRow(b *bench) []readAt {
	var out []readAt
	for _, a := range b.Mem.Log {
		if !a.Write {
			out = append(out, readAt{a.Cycle, (a.Addr - b.TG.ColorDesc.Addr) / 64})
		}
	}
	return out
}

// TestPrefetch: quads of a late-Z draw wait 30 cycles for their answer; with
// a prefetch distance the ROP reads their colour lines meanwhile. The image
// and the write counts stay those of pipeline.WriteQuad; only the time and the
// demand hits change.
//
// Distance 1 (reserve 2 of 8 slots): the message arrives at 1; at 2 the lines
// of the cursor's quad 0 and of quad 1 are prefetched (taken by the memory at
// 3). The answer is applied at 34: quad 0 is looked up (two hits, useful), the
// cursor moves to quad 1 and quad 2's lines are prefetched (taken at 35); quad 1
// hits at 35; quad 2 finds its reads in flight at 36 (late). Without prefetch
// the lines are read after the answer, a quad per cycle (35, 36, 37), and the
// DrawDone comes two cycles later.
//
// Distance 8 with 4 memory-request slots and a reserve of 2: prefetches never
// hold more than 2 slots (2 reads each round, at 3, 15 and 27); quad 3's lines,
// still blocked for prefetch when the answer comes, are read by demand misses
// that take the reserved slots (at 38, while quad 2's prefetches are in
// flight).
func TestPrefetch(t *testing.T) {
	tests := []struct {
		name          string
		distance, max int
		quads         int
		reads         []readAt
		drawDone      uint64
		counts        map[string]float64
	}{
		{"off", 0, 8, 3, []readAt{{35, 0}, {35, 1}, {36, 2}, {36, 3}, {37, 4}, {37, 5}}, 53,
			map[string]float64{"prefetch_issued": 0, "prefetch_useful": 0, "prefetch_late": 0, "prefetch_useless": 0,
				"cache_hits": 0, "cache_misses": 6, "cache_misses_merged": 0, "cache_line_reads": 6}},
		{"distance 1", 1, 8, 3, []readAt{{3, 0}, {3, 1}, {3, 2}, {3, 3}, {35, 4}, {35, 5}}, 51,
			map[string]float64{"prefetch_issued": 6, "prefetch_useful": 4, "prefetch_late": 2, "prefetch_useless": 0,
				"cache_hits": 4, "cache_misses": 2, "cache_misses_merged": 2, "cache_line_reads": 6}},
		{"distance 8, reserve 2 of 4", 8, 4, 4,
			[]readAt{{3, 0}, {3, 1}, {15, 2}, {15, 3}, {27, 4}, {27, 5}, {38, 6}, {38, 7}}, 54,
			map[string]float64{"prefetch_issued": 6, "prefetch_useful": 4, "prefetch_late": 2, "prefetch_useless": 0,
				"cache_hits": 4, "cache_misses": 4, "cache_misses_merged": 2, "cache_line_reads": 8}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t, testpeer.Edit(rop.DefaultConfig(), func(c *rop.Config) {
				c.PrefetchDistance, c.PrefetchReserve = tc.distance, 2
				c.Cache.MaxOutstanding = tc.max
			}), backendtest.DefaultSpec(), 10)
			b.lateZRspDelay = 30
			d := b.TG.Draw(0, false)
			m := column(d, tc.quads)
			ref, st := expectWrites(b.TG, []*protocol.ShadedQuads{m})
			st.DepthStats = pipeline.DepthStats{} // the depth unit tests
			b.rob.SendAt(0, b.rop.FromReorderBuffer, m)
			b.rob.SendAt(0, b.rop.FromReorderBuffer, protocol.NewDrawEnd(d, 0))
			b.run()
			if !bytes.Equal(b.TG.Color.Bytes(), ref.Color.Bytes()) {
				t.Error("the colour target differs from pipeline.WriteQuad in arrival order")
			}
			if got := b.rop.WriteStats(); got != st {
				t.Errorf("write stats %+v, want %+v", got, st)
			}
			if got := readsByRow(b); !reflect.DeepEqual(got, tc.reads) {
				t.Errorf("line reads (cycle, row) %v, want %v", got, tc.reads)
			}
			if len(b.cp.Received) != 1 || b.cp.Received[0].Cycle != tc.drawDone {
				t.Errorf("DrawDone %+v, want one at cycle %d", b.cp.Received, tc.drawDone)
			}
			for name, w := range tc.counts {
				if g := b.stat(name); g != w {
					t.Errorf("%s = %v, want %v", name, g, w)
				}
			}
		})
	}
}

// TestPrefetchUseless: the lines prefetched for a quad that late Z then culls
// are never used; the FlushCmd that ends the tile counts them useless (and
// writes back the two lines quad 0 made dirty).
func TestPrefetchUseless(t *testing.T) {
	b := newBench(t, testpeer.Edit(rop.DefaultConfig(), func(c *rop.Config) { c.PrefetchDistance, c.PrefetchReserve = 1, 2 }), backendtest.DefaultSpec(), 10)
	b.lateZRspDelay = 30
	b.lateZPass = func(req *protocol.LateZReq) []raster.SampleMask {
		return []raster.SampleMask{req.Quads[0].Live, {}} // quad 1 fails late Z
	}
	d := b.TG.Draw(0, false)
	b.rob.SendAt(0, b.rop.FromReorderBuffer, column(d, 2))
	b.rob.SendAt(0, b.rop.FromReorderBuffer, protocol.NewDrawEnd(d, 0))
	b.cp.SendAt(100, b.rop.Control, protocol.NewFlushCmd(false))
	b.run()
	if got, want := readsByRow(b), []readAt{{3, 0}, {3, 1}, {3, 2}, {3, 3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("line reads (cycle, row) %v, want %v", got, want)
	}
	b.CheckStats(b.rop, map[string]float64{"prefetch_issued": 4, "prefetch_useful": 2, "prefetch_late": 0,
		"prefetch_useless": 2, "quads_late_z_culled": 1, "quads_written": 1, "cache_write_backs": 2})
}
