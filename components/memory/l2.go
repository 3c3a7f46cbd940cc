package memory

import (
	"fmt"
	"math/bits"
	"sync"

	"github.com/sarchlab/akita/v3/mem/cache/writeback"
	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
	"github.com/sarchlab/akita/v3/tracing"

	"github.com/gfxsim/gfxsim/components/memory/dramctl"
	"github.com/gfxsim/gfxsim/timing"
)

// L2 is the shared texture L2: bank i caches the addresses of memory channel i
// and misses and write-backs go to that channel only.
type L2 struct {
	// Config is the resolved configuration (defaults applied).
	Config L2Config
	// Banks are Akita write-back caches named <name>.Bank[i].
	Banks []*writeback.Cache
	// Tops take requests from clients; Bottoms talk to the memory channels
	// (Bottoms[i] must be connected to the memory's Tops[i]); Controls take
	// Akita cache control messages (flush, invalidate).
	Tops, Bottoms, Controls []sim.Port
	// Finder maps a global address to its bank's Top port.
	Finder mem.LowModuleFinder

	stats []*portStats
	hits  []*hitCounter
}

// BuildL2 creates one write-back bank per channel of m on engine, named
// <name>.Bank[i]. The bank's set index is computed from the channel-local line
// address (Akita's interleaving converter), so each bank uses all of its sets.
// The ports are not connected.
func BuildL2(cfg L2Config, m *Memory, engine sim.Engine, name string) (*L2, error) {
	if m == nil {
		return nil, fmt.Errorf("l2 %s: no memory", name)
	}
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(m.Config); err != nil {
		return nil, fmt.Errorf("l2 %s: %w", name, err)
	}
	if engine == nil {
		return nil, fmt.Errorf("l2 %s: no engine", name)
	}
	if err := dramctl.ValidName(name); err != nil {
		return nil, fmt.Errorf("l2: %w", err)
	}
	n := m.Config.NumChannels
	l := &L2{Config: cfg}
	finder := mem.NewInterleavedLowModuleFinder(m.Config.InterleaveBytes)
	linesPerGranule := int(m.Config.InterleaveBytes / uint64(cfg.LineBytes))
	for i := 0; i < n; i++ {
		bankName := fmt.Sprintf("%s.Bank[%d]", name, i)
		bank := writeback.MakeBuilder().
			WithEngine(engine).
			WithFreq(cfg.Freq).
			WithByteSize(cfg.SizeBytes/uint64(n)).
			WithWayAssociativity(cfg.Ways).
			WithLog2BlockSize(uint64(bits.TrailingZeros(uint(cfg.LineBytes)))).
			WithNumMSHREntry(cfg.MSHRs).
			WithNumReqPerCycle(cfg.ReqPerCycle).
			WithDirectoryLatency(cfg.DirectoryLatency).
			WithBankLatency(cfg.BankLatency).
			WithWriteBufferSize(cfg.WriteBufferLines).
			WithMaxInflightFetch(cfg.MaxInflightFetch).
			WithMaxInflightEviction(cfg.MaxInflightEviction).
			WithInterleaving(linesPerGranule, n, i).
			WithLowModuleFinder(&mem.SingleLowModuleFinder{LowModule: m.Tops[i]}).
			Build(bankName)
		top := bank.GetPortByName("Top")
		st := newPortStats(bankName, cfg.Freq)
		top.AcceptHook(st)
		hc := &hitCounter{}
		tracing.CollectTrace(bank, hc)
		l.Banks = append(l.Banks, bank)
		l.Tops = append(l.Tops, top)
		l.Bottoms = append(l.Bottoms, bank.GetPortByName("Bottom"))
		l.Controls = append(l.Controls, bank.GetPortByName("Control"))
		l.stats = append(l.stats, st)
		l.hits = append(l.hits, hc)
		finder.LowModules = append(finder.LowModules, top)
	}
	l.Finder = finder
	return l, nil
}

// hitCounter is a tracing.Tracer that counts the hit/miss steps the write-back
// cache adds to its req_in tasks, once per request. Akita's directory adds a
// "read-hit" step before it knows the bank stage can take the read, and when
// it cannot, it retries the same read (the head of its buffer) in a later
// cycle and adds the step again; a retried read may also have become a miss
// or an MSHR hit. So a read's "read-hit" counts once however often it repeats
// (lastHit is the read it was last counted for), and is taken back when the
// same read then steps as a miss or an MSHR hit.
type hitCounter struct {
	mu           sync.Mutex
	lastHit      string
	readHit      uint64 `stat:"read_hits"`
	readMiss     uint64 `stat:"read_misses"`
	readMSHRHit  uint64 `stat:"read_mshr_hits"`
	writeHit     uint64 `stat:"write_hits"`
	writeMiss    uint64 `stat:"write_misses"`
	writeMSHRHit uint64 `stat:"write_mshr_hits"`
}

func (h *hitCounter) StartTask(tracing.Task) {}
func (h *hitCounter) EndTask(tracing.Task)   {}

func (h *hitCounter) StepTask(t tracing.Task) {
	if len(t.Steps) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	switch t.Steps[0].What {
	case "read-hit":
		if t.ID == h.lastHit {
			return // the directory retried the read
		}
		h.readHit++
		h.lastHit = t.ID
	case "read-miss":
		h.retracted(t.ID)
		h.readMiss++
	case "read-mshr-hit":
		h.retracted(t.ID)
		h.readMSHRHit++
	case "write-hit":
		h.writeHit++
	case "write-miss":
		h.writeMiss++
	case "write-mshr-hit":
		h.writeMSHRHit++
	}
}

// retracted takes back the hit counted for read id when its retry turned
// out a miss or an MSHR hit.
func (h *hitCounter) retracted(id string) {
	if id == h.lastHit {
		h.readHit--
		h.lastHit = ""
	}
}

// Stats reports every bank's counters as <bank name>.<counter>: the traffic
// counters of Memory.Stats measured at the bank's Top port (cycles of
// L2Config.Freq), and read_hits, read_misses, read_mshr_hits, write_hits,
// write_misses, write_mshr_hits, and read_hit_rate (hits over all reads,
// MSHR hits counted as misses). A full-line write to an absent line is a
// write miss that needs no fetch (Akita's accounting).
func (l *L2) Stats(add func(name string, v float64)) {
	for i, s := range l.stats {
		s.report(add)
		h := l.hits[i]
		h.mu.Lock()
		p := s.name + "."
		timing.AddTagged(p, add, h)
		add(p+"read_hit_rate", timing.Ratio(h.readHit, h.readHit+h.readMiss+h.readMSHRHit))
		h.mu.Unlock()
	}
}

// Buffers reports, per bank, the requests that arrived and are not answered.
func (l *L2) Buffers() []timing.BufferState {
	out := make([]timing.BufferState, len(l.stats))
	for i, s := range l.stats {
		out[i] = timing.BufferState{Name: s.name + ".InFlight", Len: s.inFlight()}
	}
	return out
}
