// Package tileunit models a tile unit of gfxsim's tiled sort-middle machine
// (configs/sortmiddle.yaml; Ragan-Kelley et al. 2011, section 4.4): the
// control of one back end that renders a screen tile in on-chip tile memory,
// and that tile memory.
//
// # Hardware
//
// A tile unit drives a back end of its own, built from the sort-last
// machine's units: a rasterizer, a depth unit, a quad packer, a reorder
// buffer (the decoupled draws' shading cache: local to the tile, flushed when
// it ends) and a ROP; the shader cores are shared by every unit. The shading
// and ROP phases run asynchronously as on the sort-last machine (the reorder
// buffer restores API order before the ROP). The ROP's and the depth unit's
// caches are backed by the tile memory instead of DRAM: a line they miss is
// read there, a dirty line they evict is written there. The tile memory holds
// the tile's colour, depth and stencil samples; it answers MemoryLatency cycles
// after a request and takes MemoryBytesPerCycle bytes per cycle.
//
// # The life of a tile
//
//  1. A protocol.TileJob arrives from the scheduler (JobsPerUnit may wait).
//  2. Load and fetch: the tile's colour lines (and depth lines) are read from
//     memory into the tile memory unless the target was cleared since it was
//     last stored; the bin's chunks are read, chunk by chunk: a chunk's
//     entries in LineBytes pieces (one whole 8-byte entry a read when
//     LineBytes is 4), its link (the next chunk's address) with
//     its last entries when they share a line, and the next chunk only once
//     that link arrived; for every entry whose bin bytes arrived, its
//     primitive's record is read from the parameter buffer.
//  3. Once loaded, the primitives are sent to the rasterizer in bin order (API
//     order), PrimitivesPerCycle per cycle, as protocol.PrimitiveMsg with Window
//     the tile (the rasterizer emits only the quads inside it), with a DrawEnd
//     after each draw's last primitive.
//  4. When the ROP has reported DrawDone for every DrawEnd, a FlushCmd
//     (Invalidate) goes to the ROP, the depth unit and the reorder buffer: their
//     caches write back to the tile memory and empty, the shading cache is
//     cleared.
//  5. Store: the tile's colour and depth lines are written to memory with the
//     image's bytes (store: samples, or any pass that does not present); a
//     presenting pass resolves the tile now, its draws done and the back end
//     flushed (ColorTarget.ResolvePixel into the display buffer of the
//     image), and writes the display lines; with StoreResolved a presenting
//     pass writes only those.
//  6. When every store is acknowledged, Done goes to the scheduler.
//
// # Double buffering
//
// With TileBuffers of 2 or more, the tile memory holds that many tiles, each
// in MemoryBytes (configs gives each buffer tile_memory_kb / tile_buffers,
// and the tile size follows a buffer). A tile whose back end is flushed does
// not store in place: it joins the tiles storing behind (step 5 goes on in
// the background) and the next job begins at once, its loads, bin reads and
// rendering overlapping the stores. The tile in progress has the memory
// requests first each cycle; the storing tiles, oldest first, take what it
// leaves, so that stores fill the memory path without delaying the reads
// the next tile renders from. A tile storing behind sends its Done when its
// last store is answered (step 6), in job order. A finished tile that finds
// every other buffer still storing stores in place with the memory requests
// they leave (store), and hands off when a buffer frees or its own stores
// are answered. Loads wait until
// no tile is storing: a load must not overtake the store of a line it reads
// (frames clear their targets, so loads are rare and the unit does not
// compare lines). Passes do not overlap: the scheduler hands out the next
// pass's tiles only after every tile of the last one is stored.
//
// A DrawDone for a draw the tile did not send (or out of order), or a Done
// for a FlushCmd it did not send, stops the run with an error naming the unit
// and, for a DrawDone, the draw and the tile.
//
// The functional truth is the memory image: the ROP and the depth unit write
// their results there as on the sort-last machine, so the image after the
// frame equals the reference renderer's; the tile memory and the loads and
// stores model where those bytes are and what moving them costs.
//
// # Ports
//
//   - FromScheduler (in/out, peer Scheduler): TileJob in, Done out.
//   - ToRasterizer (out, peer Rasterizer): PrimitiveMsg and DrawEnd.
//   - Control (out/in, peers ROP, DepthUnit, ReorderBuffer): FlushCmd out;
//     Done and the ROP's DrawDone in.
//   - ToMemory (out/in, peer Memory): bin, record and tile reads, tile and
//     display writes (LineBytes each), through a memclient.
//   - TileMemory (in/out): the ROP's and the depth unit's line requests.
//
// # Statistics
//
// Stats reports, under "<name>.": tiles, empty_tiles, tile_cycles (summed),
// tile_cycles_avg, tile_cycles_max, tile_memory_peak_bytes,
// tile_memory_over_budget, load_bytes, store_bytes, display_bytes,
// bin_bytes_read, parameter_bytes_read, primitives (one per primitive and
// tile), draw_ends, tile_memory_reads, tile_memory_writes,
// tile_memory_bytes_read, tile_memory_bytes_written, the activity cycles
// (cycles_busy, cycles_load, cycles_wait_bin, cycles_render, cycles_flush,
// cycles_store, cycles_idle) and utilization, and the memory client's
// counters under "<name>.memory.". Each cycle is in one activity state:
// busy when the unit moved anything (served the tile memory, took a memory
// answer or a job, issued a read, sent a primitive, a flush or a store),
// otherwise what the tile in progress waits for: load (its tile loads from
// memory), wait_bin (its bin and parameter reads, or room to send its
// primitives), render (its back end, rendering the tile's primitives, to
// return the DrawDones), flush (the back end's flushes), store (the tile's
// stores and display writes), and idle without a tile. The render summary
// lists the waits as the unit's stall causes; a unit whose only tiles are
// storing behind (double buffering) is in store. Buffers names the tile in progress and
// what it waits for, so that a stuck frame names the unit. The back end's
// units are built by the platform (configs/platform_sortmiddle.go) as
// "<name>.Rasterizer", ".DepthUnit", ".QuadPacker", ".ReorderBuffer" and
// ".ROP" and report their own statistics there; the buses between them are
// "<name>.PrimitiveBus", ".TileBus", ".QuadBus", ".WarpBus", ".ROPBus",
// ".LateZBus", ".ControlBus" and ".TileMemoryBus".
//
// # Tasks
//
// Only when a tracer is attached (docs/design-timing.md, section 10): each
// job is a "screen_tile" task "pass<p>.tile<k>" ("tile k of pass p") below the
// binner's pass task, from its arrival to its Done, with below it its load,
// bin, parameter and store requests (req_out), its FlushCmds (req_out tasks,
// ended by the Dones, with the ROP's, depth unit's and reorder buffer's
// "flush" tasks below them) and one "tile_draw" task per draw of the tile,
// "draw<s>.win<x0>.<y0>" (the tile's pixel origin), from its first primitive
// sent to the ROP's DrawDone. The rasterizer's tasks of the draw's primitives
// in the tile and the quad packer's warps (then the reorder buffer's, the
// shader cores' and their texture requests) hang below the tile_draw task, so
// Daisen shows a screen tile's whole work under it. The ROP's rop_write tasks
// and the shading warps stay below their draw, whose task the command
// processor ends with the pass. The tile memory records each request of the
// ROP and the depth unit as a "req_in" task below the sender's req_out.
package tileunit
