// Package commandprocessor models the GPU's command processor (CP): the front end
// that fetches the command stream the driver wrote into memory, decodes it,
// keeps the pipeline state, hands draws to the input assembler and synchronizes
// with the back end for clears, sync tokens and presents.
//
// # Hardware
//
// Following "A trip through the Graphics Pipeline 2011" (part 2, the command
// processor, and part 3, where draws enter the 3D pipeline), the CP reads the
// command buffer by DMA into a small prefetch FIFO, decodes one command at a
// time, and turns state commands into a new state version that travels with
// the draws. The pipeline holds a limited number of state versions, so at most
// StateVersions draws are in flight; with 1 the CP flushes between draws.
// Commands that need the pipeline idle (Clear, SyncToken, Present, End) wait
// until every earlier draw has been reported complete by every ROP partition.
//
// The functional work is done by the same code the reference renderer uses:
// command.DecodeOne for decoding, state.Tracker for the state (each draw's
// state.Draw snapshot), reference.Clear and reference.WriteSyncToken for clears
// and sync tokens, ColorTarget.Resolve for the presented image. The component
// decides when each of these happens.
//
// # Ports
//
//   - ToMemory: DMA reads (command-stream chunks, the bytes bound resources refer
//     to) and the sync-token writes, through a memclient.Client (requests go to
//     the port Memory finds for each address; the host-bus latency is the
//     connection's). Responses come back on the same port.
//   - ToLocalMemory: DrawAuto's 4-byte counter reads, one at a time, to the
//     port LocalMemory finds (the memory channel, over the memory crossbar).
//   - ToInputAssembler: one protocol.DrawDispatch per draw, in API order, to the
//     InputAssembler port.
//   - ToBackEnd: protocol.ClearCmd, protocol.PresentCmd and protocol.FlushCmd to
//     every ROP and depth unit (peer fields ROPs, DepthUnits), PresentCmd also
//     to the Video units, FlushCmd to the texture samplers and cache.FlushReq
//     to the L2 banks at sync tokens; receives their protocol.Done and
//     cache.FlushRsp and the ROPs' protocol.DrawDone.
//
// Peer fields set by the platform builder: InputAssembler, Memory and
// LocalMemory (mem.LowModuleFinders), ROPs and DepthUnits (one of each per partition), Video,
// Binner (the tiled machine's binner; nil otherwise).
// On the SAGE machine the ROPs are the 3DRAM interleaves, which hold depth
// too: DepthUnits is empty and a Clear goes to each interleave as one ClearCmd
// with every flag; Video lists the convolve chips and the video output.
//
// # The life of a command
//
//  1. Prefetch. From Start, the CP requests the stream in chunks of
//     DMAChunkBytes aligned to DMAChunkBytes (the first and last may be partial).
//     The prefetch buffer holds MaxOutstandingDMA chunks, in flight or arrived; a
//     chunk's slot frees once the decoder has moved past its last byte, and the
//     next chunk is requested at once. A chunk's bytes are taken from the
//     functional memory image when its response arrives (the bytes the DMA
//     carried).
//  2. Decode. When no command is in progress, the decoder runs command.DecodeOne
//     on the contiguous arrived bytes. command.ErrIncomplete means the command's
//     bytes are still on their way (stall cause wait_dma). The decoded command is
//     carried out DecodeCycles cycles later. A malformed command, a stream that
//     ends inside a command, or one that ends without End stops the run.
//  3. Resource fetch. BindShader (the code), SetConstants (Count x 16 bytes) and
//     BindTexture (the 48-byte descriptor, command.TextureDescriptorBytes) first
//     DMA-read the bytes they refer to, in pieces that do not cross a
//     DMAChunkBytes boundary, and wait for all of them (wait_dma). Shader
//     code outside the memory image is an error; unmapped constants or
//     descriptors are not fetched (the tracker reads zeros).
//  4. Apply. The command goes through the state.Tracker (which reads the
//     resources from the memory image). A state error stops the run.
//  5. Draw and DrawIndexed wait until fewer than StateVersions draws are in
//     flight (wait_state_version), then send DrawDispatch with protocol.Draw{Seq,
//     State, Raster: pipeline.RasterConfig(draw, RasterOptions)}; a refused send
//     is retried (wait_send). The draw is in flight until DrawDone arrived from
//     every one of Partitions ROPs.
//     Stream-out ordering: a draw that streams out waits until no draw is in
//     flight (an earlier draw may still read the buffers it overwrites), and
//     any draw waits while a streaming draw is in flight (it may read what
//     that one writes); both count as wait_drain. A streaming draw's DrawDone
//     comes after its stream-out writes and counters are in memory
//     (primitive assembly holds its end marker until they are).
//     DrawAuto: after decoding, the CP waits until no draw is in flight
//     (wait_drain; so the stream-out that wrote the counter is complete),
//     reads the 4-byte filled-size counter itself from the GPU's memory, where
//     the stream-out wrote it (ToLocalMemory, over the memory crossbar, not
//     across the host bus as the DMA does: wait_dma; statistic
//     draw_auto_reads; no host round trip), then applies the command
//     through the tracker, which computes the vertex count from the counter
//     in the memory image (the bytes the read carried), and dispatches the
//     draw as any other. The same rules hold on the three machines; on SAGE
//     (Config.PerSample) the interleaves' DrawDone follows the draw's end marker
//     through the pipe that streamed it out (the distributor sends a
//     streaming draw whole to one pipe).
//  6. Clear waits until no draw is in flight (wait_drain), applies the clear to
//     the memory image, sends a ClearCmd (flag ClearColor, the colour target of
//     slot 0, its size) to every ROP when it clears colour and one (flags
//     ClearDepth/ClearStencil, the depth target, state.DepthTargetSize) to every
//     depth unit when it clears depth or stencil, and waits for every Done
//     (wait_ack).
//  7. SyncToken drains, then does its cache work (coherence.go): a
//     protocol.FlushCmd without invalidate to every ROP and depth unit when a
//     draw was dispatched since their last write-back (a sync token's flush
//     or a Present; not on the tiled machine, whose PassEnd stored every
//     tile, nor on SAGE), and, when a render target drawn or cleared since the
//     last sync token overlaps the data of a texture any draw of the frame
//     bound (bytes written and not sampled by the token cannot be cached:
//     the token forgets them), a FlushCmd with Invalidate to every sampler (peer field
//     Samplers) and an Akita cache.FlushReq to every L2 bank (peer field
//     L2Controls); it waits for every Done and FlushRsp (wait_ack). Then it
//     writes the value into the memory image and DMA-writes the 4 bytes
//     (unless the address is 0 or unmapped), and waits for the write.
//     FenceObserver, when set, is called when the draining ends (the
//     coherence checker's fence). SkipSyncCoherence is a test hook that
//     leaves out the flush or the invalidate.
//  8. Present drains, sends PresentCmd (the colour target of the slot, the
//     display address given to Start) to every ROP and every depth unit (which
//     flush their caches), waits for every Done, then records the image
//     (Image()).
//  9. End drains; the frame is finished (Finished(), FinishTime()).
//
// On the tiled sort-middle machine (peer field Binner set), a draw is complete
// once the binner has binned it (the binner sends its DrawDone), so draining
// has one more step: once no draw is in flight, the CP sends the binner a
// protocol.PassEnd (with the target and display address when the command is a
// Present) and waits for its Done, which comes when every screen tile of the
// pass has been rendered and stored (counted as wait_drain; statistic passes). Only
// then is the Clear applied, the sync token written or the Present resolved.
// The stream-out ordering and DrawAuto hold there unchanged: a binned draw
// has been through primitive assembly, whose stream-out unit holds the
// draw's end marker (so the binner's DrawDone) until its stream-out writes
// and counters are in memory; its rasterization, deferred to the pass end,
// reads only the binner's parameter buffer and textures, never a stream-out
// buffer. A PassEnd follows a drain, so it never overtakes a stream-out
// write either.
//
// With DecodeCycles = 1, state commands whose bytes have arrived are carried out
// one per cycle: the command decoded at cycle c is applied at c+1 while the next
// one is decoded.
//
// # Parameters (Config)
//
//	DMAChunkBytes      256   bytes per stream DMA read (multiple of 4)
//	MaxOutstandingDMA  4     DMA reads in flight = prefetch chunks; chunks x bytes >= MaxCommandBytes
//	DecodeCycles       1     cycles per command in the decoder
//	StateVersions      8     draws in flight (1: flush between draws)
//	RasterOptions      8x8 tiles, row-major tiles and quads
//	Partitions         1     ROP partitions (ROPs and depth units)
//	ForceLateZ         false every draw tests depth after shading (as reference.Options)
//	PerSample          false shade per sample, test at the sample write (SAGE)
//
// MakeBuilder().WithEnv(env).WithConfig(cfg).Build(name) builds one; env gives
// the engine, the clock, the halt (a bad command stream sets it) and the
// progress counter (one unit per command and per draw completed).
//
// # Statistics
//
// Stats reports, under "<name>.": commands and commands_<opcode> (snake case:
// commands_set_viewport, commands_draw_indexed, ...), draws, clears, presents,
// sync_tokens, draw_auto_reads, sync_flushes (back-end flushes at sync tokens),
// sync_invalidates (texture-cache invalidates at sync tokens), dma_bytes_read, dma_bytes_written, draws_in_flight, the cycles
// of each activity state (cycles_busy, cycles_wait_dma, cycles_wait_drain,
// cycles_wait_state_version, cycles_wait_ack, cycles_wait_send, cycles_idle)
// and utilization, the DMA client's counters under "<name>.dma." (reads,
// bytes, latencies) and the DrawAuto counter reads' under "<name>.local."
// (dma_bytes_read counts the DMA's bytes only). Buffers reports the prefetch
// buffer, the DMA requests, the counter read in flight, the command in progress, the draws in flight, the back-end commands waiting
// to be sent and those waiting for Done.
//
// # Errors
//
// Err returns the first error; it names the command's address ("command stream
// @0x10040: Draw: vertex shader: none bound"), and the CP stops the platform
// through the shared timing.Halt. Protocol violations by peers (a DrawDone for a
// draw not in flight, a Done nobody waits for) stop the run too.
//
// Tasks (for Daisen; only when a tracer is attached, docs/design-timing.md
// section 10): every command is a "command" task "cmd@0x<address>" from its decode
// to its completion, below the Simulation task; a dispatched draw is a "draw"
// task "draw<seq>" below its command until every partition reported DrawDone
// (on the tiled machine, until the binner answers the PassEnd of its pass: the
// draw is binned at its DrawDone, rendered when its pass's tiles are stored).
// The DMA reads of a binding's bytes and the sync-token write hang below the
// command; the stream prefetch below the Simulation task. ClearCmd and PresentCmd
// are req_out tasks below their command, ended by the Done.
package commandprocessor
