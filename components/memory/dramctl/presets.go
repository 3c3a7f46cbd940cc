package dramctl

import "strings"

// Preset is a DRAM part: one channel's geometry and timing. Sources are cited
// on each preset below and in configs/README.md ("DRAM presets").
type Preset struct {
	Name     string
	Part     string // the device the figures come from
	Geometry Geometry
	Timing   Timing
}

// PeakBytesPerNs returns the channel's theoretical peak bandwidth in bytes per
// nanosecond (GB/s): BusWidth/8 bytes per transfer, DataRate transfers per
// clock of TCKps.
func PeakBytesPerNs(g Geometry, t Timing) float64 {
	return float64(g.BusWidth/8) * float64(g.DataRate) * 1000 / float64(t.TCKps)
}

// presets are the built-in parts, one a row: name and part, then the
// geometry (BusWidth, BurstLength, DataRate, Ranks, BankGroups, Banks, Rows,
// Columns) and the timing (TCKps; TCL, TCWL, TRCD, TRCDWR, TRP, TRAS, TRC,
// TCCDS, TCCDL, TRRDS, TRRDL, TFAW, TWTRS, TWTRL, TRTP, TWR, TREFI, TRFC, TRTW,
// TRTRS), in the order of the fields of Geometry and Timing. Every count of
// Timing is in cycles of its TCKps, rounded up from the datasheet's
// nanoseconds.
var presets = []Preset{
	// GDDR5: SK hynix H5GQ1H24AFR, 1 Gb x32, 4 Gb/s (CK 1 GHz, WCK 2 GHz DDR),
	// as transcribed by gem5's GDDR5_4000_2x32 (src/mem/DRAMInterface.py):
	// tRCD 12 ns, tRP 12 ns, tRAS 28 ns, tRRD 5.5 ns, tFAW 23 ns, tRFC 65 ns,
	// tWR 12 ns, tCCD_L 3 tCK, tRTP 2 tCK, tWTR 5 ns (gem5's mean of tWTR_S
	// and tWTR_L), tRTW 2 tCK; CL is not in the datasheet and is taken equal
	// to tRCD as gem5 does. Geometry from the datasheet's addressing (16
	// banks in 4 bank groups, A0-A11 rows, A0-A5 columns of 8-transfer
	// bursts: 2 KB pages); refresh 16k per 32 ms (tREFI 1953 ns). WL is a
	// mode-register choice (1..7 tCK); 4 here.
	{"GDDR5", "SK hynix H5GQ1H24AFR (1 Gb x32, 4 Gb/s)", Geometry{32, 8, 4, 1, 4, 4, 4096, 64}, Timing{1000, 12, 4, 12, 12, 12, 28, 40, 2, 3, 6, 6, 23, 5, 5, 2, 12, 1953, 65, 2, 1}},
	// GDDR6: Micron MT61K256M32JE-14, 8 Gb, two x16 channels, 14 Gb/s.
	// Geometry and clocking from Micron's 8Gb GDDR6 SGRAM brief (Rev. F 8/18,
	// Table 3 and Figure 4): per channel 16 banks (BA[3:0]) in 4 bank groups,
	// 16k rows (R[13:0]), 64 columns of 16n-prefetch (32-byte) bursts, 2 KB
	// page, refresh 16k per 32 ms; data at 8x CK, so CK = 1.75 GHz (tCK 571
	// ps) and BL16 holds the bus 2 tCK; tCCD_L is 3 (or 4) tCK. JESD250
	// leaves AC timings to the vendors' datasheets; these are Ramulator2's
	// GDDR6 preset (src/dram/impl/GDDR6.cpp, GDDR6_2000_1350mV at its tCK of
	// 570 ps): CL 24, CWL 6, tRCDRD 26, tRCDWR 16, tRP 26, tRAS 53, tRC 79,
	// tWR 26, tRTP 4, tRRD 7, tWTR_S 9, tWTR_L 11, tFAW 28, tRFC 210, tREFI
	// 3333 (1.9 us).
	{"GDDR6", "Micron MT61K256M32JE-14 (8 Gb, 2 x16 channels, 14 Gb/s)", Geometry{16, 16, 8, 1, 4, 4, 16384, 64}, Timing{571, 24, 6, 26, 16, 26, 53, 79, 2, 3, 7, 7, 28, 9, 11, 4, 26, 3333, 210, 2, 1}},
	// HBM2: JESD235 legacy-mode 128-bit channel of an 8 Gb die (4 Gb per
	// channel: 16 banks in 4 bank groups, 16k rows, 2 KB page), 2 Gb/s (tCK 1
	// ns), BL4 holding the bus 2 tCK. Timings from DRAMsim3's
	// configs/HBM2_8Gb_x128.ini: CL 14, CWL 4, tRCDRD = tRCDWR 14, tRP 14,
	// tRAS 34, tRRD_S 4, tRRD_L 6, tWTR_S 6, tWTR_L 8, tFAW 30, tWR 16, tRTP_L
	// 6, tRFC 260, tREFI 3900; tCCD_S is the BL4 burst (DRAMsim3's 1 is BL2)
	// and tCCD_L 3 tCK (gem5's HBM_2000_4H_1x64).
	{"HBM2", "JESD235 HBM2 (8 Gb die, 128-bit legacy channel, 2 Gb/s)", Geometry{128, 4, 2, 1, 4, 4, 16384, 32}, Timing{1000, 14, 4, 14, 14, 14, 34, 48, 2, 3, 4, 6, 30, 6, 8, 6, 16, 3900, 260, 2, 1}},
	// LPDDR4: JESD209-4 LPDDR4-3200 (tCK 625 ps), 8 Gb die, x16 channel (4 Gb
	// per channel: 8 banks, no bank groups, 32k rows, 1k columns of 2 bytes =
	// 2 KB page), BL16 holding the bus 8 tCK. Core timings of JESD209-4 (as
	// transcribed in Ramulator's src/LPDDR4.h from its table 89) rounded up
	// at 625 ps: RL 28 and WL 14 (set A, no DBI), tRCD 18 ns, tRPpb 18 ns,
	// tRAS 42 ns, tRC = tRAS + tRPpb, tRRD 10 ns, tFAW 40 ns, tWTR 10 ns,
	// tRTP 7.5 ns, tWR 18 ns, tCCD 8 tCK, tRFCab 180 ns (4 Gb per channel),
	// tREFI 3.904 us; read to write gap RU(tDQSCKmax 3.5 ns / tCK) = 6.
	{"LPDDR4", "JESD209-4 LPDDR4-3200 (8 Gb die, x16 channel)", Geometry{16, 16, 2, 1, 1, 8, 32768, 64}, Timing{625, 28, 14, 29, 29, 29, 68, 97, 8, 8, 16, 16, 64, 16, 16, 12, 29, 6246, 288, 6, 1}},
}

// PresetNames returns the built-in presets' names.
func PresetNames() []string {
	out := make([]string, len(presets))
	for i, p := range presets {
		out[i] = p.Name
	}
	return out
}

// Presets returns a copy of the built-in presets.
func Presets() []Preset { return append([]Preset(nil), presets...) }

// LookupPreset returns the preset called name (case-insensitive).
func LookupPreset(name string) (Preset, bool) {
	for _, p := range presets {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return Preset{}, false
}
