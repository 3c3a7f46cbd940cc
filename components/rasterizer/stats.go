package rasterizer

import (
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/functional/raster5d"
	"github.com/gfxsim/gfxsim/timing"
)

// Stats reports the rasterizer's counters as "<name>.<counter>": primitives,
// draw_ends, tiles_tested, tiles_outside, tiles_partial, tiles_inside,
// tiles_filtered, tiles_empty, tiles_emitted, quads, covered_samples,
// fine_cycles; for the 5D primitives of decoupled draws triangles_static,
// triangles_moving, triangles_defocused, triangles_both, tiles_5d,
// sample_tests, samples_covered (see Counters); and cycles_busy, cycles_blocked_output, cycles_idle, utilization.
func (c *Comp) Stats(add func(name string, v float64)) {
	n := c.Name() + "."
	k := &c.cnt
	for _, s := range []struct {
		name string
		v    uint64
	}{
		{"primitives", k.Primitives},
		{"draw_ends", k.DrawEnds},
		{"tiles_tested", k.TilesTested},
		{"tiles_outside", k.TilesOutside},
		{"tiles_partial", k.TilesPartial},
		{"tiles_inside", k.TilesInside},
		{"tiles_filtered", k.TilesFiltered},
		{"tiles_empty", k.TilesEmpty},
		{"tiles_emitted", k.TilesEmitted},
		{"quads", k.Quads},
		{"covered_samples", k.CoveredSamples},
		{"fine_cycles", k.FineCycles},
		{"triangles_static", k.Triangles5D[raster5d.Static]},
		{"triangles_moving", k.Triangles5D[raster5d.Moving]},
		{"triangles_defocused", k.Triangles5D[raster5d.Defocused]},
		{"triangles_both", k.Triangles5D[raster5d.Both]},
		{"tiles_5d", k.Tiles5D},
		{"sample_tests", k.SampleTests},
		{"samples_covered", k.SamplesCovered},
	} {
		add(n+s.name, float64(s.v))
	}
	c.act.Stats(c.Name(), add)
}

// Counters returns the counters so far.
func (c *Comp) Counters() Counters { return c.cnt }

// Activity returns the activity accounting (busy, blocked_output, idle).
func (c *Comp) Activity() *timing.Activity { return c.act }

// Buffers describes the rasterizer's queues for hang reports.
func (c *Comp) Buffers() []timing.BufferState {
	n := c.Name()
	fine := 0
	if c.pending {
		fine = 1
	}
	return []timing.BufferState{
		{Name: n + ".FromPrimitiveAssembly", Len: c.inBuf.Size(), Cap: c.inBuf.Capacity()},
		{Name: n + ".TileQueue", Len: c.tileQ.len(), Cap: len(c.tileQ.buf)},
		{Name: n + ".FineStage", Len: fine, Cap: 1},
		{Name: n + ".OutputQueue", Len: c.outQ.len(), Cap: len(c.outQ.buf)},
	}
}

// Finish closes the activity accounting at time now.
func (c *Comp) Finish(now sim.VTimeInSec) { c.act.Finish(c.Freq.Cycle(now)) }
