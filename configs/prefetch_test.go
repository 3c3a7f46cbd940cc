package configs

import (
	"bytes"
	"regexp"
	"sort"
	"testing"
)

// timingDependent matches the statistics that may change when only the timing
// of a frame changes (the order of the work each unit does and what it
// computes stay the same):
//   - time: cycles, activity states, utilization, latencies, occupancy, queue
//     maxima, refused requests, frame_seconds; and the prefetch counters;
//   - cache contents and memory traffic: hits, misses, lookups, line reads,
//     evictions, write-backs, compression, bytes, the memory clients' and the
//     channels' counters, link traffic (prefetches read lines early or in
//     vain, and the order in which units' requests meet changes what the
//     caches hold);
//   - batching by arrival time: the quad packer flushes a warp when no quad
//     came for flush_cycles, so the grouping of quads into warps, and with it
//     warps, messages, per-warp instruction counts, texture requests, the
//     reorder buffer's and the ROP's messages and late-Z requests, follows the
//     timing;
//   - ratios of the above (rates, fractions, per-unit averages).
var timingDependent = regexp.MustCompile(`cycles|utilization|latency|occupancy|resident|_max$|refused|frame_seconds|` +
	`prefetch_|cache_|hit|miss|lookups|line_reads|evictions|write_backs|bytes|\.memory\.|\.dma\.|\.l2\.|` +
	`^GPU\.Memory\.|Xbar|Bus|reads$|writes$|` +
	`warps|messages|flushes_|instructions$|instructions_|texture_requests|requests$|responses$|` +
	`rate|fraction|_per_`)

// instanceIndex matches a component's index ("[3]"): the counters of one kind
// are summed over the instances, since which core or sampler takes a warp
// depends on the timing.
var instanceIndex = regexp.MustCompile(`\[[0-9]+\]`)

// functionalCounters sums every statistic that timingDependent does not
// match over the instances of its component kind.
func functionalCounters(st map[string]float64) map[string]float64 {
	keys := make([]string, 0, len(st))
	for k := range st {
		keys = append(keys, k)
	}
	sort.Strings(keys) // a fixed order of the float sums
	out := map[string]float64{}
	for _, k := range keys {
		if !timingDependent.MatchString(k) {
			out[instanceIndex.ReplaceAllString(k, "[]")] += st[k]
		}
	}
	return out
}

// TestPrefetchChangesTimingOnly: with the ROPs' framebuffer prefetch on
// (distance 8), a frame gives the same image, the same memory image and the
// same functional counters (every statistic timingDependent leaves, summed
// over instances) as with it off, on the default machine: the textured room,
// foliage (alpha-tested, late Z) and depthwrite (shaders that write depth,
// late Z).
func TestPrefetchChangesTimingOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	on := Default()
	on.ROP.PrefetchDistance = 8
	for _, name := range []string{"room", "foliage", "depthwrite"} {
		t.Run(name, func(t *testing.T) {
			_, f0 := frame(t, name, 160, 90, 4)
			_, f1 := frame(t, name, 160, 90, 4)
			off, pf := timed(t, Default(), f0), timed(t, on, f1)
			if !bytes.Equal(off.Image.Pix, pf.Image.Pix) {
				t.Error("the image differs with prefetch")
			}
			if !bytes.Equal(f0.Memory.Bytes(), f1.Memory.Bytes()) {
				t.Error("the memory image differs with prefetch")
			}
			a, b := functionalCounters(off.Stats), functionalCounters(pf.Stats)
			if len(a) != len(b) || len(a) < 100 {
				t.Errorf("%d and %d functional counters", len(a), len(b))
			}
			for k, v := range a {
				if b[k] != v {
					t.Errorf("%s = %v without prefetch, %v with", k, v, b[k])
				}
			}
			issued := 0.0
			for k, v := range pf.Stats {
				if instanceIndex.ReplaceAllString(k, "[]") == "GPU.ROP[].prefetch_issued" {
					issued += v
				}
			}
			if issued == 0 {
				t.Error("no prefetch issued: the test compares nothing")
			}
		})
	}
}
