package dramctl

import (
	"testing"

	"github.com/sarchlab/akita/v3/sim"
)

// TestFinishCountsTheIdleTailsRefreshes: a channel that goes idle sleeps
// through its refreshes and issues them when it wakes; at the frame's end
// Finish issues those of the idle tail, so that refreshes count one per tREFI
// of the frame. (Before, a channel idle at the end counted only the
// refreshes up to its last request: SAGE's channels, idle after the vertex
// reads, counted 258 of a 0.52 ms frame's 274.)
func TestFinishCountsTheIdleTailsRefreshes(t *testing.T) {
	cfg := Config{Preset: "GDDR6", Refresh: true, Check: true}
	g := newRig(t, cfg, []op{{at: 0, addr: 0, size: 64}}, 1)
	g.run(t)
	tm := cfg.WithDefaults().Timing
	const periods = 20
	end := sim.VTimeInSec(float64(periods*tm.TREFI+tm.TREFI/2) * float64(tm.TCKps) * 1e-12)
	if got := g.stats()["Channel.refreshes"]; got >= periods {
		t.Fatalf("%v refreshes before the idle tail; the test needs fewer", got)
	}
	g.ctl.Finish(end)
	st := g.stats()
	if got := st["Channel.refreshes"]; got != periods {
		t.Errorf("refreshes %v over %d tREFI periods, want %d", got, periods, periods)
	}
	if got, want := st["Channel.refresh_cycles"], float64(periods*tm.TRFC); got != want {
		t.Errorf("refresh_cycles %v, want %v", got, want)
	}
	if err := g.ctl.Checker().Finish(int64(g.ctl.Freq.Cycle(end))); err != nil {
		t.Error(err)
	}
}
