package memory_test

import (
	"fmt"
	"testing"

	"github.com/gfxsim/gfxsim/components/memclient"
	"github.com/gfxsim/gfxsim/components/memory"
)

// burst returns n reads (or writes) of size bytes at consecutive addresses of
// one granule-sized channel, all at cycle 0.
func burst(n int, size uint64, write bool) []op {
	s := make([]op, n)
	for i := range s {
		s[i] = op{addr: imageBase + uint64(i)*size, size: size, tag: uint64(i), write: write}
		if write {
			s[i].data = pattern(int(size), byte(i))
		}
	}
	return s
}

// idealRun runs script on one limited ideal channel (all clocks 1 GHz) and
// returns the cycles the agent received each completion in, by tag.
func idealRun(t *testing.T, ic memory.IdealConfig, script []op) []uint64 {
	t.Helper()
	ic.TopBufferSize = len(script)
	cfg := memory.Config{Type: memory.TypeIdeal, NumChannels: 1, InterleaveBytes: 1 << 20, Ideal: ic}
	r := newRig(t, cfg, nil, memclient.Config{MaxOutstanding: len(script)}, script)
	r.run(t)
	got := make([]uint64, len(script))
	for _, d := range r.agent.done {
		got[d.Tag] = d.cycle
	}
	for i, c := range r.agent.issued {
		if c != 0 {
			t.Fatalf("op %d issued in cycle %d, want 0", i, c)
		}
	}
	return got
}

// TestIdealConcurrencyLimit: N requests waiting in the port, a limit of k in
// flight and Width k. Wave w (requests w*k .. w*k+k-1) is taken in cycle
// 1+w*L, when wave w-1 is answered (responses go first in a cycle), and
// answered in 1+(w+1)*L; the agent receives it a cycle later. So N requests
// finish in ceil(N/k) waves of L cycles: the last arrives in 2+ceil(N/k)*L.
func TestIdealConcurrencyLimit(t *testing.T) {
	for _, tc := range []struct {
		n, k, latency int
		write         bool
	}{
		{8, 2, 10, false}, {9, 4, 25, false}, {5, 1, 3, true}, {12, 12, 7, false}, {10, 3, 100, true},
	} {
		t.Run(fmt.Sprintf("N%d/k%d/L%d/write=%v", tc.n, tc.k, tc.latency, tc.write), func(t *testing.T) {
			got := idealRun(t, memory.IdealConfig{Latency: tc.latency, Width: tc.k, MaxOutstanding: tc.k},
				burst(tc.n, 64, tc.write))
			for i, c := range got {
				if want := uint64(2 + (i/tc.k+1)*tc.latency); c != want {
					t.Errorf("request %d received in cycle %d, want %d", i, c, want)
				}
			}
		})
	}
}

// TestIdealBandwidthLimit: B bytes per cycle, no concurrency limit, Width 8.
// A request is taken in the first cycle t with busy < (t+1)*B, then busy =
// max(busy, t*B) + its bytes; it is answered L cycles later and received one
// more cycle later. Over a long run the channel takes exactly B bytes per cycle.
func TestIdealBandwidthLimit(t *testing.T) {
	const latency = 20
	for _, tc := range []struct {
		name  string
		b     int
		size  uint64
		n     int
		write bool
		taken []uint64 // the cycle each request is taken
	}{
		// 64-byte requests at 32 B/cycle: one every two cycles.
		{"half", 32, 64, 5, false, []uint64{1, 3, 5, 7, 9}},
		// 64-byte requests at 128 B/cycle: two per cycle.
		{"double", 128, 64, 6, true, []uint64{1, 1, 2, 2, 3, 3}},
		// 64-byte requests at 48 B/cycle: three every four cycles (busy 112,
		// 176, 240, then 240 is not below 4*48 = 192+48, ...).
		{"three quarters", 48, 64, 7, false, []uint64{1, 2, 3, 5, 6, 7, 9}},
		// 256-byte requests at 64 B/cycle: one every four cycles.
		{"quarter", 64, 256, 3, false, []uint64{1, 5, 9}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := idealRun(t, memory.IdealConfig{Latency: latency, Width: 8, BytesPerCycle: tc.b},
				burst(tc.n, tc.size, tc.write))
			for i, c := range got {
				if want := tc.taken[i] + latency + 1; c != want {
					t.Errorf("request %d received in cycle %d, want %d (taken in %d)", i, c, want, tc.taken[i])
				}
			}
		})
	}
}

// TestIdealLimitsKeepData: the limited controller reads and writes the
// memory image like Akita's (a write then a read of the same bytes, with a
// dirty mask left to the client).
func TestIdealLimitsKeepData(t *testing.T) {
	data := pattern(64, 9)
	script := []op{{write: true, addr: imageBase, data: data, tag: 0}, {at: 40, addr: imageBase, size: 64, tag: 1}}
	cfg := memory.Config{Type: memory.TypeIdeal, NumChannels: 2,
		Ideal: memory.IdealConfig{Latency: 5, MaxOutstanding: 1, BytesPerCycle: 16}}
	r := newRig(t, cfg, nil, memclient.Config{}, script)
	r.run(t)
	for _, d := range r.agent.done {
		if d.Tag == 1 && string(d.Data) != string(data) {
			t.Errorf("read back %v, want %v", d.Data, data)
		}
	}
	s := stats(r.mem.Stats)
	if s["GPU.Memory.Channel[0].reads"] != 1 || s["GPU.Memory.Channel[0].writes"] != 1 {
		t.Errorf("stats %v", s)
	}
}
