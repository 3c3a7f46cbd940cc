// Package dramctl is gfxsim's DRAM controller: one channel of GDDR5, GDDR6,
// HBM2 or LPDDR4 (presets) with its banks, timing, scheduler and refresh.
package dramctl
