package dramctl

import (
	"math/rand"
	"testing"
	"time"

	"github.com/sarchlab/akita/v3/mem/mem"
	"github.com/sarchlab/akita/v3/sim"
)

// benchStream runs n 64-byte reads at addrs through a GDDR6 channel (refresh
// on, checker off) with 64 in flight, b.N times, and reports simulated
// requests per wall second and the engine's events per request.
func benchStream(b *testing.B, n int, addr func(i int) uint64) {
	cfg := Config{Preset: "GDDR6", Refresh: true}
	script := stream(n, addr)
	var wall time.Duration
	events := 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		g := newRigLogged(b, cfg, script, 64, false)
		g.engine.AcceptHook(eventCounter{&events})
		b.StartTimer()
		start := time.Now()
		g.run(b)
		wall += time.Since(start)
	}
	b.ReportMetric(float64(n*b.N)/wall.Seconds(), "requests/wall-s")
	b.ReportMetric(float64(events)/float64(n*b.N), "events/request")
}

// eventCounter counts the engine's events.
type eventCounter struct{ n *int }

func (e eventCounter) Func(ctx sim.HookCtx) {
	if ctx.Pos == sim.HookPosBeforeEvent {
		*e.n++
	}
}

// BenchmarkSequentialReads: 100,000 consecutive 64-byte reads per iteration.
func BenchmarkSequentialReads(b *testing.B) {
	benchStream(b, 100000, func(i int) uint64 { return uint64(i) * 64 })
}

// BenchmarkRandomReads: 100,000 64-byte reads at seeded random addresses of
// the channel's first 16 MiB (512 rows of each bank: nearly every read misses
// its rows) per iteration.
func BenchmarkRandomReads(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	addrs := make([]uint64, 100000)
	for i := range addrs {
		addrs[i] = uint64(rng.Int63n(16<<20)) &^ 63
	}
	benchStream(b, len(addrs), func(i int) uint64 { return addrs[i] })
}

// benchCore drives the controller's scheduler directly, without the engine,
// ports or messages in between, step for step as Tick does (catch up, queue
// the requests that fit, issue the cycle's command from the plan or a
// decision, drop the responses that are due, plan the next command and jump to
// its cycle or the next response's). It reports simulated requests per wall
// second: the model's own cost.
func benchCore(b *testing.B, addrs []uint64) {
	cfg := Config{Preset: "GDDR6", Refresh: true}
	msgs := make([]*mem.ReadReq, len(addrs))
	for i, a := range addrs {
		msgs[i] = mem.ReadReqBuilder{}.WithAddress(a).WithByteSize(64).Build()
	}
	var wall time.Duration
	for it := 0; it < b.N; it++ {
		c, err := MakeBuilder().WithEngine(sim.NewSerialEngine()).WithConfig(cfg).Build("Channel")
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		next, done, t := 0, 0, int64(0)
		for done < len(msgs) {
			c.catchUp(t)
			for next < len(msgs) {
				local := msgs[next].Address
				first := local / c.burstBytes
				n := int((local+63)/c.burstBytes - first + 1)
				if len(c.reads)+n > c.cfg.ReadQueue {
					break
				}
				c.enqueue(msgs[next], msgs[next].Address, 64, false, first, n, t)
				next++
			}
			if c.cur == t {
				if ch, ok, _ := c.planned(t, true); ok {
					c.issue(ch, t)
					c.cur = t + 1
				}
			}
			for len(c.responses) > 0 && c.reqs[c.responses[0]].due <= t {
				slot := c.responses[0]
				copy(c.responses, c.responses[1:])
				c.responses = c.responses[:len(c.responses)-1]
				c.reqs[slot] = request{}
				c.freeReqs = append(c.freeReqs, slot)
				done++
			}
			at := int64(forever)
			if len(c.responses) > 0 {
				at = c.reqs[c.responses[0]].due
			}
			if len(c.reads) > 0 {
				at = min(at, c.makePlan(max(c.cur, t+1)))
			}
			t = max(at, t+1)
		}
		wall += time.Since(start)
	}
	b.ReportMetric(float64(len(addrs)*b.N)/wall.Seconds(), "requests/wall-s")
}

// BenchmarkCoreSequentialReads: BenchmarkSequentialReads' requests through the
// scheduler alone.
func BenchmarkCoreSequentialReads(b *testing.B) {
	addrs := make([]uint64, 100000)
	for i := range addrs {
		addrs[i] = uint64(i) * 64
	}
	benchCore(b, addrs)
}

// BenchmarkCoreRandomReads: BenchmarkRandomReads' requests through the
// scheduler alone.
func BenchmarkCoreRandomReads(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	addrs := make([]uint64, 100000)
	for i := range addrs {
		addrs[i] = uint64(rng.Int63n(16<<20)) &^ 63
	}
	benchCore(b, addrs)
}
