package configs

import (
	"fmt"
	"math"
	"testing"

	"github.com/gfxsim/gfxsim/components/memory"
)

// TestDRAMCtlErrors: bad dramctl settings are reported with the file, the
// line of the value and the field, before anything is built: timings that
// break their own relations, a geometry that is not a power of two, a
// mapping that does not cover the address bits, a queue smaller than one
// request, watermarks out of order, an unknown preset.
func TestDRAMCtlErrors(t *testing.T) {
	const head = "memory:\n  type: dramctl\n"
	tests := []parseError{
		{"tRC < tRAS + tRP", head + "  timing: {rc: 60}\n", "m.yaml:3: memory.timing.rc: 60 is less than tRAS + tRP = 53 + 26"},
		{"tRAS < tRCD", head + "  timing:\n    ras: 20\n", "m.yaml:4: memory.timing.ras: 20 is less than tRCD = 26 (a row would close before it can be read)"},
		{"tCCD_L < tCCD_S", head + "  timing: {ccd_l: 1, ccd_s: 2}\n", "m.yaml:3: memory.timing.ccd_l: 1 is less than tCCD_S = 2"},
		{"tCCD_S shorter than a burst", head + "  timing: {ccd_s: 1, ccd_l: 3}\n", "m.yaml:3: memory.timing.ccd_s: 1 is less than a burst (2 cycles): bursts would overlap on the data bus"},
		{"tREFI <= tRFC", head + "  timing: {refi: 200}\n", "m.yaml:3: memory.timing.refi: 200 is not more than tRFC = 210 (refresh would take all the time)"},
		{"tRTP >= tREFI", head + "  timing: {rtp: 40000}\n", "m.yaml:3: memory.timing.rtp: 40000 cycles is not less than tREFI = 3333: the refreshes would fall behind"},
		{"tCL >= tREFI", head + "  timing: {cl: 16777216}\n", "m.yaml:3: memory.timing.cl: 16777216 cycles is not less than tREFI = 3333: the refreshes would fall behind"},
		{"banks not a power of two", head + "  geometry: {banks: 3}\n", "m.yaml:3: memory.geometry.banks: 3 is not a power of two up to 2^30"},
		{"negative banks", head + "  geometry: {banks: -1}\n", "m.yaml:3: memory.geometry.banks: -1 out of range [0, 1024]"},
		{"capacity beyond 2^64", head + "  geometry: {rows: 1073741824, columns: 1048576, bank_groups: 64, banks: 64}\n",
			"m.yaml:3: memory.geometry.rows: the channel holds more than 2^64 bytes, more than 2^40"},
		{"mapping", head + "  mapping: row,bank,column\n", `m.yaml:3: memory.mapping: mapping "row,bank,column" does not cover bankgroup (4 values need 2 address bits)`},
		{"mapping field", head + "  mapping: row,bank,bankgroup,col\n", `m.yaml:3: memory.mapping: mapping "row,bank,bankgroup,col": unknown field "col" (want row, rank, bankgroup, bank, column)`},
		{"read queue", head + "  read_queue: 4\n", "m.yaml:3: memory.read_queue: 4 bursts is outside [8, 65536]: a request of up to 256 bytes needs 8 bursts of 32 bytes"},
		{"write queue for larger granules", head + "  interleave_bytes: 2048\n  read_queue: 64\n", "m.yaml:3: memory.write_queue: 32 bursts is outside [64, 65536]: a request of up to 2048 bytes needs 64 bursts of 32 bytes"},
		{"watermarks", head + "  write_high: 8\n  write_low: 8\n", "m.yaml:4: memory.write_low: 8 is not below the high watermark 8: the watermarks are out of order"},
		{"high watermark below the default low one", head + "  write_high: 8\n", "m.yaml:3: memory.write_high: 8 is not above the low watermark write_low 8 (the default machine's): set write_low below it too"},
		{"high watermark", head + "  write_high: 40\n", "m.yaml:3: memory.write_high: 40 is outside [1, 32] (the write queue's size)"},
		{"timeout", head + "  page_policy: timeout\n", "m.yaml:3: memory.page_timeout: 0 cycles: the timeout page policy needs at least 1"},
		{"preset", head + "  preset: DDR9\n", `m.yaml:3: memory.preset: "DDR9" is not one of GDDR5, GDDR6, HBM2, LPDDR4`},
		{"burst beyond the granule", "rop: {compression: false}\ndepth_unit: {compression: false}\n" + head +
			"  interleave_bytes: 64\n  preset: HBM2\n  geometry: {bus_width: 256}\n",
			"m.yaml:7: memory.geometry.bus_width: a burst of 128 bytes (bus_width/8*burst_length) exceeds interleave_bytes 64: a burst must lie in one channel's granule"},
	}
	wantParseErrors(t, tests)
}

// TestDefaultMemoryIsGDDR6: the default machine's memory is 16 GDDR6
// channels of 16 bits at 14 Gb/s (448 GB/s), FR-FCFS and open page on
// gfxsim's controller; a frame on it reports the controller's counters for
// every channel.
func TestDefaultMemoryIsGDDR6(t *testing.T) {
	c := Default()
	mc := c.MemoryConfig()
	d := mc.DRAMCtl
	if mc.Type != memory.TypeDRAMCtl || mc.NumChannels != 16 || d.Preset != "GDDR6" || d.Geometry.BusWidth != 16 ||
		d.Scheduler != "frfcfs" || d.PagePolicy != "open" || !d.Refresh || c.AccessBytes() != 32 {
		t.Fatalf("default memory: %+v, access unit %d", mc, c.AccessBytes())
	}
	if got := float64(mc.Freq) / 1e6; math.Abs(got-1751.3) > 0.1 {
		t.Errorf("channel clock %.1f MHz, want 1751.3 (tCK 571 ps)", got)
	}
	c.Memory.Check = true
	_, f := frame(t, "room", 96, 54, 4)
	res := timed(t, c, f)
	bytes, peak := 0.0, 0.0
	for i := 0; i < 16; i++ {
		n := fmt.Sprintf("GPU.Memory.Channel[%d].", i)
		for _, k := range []string{"reads", "row_hits", "achieved_bandwidth", "read_latency_avg", "read_queue_max", "refreshes"} {
			if _, ok := res.Stats[n+k]; !ok {
				t.Fatalf("no %s%s", n, k)
			}
		}
		bytes += res.Stats[n+"bytes_read"] + res.Stats[n+"bytes_written"]
		peak += res.Stats[n+"peak_bandwidth"]
	}
	if bytes == 0 || math.Abs(peak-448.3) > 0.1 {
		t.Errorf("%v bytes moved, peak %.1f GB/s (want 448.3)", bytes, peak)
	}
}

// TestLongDRAMTimingIsNotAHang: a read latency (tCL) of 16,000,000 memory
// cycles, or an activate-to-read time of 8,000,000, keeps every request
// waiting longer than the watchdog's limit with no response; the channels
// declare the wait (timing.Progress.BusyUntil), so the frame runs to its end,
// which equals the reference image.
func TestLongDRAMTimingIsNotAHang(t *testing.T) {
	outlastsWatchdog(t, machine(t, "slow", "memory: {refresh: false, timing: {cl: 16000000}}\n"), "triangle", 64, 36, 1, 4)
	// A long activate-to-read wait, which the scheduler only plans.
	outlastsWatchdog(t, machine(t, "slow", "memory: {refresh: false, timing: {rcd: 8000000, ras: 8000000, rc: 8000100}}\n"), "triangle", 64, 36, 1, 4)
}
