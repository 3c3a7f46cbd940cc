package memory

import (
	"sync"

	"github.com/gfxsim/gfxsim/timing"
	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
)

// portStats counts the requests that arrive at a memory-side Top port and the
// responses that leave it. It is a sim.Hook on the port: a request is counted
// when the port accepts it into its buffer (HookPosPortMsgRecvd) and its latency
// ends when the response to it is sent (HookPosPortMsgSend), so the latency
// includes the time the request waited in the port's buffer. Hooks may run on
// the parallel engine's goroutines, hence the lock.
type portStats struct {
	name string
	freq sim.Freq

	mu      sync.Mutex
	arrived map[string]arrival // outstanding requests by message ID

	reads        uint64 `stat:"reads"`
	writes       uint64 `stat:"writes"`
	bytesRead    uint64 `stat:"bytes_read"`
	bytesWritten uint64 `stat:"bytes_written"`
	readLatMax   uint64 `stat:"read_latency_max"`
	writeLatMax  uint64 `stat:"write_latency_max"`
	readsDone    uint64
	writesDone   uint64
	readLatSum   uint64
	writeLatSum  uint64
}

type arrival struct {
	at    sim.VTimeInSec
	write bool
}

func newPortStats(name string, freq sim.Freq) *portStats {
	return &portStats{name: name, freq: freq, arrived: make(map[string]arrival)}
}

// Func implements sim.Hook.
func (s *portStats) Func(ctx sim.HookCtx) {
	switch ctx.Pos {
	case sim.HookPosPortMsgRecvd:
		s.request(ctx.Item)
	case sim.HookPosPortMsgSend:
		s.response(ctx.Item)
	}
}

func (s *portStats) request(item any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch m := item.(type) {
	case *mem.ReadReq:
		s.reads++
		s.bytesRead += m.AccessByteSize
		s.arrived[m.ID] = arrival{at: m.RecvTime}
	case *mem.WriteReq:
		s.writes++
		s.bytesWritten += uint64(len(m.Data))
		s.arrived[m.ID] = arrival{at: m.RecvTime, write: true}
	}
}

func (s *portStats) response(item any) {
	var id string
	var at sim.VTimeInSec
	switch m := item.(type) {
	case *mem.DataReadyRsp:
		id, at = m.RespondTo, m.SendTime
	case *mem.WriteDoneRsp:
		id, at = m.RespondTo, m.SendTime
	default:
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.arrived[id]
	if !ok {
		return
	}
	delete(s.arrived, id)
	lat := s.freq.Cycle(at) - min(s.freq.Cycle(a.at), s.freq.Cycle(at))
	if a.write {
		s.writesDone++
		s.writeLatSum += lat
		s.writeLatMax = max(s.writeLatMax, lat)
	} else {
		s.readsDone++
		s.readLatSum += lat
		s.readLatMax = max(s.readLatMax, lat)
	}
}

// inFlight returns the requests that arrived and have not been answered.
func (s *portStats) inFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.arrived)
}

// report adds the counters, named <name>.<counter>.
func (s *portStats) report(add func(string, float64)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.name + "."
	timing.AddTagged(p, add, s)
	add(p+"read_latency_avg", timing.Ratio(s.readLatSum, s.readsDone))
	add(p+"write_latency_avg", timing.Ratio(s.writeLatSum, s.writesDone))
	add(p+"in_flight", float64(len(s.arrived)))
}
