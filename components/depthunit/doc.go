// Package depthunit models the depth/stencil block of one screen partition's
// render back-end in gfxsim's sort-last GPU (docs/design-timing.md, sections 2
// and 3): the unit that runs early Z on quads from the rasterizers, late Z for its
// ROP, and owns the partition's depth cache.
//
// # Hardware
//
// Giesen, "A trip through the Graphics Pipeline 2011" (part 7, "Z/Stencil
// processing, 3 different ways"): GPUs test depth and stencil *before* pixel
// shading when the shader neither discards nor writes depth (early Z), and after
// shading otherwise (late Z). Both paths read and write the same depth buffer in
// API order, through a small cache of depth lines (part 9: DRAM pages of 64 bytes
// are the natural transaction; the ROPs' buffers act as caches). Going from a
// late-Z draw back to an early-Z draw is a race: early Z could test a sample
// before the late-Z test of an earlier draw wrote it. This unit implements the
// "separate unit that keeps track of Z-writes and enforces the ordering" that
// part 7 lists as the real solution: both paths go through the same unit, and an
// early-Z quad of draw D is not tested while late-Z quads of draws before D that
// passed through the unit are still unanswered. Fast clears (part 7, Z
// compression; part 9, clears): a cleared target's lines are marked in on-chip
// tag bits and their first miss costs no memory read. Z compression (part 7:
// "infer [the plane equations] from the Z data and use some integer
// delta-coding scheme", with a few tag bits per tile on chip): a dirty line of
// the depth target is written back in the size functional/depth/hiz.DepthCodec
// gives it (a plane-predicted delta code, rounded up to whole DRAM access
// units), its size kept as the line's tag in the cache (rtcache), and a later
// miss reads that many bytes. With 64-byte lines and a 64-byte access unit
// nothing can be saved; 256-byte lines (4x4 pixels at 4x) compress a
// one-plane line to 64 bytes.
//
// The write-ordering rule chosen for switches between early and late Z is
// Giesen's fourth option, "a separate unit that keeps track of Z-writes and
// enforces the correct ordering": this unit does both early and late Z, and
// an early-Z quad of draw D waits (late_z_drain) until the late-Z quads of
// draws before D that passed through the unit were answered; switching from
// early to late Z needs no wait. The cases that force late Z come from the
// shader (state.Draw.EarlyZ: discard/alpha test or a depth output).
//
// Hierarchical Z (components/hiz) sits in front of the unit: with a HiZ unit
// the messages of FromRasterizers come from it (already culled), and the unit
// relays depth clears, presents and sync-token flushes to it and sends it
// z-max feedback.
//
// One depth unit and one ROP serve each partition p: the partition tiles (tx,
// ty) of the rop section's tile_size pixels with (tx + ty*S) mod P == p (S the
// rop section's stride: the rasterizers' PartitionStride and
// PartitionTileRatio). Every depth test of a sample happens
// in its partition's unit, in API order.
//
// # Ports
//
//   - FromRasterizers (in): protocol.TileQuads (one primitive's quads in one tile,
//     Live = coverage) and protocol.DrawEnd from each of the R rasterizers.
//   - ToQuadPacker (out, to QuadPacker): TileQuads with the surviving quads (one
//     per input TileQuads that has survivors, in input order), passed-through
//     TileQuads of late-Z draws, and one DrawEnd{draw, From: p} per draw once it
//     came from all R rasterizers.
//   - ROP (in/out, peer ROPPort): receives protocol.LateZReq, sends
//     protocol.LateZRsp with one pass mask per requested quad, in request order.
//   - ToMemory (out/in, peer Memory): 64-byte depth line reads and write-backs
//     through a memclient (package components/rop/rtcache holds the cache).
//   - Control (in/out, peer CommandProcessor): protocol.ClearCmd,
//     protocol.PresentCmd and protocol.FlushCmd in, protocol.Done out (in the
//     tiled machine's tile unit the peer is the tile unit, which sends only
//     FlushCmd).
//   - ToHiZ (out, peer HiZ; only with a HiZ unit): protocol.HiZFeedback and
//     the relayed protocol.HiZControl (a depth clear, a flush at Present or at
//     a sync token); the
//     HiZ unit's protocol.Done comes back on FromRasterizers.
//
// The exported field Image must hold the simulated memory image: the functional
// depth buffer lives there (state.Draw.DepthBuf is a view of it) and write-backs
// carry its bytes.
//
// # The life of a tile of quads
//
//  1. Accept: a TileQuads from the rasterizers enters the unit's window of
//     TileWindow messages in flight (it waits in the port when the window is
//     full). A tile of a late-Z draw (!State.EarlyZ) becomes a pass-through:
//     its quads count as outstanding late-Z work of the unit (per draw). A
//     DrawEnd is counted; the R-th one of a draw joins the window as a marker.
//  2. Lookup (SamplesPerCycle samples per cycle, late requests first): for each
//     quad in order, the depth-cache lines of its covered samples
//     (DepthDesc.Addr + DepthBuf.Address(x, y, s), plus the D32F stencil plane's
//     StencilAddress when stencil is on) are looked up: hits, misses that send a
//     line read (at most Cache.MaxOutstanding requests in flight), misses merged
//     with a read in flight, and cleared lines that are allocated at once with no
//     read. The quad waits in a ring of WaitQuads quads until its lines arrived.
//     Hazard: an early-Z quad of draw D is not looked up while late-Z quads of a
//     draw before D are outstanding (activity late_z_drain).
//  3. Test (SamplesPerCycle samples per cycle, late requests first, in order per
//     stream): when the quad's lines are present, pipeline.EarlyDepth computes its
//     survivors and updates the depth buffer in the memory image; the lines
//     written (depth words of passing samples when depth writes are on, and the
//     stencil bytes of tested samples when the stencil can change) become dirty.
//     The result leaves the test pipeline TestLatency cycles later.
//  4. Output: quads with no survivor are dropped (quads_culled_early_z); the
//     rest of the tile goes to the packer as one TileQuads, in order with the
//     pass-throughs and DrawEnd markers (one message per cycle). A tile with no
//     survivor at all sends nothing. One exception to the order: when the head
//     of the window is an early-Z tile waiting for the late Z of an earlier
//     draw, the pass-through tiles and DrawEnd markers of earlier draws queued
//     behind it leave first (bypassed). They come from another rasterizer (one
//     rasterizer ran ahead), so they cover other raster tiles and each pixel's
//     order is kept; without this the unit would wait for late-Z work that
//     cannot leave it.
//
// A LateZReq (the ROP sends every quad of a late-Z draw, even those the shader
// discarded entirely, so the outstanding count balances) follows the same steps
// in its own stream: pipeline.LateDepth per quad (with the shader's depth when it
// writes one), one LateZRsp with the pass masks in request order. The late stream
// has its own ring and pipeline and goes first at every shared step, so late
// requests never wait behind early work (the drain always completes). When the
// response leaves, the draw's outstanding late-Z quads drop, and waiting early
// quads are looked up in the same cycle.
//
// Visibility quads of 5D primitives (decoupled draws, Prim.Blur != nil) take
// the same path with per-sample tests: early Z with
// pipeline.EarlyDepthSamples (each sample's own depth and facing,
// raster5d.Triangle.SampleDepth and FrontFacing), late Z with
// pipeline.LateDepthSamples (each kept sample at its own depth, or at the
// shader's depth LateZQuad.Depths clamped to the depth range when the pixel
// shader writes depth: one depth per live sample, else the unit halts with
// an error). They read and write the same depth-cache lines per touched
// sample as a pixel quad's samples and count in samples_tested_early/late.
//
// Memory: a miss's line read returns after the memory latency; the line is then
// allocated in its set's LRU way, and a dirty victim is written back with the
// bytes the image holds at that moment. Writes go before new reads.
//
// ClearCmd (once the unit is empty): for the depth and/or stencil planes the
// command clears (D24S8 only when both are cleared: they share the words), the
// target's lines leave the cache without write-back (the image already holds the
// clear) and every line is marked cleared (timing.ClearTags); with a HiZ unit a
// depth clear is relayed to it (HiZControl with the cleared key, read from the
// image) and Done is sent once the HiZ unit acknowledged. PresentCmd: every
// dirty line is written back, the HiZ unit is told to flush; Done is sent when
// the last write is acknowledged and the HiZ unit answered (the frame's depth
// and HiZ traffic is then complete).
//
// FlushCmd comes from the command processor at a sync token (Invalidate
// false: write-back only; the sort-last machine, docs/design-timing.md,
// coherence) and from a tile unit at the end of a screen tile (Invalidate;
// the tiled machine, configs/sortmiddle.yaml, where the memory port is the
// tile unit's on-chip tile memory and there is no HiZ unit). Once the unit is
// empty, as for the other commands, every dirty depth line is written back
// (each once, compressed when it can be); with a HiZ unit a HiZ flush is
// relayed as at a Present, and Done waits for both; once the last write is
// acknowledged, with Invalidate, every line leaves the cache
// (rtcache.Cache.Invalidate: the next tile starts cold; fast-clear tags stay,
// so a cleared line never written still fills without a read); then Done
// (From = Index). A depth unit with a HiZ unit refuses only an invalidating
// FlushCmd: the run halts with an error naming the unit and the command (the
// HiZ unit has no per-tile invalidate).
//
// HiZ feedback (Config.HiZ and its Feedback): UpdateFeedback sends, right after
// the last quad of a message (a TileQuads, or a LateZReq) was tested, the
// bounds of the HiZ tiles its quads touched, measured in the image, stamped
// with that quad's API position (the depth buffer then holds every earlier
// primitive and nothing later, by the ordering rule above); EvictFeedback
// sends, when a dirty depth line is evicted, the bounds of the HiZ tiles with
// samples in it whose every line was in the cache, stamped with the latest
// position tested. Feedback waits in a queue of FeedbackQueue messages (with
// the relayed control); when it is full new feedback is dropped.
//
// Timing of one miss with a 10-cycle memory (pinned in the tests): a TileQuads
// sent at cycle 0 is accepted at 1, looked up at 2 (read sent), the answer
// arrives at 14, the quad is tested at 14 and its TileQuads leaves at 18.
//
// # Parameters (builder)
//
// MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name): env (timing.Env)
// gives the engine and clock (required), the halt and the progress; Config
// (DefaultConfig) holds Index (partition, 0), NumRasterizers (1),
// SamplesPerCycle (32), Cache (32 KB, 4 ways, 64-byte lines, MaxOutstanding
// 8 memory requests, WriteQueue 8 write-backs queued before misses stall,
// Compression off, MinBlock: the access unit), HiZ (none: the partition's
// HiZ configuration), FeedbackQueue (16), TestLatency (4 cycles), InputQueue
// (8 messages in the FromRasterizers port), TileWindow (8 messages in
// flight), LateQueue (4 late-Z requests) and WaitQuads (32 quads per stream
// waiting for lines).
//
// # Statistics (<name>.<counter>)
//
// tiles_in, quads_in, tiles_out, quads_out, tiles_culled (tiles with no
// survivor), pass_through_tiles, pass_through_quads, bypassed (earlier draws'
// messages sent past a waiting early-Z tile), samples_tested_early,
// samples_tested_late, samples_passed, samples_failed (early and late),
// quads_culled_early_z, late_z_requests, late_z_quads, draw_ends_in,
// draw_ends_out, clears, presents, flushes, feedback_messages, feedback_tiles,
// feedback_dropped; the depth cache's cache_hits, cache_misses,
// cache_misses_merged, cache_cleared_fills, cache_line_reads, cache_evictions,
// cache_write_backs, cache_cleared_lines, cache_invalidated_lines (FlushCmd
// with Invalidate), cache_hit_rate, bytes_read,
// bytes_written (the depth traffic), the Z compression counters
// (cache_line_reads_compressed, cache_line_reads_uncompressed,
// cache_write_backs_compressed, cache_write_backs_uncompressed,
// cache_compression_bytes_saved, cache_compression_unusable), the cache's
// counters of accesses the unit never makes (cache_overwrite_fills,
// cache_line_writes_uncached: always 0) and memory.* (the memory client);
// cycles_busy,
// cycles_wait_memory, cycles_late_z_drain, cycles_blocked_output, cycles_idle
// and utilization.
//
// Tasks (only when a tracer is attached, docs/design-timing.md section 10): each
// TileQuads is a "tile" task "<primitive>.tile<tx>.<ty>@du" below the
// rasterizer's tile task until its survivors are sent or all are culled (with
// the TileQuads' Window in the IDs on the tiled machine, which the survivors'
// TileQuads keep); each
// LateZReq a "late_z" task "latez<msg ID>" below the ROP's req_out task of the
// request until the answer. Depth-cache reads hang below the task whose lookup
// missed, write-backs below the task whose test or fill evicted the line. A
// ClearCmd is a "clear" task, a PresentCmd or a FlushCmd a "flush" task
// ("clear<msg ID>", "flush<msg ID>") below the sender's req_out task, until the
// Done; the flush's write-backs and the relayed HiZControl hang below it.
package depthunit
