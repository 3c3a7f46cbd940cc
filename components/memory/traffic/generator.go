package traffic

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/timing"
)

// Pattern is the order in which a generator visits addresses.
type Pattern int

// Patterns.
const (
	Sequential Pattern = iota // consecutive requests at consecutive addresses
	Strided                   // consecutive requests StrideBytes apart
	Random                    // uniform over SpanBytes, seeded
)

var patternNames = []string{"sequential", "strided", "random"}

func (p Pattern) String() string {
	if p < 0 || int(p) >= len(patternNames) {
		return fmt.Sprintf("Pattern(%d)", int(p))
	}
	return patternNames[p]
}

// ParsePattern maps "sequential", "strided" or "random" (case-insensitive)
// to its Pattern.
func ParsePattern(s string) (Pattern, error) {
	for i, n := range patternNames {
		if strings.EqualFold(s, n) {
			return Pattern(i), nil
		}
	}
	return 0, fmt.Errorf("unknown traffic pattern %q (want one of %s)", s, strings.Join(patternNames, ", "))
}

// Defaults applied by Config.WithDefaults to zero fields.
const (
	DefaultRequestBytes   = 64
	DefaultMaxOutstanding = 16
	DefaultSpanBytes      = 256 << 20
)

// Config describes a generator's traffic. Zero fields take the defaults named
// on each field.
type Config struct {
	// Pattern is the address order (default Sequential).
	Pattern Pattern
	// Write makes every request a write (of zero bytes); else they are reads.
	Write bool
	// Requests is the number of requests to issue (at least 1).
	Requests int
	// RequestBytes is each request's size, a power of two (default 64). A
	// request must lie inside one channel's interleave granule.
	RequestBytes uint64
	// MaxOutstanding is the offered load: requests in flight at once (default 16).
	MaxOutstanding int
	// Base is the first address, a multiple of RequestBytes.
	Base uint64
	// StrideBytes is the distance between consecutive Strided requests, a
	// multiple of RequestBytes (default RequestBytes).
	StrideBytes uint64
	// SpanBytes is the range of Random addresses above Base, a multiple of
	// RequestBytes (default 256 MiB).
	SpanBytes uint64
	// Seed seeds the Random pattern's generator.
	Seed uint64
}

// WithDefaults returns c with zero fields replaced by their defaults.
func (c Config) WithDefaults() Config {
	if c.RequestBytes == 0 {
		c.RequestBytes = DefaultRequestBytes
	}
	if c.MaxOutstanding == 0 {
		c.MaxOutstanding = DefaultMaxOutstanding
	}
	if c.StrideBytes == 0 {
		c.StrideBytes = c.RequestBytes
	}
	if c.SpanBytes == 0 {
		c.SpanBytes = DefaultSpanBytes
	}
	return c
}

// Validate checks c after defaults; the error names the first bad field.
func (c Config) Validate() error {
	c = c.WithDefaults()
	switch {
	case c.Pattern < Sequential || c.Pattern > Random:
		return fmt.Errorf("Pattern: %d is not a pattern", int(c.Pattern))
	case c.Requests < 1 || c.Requests > 1<<26:
		return fmt.Errorf("Requests: %d is outside [1, %d]", c.Requests, 1<<26)
	case c.RequestBytes&(c.RequestBytes-1) != 0 || c.RequestBytes > 1<<20:
		return fmt.Errorf("RequestBytes: %d is not a power of two up to 1 MiB", c.RequestBytes)
	case c.MaxOutstanding < 1 || c.MaxOutstanding > 1<<16:
		return fmt.Errorf("MaxOutstanding: %d is outside [1, 65536]", c.MaxOutstanding)
	case c.Base%c.RequestBytes != 0:
		return fmt.Errorf("Base: 0x%x is not a multiple of RequestBytes %d", c.Base, c.RequestBytes)
	case c.StrideBytes%c.RequestBytes != 0:
		return fmt.Errorf("StrideBytes: %d is not a multiple of RequestBytes %d", c.StrideBytes, c.RequestBytes)
	case c.SpanBytes%c.RequestBytes != 0:
		return fmt.Errorf("SpanBytes: %d is not a multiple of RequestBytes %d", c.SpanBytes, c.RequestBytes)
	}
	return nil
}

// Result is what a generator measured. Cycles are the generator's.
type Result struct {
	Requests   int    // requests completed
	Bytes      uint64 // bytes they moved
	FirstIssue uint64 // cycle the first request was issued
	LastDone   uint64 // cycle the last response was received
	// Latencies are the requests' latencies (cycles from issue to the
	// response's receipt) in completion order.
	Latencies []uint64
}

// Cycles returns the cycles from the first issue to the last completion.
func (r Result) Cycles() uint64 {
	if r.Requests == 0 {
		return 0
	}
	return r.LastDone - r.FirstIssue
}

// BytesPerCycle returns the bytes moved per generator cycle from the first
// issue to the last completion.
func (r Result) BytesPerCycle() float64 {
	if r.Cycles() == 0 {
		return 0
	}
	return float64(r.Bytes) / float64(r.Cycles())
}

// AverageLatency returns the mean latency in cycles.
func (r Result) AverageLatency() float64 {
	if len(r.Latencies) == 0 {
		return 0
	}
	var s uint64
	for _, l := range r.Latencies {
		s += l
	}
	return float64(s) / float64(len(r.Latencies))
}

// Percentile returns the smallest latency that at least p percent (0 < p <=
// 100) of the requests do not exceed (nearest rank), 0 without requests.
func (r Result) Percentile(p float64) uint64 {
	n := len(r.Latencies)
	if n == 0 {
		return 0
	}
	s := slices.Clone(r.Latencies)
	slices.Sort(s)
	k := int(float64(n)*p/100+0.999999999) - 1
	return s[min(max(k, 0), n-1)]
}

// Generator is the traffic generator component (see the package documentation).
type Generator struct {
	*timing.TickingComponent
	// Port is the generator's Mem port; connect it to the memory's Top ports.
	Port sim.Port

	cfg    Config
	client *memclient.Client
	rng    *rand.Rand
	data   []byte // the payload of every write (the memory copies it)
	next   int    // requests issued
	// The next request's address, drawn once: a refused request keeps it,
	// so the address sequence does not depend on the timing.
	pending     bool
	pendingAddr uint64
	res         Result
}

// New returns a generator named name (an Akita component name) with clock
// freq on engine, sending to the ports finder gives. Start it with TickNow.
func New(engine sim.Engine, name string, freq sim.Freq, finder mem.LowModuleFinder, cfg Config) (*Generator, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("traffic %s: %w", name, err)
	}
	g := &Generator{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15)),
		res: Result{Latencies: make([]uint64, 0, cfg.Requests)}}
	if cfg.Write {
		g.data = make([]byte, cfg.RequestBytes)
	}
	g.TickingComponent = timing.NewTickingComponent(name, engine, freq, g)
	g.Port = timing.AddPort(g, "Mem", cfg.MaxOutstanding)
	c, err := memclient.New(g.Port, finder, freq, memclient.Config{MaxOutstanding: cfg.MaxOutstanding})
	if err != nil {
		return nil, fmt.Errorf("traffic %s: %w", name, err)
	}
	g.client = c
	return g, nil
}

// Done reports whether every request has completed.
func (g *Generator) Done() bool { return g.res.Requests == g.cfg.Requests }

// Result returns what the generator measured so far.
func (g *Generator) Result() Result { return g.res }

// Stats reports the generator's memory client counters as <name>.<counter>
// (memclient.Client.Stats).
func (g *Generator) Stats(add func(string, float64)) { g.client.Stats(g.Name(), add) }

// address returns the address of request i.
func (g *Generator) address(i int) uint64 {
	c := &g.cfg
	switch c.Pattern {
	case Strided:
		return c.Base + uint64(i)*c.StrideBytes
	case Random:
		return c.Base + g.rng.Uint64N(c.SpanBytes/c.RequestBytes)*c.RequestBytes
	}
	return c.Base + uint64(i)*c.RequestBytes
}

func (g *Generator) peekAddress() uint64 {
	if !g.pending {
		g.pendingAddr, g.pending = g.address(g.next), true
	}
	return g.pendingAddr
}

// Tick takes the responses, then issues requests while the client accepts them.
func (g *Generator) Tick(now sim.VTimeInSec) bool {
	progress := false
	cycle := g.Freq.Cycle(now)
	for {
		c, ok := g.client.Receive(now)
		if !ok {
			break
		}
		g.res.Requests++
		g.res.Bytes += c.Size
		g.res.LastDone = cycle
		g.res.Latencies = append(g.res.Latencies, c.Latency)
		progress = true
	}
	for g.next < g.cfg.Requests {
		addr := g.peekAddress()
		var ok bool
		if g.cfg.Write {
			ok = g.client.Write(now, addr, g.data, uint64(g.next))
		} else {
			ok = g.client.Read(now, addr, g.cfg.RequestBytes, uint64(g.next))
		}
		if !ok {
			break
		}
		if g.next == 0 {
			g.res.FirstIssue = cycle
		}
		g.next++
		g.pending = false
		progress = true
	}
	return progress
}
