package dramctl

import (
	"math/rand"
	"testing"
	"time"

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
