// Package texturesampler models the texture sampler of a shader core
// ("GPU.TextureSampler[k]", one per core, or one per cluster of
// texture_sampler.cores_per_sampler cores) in gfxsim's timed sort-last GPU: a
// long, in-order pipeline that turns a warp's texture requests into filtered
// values, with a small L1 of texel lines in front of the shared texture L2
// (docs/design-timing.md, section 5; Giesen, "A trip through the Graphics
// Pipeline 2011", part 4: requests arrive 16-64 lanes at a time, the sampler
// computes LOD and texel addresses, a first-level cache "on the order of 4-8kb
// per sampler" sees about 1.25 misses per bilinear request, and "texture
// sampler pipes are long enough to not stall for a memory read even though it
// takes 400-800 cycles").
//
// The values come from the functional model: every lane is filtered with
// pipeline.SampleBinding (exactly what the reference renderer computes, in
// every format, texture type, address mode and filter up to 16x
// anisotropic), whose recorded taps (texture.Tap: level, x, y, slice) give
// the texels the filter reads. The sampler decides only when a response
// leaves and what memory traffic it causes. An unbound unit (Binding.Texture
// nil) answers zeros without reading memory, like pipeline.TextureUnits; a
// Border tap reads the border colour and no memory either.
//
// # The decompressed L1
//
// The L1 holds decoded texels (Giesen: blocks are decoded "when it's brought
// into the L1 cache", sRGB texels converted so that filtering happens in
// linear space, "so you might want to increase L1 texture size; not because
// you need to cache more texels, but because the texels you cache are
// fatter"). It is tagged in the texture's decoded address space
// (texture.DecodedAddress): every texel takes Format.DecodedBytes (RGBA8 and
// BC1-BC3 4 bytes, sRGB and RGBA16F 8, RGBA32F 16, R8 and BC4 1, RG8 and BC5
// 2), texels sit in 4x4 tiles, and the space of the texture whose data is at
// address A starts at A << texture.DecodedSpaceShift, so distinct textures
// never share a line. A 64-byte line thus holds a 4x4 tile of RGBA8 or of a
// decoded BC1-BC3 block, half a tile of sRGB, a quarter of RGBA32F. A miss
// reads the stored bytes the line is decoded from (texture.FillRanges: one
// 8-byte block for BC1, 32 bytes for a half tile of sRGB, four 16-byte rows
// of a tile of a Linear RGBA8 texture), in reads of at most FetchBytes that
// never cross a FetchBytes boundary; the fill path converts them (counted as
// fill_decodes: blocks decoded and sRGB texels widened) and writes the line.
// The data address comes from the texture's descriptor in the memory image
// (command.ReadTextureDescriptor at Binding.Desc).
//
// # Ports
//
//   - Core (both ways): protocol.TexRequest from the shader core (its buffer is
//     the input queue, InputQueue requests) and protocol.TexResponse back to
//     CorePort (or, when CorePort is nil, to the request's source port).
//   - ToL2: reads of stored texture bytes (Akita mem.ReadReq of at most
//     FetchBytes, inside one FetchBytes-aligned block) to the L2 bank that L2
//     (a mem.LowModuleFinder) names for the address, through a
//     components/memclient Client with MissQueue outstanding reads; the
//     buffer holds MissQueue responses, so a response is never refused.
//   - Control (both ways): protocol.FlushCmd from the command processor at a
//     sync token, taken once no request is in flight; with Invalidate every
//     L1 line is dropped (the L1 is read-only: nothing to write back). The
//     answer, protocol.Done, goes to the command's source.
//
// The optional Observer (an L1Observer: the coherence checker of
// components/coherence) is told of every miss (the stored byte ranges of the
// line), fill and hit.
//
// The peer fields CorePort, L2 and Image (the command.Memory holding the
// texture descriptors) are set by the platform builder after Build.
//
// # Stages
//
// The sampler is a chain of stages run back to front in each tick; requests
// move through them in order (at most MaxRequests in flight) and responses
// leave in request order.
//
//  1. Address (address.go). The oldest request in the input queue is taken
//     when the stage is free and the sampler has room. All its lanes are
//     filtered functionally at once (gradients, LOD, address modes, cube face
//     selection, anisotropic probes); the taps' decoded texel addresses are
//     reduced to the request's distinct L1 lines (in first-use order, counting
//     taps per line). The stage is then busy for ceil(lanes / LanesPerCycle)
//     cycles; the request's lines are known when it is done.
//  2. Tag lookup (tags.go). The lines of the oldest request with lookups left
//     are looked up in the L1 tag array (timing.TagArray: size, ways, line
//     size, LRU), TagLookupsPerCycle per cycle. A hit's data is available
//     L1Latency cycles later. A miss to a line already in the miss queue merges
//     with that entry (merged_misses); any other miss takes a free miss-queue
//     entry (an MSHR) and queues the reads its line is filled from. With no
//     free entry the stage stalls (stall_miss_queue) until a fill frees one;
//     later requests wait behind it.
//  3. Miss queue (missqueue.go). Queued reads leave for the L2, one per
//     cycle, oldest first. The L2's answers are taken one per cycle; when the
//     last read of an entry is back the line goes to the fill path, which
//     converts and writes one line per cycle into the L1 (a read-only cache:
//     victims are dropped); the entry is freed, and every request waiting for
//     the line may use it from that cycle on.
//  4. Filter (filter.go). The oldest request that has not been filtered enters
//     the filter when all its lines are present (hits past their latency,
//     misses filled). The filter takes LanesPerCycle lanes per cycle into a
//     FilterLatency-deep pipeline: a request of n lanes occupies it for
//     ceil(n/LanesPerCycle) cycles and its response is ready FilterLatency
//     cycles after its last lanes entered.
//     Under the cost model FilterCostByTexelQuads (Config.Costs) the
//     filter works on texel quads instead: a lane costs the 2x2 texel quads
//     its filter read (texture.TexelQuads of its taps: bilinear 1, trilinear
//     2 when it reads two levels, anisotropic the sum over its probes, a 3D
//     footprint 2 per level), the request's sum is multiplied by WideFormat
//     for a texture wider than 32 bits per texel (RGBA16F, RGBA32F) and by
//     SRGB for an sRGB one, and it occupies the filter for
//     ceil(cost/TexelQuadsPerCycle) cycles (an unbound request costs 1 per
//     lane). DefaultConfig's is FilterCostFlat (the lane rate above);
//     configs/sortlast.yaml sets filter_cost: by_texel_quads.
//  5. Response. The oldest request's response leaves when it is ready; a
//     refused send is retried when the port frees (blocked_output), and the
//     requests behind it wait.
//
// # The life of one request
//
// Read miss (defaults, L2 answering 20 cycles after it takes a read): the core
// sends a 4-lane bilinear request at cycle 0; the sampler takes it at 1
// (address stage 1), looks its one line up at 2 (miss, entry allocated),
// sends the read at 3; the L2 answers at 24; the line fills at 25; the filter
// takes the request at 26 and its response leaves at 26+8 = 34. The same
// request repeated later hits: taken at t, looked up at t+1 (data at t+5),
// filtered at t+5, response at t+13. For a BC1 texture the read is the 8-byte
// block and the fill decodes it into 16 texels; for an sRGB texture the 2x2
// footprint inside one tile touches two decoded lines (rows 0-1 and 2-3 of
// the tile), each filled from 32 stored bytes.
//
// The miss queue and MaxRequests are the sampler's latency hiding: with
// enough entries and requests in flight the pipeline keeps accepting work
// while hundreds of cycles of memory latency pass ("texture sampler pipes are
// long enough to not stall for a memory read even though it takes 400-800
// cycles"); stall_miss_queue counts the cycles it could not.
//
// # Parameters (Config)
//
//	LanesPerCycle 4               address and filter throughput, lanes per cycle
//	TagLookupsPerCycle 4          distinct lines looked up per cycle
//	L1Size, L1Ways, L1LineSize    8192, 4, 64: L1 size in bytes, ways, line size (at least 16 bytes)
//	FetchBytes 64                 largest L2 read, and the alignment no read crosses (the L2 line)
//	L1Latency 4                   cycles from a hit to its data
//	MissQueue 32                  outstanding line misses and L2 reads
//	FilterLatency 8               filter pipeline depth
//	InputQueue 4                  requests waiting for the address stage
//	MaxRequests 16                requests in flight inside the sampler
//	Costs (flat)                  filter cost model; DefaultFilterCosts: flat, and
//	                              for by texel quads 4 quads per cycle, factors 1
//
// MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name) builds a sampler;
// env gives the engine, the clock, the halt and the progress counter.
//
// # Statistics
//
// Named "<sampler name>.<counter>": requests, lanes, texels (taps that read
// memory), border_texels, footprints (bilinear 2x2 footprints, 2x2x2 in 3D
// textures, or point taps: trilinear has two per lane, each anisotropic probe
// one or two), texel_quads (the filter's 2x2 texel quads, texture.TexelQuads
// summed over the lanes, before format factors), unbound_requests, l1_lookups (distinct lines per request),
// l1_hits, l1_misses (merged ones included), merged_misses, hit_rate_line
// (hits/lookups), texel_hits and hit_rate_texel (texel_hits / texels: the
// per-texel hit rate, counting texel reads one after the other as a
// texel-granular study does: a texel read hits when its line is in the L1 or
// an earlier tap of the same request missed on it and brings it, so every
// line miss is one texel miss),
// misses_per_request, misses_per_lane, misses_per_footprint (the source's
// "misses per bilinear request"), l2_reads, bytes_read_l2 (the read path to
// the L2), fill_lines, fill_units (storage units the fill path read: texels
// or blocks), fill_decodes (those it converted: BC blocks decoded, sRGB
// texels widened), fill_bytes (decoded bytes written into the L1),
// responses, flushes (FlushCmds taken), l1_invalidated_lines,
// avg_request_latency and
// max_request_latency (cycles from a request's arrival at the port to its
// response leaving), the activity cycles cycles_busy (a stage works on a
// request), cycles_stall_miss_queue, cycles_wait_memory (every request in
// flight waits for L2 lines), cycles_blocked_output, cycles_idle and
// utilization, and the memory client's counters under "<sampler name>.l2."
// (reads, bytes_read, read_latency_avg, cycles_blocked, ...).
//
// TextureTraffic (traffic.go; the platform's "GPU.TextureTraffic", on SAGE
// "GPU.Pipe[p].TextureTraffic") is not a sampler but hooks on the texture L2
// banks' ports; it reports the bytes of texture reads by texture, at the L2
// and at DRAM: "<name>.<texture>.l2_bytes" and "<name>.<texture>.dram_bytes"
// (the texture's name from the frame, made a statistic name), and
// other.l2_bytes and other.dram_bytes for reads of no texture.
//
// Malformed input (a message that is not a TexRequest, a request without a
// binding) and missing wiring (no Image, no L2) stop the simulation through
// the platform's timing.Halt with an error naming the sampler.
//
// Tasks (only when a tracer is attached, docs/design-timing.md section 10): each
// request is a "texture_request" task "tex<msg ID>" below the core's req_out task
// of the TexRequest, from its acceptance to its response; the L2 reads of the
// miss-queue entries it allocated hang below it.
package texturesampler
