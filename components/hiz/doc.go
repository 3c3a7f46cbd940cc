// Package hiz models the hierarchical-Z unit of one screen partition of
// gfxsim's sort-last GPU ("GPU.HiZ[p]"): the coarse depth buffer of the
// partition's tiles, with its HiZ cache backed by memory, between the
// rasterizers and the partition's depth unit.
//
// # Hardware
//
// Giesen, "A trip through the Graphics Pipeline 2011", part 7
// (../shared/seeds/004_c86c00924c04c1f0.txt): hierarchical Z rejects whole
// tiles "before we even descend down to the pixel level", with a strictly
// conservative test against a per-tile z-max (and z-min); the per-tile values
// live in dedicated on-chip memory. Andersson, Hasselgren and Akenine-Möller,
// "Masked Depth Culling for Graphics Hardware" (2015;
// ../shared/seeds/001_0872957dcfba183a.txt, digest in ../shared/docs/seeds.md):
// the HiZ unit keeps its tiles in a HiZ cache (16 KB, 64-byte lines) backed by
// memory; the coarse test with coverage runs after per-sample coverage; the
// algorithms ORACLE, FORWARD, FEEDBACK (z-max fed back by the depth unit, on
// depth updates through a FIFO of N tiles, or on depth-cache eviction), ZMASK
// and PACKED ZMASK (tiles compressed to 1 bit per sample on eviction). The
// algorithms themselves are functional/depth/hiz; this package decides when
// they run and what memory traffic they cost.
//
// # Where the unit sits
//
// One HiZ unit per ROP partition, after fine rasterization: the rasterizers
// send a partition's TileQuads to its HiZ unit (GPU.TileXbar), which sends the
// surviving quads on to the depth unit over GPU.HiZBus[p]. The placement
// follows the algorithms: ZMASK's test uses per-sample coverage ("per-sample
// coverage moves before the HiZ unit"), and with HiZ tiles owned by one
// partition (a HiZ tile never spans two partition tiles) the feedback path from
// the depth unit stays local and no HiZ tile is shared between units. The
// interval-only test (hiz.IntervalOnly) is the paper's test that could run
// before coverage; here it runs at the same place (its culling differs, the
// fine-raster work it could save is not modelled). A HiZ tile must lie inside
// one raster tile, so that one rasterizer sends all coverage of a HiZ tile in
// API order: then the unit makes exactly the decisions of the reference
// renderer's hiz.Filter.
//
// # Ports and peers
//
//	FromRasterizers  in   protocol.TileQuads (one primitive's quads in one raster tile, Live = coverage)
//	                      and protocol.DrawEnd from every rasterizer (port buffer: InputQueue)
//	ToDepthUnit      out  the TileQuads with the culled samples removed (quads left with none
//	                      dropped, a message left with none not sent), the DrawEnd markers, and a
//	                      protocol.Done for every HiZControl, in order; peer DepthUnit
//	FromDepthUnit    in   protocol.HiZFeedback (tile bounds measured by the depth unit) and
//	                      protocol.HiZControl (a fast clear or a flush relayed by the depth unit)
//	ToMemory         out  HiZ line reads and write-backs through a memclient; peer Memory
//
// # The life of a tile of quads
//
//  1. Accept: a TileQuads enters the window of Window messages. Its draw's
//     hiz.DrawContext says whether HiZ applies (a depth target with the depth
//     test on); if not, or the target has no HiZ buffer (MaxTargets), it passes
//     through. Otherwise the unit lists the HiZ tiles its live samples touch
//     and the lines holding them (hiz buffer layout below).
//  2. Lookup (TestsPerCycle lines per cycle, in order): each line is a hit, a
//     miss merged with a read in flight, a fast-cleared line allocated with no
//     read, or a miss that reads the memory line (MaxOutstandingMemory in
//     flight; WriteQueue write-backs queued at most). A dirty victim is written
//     back (PACKED ZMASK packs its tiles first: hiz.Buffer.Pack, the lossy step).
//  3. Test (in order, when its lines are present; TestsPerCycle coarse tests
//     per cycle): hiz.Buffer.ProcessQuads tests and updates every touched tile,
//     clears the culled samples from the live masks, and the lines of tiles
//     that changed become dirty. Feedback whose delay is over is applied first.
//     The result leaves Latency cycles later.
//  4. Output: in order, one message per send the port accepts.
//
// DrawEnd markers follow the same path (no lookup, no test cost).
//
// # 5D primitives (decoupled draws)
//
// A TileQuads of a 5D primitive (Prim.Blur != nil: stochastic rasterization,
// whose depths no plane bounds) passes untested, in order with the other
// messages and with no HiZ-cache lookup. But its samples will write depths the
// HiZ tiles do not know (nearer ones, which break the tiles' z-min, and with
// other depth functions or forms farther ones): at its test step the unit
// calls hiz.Buffer.Forget for its quads, which makes every HiZ tile their live
// samples touch unknown (no culling, no trivial accept, feedback dropped) until
// the next clear, and their samples unknown in the Oracle's replica. It is
// done only when the draw writes depth. The unknown state is an on-chip bit
// per tile (like the fast-clear tags) and costs no memory traffic. The
// reference renderer's hiz.Filter does the same (reference.BlurHooks), so the
// machine and the reference still cull the same samples.
//
// # Feedback
//
// HiZFeedback entries (one per tile) enter a FIFO of FeedbackQueue entries
// (more are dropped) stamped with the count of coarse tests done; an entry is
// applied once Config.FeedbackDelay more coarse tests were done: if its tile's
// line is in the HiZ cache it is applied (hiz.Buffer.ApplyFeedback: stale
// feedback, older than a clear, a form conversion or a NotEqual/Always write,
// is dropped there); if not, it is dropped or, with FeedbackRefetch, the line
// is read back and the entry applied when it arrives (tile tests wait for
// refetches in flight). The ideal feedback (hiz.IdealFeedback) runs inside
// hiz.Buffer with no traffic.
//
// # Control
//
// A HiZControl is carried out once the window is empty (the command processor
// drained the pipeline): a clear resets the target's HiZ buffer to the clear
// value (hiz.Buffer.Clear), drops its lines from the cache without write-back
// and marks every line of its region cleared (the first miss reads nothing); a
// flush writes back every dirty line. A Done follows on ToDepthUnit; the depth
// unit acknowledges the command processor only after it.
//
// # The HiZ buffer in memory
//
// Each (depth target, partition) has a region of 1 GiB at RegionBase. The
// partition's HiZ tiles are numbered densely (its partition tiles row-major,
// HiZ tiles in Morton order inside them) and packed into memory lines of
// line_bytes: 8 FORWARD tiles (64 bits), 4 ZMASK tiles (128 bits), 4 PACKED
// ZMASK tiles (128 bits in memory; 28 bytes each in the cache, so a cache line
// is 112 bytes: 16 KB make 146 lines, of which the 4-way tag store keeps 36
// sets, 144 lines). A write-back carries the tiles' encodings
// (hiz.Buffer.Encode). The Oracle has no HiZ traffic (it is an idealization). A target's tiles start unknown (no culling) until a clear.
//
// # Timing
//
// A message whose lines hit is looked up in the cycle after it is accepted,
// tested in the next and sent Latency cycles later: with a direct connection
// and Latency 2, a TileQuads sent at cycle 0 is accepted at 1, looked up at
// 2, tested at 3, sent at 5 and received by the depth unit at 6
// (TestTimingPinned, sent at cycle 10). A miss adds the memory latency.
//
// # Parameters (Builder)
//
// MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name): env (timing.Env)
// gives the engine and clock (required), the halt and the progress; Config
// (DefaultConfig) holds HiZ (hiz.Config: Mode, TileSamples, Layers,
// Placement, Packed, Feedback, FeedbackDelay; ZMASK by default), Index,
// NumPartitions (4), PartitionStride (1), PartitionTile (16 pixels),
// CacheSize (16 KB), CacheWays (4), LineBytes (64), MaxOutstandingMemory
// (16), WriteQueue (8), TestsPerCycle (4), Latency (2), InputQueue (16),
// Window (16), FeedbackQueue (256), FeedbackRefetch (false), RegionBase (64
// GiB) and MaxTargets (4).
//
// # Statistics (<name>.<counter>)
//
// Messages: tiles_in, quads_in, tiles_out, quads_out, messages_culled,
// pass_through_tiles, tiles_without_hiz, draw_ends, tiles_5d_passed (5D
// messages, passed untested), tiles_forgotten (HiZ tiles a 5D write made
// unknown). Coarse tests (primitive x
// HiZ tile): coarse_tests, tiles_culled, tiles_accepted (trivially accepted),
// tiles_ambiguous, units_tested and units_culled (normalized to 16-sample
// tiles), culling_rate (units_culled/units_tested), samples_tested,
// samples_culled, samples_accepted, quads_culled, conversions, packs,
// mask_blocks_forced. HiZ cache: cache_hits, cache_misses, cache_misses_merged,
// cache_cleared_fills, cache_refills, cache_line_reads, cache_evictions,
// cache_write_backs, cache_hit_rate, bytes_read, bytes_written (the HiZ
// traffic), memory.*. Feedback: feedback_messages, feedback_tiles,
// feedback_applied, feedback_stale, feedback_dropped_full,
// feedback_dropped_absent, feedback_refetched, feedback_age_cycles (mean
// cycles from measurement to application), feedback_delay_tests (mean coarse
// tests waited). clears, flushes; cycles_busy, cycles_wait_memory,
// cycles_blocked_output, cycles_idle, utilization.
//
// Tasks (only when a tracer is attached, docs/design-timing.md section 10): each
// accepted TileQuads is a "tile" task "<primitive>.tile<tx>.<ty>@hiz" below the
// rasterizer's tile task until its survivors are sent or all are culled (a
// TileQuads' Window is kept and named in the IDs, as in the depth unit); its
// HiZ line reads and the write-backs its tests cause hang below it. A HiZControl
// is a "clear" or "flush" task "clear<msg ID>"/"flush<msg ID>" below the depth
// unit's req_out task of the message, until the Done; a flush's write-backs hang
// below it, feedback refetches below the Simulation task.
package hiz
