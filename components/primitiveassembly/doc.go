// Package primitiveassembly models the primitive assembly, clip/cull and
// triangle setup unit of gfxsim's timed sort-last GPU ("GPU.PrimitiveAssembly";
// docs/design-timing.md, sections 2, 3 and 5).
//
// # Hardware
//
// Part 5 of "A trip through the Graphics Pipeline 2011"
// (../shared/seeds/004_c86c00924c04c1f0.txt) describes this block: blocks of
// shaded vertices come back from the shader units, each holding a whole number
// of primitives, and are made "sure they're in the right order" before their
// triangles are assembled (three vertices each, through the block's small index
// list), tested against the view frustum with clip codes (trivial reject),
// clipped when they cross the near/far or guard-band planes (infrequent, so an
// expensive path), projected, mapped by the viewport, snapped to 8 sub-pixel
// bits and culled (zero area, back faces). Part 6 adds triangle setup (edge
// equations, the coarse rasterizer's reference corners), and part 8 the work
// distribution between several rasterizers: "the bounding box of the triangle is
// consulted to find out which triangles to hand over to which rasterizers; large
// triangles will always be sent to all rasterizers, but smaller ones can hit as
// little as one tile and will only be sent to the rasterizer that owns it". API
// order must be restored before rasterization, not later.
//
// Every value comes from the functional model: one pipeline.Geometry per draw
// (pipeline.NewGeometry(d.State, &d.Raster)) whose Triangle method does the
// clip codes, clipping, divide, viewport, snap, cull and raster.Setup, exactly
// as the reference renderer calls it, in the same order, so the primitives and
// the pipeline.GeometryStats counters are the reference renderer's.
//
// # Ports and peers
//
//	FromShaderCores  in   protocol.ShadedBatch (any core, any order)
//	InputAssembler   in   protocol.BatchInfo (draw, number of batches; sent after the draw's last batch)
//	                 out  protocol.BatchCredit (batch slots freed) to InputAssemblerPort
//	ToRasterizers    out  protocol.PrimitiveMsg, protocol.DrawEnd{draw, From: 0} to Rasterizers[r]
//
// The platform sets InputAssemblerPort (the input assembler's port) and
// Rasterizers (one port per rasterizer, indexed by rasterizer number).
//
// # Life of a batch
//
//  1. Receive (last stage of a tick). Every BatchInfo is taken at once. Shaded
//     batches are taken while one of the BatchSlots is free; the input assembler
//     holds one credit per slot and spends one per dispatched batch, so a shaded
//     batch always finds its slot (docs/design-timing.md, section 3). A batch
//     that arrives early (out of order: the cores finish in any order) waits in
//     its slot.
//  2. Order. Draws are consumed one after another in the order they became known
//     (the first BatchInfo or ShadedBatch naming them; the input assembler sends
//     a draw's BatchInfo before any batch of the next draw, so this is API
//     order; among draws not yet started, a smaller protocol.Draw.Seq goes
//     first). Within the current draw, batches are consumed by
//     ShadedBatch.Seq: 0, 1, 2, ... While the next batch in order is missing the
//     unit waits (stall cause wait_batch).
//  3. Assemble (TrianglesPerCycle API triangles per cycle, in order). For each
//     triangle the draw's Geometry.Triangle gives zero or more primitives
//     (allocated per triangle: messages share pointers to them, so they are never
//     reused). Each primitive is numbered in its draw (PrimitiveMsg.Index, from 0
//     in API order) and its owner set is computed: the rasterizers owning at
//     least one tile of Triangle.TileRange(&d.Raster), walking the range row by
//     row (NumRasterizers columns per row suffice) until all NumRasterizers are
//     found or the range ends; ownership is protocol.TileOwner(tx, ty,
//     RasterStride, NumRasterizers). The triangle's primitives enter the setup
//     pipeline as one item. A triangle that needs clipping occupies the stage
//     ClipCycles more cycles: it enters the setup pipeline ClipCycles after it
//     was taken, and the next triangle is taken one cycle after that.
//     Decoupled draws (decoupled sampling, docs/design-timing.md section
//     11): the unit keeps a pipeline.PatternCache and builds each draw's
//     pipeline.NewDecoupled(d.State, &d.Raster, cache, PatternSeed) when it
//     first sees the draw. A triangle of such a draw for which Takes5D holds
//     takes the 5D path: it gets the next primitive number of the frame
//     (counted by the unit from 0, for every 5D-path triangle in API order,
//     rejected ones too, exactly as the reference renderer) and
//     Geometry.Triangle5D sets it up (never clipped). Its owner set is
//     protocol.BlurOwners over raster5d.Triangle.TileRange: the rasterizers
//     owning a raster tile that one of its 32x32 tiles overlaps (with
//     32-pixel raster tiles: TileOwner over the 32x32 tile coordinates). It
//     holds the assembly stage Setup5DCycles more cycles, as the clipper does.
//     Other triangles take today's path.
//  4. Free the slot. When a batch's last triangle was taken, its slot is freed
//     and a credit is sent to the input assembler in the next cycle (credits
//     freed in one cycle go as one BatchCredit; one per batch in practice).
//  5. End of draw. When the current draw's BatchInfo has arrived and all its
//     batches were taken, an end marker enters the setup pipeline behind its last
//     triangle (taking one of that cycle's TrianglesPerCycle slots) and the next
//     draw becomes current.
//  6. Setup pipeline: SetupLatency cycles (timing.Pipeline, TrianglesPerCycle
//     wide, holding SetupLatency*TrianglesPerCycle items).
//  7. Distribute: up to TrianglesPerCycle primitives per cycle leave the
//     pipeline head, in order, each into the output queue of every rasterizer in
//     its owner set (a PrimitiveMsg per rasterizer); a primitive moves only when
//     all those queues have room (else stall cause blocked_output; the pipeline
//     backs up into assembly). An end marker puts DrawEnd{draw, From: 0} into
//     every rasterizer's queue, so it follows the draw's last primitive on every
//     output, including rasterizers that got none of the draw's primitives.
//  8. Send (first stage of a tick): the head of each rasterizer's queue (one
//     message per rasterizer per cycle) goes out on ToRasterizers; a failed send
//     is retried (the port wakes the unit when the connection frees up).
//
// # Timing
//
// Stages run back to front in a tick, so an item moves one stage per cycle. With
// a direct connection and TrianglesPerCycle = 1, a batch of n triangles that
// needs no clipping, received in cycle c, has its triangles assembled in cycles
// c+1 .. c+n, triangle i's primitive distributed in cycle c+1+i+SetupLatency and
// sent in the next cycle; the credit is sent in cycle c+n+1; when the BatchInfo
// is there, the end marker enters setup in cycle c+n+1 and DrawEnd is sent in
// cycle c+n+2+SetupLatency. A 5D-path triangle taken in cycle t enters setup
// in cycle t+Setup5DCycles (TestBlurPrimitiveOwners). A clipped triangle taken in cycle t enters setup in
// cycle t+ClipCycles and its k primitives are distributed one per cycle from
// t+ClipCycles+SetupLatency. TestTimingPinned checks these cycles by hand. While
// items are only in flight in the setup pipeline or the clipper, the unit sleeps
// and is woken (timing.Waker) in the cycle the next one is ready.
//
// # Parameters (Builder)
//
//	BatchSlots         16  shaded batches held; must equal the input assembler's credits
//	TrianglesPerCycle  1   triangles assembled and primitives distributed per cycle
//	ClipCycles         8   extra cycles of a triangle that needs clipping
//	SetupLatency       20  setup pipeline latency in cycles
//	OutputQueue        16  messages queued per rasterizer
//	NumRasterizers     2   (at most MaxRasterizers = 64)
//	RasterStride       1   protocol.TileOwner stride of the rasterizer interleave
//	Setup5DCycles      16  extra cycles of a 5D-path triangle (DefaultSetup5DCycles: a choice, about two clips)
//	PatternSeed        1   seed of the 5D lens and time pattern (pipeline.DefaultPatternSeed; the
//	                       reference renderer's Options.PatternSeed must be the same)
//
// plus WithEngine, WithFreq, WithHalt (malformed input stops the run with an
// error naming the unit, the draw and the batch; Err returns it, also without a
// halt flag) and WithProgress (one unit per message sent).
//
// # Statistics
//
// Stats reports, as "<name>.<counter>": the pipeline.GeometryStats counters
// triangles, rejected, clipped, clip_output, culled, set_up (equal to the
// reference renderer's Counters for the same draws); primitives (distributed),
// primitives_sent_r<i> (PrimitiveMsg per rasterizer), draw_ends, batches, draws,
// credits_returned; triangles_5d (5D-path triangles, each numbered), maps,
// map_degenerate_t1, map_degenerate_barycentric (decouple.MapStats of the 5D
// primitives set up: the reference's Counters.Decoupled.Map); and the activity: cycles_busy (assembling, clipping, a
// primitive in the setup pipeline, distributing or sending), cycles_wait_batch
// (the next batch in order has not arrived), cycles_blocked_output (a
// rasterizer queue or the port is full), cycles_idle, utilization. Buffers
// reports the two input port buffers, the batch slots, the clipper, the setup
// pipeline and each rasterizer's output queue.
//
// Tasks (only when a tracer is attached, docs/design-timing.md section 10): each
// batch is a "primitive_assembly" task "draw<s>.t<first>.batch<b>@pa" below the input
// assembler's batch, from its first triangle to the moment its last primitive is
// queued for the rasterizers.
package primitiveassembly
