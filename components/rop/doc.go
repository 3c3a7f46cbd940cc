// Package rop models the colour block of one screen partition's render back-end
// in gfxsim's sort-last GPU (docs/design-timing.md, sections 2 and 3): the ROP
// that merges shaded quads into the render target in API order.
//
// # Hardware
//
// Giesen, "A trip through the Graphics Pipeline 2011", part 9 ("the join
// phase"): the ROPs receive shaded quads sorted back into API order, run late
// Z/stencil when the draw needs it, blend with the render target
// (read-modify-write) and write the result back. Blending is a short,
// predictable fixed-function pipeline; the memory side works in DRAM pages
// (64-byte lines) through small buffers that act as caches; colour compression
// and fast clears use on-chip tag bits, and a cleared block costs no read the
// first time it is touched. MSAA samples are stored per sample; the resolve to
// the displayed image box-filters them. Here the partition's depth unit
// (components/depthunit) is the depth block the ROP sends its late-Z work to, so
// that early and late Z of a location share one unit and one depth cache.
//
// Colour compression (part 9, "Depth buffer and color buffer compression"): in
// an MSAA target, the pixels fully covered by one primitive hold the same
// colour in every sample; a block whose pixels all do is stored as one colour
// per pixel, with a flag in a small on-chip tag memory. Here a compression
// block is one colour-cache line (components/rop/rtcache has the details): the
// ROP registers the colour target of every draw, clear and present with its
// cache; a dirty line written back whose pixels each have all samples equal
// (checked on the memory image's bytes) moves LineSize/samples bytes and is
// tagged compressed, and a later miss on it reads that many bytes; any other
// line moves whole. The same tag memory holds the fast-clear state. It pays only
// when the block is at least the memory access unit (Cache.MinBlock: 64 bytes
// in DefaultConfig; configs sets the machine's DRAM burst, 32 bytes on
// configs/sortlast.yaml's GDDR6): RGBA8 at 4x MSAA needs 256-byte lines
// (64-byte blocks) with a 64-byte unit, 128-byte lines with a 32-byte one; at
// 1x, or with smaller lines, compression is never applied (counted as
// cache_compression_unusable). The
// memory image keeps the uncompressed contents: only the request sizes change.
//
// ROP p serves the screen tiles (tx, ty) of TileSize pixels (the partition
// tiles) with (tx + ty*PartitionStride) mod NumPartitions == p; every colour write of a sample happens in its partition's
// ROP, in the order the reorder buffer retires quads (API order).
//
// # Ports
//
//   - FromReorderBuffer (in): protocol.ShadedQuads (quads of one draw with their
//     live masks and shader outputs), protocol.ShadedSamples (visibility quads
//     of a decoupled draw's 5D primitives with per-sample colours) and
//     protocol.DrawEnd, in API order.
//   - DepthUnit (out/in, peer DepthUnitPort): protocol.LateZReq out, one per
//     ShadedQuads of a late-Z draw; protocol.LateZRsp in, in request order.
//   - ToMemory (out/in, peer Memory): colour line reads and write-backs (whole
//     lines, or compressed blocks at the line's address) and the resolve's
//     display-line writes (Cache.MinBlock each), through a memclient
//     (components/rop/rtcache).
//   - Control (in/out, peer CommandProcessor): protocol.ClearCmd,
//     protocol.PresentCmd and protocol.FlushCmd in; protocol.Done and
//     protocol.DrawDone{draw, p} out; the command processor also sends
//     FlushCmd at a sync token. In the tiled machine's tile unit the peer is
//     the tile unit, which sends only FlushCmd.
//
// The exported field Image must hold the simulated memory image: the render
// targets are views of it (the functional blend writes there), write-backs
// carry its bytes, and the resolve reads the colour target and stores the
// displayed pixels there.
//
// # The life of a message of shaded quads
//
//  1. Accept (one message per cycle, Window messages in flight): the shader's
//     kills are applied per quad (pipeline.Survivors); a quad with no sample
//     left is discarded. For a draw without early Z, one LateZReq with every
//     quad of the message (discarded ones included, with no live sample, so that
//     the depth unit's count of outstanding late-Z quads balances) is prepared.
//  2. Late Z: requests leave in order while fewer than LateZInFlight wait; the
//     answers come back in order and cut the live masks (a quad left with no
//     sample is culled by late Z). The message's quads are not looked up before
//     its answer arrived (activity wait_late_z), and later messages wait behind
//     it (order).
//  3. Lookup (QuadsPerCycle quads per cycle, in order): the colour-cache lines of
//     the quad's live samples (ColorDesc.Addr + Color.Address(x, y, s)) are looked
//     up: hits, misses that read the line (its compressed block when its tag
//     says compressed; at most Cache.MaxOutstanding requests in flight), misses
//     merged with a read in flight, cleared lines allocated at once without a
//     read, and lines the quad overwrites whole (an opaque write of every
//     sample of the line) allocated without a read. The quad waits in a ring of
//     WaitQuads quads until its lines arrived; a dirty victim is written back
//     with the image's bytes, compressed when its pixels allow.
//  4. Blend (QuadsPerCycle quads per cycle, in order): pipeline.BlendQuad writes
//     the live samples into the render target (in the memory image); the lines
//     become dirty (unless the write mask is empty). The write completes
//     BlendLatency cycles later.
//  5. Retire: a message is done when all its quads are written (or dropped) and,
//     for late Z, its answer arrived. A DrawEnd sends DrawDone{draw, p} to the
//     command processor once every earlier quad is written.
//
// Framebuffer prefetch (Config.PrefetchDistance; Giesen, part 9: the ROP fetches the
// framebuffer data of the quads it will blend into its buffers before they
// need it). With a distance D > 0, each cycle after the lookup, the ROP reads
// ahead the colour lines of the quad at the lookup cursor and of the D quads
// after it, in the order the messages arrived, within the window (the
// FromReorderBuffer port shows only its head, and messages enter the window at
// one per cycle while it has room). A late-Z message's quads are prefetched
// with their live samples before the depth unit's answer, which is when the
// lookup cannot run: late Z may then cull some of them and make their
// prefetches useless. Lines the quad overwrites whole and fast-cleared lines
// need no read and are skipped; present lines and lines being read cost
// nothing. Prefetches share the Cache.MaxOutstanding request slots: a
// prefetch is sent only while more than PrefetchReserve slots stay free,
// counting the requests in flight and the write-backs waiting to be issued, so
// that the last PrefetchReserve slots always go to demand misses and
// write-backs (rtcache.Cache.Prefetch). A prefetch blocked mid-quad resumes at
// the same line. Prefetch never changes what is written, only when: the
// image and the functional counts are those without it. The colour cache
// counts each prefetch as useful (a demand lookup or write used the line while
// it was cached), late (a demand lookup found its read still in flight and
// waited for it) or useless (evicted, dropped by a clear or flushed unused).
// Depth lines are not the ROP's to prefetch: the partition's depth unit owns
// the depth cache; an early-Z draw's depth lines were read before shading, and
// a late-Z draw's LateZReq leaves for the depth unit at acceptance, up to
// LateZInFlight messages ahead of the lookup, which is the depth side's own
// look-ahead. A cycle that only sent prefetches counts in the activity as the
// state the ROP was otherwise in (not busy).
//
// The counts follow pipeline.WriteQuad exactly: samples killed, written and
// blended, and every shaded quad ends discarded, culled by late Z, or written.
//
// A ShadedSamples (decoupled sampling, docs/design-timing.md section 11) takes
// the same steps, as the reference renderer's writeVisibility: at acceptance
// the live samples not in Kept are killed (samples_killed; a visibility quad
// with none kept is discarded); a late-Z draw's LateZReq carries each quad's
// kept samples (Live = Kept, Depths = the shader's depths when it writes
// depth), tested per sample by the depth unit; a quad whose kept samples all
// fail is culled by late Z; the colour lines of the surviving samples are
// looked up as a quad's, and each surviving sample is blended with its own
// reconstructed colour (pipeline.BlendSample, Colors in Kept order). A
// visibility quad costs one quad of QuadsPerCycle in lookup and blend (a
// pixel quad with all its samples: at most 4 x samples, like it), or with
// SamplesPerCycle > 0 its surviving samples at that rate in blend.
//
// Cost models (Config.Costs). CostFlat (DefaultCosts; configs/sortlast.yaml
// uses CostBySamples, cost: by_samples) is the above: a pixel quad
// costs one quad of QuadsPerCycle whatever its samples, format and blend.
// CostBySamples makes the blend rate depend on the work: every quad, pixel or
// visibility, costs its live samples, times Costs.WideFormat when the colour
// format has 64 bits or more per sample (RGBA32F) and times Costs.Blend when
// the draw blends (render target 0), at SamplesPerCycle (required then); the
// blend stage still takes at most QuadsPerCycle quads per cycle, and the
// lookups and the resolve keep the quad rate.
//
// Timing of one quad whose lines miss, with a 10-cycle memory (pinned in the
// tests): sent at cycle 0, accepted at 1, looked up at 2 (reads sent), the lines
// arrive at 14 and the quad is blended, the write completes at 18 and the
// DrawDone sent then reaches the command processor at 19.
//
// ClearCmd with the colour flag (once the ROP is empty): the target's lines
// leave the cache without write-back (the image already holds the clear) and are
// marked cleared (timing.ClearTags); Done. PresentCmd: the ROP resolves its
// tiles, one row of tiles at a time: every sample line of its tiles is read
// through the colour cache (QuadsPerCycle quads per cycle through the same
// lookup and pipeline; a compressed line is read as its block); when a row is
// through, the display lines (PresentCmd.Display, RGBA8, linear, Width*4 bytes
// per row; Cache.MinBlock per line) holding pixels of its tiles are
// written, each once and whole (a line shared with another partition's tiles
// carries their resolved pixels too: every draw is complete, so they are final;
// the image receives only this partition's pixels). Then every dirty colour line
// is written back, and Done is sent when the last write is acknowledged; the
// compression tags of the colour lines the resolve read are then counted
// (present_lines*).
//
// FlushCmd (at a sync token from the command processor, Invalidate false:
// write-back only, on the sort-last machine, docs/design-timing.md,
// coherence; at the end of a screen tile from a tile unit of the tiled
// machine, configs/sortmiddle.yaml, with Invalidate; the memory port is then
// the tile unit's on-chip tile memory): taken, like the other commands, once the ROP holds no message; it
// is a present's flush without the resolve: every dirty colour line is
// written back (each once, compressed when it can be), and once the last write
// is acknowledged, with Invalidate, every line leaves the cache
// (rtcache.Cache.Invalidate: the next tile starts cold; fast-clear tags stay,
// so a cleared line never written still fills without a read); then Done
// (From = Index) on Control. No message from the reorder buffer is accepted
// while a command is carried out.
//
// # Parameters (builder)
//
// MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name): env (timing.Env)
// gives the engine and clock (required), the halt and the progress; Config
// (DefaultConfig) holds Index (partition, 0), QuadsPerCycle (1),
// SamplesPerCycle (0: a visibility quad blends as one quad), Costs
// (DefaultCosts: flat, factors 1), Cache (16 KB, 4 ways, 64-byte lines,
// MaxOutstanding 8 memory requests, WriteQueue 8, Compression on, MinBlock 64:
// the memory access unit, the smallest compressed block used and the
// display-line size), BlendLatency (4 cycles), InputQueue (8 messages in the
// port), Window (16 messages in flight), LateZInFlight (4), WaitQuads (16),
// TileSize 8, PartitionStride 1, NumPartitions 1, PrefetchDistance (0: off)
// and PrefetchReserve (2; in [1, Cache.MaxOutstanding) when prefetching). The
// default machine (configs/sortlast.yaml) uses a 32 KB, 4-way colour cache
// with 256-byte lines, so that 4x MSAA lines compress.
//
// # Statistics (<name>.<counter>)
//
// messages_in, quads_in (pixel and visibility quads), visibility_quads_in,
// samples_killed, samples_written, samples_blended,
// quads_written, quads_discarded, quads_late_z_culled, late_z_requests,
// late_z_quads, draw_ends, draw_dones, clears, presents, flushes, resolve_quads,
// resolve_lines, resolve_bytes; present_lines (colour lines the resolves read),
// present_lines_compressed and present_lines_cleared (their tags once the
// present's flush is done) and present_compressed_fraction (compressed /
// lines); the colour cache's cache_hits, cache_misses, cache_misses_merged,
// cache_cleared_fills, cache_overwrite_fills, cache_line_reads,
// cache_evictions, cache_write_backs, cache_line_writes_uncached (display
// lines), cache_cleared_lines, cache_invalidated_lines (FlushCmd with
// Invalidate), cache_hit_rate, cache_line_reads_compressed,
// cache_line_reads_uncompressed, cache_write_backs_compressed,
// cache_write_backs_uncompressed, cache_compression_bytes_saved,
// cache_compression_unusable, bytes_read, bytes_written and memory.* (the
// memory client; prefetch reads count in cache_line_reads, bytes_read and the
// compression counters, cache_hits and cache_misses count demand lookups);
// prefetch_issued, prefetch_useful, prefetch_late and prefetch_useless; cycles_busy, cycles_wait_late_z, cycles_wait_memory,
// cycles_blocked_output, cycles_idle and utilization.
//
// Tasks (only when a tracer is attached, docs/design-timing.md section 10): each
// ShadedQuads is a "rop_write" task "rop<msg ID>" below its draw, from acceptance
// to retirement; its LateZReq is a req_out task below it, its colour-cache reads
// and the write-backs it causes hang below it. A ClearCmd is a "clear" task, a
// PresentCmd a "resolve" task, a FlushCmd a "flush" task ("clear<msg ID>",
// "resolve<msg ID>", "flush<msg ID>") below the sender's req_out task until the
// Done; the resolve's reads and writes and the write-backs of the flush hang
// below it.
package rop
