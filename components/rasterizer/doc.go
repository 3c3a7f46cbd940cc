// Package rasterizer models one of the rasterizers of gfxsim's timed sort-last
// GPU ("GPU.Rasterizer[r]"; docs/design-timing.md, sections 2, 3 and 5): a
// coarse rasterizer that walks the screen tiles of a primitive that this
// rasterizer owns, and a fine rasterizer that turns each touched tile into 2x2
// quads with per-sample coverage.
//
// # Hardware
//
// Part 6 of "A trip through the Graphics Pipeline 2011"
// (../shared/seeds/004_c86c00924c04c1f0.txt): a Pineda-style rasterizer with
// integer edge functions works in two levels. The coarse rasterizer evaluates the
// edge functions at the maximising corner of each tile (8x8 pixels) of the
// triangle's bounding box to reject tiles no sample of which can be covered; it
// "doesn't need to be as fast" and small or thin triangles make it the
// bottleneck ("with tiny triangles, it's easy to get either triangle setup or
// coarse rasterization bound"; slivers "traverse tons of tiles"). The fine
// rasterizer then produces the coverage of a tile's pixels, in quads, with the
// scissor rectangle ANDed in. Part 8: since 2010 GPUs have several rasterizers,
// each owning an interleaved set of screen tiles; primitive assembly sends a
// triangle to every rasterizer owning a tile of its bounding box, and "everything
// that only sees individual tiles or quads (that is, the pipeline from
// hierarchical Z down) doesn't need to be modified". Part 7 places hierarchical
// Z between coarse and fine raster. gfxsim's HiZ unit (components/hiz, issue
// 5) is a component of its own after fine raster, one per ROP partition:
// ZMASK's coarse test needs per-sample coverage (Andersson et al. 2015 move
// coverage before the HiZ unit), and partition-owned HiZ tiles keep the depth
// unit's feedback local. The TileFilter seam (a synchronous per-tile hook
// between coarse and fine raster) stays for studies of tile-level culling
// that need no memory or feedback; the platform does not install one.
//
// The values come from functional/raster, exactly as the reference renderer
// computes them: Triangle.TestTile for the coarse test (the same classification
// Triangle.Tiles uses), Triangle.TileQuads for the quads of a tile, with the
// draw's raster.Config (protocol.Draw.Raster). The union over all rasterizers of
// the quads sent for a primitive is the reference renderer's, tile by tile.
//
// # Ports and peers
//
//	FromPrimitiveAssembly  in   protocol.PrimitiveMsg (with an optional Window, below),
//	                            protocol.DrawEnd (in API order; the port's buffer is the
//	                            primitive FIFO of InputQueue entries)
//	ToDepthUnits           out  protocol.TileQuads to DepthUnits[p], p = TileOwner(tx/k, ty/k, PartitionStride, P)
//	                            (k = PartitionTileRatio: raster tiles per partition tile, each way);
//	                            protocol.DrawEnd{draw, From: r} to every depth unit
//
// The platform sets DepthUnits (one port per partition: the FromRasterizers
// port of the partition's HiZ unit when the machine has HiZ units, as
// configs/sortlast.yaml does, else that of its depth unit) and may set
// TileFilter.
//
// # Life of a primitive
//
//  1. Coarse raster. When the coarse stage is free, at the start of a cycle it
//     takes the next message from the input FIFO. For a primitive it walks the
//     tiles of Triangle.TileRange(&d.Raster) that this rasterizer owns
//     (protocol.TileOwner(tx, ty, RasterStride, R) == r), in the draw's tile order
//     (d.Raster.TileOrder: row-major, or Morton order relative to the range's
//     first tile, i.e. the order of Triangle.Tiles restricted to the owned
//     tiles), testing TilesPerCycle owned tiles per cycle. Every owned tile of the
//     range is tested and counted, including those outside the triangle; tiles of
//     other rasterizers cost nothing. A tile that is not outside is offered to the
//     TileFilter (if any) and, if kept, goes into the tile queue (TileQueue
//     entries; when it is full the coarse stage stalls). The primitive holds the
//     coarse stage max(1, ceil(n/TilesPerCycle)) cycles for n owned tiles; the
//     next message is taken in the following cycle.
//  2. Fine raster. When the fine stage is free it takes the head of the tile
//     queue and computes Triangle.TileQuads. A tile with k quads occupies it
//     f = max(1, ceil(k/QuadsPerCycle)) cycles (a tile the coarse test could not
//     reject but that has no covered sample costs one cycle and sends nothing). A
//     non-empty tile becomes one protocol.TileQuads (Live = Coverage, Partition =
//     the owning depth unit), ready to be sent when the f cycles are over; it
//     needs a free entry in the output queue (OutputQueue) when the fine stage
//     starts it, else the tile waits in the fine stage (blocked_output).
//  3. Send. Ready messages leave the head of the output queue in order, as many
//     per cycle as the connection accepts; a refused send is retried when the
//     port frees up (the stream to each depth unit stays in API order).
//  4. End of draw. A DrawEnd from primitive assembly follows the same path
//     (one cycle in coarse, one in fine, behind the draw's last tile) and is sent
//     to every depth unit with From = r, so each depth unit sees it after every
//     tile of that draw from this rasterizer.
//
// # 5D primitives (decoupled draws)
//
// A primitive with Blur != nil (a decoupled draw's triangle on the 5D path,
// docs/design-timing.md section 11) is rasterized stochastically by
// functional/raster5d in 32x32-pixel tiles. The coarse stage walks the tiles
// of Blur.Tri.Tiles (Morton order over the tile range, the reference
// renderer's order) that this rasterizer has a share of
// (protocol.BlurTileOwned: it owns a raster tile the 32x32 tile overlaps; tiles
// of other rasterizers cost nothing), TilesPerCycle per cycle. The fine stage
// runs Blur.Tri.TileQuads on the whole tile with raster5d.Stats and is busy
// max(1, ceil(sample tests / SampleTestsPerCycle)) cycles; it keeps the quads
// in its own raster tiles and splits them by partition (the depth unit owning
// each quad's raster tile, as for 2D quads) into one TileQuads per partition
// with quads, in partition order, each in the tile's Z order, Live = coverage,
// named (TileX, TileY) by the tile of its first quad in units of min(raster
// tile, 32) pixels; they leave together when the fine cycles are over. With
// raster tiles of 32 pixels (the decoupled machine's) or more one rasterizer
// owns each 32x32 tile; with smaller raster tiles the owners of its raster
// tiles share it, each rasterizing it whole (the cost is paid by each; the
// 5D counters are counted once, by protocol.BlurTilePrimary). Sharing keeps
// every pixel's 2D and 5D quads on one rasterizer, so the depth and HiZ units
// see them in API order (their order rule, docs/design-timing.md section 3).
//
// # Windows (the tiled sort-middle machine)
//
// In a tile unit of the tiled machine (configs/sortmiddle.yaml) the
// rasterizer receives each primitive of a screen tile's bin with
// PrimitiveMsg.Window set to that screen tile; it then emits only the quads
// whose pixels lie inside the window (its corners are even, so a quad is
// wholly inside or outside; odd corners are malformed input and halt the run
// with an error naming PrimitiveMsg.Window). The 2D coarse walk covers only
// the owned raster tiles of the triangle's range that meet the window (the
// Morton order is then relative to the clamped range's first tile), and the
// fine rasterizer drops the quads of a raster tile outside the window before
// the tile is costed (k counts the kept quads) and sent; a raster tile larger
// than the window (32x32 raster tiles of a decoupled draw in 16x16 screen
// tiles) is fine-rasterized once per window it meets. The 5D walk skips the
// 32x32 tiles that miss the window, and rasterize5D tests only the samples of
// the window's pixels (raster5d's TileQuadsIn), so the fine cost is the
// window's share of the tile. A tile left without
// quads sends nothing (tiles_empty). An empty Window (the sort-last machine)
// changes nothing.
//
// Over the windows of a grid that covers the target, each quad is sent
// exactly once, with the mask it has without a window, so quads,
// covered_samples and samples_covered summed over the windows are the counts
// of rasterizing the primitive once. The per-primitive and per-tile counters
// count once per (primitive, window): primitives, triangles_*, tiles_tested and
// the coarse classes, tiles_5d, fine_cycles; sample_tests counts the tests
// done in each window (about the tile's, split by window; the block tests
// that skip samples may differ). Those sums
// exceed the reference renderer's Counters (Tiles, Decoupled.Triangles,
// Decoupled.Raster's tests) when a primitive is binned to several windows.
//
// # Timing
//
// Stages run back to front within a tick (send, fine, coarse), so a tile moves
// one stage per cycle. A primitive taken in cycle c has its j-th owned tile
// (from 0) tested in cycle c + floor(j/TilesPerCycle); its i-th surviving tile
// starts fine raster in s_i = max(test cycle + 1, s_{i-1} + f_{i-1}) and its
// TileQuads is sent in cycle s_i + f_i. For a primitive covering n owned tiles
// with k quads each and TilesPerCycle = 1 (fine-bound as f >= 1), tile i is sent
// in cycle c+1+(i+1)*f, and a DrawEnd right behind it in cycle c+2+n*f. With a
// direct connection a message sent in cycle s can be taken in cycle s+1.
// TestTimingPinned checks these cycles by hand for several parameter sets.
// While it waits only for the fine stage or for a message to become ready, the
// rasterizer sleeps and is woken (timing.Waker) in the cycle that ends the wait.
//
// # Parameters (Config)
//
//	Index r, NumRasterizers R (2), RasterStride (1)      tile ownership of the rasterizers
//	NumPartitions P (4), PartitionStride (1)             tile ownership of the depth units
//	PartitionTileRatio (1)                               raster tiles per partition tile, each way
//	TilesPerCycle   1   owned tiles tested per cycle
//	QuadsPerCycle   8   quads produced per cycle
//	SampleTestsPerCycle 64 5D sample tests per cycle (DefaultSampleTestsPerCycle: a choice)
//	InputQueue      16  primitive FIFO
//	TileQueue       4   coarse-to-fine queue (not in the YAML configuration; DefaultConfig's)
//	OutputQueue     16  messages waiting to be sent
//
// MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name) builds one; env's
// halt stops the rasterizer (malformed input sets it through timing.Fault,
// with an error naming the rasterizer that Err returns; without a halt flag,
// a rasterizer alone, the error panics) and its progress counts one unit per
// message sent. The TileFilter field installs a per-tile filter (nil, the
// platform's choice, keeps every tile; hierarchical Z is components/hiz).
//
// # Statistics
//
// Stats reports, as "<name>.<counter>": primitives, draw_ends, tiles_tested
// (owned tiles of the ranges), tiles_outside, tiles_partial, tiles_inside (the
// coarse classes; partial + inside summed over the rasterizers is the reference
// renderer's Counters.Tiles, inside its TilesInside), tiles_filtered (dropped by
// the TileFilter), tiles_empty (fine-rasterized without coverage), tiles_emitted
// (TileQuads sent), quads, covered_samples (summed over the rasterizers, and
// over the windows of a tiled machine: the reference's Quads and
// CoveredSamples), fine_cycles; for 5D primitives
// triangles_static, triangles_moving, triangles_defocused, triangles_both
// (counted by the rasterizer owning the first tile of the primitive's range),
// tiles_5d (32x32 tiles fine-rasterized here), sample_tests and
// samples_covered (raster5d.Stats, each tile counted once): summed over the
// rasterizers, the reference's Counters.Decoupled.Triangles and .Raster
// (without windows; with windows see "Windows" above); and the activity:
// cycles_busy, cycles_blocked_output (the output queue or the port is full),
// cycles_idle, utilization. Buffers reports the input FIFO, the tile queue, the
// fine stage and the output queue.
//
// Tasks (only when a tracer is attached, docs/design-timing.md section 10): each
// primitive is a "rasterize" task "draw<s>.prim<t>.<p>@r<index>" (t the API
// triangle, p the clip part) below its draw, from the coarse stage taking it to
// its last tile sent; each tile with covered samples is a "tile" task
// "draw<s>.prim<t>.<p>.tile<tx>.<ty>" below it, from fine raster to its
// TileQuads sent. A primitive with a Window (the tiled machine, where a
// primitive comes once per screen tile it was binned to) has ".win<x0>.<y0>"
// after its draw in both IDs (protocol.RasterizeTaskID, TileTaskID) and its
// rasterize task hangs below the tile unit's task of the draw in that screen
// tile ("draw<s>.win<x0>.<y0>", protocol.WindowDrawTaskID); its TileQuads
// carry the Window, so that the units downstream name their tasks alike.
// Passing on a DrawEnd is busy (a cycle of the coarse stage, messages sent)
// and no task holds it: a frame of many draws that rasterize nothing (the
// particles' stream-out passes: 63 of the rasterizers' 261 busy cycles) shows
// busy cycles outside the tasks (tracing's TestTraceAgreesWithStatistics).
package rasterizer
