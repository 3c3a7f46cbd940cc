package dramctl

import (
	"math/rand"
	"testing"
)

// TestFastScanAndPlansEqualTheQueueScan runs the seeded random traffic of
// TestCheckerPassesRandomTraffic, and the benchmarks' sequential and random
// streams, through every preset, scheduler and page policy, and checks every
// decision taken bank by bank (fastScan) against the scan of every queued
// burst (scanQueue), and every decision taken from a plan against decide at
// that cycle: the same command, burst and next cycle. Both shortcuts must be
// taken often, so that the comparison means something.
func TestFastScanAndPlansEqualTheQueueScan(t *testing.T) {
	fast, planned := 0, 0
	fastScanHook = func(c *Comp, q []burst, pend []int32, now int64, ch choice, ok bool, next int64) {
		fast++
		wch, wok, wnext := c.scanQueue(q, pend, now, false)
		if ch != wch || ok != wok || !ok && next != wnext {
			t.Fatalf("%s cycle %d: fastScan (%+v, %v, %d), scanQueue (%+v, %v, %d)", c.Name(), now, ch, ok, next, wch, wok, wnext)
		}
	}
	planHook = func(c *Comp, now int64, ch choice, ok bool, next int64) {
		planned++
		pred, predOK := c.pred, c.predOK // decide overwrites the prediction
		wch, wok, wnext := c.decide(now)
		c.pred, c.predOK = pred, predOK
		if ch != wch || ok != wok || !ok && next != wnext {
			t.Fatalf("%s cycle %d: plan (%+v, %v, %d), decide (%+v, %v, %d); plan %+v refDue %v mode %v reads %d writes %d", c.Name(), now, ch, ok, next, wch, wok, wnext, c.plan, c.state.refDue, c.writeMode, len(c.reads), len(c.writes))
		}
	}
	defer func() { fastScanHook, planHook = nil, nil }()
	for _, p := range Presets() {
		for _, sched := range []string{FRFCFS, FCFS} {
			for _, policy := range []string{PageOpen, PageClosed, PageTimeout} {
				cfg := Config{Preset: p.Name, Scheduler: sched, PagePolicy: policy, Refresh: true, Check: true,
					StarvationCap: 300, WriteQueue: 16, WriteHigh: 12, WriteLow: 4}
				if policy == PageTimeout {
					cfg.PageTimeout = 50
				}
				rng := rand.New(rand.NewSource(15))
				scripts := [][]op{
					randomScript(t, cfg, rng, 1500, int64(12*p.Timing.TREFI)),
					stream(3000, func(i int) uint64 { return uint64(i) * 64 }),
					stream(3000, func(int) uint64 { return uint64(rng.Int63n(16<<20)) &^ 63 }),
				}
				for _, script := range scripts {
					g := newRig(t, cfg, script, 48)
					g.run(t)
					if err := g.ctl.Checker().Err(); err != nil {
						t.Fatalf("%s/%s/%s: %v", p.Name, sched, policy, err)
					}
				}
			}
		}
	}
	if fast < 100000 || planned < 10000 {
		t.Errorf("%d decisions bank by bank, %d from plans: too few to compare", fast, planned)
	}
	t.Logf("%d decisions bank by bank, %d from plans, all equal", fast, planned)
}
