package dramctl

import (
	"fmt"
	"testing"
)

// TestIdleBankTiming pins, for every preset, the cycle the response leaves
// the controller for one-burst requests, all arithmetic in command clocks
// from the preset's timing (BC is the burst's cycles on the data bus,
// BurstLength/DataRate). The requester sends in cycle 0 (or s = 300 for the
// second request, long after the first completed); the request enters the
// Top port in the cycle it is sent and the controller takes it in the next
// (cycle a = 1, or s+1), when it may issue the first command:
//
//   - read, idle bank:  ACT at a, RD at a+tRCD, data ends a+tRCD+CL+BC;
//   - write, idle bank: ACT at a, WR at a+tRCDWR, data ends a+tRCDWR+CWL+BC;
//   - row hit (the first request left the row open): RD at a, a+CL+BC;
//   - row miss (another bank; this bank closed): a+tRCD+CL+BC;
//   - row conflict (same bank, another row): PRE at a, ACT at a+tRP, RD at
//     a+tRP+tRCD, data ends a+tRP+tRCD+CL+BC.
//
// The response leaves in the cycle its last data transfer ends.
func TestIdleBankTiming(t *testing.T) {
	const s = 300
	for _, p := range Presets() {
		tm, g := p.Timing, p.Geometry
		bc := int64(g.BurstCycles())
		cfg := Config{Preset: p.Name}
		l0 := Location{Row: 5, Column: 3}
		hit := Location{Row: 5, Column: 9}
		other := Location{BankGroup: g.BankGroups - 1, Bank: g.Banks - 1, Row: 5, Column: 3}
		conflict := Location{Row: 6, Column: 3}
		size := g.BurstBytes()
		cases := []struct {
			name       string
			second     *Location
			write      bool
			want       int64
			hits, miss float64
			conflicts  float64
		}{
			{"read", nil, false, 1 + int64(tm.TRCD+tm.TCL) + bc, 0, 1, 0},
			{"write", nil, true, 1 + int64(tm.TRCDWR+tm.TCWL) + bc, 0, 1, 0},
			{"row hit", &hit, false, s + 1 + int64(tm.TCL) + bc, 1, 1, 0},
			{"row miss", &other, false, s + 1 + int64(tm.TRCD+tm.TCL) + bc, 0, 2, 0},
			{"row conflict", &conflict, false, s + 1 + int64(tm.TRP+tm.TRCD+tm.TCL) + bc, 0, 1, 1},
		}
		for _, tc := range cases {
			t.Run(p.Name+"/"+tc.name, func(t *testing.T) {
				script := []op{{at: 0, write: tc.write, addr: addrOf(t, cfg, l0), size: size}}
				if tc.second != nil {
					script = append(script, op{at: s, addr: addrOf(t, cfg, *tc.second), size: size})
				}
				g := newRig(t, cfg, script, 16)
				g.run(t)
				last := len(script) - 1
				if got := g.leaves(last); got != tc.want {
					t.Errorf("response left in cycle %d, want %d", got, tc.want)
				}
				st := g.stats()
				n := "Channel."
				if st[n+"row_hits"] != tc.hits || st[n+"row_misses"] != tc.miss || st[n+"row_conflicts"] != tc.conflicts {
					t.Errorf("row hits, misses, conflicts = %v, %v, %v; want %v, %v, %v", st[n+"row_hits"],
						st[n+"row_misses"], st[n+"row_conflicts"], tc.hits, tc.miss, tc.conflicts)
				}
			})
		}
	}
}

// TestPresetsValid checks that every preset passes its own validation with
// the defaults and gives the peak bandwidth its datasheet states.
func TestPresetsValid(t *testing.T) {
	want := map[string]float64{
		"GDDR5":  16,     // 32 bits x 4 Gb/s = 16 GB/s per device
		"GDDR6":  28.021, // 16 bits x 14.01 Gb/s (tCK 571 ps) = 28 GB/s per channel
		"HBM2":   32,     // 128 bits x 2 Gb/s = 32 GB/s per channel
		"LPDDR4": 6.4,    // 16 bits x 3.2 Gb/s = 6.4 GB/s per channel
	}
	for _, p := range Presets() {
		cfg := Config{Preset: p.Name, Refresh: true}
		if err := cfg.Validate(256); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
		got := PeakBytesPerNs(p.Geometry, p.Timing)
		if w := want[p.Name]; fmt.Sprintf("%.3f", got) != fmt.Sprintf("%.3f", w) {
			t.Errorf("%s: peak %.3f GB/s, want %.3f", p.Name, got, w)
		}
	}
}

// The write-drain watermarks default together: with WriteHigh given, a
// WriteLow of 0 (drain every write) is kept (it became WriteQueue/4).
func TestWatermarkDefaults(t *testing.T) {
	for _, tc := range []struct{ high, low, wantHigh, wantLow int }{
		{0, 0, 24, 8},
		{16, 0, 16, 0},
		{16, 4, 16, 4},
	} {
		c := Config{Preset: "GDDR6", WriteQueue: 32, WriteHigh: tc.high, WriteLow: tc.low}.WithDefaults()
		if c.WriteHigh != tc.wantHigh || c.WriteLow != tc.wantLow {
			t.Errorf("WriteHigh %d, WriteLow %d: defaults %d and %d, want %d and %d", tc.high, tc.low, c.WriteHigh, c.WriteLow, tc.wantHigh, tc.wantLow)
		}
	}
}

// Two reads of one row that arrive together at a closed bank are both row
// misses by the state at arrival, yet share one activate: bursts_per_activate
// is 2 where row_hit_rate is 0.
func TestBurstsPerActivate(t *testing.T) {
	cfg := Config{Preset: "GDDR6"}
	size := cfg.WithDefaults().Geometry.BurstBytes()
	script := []op{{at: 0, addr: addrOf(t, cfg, Location{Row: 5, Column: 3}), size: size},
		{at: 0, addr: addrOf(t, cfg, Location{Row: 5, Column: 9}), size: size}}
	g := newRig(t, cfg, script, 16)
	g.run(t)
	st := g.stats()
	if st["Channel.row_hit_rate"] != 0 || st["Channel.activates"] != 1 || st["Channel.bursts_per_activate"] != 2 {
		t.Errorf("row_hit_rate %v, activates %v, bursts_per_activate %v; want 0, 1, 2",
			st["Channel.row_hit_rate"], st["Channel.activates"], st["Channel.bursts_per_activate"])
	}
}
