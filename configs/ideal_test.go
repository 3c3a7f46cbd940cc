package configs

import (
	"fmt"
	"testing"
)

// TestIdealLimits: memory.ideal_bytes_per_cycle and ideal_max_outstanding
// reach the memory configuration (0, the default, is unlimited: Akita's
// controller), and bad values are reported at their line.
func TestIdealLimits(t *testing.T) {
	if ic := Default().MemoryConfig().Ideal; ic.BytesPerCycle != 0 || ic.MaxOutstanding != 0 || ic.Limited() {
		t.Errorf("default ideal memory %+v: limited", ic)
	}
	c, err := Parse("m.yaml", []byte("memory:\n  type: ideal\n  ideal_bytes_per_cycle: 32\n  ideal_max_outstanding: 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	if ic := c.MemoryConfig().Ideal; ic.BytesPerCycle != 32 || ic.MaxOutstanding != 4 || !ic.Limited() {
		t.Errorf("ideal memory %+v, want 32 bytes per cycle and 4 in flight", ic)
	}
	if got, want := c.MemoryConfig().PeakBytesPerNs(), 16*32*1.2; got < want-1e-9 || got > want+1e-9 {
		t.Errorf("peak %v GB/s, want %v (16 channels x 32 bytes at 1200 MHz)", got, want)
	}
	for _, tc := range []struct{ src, want string }{
		{"memory:\n  type: ideal\n  ideal_bytes_per_cycle: -1\n", "m.yaml:3: memory.ideal_bytes_per_cycle: -1 out of range [0, 1048576] bytes/cycle"},
		{"memory:\n  ideal_max_outstanding: 70000\n", "m.yaml:2: memory.ideal_max_outstanding: 70000 out of range [0, 65536]"},
	} {
		_, err := Parse("m.yaml", []byte(tc.src))
		if err == nil || err.Error() != tc.want {
			t.Errorf("error %v, want %s", err, tc.want)
		}
	}
}

// TestIdealAccessBytes: the ideal memory's access unit is its field, and it
// is the smallest block compression moves: at GDDR6's 32 bytes the depth
// units read less than at the default 64.
func TestIdealAccessBytes(t *testing.T) {
	read := map[int]float64{}
	for _, ab := range []int{32, 64} {
		cfg := machine(t, "ideal", fmt.Sprintf("memory: {type: ideal, ideal_access_bytes: %d}\n", ab))
		if got := cfg.AccessBytes(); got != ab {
			t.Fatalf("AccessBytes %d, want %d", got, ab)
		}
		_, f := frame(t, "room", 160, 90, 4)
		read[ab] = sum(timed(t, cfg, f).Stats, "GPU.DepthUnit[", "bytes_read")
	}
	if !(read[32] > 0 && read[32] < read[64]) {
		t.Errorf("depth units read %v bytes at a 32-byte access unit and %v at 64: want fewer at 32", read[32], read[64])
	}
}

// TestIdealLatencyIsNotAHang: with the watchdog at its minimum (1,000 core
// cycles), an ideal memory of 1,500 memory cycles' latency (1,250 core
// cycles) leaves a request waiting longer than the limit with nothing moving;
// the channels declare the wait (Akita's controller through a hook on its
// port, the limited one itself, with its bandwidth's occupancy), so the frame
// runs to its end and equals the reference image.
func TestIdealLatencyIsNotAHang(t *testing.T) {
	for _, limit := range []string{"", ", ideal_max_outstanding: 1", ", ideal_bytes_per_cycle: 1"} {
		t.Run("latency 1500"+limit, func(t *testing.T) {
			c := machine(t, "slow", "watchdog_cycles: 1000\nmemory: {type: ideal, ideal_latency: 1500"+limit+"}\n")
			outlastsWatchdog(t, c, "triangle", 64, 36, 1, 4)
		})
	}
}
