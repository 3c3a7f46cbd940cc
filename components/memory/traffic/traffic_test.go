package traffic_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gfxsim/gfxsim/components/memory"
	"github.com/gfxsim/gfxsim/components/memory/traffic"
)

func ideal(channels, latency int) memory.Config {
	return memory.Config{Type: memory.TypeIdeal, NumChannels: channels, Ideal: memory.IdealConfig{Latency: latency}}
}

// TestClosedLoopTiming pins the cycles of a closed loop on an ideal memory of
// latency L (all clocks 1 GHz): a request issued in cycle t is taken by the
// controller in t+1, answered in t+1+L and received in t+2+L, and the
// generator issues the next one in that same tick. With k in flight (and k
// channels taking one request each per cycle: 256-byte requests, one granule
// each) N requests finish in ceil(N/k) rounds of L+2 cycles.
func TestClosedLoopTiming(t *testing.T) {
	for _, tc := range []struct {
		latency, k, n int
		write         bool
	}{
		{10, 1, 5, false}, {100, 1, 3, true}, {20, 4, 16, false}, {20, 4, 18, true},
	} {
		t.Run(fmt.Sprintf("L%d/k%d/n%d/write=%v", tc.latency, tc.k, tc.n, tc.write), func(t *testing.T) {
			m, err := traffic.Measure(ideal(tc.k, tc.latency),
				traffic.Config{Requests: tc.n, RequestBytes: 256, MaxOutstanding: tc.k, Write: tc.write})
			if err != nil {
				t.Fatal(err)
			}
			r := m.Result
			rounds := uint64((tc.n + tc.k - 1) / tc.k)
			want := rounds * uint64(tc.latency+2)
			if r.Requests != tc.n || r.Bytes != uint64(256*tc.n) || r.FirstIssue != 0 || r.LastDone != want {
				t.Errorf("got %d requests, %d bytes, cycles %d..%d; want %d, %d, 0..%d",
					r.Requests, r.Bytes, r.FirstIssue, r.LastDone, tc.n, 256*tc.n, want)
			}
			for i, l := range r.Latencies {
				if l != uint64(tc.latency+2) {
					t.Fatalf("latency %d is %d, want %d", i, l, tc.latency+2)
				}
			}
			if got, want := r.BytesPerCycle(), float64(256*tc.n)/float64(want); got != want {
				t.Errorf("BytesPerCycle %v, want %v", got, want)
			}
		})
	}
}

// channelCounts returns the requests each channel of an ideal memory of four
// channels (256-byte granules) took from traffic gc.
func channelCounts(t *testing.T, gc traffic.Config) []float64 {
	t.Helper()
	m, err := traffic.Measure(ideal(4, 10), gc)
	if err != nil {
		t.Fatal(err)
	}
	kind := "reads"
	if gc.Write {
		kind = "writes"
	}
	out := make([]float64, 4)
	for i := range out {
		out[i] = m.Stats[fmt.Sprintf("GPU.Memory.Channel[%d].%s", i, kind)]
	}
	return out
}

// TestPatterns checks where each pattern's requests go, through the channel
// interleave of a four-channel memory (256-byte granules, 1 KiB rounds).
func TestPatterns(t *testing.T) {
	for _, tc := range []struct {
		name string
		gc   traffic.Config
		want []float64
	}{
		// 64 requests of 64 bytes: four per granule, 16 per channel.
		{"sequential", traffic.Config{Requests: 64}, []float64{16, 16, 16, 16}},
		// A stride of one round stays in channel 0; of 5 granules visits 0,1,2,3,0,...
		{"stride 1 KiB", traffic.Config{Pattern: traffic.Strided, StrideBytes: 1024, Requests: 10}, []float64{10, 0, 0, 0}},
		{"stride 1280", traffic.Config{Pattern: traffic.Strided, StrideBytes: 1280, Requests: 10, Write: true}, []float64{3, 3, 2, 2}},
		// From base 0x100 (channel 1): 128-byte requests, two per granule.
		{"sequential base", traffic.Config{Requests: 6, RequestBytes: 128, Base: 0x100}, []float64{0, 2, 2, 2}},
		// All in one granule: a span of 256 bytes.
		{"random one granule", traffic.Config{Pattern: traffic.Random, SpanBytes: 256, Base: 0x200, Requests: 9, Seed: 3},
			[]float64{0, 0, 9, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := channelCounts(t, tc.gc); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("requests per channel %v, want %v", got, tc.want)
			}
		})
	}
}

// TestRandomIsSeeded: the same seed gives the same addresses, another seed
// others, and both spread over every channel.
func TestRandomIsSeeded(t *testing.T) {
	gc := traffic.Config{Pattern: traffic.Random, Requests: 400, Seed: 1}
	a, b := channelCounts(t, gc), channelCounts(t, gc)
	gc.Seed = 2
	c := channelCounts(t, gc)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("seed 1 twice: %v and %v", a, b)
	}
	if reflect.DeepEqual(a, c) {
		t.Errorf("seeds 1 and 2 both give %v", a)
	}
	for _, n := range a {
		if n < 60 || n > 140 {
			t.Errorf("requests per channel %v: not spread over the four channels", a)
		}
	}
}

func TestPercentile(t *testing.T) {
	r := traffic.Result{Latencies: []uint64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}}
	for _, tc := range []struct {
		p    float64
		want uint64
	}{{1, 1}, {10, 1}, {11, 2}, {50, 5}, {90, 9}, {99, 10}, {100, 10}} {
		if got := r.Percentile(tc.p); got != tc.want {
			t.Errorf("p%v = %d, want %d", tc.p, got, tc.want)
		}
	}
	if got := r.AverageLatency(); got != 5.5 {
		t.Errorf("average %v, want 5.5", got)
	}
	if (traffic.Result{}).Percentile(99) != 0 || (traffic.Result{}).BytesPerCycle() != 0 {
		t.Error("an empty result has latencies or bandwidth")
	}
}

func TestConfigErrorsNameTheField(t *testing.T) {
	for _, tc := range []struct {
		gc    traffic.Config
		field string
	}{
		{traffic.Config{}, "Requests"},
		{traffic.Config{Requests: 1, RequestBytes: 48}, "RequestBytes"},
		{traffic.Config{Requests: 1, MaxOutstanding: -1}, "MaxOutstanding"},
		{traffic.Config{Requests: 1, Base: 32}, "Base"},
		{traffic.Config{Requests: 1, Pattern: traffic.Strided, StrideBytes: 96}, "StrideBytes"},
		{traffic.Config{Requests: 1, Pattern: traffic.Random, SpanBytes: 100}, "SpanBytes"},
		{traffic.Config{Requests: 1, Pattern: 7}, "Pattern"},
	} {
		err := tc.gc.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), tc.field+":") {
			t.Errorf("%+v: error %v, want one naming %s", tc.gc, err, tc.field)
		}
	}
}

func TestParsePattern(t *testing.T) {
	for _, p := range []traffic.Pattern{traffic.Sequential, traffic.Strided, traffic.Random} {
		got, err := traffic.ParsePattern(strings.ToUpper(p.String()))
		if err != nil || got != p {
			t.Errorf("ParsePattern(%q) = %v, %v", p, got, err)
		}
	}
	if _, err := traffic.ParsePattern("zigzag"); err == nil {
		t.Error("zigzag parsed")
	}
}
