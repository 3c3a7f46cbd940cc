// Package memory builds the GPU's memory for the timed model: NumChannels
// memory controllers with addresses interleaved across them, all holding one
// simulated memory image, and optionally the shared texture L2 (one write-back
// bank per channel). It wraps Akita's controllers and cache; it adds the
// address scheme, the image loading, and statistics.
//
// # Hardware
//
// A GPU's DRAM interface is several independent channels (a 256-bit GDDR5 bus
// is four 64-bit channels, each with its own controller and banks). Addresses
// are interleaved across channels in granules of InterleaveBytes (256 B by
// default), so a stream of consecutive lines spreads over all channels: global
// address a belongs to channel (a / InterleaveBytes) mod NumChannels. Each
// channel is either
//
//   - an Akita DRAM controller (mem/dram, Type "dram"): protocol (GDDR5 by
//     default), bus width, burst length, ranks, bank groups, banks, rows and
//     columns, a transaction queue split into access units of
//     BusWidth/8*BurstLength bytes, one command queue per rank, close-page
//     policy (every access is ACTIVATE then READ/WRITE with auto-precharge),
//     full inter-command timing, no refresh; or
//   - an ideal controller (Type "ideal"): every request is answered Latency
//     cycles after the controller takes it; Width requests are taken per
//     cycle. Without limits it is Akita's mem/idealmemcontroller (unlimited
//     concurrency and bandwidth). With Ideal.MaxOutstanding (requests between
//     being taken and answered) or Ideal.BytesPerCycle (a request is taken only
//     in the cycle its bytes start moving after those of the requests taken
//     before it) it is gfxsim's limited ideal controller (ideal.go), which
//     keeps Akita's timing otherwise: responses due in a cycle are sent before
//     requests are taken, so N requests with a limit of k in flight finish in
//     ceil(N/k) waves of Latency cycles; or
//   - gfxsim's own controller (components/memory/dramctl, Type "dramctl"): a
//     GDDR5, GDDR6, HBM2 or LPDDR4 part from a cited preset, ranks, bank
//     groups, banks, rows and columns, the full JEDEC timing set, an address
//     mapping of ordered fields with optional XOR bank hashing, open, closed or
//     timeout page policy, FR-FCFS (with a starvation cap) or FCFS, separate
//     read and write queues with write-drain watermarks, all-bank refresh, and
//     an optional protocol checker. It runs at its part's command clock and
//     ticks only on cycles when a command may issue or a response is due. See
//     its package documentation.
//
// Config.PeakBytesPerNs is the theoretical peak over all channels: bus width
// times transfers per clock times the clock (Ideal.BytesPerCycle times the
// clock for a limited ideal memory, 0 for an unlimited one).
//
// # Addresses
//
// Requests carry global addresses. A channel packs its granules densely: its
// local address is (a / (InterleaveBytes*NumChannels)) * InterleaveBytes +
// a mod InterleaveBytes (LocalAddress; Akita's interleaving conversion). All
// channels share one mem.Storage (Memory.Storage) in channel-major order:
// global address a is stored at StorageAddress(a) = channel<<40 | local
// address. LoadImage and ReadAt convert; a gfxsim memory image goes in with
// LoadImage(command.BaseAddress, image.Bytes()).
//
// Akita v3.1.0's DRAM controller maps a request to rank, bank, row and column
// from the request's own Address field; its address converter only relocates
// the storage access. To make a channel use its banks densely, a hook on each
// DRAM channel's Top port (the localizer) rewrites a request's Address to its
// storage address when the request enters the port, and restores the global
// address when the response leaves. The controller's address mapping ignores
// the bits above its geometry, so it sees the local address, and its storage
// accesses land on the right bytes. Senders must not read a request's Address
// while it is in flight (Akita's caches and memclient do not). The ideal
// controller's timing does not depend on addresses; it gets an address
// converter to the storage address instead. A dramctl channel takes the Memory
// itself as its address converter (LocalAddress for its mapping,
// StorageAddress for the bytes) and needs no localizer; it applies each
// request to the storage when it accepts it, so a channel's requests take
// effect in arrival order.
//
// Akita's mapping puts the column bits lowest (then bank groups, banks, ranks,
// rows). Since the controller closes the row after every access, the row size
// has no timing effect of its own, but with Akita's default 1024 columns a
// sequential stream stays in one bank for 8 KiB and is limited by one bank's
// activate-read-precharge cycle. The default Columns is therefore BurstLength
// (one access unit per row), which sends consecutive access units of a channel
// to consecutive banks. Measured with the defaults (GDDR5, 64-bit channel,
// burst 8, 1.6 GHz, Akita's timings) by TestGDDR5Throughput, 600 sequential
// 64-byte reads with 64 in flight per channel: one channel delivers 20.7 B per
// DRAM cycle (peak 32), four channels 75.7; with Akita's 1024 columns one
// channel delivers 1.57.
//
// # Life of a request
//
// A client (see components/memclient) sends a mem.ReadReq or mem.WriteReq to
// the port Finder returns for its address: the Top port of the address's
// channel (or of its L2 bank, with L2.Finder). With a DRAM channel: the
// request enters the Top port's buffer (1024 entries) and the localizer gives
// it its storage address; the controller takes it, splits it into access units
// and queues them (TransactionQueue); each access unit becomes a command in its
// rank's queue (CommandQueue); a bank that is ready activates the row, then
// reads or writes with auto-precharge; when all access units are done the
// controller reads the bytes from the storage (or writes the request's bytes
// into it; Akita ignores write dirty masks) and sends mem.DataReadyRsp or
// mem.WriteDoneRsp, at which point the request's global address is restored.
// A request is timed entirely by the channel of its first byte, so a request
// should lie inside one interleave granule (lines do); it must span fewer
// access units than TransactionQueue (the default is large enough for any
// request inside a granule).
//
// Measured cycle counts (tests pin them), requester and memory on one Akita
// direct connection:
//
//   - Ideal controller of latency L, all at 1 GHz: sent in cycle 0, the request
//     enters the controller's port in cycle 0 (the connection delivers at the
//     send time), the controller takes it in cycle 1 and responds in cycle
//     1+L, and the requester receives the response in cycle L+2. The channel's
//     latency counter reads L+1.
//   - Idle GDDR5 channel, DRAM and requester at 1 GHz: the response arrives in
//     cycle 40 (parse 1, queue 1, activate tRCDRD = 24, read with precharge
//     tRP = 11, which is what Akita charges for it, respond 1, deliver 1 and
//     the requester's tick); channel latency 39. Writes take the same time.
//
// # Texture L2
//
// BuildL2 adds one Akita write-back cache bank per channel (mem/cache/writeback:
// directory, MSHRs, bank pipeline, write buffer; see its readme for the life of
// a hit, a miss and an eviction). Bank i caches exactly the addresses of
// channel i, computes its set index from the channel-local line address so all
// sets are used, and sends its misses and write-backs from its Bottom port to
// channel i's Top port. Requests must lie inside one line. Dirty lines reach
// the memory image only when evicted or flushed (an Akita cache.FlushReq on
// the Control port).
//
// # Ports and wiring
//
// Memory.Tops[i] is channel i's "Top" port; L2.Tops[i], L2.Bottoms[i] and
// L2.Controls[i] are bank i's ports. Build and BuildL2 connect nothing: the
// platform builder plugs the ports into connections (L2.Bottoms[i] with
// Memory.Tops[i]).
//
// # Statistics
//
// Memory.Stats reports per channel, named <channel name>.<counter> (a
// dramctl channel reports its own set, a superset; see dramctl.Comp.Stats): reads,
// writes, bytes_read, bytes_written, read_latency_avg, read_latency_max,
// write_latency_avg, write_latency_max (cycles of the channel clock, from the
// request's arrival in the Top port's buffer to the response leaving it) and
// in_flight. L2.Stats reports the same per bank at its Top port (cycles of the
// L2 clock) plus read_hits, read_misses, read_mshr_hits, write_hits,
// write_misses, write_mshr_hits (from the cache's req_in trace steps; a
// full-line write to an absent line counts as a write miss although it needs no
// fetch) and read_hit_rate. The counters are port hooks and tracers, so they
// are safe under the parallel engine (timing.ParallelEngine).
package memory
