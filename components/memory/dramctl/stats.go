package dramctl

import (
	"fmt"
	"math/bits"
	"sort"

	"github.com/gfxsim/gfxsim/timing"
	"github.com/sarchlab/akita/v3/sim"
)

// Read-latency histogram: bucket 0 counts latencies below 2^histLowBits
// cycles, bucket k latencies in [2^(histLowBits+k-1), 2^(histLowBits+k)), the
// last everything from 2^(histLowBits+histBuckets-2) up.
const (
	histLowBits = 5
	histBuckets = 11
)

// client counts the bytes one requester (by its port) moved.
type client struct {
	name  string
	bytes uint64
}

// stats are the controller's statistics, named by their tags (Stats).
type stats struct {
	reads        uint64 `stat:"reads"`
	writes       uint64 `stat:"writes"`
	bytesRead    uint64 `stat:"bytes_read"`
	bytesWritten uint64 `stat:"bytes_written"`
	rowHits      uint64 `stat:"row_hits"`
	rowMisses    uint64 `stat:"row_misses"`
	rowConflicts uint64 `stat:"row_conflicts"`
	activates    uint64 `stat:"activates"`
	precharges   uint64 `stat:"precharges"`
	refreshes    uint64 `stat:"refreshes"`
	readMax      int    `stat:"read_queue_max"`
	writeMax     int    `stat:"write_queue_max"`
	readLatMax   uint64 `stat:"read_latency_max"`
	writeLatMax  uint64 `stat:"write_latency_max"`
	readsDone    uint64
	readLatSum   uint64
	writesDone   uint64
	writeLatSum  uint64
	readHist     [histBuckets]uint64
	readArea     uint64 // queue entries x cycles
	writeArea    uint64
	occAt        int64 // cycle the areas run to
	lastResponse int64
	clients      map[sim.Port]*client
	lastPort     sim.Port // the port client returned last, and its client
	last         *client
}

func (s *stats) client(p sim.Port) *client {
	if s.last != nil && p == s.lastPort {
		return s.last // a channel's requests mostly come from one client (its L2 bank)
	}
	if s.clients == nil {
		s.clients = map[sim.Port]*client{}
	}
	cl, ok := s.clients[p]
	if !ok {
		name := "unknown"
		if p != nil {
			name = p.Name()
		}
		cl = &client{name: name}
		s.clients[p] = cl
	}
	s.lastPort, s.last = p, cl
	return cl
}

func (s *stats) request(write bool, size uint64, cl *client) {
	if write {
		s.writes++
		s.bytesWritten += size
	} else {
		s.reads++
		s.bytesRead += size
	}
	cl.bytes += size
}

// occupancy accounts the queue lengths held until cycle t (call it before a
// queue changes).
func (s *stats) occupancy(t int64, reads, writes int) {
	if t > s.occAt {
		s.readArea += uint64(reads) * uint64(t-s.occAt)
		s.writeArea += uint64(writes) * uint64(t-s.occAt)
		s.occAt = t
	}
	s.readMax, s.writeMax = max(s.readMax, reads), max(s.writeMax, writes)
}

func (s *stats) response(write bool, latency, t int64) {
	lat := uint64(max(latency, 0))
	s.lastResponse = max(s.lastResponse, t)
	if write {
		s.writesDone++
		s.writeLatSum += lat
		s.writeLatMax = max(s.writeLatMax, lat)
		return
	}
	s.readsDone++
	s.readLatSum += lat
	s.readLatMax = max(s.readLatMax, lat)
	s.readHist[min(max(bits.Len64(lat)-histLowBits, 0), histBuckets-1)]++
}

// HistogramBucketNames returns the names of the read-latency histogram's
// counters, lowest bucket first: read_latency_lt_32, read_latency_lt_64, ...,
// read_latency_ge_16384 (cycles of the command clock).
func HistogramBucketNames() []string {
	out := make([]string, histBuckets)
	for k := 0; k < histBuckets-1; k++ {
		out[k] = fmt.Sprintf("read_latency_lt_%d", 1<<(histLowBits+k))
	}
	out[histBuckets-1] = fmt.Sprintf("read_latency_ge_%d", 1<<(histLowBits+histBuckets-2))
	return out
}

// Stats reports the controller's counters as <name>.<counter>:
//
//   - reads, writes, bytes_read, bytes_written: requests accepted and their bytes;
//   - achieved_bandwidth: bytes_read+bytes_written per nanosecond (GB/s) from
//     cycle 0 to the last response; peak_bandwidth: the channel's bus width
//     times its data rate (GB/s);
//   - row_hits, row_misses, row_conflicts: bursts whose row was open when the
//     request arrived and stayed open, bursts that found the bank closed, and
//     bursts that found another row open; row_hit_rate; bursts_per_activate
//     (all bursts over activates: the row locality the scheduler made use
//     of, bursts that queued together for one activate counted alike, which
//     row_hit_rate, by the state at arrival, counts as misses);
//   - activates, precharges, refreshes, refresh_cycles (refreshes x tRFC);
//   - read_queue_avg, read_queue_max, write_queue_avg, write_queue_max:
//     bursts queued, averaged over cycles up to the last queue change;
//   - read_latency_avg, read_latency_max, write_latency_avg,
//     write_latency_max: command-clock cycles from a request's arrival in the
//     Top port to its response leaving, and the read-latency histogram
//     (HistogramBucketNames);
//   - client_bytes[<port>]: bytes read and written by each requester;
//   - in_flight: requests accepted and not answered.
func (c *Comp) Stats(add func(name string, v float64)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := &c.stats
	p := c.Name() + "."
	tck := float64(c.cfg.Timing.TCKps) / 1000
	bw := 0.0
	if s.lastResponse > 0 {
		bw = float64(s.bytesRead+s.bytesWritten) / (float64(s.lastResponse) * tck)
	}
	timing.AddTagged(p, add, s)
	add(p+"achieved_bandwidth", bw)
	add(p+"peak_bandwidth", PeakBytesPerNs(c.cfg.Geometry, c.cfg.Timing))
	add(p+"row_hit_rate", timing.Ratio(s.rowHits, s.rowHits+s.rowMisses+s.rowConflicts))
	add(p+"bursts_per_activate", timing.Ratio(s.rowHits+s.rowMisses+s.rowConflicts, s.activates))
	add(p+"refresh_cycles", float64(s.refreshes)*float64(c.cfg.Timing.TRFC))
	add(p+"read_queue_avg", timing.Ratio(s.readArea, uint64(max(s.occAt, 0))))
	add(p+"write_queue_avg", timing.Ratio(s.writeArea, uint64(max(s.occAt, 0))))
	add(p+"read_latency_avg", timing.Ratio(s.readLatSum, s.readsDone))
	add(p+"write_latency_avg", timing.Ratio(s.writeLatSum, s.writesDone))
	add(p+"in_flight", float64(len(c.reqs)-len(c.freeReqs)))
	for k, name := range HistogramBucketNames() {
		add(p+name, float64(s.readHist[k]))
	}
	clients := make([]*client, 0, len(s.clients))
	for _, cl := range s.clients {
		clients = append(clients, cl)
	}
	sort.Slice(clients, func(i, j int) bool { return clients[i].name < clients[j].name })
	for _, cl := range clients {
		add(p+"client_bytes["+cl.name+"]", float64(cl.bytes))
	}
}
