package reorderbuffer

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/protocol"
	"github.com/gfxsim/gfxsim/functional/decouple"
	"github.com/gfxsim/gfxsim/functional/pipeline"
	"github.com/gfxsim/gfxsim/timing"
)

// prim5D is a stand-in 5D primitive: the reorder buffer reads only that it is
// one (Blur set) and passes it on.
var prim5D = &pipeline.Primitive{ID: 1, Blur: &pipeline.BlurSetup{}}

// vquad makes a visibility quad at (x, 0) whose pixel 0 has one live sample
// per tag: sample s reads lane 0 of the shading quad with QuadX = tags[s]
// (weight 1), so the fake core's colour for it is (tags[s], 0, 0, 0).
func vquad(x int32, tags ...int32) protocol.VisibilityQuad {
	q := protocol.VisibilityQuad{X: x}
	for s, t := range tags {
		q.Live[0] |= 1 << uint(s)
		var l decouple.Lookup
		l.N = 1
		l.Taps[0] = decouple.Tap{Tag: decouple.Tag{Prim: 1, QuadX: t}, Weight: 1}
		q.Lookups = append(q.Lookups, l)
	}
	return q
}

func vis(d *protocol.Draw, partition int, quads ...protocol.VisibilityQuad) *protocol.VisibilityQuads {
	return protocol.NewVisibilityQuads(d, prim5D, partition, quads)
}

func testDraw4(seq uint64) *protocol.Draw {
	d := testDraw(seq)
	d.Raster.Samples.Count = 4
	return d
}

// shadingWarps describes the shading warps core c received: "<cycle>:[tags]".
func shadingWarps(c *fakeCore) []string {
	var out []string
	for _, s := range c.shading {
		var tags []string
		for _, q := range s.Warp.Quads {
			tags = append(tags, fmt.Sprint(q.Tag.QuadX))
		}
		out = append(out, fmt.Sprintf("%d:[%s]", s.Cycle, strings.Join(tags, " ")))
	}
	return out
}

// cacheStats returns the shading-cache counters of the buffer.
func cacheStatsOf(c *Comp) map[string]float64 {
	m := map[string]float64{}
	for k, v := range testpeer.StatMap(c) {
		for _, p := range []string{"cache_", "shading_", "shaded_shading", "visibility_", "record", "retired_records", "ref_overflow"} {
			if strings.HasPrefix(strings.TrimPrefix(k, "GPU.ReorderBuffer."), p) {
				m[strings.TrimPrefix(k, "GPU.ReorderBuffer.")] = v
			}
		}
	}
	return m
}

type cacheCase struct {
	name    string
	builder Builder
	script  []scripted
	warps   []string
	rop     []ropRecord
	stats   map[string]float64
}

func runCacheCase(t *testing.T, tc cacheCase) {
	t.Helper()
	bn := newBench(tc.builder, benchConfig{cores: 1, rops: 1}, tc.script)
	bn.run(t)
	bn.rob.Finish(200e-9)
	if got := shadingWarps(bn.cores[0]); !reflect.DeepEqual(got, tc.warps) {
		t.Errorf("shading warps %q, want %q", got, tc.warps)
	}
	if got := records(bn.rops[0]); !reflect.DeepEqual(got, tc.rop) {
		t.Errorf("ROP received\n%v\nwant\n%v", got, tc.rop)
	}
	if got := cacheStatsOf(bn.rob); !reflect.DeepEqual(got, tc.stats) {
		t.Errorf("stats\n%v\nwant\n%v", got, tc.stats)
	}
	if bn.rob.cache.tags.Referenced() != 0 || bn.rob.entries.used != 0 {
		t.Errorf("%d cache entries still referenced, %d ring entries in use", bn.rob.cache.tags.Referenced(), bn.rob.entries.used)
	}
}

func TestShadingCache(t *testing.T) {
	a := testDraw4(0)
	cached := func(entries, refBits int) Builder {
		return MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.ShadingCacheEntries, c.RefBits, c.QuadsPerWarp = entries, refBits, 2 }))
	}
	for _, tc := range []cacheCase{
		{
			// Cycle 1: q0 misses 10 and 11 (warp 0 full: queued), q1 hits 11
			// (in flight) and misses 12: the 4 look-ups of the cycle. Cycle 2:
			// warp 0 leaves, q2 hits 10 (in flight) and the message is done;
			// the DrawEnd at the head flushes warp 1 [12] (no visibility input
			// waits), sent at 3. Warp 0 is back at 13, filled at 14: q0
			// retires at 15; warp 1 is a cycle later: q1 and q2 (one message)
			// and the marker at 16. q2's hit on 10 waited for warp 0.
			name:    "hits, misses and in-flight hits",
			builder: cached(8, 8),
			script:  []scripted{{At: 0, Msg: vis(a, 0, vquad(0, 10, 11), vquad(2, 11, 12), vquad(4, 10))}, {At: 0, Msg: protocol.NewDrawEnd(a, 0)}},
			warps:   []string{"2:[10 11]", "3:[12]"},
			rop: []ropRecord{
				{"v d0 (0,0) 3/3 [10 0 0 0] [11 0 0 0]", 15},
				{"v d0 (2,0) 3/3 [11 0 0 0] [12 0 0 0] (4,0) 1/1 [10 0 0 0]", 16},
				{"end d0", 16},
			},
			stats: map[string]float64{"cache_hits": 2, "cache_hits_in_flight": 2, "cache_misses": 3, "cache_evictions": 0,
				"shading_quads": 3, "shading_warps": 2, "shaded_shading_warps": 2, "visibility_quads": 3,
				"visibility_records": 3, "record_splits": 0, "retired_records": 3, "cache_entries_flushed": 0,
				"cache_all_referenced_cycles": 0, "ref_overflow_cycles": 0},
		},
		{
			// Each record retires before the next arrives. 10 and 11 fill the
			// two entries; the hit on 10 at 61 makes 11 the least recently used,
			// so 12 evicts 11, then 11 evicts 10 and 10 evicts 12.
			name:    "LRU among unreferenced entries",
			builder: cached(2, 8),
			script: []scripted{{At: 0, Msg: vis(a, 0, vquad(0, 10))}, {At: 30, Msg: vis(a, 0, vquad(0, 11))}, {At: 60, Msg: vis(a, 0, vquad(0, 10))},
				{At: 90, Msg: vis(a, 0, vquad(0, 12))}, {At: 120, Msg: vis(a, 0, vquad(0, 11))}, {At: 150, Msg: vis(a, 0, vquad(0, 10))}},
			warps: []string{"2:[10]", "32:[11]", "92:[12]", "122:[11]", "152:[10]"},
			rop: []ropRecord{
				{"v d0 (0,0) 1/1 [10 0 0 0]", 15}, {"v d0 (0,0) 1/1 [11 0 0 0]", 45}, {"v d0 (0,0) 1/1 [10 0 0 0]", 62},
				{"v d0 (0,0) 1/1 [12 0 0 0]", 105}, {"v d0 (0,0) 1/1 [11 0 0 0]", 135}, {"v d0 (0,0) 1/1 [10 0 0 0]", 165},
			},
			stats: map[string]float64{"cache_hits": 1, "cache_hits_in_flight": 0, "cache_misses": 5, "cache_evictions": 3,
				"shading_quads": 5, "shading_warps": 5, "shaded_shading_warps": 5, "visibility_quads": 6,
				"visibility_records": 6, "record_splits": 0, "retired_records": 6, "cache_entries_flushed": 0,
				"cache_all_referenced_cycles": 0, "ref_overflow_cycles": 0},
		},
		{
			// Two entries, three tags: 12 stalls with both entries referenced by
			// the quad itself. Samples 0 and 1 (taps all referenced) split off
			// as a record of their own (more parts follow); it retires at 15
			// and releases 10 and 11, and 12 evicts 10 in the same cycle. The
			// stall lasts cycles 1-14.
			name:    "all referenced: the record splits",
			builder: cached(2, 8),
			script:  []scripted{{At: 0, Msg: vis(a, 0, vquad(0, 10, 11, 12))}},
			warps:   []string{"2:[10 11]", "16:[12]"},
			// The first part (samples 0, 1) is absorbed at 15, its references
			// released; the quad leaves whole with its last part at 29.
			rop: []ropRecord{{"v d0 (0,0) 7/7 [10 0 0 0] [11 0 0 0] [12 0 0 0]", 29}},
			stats: map[string]float64{"cache_hits": 0, "cache_hits_in_flight": 0, "cache_misses": 3, "cache_evictions": 1,
				"shading_quads": 3, "shading_warps": 2, "shaded_shading_warps": 2, "visibility_quads": 1,
				"visibility_records": 2, "record_splits": 1, "retired_records": 2, "cache_entries_flushed": 0,
				"cache_all_referenced_cycles": 14, "ref_overflow_cycles": 0},
		},
		{
			// One-bit reference counts: q1's hit on 10 overflows while q0 holds
			// it; nothing can split off, the stall flushes the miss warp, and q1
			// hits once q0 has retired (cycles 1-14 stalled).
			name:    "reference-count overflow",
			builder: cached(4, 1),
			script:  []scripted{{At: 0, Msg: vis(a, 0, vquad(0, 10), vquad(2, 10))}},
			warps:   []string{"2:[10]"},
			rop:     []ropRecord{{"v d0 (0,0) 1/1 [10 0 0 0]", 15}, {"v d0 (2,0) 1/1 [10 0 0 0]", 16}},
			stats: map[string]float64{"cache_hits": 1, "cache_hits_in_flight": 0, "cache_misses": 1, "cache_evictions": 0,
				"shading_quads": 1, "shading_warps": 1, "shaded_shading_warps": 1, "visibility_quads": 2,
				"visibility_records": 2, "record_splits": 0, "retired_records": 2, "cache_entries_flushed": 0,
				"cache_all_referenced_cycles": 0, "ref_overflow_cycles": 14},
		},
		{
			// A miss warp holds one draw: b's look-up at 2 flushes a's open warp
			// [10] (another visibility message waited behind a's, so it stayed
			// open at 1), and b's own warp leaves when the input runs dry; both
			// are sent at 3.
			name:    "miss warps per draw",
			builder: cached(8, 8),
			script:  []scripted{{At: 0, Msg: vis(a, 0, vquad(0, 10))}, {At: 0, Msg: vis(testDraw4(1), 0, vquad(0, 11))}},
			warps:   []string{"3:[10]", "3:[11]"},
			rop:     []ropRecord{{"v d0 (0,0) 1/1 [10 0 0 0]", 16}, {"v d1 (0,0) 1/1 [11 0 0 0]", 17}},
			stats: map[string]float64{"cache_hits": 0, "cache_hits_in_flight": 0, "cache_misses": 2, "cache_evictions": 0,
				"shading_quads": 2, "shading_warps": 2, "shaded_shading_warps": 2, "visibility_quads": 2,
				"visibility_records": 2, "record_splits": 0, "retired_records": 2, "cache_entries_flushed": 0,
				"cache_all_referenced_cycles": 0, "ref_overflow_cycles": 0},
		},
	} {
		t.Run(tc.name, func(t *testing.T) { runCacheCase(t, tc) })
	}
}

// TestShadingCacheReconstruct: a sample's colour is pipeline.Reconstruct over
// its taps' cache entries, and a sample whose heaviest tap was discarded is
// not kept (the quad still goes to the ROP for its account).
func TestShadingCacheReconstruct(t *testing.T) {
	a := testDraw4(0)
	tap := func(x int32, lane uint8, w float32) decouple.Tap {
		return decouple.Tap{Tag: decouple.Tag{Prim: 1, QuadX: x}, Lane: lane, Weight: w}
	}
	q := protocol.VisibilityQuad{Live: [4]uint64{0b11}, Lookups: []decouple.Lookup{
		{N: 2, Taps: [4]decouple.Tap{tap(10, 0, 0.75), tap(11, 1, 0.25)}},
		{N: 2, Taps: [4]decouple.Tap{tap(10, 0, 0.25), tap(11, 1, 0.75)}},
	}}
	bn := newBench(MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.ShadingCacheEntries, c.RefBits = 8, 8 })), benchConfig{cores: 1, rops: 1}, []scripted{{At: 0, Msg: vis(a, 0, q)}})
	bn.cores[0].Discard = func(q *protocol.ShadingQuad) uint8 {
		if q.Tag.QuadX == 11 {
			return 0xf
		}
		return 0
	}
	bn.run(t)
	want := []ropRecord{{"v d0 (0,0) 3/1 [10.25 0 0.25 0]", 15}}
	if got := records(bn.rops[0]); !reflect.DeepEqual(got, want) {
		t.Fatalf("ROP received %v, want %v", got, want)
	}
}

// TestShadingCacheKeepsOrder: 2D-path warps and visibility records share the
// ring, so they retire in arrival order: the record, shaded by 16, waits
// for warp 0 (dispatched at 1, back at 43); warp 1 (dispatched at 3) follows.
func TestShadingCacheKeepsOrder(t *testing.T) {
	a := testDraw4(0)
	bn := newBench(MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.ShadingCacheEntries, c.RefBits = 8, 8 })), benchConfig{cores: 1, rops: 1,
		latency: func(*protocol.PixelWarp) uint64 { return 40 }},
		[]scripted{{At: 0, Msg: warp(a, 0, 0, 0)}, {At: 0, Msg: vis(a, 0, vquad(0, 10))}, {At: 0, Msg: warp(a, 1, 0)}, {At: 0, Msg: protocol.NewDrawEnd(a, 0)}})
	bn.run(t)
	want := []ropRecord{{"d0 0.0 0.1", 44}, {"v d0 (0,0) 1/1 [10 0 0 0]", 44}, {"d0 1.0", 46}, {"end d0", 46}}
	if got := records(bn.rops[0]); !reflect.DeepEqual(got, want) {
		t.Fatalf("ROP received %v, want %v", got, want)
	}
}

// TestShadingCacheLeaves2DAlone: with the shading cache on, 2D-path traffic
// has the same timing, messages and statistics as without it.
func TestShadingCacheLeaves2DAlone(t *testing.T) {
	a, b := testDraw(0), testDraw(1)
	script := func() []scripted {
		return []scripted{{At: 0, Msg: warp(a, 0, 0, 0, 0, 0, 0, 0, 0, 0)}, {At: 0, Msg: warp(a, 1, 0, 0)}, {At: 0, Msg: protocol.NewDrawEnd(a, 0)},
			{At: 5, Msg: warp(b, 2, 0, 0, 0)}, {At: 5, Msg: protocol.NewDrawEnd(b, 0)}}
	}
	run := func(bld Builder) ([]ropRecord, []dispatched, map[string]float64) {
		bn := newBench(bld.WithConfig(testpeer.Edit(bld.Config(), func(c *Config) { c.Entries = 8 })), benchConfig{cores: 2, rops: 1,
			latency: func(w *protocol.PixelWarp) uint64 { return 20 - 5*w.ID }}, script())
		bn.run(t)
		bn.rob.Finish(100e-9)
		st := testpeer.StatMap(bn.rob)
		for k := range cacheStatsOf(bn.rob) {
			delete(st, "GPU.ReorderBuffer."+k)
		}
		var got []dispatched
		for _, c := range bn.cores {
			for _, d := range c.got {
				got = append(got, dispatched{Warp: &protocol.PixelWarp{ID: d.Warp.ID, Entry: d.Warp.Entry}, Cycle: d.Cycle})
			}
		}
		return records(bn.rops[0]), got, st
	}
	r0, d0, s0 := run(MakeBuilder())
	r1, d1, s1 := run(MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.ShadingCacheEntries, c.RefBits = 16, 8 })))
	if !reflect.DeepEqual(r0, r1) || !reflect.DeepEqual(d0, d1) || !reflect.DeepEqual(s0, s1) {
		t.Fatalf("with the cache:\n%v\n%v\n%v\nwithout:\n%v\n%v\n%v", r1, d1, s1, r0, d0, s0)
	}
}

func TestShadingCacheModeErrors(t *testing.T) {
	a := testDraw4(0)
	four := protocol.VisibilityQuad{Live: [4]uint64{1}, Lookups: []decouple.Lookup{{N: 4}}}
	tests := []struct {
		name    string
		builder Builder
		msg     *protocol.VisibilityQuads
		want    string
	}{
		{"cache smaller than a sample's taps", MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.ShadingCacheEntries, c.RefBits = 2, 8 })), vis(a, 0, four),
			"ShadingCacheEntries (reorder_buffer.shading_cache_entries) 2 cannot hold the 4 taps of one sample"},
		{"no shading cache", MakeBuilder(), vis(a, 0, vquad(0, 10)), "has no shading cache"},
		{"look-ups for the wrong samples", MakeBuilder().WithConfig(testpeer.Edit(DefaultConfig(), func(c *Config) { c.ShadingCacheEntries, c.RefBits = 8, 8 })),
			vis(a, 0, protocol.VisibilityQuad{Live: [4]uint64{3}, Lookups: vquad(0, 10).Lookups}), "1 look-ups for 2 live samples"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := &timing.Halt{}
			bn := newBench(tc.builder.WithEnv(timing.Env{Halt: h}), benchConfig{cores: 1, rops: 1}, []scripted{{At: 0, Msg: tc.msg}})
			bn.run(t)
			if err := h.Reason(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}
