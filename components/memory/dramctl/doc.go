// Package dramctl is gfxsim's DRAM controller: one channel of a GDDR5, GDDR6,
// HBM2 or LPDDR4 memory, an Akita component that takes mem.ReadReq and
// mem.WriteReq on its Top port and answers mem.DataReadyRsp and
// mem.WriteDoneRsp, timing every request by the DRAM commands it needs.
// components/memory builds one per channel for memory type "dramctl".
//
// # Hardware
//
// A channel is Ranks ranks of BankGroups bank groups of Banks banks; a bank
// holds Rows rows of Columns bursts (the page); a burst (column access) moves
// BusWidth/8*BurstLength bytes and holds the data bus BurstLength/DataRate
// command clocks. The controller issues one command per clock on the command
// bus:
//
//   - ACT opens a row in a closed bank (its row buffer);
//   - RD and WR move one burst from or to the open row, CL or CWL clocks
//     later on the shared data bus;
//   - PRE closes a bank;
//   - REF refreshes every bank of a rank (all banks closed), for tRFC.
//
// Every command waits for the rules of the timing (Timing, in clocks): per
// bank tRCD/tRCDWR (ACT to RD/WR), tRAS (ACT to PRE), tRP (PRE to ACT), tRC
// (ACT to ACT), tRTP (RD to PRE), tWR (end of write data to PRE); per bank
// group and rank tCCD_L/S (column to column), tRRD_L/S (ACT to ACT), tWTR_L/S
// (end of write data to RD), at most four ACTs per tFAW; per rank tRFC after
// a REF; on the data bus no overlap, tRTW idle clocks from read to write data
// and tRTRS between ranks. Presets (PresetNames) give the geometry and timing
// of one public part each, with their sources (presets.go and
// configs/README.md, "DRAM presets"):
//
//   - GDDR5: SK hynix H5GQ1H24AFR, 1 Gb x32 at 4 Gb/s (via gem5's transcription);
//   - GDDR6: Micron MT61K256M32JE-14, x16 channels at 14 Gb/s (Micron's brief;
//     row timings from Ramulator2's GDDR6 preset, as JESD250 leaves them to
//     the vendors);
//   - HBM2: JESD235 128-bit legacy channel at 2 Gb/s (DRAMsim3's HBM2 timings);
//   - LPDDR4: JESD209-4 LPDDR4-3200 x16 channel.
//
// # Address mapping
//
// Requests carry global addresses; an AddressConverter (components/memory's
// Memory) gives the channel-local address and the address of the bytes in
// the shared mem.Storage. The local address is cut into fields by Mapping: the
// bits below the burst select a byte of it, and above them the fields named
// in Config.Mapping take their bits, the last named lowest (default
// "row,column,bank,bankgroup": consecutive bursts rotate over the bank groups,
// then the banks). Optional XOR bank hashing XORs the rank-local bank index
// with the row's low bits. Addresses beyond the channel's capacity wrap.
//
// # Ports
//
// Top (incoming buffer of Config.TopBuffer requests) takes the requests and
// sends the responses. Requests must lie within one interleave granule of the
// memory (they cross no channel).
//
// # Life of a request
//
//  1. A request enters the Top port; the controller, woken by the port, takes
//     it in its next cycle when all its bursts fit the read or write queue
//     (else it waits at the head of the port). Taking it applies it to the
//     storage at once (a read copies its bytes into the response, a write
//     writes its bytes, only the dirty ones when it has a mask), so a
//     channel's requests take effect in arrival order, and builds the
//     response. Each burst it touches becomes a queue entry with its bank,
//     row and column.
//  2. Each cycle the scheduler (decide) picks at most one command: a due
//     refresh first (the rank takes no new ACT or column command; its open
//     banks are precharged, then it is refreshed); then, from the read queue
//     or, while writes drain, the write queue, the bursts that waited
//     StarvationCap cycles or more (starved), oldest first: the oldest starved
//     burst of a bank holds the bank (no younger burst's command issues in it,
//     so younger row hits cannot overtake it, and it may precharge a row
//     other bursts hit), but other banks go on, so serving starved bursts
//     still overlaps independent banks; then FR-FCFS: the oldest burst whose
//     RD or WR (a row hit) is ready, else the oldest whose ACT or PRE is
//     ready, never closing a row that a queued burst hits (FCFS: each bank
//     serves its bursts in arrival order, and the oldest ready command among
//     the banks issues);
//     last, the page policy closes idle rows no queued burst hits (closed: at
//     once; timeout: PageTimeout cycles after their last access; open: never).
//     Writes drain from WriteHigh queued writes (or when no read waits, or the
//     oldest write starved) down to WriteLow.
//  3. A burst leaves its queue when its RD or WR issues; when a request's last
//     burst has issued, its response is due the cycle that burst's data
//     transfer ends, and leaves the Top port then (or as soon as the port
//     takes it).
//
// The controller is event driven: after each tick it computes the next cycle
// at which a command may legally issue or a response falls due and asks its
// timing.Waker for a tick then, and Tick returns false, so it does no work on
// cycles where nothing can happen. An idle channel (no queued burst) sleeps
// through refreshes and page-policy closes; when it wakes it issues them at
// their own cycles (they depend on no request), so an idle machine runs out
// of events and the command stream is the same as if it had stayed awake.
//
// The scheduler's cost per decision does not grow with the queue in the common
// case (FR-FCFS, no burst starved, no rank waiting for its refresh): every
// burst of a bank needs the same command at the same cycle, so it looks at
// each busy bank once. Each bank keeps the command it waits for and the burst
// it serves (the oldest burst that hits the open row, else the oldest),
// updated as bursts join and leave and rows open and close; the
// bank-independent parts of the timing rules are computed once per decision,
// and the decision is the least of one 64-bit key per bank (cycles to wait,
// column before row command, burst) (fastScan; the other cases scan every
// queued burst). A decision that finds nothing ready also predicts the command
// of the cycle it wakes for; the controller keeps it as a plan and issues it
// then without deciding again if nothing has changed (no command issued, no
// mode switch pending, and no request taken whose bursts could change the
// decision: a burst joining a bank that already has bursts changes nothing
// unless it is the first to hit the open row; one in an idle bank changes
// nothing if its command cannot be ready before the planned one).
// TestFastScanAndPlansEqualTheQueueScan checks every shortcut against the full
// scan and a fresh decision on random, sequential and mixed traffic for every
// preset, scheduler and page policy.
//
// Exact timing of an idle channel, a request taken in cycle a: a read of an
// idle bank leaves at a+tRCD+CL+BC (BC = BurstLength/DataRate), a write at
// a+tRCDWR+CWL+BC, a row hit at a+CL+BC, a row conflict at
// a+tRP+tRCD+CL+BC (TestIdleBankTiming pins them per preset).
//
// # Protocol checker
//
// Checker replays the commands of a channel (ACT, RD, WR, PRE, REF with cycle,
// rank, bank group, bank, row and column) and reports the first that breaks a
// rule: the bank state (a read of a closed bank, an activate of an open one),
// every timing above, a refresh overdue beyond JEDEC's postponement limit (8
// refreshes), data bus overlap, two commands in one cycle. It keeps its own
// history and does not share the controller's bookkeeping. With Config.Check
// the controller records every command into one, and a violation stops the
// run through the platform's timing.Halt with an error naming the rule.
//
// # Statistics
//
// Stats reports, under "<name>.": reads, writes, bytes_read, bytes_written,
// achieved_bandwidth (bytes per ns from cycle 0 to the last response),
// peak_bandwidth, row_hits, row_misses, row_conflicts (the row was open when
// the request arrived and stayed open; the bank was closed; another row was
// open), row_hit_rate, bursts_per_activate (all bursts over activates: bursts
// that queued together for one activate count alike, where row_hit_rate, by
// the row's state at arrival, counts them as misses), activates, precharges,
// refreshes, refresh_cycles,
// read_queue_avg, read_queue_max, write_queue_avg and write_queue_max
// (bursts, averaged over cycles), read_latency_avg, read_latency_max,
// write_latency_avg and write_latency_max (command clocks from arrival in the
// Top port to the response leaving), a read-latency histogram in power-of-two
// buckets (HistogramBucketNames: read_latency_lt_<n> for n = 32, 64, ...,
// 16384, and read_latency_ge_16384), client_bytes[<port>] per
// requester (the requester's port name), and in_flight.
package dramctl
