// Package interleave models one interleave of the SAGE sample buffer (Deering
// & Naegle 2002, §3.5; ../shared/docs/sage.md section 3): ChipsPerInterleave
// 3DRAM chips (4 on the board, 8 interleaves) sharing one control, address
// and data bus from a sched chip, which do the z compare and the blend inside
// the memory, so that a sample update is a write, not a read-modify-write.
//
// # Hardware
//
// The 3DRAM (FBRAM, Deering, Schlapp and Lavelle, SIGGRAPH 1994; Mitsubishi
// 3D-RAM data sheet) has four interleaved DRAM banks whose sense amplifiers
// hold an open page, a 2048-bit SRAM pixel buffer of eight 256-bit blocks
// (eight 32-bit words) used as a write-back level-one cache whose tags and
// associativity live in the controller, and a pixel ALU at the 100 MHz pixel
// port (a four-way interleaved FBRAM frame buffer Z-buffers 400 M pixels/s:
// one write per chip per cycle). A write whose block is in the pixel buffer
// takes the ALU's write cycles; otherwise the block is loaded over the global
// bus (after writing back a dirty victim), and a block of a page its bank has
// not open costs a page miss first. The sched's snoop of its pre-write queue
// (Prefetch) lets the controller load a block ahead of its write. Each
// sample's word holds both buffers (the 2:1 mux on the window ID), so a flip
// at Present moves no data; the video side reads the DRAM, so the present
// writes back the dirty blocks.
//
// # Ports
//
//   - FromSched (in): protocol.SampleBurst (samples of one draw for this
//     interleave), protocol.OrderMarker (MarkDrawEnd, one per pipe and draw;
//     MarkBarrier, counted) and protocol.Prefetch, in the sched's order.
//   - Control (in/out, peer CommandProcessor): protocol.ClearCmd and
//     protocol.PresentCmd in; protocol.Done (From = Index) and
//     protocol.DrawDone{Draw, Partition: Index} out.
//
// The video read path does not pass through this component: the 3DRAMs'
// video pins are components/sage/route's, which serves the convolve chips'
// LineRequests from the displayed buffer in the memory image (the 3DRAMs'
// internal video transfers, which would take array cycles from rendering,
// are not modelled; see route's documentation).
//
// # The life of a sample
//
// The sample's interleave, chip within the interleave and row come from
// samplebuffer.Geometry (Interleave, ChipInInterleave and Row of (x, y, s),
// under its Map; a sample of another interleave, or outside the raster, is a
// protocol error); its block is row /
// SamplesPerBlock, its page block / BlocksPerPage, its bank page mod
// BanksPerChip. The chip's tags (timing.TagArray, BlocksPerChip blocks, fully
// associative, LRU) are looked up: a hit costs WriteCycles; a miss adds the
// load (a dirty victim's write-back, WriteBackCycles, then the fill,
// FillCycles, each after PageMissCycles when its bank has another page open).
// The bus carries the samples in arrival order, one per cycle, each waiting
// until its chip has finished its previous operation; the chip is then busy
// for the sample's cycles, while the bus goes on to the next sample (of
// another chip). pipeline.WriteSample(d.State, x, y, s, z, back, colour)
// writes the sample into the frame's render targets (the memory image) in the
// same order; a written sample makes its block dirty.
//
// A burst is scheduled whole when the interleave takes it: every sample's bus
// cycle and chip time are computed then, the samples are written in order,
// and the next message is taken when the bus is free after the last one (one
// event per burst, not per sample). A Prefetch of an absent block takes a bus
// cycle and loads the block (a later write that hits it counts a
// prefetch_hit); of a present block it costs nothing (prefetches_redundant).
// After the MarkDrawEnd of every pipe (Pipes) for a draw, DrawDone{Draw,
// Index} leaves once every write issued so far has completed.
//
// ClearCmd (colour or depth/stencil; the command processor has already
// cleared the memory image): once the bus and the chips are free, the fast
// clear takes ceil(samples / ClearSamplesPerCycle) cycles, samples being the
// target's samples mapped to this interleave; the pixel buffers are
// invalidated (their blocks hold old values); Done. The board's 1280x1024 x 8
// clear is 1310720 samples per interleave: 81920 cycles, 819.2 us at the
// default 16 samples per cycle and 100 MHz, four times the paper's "under 200
// us"; 66 samples per cycle would meet it (198.6 us). PresentCmd: a flip
// (counted), then every dirty block of every chip is written back (chips in
// parallel, each block after its page miss if needed); Done when the last
// is written.
//
// # Parameters (builder)
//
// MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name): env (timing.Env)
// gives the engine, the clock (configs: sage.clocks.sample_buffer_mhz, 100
// MHz), the halt and the progress; Config
// (DefaultConfig) holds Index (0), Pipes (4), Geometry (1280x1024 at 8, 8
// interleaves of 4 chips), BlocksPerChip and SamplesPerBlock (8 blocks of 8
// samples per chip: the 3D-RAM pixel buffer), BanksPerChip and BlocksPerPage
// (4 banks, 40 blocks a page: a 10 Kbit page of 256-bit blocks), WriteCycles
// (1), FillCycles (2), WriteBackCycles (2), PageMissCycles (6),
// ClearSamplesPerCycle (16) and InputQueue (2 messages). The block, page and
// clear cycles are choices: the sources found give the organisation and the
// 100 MHz pixel rate, not these timings.
//
// # Tasks (traces)
//
// With a tracer attached: each SampleBurst is a sample_write task
// "write<message ID>" below its draw, from its taking to the completion of its
// last sample's write (ended at that known time with protocol.EndTaskAt); a
// ClearCmd is a clear task "clear<message ID>" and a PresentCmd a flush task
// "flush<message ID>", below the command processor's req_out task of the
// command, until the Done is sent (docs/design-timing.md, section 10).
//
// # Statistics (<name>.<counter>)
//
// samples_in, bursts, samples_written, samples_blended, z_passed, z_failed
// (pipeline.WriteStats), cache_hits, cache_misses, cache_hit_rate, fills,
// write_backs, page_misses, prefetches, prefetch_hits, prefetches_redundant,
// clears, clear_cycles, presents, flips, flush_write_backs, draw_ends,
// draw_dones, barriers; cycles_busy (bus cycles carrying a write or a
// prefetch), cycles_wait_chip (the bus waits for a chip, or a DrawDone for
// the last writes), cycles_clear, cycles_flush, cycles_blocked_output,
// cycles_idle and utilization (busy over all cycles).
package interleave
