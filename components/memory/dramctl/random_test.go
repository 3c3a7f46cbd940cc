package dramctl

import (
	"bytes"
	"math/rand"
	"testing"
)

// randomScript returns n reads and writes of 32 or 64 bytes (whole aligned
// pieces of 64-byte lines) at random cycles over a few rows of every bank, so
// that hits, misses and conflicts all occur, with one long idle stretch in
// the middle (the controller sleeps through refreshes there: longer than the
// 9 x tREFI the checker allows between two refreshes, so they must be caught
// up).
func randomScript(t testing.TB, cfg Config, rng *rand.Rand, n int, idle int64) []op {
	t.Helper()
	g := cfg.WithDefaults().Geometry
	var script []op
	at := int64(0)
	for i := 0; i < n; i++ {
		at += int64(rng.Intn(4))
		if i == n/2 {
			at += idle
		}
		l := Location{Rank: rng.Intn(g.Ranks), BankGroup: rng.Intn(g.BankGroups), Bank: rng.Intn(g.Banks),
			Row: rng.Intn(min(4, g.Rows)), Column: rng.Intn(g.Columns)}
		a := addrOf(t, cfg, l) &^ 63
		size := uint64(64)
		if rng.Intn(2) == 0 {
			a += uint64(rng.Intn(2)) * 32
			size = 32
		}
		script = append(script, op{at: at, write: rng.Intn(3) == 0, addr: a, size: size})
	}
	return script
}

// TestCheckerPassesRandomTraffic runs seeded random reads and writes through
// every preset with every scheduler and page policy (and XOR bank hashing,
// two ranks, refresh on) with the protocol checker on: no command may break a
// rule, every read returns the bytes of the last write before it (requests
// take effect in arrival order), and refreshes happen.
func TestCheckerPassesRandomTraffic(t *testing.T) {
	const seed = 15
	for _, p := range Presets() {
		for _, sched := range []string{FRFCFS, FCFS} {
			for _, policy := range []string{PageOpen, PageClosed, PageTimeout} {
				for _, variant := range []string{"", "xor2rank"} {
					name := p.Name + "/" + sched + "/" + policy + "/" + variant
					t.Run(name, func(t *testing.T) {
						cfg := Config{Preset: p.Name, Scheduler: sched, PagePolicy: policy, Refresh: true, Check: true,
							StarvationCap: 300, WriteQueue: 16, WriteHigh: 12, WriteLow: 4}
						if policy == PageTimeout {
							cfg.PageTimeout = 50
						}
						if variant != "" {
							cfg.XORBankHash = true
							cfg.Geometry.Ranks = 2
							cfg.Mapping = "row,rank,column,bank,bankgroup"
						}
						rng := rand.New(rand.NewSource(seed))
						script := randomScript(t, cfg, rng, 1500, int64(12*p.Timing.TREFI))
						g := newRig(t, cfg, script, 48)
						g.run(t)
						if g.ctl.Checker() == nil || g.ctl.Checker().Err() != nil {
							t.Fatalf("checker %v", g.ctl.Checker())
						}
						checkData(t, script, g.req.data)
						st := g.stats()
						if st["Channel.refreshes"] < 5 || st["Channel.row_hits"] == 0 || st["Channel.row_conflicts"] == 0 {
							t.Errorf("refreshes %v, row hits %v, conflicts %v: the traffic does not exercise the controller",
								st["Channel.refreshes"], st["Channel.row_hits"], st["Channel.row_conflicts"])
						}
					})
				}
			}
		}
	}
}

// checkData replays script on a shadow memory and compares every read.
func checkData(t *testing.T, script []op, got [][]byte) {
	t.Helper()
	shadow := map[uint64]byte{}
	for i, o := range script {
		if o.write {
			for k := uint64(0); k < o.size; k++ {
				shadow[o.addr+k] = byte(uint64(i) + k)
			}
			continue
		}
		want := make([]byte, o.size)
		for k := range want {
			want[k] = shadow[o.addr+uint64(k)]
		}
		if !bytes.Equal(got[i], want) {
			t.Fatalf("read %d at 0x%x returned %v, want %v", i, o.addr, got[i], want)
		}
	}
}
