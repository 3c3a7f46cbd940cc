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
//	FromShaderCores  in   protocol.ShadedBatch, protocol.ShadedGeometry (any core, any order)
//	                 out  protocol.GeometryWarp to ShaderCores[k] (each core's ToPrimitiveAssembly)
//	ToMemory         out  the stream-out unit's mem.WriteReq, through a memclient.Client, to the port Memory finds
//	InputAssembler   in   protocol.BatchInfo (draw, number of batches, SkipStreamOut; sent after the draw's last batch)
//	                 out  protocol.BatchCredit (batch slots freed) to InputAssemblerPort
//	ToRasterizers    out  protocol.PrimitiveMsg, protocol.DrawEnd{draw, From: 0} to Rasterizers[r]
//
// The same unit is the tiled machine's (its output goes to the binner) and
// each SAGE pipe's (to the pipe's rasterizer); on SAGE, a draw's BatchInfo
// with SkipStreamOut (an empty chunk of a draw another pipe streams out)
// makes the unit leave the draw's stream-out buffers and counters alone.
//
// The platform sets InputAssemblerPort (the input assembler's port),
// Rasterizers (one port per rasterizer, indexed by rasterizer number),
// ShaderCores and Memory (a mem.LowModuleFinder), and calls SetMemory(image)
// before the first draw that streams out.
//
// # The geometry stage (geometry.go)
//
// Draws with a geometry shader or stream-out (Giesen, parts 10 and 11) take
// a longer path through assembly:
//
//   - GS warps. When a shaded batch of a draw with a geometry shader is
//     received (in any order), it is cut into GS warps of up to 64 primitives
//     (shader.MaxLanes; one per lane, as pipeline.ShadeGeometry cuts them;
//     primitive IDs from the batch's first primitive), queued and sent one
//     per cycle from FromShaderCores to the cores, round-robin from the core
//     after the last one used (a core whose GS queue is full is skipped in the
//     same cycle). The batch keeps its slot until its last output primitive
//     was taken, so a returning protocol.ShadedGeometry is always accepted,
//     whatever the slots.
//   - Reorder stage. The cores return the warps' outputs (strips already cut
//     into primitives, pipeline.AssembleEmitted) in any order; they wait in
//     the reorder stage, keyed by batch and warp number. Assembly takes the
//     current batch's warp 0's primitives, then warp 1's, and so on; while the
//     warp next in API order has not come back it waits (wait_gs_warp;
//     gs_warps_reordered counts the warps that came back before assembly
//     reached them). A stream-out draw without a geometry shader passes its
//     batch's primitives through (pipeline.PassThrough: adjacency dropped).
//   - One output primitive per cycle (TrianglesPerCycle) goes to the
//     stream-out unit, then, when the draw is rasterized, through
//     Geometry.Triangle numbered by its place among the draw's output
//     primitives (as the reference renderer numbers them), with the clipper's
//     extra cycles, into setup. A draw with rasterization off sends only its
//     end marker on.
//   - Stream-out unit. When the draw becomes current it takes each buffer's
//     write position (pipeline.BeginStreamOut: the bind offset, or the
//     counter the previous stream-out left in memory; draws are taken in API
//     order). Each primitive goes through pipeline.StreamOutWriter (D3D11
//     overflow: stop writing, keep counting); a written primitive queues one
//     byte range per buffer (its vertices' strides) in the write queue
//     (StreamOutQueue ranges: a primitive waits until its ranges fit,
//     wait_stream_out), which issues one request of at most 64 bytes, inside
//     one line, per cycle, at most StreamOutWrites in flight; the data is the
//     memory image's bytes (written functionally when the primitive went
//     through). At the draw's end the unit writes the filled-size counters and
//     the statistics (StreamOutWriter.End, then a write per counter), and the
//     end marker waits until every write of the draw is done (wait_stream_out):
//     the draw's DrawEnd, hence its DrawDone, means its stream-out is in
//     memory, which the command processor relies on for DrawAuto. Why here:
//     part 11 puts stream-out on assembled primitives after primitive
//     assembly (adjacency dropped), before clipping; a unit with its own
//     narrow write path ("only has access to one memory channel or something
//     of the sort"), not the ROPs' wide one.
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
// # Parameters (Config)
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
//	StreamOutQueue     16  stream-out byte ranges waiting to be written
//	StreamOutWrites    8   stream-out write requests in flight
//
// MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name) builds one; env's
// halt stops the unit (malformed input stops the run with an error naming the
// unit, the draw and the batch, through timing.Fault; Err returns it; without
// a halt flag, a unit alone, the error panics) and its progress counts one
// unit per message sent.
//
// # Statistics
//
// Stats reports, as "<name>.<counter>": the pipeline.GeometryStats counters
// triangles, rejected, clipped, clip_output, culled, set_up (equal to the
// reference renderer's Counters for the same draws); primitives (distributed),
// primitives_sent_r<i> (PrimitiveMsg per rasterizer), draw_ends, batches, draws,
// credits_returned; triangles_5d (5D-path triangles, each numbered), maps,
// map_degenerate_t1, map_degenerate_barycentric (decouple.MapStats of the 5D
// primitives set up: the reference's Counters.Decoupled.Map); gs_warps_sent,
// gs_warps_returned, gs_warps_reordered, gs_primitives (the reference's
// GSPrimitives), so_primitives_written, so_primitives_needed,
// so_bytes_written (the reference's SO counters), so_write_requests,
// so_write_bytes and the stream-out client's counters under
// "<name>.stream_out." (only once a draw has streamed out: the client is
// made then); and the activity: cycles_wait_gs_warp,
// cycles_wait_stream_out, cycles_busy (assembling, clipping, a
// primitive in the setup pipeline, distributing or sending), cycles_wait_batch
// (the next batch in order has not arrived), cycles_blocked_output (a
// rasterizer queue or the port is full), cycles_idle, utilization. Buffers
// reports the two input port buffers, the batch slots, the clipper, the setup
// pipeline and each rasterizer's output queue.
//
// Tasks (only when a tracer is attached, docs/design-timing.md section 10): each
// batch is a "primitive_assembly" task "draw<s>.t<first>.batch<b>@pa" below the input
// assembler's batch, from its first triangle to the moment its last primitive is
// sent to the rasterizers (out of its output queue: the unit is busy sending
// it).
package primitiveassembly
