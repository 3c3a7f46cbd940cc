package memory_test

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/memory"
	"github.com/gfxsim/gfxsim/components/memory/dramctl"
)

// TestPeakBytesPerNs checks the theoretical peaks against the parts' own
// figures: 4 GDDR5 channels of 64 bits at 1.2 GHz, 4 transfers per clock,
// are 153.6 GB/s; 16 GDDR6 x16 channels at 14 Gb/s per pin are 448 GB/s
// (448.3 with the preset's clock of 571 ps: 2 bytes x 8 transfers per clock).
func TestPeakBytesPerNs(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  memory.Config
		want float64
	}{
		{"GDDR5 akita 1.2 GHz", memory.Config{Freq: 1200 * sim.MHz}, 153.6},
		{"GDDR6 akita 16-bit", memory.Config{NumChannels: 2, Freq: 1 * sim.GHz,
			DRAM: memory.DRAMConfig{Protocol: "GDDR6", BusWidth: 16, BurstLength: 16}}, 64},
		{"LPDDR4 akita", memory.Config{NumChannels: 1, Freq: 1600 * sim.MHz,
			DRAM: memory.DRAMConfig{Protocol: "LPDDR4", BusWidth: 16}}, 6.4},
		{"dramctl GDDR6 x16", memory.Config{Type: memory.TypeDRAMCtl, NumChannels: 16,
			DRAMCtl: dramctl.Config{Preset: "GDDR6"}}, 16 * 2 * 8 * 1000 / 571.0},
		{"ideal", memory.Config{Type: memory.TypeIdeal}, 0},
		{"ideal 32 B/cycle", memory.Config{Type: memory.TypeIdeal, Ideal: memory.IdealConfig{BytesPerCycle: 32}}, 4 * 32},
	} {
		got := tc.cfg.PeakBytesPerNs()
		if d := got - tc.want; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: %v GB/s, want %v", tc.name, got, tc.want)
		}
	}
}
