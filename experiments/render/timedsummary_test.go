package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memory"
	"github.com/gfxsim/gfxsim/components/memory/dramctl"
)

// TestMemorySummary checks the memory table's cells: a dramctl channel shows
// its own achieved and peak bandwidth, row-hit rate and latency; an Akita
// channel its bytes over the frame, the configuration's peak per channel, no
// row hits, and its latency in cycles of its clock and in ns.
func TestMemorySummary(t *testing.T) {
	for _, tc := range []struct {
		name string
		mc   memory.Config
		st   map[string]float64
		want []string
	}{
		{
			name: "dramctl",
			mc:   memory.Config{Type: memory.TypeDRAMCtl, NumChannels: 2, DRAMCtl: dramctl.Config{Preset: "HBM2"}},
			st: map[string]float64{
				"GPU.Memory.Channel[0].bytes_read": 3e6, "GPU.Memory.Channel[0].bytes_written": 1e6,
				"GPU.Memory.Channel[0].achieved_bandwidth": 12.34, "GPU.Memory.Channel[0].peak_bandwidth": 32,
				"GPU.Memory.Channel[0].row_hit_rate": 0.877, "GPU.Memory.Channel[0].read_latency_avg": 150,
				"GPU.Memory.Channel[1].bytes_read": 1e6, "GPU.Memory.Channel[1].bytes_written": 0,
				"GPU.Memory.Channel[1].achieved_bandwidth": 2.5, "GPU.Memory.Channel[1].peak_bandwidth": 32,
				"GPU.Memory.Channel[1].row_hit_rate": 0, "GPU.Memory.Channel[1].read_latency_avg": 40,
			},
			want: []string{
				// HBM2 runs at 1 GHz: cycles are ns.
				"GPU.Memory.Channel[0]     3.00        1.00  12.3       32.0     87.7%                        150   150",
				"GPU.Memory.Channel[1]     1.00        0.00   2.5       32.0      0.0%                         40    40",
				// 5 MB over 1 ms; peak 2 x 32.
				"total                     4.00        1.00   5.0       64.0",
			},
		},
		{
			name: "akita dram",
			mc:   memory.Config{NumChannels: 4, Freq: 1200 * sim.MHz},
			st: map[string]float64{
				"GPU.Memory.Channel[0].bytes_read": 2e6, "GPU.Memory.Channel[0].bytes_written": 2e6,
				"GPU.Memory.Channel[0].read_latency_avg": 600,
				"GPU.Memory.Channel[3].bytes_read":       1e6, "GPU.Memory.Channel[3].bytes_written": 0,
				"GPU.Memory.Channel[3].read_latency_avg": 0,
				"GPU.ROP.memory.bytes_read":              7e6, // not a channel
			},
			want: []string{
				// 4 MB over 1 ms is 4 GB/s; 153.6 GB/s / 4 channels; 600 cycles at 1.2 GHz = 500 ns.
				"GPU.Memory.Channel[0]     2.00        2.00   4.0       38.4         -                        600   500",
				"GPU.Memory.Channel[3]     1.00        0.00   1.0       38.4         -                          0     0",
				"total                     3.00        2.00   5.0      153.6",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			memorySummary(&b, tc.st, 1e-3, tc.mc.WithDefaults())
			out := b.String()
			for _, want := range tc.want {
				if !strings.Contains(out, want) {
					t.Errorf("no line %q in\n%s", want, out)
				}
			}
			if strings.Contains(out, "GPU.ROP") {
				t.Errorf("a client in the channel table:\n%s", out)
			}
		})
	}
}
