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
// # The life of an access
//
//  1. Access(addr, token): a present line is a hit (LRU updated). An absent line
//     already being read is a merged miss: the token is added to that read's
//     waiters. An absent cleared line is allocated at once (cleared fill). Any
//     other absent line is a miss: a LineSize read is sent (or, when the memory
//     client is full, the port busy or the write queue full, the access is
//     Blocked and nothing changes).
//  2. Receive: when a read's response arrives the line is allocated (the LRU
//     way of its set; a dirty victim's write-back joins the write queue) and the
//     waiting tokens are woken in the order they asked.
//  3. Write(addr): after the functional model wrote the line's bytes, the line is
//     marked dirty (allocated again without a read if it was evicted meanwhile:
//     the unit holds the data it just wrote).
//  4. Issue: queued writes go to memory oldest first; a write-back carries the
//     bytes the memory image holds at the moment it is issued.
//  5. Flush (at Present) queues the write-back of every dirty line.
//
// The owner bounds its accesses with CanWrite and the Blocked result so that the
// write queue stays within WriteQueue entries plus the victims of the reads in
// flight.
//
// # Statistics
//
// Reported for the owning component C as C.cache_hits, C.cache_misses (of which
// C.cache_misses_merged and C.cache_cleared_fills), C.cache_line_reads,
// C.cache_evictions, C.cache_write_backs, C.cache_line_writes_uncached,
// C.cache_cleared_lines, C.cache_hit_rate, C.bytes_read, C.bytes_written, and the
// memory client's counters under C.memory.
package rtcache
