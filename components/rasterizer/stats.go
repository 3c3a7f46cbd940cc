package rasterizer

import (
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
	timing.AddTagged(n, add, k)
	add(n+"triangles_static", float64(k.Triangles5D[raster5d.Static]))
	add(n+"triangles_moving", float64(k.Triangles5D[raster5d.Moving]))
	add(n+"triangles_defocused", float64(k.Triangles5D[raster5d.Defocused]))
	add(n+"triangles_both", float64(k.Triangles5D[raster5d.Both]))
	c.Activity.Stats(c.Name(), add)
}

// Counters returns the counters so far.
func (c *Comp) Counters() Counters { return c.cnt }

// Buffers describes the rasterizer's queues for hang reports.
func (c *Comp) Buffers() []timing.BufferState {
	n := c.Name()
	fine := 0
	if c.pending {
		fine = 1
	}
	return []timing.BufferState{
		{Name: n + ".FromPrimitiveAssembly", Len: c.inBuf.Size(), Cap: c.inBuf.Capacity()},
		{Name: n + ".TileQueue", Len: c.tileQ.Len(), Cap: c.Cfg.TileQueue},
		{Name: n + ".FineStage", Len: fine, Cap: 1},
		{Name: n + ".OutputQueue", Len: c.outQ.Len(), Cap: c.Cfg.OutputQueue},
	}
}
