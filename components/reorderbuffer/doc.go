// Package reorderbuffer models the reorder buffer of gfxsim's sort-last GPU: the
// storage between the pixel shaders and the ROPs that puts shaded quads back into
// API order.
//
// # Hardware
//
// Pixel shading is the "fork" of the pixel pipeline: warps of quads run on many
// shader cores in parallel and finish out of order (texture misses, different
// cores, different loads). Depth and colour updates must still happen in API
// order at every sample, so before the ROPs comes the "join": the shaded quads are
// sorted back into the order they were issued in (Giesen, "A trip through the
// Graphics Pipeline 2011", part 9, ../shared/seeds/004_c86c00924c04c1f0.txt).
// Sort-last GPUs do this with reorder buffers of hundreds or thousands of entries
// before the ROPs: "output slots are allocated for every block of shading samples
// as it is sent to the shader, and they are freed as soon as they are consumed by
// the framebuffer update. When the reorder buffer is full, earlier stages of the
// pipeline stall" (Ragan-Kelley et al., "Decoupled Sampling for Graphics
// Pipelines", section 4.3, ../shared/seeds/000_d05aa74c03f6507c.txt; section 4.1
// finds about 1k quad entries effective). That paper turns this buffer into the
// shading cache of decoupled sampling; the entry structure (Entry, with a typed
// EntryState) is kept separate from the component for that reason.
//
// The structure follows MGPUSim's reorder buffer: a FIFO of entries allocated in
// order, filled out of order, retired from the head. Here the FIFO is a circular
// array of Entries quad entries, and a warp takes len(Quads) consecutive entries
// (wrapping around the end).
//
// # Ports
//
//   - FromQuadPacker (in, InputQueue messages): protocol.PixelWarp and
//     protocol.DrawEnd{draw, From: p} in packer order.
//   - ToShaderCores (out): copies of the PixelWarps with Entry set (the index of the
//     warp's first entry), to the ports in ShaderCores.
//   - FromShaderCores (in, ShadedQueue messages): protocol.ShadedWarp, one output
//     (pipeline.QuadOutput) per quad of the dispatched warp; in shading-cache
//     mode also protocol.ShadedLanes for the miss warps (protocol.ShadingWarp)
//     sent on ToShaderCores.
//   - ToROPs (out): protocol.ShadedQuads (quads of one draw and one partition) and
//     protocol.DrawEnd{draw, From: p}, to ROPs[p].
//   - Control (in/out, 2 messages, peer CommandProcessor): protocol.FlushCmd in,
//     protocol.Done{From: 0} out. In the tiled machine (configs/sortmiddle.yaml)
//     the peer is the tile unit, which flushes its back end at the end of each
//     screen tile; the sort-last machine leaves Control unconnected and
//     CommandProcessor nil, and nothing ever arrives there.
//
// ShaderCores, ROPs and CommandProcessor are peer fields the platform builder
// sets after building; len(ROPs) must equal NumPartitions.
//
// # The life of a warp
//
//  1. Dispatch (DispatchPerCycle messages per cycle). The PixelWarp at the head of
//     FromQuadPacker needs len(Quads) free entries. If they are not free it stays in
//     the port (activity full): the port fills and the packer stalls. Otherwise the
//     buffer sends a copy of the warp with Entry = the tail index to a shader core,
//     round-robin: it tries the next core in ShaderCores, then the following ones in
//     the same cycle when Send fails (activity blocked_dispatch when all refuse).
//     Only when a core accepted are the entries allocated (state shading, with the
//     quad's primitive, position, live mask, partition and warp ID) and the message
//     retrieved. A DrawEnd takes one marker entry, ready at once.
//  2. Fill (FillPerCycle shaded warps per cycle). A ShadedWarp writes each quad's
//     outputs into its entries (Warp.Entry + k) and marks them ready. Its entries
//     are always waiting, so this stage never stalls; a ShadedWarp whose entries are
//     not allocated to it is a protocol error.
//  3. Retire (RetirePerCycle entries per cycle), from the head, in order, only
//     ready entries: the longest run of ready quads of the same draw and the same
//     partition (at most the remaining budget) leaves as one ShadedQuads to
//     ROPs[partition] (quads whose samples the shader discarded go too: the ROP
//     counts them); a marker leaves as DrawEnd{draw, From: p} to ROPs[p] and uses one
//     entry of the budget. Entries are freed when their message is accepted. When a
//     ROP's Send fails, the message waits in the output register and retirement
//     stops (activity blocked_output) until the port frees: later entries, even for
//     other partitions, wait behind it.
//
// # Shading-cache mode (decoupled sampling)
//
// With Config.ShadingCacheEntries positive the buffer is also the shading cache
// of decoupled sampling (Ragan-Kelley et al. 2011, sections 4.2 and 4.3;
// cache.go), with ShadingCache[decouple.Tag] for the bookkeeping and one
// pipeline.ShadingLanes per cache entry. The ring holds 2D-path quads, markers
// and visibility records alike, so API order is kept across both paths.
//
//  1. Look-up (LookupsPerCycle distinct tags per cycle). The packer's
//     protocol.VisibilityQuads at the head of FromQuadPacker is taken quad by
//     quad; each quad is a pending record whose samples are looked up in
//     order, each distinct tag once per record (one reference per distinct tag
//     per record). A hit takes a reference (the entry may still be shading: the
//     record then waits for it); a miss takes the least recently used
//     unreferenced entry and adds a protocol.ShadingQuad to the open miss warp.
//     When every sample is looked up the record takes one ring entry (the
//     message leaves the port after its last quad).
//  2. Miss warps (QuadsPerWarp shading quads of one draw; numbered from 0, or
//     from WarpIDBase when set: a tile unit's reorder buffer on the tiled
//     machine) are queued (two at most) and dispatched round-robin like pixel warps when full, when the
//     draw changes, when a look-up stalls, or when no visibility quad waits in
//     the input (so nothing waits for ever). The core returns
//     protocol.ShadedLanes; fill writes the lanes into the entries and marks
//     them ready (ShadingCache.Filled).
//  3. Stalls. A miss with every entry referenced, or a hit on an entry whose
//     count is at the largest RefBits value, stalls the look-up: the cycles are
//     counted (cache_all_referenced_cycles, ref_overflow_cycles; the activity
//     says full), the open miss warp is flushed, and the record is split: its
//     samples whose taps are all referenced become a record of their own (with
//     those references; the rest of the quad follows in later records), the
//     rest waits and looks its taps up again. When such an earlier part is
//     ready at the head it is absorbed: its samples are reconstructed into a
//     split buffer and its references released, and it leaves merged with the
//     quad's last part as one ShadedVisibilityQuad (colours in pixel and
//     sample order), so ROPs and depth units see each visibility quad once
//     (statistic record_splits counts the splits). Records ahead
//     of it retire and release their references, so a cache of at least the
//     taps of one sample never deadlocks; a sample with more taps than
//     entries is a configuration error naming ShadingCacheEntries.
//  4. Retire. A record at the head retires when all its entries are ready:
//     each live sample's colour and keep bit come from pipeline.Reconstruct
//     over its taps (supersample mode: the lane of its pixel, and the
//     shader's depth), and a run of ready records of one draw and partition
//     (at most RetirePerCycle) leaves as one protocol.ShadedSamples to that
//     ROP; the references are released when the ROP accepts it.
//
// Without it (DefaultConfig; configs/sortlast.yaml and sortmiddle.yaml turn
// it on) nothing of this exists and
// a VisibilityQuads is a protocol error; 2D traffic has the same timing,
// messages and statistics either way.
//
// # Flush (the tiled machine's end of tile)
//
// A FlushCmd on Control waits in the port until the buffer is empty: no entry
// in use, no message waiting for a ROP and, in shading-cache mode, no
// visibility quad under look-up, no miss warp open or queued and no part of a
// split quad held (the tile unit sends it once the ROP reported every draw of
// the tile done, so it finds the buffer empty or about to be). In the cycle the
// buffer is empty it is taken: in shading-cache mode with Invalidate every
// cache entry is dropped (ShadingCache.Invalidate: the document's per-tile
// local cache, flushed when the tile ends; the next tile's first look-up of
// any tag misses), which needs every entry unreferenced: a reference left at
// that point is a protocol error that halts the run. Without the shading
// cache, or without Invalidate, the flush is only acknowledged. The Done is
// sent in the same cycle (or, when the port refuses, in a later one). The
// flush is taken before the dispatch stage runs, so work that reaches the
// input in the same cycle is looked up after it; but work of the next tile
// that arrives before the flush is taken delays it (the buffer is no longer
// empty), as in the ROP and the depth unit: the tile unit should send the
// next tile's work only after the Done of each of its units.
//
// Tick runs retire, fill, control and dispatch, back to front: a warp filled at
// cycle c retires at c+1 at the earliest, and entries retired at c can be
// allocated at c.
// With direct connections, a warp that reaches the port at cycle a is dispatched
// at a+1; its ShadedWarp reaching the port at s is retired at s+2.
//
// A message of an unexpected type or content stops the simulation through the
// Halt flag (a panic when none is set).
//
// # Parameters (Builder)
//
// MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name): env (timing.Env)
// gives the engine and clock (required), the halt and the progress; Config
// (DefaultConfig) holds:
//
//   - Entries (1024 quad entries), DispatchPerCycle (1), FillPerCycle (1),
//     RetirePerCycle (8 entries), NumPartitions (1), InputQueue (4 messages),
//     ShadedQueue (4 messages), WarpIDBase (0).
//   - Shading-cache mode: ShadingCacheEntries and RefBits (off, 8; configs:
//     reorder_buffer.shading_cache_entries 1024, ref_bits 8), QuadsPerWarp
//     (8; configs: quad_packer.quads_per_warp), LookupsPerCycle (4;
//     reorder_buffer.lookups_per_cycle).
//
// # Statistics
//
// Named "<component name>.<counter>": warps, quads, markers (allocated),
// shaded_warps (filled), retired_quads, retired_markers, rop_messages,
// flushes (FlushCmds answered),
// occupancy_average (entries in use averaged over cycles, up to Finish) and
// occupancy_max, and per-cycle activity: cycles_busy, cycles_full (the packer's next
// message waits for entries), cycles_blocked_output (a ROP refused),
// cycles_blocked_dispatch (every core refused), cycles_head_not_ready (waiting for
// shading), cycles_idle, with utilization. A cycle without progress is attributed
// to the first of full, blocked_output, blocked_dispatch, head_not_ready, idle
// that applies. In shading-cache mode also cache_hits, cache_hits_in_flight,
// cache_misses, cache_evictions, shading_quads, shading_warps,
// shaded_shading_warps, visibility_quads, visibility_records (records that
// entered the ring, split parts included), record_splits, retired_records,
// cache_entries_flushed (shaded entries dropped by FlushCmd),
// cache_all_referenced_cycles and ref_overflow_cycles (cycles the look-up
// stalled, which the activity counts as cycles_full: they are not states of
// their own, so their names do not start with cycles_, the prefix of the
// activity's states). Buffers reports both
// input ports, the entries in use and the output register, and the Control
// port when CommandProcessor is set (so the sort-last machine's hang reports
// are unchanged).
//
// Tasks (only when a tracer is attached, docs/design-timing.md section 10): each
// warp is a "pixel_warp" task "warp<id>@rob" below the packer's "warp<id>", from
// its allocation to the retirement of its last entry; a FlushCmd is a "flush"
// task "flush<msg ID>" below the sender's req_out task, from its taking to its
// Done. The shader core reports the miss warps ("shade<id>@core", or
// "tu<k>.shade<n>@core" with protocol.TileUnitWarpBase).
package reorderbuffer
