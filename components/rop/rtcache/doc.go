// Package rtcache is the render-target cache shared by the render back-end's two
// blocks: the depth unit's depth/stencil cache and the ROP's colour cache
// (Giesen, "A trip through the Graphics Pipeline 2011", parts 7 and 9: the ROPs
// keep small buffers of render-target data that work as caches, read lines in
// DRAM-page-sized chunks, write them back, and use tag bits for fast clears).
//
// # What it models
//
// A set-associative, write-back, write-allocate cache of LineSize-byte lines
// with LRU replacement (timing.TagArray). It keeps tags and state only: the
// pixel data lives in the memory image (command.Image), which the functional
// model reads and writes directly, so the cache decides *which memory traffic*
// an access costs, never what value it sees. Line reads and writes go to memory
// through a memclient.Client over one port, with at most MaxOutstanding requests
// in flight.
//
// Fast clear: Clear(lo, hi) drops the lines of a cleared target without writing
// them back (the command processor already applied the clear to the image) and
// marks every line wholly inside the range as cleared (timing.ClearTags). A miss
// on a cleared line allocates the line at once with no memory read (the clear
// value is known on chip). The cleared bit of a line is removed when the line is
// first written; a cleared line that is evicted clean stays cleared.
//
// MSAA colour compression (Config.Compression; Giesen, part 9, "Depth buffer
// and color buffer compression": when every pixel of a block has all its
// samples equal, store one colour per pixel and keep a flag bit per block in a
// small on-chip SRAM). A compression block is one cache line. The owner
// registers its multisampled target with SetSurface; the cache then keeps a tag
// per line of it: Uncompressed (memory holds LineSize bytes; the initial
// state), Compressed (memory holds a block of LineSize/samples bytes) or
// Cleared (the fast-clear state above, which takes precedence). When a dirty
// line of the surface is written back, the cache checks the bytes the memory
// image holds for it: if every pixel has all its samples bitwise equal, the
// write-back moves LineSize/samples bytes and the tag becomes Compressed,
// otherwise it moves the whole line and the tag becomes Uncompressed. A read on
// a miss moves LineSize/samples bytes when the tag says Compressed and the
// whole line otherwise (a cleared line moves nothing). A fast clear resets the
// tags of the lines it marks cleared.
//
// Compression applies only when it can pay: the surface has at least 2 samples,
// a line holds whole pixels (LineSize a multiple of samples x bytes per sample,
// the surface's base pixel aligned), and the block LineSize/samples is at least
// MinBlock bytes, the memory's access unit (64 bytes for a 64-bit GDDR5
// channel with bursts of 8: a smaller request costs a whole access anyway).
// RGBA8 at 4x MSAA therefore needs 256-byte lines; with 64-byte lines, or at 1x,
// compression is never applied and those lines' transfers are counted as
// compression_unusable. Only lines wholly inside the surface are compressed.
//
// Depth compression (a Surface with a Codec, registered by the depth unit):
// the codec decides each line's compressed size from the bytes the image holds
// at write-back (functional/depth/hiz.DepthCodec: a plane-predicted delta
// code), rounded up to whole MinBlock access units; the line's tag keeps that
// size (a small per-line size field in on-chip memory) and a later miss reads
// that many bytes. A codec surface is usable when its lines are larger than
// MinBlock (with 64-byte lines and a 64-byte access unit nothing can be saved).
// CompressedSize reports a line's current size in memory.
//
// Compression models traffic, not storage. The memory image keeps the
// uncompressed logical contents (the functional truth, read and written by the
// functional model), and a compressed block is addressed at its line's address
// (a request of LineSize/samples bytes there, so it stays aligned). A
// compressed write-back carries the image's first LineSize/samples bytes of
// the line, so the DRAM storage only ever receives logical contents (the rest
// of the line's storage may be stale; no one reads it: responses are never
// used as data).
//
// # The life of an access
//
//  1. Access(addr, token): a present line is a hit (LRU updated). An absent line
//     already being read is a merged miss: the token is added to that read's
//     waiters. An absent cleared line is allocated at once (cleared fill). Any
//     other absent line is a miss: a read of the line (LineSize bytes, or its
//     compressed block) is sent (or, when the memory
//     client is full, the port busy or the write queue full, the access is
//     Blocked and nothing changes).
//  2. Receive: when a read's response arrives the line is allocated (the LRU
//     way of its set; a dirty victim's write-back joins the write queue) and the
//     waiting tokens are woken in the order they asked.
//  3. Write(addr): after the functional model wrote the line's bytes, the line is
//     marked dirty (allocated again without a read if it was evicted meanwhile:
//     the unit holds the data it just wrote).
//  4. Issue: queued writes go to memory oldest first; a write-back carries the
//     bytes the memory image holds at the moment it is issued (compressed, with
//     its line's tag updated, when the line is compressible, see above).
//  5. Flush (at Present, at a sync token, and at the end of a tile in the
//     tiled machine) queues
//     the write-back of every dirty line; the lines stay, clean.
//  6. Invalidate (after a flush, once the cache is idle and clean) drops every
//     line: the next access to any line misses. It refuses, with an error, a
//     cache with dirty lines or traffic in flight. Fast-clear and compression
//     tags stay (they describe memory): a line written since its clear was
//     taken out of the cleared state by Write, so it misses with a read; a
//     cleared line never written fills again without one.
//
// Prefetch(addr, reserve) (the ROP's framebuffer prefetch): a read of an
// absent line that is not being read and not fast-cleared, sent only while
// more than reserve memory-request slots stay free (requests in flight plus
// writes waiting to be issued), so that prefetches never take the last slots
// a demand miss or a write-back needs. The line fills like a demand read's and
// keeps a prefetch mark (timing.TagArray) until its first demand use. Each
// prefetch ends as one of: useful (a demand access hit it, or a Write marked
// it dirty, while it was cached), late (a demand access found its read still
// in flight and waited for it as a merged miss) or useless (evicted, dropped
// by Clear or Invalidate, or still unused at a Flush; or it arrived for a
// line Write had allocated meanwhile). PrefetchCounters reports them; the
// owner names them (the depth unit never prefetches). Prefetch reads count in
// line_reads, bytes_read and the compression counters like demand reads;
// hits and misses count demand accesses only.
//
// SetEvictHook installs a callback for every line evicted to make room (the
// depth unit's eviction-triggered HiZ feedback).
//
// The owner bounds its accesses with CanWrite and the Blocked result so that the
// write queue stays within WriteQueue entries plus the victims of the reads in
// flight. An empty queue accepts a write of more lines than it holds (a quad
// whose samples span more lines, with 4-byte lines at 27 or 64 samples), so
// that such a quad waits for the queue to drain instead of forever. Lines may
// be any power of two from 4 bytes; colour compression applies only to lines
// that hold whole pixels (SetSurface).
//
// # Statistics
//
// Reported for the owning component C (the tags of Counters name the cache_
// counters) as C.cache_hits, C.cache_misses (of which
// C.cache_misses_merged, C.cache_cleared_fills and C.cache_overwrite_fills:
// AccessOverwrite allocations without a read), C.cache_line_reads,
// C.cache_evictions, C.cache_write_backs, C.cache_line_writes_uncached,
// C.cache_cleared_lines, C.cache_invalidated_lines, C.cache_hit_rate, C.bytes_read, C.bytes_written, and the
// memory client's counters under C.memory. Compression (lines of compressible
// surfaces): C.cache_line_reads_compressed, C.cache_line_reads_uncompressed,
// C.cache_write_backs_compressed, C.cache_write_backs_uncompressed,
// C.cache_compression_bytes_saved (bytes not moved: LineSize minus the block,
// per compressed transfer) and C.cache_compression_unusable (line reads and
// write-backs of registered surfaces compression cannot apply to).
//
// Tracing: TraceAs(owner) records the cache's memory requests as Akita req_out
// tasks of the owner while it has hooks, each below the task set with SetCause
// when it was caused (the access that missed, the eviction, flush or queued
// write); untraced, nothing is recorded.
//
// Reads is the bookkeeping of a cache's line reads in flight (the line, the
// readers each read wakes, Next to take the memory client's responses up to
// the next completed read): the Cache's, and the HiZ unit's for its own cache.
package rtcache
