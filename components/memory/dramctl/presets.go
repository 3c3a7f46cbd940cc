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

// presets are the built-in parts. Every count of Timing is in cycles of its
// TCKps, rounded up from the datasheet's nanoseconds.
var presets = []Preset{
	{
		// GDDR5: SK hynix H5GQ1H24AFR, 1 Gb x32, 4 Gb/s (CK 1 GHz, WCK 2 GHz DDR),
		// as transcribed by gem5's GDDR5_4000_2x32 (src/mem/DRAMInterface.py):
		// tRCD 12 ns, tRP 12 ns, tRAS 28 ns, tRRD 5.5 ns, tFAW 23 ns, tRFC 65 ns,
		// tWR 12 ns, tCCD_L 3 tCK, tRTP 2 tCK, tWTR 5 ns (gem5's mean of tWTR_S
		// and tWTR_L), tRTW 2 tCK; CL is not in the datasheet and is taken equal
		// to tRCD as gem5 does. Geometry from the datasheet's addressing (16
		// banks in 4 bank groups, A0-A11 rows, A0-A5 columns of 8-transfer
		// bursts: 2 KB pages); refresh 16k per 32 ms (tREFI 1953 ns). WL is a
		// mode-register choice (1..7 tCK); 4 here.
		Name: "GDDR5", Part: "SK hynix H5GQ1H24AFR (1 Gb x32, 4 Gb/s)",
		Geometry: Geometry{BusWidth: 32, BurstLength: 8, DataRate: 4, Ranks: 1, BankGroups: 4, Banks: 4,
			Rows: 4096, Columns: 64},
		Timing: Timing{TCKps: 1000, TCL: 12, TCWL: 4, TRCD: 12, TRCDWR: 12, TRP: 12, TRAS: 28, TRC: 40,
			TCCDS: 2, TCCDL: 3, TRRDS: 6, TRRDL: 6, TFAW: 23, TWTRS: 5, TWTRL: 5, TRTP: 2, TWR: 12,
			TREFI: 1953, TRFC: 65, TRTW: 2, TRTRS: 1},
	},
	{
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
		Name: "GDDR6", Part: "Micron MT61K256M32JE-14 (8 Gb, 2 x16 channels, 14 Gb/s)",
		Geometry: Geometry{BusWidth: 16, BurstLength: 16, DataRate: 8, Ranks: 1, BankGroups: 4, Banks: 4,
			Rows: 16384, Columns: 64},
		Timing: Timing{TCKps: 571, TCL: 24, TCWL: 6, TRCD: 26, TRCDWR: 16, TRP: 26, TRAS: 53, TRC: 79,
			TCCDS: 2, TCCDL: 3, TRRDS: 7, TRRDL: 7, TFAW: 28, TWTRS: 9, TWTRL: 11, TRTP: 4, TWR: 26,
			TREFI: 3333, TRFC: 210, TRTW: 2, TRTRS: 1},
	},
	{
		// HBM2: JESD235 legacy-mode 128-bit channel of an 8 Gb die (4 Gb per
		// channel: 16 banks in 4 bank groups, 16k rows, 2 KB page), 2 Gb/s (tCK 1
		// ns), BL4 holding the bus 2 tCK. Timings from DRAMsim3's
		// configs/HBM2_8Gb_x128.ini: CL 14, CWL 4, tRCDRD = tRCDWR 14, tRP 14,
		// tRAS 34, tRRD_S 4, tRRD_L 6, tWTR_S 6, tWTR_L 8, tFAW 30, tWR 16, tRTP_L
		// 6, tRFC 260, tREFI 3900; tCCD_S is the BL4 burst (DRAMsim3's 1 is BL2)
		// and tCCD_L 3 tCK (gem5's HBM_2000_4H_1x64).
		Name: "HBM2", Part: "JESD235 HBM2 (8 Gb die, 128-bit legacy channel, 2 Gb/s)",
		Geometry: Geometry{BusWidth: 128, BurstLength: 4, DataRate: 2, Ranks: 1, BankGroups: 4, Banks: 4,
			Rows: 16384, Columns: 32},
		Timing: Timing{TCKps: 1000, TCL: 14, TCWL: 4, TRCD: 14, TRCDWR: 14, TRP: 14, TRAS: 34, TRC: 48,
			TCCDS: 2, TCCDL: 3, TRRDS: 4, TRRDL: 6, TFAW: 30, TWTRS: 6, TWTRL: 8, TRTP: 6, TWR: 16,
			TREFI: 3900, TRFC: 260, TRTW: 2, TRTRS: 1},
	},
	{
		// LPDDR4: JESD209-4 LPDDR4-3200 (tCK 625 ps), 8 Gb die, x16 channel (4 Gb
		// per channel: 8 banks, no bank groups, 32k rows, 1k columns of 2 bytes =
		// 2 KB page), BL16 holding the bus 8 tCK. Core timings of JESD209-4 (as
		// transcribed in Ramulator's src/LPDDR4.h from its table 89) rounded up
		// at 625 ps: RL 28 and WL 14 (set A, no DBI), tRCD 18 ns, tRPpb 18 ns,
		// tRAS 42 ns, tRC = tRAS + tRPpb, tRRD 10 ns, tFAW 40 ns, tWTR 10 ns,
		// tRTP 7.5 ns, tWR 18 ns, tCCD 8 tCK, tRFCab 180 ns (4 Gb per channel),
		// tREFI 3.904 us; read to write gap RU(tDQSCKmax 3.5 ns / tCK) = 6.
		Name: "LPDDR4", Part: "JESD209-4 LPDDR4-3200 (8 Gb die, x16 channel)",
		Geometry: Geometry{BusWidth: 16, BurstLength: 16, DataRate: 2, Ranks: 1, BankGroups: 1, Banks: 8,
			Rows: 32768, Columns: 64},
		Timing: Timing{TCKps: 625, TCL: 28, TCWL: 14, TRCD: 29, TRCDWR: 29, TRP: 29, TRAS: 68, TRC: 97,
			TCCDS: 8, TCCDL: 8, TRRDS: 16, TRRDL: 16, TFAW: 64, TWTRS: 16, TWTRL: 16, TRTP: 12, TWR: 29,
			TREFI: 6246, TRFC: 288, TRTW: 6, TRTRS: 1},
	},
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
