package shadercore_test

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/sim"

	"github.com/gfxsim/gfxsim/components/internal/testpeer"
	"github.com/gfxsim/gfxsim/components/shadercore"
)

// TestSleepsBetweenIssues runs TestSFURate's quarter-rate warp (two SFU
// instructions of 8 issue cycles each, SFU latency 1, then an add of ALU
// latency 4) and checks the cycles the core ticks at. The warp arrives in 1
// and is loaded by 3; the rcp issues in 3 and the rsq in 11, when the issue
// unit is free again; the add in 19; its output leaves in 23 (and is taken
// in 24). After each issue the core sleeps to its next event: no tick in
// the cycle after an issue, whose tick would find the issue unit busy.
func TestSleepsBetweenIssues(t *testing.T) {
	rec := record(t, wallScene)
	lat := shadercore.Latencies{ALU: 4, SFU: 1, Derivative: 4, Texture: 1, Kill: 1}
	d := customDraw(t, rec.draws[0], ".ps\n.input v0 texcoord perspective\n.output o0 color\nrcp r0, v0.x\nrsq r1, v0.y\nadd o0, r0, r1\n")
	jobs, want := warpJobs(fullWarps(t, rec, d, 1))
	e := sim.NewSerialEngine()
	r := newRig(t, e, testpeer.Edit(shadercore.DefaultConfig(), func(c *shadercore.Config) { c.Latencies = lat; c.SFURate = 4 }), 10, 4)
	ticks := &testpeer.TickLog{Comp: r.core.TickingComponent}
	e.AcceptHook(ticks)
	r.run(t, jobs...)
	checkOutputs(t, r, jobs, want)
	if wantTicks := []uint64{1, 3, 11, 19, 23}; !reflect.DeepEqual(ticks.Cycles, wantTicks) {
		t.Errorf("ticked at %v, want %v", ticks.Cycles, wantTicks)
	}
}
