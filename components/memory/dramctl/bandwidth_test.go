package dramctl

import (
	"math/rand"
	"testing"
)

// stream returns n 64-byte reads, all sent at cycle 0 (the requester keeps
// window of them in flight), at addrs(i).
func stream(n int, addr func(i int) uint64) []op {
	s := make([]op, n)
	for i := range s {
		s[i] = op{addr: addr(i), size: 64}
	}
	return s
}

// throughput runs script and returns the bytes per cycle delivered from the
// first response to the last, and the run's statistics.
func throughput(t *testing.T, cfg Config, script []op, window int) (float64, map[string]float64) {
	t.Helper()
	g := newRig(t, cfg, script, window)
	g.run(t)
	first, last := int64(1<<62), int64(0)
	for i := range script {
		first, last = min(first, g.leaves(i)), max(last, g.leaves(i))
	}
	return float64(len(script)-1) * 64 / float64(last-first), g.stats()
}

// TestSequentialReadsReachPeak streams 64-byte reads through consecutive
// addresses of a GDDR6 channel (the default mapping, FR-FCFS, open page,
// refresh on) with 64 in flight: the data bus must be busy at least 90% of
// the time. Peak: 16 bits x 8 transfers per clock = 16 bytes per cycle (28
// GB/s at 1.75 GHz). The losses the timing predicts: refresh holds the
// channel tRFC = 210 of every tREFI = 3333 cycles (6.3%), and every 32 KB
// (2048 bus cycles) the stream moves to new rows in all 16 banks.
func TestSequentialReadsReachPeak(t *testing.T) {
	cfg := Config{Preset: "GDDR6", Refresh: true, Check: true}
	const n = 20000
	got, st := throughput(t, cfg, stream(n, func(i int) uint64 { return uint64(i) * 64 }), 64)
	peak := 16.0
	t.Logf("sequential: %.2f of %.0f bytes per cycle (%.1f%%), %.2f GB/s, row hit rate %.3f, refreshes %v",
		got, peak, 100*got/peak, st["Channel.achieved_bandwidth"], st["Channel.row_hit_rate"], st["Channel.refreshes"])
	if got < 0.9*peak || got > peak {
		t.Errorf("sequential reads deliver %.2f bytes per cycle, want at least 90%% of %.0f", got, peak)
	}
}

// TestRandomReadsMatchTiming sends 64-byte reads to random addresses of a
// GDDR6 channel (each touches bank groups 2k and 2k+1 of one bank index: two
// activates, as every read misses its rows): the activate rate bounds it.
// One activate per max(tRRD_S, tFAW/4) = max(7, 28/4) = 7 cycles, two per
// request: at most 64/14 = 4.57 bytes per cycle. Bank conflicts in the
// queue (tRC = 79 per bank) and refresh (6.3%) cost a little more: the test
// wants 75% to 100% of the bound.
func TestRandomReadsMatchTiming(t *testing.T) {
	cfg := Config{Preset: "GDDR6", Refresh: true, Check: true}
	rng := rand.New(rand.NewSource(3))
	const n = 8000
	capacity := cfg.WithDefaults().Geometry.Capacity()
	got, st := throughput(t, cfg, stream(n, func(int) uint64 { return uint64(rng.Int63n(int64(capacity))) &^ 63 }), 64)
	bound := 64.0 / (2 * 7)
	t.Logf("random: %.3f bytes per cycle, bound %.3f (%.1f%%), row hit rate %.3f, activates %v",
		got, bound, 100*got/bound, st["Channel.row_hit_rate"], st["Channel.activates"])
	if got < 0.75*bound || got > bound {
		t.Errorf("random reads deliver %.3f bytes per cycle, want 75%% to 100%% of %.3f", got, bound)
	}
}
