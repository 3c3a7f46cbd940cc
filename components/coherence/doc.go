// Package coherence checks that the timed caches never return data older
// than they should: a coherence checker for the texture path of the sort-last
// and tiled machines (configuration switch memory.coherence_check).
//
// The functional model reads every texel from the memory image, so images are
// right whatever the caches hold; what can be wrong is the timing model's
// claim that a cached line could be used. The checker keeps, for every memory
// line (of the L2's line size), version numbers:
//
//   - g, the newest version: it is bumped when a write of the line completes,
//     in memory (a channel sends the WriteDoneRsp of a plain write: the
//     command processor's DMA, a HiZ write, a ROP's resolve, a stored tile),
//     in a write-back cache that will hold the line dirty (a ROP's or depth
//     unit's rtcache marks the line dirty: ObserveWrites), or by a clear (the
//     command processor sends the ClearCmd; the memory image holds the values);
//   - m, the version memory holds: a plain write sets it to the new g; a
//     write-back carries the g of its lines when the cache sends it (the cache
//     is the line's only writer and takes the bytes from the memory image when
//     it issues the write) and sets m to that when the channel completes it;
//   - the version each L2 bank holds (set by its fills: the m of the line when
//     the fill's data arrives at the bank's Bottom port), each sampler received
//     from the L2 (the bank's version when the response leaves its Top port)
//     and each L1 line holds (the received versions of the stored lines it is
//     filled from, when the fill completes: texturesampler.L1Observer).
//
// Epochs: the command processor's sync tokens are fences (FenceObserver, called
// once the draws before the token are complete, before its cache work). The
// version of a line published at the current fence is its g at the end of
// the previous epoch (the version before the first write of the line in the
// current epoch). A read must return at least the version published at the
// last fence before it was issued: writes of the current epoch need not be
// seen (a draw that reads a target another draw of the same pass writes is a
// hazard the API leaves undefined, and the pipeline drains at a fence, so no
// read is in flight across one).
//
// Checked reads: every L2 fill from memory ("<bank> (fill from memory)": the
// m it got), every L2 read by a sampler ("<bank>": the bank's version) and
// every L1 hit ("<sampler> L1": the line's versions). A read that returns a
// version older than the published one is a Violation naming the reader, the
// line and both versions; the first stops the run through the platform's
// timing.Halt. The other clients (command processor DMA, input assembler,
// ROPs, depth units, HiZ) read data no other unit writes within a frame and
// are not checked. The L2 takes no writes on these machines; a write through
// it is not modelled.
//
// A stale fill means a missing flush (the ROP still held the line dirty); a
// stale L2 read or L1 hit means a missing invalidate. The configs test
// TestCoherenceChecker removes each (commandprocessor.SkipSyncCoherence) on a
// multipass frame and expects the violation.
//
// Statistics: GPU.Coherence.writes, write_backs, reads_checked, fences,
// violations. Hooks may run on the parallel engine's goroutines; one lock
// guards the state.
package coherence
