package study

import (
	"sort"
	"strings"
)

// Metrics are the texture-cache measures of one run or replay, summed over the
// samplers (and the L2 banks).
type Metrics struct {
	Requests, Lanes, Footprints float64
	Texels, TexelHits           float64 // taps that read memory, and those whose L1 line hit
	Lookups, L1Hits, L1Misses   float64 // distinct lines per request
	L2Bytes, L2Reads            float64 // the read path from the samplers to the L2
	FillLines, FillDecodes      float64
	FillBytes                   float64
	L2BankReads, L2BankHits     float64 // at the L2 banks
	DRAMBytes                   float64 // texture bytes the L2 read from memory
	StallMissQueue              float64 // sampler cycles, summed
	ShaderTextureStall          float64 // shader-core cycles stalled on texture results (timed runs)
	Cycles                      float64 // the frame's (timed) or the replay's cycles
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// TexelHitRate is the share of texel reads whose L1 line hit.
func (m Metrics) TexelHitRate() float64 { return ratio(m.TexelHits, m.Texels) }

// LineHitRate is the share of line lookups that hit.
func (m Metrics) LineHitRate() float64 { return ratio(m.L1Hits, m.Lookups) }

// MissesPerFootprint is L1 line misses per bilinear footprint (per bilinear
// request).
func (m Metrics) MissesPerFootprint() float64 { return ratio(m.L1Misses, m.Footprints) }

// L2HitRate is the share of the L2 banks' reads that hit.
func (m Metrics) L2HitRate() float64 { return ratio(m.L2BankHits, m.L2BankReads) }

// sum adds the values of every statistic "<prefix>...<suffix>" whose middle
// holds no '.'.
func sum(st map[string]float64, prefix, suffix string) float64 {
	keys := make([]string, 0, 16)
	for k := range st {
		if strings.HasPrefix(k, prefix) && strings.HasSuffix(k, suffix) {
			mid := k[len(prefix) : len(k)-len(suffix)]
			if !strings.Contains(mid, ".") {
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys) // a fixed summation order
	t := 0.0
	for _, k := range keys {
		t += st[k]
	}
	return t
}

// MetricsOf extracts the metrics from a run's or a replay's statistics.
func MetricsOf(st map[string]float64) Metrics {
	s := func(c string) float64 { return sum(st, "GPU.TextureSampler[", "."+c) }
	m := Metrics{
		Requests: s("requests"), Lanes: s("lanes"), Footprints: s("footprints"), Texels: s("texels"),
		Lookups: s("l1_lookups"), L1Hits: s("l1_hits"), L1Misses: s("l1_misses"),
		L2Bytes: s("bytes_read_l2"), L2Reads: s("l2_reads"), FillLines: s("fill_lines"),
		FillDecodes: s("fill_decodes"), FillBytes: s("fill_bytes"), StallMissQueue: s("cycles_stall_miss_queue"),
		L2BankReads: sum(st, "GPU.L2.Bank[", ".read_hits") + sum(st, "GPU.L2.Bank[", ".read_misses") +
			sum(st, "GPU.L2.Bank[", ".read_mshr_hits"),
		L2BankHits:         sum(st, "GPU.L2.Bank[", ".read_hits"),
		DRAMBytes:          sum(st, "GPU.TextureTraffic.", ".dram_bytes"),
		ShaderTextureStall: sum(st, "GPU.ShaderCore[", ".cycles_stall_texture"),
	}
	m.TexelHits = s("texel_hits")
	if c, ok := st["GPU.cycles"]; ok {
		m.Cycles = c
	} else {
		m.Cycles = st["replay.cycles"]
	}
	return m
}
