// Package binner models the binner of gfxsim's tiled sort-middle machine
// (configs/sortmiddle.yaml; Ragan-Kelley et al. 2011, section 4.4): the stage
// between primitive assembly and the tile units that sorts primitives to the
// screen tiles they touch and keeps them in memory until the pass ends.
//
// # Hardware
//
// A binning GPU runs every draw of a render pass through vertex shading and
// setup first, writing each set-up primitive once to a parameter buffer in
// memory and an entry into the bin (a per-tile primitive list) of every screen
// tile its bounds touch; only when the pass ends are the tiles rendered, one
// at a time per back-end unit, in on-chip tile memory. Blurred primitives are
// binned by their bounds over the shutter interval and the lens (the union
// box of the 5D rasterizer), which is what makes the bin spread grow with
// blur (the document's Fig. 11).
//
// Here a bin is a chain of ChunkBytes chunks in memory: 8-byte entries (the
// primitive's index in the parameter buffer and its draw) and an 8-byte link
// to the next chunk in the chunk's last bytes (functional/binning). A
// primitive's record in the parameter buffer is binning.RecordBytes(links)
// bytes (what protocol.PrimitiveMsg charges a bus). Both live in a region of
// memory above the frame's image (SetFrame); the bytes written are the real
// entries and links, while the records' contents travel with the pass as
// functional truth (protocol.BinnedPass.Prims).
//
// # Ports
//
//   - FromPrimitiveAssembly (in): protocol.PrimitiveMsg and protocol.DrawEnd, in
//     API order.
//   - Control (in/out, peer CommandProcessor): protocol.PassEnd, ClearCmd and
//     PresentCmd in; protocol.DrawDone (a draw is done for the command
//     processor once binned) and Done out.
//   - ToMemory (out/in, peer Memory): the bins' and the parameter buffer's
//     writes, through a memclient.
//   - ToScheduler (out/in, peer Scheduler): protocol.BinnedPass out, the
//     scheduler's Done in.
//
// # The life of a pass
//
//  1. The first draw opens the pass with its colour and depth targets; a draw
//     with other targets in the same pass is an error (the machine keeps one
//     colour and one depth target in tile memory).
//  2. A primitive: its record is appended to the parameter buffer (each
//     LineBytes line written once left); its entries are appended to the bins of
//     the tiles of binning.Box in row-major order, EntriesPerCycle per cycle. A
//     bin's entries are written when its line or its chunk fills; a full chunk
//     gets a link to a new one.
//  3. A DrawEnd: DrawDone to the command processor.
//  4. ClearCmd (after the command processor cleared the memory image): the
//     target is marked cleared: the next pass's tiles do not load it and every
//     tile of it is stored. PresentCmd: answered at once (the tiles were
//     resolved when they were stored).
//  5. PassEnd: the partly filled lines are written; once every write is done,
//     the pass goes to the tile scheduler with its descriptor (targets, which
//     to load, whether to store every tile, the present); when the scheduler's
//     Done comes back, the binner answers the PassEnd. A pass without draws,
//     clears or present is answered at once (empty_passes).
//
// # Statistics
//
// Stats reports, under "<name>.": primitives, bin_entries, bin_spread
// (entries per primitive), bin_spread_max, draws, passes, empty_passes,
// clears and presents (the ClearCmds and PresentCmds taken), chunks, bin_bytes_written (entries and links), parameter_bytes_written, the
// activity cycles (cycles_busy, cycles_binning, cycles_wait_memory,
// cycles_wait_tiles, cycles_blocked_send, cycles_idle) and utilization, and the memory client's counters under "<name>.memory.".
//
// # Tasks
//
// Only when a tracer is attached (docs/design-timing.md, section 10): each
// pass is a "pass" task "pass<p>" (p = BinnedPass.Seq, the passes numbered
// from 0) below the Simulation task, from its first draw (or, for a pass of
// clears and a present only, its PassEnd) to the Done that answers its
// PassEnd; the bins' and the parameter buffer's writes are req_out tasks
// below it, and the tile units' screen tiles hang below it. Each primitive is
// a "bin" task "draw<s>.prim<t>.<p>@bin" below its draw, labelled with its
// bin spread ("6 tiles"), from its taking to its last entry appended.
package binner
